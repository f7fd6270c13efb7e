// One ring member in its own process, for the multi-process tests: ZeroMQ transport with
// CURVE on loopback, addresses exchanged through files in --dir. With --hold-after-sends K
// it stops in the middle of the round after K segments and waits to be killed (-9). The round
// runs out of place, as the Averager runs it (the input shared and sent without a copy), or
// with --placement in, in place.
//
// With --verify on, it runs verified aggregation (--aggregator centered-clip for CenteredClip),
// and --fault lying-owner|altering-forwarder makes it the attacker; --delay-ms D holds every
// segment it sends back by a random 0..D ms (reordering them), as a congested link would.
//
//   reduce_member --dir D --rank r --world n --count N [--timeout-ms T] [--codec int8]
//                 [--hold-after-sends K] [--placement out|in] [--verify on]
//                 [--aggregator centered-clip] [--fault F] [--delay-ms D] [--rounds K]
// Writes D/member-<r>.result ("ranks <r...>\nweight <w>\nattempts <a>\nfinished_ms <unix ms>
// \nseconds <s>\ncaught <r...>") and D/member-<r>.values (the result, raw f32).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <condition_variable>
#include <map>
#include <mutex>
#include <queue>
#include <random>
#include <tuple>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "net/secure_context.hpp"
#include "reduce/centered_clip.hpp"
#include "reduce/ring_all_reduce.hpp"
#include "reduce/zmq_transport.hpp"
#include "reduce_test_support.hpp"

using namespace rookery;
using namespace rookery::reduce;
namespace fs = std::filesystem;

namespace {
// Forwards to the real transport until `sends` segments went out, then freezes the caller.
class HoldingTransport final : public Transport {
 public:
  HoldingTransport(Transport& inner, std::uint64_t sends, fs::path marker)
      : inner_(inner), left_(sends), marker_(std::move(marker)) {}
  const std::string& self() const override { return inner_.self(); }
  Mailbox& mailbox() override { return inner_.mailbox(); }
  const net::CurveKeyPair* identity() const override { return inner_.identity(); }
  void send(const std::string& to, OutgoingSegment s) override {
    if (left_ == 0) {
      std::ofstream(marker_) << "holding\n";
      for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
    }
    --left_;
    inner_.send(to, std::move(s));
  }

 private:
  Transport& inner_;
  std::uint64_t left_;
  fs::path marker_;
};

// Sends every segment after a random delay of 0..max, on a thread of its own: segments overtake
// each other, and a sender never waits for it.
class DelayingTransport final : public Transport {
 public:
  DelayingTransport(Transport& inner, std::chrono::milliseconds max, std::uint32_t seed)
      : inner_(inner), max_(max), rng_(seed), thread_([this] { loop(); }) {}
  ~DelayingTransport() override {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  const std::string& self() const override { return inner_.self(); }
  Mailbox& mailbox() override { return inner_.mailbox(); }
  const net::CurveKeyPair* identity() const override { return inner_.identity(); }
  void send(const std::string& to, OutgoingSegment s) override {
    {
      std::lock_guard lock(mutex_);
      const auto delay = std::chrono::microseconds(
          std::uniform_int_distribution<long>(0, long(max_.count()) * 1000)(rng_));
      queue_.emplace(std::chrono::steady_clock::now() + delay, ++sequence_,
                     std::make_shared<Pending>(Pending{to, std::move(s)}));
    }
    wake_.notify_all();
  }

 private:
  struct Pending {
    std::string to;
    OutgoingSegment segment;
  };
  using Entry =
      std::tuple<std::chrono::steady_clock::time_point, std::uint64_t, std::shared_ptr<Pending>>;
  void loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (stop_ && queue_.empty()) return;
      if (queue_.empty()) {
        wake_.wait(lock);
        continue;
      }
      const auto due = std::get<0>(queue_.top());
      if (std::chrono::steady_clock::now() < due) {
        wake_.wait_until(lock, due);
        continue;
      }
      auto p = std::get<2>(queue_.top());
      queue_.pop();
      lock.unlock();
      inner_.send(p->to, std::move(p->segment));
      lock.lock();
    }
  }
  Transport& inner_;
  const std::chrono::milliseconds max_;
  std::mt19937 rng_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue_;
  std::uint64_t sequence_ = 0;
  bool stop_ = false;
  std::thread thread_;
};

void wait_file(const fs::path& f) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!fs::exists(f) && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

