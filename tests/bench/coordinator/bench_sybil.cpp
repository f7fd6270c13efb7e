// What the Sybil limits cost an attacker, measured.
//  1. Addresses: an attacker seats K volunteers against the caps per address and per subnet,
//     filling each address and each /24 (or /64 and /48) before taking another; the admission
//     is the coordinator's own (sybil_refusal). Printed: the addresses and subnets it needs,
//     under the default caps and under tighter ones, beside a household of 3 PCs behind one
//     router, which the defaults admit.
//  2. Work: a coordinator in this process (open, over CURVE on loopback) and joins with keys of
//     their own, without and with a proof of work of N bits. Printed for each: CPU seconds per
//     join on this process (the volunteer's work plus the coordinator's answer, both here), the
//     wall time, the coordinator's check alone (one hash), what 2^N such hashes take (the
//     expected work per key: the measured mean over a few keys varies, as each key's work is a
//     geometric draw), and the CPU an attacker spends on 100 keys.
// Usage: bench_sybil [--bits 16,20,24] [--keys 8] [--joins 20] [--sybils 100]
// Exit 1 only when a measurement could not be taken, never for speed.
#include <QCoreApplication>
#include <QTemporaryDir>

#include <spdlog/spdlog.h>

#include <time.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "coordinator/coordinator_service.hpp"
#include "coordinator/sybil_limits.hpp"
#include "net/identity.hpp"
#include "net/join_work.hpp"
#include "support/coordinator_rpc.hpp"
#include "support/demo_job.hpp"
#include "support/processes.hpp"

using namespace rookery;
namespace pb = wire::pb;

namespace {

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The attacker's addresses: `per_subnet` hosts in each subnet (its i-th), as few as it can.
std::string ipv4(int subnet, int host) {
  return "10." + std::to_string(subnet / 256) + "." + std::to_string(subnet % 256) + "." +
         std::to_string(host + 1);
}
std::string ipv6(int site, int host) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "2001:db8:%x:%x::1", site, host);
  return buf;
}

struct Seated {
  int volunteers = 0, addresses = 0, subnets = 0;
};

// Seats `k` volunteers against `caps`: each tries the attacker's current address and moves to
// the next address when refused for it, to the next subnet when refused for the subnet.
template <typename Address>
Seated seat(const coordinator::SybilCaps& caps, int k, Address address) {
  std::vector<std::string> live;
  std::set<std::string> addresses, subnets;
  int subnet = 0, host = 0;
  for (int tries = 0; static_cast<int>(live.size()) < k && tries < 100 * k + 100; ++tries) {
    const auto a = address(subnet, host);
    const auto no = coordinator::sybil_refusal(caps, a, live);
    if (no.code() == pb::Verdict::TOO_MANY_FROM_ADDRESS) {
      ++host;
    } else if (no.code() == pb::Verdict::TOO_MANY_FROM_SUBNET) {
      ++subnet;
      host = 0;
    } else {
      live.push_back(a);
      const auto o = coordinator::origin_of(a);
      addresses.insert(o->address);
      subnets.insert(o->subnet);
    }
  }
  return {static_cast<int>(live.size()), static_cast<int>(addresses.size()),
          static_cast<int>(subnets.size())};
}

std::string cap_words(std::size_t n) { return n == 0 ? "none" : std::to_string(n); }

void print_addresses(int sybils) {
  std::printf("== addresses an attacker needs (the coordinator's own admission)\n");
  std::printf("%-22s %-8s %10s %14s %10s %14s\n", "caps (address/subnet)", "family", "seated",
              "addresses", "subnets", "household of 3");
  const coordinator::SybilCaps caps_list[] = {{4, 16, false}, {2, 8, false}, {0, 0, false}};
  for (const auto& caps : caps_list) {
    for (const bool six : {false, true}) {
      for (const int k : {10, sybils, 10 * sybils}) {
        const auto s = six ? seat(caps, k, ipv6) : seat(caps, k, ipv4);
        // Three PCs of one household behind one router, joining one after another.
        std::vector<std::string> home;
        bool admitted = true;
        for (int i = 0; i < 3; ++i) {
          admitted = admitted && coordinator::sybil_refusal(caps, "198.51.100.7", home).code() ==
                                     pb::Verdict::NONE;
          home.push_back("198.51.100.7");
        }
        std::printf("%-22s %-8s %10d %14d %10d %14s\n",
                    (cap_words(caps.per_address) + "/" + cap_words(caps.per_subnet)).c_str(),
                    six ? "IPv6" : "IPv4", s.volunteers, s.addresses, s.subnets,
                    admitted ? "admitted" : "REFUSED");
      }
    }
  }
}

struct Joins {
  double cpu_per_join = 0, wall_per_join = 0;
  int admitted = 0;
};

