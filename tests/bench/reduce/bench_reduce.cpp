// Rookery's ring all-reduce against Gloo's over TCP, side by side in one run: the same ranks
// (processes on loopback, or hosts in network namespaces), the same sizes of f32 data, each
// result checked. Gloo has two rings: AllreduceRing passes the whole buffer around the ring
// (n - 1 full transfers per rank), AllreduceRingChunked is the bandwidth-optimal reduce-scatter
// and all-gather (2(n - 1)/n), as ours is; both are measured. Prints bus bandwidth, bytes x
// 2(n-1)/n / time (median of the timed iterations), and the ratios ours/Gloo.
//
//   bench_reduce                      CI-sized: 2 and 4 ranks, 1 and 4 MB
//   bench_reduce --full               2, 4, 8 ranks; 1, 4, 16, 64, 256 MB
//   bench_reduce --ranks 4 --sizes-mb 16 --iters 5 [--codec int8] [--plain [--no-checksums]]
//                [--impl ours|gloo|gloo-chunked|both|all]   (both: ours and AllreduceRing; default all)
//                [--segment-kb K]   (ours: the ring's segment size instead of RingOptions' default)
//                [--io-threads N]   (ours: ZeroMQ I/O threads per rank, default 2)
//                [--in-place]       (ours: the in-place round instead of the Averager's out-of-place one)
//                [--repeat R]       (R passes, the implementations taking turns in each; see below)
//   bench_reduce --hosts 10.77.0.1,... --netns-prefix rkb   one rank per network namespace
//
// Loopback on a small machine is noisy (one pass of a point can differ from the next by 15%).
// With --repeat R the implementations run in turn R times; each rate printed is the median of
// its R passes, and each ratio the median of the R ratios of passes run next to each other.
//
// Ours reads one buffer and writes another, as the Averager runs it (the snapshot it keeps is
// the input); Gloo's reduces in place. Out of place ours sends its input without a copy and
// writes each result as it arrives; in place (--in-place) it sends its first hop from a copy
// and writes nothing before every member has voted, then copies.
//
// Ours runs with CURVE encryption unless --plain (Gloo's TCP transport is unencrypted). With
// CURVE, frames carry no checksum (the MAC authenticates them); in plaintext they carry XXH3
// checksums unless --no-checksums, which leaves ours with TCP's checksum alone, as Gloo is.
// Exit status 1 when any result is wrong: CTest runs the small size to check correctness.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gloo/allreduce_ring.h>
#include <gloo/allreduce_ring_chunked.h>
#include <gloo/barrier_all_to_all.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/file_store.h>
#include <gloo/transport/tcp/device.h>

#include "net/secure_context.hpp"
#include "reduce/ring_all_reduce.hpp"
#include "reduce/zmq_transport.hpp"

extern char** environ;

namespace fs = std::filesystem;
using namespace rookery;
using namespace rookery::reduce;
using Clock = std::chrono::steady_clock;

namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

struct Args {
  std::map<std::string, std::string> kv;
  bool has(const std::string& k) const { return kv.count(k) > 0; }
  std::string get(const std::string& k, const std::string& d) const {
    return has(k) ? kv.at(k) : d;
  }
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string k = argv[i];
    if (k == "--full" || k == "--plain" || k == "--no-checksums" || k == "--in-place" ||
        k == "--worker") {
      a.kv[k] = "1";
    } else if (i + 1 < argc) {
      a.kv[k] = argv[++i];
    }
  }
  return a;
}

// Rank r's input: small integers, so every sum order gives the same exact result.
float input(int rank, std::size_t i) { return float(rank + 1) + float(i % 7); }

void fill(std::vector<float>& v, int rank) {
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = input(rank, i);
}

bool check(const std::vector<float>& v, int world, bool mean, wire::Codec codec) {
  for (std::size_t i = 0; i < v.size(); i += 4099) {
    double sum = 0;
    for (int r = 0; r < world; ++r) sum += input(r, i);
    const double want = mean ? sum / world : sum;
    const double tol = codec == wire::Codec::None ? 1e-6 * want : 0.05 * (world + 7);
    if (std::fabs(v[i] - want) > tol) {
      std::cerr << "wrong result at " << i << ": " << v[i] << " != " << want << "\n";
      return false;
    }
  }
  return true;
}