void write_atomically(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp";
  std::ofstream(tmp) << text;
  fs::rename(tmp, path);
}
}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> a;
  for (int i = 1; i + 1 < argc; i += 2) a[argv[i]] = argv[i + 1];
  const fs::path dir = a.at("--dir");
  const int rank = std::stoi(a.at("--rank")), world = std::stoi(a.at("--world"));
  const std::size_t count = std::stoull(a.at("--count"));
  const auto timeout =
      std::chrono::milliseconds(a.count("--timeout-ms") ? std::stoi(a["--timeout-ms"]) : 2000);
  RingOptions options;
  options.timeout = timeout;
  options.codec = wire::codec_from_name(a.count("--codec") ? a["--codec"] : "none");
  options.verify = a.count("--verify") && a["--verify"] == "on";
  if (a.count("--aggregator") && a["--aggregator"] == "centered-clip")
    options.aggregator = std::make_shared<CenteredClip>();
  if (a.count("--fault")) {
    if (a["--fault"] == "sign-flip-input") {
      // Lies about its input only (x-1000), as rookery-node --fault sign-flip-averaging does.
    } else if (a["--fault"] == "lying-owner") {
      options.fault = RingOptions::Fault::lying_owner;
    } else if (a["--fault"] == "lying-owner-commitments") {
      options.fault = RingOptions::Fault::lying_owner_commitments;
    } else if (a["--fault"] == "altering-forwarder") {
      options.fault = RingOptions::Fault::altering_forwarder;
    } else {
      std::cerr << "unknown --fault " << a["--fault"] << "\n";
      return 2;
    }
  }

  net::SecureContext ctx;
  const auto identity = net::CurveKeyPair::generate();
  ZmqTransportConfig config;
  config.send_timeout = timeout;
  ZmqTransport transport(ctx, identity, config);
  write_atomically(dir / ("member-" + std::to_string(rank) + ".addr"),
                   transport.endpoint() + " " + identity.public_key);

  std::vector<std::string> members(static_cast<std::size_t>(world));
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (int r = 0; r < world; ++r) {
    const fs::path f = dir / ("member-" + std::to_string(r) + ".addr");
    while (!fs::exists(f)) {
      if (std::chrono::steady_clock::now() > give_up) {
        std::cerr << "member " << rank << ": no address from member " << r << "\n";
        return 2;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::ifstream in(f);
    std::string endpoint, key;
    in >> endpoint >> key;
    members[std::size_t(r)] = key;
    if (r != rank) transport.add_peer(key, endpoint);
  }

  // Everyone has allowed everyone's key before anyone connects: a CURVE handshake refused
  // by the ZAP allow-list is not retried by libzmq.
  std::ofstream(dir / ("ready-" + std::to_string(rank))) << "ready\n";
  for (int r = 0; r < world; ++r) wait_file(dir / ("ready-" + std::to_string(r)));
  auto own_values = testing::member_values(count, std::uint32_t(rank));
  if (a.count("--fault") && a["--fault"] == "sign-flip-input") {
    for (auto& v : own_values) v *= -1000.f;
  }
  const auto input = std::make_shared<const std::vector<float>>(std::move(own_values));
  const bool in_place = a.count("--placement") && a["--placement"] == "in";
  std::vector<float> values = in_place ? *input : std::vector<float>(count);
  const double weight = 10 + 37 * rank;
  std::unique_ptr<HoldingTransport> holding;
  Transport* t = &transport;
  if (a.count("--hold-after-sends")) {
    holding =
        std::make_unique<HoldingTransport>(transport, std::stoull(a["--hold-after-sends"]),
                                           dir / ("member-" + std::to_string(rank) + ".holding"));
    t = holding.get();
  }
  std::unique_ptr<DelayingTransport> delaying;
  if (a.count("--delay-ms")) {
    delaying = std::make_unique<DelayingTransport>(
        *t, std::chrono::milliseconds(std::stoi(a["--delay-ms"])), std::uint32_t(rank) + 1);
    t = delaying.get();
  }
  RingAllReduce ring(*t, options);
  const RingSpec spec{ring_key("params", 0, count), members};
  // --rounds K: K rounds one after the other (the last one's values are written), whoever was
  // caught in any of them reported.
  const int rounds = a.count("--rounds") ? std::stoi(a["--rounds"]) : 1;
  RingOutcome outcome;
  std::vector<std::string> caught;
  for (int round = 1; round <= rounds; ++round) {
    if (in_place) values = *input;
    outcome = in_place ? ring.run(spec, std::uint64_t(round), values, weight)
                       : ring.run(spec, std::uint64_t(round), SharedValues{*input, input}, values,
                                  weight);
    for (const auto& c : outcome.caught) {
      if (std::find(caught.begin(), caught.end(), c) == caught.end()) caught.push_back(c);
    }
  }
  outcome.caught = caught;

  std::ostringstream result;
  result << "ranks";
  for (const auto& c : outcome.contributors) {
    result << ' ' << (std::find(members.begin(), members.end(), c) - members.begin());
  }
  const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  result << "\nweight " << outcome.total_weight << "\nattempts " << outcome.attempts
         << "\nfinished_ms " << now_ms << "\nseconds " << outcome.seconds << "\ncaught";
  for (const auto& c : outcome.caught) {
    result << ' ' << (std::find(members.begin(), members.end(), c) - members.begin());
  }
  result << "\n";
  for (const auto& e : outcome.evidence)
    std::cerr << "member " << rank << ": caught: " << e << "\n";
  {
    std::ofstream out(dir / ("member-" + std::to_string(rank) + ".values"), std::ios::binary);
    out.write(reinterpret_cast<const char*>(values.data()),
              std::streamsize(values.size() * sizeof(float)));
  }
  write_atomically(dir / ("member-" + std::to_string(rank) + ".result"), result.str());
  return 0;
}