// `n` joins, each with a fresh key and, with `bits`, the proof of work it finds first.
Joins time_joins(net::SecureContext& ctx, const testing::CoordinatorAddress& c,
                 const std::string& job_id, unsigned bits, int n) {
  Joins out;
  const double cpu0 = cpu_seconds(), wall0 = wall_seconds();
  for (int i = 0; i < n; ++i) {
    const auto me = net::CurveKeyPair::generate();
    auto e = testing::join_request(job_id, 7000 + 3 * i, 50e9, 1ll << 32, 1e9, 1e-4);
    if (bits > 0) {
      const auto nonce = net::find_join_work(job_id, me.public_key, bits);
      e.mutable_join()->set_join_work_nonce(*nonce);
    }
    const auto r = testing::coordinator_request(ctx, me, c.endpoint.toStdString(),
                                                c.key.toStdString(), std::move(e));
    out.admitted += r && r->has_join_reply() && r->join_reply().accepted();
  }
  out.cpu_per_join = (cpu_seconds() - cpu0) / n;
  out.wall_per_join = (wall_seconds() - wall0) / n;
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  spdlog::set_level(spdlog::level::warn);  // the coordinators' joins, one line each: not wanted
  std::vector<unsigned> bits_list = {16, 20, 24};
  int keys = 8, joins = 20, sybils = 100;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--bits")) {
      bits_list.clear();
      for (const auto& b : QString(argv[i + 1]).split(',')) bits_list.push_back(b.toUInt());
    } else if (!std::strcmp(argv[i], "--keys")) {
      keys = std::max(1, std::atoi(argv[i + 1]));
    } else if (!std::strcmp(argv[i], "--joins")) {
      joins = std::max(1, std::atoi(argv[i + 1]));
    } else if (!std::strcmp(argv[i], "--sybils")) {
      sybils = std::max(1, std::atoi(argv[i + 1]));
    } else {
      std::fprintf(stderr, "bench_sybil: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  print_addresses(sybils);

  QTemporaryDir dir;
  const QString job_path = dir.filePath("job.json");
  const auto job = testing::write_demo_job(job_path, "sybil-bench");
  if (!job) return 1;
  // One coordinator per work setting: the check is part of what each join costs.
  std::printf("\n== CPU per join, an honest join beside joins with a proof of work\n");
  std::printf("(CPU of this process: the volunteer's work and the coordinator's answer)\n");
  std::printf("%6s %8s %14s %14s %14s %16s %20s\n", "bits", "joins", "CPU s/join", "wall s/join",
              "check s/join", "2^N hashes, s", "CPU s for 100 keys");
  std::vector<unsigned> settings = {0};
  settings.insert(settings.end(), bits_list.begin(), bits_list.end());
  double honest_cpu = 0;
  for (const unsigned bits : settings) {
    coordinator::CoordinatorConfig config;
    config.bind = "tcp://127.0.0.1:0";
    config.data_dir = dir.filePath(QString("c%1").arg(bits)).toStdString();
    config.ready_file = dir.filePath(QString("ready%1").arg(bits)).toStdString();
    config.job_path = job_path.toStdString();
    config.open = true;
    config.join_work_bits = bits;
    config.dead_after = std::chrono::minutes(10);
    coordinator::CoordinatorService service(config);
    std::thread t([&] { service.run(); });
    const auto address = testing::wait_for_coordinator_ready(
        QString::fromStdString(config.ready_file.string()), 10000);
    if (!address) {
      service.request_stop();
      t.join();
      std::fprintf(stderr, "bench_sybil: the coordinator did not start\n");
      return 1;
    }
    net::SecureContext ctx(1);
    const int n = bits == 0 ? joins : keys;
    const auto j = time_joins(ctx, *address, job->id, bits, n);
    service.request_stop();
    t.join();
    if (j.admitted != n) {
      std::fprintf(stderr, "bench_sybil: %d of %d joins admitted at %u bits\n", j.admitted, n,
                   bits);
      return 1;
    }
    // The coordinator's check: one hash per join (summed, so that it is not optimized away).
    const auto me = net::CurveKeyPair::generate();
    const double c0 = cpu_seconds();
    unsigned sink = 0;
    for (std::uint64_t i = 0; i < 100000; ++i) {
      sink += net::join_work_bits(job->id, me.public_key, i);
    }
    const double check = (cpu_seconds() - c0) / 100000;
    if (bits == 0) honest_cpu = j.cpu_per_join;
    const std::string versus =
        bits == 0
            ? "(no work: an honest join)"
            : "x" + std::to_string(std::lround(j.cpu_per_join / honest_cpu)) + " an honest join";
    std::printf("%6u %8d %14.4f %14.4f %14.2e %16.3f %20.1f   %s\n", bits, n, j.cpu_per_join,
                j.wall_per_join, bits ? check : 0.0, bits ? std::ldexp(check, int(bits)) : 0.0,
                100 * j.cpu_per_join, versus.c_str());
    if (sink == 0) std::printf("(every hash had no zero bit)\n");
  }
  std::printf(
      "\nAn honest volunteer pays one proof per key, once; a Sybil pays it per key it "
      "seats, and needs the addresses above besides.\n");
  return 0;
}
