#include "reduce/centered_clip.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "reduce/simd.hpp"

namespace rookery::reduce {

namespace {

constexpr std::size_t kBlock = 256;   // coordinates per block: n rows of it stay in L1
static_assert(kBlock % kLanes == 0);

using Comparators = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

// Batcher's odd-even merge sort for n inputs (the power-of-two network with every comparator
// that touches a position >= n dropped: padding those with +inf, they would never move),
// pruned to the comparators the two middle outputs depend on.
Comparators median_network(std::uint32_t n) {
  std::uint32_t size = 1;
  while (size < n) size <<= 1;
  Comparators all;
  for (std::uint32_t p = 1; p < size; p <<= 1) {
    for (std::uint32_t k = p; k >= 1; k >>= 1) {
      for (std::uint32_t j = k % p; j + k < size; j += 2 * k) {
        for (std::uint32_t i = 0; i < k && i + j + k < size; ++i) {
          if ((i + j) / (2 * p) == (i + j + k) / (2 * p) && i + j + k < n) all.emplace_back(i + j, i + j + k);
        }
      }
    }
  }
  std::vector<bool> needed(n, false);
  needed[(n - 1) / 2] = needed[n / 2] = true;
  Comparators kept;
  for (auto it = all.rbegin(); it != all.rend(); ++it) {
    if (needed[it->first] || needed[it->second]) {
      kept.push_back(*it);
      needed[it->first] = needed[it->second] = true;
    }
  }
  std::reverse(kept.begin(), kept.end());
  return kept;
}

// Per-call working memory, reused across calls on the same thread (the ring's threads).
struct Scratch {
  std::vector<float> rows;     // n x kBlock
  std::vector<float> median;   // the slice's coordinate-wise median
  std::vector<double> gram;    // n x n, upper triangle
  std::vector<double> norm2;   // n
};

// One blocked pass over the members `active` (indices into `c`): per member the squared norm,
// the coordinate-wise median into `median`, and the Gram matrix of (g_i - median).
// Returns false when the median has a non-finite coordinate (a majority non-finite there).
ROOKERY_SIMD_CLONES
bool median_and_gram(std::span<const Contribution> c, const std::vector<std::uint32_t>& active,
                     const Comparators& network, Scratch& s) {
  const std::size_t n = active.size(), len_total = s.median.size();
  const std::uint32_t lo = std::uint32_t((n - 1) / 2), hi = std::uint32_t(n / 2);
  float* rows = s.rows.data();
  double* gram = s.gram.data();
  bool finite_median = true;
  alignas(64) float mblock[kBlock];
  const f8 inf = splat(std::numeric_limits<float>::infinity());
  for (std::size_t k0 = 0; k0 < len_total; k0 += kBlock) {
    const std::size_t len = std::min(kBlock, len_total - k0);
    const std::size_t vecs = (len + kLanes - 1) / kLanes;
    // Copy each member's block (zero padded), its squared norm, and NaN -> +inf for the network.
    for (std::size_t a = 0; a < n; ++a) {
      const float* src = c[active[a]].values.data() + k0;
      float* row = rows + a * kBlock;
      std::memcpy(row, src, len * sizeof(float));
      std::memset(row + len, 0, (vecs * kLanes - len) * sizeof(float));
      f8 acc = splat(0.f);
      for (std::size_t v = 0; v < vecs; ++v) {
        const f8 x = load(row + v * kLanes);
        acc += x * x;
        store(row + v * kLanes, x == x ? x : inf);
      }
      float partial = hsum(acc);
      if (std::isfinite(partial)) {
        s.norm2[a] += partial;
      } else {  // overflowed f32, or a NaN/Inf value: decide in double
        double d = 0;
        for (std::size_t k = 0; k < len; ++k) d += double(src[k]) * double(src[k]);
        s.norm2[a] += d;
      }
    }
    for (const auto& [x, y] : network) {
      float* ra = rows + x * kBlock;
      float* rb = rows + y * kBlock;
      for (std::size_t v = 0; v < vecs; ++v) {
        const f8 p = load(ra + v * kLanes), q = load(rb + v * kLanes);
        store(ra + v * kLanes, p < q ? p : q);
        store(rb + v * kLanes, p < q ? q : p);
      }
    }
    {
      const float* rl = rows + lo * kBlock;
      const float* rh = rows + hi * kBlock;
      f8 check = splat(0.f);
      for (std::size_t v = 0; v < vecs; ++v) {
        const f8 m = (load(rl + v * kLanes) + load(rh + v * kLanes)) * 0.5f;
        store(mblock + v * kLanes, m);
        check += m - m;   // NaN where m is not finite
      }
      if (!(hsum(check) == 0.f)) finite_median = false;
      std::memcpy(s.median.data() + k0, mblock, len * sizeof(float));
    }
    // Centre the original values on the median, then accumulate the Gram matrix.
    for (std::size_t a = 0; a < n; ++a) {
      const float* src = c[active[a]].values.data() + k0;
      float* row = rows + a * kBlock;
      std::size_t k = 0;
      for (; k < len; ++k) row[k] = src[k] - mblock[k];
      for (; k < vecs * kLanes; ++k) row[k] = 0.f;
    }
    for (std::size_t a = 0; a < n; ++a) {
      const float* ra = rows + a * kBlock;
      std::size_t b = a;
      for (; b + 4 <= n; b += 4) {   // four dot products per pass over row a
        const float* r0 = rows + b * kBlock;
        f8 s0 = splat(0.f), s1 = s0, s2 = s0, s3 = s0;
        for (std::size_t v = 0; v < vecs; ++v) {
          const f8 x = load(ra + v * kLanes);
          s0 += x * load(r0 + v * kLanes);
          s1 += x * load(r0 + kBlock + v * kLanes);
          s2 += x * load(r0 + 2 * kBlock + v * kLanes);
          s3 += x * load(r0 + 3 * kBlock + v * kLanes);
        }
        gram[a * n + b] += hsum(s0);
        gram[a * n + b + 1] += hsum(s1);
        gram[a * n + b + 2] += hsum(s2);
        gram[a * n + b + 3] += hsum(s3);
      }
      for (; b < n; ++b) {
        const float* rb = rows + b * kBlock;
        f8 s0 = splat(0.f);
        for (std::size_t v = 0; v < vecs; ++v) s0 += load(ra + v * kLanes) * load(rb + v * kLanes);
        gram[a * n + b] += hsum(s0);
      }
    }
  }
  return finite_median;
}

// out = median + sum_a beta_a (g_a - median)
ROOKERY_SIMD_CLONES
void combine(std::span<const Contribution> c, const std::vector<std::uint32_t>& active,
             const std::vector<double>& beta, const std::vector<float>& median, std::span<float> out) {
  const std::size_t len_total = out.size();
  for (std::size_t k0 = 0; k0 < len_total; k0 += kBlock) {
    const std::size_t len = std::min(kBlock, len_total - k0);
    float* o = out.data() + k0;
    const float* m = median.data() + k0;
    for (std::size_t k = 0; k < len; ++k) o[k] = m[k];
    for (std::size_t a = 0; a < active.size(); ++a) {
      if (beta[a] == 0) continue;
      const float b = float(beta[a]);
      const float* src = c[active[a]].values.data() + k0;
      for (std::size_t k = 0; k < len; ++k) o[k] += b * (src[k] - m[k]);
    }
  }
}

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  const std::size_t h = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + long(h), v.end());
  if (v.size() % 2) return v[h];
  const double upper = v[h];
  return 0.5 * (*std::max_element(v.begin(), v.begin() + long(h)) + upper);
}