double median(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void wait_for(const fs::path& f) {
  const auto give_up = Clock::now() + std::chrono::seconds(60);
  while (!fs::exists(f)) {
    if (Clock::now() > give_up) throw std::runtime_error("timed out waiting for " + f.string());
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// ---- a worker: one rank ------------------------------------------------------------------

int worker(const Args& a) {
  const int rank = std::stoi(a.get("--rank", "0")), world = std::stoi(a.get("--world", "2"));
  const fs::path dir = a.get("--dir", ".");
  const std::string host = a.get("--host", "127.0.0.1");
  const int iters = std::stoi(a.get("--iters", "5"));
  const auto codec = wire::codec_from_name(a.get("--codec", "none"));
  std::vector<std::size_t> sizes;
  for (const auto& s : split(a.get("--sizes-bytes", "1048576"))) sizes.push_back(std::stoull(s));
  std::ofstream report;
  if (rank == 0) report.open(dir / "times");
  bool ok = true;

  const std::string impl = a.get("--impl", "ours");
  if (impl == "gloo" || impl == "gloo-chunked") {
    gloo::transport::tcp::attr attr(host.c_str());
    auto dev = gloo::transport::tcp::CreateDevice(attr);
    gloo::rendezvous::FileStore store((dir / "gloo").string());
    auto ctx = std::make_shared<gloo::rendezvous::Context>(rank, world);
    ctx->setTimeout(std::chrono::seconds(120));
    try {
      ctx->connectFullMesh(store, dev);
    } catch (const std::exception& e) {
      throw std::runtime_error("rank " + std::to_string(rank) + ": gloo connecting: " + e.what());
    }
    for (auto bytes : sizes) {
      std::vector<float> v(bytes / sizeof(float));
      std::unique_ptr<gloo::Algorithm> ring;
      if (impl == "gloo") {
        ring = std::make_unique<gloo::AllreduceRing<float>>(ctx, std::vector<float*>{v.data()},
                                                            int(v.size()));
      } else {
        ring = std::make_unique<gloo::AllreduceRingChunked<float>>(
            ctx, std::vector<float*>{v.data()}, int(v.size()));
      }
      std::vector<double> times;
      for (int it = -1; it < iters; ++it) {  // one warm-up
        fill(v, rank);
        const auto t0 = Clock::now();
        try {
          ring->run();
        } catch (const std::exception& e) {
          throw std::runtime_error("rank " + std::to_string(rank) + ": gloo all-reduce of " +
                                   std::to_string(bytes) + " bytes: " + e.what());
        }
        if (it >= 0) times.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
        ok = check(v, world, false, wire::Codec::None) && ok;
      }
      if (rank == 0) report << bytes << ' ' << median(times) << '\n';
    }
    // Nobody tears its pairs down while another still reads from them ("Connection closed by
    // peer" failed runs here before). Every result is measured and checked by now: a peer
    // that closes first is reported, and fails nothing.
    try {
      gloo::BarrierAllToAll(ctx).run();
    } catch (const std::exception& e) {
      std::fprintf(stderr,
                   "bench_reduce: rank %d: gloo's closing barrier: %s (all results were in)\n",
                   rank, e.what());
    }
    // And none closes its pairs before every rank is out of that barrier (a rank that left
    // it at once closed pairs another was still reading in it: the warning above, 1 run in 2
    // at 8 ranks).
    std::ofstream(dir / ("gloo-done-" + std::to_string(rank))) << "done";
    for (int r = 0; r < world; ++r) wait_for(dir / ("gloo-done-" + std::to_string(r)));
  } else {
    net::SecureContext ctx(std::stoi(a.get("--io-threads", "2")));
    const auto identity = net::CurveKeyPair::generate();
    ZmqTransportConfig config;
    config.listen = "tcp://" + host + ":0";
    config.curve = !a.has("--plain");
    config.plaintext_checksums = !a.has("--no-checksums");
    config.id = "rank-" + std::to_string(rank);
    config.send_timeout = std::chrono::seconds(60);
    ZmqTransport transport(ctx, identity, config);
    {
      std::ofstream(dir / ("ours-" + std::to_string(rank) + ".tmp"))
          << transport.endpoint() << ' ' << identity.public_key;
      fs::rename(dir / ("ours-" + std::to_string(rank) + ".tmp"),
                 dir / ("ours-" + std::to_string(rank)));
    }
    std::vector<std::string> members;
    for (int r = 0; r < world; ++r) {
      const auto f = dir / ("ours-" + std::to_string(r));
      wait_for(f);
      std::ifstream in(f);
      std::string endpoint, key;
      in >> endpoint >> key;
      const std::string id = config.curve ? key : "rank-" + std::to_string(r);
      members.push_back(id);
      if (r != rank) transport.add_peer(id, endpoint);
    }
    // Everyone has allowed everyone's key before anyone connects: a CURVE handshake refused
    // by the ZAP allow-list is not retried by libzmq.
    std::ofstream(dir / ("ready-" + std::to_string(rank))) << "ready\n";
    for (int r = 0; r < world; ++r) wait_for(dir / ("ready-" + std::to_string(r)));
    RingOptions options;
    options.codec = codec;
    options.timeout = std::chrono::seconds(60);
    if (a.has("--segment-kb"))
      options.segment_values = std::stoull(a.get("--segment-kb", "1024")) * 1024 / sizeof(float);
    RingAllReduce ring(transport, options);
    const bool in_place = a.has("--in-place");
    std::uint64_t round = 0;
    for (auto bytes : sizes) {
      // Out of place the input is shared (the ring sends it without a copy) and never written.
      auto input = std::make_shared<std::vector<float>>(bytes / sizeof(float));
      auto& v = *input;
      std::vector<float> result(in_place ? 0 : v.size());
      auto& output = in_place ? v : result;
      if (!in_place) fill(v, rank);
      std::vector<double> times;
      for (int it = -1; it < iters; ++it) {
        if (in_place) fill(v, rank);
        const auto t0 = Clock::now();
        const RingSpec spec{ring_key("bench", 0, v.size()), members};
        const auto out = in_place ? ring.run(spec, ++round, v, 1.0)
                                  : ring.run(spec, ++round, SharedValues{v, input}, result, 1.0);
        if (it >= 0) times.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
        ok = out.contributors.size() == std::size_t(world) && check(output, world, true, codec) &&
             ok;
      }
      if (rank == 0) report << bytes << ' ' << median(times) << '\n';
    }
  }
  return ok ? 0 : 1;
}

// ---- the launcher ------------------------------------------------------------------------

pid_t spawn(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& s : argv) args.push_back(const_cast<char*>(s.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  if (posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ) != 0) {
    throw std::runtime_error("cannot start " + argv[0]);
  }
  return pid;
}

// Runs `world` workers of one implementation; returns size -> median seconds (empty on failure).
std::map<std::size_t, double> run_impl(const std::string& self, const std::string& impl, int world,
                                       const std::vector<std::size_t>& sizes, const Args& a,
                                       bool& ok) {
  const fs::path dir = fs::temp_directory_path() / ("rookery-bench-" + std::to_string(::getpid()) +
                                                    "-" + impl + "-" + std::to_string(world));
  fs::remove_all(dir);
  fs::create_directories(dir / "gloo");
  std::string sizes_arg;
  for (auto s : sizes) sizes_arg += std::to_string(s) + ",";
  const auto hosts = split(a.get("--hosts", ""));
  std::vector<pid_t> pids;
  for (int r = 0; r < world; ++r) {
    std::vector<std::string> argv;
    if (!hosts.empty())
      argv = {"ip", "netns", "exec", a.get("--netns-prefix", "rkb") + std::to_string(r)};
    argv.insert(argv.end(),
                {self, "--worker", "--impl", impl, "--rank", std::to_string(r), "--world",
                 std::to_string(world), "--dir", dir.string(), "--sizes-bytes", sizes_arg,
                 "--iters", a.get("--iters", "5"), "--codec", a.get("--codec", "none"), "--host",
                 hosts.empty() ? "127.0.0.1" : hosts.at(std::size_t(r))});
    if (a.has("--plain")) argv.push_back("--plain");
    if (a.has("--no-checksums")) argv.push_back("--no-checksums");
    if (a.has("--in-place")) argv.push_back("--in-place");
    if (a.has("--segment-kb")) argv.insert(argv.end(), {"--segment-kb", a.get("--segment-kb", "")});
    if (a.has("--io-threads")) argv.insert(argv.end(), {"--io-threads", a.get("--io-threads", "")});
    pids.push_back(spawn(argv));
  }
  for (auto pid : pids) {
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ok = false;
  }
  std::map<std::size_t, double> out;
  std::ifstream in(dir / "times");
  std::size_t bytes;
  double seconds;
  while (in >> bytes >> seconds) out[bytes] = seconds;
  fs::remove_all(dir);
  return out;
}

int launcher(const std::string& self, const Args& a) {
  const bool full = a.has("--full");
  std::vector<int> ranks;
  for (const auto& r : split(a.get("--ranks", full ? "2,4,8" : "2,4")))
    ranks.push_back(std::stoi(r));
  std::vector<std::size_t> sizes;
  for (const auto& s : split(a.get("--sizes-mb", full ? "1,4,16,64,256" : "1,4"))) {
    sizes.push_back(std::size_t(std::stod(s) * (1 << 20)));
  }
  const std::string impl = a.get("--impl", "all");
  const std::string ours_name =
      std::string("ours (") +
      (a.has("--plain") ? (a.has("--no-checksums") ? "plain, no checksums" : "plain, checksums")
                        : "CURVE") +
      ", " + a.get("--codec", "none") + (a.has("--in-place") ? ", in place" : ", out of place") +
      ")";
  // Columns (netns_bench.sh reads them by number): ranks, size, ours, gloo ring, gloo chunked,
  // ours/ring, ours/chunked; every rate in MB/s.
  std::printf("%-6s %-8s %-12s %-12s %-12s %-10s %-10s   (bus bandwidth, MB/s; ours: %s)\n",
              "ranks", "size", "ours", "gloo-ring", "gloo-chunk", "ours/ring", "ours/chunk",
              ours_name.c_str());
  bool ok = true;
  const auto wanted = [&](const std::string& which) {
    return impl == "all" || impl == which ||
           (impl == "both" && (which == "ours" || which == "gloo"));
  };
  const int repeat = std::max(1, std::stoi(a.get("--repeat", "1")));
  auto middle = [](std::vector<double> v) {
    v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return std::isnan(x); }), v.end());
    if (v.empty()) return double(NAN);
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  };
  for (int n : ranks) {
    // Per size, one entry per pass: the bus bandwidths and the ratios of that pass.
    std::map<std::size_t, std::vector<double>> ours, gloo, chunked, per_ring, per_chunk;
    for (int pass = 0; pass < repeat; ++pass) {
      std::map<std::size_t, double> o, g, c;
      // Every other pass in the reverse order, so neither side always runs first.
      std::vector<std::pair<std::string, std::map<std::size_t, double>*>> order{
          {"ours", &o}, {"gloo", &g}, {"gloo-chunked", &c}};
      if (pass % 2) std::reverse(order.begin(), order.end());
      for (auto& [which, into] : order) {
        if (wanted(which)) *into = run_impl(self, which, n, sizes, a, ok);
      }
      for (auto bytes : sizes) {
        auto busbw = [&](const std::map<std::size_t, double>& t) {
          return t.count(bytes) ? double(bytes) * 2 * (n - 1) / n / t.at(bytes) / 1e6 : double(NAN);
        };
        ours[bytes].push_back(busbw(o));
        gloo[bytes].push_back(busbw(g));
        chunked[bytes].push_back(busbw(c));
        per_ring[bytes].push_back(busbw(o) / busbw(g));
        per_chunk[bytes].push_back(busbw(o) / busbw(c));
      }
    }
    for (auto bytes : sizes) {
      auto num = [](double v, const char* format) {
        char text[32];
        std::snprintf(text, sizeof text, format, v);
        return std::isnan(v) ? std::string("-") : std::string(text);
      };
      std::printf(
          "%-6d %-8s %-12s %-12s %-12s %-10s %-10s\n", n,
          (std::to_string(bytes >> 20) + "MB").c_str(), num(middle(ours[bytes]), "%.2f").c_str(),
          num(middle(gloo[bytes]), "%.2f").c_str(), num(middle(chunked[bytes]), "%.2f").c_str(),
          num(middle(per_ring[bytes]), "%.3f").c_str(),
          num(middle(per_chunk[bytes]), "%.3f").c_str());
      std::fflush(stdout);
    }
  }
  if (!ok) std::fprintf(stderr, "bench_reduce: a result was wrong or a worker failed\n");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const Args a = parse(argc, argv);
  try {
    if (a.has("--worker")) return worker(a);
    return launcher(fs::canonical("/proc/self/exe").string(), a);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_reduce: %s\n", e.what());
    return 2;
  }
}
