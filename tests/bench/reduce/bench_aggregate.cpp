// CenteredClip vs the plain weighted mean: time per reduced megabyte, side by side in one run.
//
//   bench_aggregate [--members 16] [--values 1048576] [--iters 10] [--attack none|sign-flip|shifted-mean]
//
// Each member contributes `values` floats (1M parameters = 4 MiB each); a reduced megabyte is
// one megabyte of the result. Both aggregators run on the same inputs, alternately, best of
// `iters`. Also times the slice one ring owner aggregates (values / members). Prints RESULT
// lines with the ratio, centred on the caller's own values (as the ring calls it) and on the
// coordinate-wise median; the goal is CenteredClip under 2x the mean. Exits non-zero when
// CenteredClip's result is not within 2x the honest drift of the honest centre (a correctness check,
// not a speed one: CI runs it at a small size).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "reduce/centered_clip.hpp"

using namespace rookery::reduce;
using Clock = std::chrono::steady_clock;

namespace {

struct Args {
  std::size_t members = 16, values = 1 << 20;
  int iters = 10;
  std::string attack = "none";
};

double best_seconds(const Aggregator& a, const std::vector<Contribution>& c,
                    std::vector<float>& out, int iters, double& other_best, const Aggregator& b,
                    std::vector<float>& out_b) {
  double best = 1e30;
  other_best = 1e30;
  for (int i = 0; i < iters; ++i) {
    auto t0 = Clock::now();
    a.aggregate(c, out);
    auto t1 = Clock::now();
    b.aggregate(c, out_b);
    auto t2 = Clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
    other_best = std::min(other_best, std::chrono::duration<double>(t2 - t1).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--members")
      a.members = std::stoul(v);
    else if (k == "--values")
      a.values = std::stoul(v);
    else if (k == "--iters")
      a.iters = std::stoi(v);
    else if (k == "--attack")
      a.attack = v;
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  if (a.members < 2 || a.values < 1 || a.iters < 1) {
    std::fprintf(stderr, "need --members >= 2, --values >= 1, --iters >= 1\n");
    return 2;
  }
  // Replicas of one model: a shared centre plus small independent drift.
  std::mt19937 rng(1);
  std::normal_distribution<float> centre(0.f, 1.f), drift(0.f, 0.01f);
  std::vector<float> mu(a.values);
  for (auto& x : mu) x = centre(rng);
  std::vector<std::vector<float>> values(a.members, std::vector<float>(a.values));
  for (auto& v : values)
    for (std::size_t k = 0; k < a.values; ++k) v[k] = mu[k] + drift(rng);
  const std::size_t liars = a.attack == "none" ? 0 : (a.members - 1) / 2;
  for (std::size_t m = a.members - liars; m < a.members; ++m) {
    for (std::size_t k = 0; k < a.values; ++k) {
      if (a.attack == "sign-flip")
        values[m][k] *= -1000.f;
      else if (a.attack == "shifted-mean")
        values[m][k] = mu[k] - 0.05f;
      else {
        std::fprintf(stderr, "unknown attack %s\n", a.attack.c_str());
        return 2;
      }
    }
  }
  std::vector<std::string> names;
  for (std::size_t m = 0; m < a.members; ++m) names.push_back("member-" + std::to_string(m));

  const WeightedMean mean;
  const CenteredClip clip;
  int status = 0;
  for (std::size_t len : {a.values / a.members, a.values}) {
    if (len == 0) continue;
    // As the ring's slice owner calls it: member 0's values are the caller's own (the centre);
    // then with no own values, centred on the coordinate-wise median.
    for (const bool own : {true, false}) {
      std::vector<Contribution> c;
      for (std::size_t m = 0; m < a.members; ++m) {
        c.push_back(
            {names[m], 1.0 + double(m % 3), std::span(values[m]).first(len), own && m == 0});
      }
      std::vector<float> out_clip(len), out_mean(len);
      double mean_s = 0;
      const double clip_s = best_seconds(clip, c, out_clip, a.iters, mean_s, mean, out_mean);
      const double mb = double(len) * sizeof(float) / 1e6;
      // Within 2 rho of mu, rho = 0.01 sqrt(len) the honest drift (the bound test_centered_clip
      // states for 7 liars of 16; the liars, if any, are rejected or clipped).
      double err = 0;
      for (std::size_t k = 0; k < len; ++k) err += std::pow(double(out_clip[k]) - mu[k], 2);
      const bool ok = std::sqrt(err) <= 2 * 0.01 * std::sqrt(double(len));
      if (!ok) status = 1;
      std::printf(
          "RESULT aggregate members=%zu values=%zu attack=%s centre=%s mean_ms_per_mb=%.3f "
          "centered_clip_ms_per_mb=%.3f ratio=%.2f %s\n",
          a.members, len, a.attack.c_str(), own ? "own" : "median", 1e3 * mean_s / mb,
          1e3 * clip_s / mb, clip_s / mean_s, ok ? "ok" : "WRONG RESULT");
    }
  }
  return status;
}
