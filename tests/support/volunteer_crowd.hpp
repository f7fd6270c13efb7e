#pragma once
// Thousands of volunteers played by one process, over real CURVE connections to a coordinator:
// each has its own key pair and its own DEALER socket (as a node's coordinator client does), and
// a few threads each own a share of the sockets and poll them all. Every volunteer joins (a few
// at a time per thread, a crowd arriving), then heartbeats every `interval` from its join on and
// asks for the run's status every `status_every`, as a node's dashboard does. Every heartbeat's
// round trip is recorded, and so is the longest a volunteer went without an answered heartbeat,
// which is what the coordinator's death deadline measures. Needs rookery::net, rookery::wire.
#include <sys/epoll.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <zmq.hpp>

#include "net/identity.hpp"
#include "rookery/envelope.pb.h"
#include "support/coordinator_rpc.hpp"
#include "wire/message.hpp"

namespace rookery::testing {

struct CrowdOptions {
  int volunteers = 1000;
  int threads = 2;
  std::chrono::milliseconds interval{500};         // a node's heartbeat interval
  std::chrono::milliseconds status_every{3000};    // a node's run-status period (0: never)
  std::chrono::milliseconds reply_timeout{10000};  // a request unanswered this long is lost
  std::int64_t free_memory = 0;                    // each volunteer's, in bytes
  double flops_per_s = 50e9;
  int port_base = 40000;     // volunteer i names ports port_base + 3 i .. + 2 (never dialled)
  int joins_in_flight = 16;  // per thread: joins waiting for their answer at once
};

// What the crowd measured while it ran.
struct CrowdFigures {
  std::vector<double> heartbeat_ms;  // round trip of each answered heartbeat
  std::vector<double> status_ms;     // of each answered status request
  std::size_t lost = 0;              // requests not answered within reply_timeout
  std::size_t unknown = 0;           // heartbeats the coordinator answered "join again"
  double longest_silence_ms = 0;     // the longest any volunteer went without an answered beat
  std::size_t plans_received = 0;
  std::size_t member_lists_received = 0;
  std::uint64_t newest_plan = 0;  // the newest plan version heartbeat replies named
  std::size_t undecodable = 0;    // replies a node's decoder refuses (a node takes them for none)
  std::size_t joined = 0;         // admitted, all time
  std::size_t refused = 0;        // joins refused, all time

  static double percentile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const auto i = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
  }
};

// Raises this process's open-file limit to `wanted` descriptors (each volunteer's socket takes
// two: its connection and its mailbox); false when the hard limit does not allow it.
inline bool raise_file_limit(rlim_t wanted) {
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) != 0) return false;
  if (r.rlim_cur >= wanted) return true;
  if (r.rlim_max != RLIM_INFINITY && r.rlim_max < wanted) return false;
  r.rlim_cur = wanted;
  return setrlimit(RLIMIT_NOFILE, &r) == 0;
}

class VolunteerCrowd {
 public:
  VolunteerCrowd(std::string endpoint, std::string server_key, std::string job_id,
                 CrowdOptions options)
      : endpoint_(std::move(endpoint)),
        server_key_(std::move(server_key)),
        job_id_(std::move(job_id)),
        options_(options) {
    ctx_.set(zmq::ctxopt::max_sockets, options_.volunteers + 64);
    ctx_.set(zmq::ctxopt::io_threads, 1);
    volunteers_.resize(static_cast<std::size_t>(options_.volunteers));
  }
  ~VolunteerCrowd() { stop(); }

  // Every volunteer connects, joins, and heartbeats from its join on (and asks for the status)
  // until stop().
  void start() {
    running_ = true;
    for (int t = 0; t < options_.threads; ++t) threads_.emplace_back([this, t] { serve(t); });
  }