thread_local Scratch tls_scratch;

}  // namespace

void validate(const CenteredClipOptions& o) {
  auto need = [](bool ok, const char* field, const std::string& what) {
    if (!ok) throw std::invalid_argument(std::string("centered clip: ") + field + " " + what);
  };
  need(std::isfinite(o.tau) && o.tau > 0, "tau", "must be a positive finite number, got " + std::to_string(o.tau));
  need(o.max_iterations >= 1, "max_iterations", "must be >= 1");
  need(std::isfinite(o.tolerance) && o.tolerance > 0, "tolerance",
       "must be a positive finite number, got " + std::to_string(o.tolerance));
  need(std::isfinite(o.reject_norm_factor) && (o.reject_norm_factor == 0 || o.reject_norm_factor >= 1),
       "reject_norm_factor", "must be 0 (off) or >= 1, got " + std::to_string(o.reject_norm_factor));
  need(std::isfinite(o.weight_cap) && (o.weight_cap == 0 || o.weight_cap >= 1), "weight_cap",
       "must be 0 (off) or >= 1, got " + std::to_string(o.weight_cap));
  need(o.hard_clip_factor > 0 && o.hard_clip_factor <= 1, "hard_clip_factor",
       "must be in (0, 1], got " + std::to_string(o.hard_clip_factor));
}

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::accepted: return "accepted";
    case Verdict::clipped: return "clipped";
    case Verdict::clipped_hard: return "clipped-hard";
    case Verdict::rejected_non_finite: return "rejected-non-finite";
    case Verdict::rejected_weight: return "rejected-weight";
    case Verdict::rejected_norm: return "rejected-norm";
  }
  return "?";
}

