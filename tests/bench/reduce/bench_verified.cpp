// What verified aggregation costs: the same ring all-reduce with RingOptions::verify off and on,
// side by side in one run (rounds alternating, so load on the machine hits both alike). Each
// rank is a thread with its own CURVE-encrypted ZeroMQ transport on loopback. Prints the round
// time (median over the timed rounds, slowest member) and the bytes all members sent per round,
// off and on, and their ratios.
//
//   bench_verified                                  4 ranks, 4 MB, both aggregators
//   bench_verified --ranks 4,8 --sizes-mb 16,64 --iters 5 [--codec int8]
//                  [--aggregator mean|centered-clip|both]
// Exit status 1 when a verified round committed other values than the plain one would (beyond
// f32 rounding of the different summation order) or anyone was accused.
#include <algorithm>
#include <barrier>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "net/secure_context.hpp"
#include "reduce/centered_clip.hpp"
#include "reduce/ring_all_reduce.hpp"
#include "reduce/zmq_transport.hpp"

using namespace rookery;
using namespace rookery::reduce;

namespace {

std::vector<std::size_t> list(const std::string& s) {
  std::vector<std::size_t> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) out.push_back(std::stoull(item));
  return out;
}

struct Point {
  double seconds_off = 0, seconds_on = 0, bytes_off = 0, bytes_on = 0;
  bool ok = true;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

Point measure(std::size_t ranks, std::size_t values, std::size_t iters, wire::Codec codec,
              bool centered_clip) {
  net::SecureContext ctx;
  std::vector<net::CurveKeyPair> keys;
  std::vector<std::unique_ptr<ZmqTransport>> transports;
  std::vector<std::string> members;
  for (std::size_t r = 0; r < ranks; ++r) {
    keys.push_back(net::CurveKeyPair::generate());
    transports.push_back(std::make_unique<ZmqTransport>(ctx, keys.back()));
    members.push_back(keys.back().public_key);
  }
  for (std::size_t r = 0; r < ranks; ++r) {
    for (std::size_t p = 0; p < ranks; ++p) {
      if (p != r) transports[r]->add_peer(members[p], transports[p]->endpoint());
    }
  }
  std::vector<std::shared_ptr<std::vector<float>>> inputs;
  for (std::size_t r = 0; r < ranks; ++r) {
    auto v = std::make_shared<std::vector<float>>(values);
    for (std::size_t i = 0; i < values; ++i)
      (*v)[i] = std::sin(0.001f * float(i) + float(r)) * float(1 + r);
    inputs.push_back(v);
  }
  const RingSpec spec{ring_key("params", 0, values), members};
  // Round 0 warms the sockets up (CURVE handshakes) and is not timed; then off, on, off, ...
  const std::size_t rounds = 2 * iters + 2;
  std::vector<std::vector<double>> seconds(rounds, std::vector<double>(ranks));
  std::vector<std::vector<std::uint64_t>> sent(rounds + 1, std::vector<std::uint64_t>(ranks));
  std::vector<std::vector<std::vector<float>>> results(
      2, std::vector<std::vector<float>>(ranks, std::vector<float>(values)));
  std::vector<std::size_t> accused(ranks);
  std::barrier sync(static_cast<std::ptrdiff_t>(ranks));
  std::vector<std::thread> threads;
  for (std::size_t r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      RingOptions o;
      o.codec = codec;
      o.timeout = std::chrono::milliseconds(20000);
      if (centered_clip) o.aggregator = std::make_shared<CenteredClip>();
      RingAllReduce plain(*transports[r], o);
      o.verify = true;
      RingAllReduce verified(*transports[r], o);
      std::vector<float> out(values);
      for (std::size_t k = 0; k < rounds; ++k) {
        sync.arrive_and_wait();
        sent[k][r] = transports[r]->bytes_sent();
        const bool on = k % 2 == 1;
        const auto outcome =
            (on ? verified : plain)
                .run(spec, k + 1, SharedValues{*inputs[r], inputs[r]}, out, double(10 + r));
        seconds[k][r] = outcome.seconds;
        accused[r] += outcome.caught.size();
        if (outcome.contributors.size() != ranks) accused[r] += 1000;  // someone left out
        if (k >= rounds - 2) results[on ? 1 : 0][r] = out;
      }
      sync.arrive_and_wait();
      sent[rounds][r] = transports[r]->bytes_sent();
    });
  }
  for (auto& t : threads) t.join();
  Point p;
  std::vector<double> off_s, on_s, off_b, on_b;
  for (std::size_t k = 2; k < rounds; ++k) {
    double slowest = 0, bytes = 0;
    for (std::size_t r = 0; r < ranks; ++r) {
      slowest = std::max(slowest, seconds[k][r]);
      bytes += double(sent[k + 1][r] - sent[k][r]);
    }
    (k % 2 == 1 ? on_s : off_s).push_back(slowest);
    (k % 2 == 1 ? on_b : off_b).push_back(bytes);
  }
  p.seconds_off = median(off_s);
  p.seconds_on = median(on_s);
  p.bytes_off = median(off_b);
  p.bytes_on = median(on_b);
  for (auto a : accused) p.ok = p.ok && a == 0;
  // The same aggregate both ways, to the rounding a different summation order (and the codec,
  // applied once more in the plain ring's partial sums) allows.
  const double tolerance = codec == wire::Codec::None ? 1e-5 : 0.05;
  for (std::size_t i = 0; i < values; ++i) {
    const double a = results[0][0][i], b = results[1][0][i];
    if (!(std::abs(a - b) <= tolerance * (1 + std::abs(a)))) {
      std::fprintf(stderr, "value %zu: %g plain, %g verified\n", i, a, b);
      p.ok = false;
      break;
    }
  }
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> a{{"--ranks", "4"},
                                       {"--sizes-mb", "4"},
                                       {"--iters", "3"},
                                       {"--codec", "none"},
                                       {"--aggregator", "both"}};
  for (int i = 1; i + 1 < argc; i += 2) a[argv[i]] = argv[i + 1];
  const auto codec = wire::codec_from_name(a["--codec"]);
  const std::size_t iters = std::max<std::size_t>(1, std::stoull(a["--iters"]));
  std::vector<bool> aggregators;
  if (a["--aggregator"] != "centered-clip") aggregators.push_back(false);
  if (a["--aggregator"] != "mean") aggregators.push_back(true);
  std::printf("%-6s %-8s %-14s %-10s %-10s %-7s %-12s %-12s %-7s  (codec %s, CURVE, loopback)\n",
              "ranks", "MB", "aggregator", "off s", "verified s", "ratio", "off MB sent",
              "verified MB", "ratio", wire::codec_name(codec).data());
  bool ok = true;
  for (const auto ranks : list(a["--ranks"])) {
    for (const auto mb : list(a["--sizes-mb"])) {
      for (const bool clip : aggregators) {
        const auto p = measure(ranks, mb * 262144, iters, codec, clip);
        ok = ok && p.ok;
        std::printf("%-6zu %-8zu %-14s %-10.3f %-10.3f %-7.2f %-12.1f %-12.1f %-7.2f%s\n", ranks,
                    mb, clip ? "centered-clip" : "mean", p.seconds_off, p.seconds_on,
                    p.seconds_on / p.seconds_off, p.bytes_off / 1e6, p.bytes_on / 1e6,
                    p.bytes_on / p.bytes_off, p.ok ? "" : "  WRONG");
        std::fflush(stdout);
      }
    }
  }
  if (!ok) std::fprintf(stderr, "bench_verified: a result differed or someone was accused\n");
  return ok ? 0 : 1;
}