  // Waits until every volunteer is admitted; false when one is refused or `timeout` passes.
  bool wait_joined(std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    for (;;) {
      {
        std::lock_guard lock(mutex_);
        if (figures_.refused > 0) return false;
        if (figures_.joined >= volunteers_.size()) return true;
      }
      if (Clock::now() > deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

  void stop() {
    running_ = false;
    for (auto& th : threads_) th.join();
    threads_.clear();
  }

  // The figures so far; `reset` starts a new window (after warm-up).
  CrowdFigures figures(bool reset = false) {
    std::lock_guard lock(mutex_);
    CrowdFigures f = figures_;
    const auto now = std::chrono::steady_clock::now();
    for (const auto& v : volunteers_) {
      if (v.joined) f.longest_silence_ms = std::max(f.longest_silence_ms, ms(now - v.last_answer));
    }
    if (reset) {
      CrowdFigures fresh;
      fresh.joined = figures_.joined;
      fresh.refused = figures_.refused;
      figures_ = std::move(fresh);
      for (auto& v : volunteers_) v.last_answer = std::max(v.last_answer, now);
    }
    return f;
  }

 private:
  using Clock = std::chrono::steady_clock;
  enum class Asked { nothing, join, heartbeat, status };

  struct Volunteer {
    net::CurveKeyPair identity = net::CurveKeyPair::generate();
    std::unique_ptr<zmq::socket_t> socket;
    bool joined = false;
    std::string dataset_digest;
    std::uint64_t plan_version = 0;
    std::uint64_t members_digest = 0;  // of the member list it holds, as a node sends it
    // A list arriving in pages: its digest and how many keys of it came (the keys themselves
    // are not kept: a crowd of thousands would hold millions).
    std::uint64_t members_pending = 0;
    std::uint32_t members_have = 0;
    std::uint64_t next_id = 1;
    // One request in flight at a time, as a node's coordinator client does.
    Asked asked = Asked::nothing;
    std::uint64_t asked_id = 0;
    Clock::time_point asked_at, next_beat, next_status, last_answer;
  };

  static double ms(Clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
  }

  void send(Volunteer& v, wire::pb::Envelope e, Asked what) {
    e.set_request_id(v.next_id);
    auto frames = wire::encode(std::move(e));
    for (std::size_t f = 0; f < frames.size(); ++f) {
      v.socket->send(frames[f],
                     f + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::none);
    }
    v.asked = what;
    v.asked_id = v.next_id++;
    v.asked_at = Clock::now();
  }

  // The next message on `v`'s socket, decoded; nullopt when none is waiting.
  std::optional<wire::Message> receive(Volunteer& v) {
    std::vector<zmq::message_t> frames;
    for (;;) {
      zmq::message_t m;
      if (!v.socket->recv(m, zmq::recv_flags::dontwait)) return std::nullopt;
      const bool more = m.more();
      frames.push_back(std::move(m));
      if (!more) break;
    }
    auto decoded = wire::decode(std::move(frames));
    if (!decoded) {
      std::lock_guard lock(mutex_);
      ++figures_.undecodable;
      return wire::Message{};  // read on: more may wait; matches no request
    }
    return std::move(decoded.message());
  }

  void connect(std::size_t i) {
    auto& v = volunteers_[i];
    v.socket = std::make_unique<zmq::socket_t>(ctx_, zmq::socket_type::dealer);
    v.socket->set(zmq::sockopt::linger, 0);
    v.socket->set(zmq::sockopt::curve_serverkey, server_key_);
    v.socket->set(zmq::sockopt::curve_publickey, v.identity.public_key);
    v.socket->set(zmq::sockopt::curve_secretkey, v.identity.secret_key);
    v.socket->connect(endpoint_);
  }

  void serve(int t) {
    std::vector<Volunteer*> mine;
    std::vector<int> ports;
    for (std::size_t i = static_cast<std::size_t>(t); i < volunteers_.size();
         i += static_cast<std::size_t>(options_.threads)) {
      connect(i);
      mine.push_back(&volunteers_[i]);
      ports.push_back(options_.port_base + 3 * static_cast<int>(i));
    }
    // zmq_poll over thousands of sockets costs a system call per socket per wake-up; epoll over
    // their ZMQ_FDs wakes for the ready ones only. A ZMQ_FD signals a change, not readable
    // input, so a socket is read dry whenever it signals, after each send (which may consume
    // the signal of an answer already waiting), and when an answer is late.
    const int epoll = epoll_create1(EPOLL_CLOEXEC);
    for (std::size_t k = 0; k < mine.size(); ++k) {
      epoll_event ev{};
      ev.events = EPOLLIN;
      ev.data.u64 = k;
      epoll_ctl(epoll, EPOLL_CTL_ADD, mine[k]->socket->get(zmq::sockopt::fd), &ev);
    }
    std::vector<epoll_event> ready(256);
    std::size_t next_join = 0;
    int joining = 0;
    const auto drain = [&](std::size_t k) {
      while (auto reply = receive(*mine[k])) {
        if (answered(*mine[k], *reply) == Asked::join) --joining;
      }
    };
    auto last_sweep = Clock::now();
    while (running_) {
      const auto now = Clock::now();
      auto next = now + std::chrono::milliseconds(20);
      // The crowd arrives a few at a time: each join is answered before the next is sent.
      while (next_join < mine.size() && joining < options_.joins_in_flight) {
        auto& v = *mine[next_join];
        send(v,
             join_request(job_id_, ports[next_join], options_.flops_per_s, options_.free_memory,
                          1e9, 1e-3),
             Asked::join);
        ++joining;
        drain(next_join++);
      }
      const bool sweep = now - last_sweep > std::chrono::milliseconds(100);
      if (sweep) last_sweep = now;
      for (std::size_t k = 0; k < mine.size(); ++k) {
        auto* v = mine[k];
        if (v->asked != Asked::nothing && sweep &&
            now - v->asked_at > std::chrono::milliseconds(100)) {
          drain(k);
        }
        if (v->asked != Asked::nothing && now - v->asked_at > options_.reply_timeout) {
          std::lock_guard lock(mutex_);
          ++figures_.lost;
          if (v->asked == Asked::join) --joining;
          v->asked = Asked::nothing;  // a node's client gives up and asks again
        }
        if (v->asked != Asked::nothing || !v->joined) continue;
        if (now >= v->next_beat) {
          send(*v, heartbeat(*v), Asked::heartbeat);
          v->next_beat += options_.interval;
          if (v->next_beat < now) v->next_beat = now + options_.interval;
          drain(k);
        } else if (options_.status_every.count() > 0 && now >= v->next_status) {
          wire::pb::Envelope e;
          e.mutable_run_status_request()->set_loss_points(120);  // as a node asks
          send(*v, std::move(e), Asked::status);
          v->next_status = now + options_.status_every;
          drain(k);
        }
        next = std::min(next, v->next_beat);
      }
      const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next - Clock::now());
      const int n = epoll_wait(epoll, ready.data(), static_cast<int>(ready.size()),
                               static_cast<int>(std::max<std::int64_t>(wait.count(), 0)));
      for (int e = 0; e < n; ++e)
        drain(static_cast<std::size_t>(ready[static_cast<std::size_t>(e)].data.u64));
    }
    close(epoll);
  }

  wire::pb::Envelope heartbeat(const Volunteer& v) const {
    wire::pb::Envelope e;
    auto* h = e.mutable_heartbeat();
    h->set_plan_version(v.plan_version);
    h->set_members_digest(v.members_digest);
    if (v.members_have > 0) {
      h->set_members_pending(v.members_pending);
      h->set_members_have(v.members_have);
    }
    h->set_contributing(true);
    h->set_dataset_digest(v.dataset_digest);
    h->set_dataset_fetched(1);
    h->set_samples_per_s(10);
    h->set_loss(-1);
    return e;
  }

  // Records an answer; returns what it answered (nothing: a late answer, ignored).
  Asked answered(Volunteer& v, const wire::Message& reply) {
    if (v.asked == Asked::nothing || reply.header.request_id() != v.asked_id) return Asked::nothing;
    const auto now = Clock::now();
    const double took = ms(now - v.asked_at);
    const Asked what = v.asked;
    v.asked = Asked::nothing;
    std::lock_guard lock(mutex_);
    if (what == Asked::join) {
      if (!reply.header.has_join_reply() || !reply.header.join_reply().accepted()) {
        ++figures_.refused;
        return what;
      }
      v.joined = true;
      v.dataset_digest = reply.header.join_reply().dataset_digest();
      v.last_answer = now;
      // Its first heartbeat within an interval of its join, and its first status request
      // somewhere in the status period, as independent nodes do.
      v.next_beat = now + options_.interval;
      v.next_status = now + options_.status_every * static_cast<long>(figures_.joined % 16) / 16;
      ++figures_.joined;
      return what;
    }
    if (what == Asked::status) {
      if (reply.header.has_run_status()) figures_.status_ms.push_back(took);
      return what;
    }
    if (!reply.header.has_heartbeat_reply()) return what;
    const auto& r = reply.header.heartbeat_reply();
    if (!r.known()) {
      ++figures_.unknown;
      return what;
    }
    figures_.heartbeat_ms.push_back(took);
    figures_.longest_silence_ms = std::max(figures_.longest_silence_ms, ms(now - v.last_answer));
    v.last_answer = now;
    follow_members(v, r);
    figures_.newest_plan = std::max(figures_.newest_plan, r.plan_version());
    if (r.has_plan()) {
      v.plan_version = r.plan_version();  // it "runs" the plan it was sent
      ++figures_.plans_received;
    }
    return what;
  }

  // The member list as net::MemberListFollower takes it (changes to the list held, a page of a
  // new one, or the whole), counted when one is complete.
  void follow_members(Volunteer& v, const wire::pb::HeartbeatReply& r) {
    if (r.members_digest() == 0 || r.members_digest() == v.members_digest) return;
    bool complete = false;
    if (r.members_base() != 0) {
      complete = r.members_base() == v.members_digest;
    } else if (r.members_total() == 0) {
      complete = !r.members().empty();
    } else {
      if (r.members_page_first() == 0) {
        v.members_pending = r.members_digest();
        v.members_have = 0;
      }
      if (v.members_pending == r.members_digest() && r.members_page_first() == v.members_have)
        v.members_have += static_cast<std::uint32_t>(r.members_size());
      complete = v.members_have >= r.members_total();
    }
    if (!complete) return;
    v.members_digest = r.members_digest();
    v.members_have = 0;
    ++figures_.member_lists_received;
  }

  zmq::context_t ctx_;
  const std::string endpoint_, server_key_, job_id_;
  const CrowdOptions options_;
  std::vector<Volunteer> volunteers_;
  std::vector<std::thread> threads_;
  std::atomic<bool> running_{false};
  std::mutex mutex_;
  CrowdFigures figures_;
};

}  // namespace rookery::testing