void AggregationTally::on_aggregate(const AggregationReport& report) {
  std::lock_guard lock(mutex_);
  ++calls_;
  for (const auto& m : report.members) {
    auto& c = counts_[m.member];
    ++c.seen;
    if (is_rejected(m.verdict)) ++c.rejected;
    if (m.verdict == Verdict::clipped_hard) ++c.clipped_hard;
    if (m.verdict == Verdict::clipped || m.verdict == Verdict::clipped_hard) ++c.clipped;
  }
}

std::map<std::string, AggregationTally::Counts> AggregationTally::counts() const {
  std::lock_guard lock(mutex_);
  return counts_;
}

std::uint64_t AggregationTally::calls() const {
  std::lock_guard lock(mutex_);
  return calls_;
}

CenteredClip::CenteredClip(CenteredClipOptions options, std::shared_ptr<AggregationObserver> observer)
    : options_(options), observer_(std::move(observer)) {
  validate(options_);
}

void CenteredClip::aggregate(std::span<const Contribution> contributions, std::span<float> out) const {
  (void)aggregate_with_report(contributions, out);
}

AggregationReport CenteredClip::aggregate_with_report(std::span<const Contribution> c, std::span<float> out) const {
  if (c.empty()) throw std::invalid_argument("centered clip: no contributions");
  for (const auto& x : c) {
    if (x.values.size() != out.size()) throw std::invalid_argument("centered clip: slices differ in length");
  }
  const std::size_t total = c.size(), len = out.size();
  AggregationReport report;
  report.values = len;
  report.members.resize(total);
  for (std::size_t i = 0; i < total; ++i) report.members[i].member = std::string(c[i].member);

  // Weights first: a member claiming a weight that is not a positive finite number is out.
  std::vector<std::uint32_t> active;
  for (std::uint32_t i = 0; i < total; ++i) {
    if (std::isfinite(c[i].weight) && c[i].weight > 0) {
      active.push_back(i);
    } else {
      report.members[i].verdict = Verdict::rejected_weight;
    }
  }

  Scratch& s = tls_scratch;
  auto pass = [&](const std::vector<std::uint32_t>& members) {
    const std::size_t n = members.size();
    s.rows.assign(n * kBlock, 0.f);
    s.median.resize(len);
    s.gram.assign(n * n, 0.0);
    s.norm2.assign(n, 0.0);
    return median_and_gram(c, members, median_network(std::uint32_t(n)), s);
  };

  // Norms, median and Gram over every member with a valid weight; the rejected ones are
  // outliers the median ignores unless they are a majority somewhere, when it is recomputed.
  std::vector<std::uint32_t> accepted;
  std::vector<double> gram_norm2;
  if (!active.empty()) {
    const bool finite_median = pass(active);
    std::vector<double> finite_norms;
    for (std::size_t a = 0; a < active.size(); ++a) {
      auto& m = report.members[active[a]];
      m.norm = std::sqrt(s.norm2[a]);
      if (std::isfinite(m.norm)) finite_norms.push_back(m.norm);
    }
    report.median_norm = median_of(finite_norms);
    std::vector<std::size_t> keep;   // positions in `active`
    for (std::size_t a = 0; a < active.size(); ++a) {
      auto& m = report.members[active[a]];
      if (!std::isfinite(m.norm)) {
        m.verdict = Verdict::rejected_non_finite;
      } else if (options_.reject_norm_factor > 0 && report.median_norm > 0 &&
                 m.norm > options_.reject_norm_factor * report.median_norm) {
        m.verdict = Verdict::rejected_norm;
      } else {
        keep.push_back(a);
      }
    }
    for (auto a : keep) accepted.push_back(active[a]);
    if (!accepted.empty() && (!finite_median || accepted.size() < active.size() / 2 + 1)) {
      // The rejected were a majority somewhere: the median and Gram of the accepted alone.
      pass(accepted);
    } else if (accepted.size() < active.size()) {
      // Keep the pass's Gram, restricted to the accepted members.
      const std::size_t n = active.size(), na = keep.size();
      std::vector<double> g(na * na);
      for (std::size_t p = 0; p < na; ++p) {
        for (std::size_t q = p; q < na; ++q) g[p * na + q] = s.gram[keep[p] * n + keep[q]];
      }
      s.gram = std::move(g);
    }
  }
  if (accepted.empty()) {
    if (observer_) observer_->on_aggregate(report);
    throw std::invalid_argument("centered clip: every contribution was rejected");
  }

  const std::size_t n = accepted.size();
  std::vector<double> H(n * n);
  for (std::size_t p = 0; p < n; ++p) {
    for (std::size_t q = p; q < n; ++q) H[p * n + q] = H[q * n + p] = s.gram[p * n + q];
  }
  for (double h : H) {
    if (!std::isfinite(h)) throw std::invalid_argument("centered clip: values too large for f32 products");
  }

  // Weights, capped at weight_cap x the median weight.
  std::vector<double> w(n);
  {
    std::vector<double> ws;
    for (auto i : accepted) ws.push_back(c[i].weight);
    const double cap = options_.weight_cap > 0 ? options_.weight_cap * median_of(ws)
                                               : std::numeric_limits<double>::infinity();
    for (std::size_t p = 0; p < n; ++p) w[p] = std::min(c[accepted[p]].weight, cap);
  }
  double W = 0;
  for (double x : w) W += x;

  {
    std::vector<double> d0(n);
    for (std::size_t p = 0; p < n; ++p) d0[p] = std::sqrt(std::max(0.0, H[p * n + p]));
    report.tau = options_.tau * median_of(d0);
  }
  const double tau = report.tau;

  // x = median + sum_p beta_p h_p; ||h_p - x + median||^2 = H_pp - 2 (H beta)_p + beta' H beta.
  std::vector<double> beta(n, 0.0), Hb(n), dist(n), step(n), cw(n);
  auto distances = [&] {
    double bHb = 0;
    for (std::size_t p = 0; p < n; ++p) {
      double acc = 0;
      for (std::size_t q = 0; q < n; ++q) acc += H[p * n + q] * beta[q];
      Hb[p] = acc;
      bHb += beta[p] * acc;
    }
    for (std::size_t p = 0; p < n; ++p) dist[p] = std::sqrt(std::max(0.0, H[p * n + p] - 2 * Hb[p] + bHb));
  };
  auto clip = [&](double d) { return d <= tau ? 1.0 : tau / d; };
  for (std::uint32_t it = 0; it < options_.max_iterations; ++it) {
    distances();
    double C = 0;
    for (std::size_t p = 0; p < n; ++p) C += cw[p] = w[p] * clip(dist[p]);
    for (std::size_t p = 0; p < n; ++p) step[p] = (cw[p] - C * beta[p]) / W;
    double norm2 = 0;
    for (std::size_t p = 0; p < n; ++p) {
      double acc = 0;
      for (std::size_t q = 0; q < n; ++q) acc += H[p * n + q] * step[q];
      norm2 += step[p] * acc;
    }
    for (std::size_t p = 0; p < n; ++p) beta[p] += step[p];
    report.iterations = it + 1;
    if (std::sqrt(std::max(0.0, norm2)) <= options_.tolerance * tau) {
      report.converged = true;
      break;
    }
  }
  distances();
  for (std::size_t p = 0; p < n; ++p) {
    auto& m = report.members[accepted[p]];
    m.weight = w[p];
    m.distance = dist[p];
    m.clip_factor = clip(dist[p]);
    m.verdict = m.clip_factor >= 1                           ? Verdict::accepted
                : m.clip_factor >= options_.hard_clip_factor ? Verdict::clipped
                                                             : Verdict::clipped_hard;
  }
  combine(c, accepted, beta, s.median, out);
  if (observer_) observer_->on_aggregate(report);
  return report;
}

std::shared_ptr<const Aggregator> make_aggregator(const job::AggregatorSpec& spec,
                                                  std::shared_ptr<AggregationObserver> observer) {
  switch (spec.kind) {
    case job::AggregatorKind::mean: return std::make_shared<WeightedMean>();
    case job::AggregatorKind::centered_clip: {
      CenteredClipOptions o;
      o.tau = spec.tau;
      if (spec.iterations < 1 || spec.iterations > std::int64_t(std::numeric_limits<std::uint32_t>::max()))
        throw std::invalid_argument("centered clip: iterations must be >= 1, got " + std::to_string(spec.iterations));
      o.max_iterations = std::uint32_t(spec.iterations);
      o.reject_norm_factor = spec.reject_norm_factor;
      o.weight_cap = spec.weight_cap;
      return std::make_shared<CenteredClip>(o, std::move(observer));
    }
  }
  throw std::invalid_argument("unknown aggregator kind");
}

}  // namespace rookery::reduce
