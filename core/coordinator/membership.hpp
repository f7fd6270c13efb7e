#pragma once
// Who is in the job: the volunteers alive now (each heartbeat renews a deadline; one silent past
// it is planned around), what their heartbeats report, the bans, and the member list that every
// node's peer-facing sockets admit.
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "clock/clock.hpp"
#include "net/member_list_sync.hpp"
#include "coordinator/ban_vote.hpp"
#include "coordinator/coordinator_state.hpp"
#include "coordinator/swarm_planner.hpp"
#include "coordinator/sybil_limits.hpp"
#include "rookery/envelope.pb.h"

namespace rookery::coordinator {

// Peers a joining volunteer measures its links to: training traffic goes peer to peer, and the
// coordinator's own link says little of that.
inline constexpr std::size_t kProbeTargets = 3;

// A volunteer while it is alive.
struct Volunteer {
  Member member;
  std::chrono::steady_clock::time_point last_seen;
  std::uint64_t plan_version = 0;  // what it reported running
  double samples_per_s = 0;
  double loss = -1;
  bool contributing = true;
  Contribution totals;
  std::set<std::string> accuses;  // ring partners this node's aggregator excludes now
  std::set<std::string>
      caught;  // senders whose activations or gradients this node's spot-checks caught wrong
  std::chrono::steady_clock::time_point paused_since{};  // while !contributing
  cluster::NodeProfile measured_at_join;  // its link to the coordinator, as the join measured it
  std::uint32_t peers_measured = 0;       // peers whose links it reported measuring
  double offered_flops = 0;  // what its owner allows (benchmark x duty cycle; 0: not reported yet)
  SpeedHistory speed;       // training FLOP per second of compute / benchmark, against its own past
  bool has_data = false;    // holds the job's dataset, verified (planned only then)
  double data_fetched = 0;  // while fetching: the fraction it holds
  wire::pb::ReachWay reach =
      wire::pb::REACH_UNKNOWN;  // how peers dial it (UNREACHABLE: not planned)
  std::string relay;            // REACH_RELAYED: the relay's key
  // Peers' dial-back during their link probes, at the endpoint it is planned at: by prober,
  // whether its key answered there.
  std::map<std::string, bool> dialled_by;
  std::string address;  // the IP it joined from, as this coordinator saw it (the Sybil caps'; empty
                        // for one presumed alive after a restart until it joins again)
  std::string device;   // what it computes on, as it reported at its join ("cpu", "cuda:0")
};

class Membership {
 public:
  // Silent longer than `dead_after`: dead. Newcomers reach the member list heartbeats carry at
  // most once per `publish_every` (0: at once), see published_members().
  Membership(CoordinatorState& state, std::chrono::milliseconds dead_after,
             const clock::Clock& clock = clock::SystemClock::instance(),
             std::chrono::milliseconds publish_every = std::chrono::milliseconds(0));

  // After a restart: the volunteers seated in `plan` are presumed alive for one grace period
  // (they keep training on it and re-register within a heartbeat); members and bans as saved.
  void resume(const Assignment& plan);

  const std::map<std::string, Volunteer>& live() const { return live_; }
  // Rises whenever a volunteer comes alive, goes, or joins again (its endpoints may differ):
  // what is built from the live volunteers' endpoints is rebuilt only when it changes.
  std::uint64_t generation() const { return generation_; }
  // The keys whose volunteer came alive, went, or joined again since `generation` (newest
  // first, a key may repeat); nullopt when that reaches back further than it remembers.
  std::optional<std::vector<std::string>> changed_since(std::uint64_t generation) const;
  Volunteer* find(const std::string& key);
  const std::map<std::string, Ban>& banned() const { return banned_; }
  const Ban* ban_of(const std::string& key) const;

  // An admitted join: recorded (throws what the state file throws, changing nothing) and alive
  // from now. Returns whether it was alive already at the same addresses.
  bool admit(const Member& m, std::uint64_t plan_version, bool has_data);
  // Where a live volunteer joined from (the Sybil caps count it there from now on).
  void set_address(const std::string& key, const std::string& address);
  // The live volunteers by where they joined from, for the Sybil caps.
  const OriginCounts& origins() const { return origins_; }
  // Up to kProbeTargets other live volunteers that peers can dial, at random, for `key` to
  // measure its links to: drawn from the live volunteers by index, not by a scan of them.
  std::vector<const Member*> probe_targets(const std::string& key);
  // Its owner chose to leave: false when it was not alive (its totals and record stay).
  bool leave(const std::string& key);
  void ban(const std::string& key, const wire::pb::Verdict& why);
  // Removes the volunteers silent past the deadline; returns their keys.
  std::vector<std::string> expire_silent();

  // A heartbeat's news of `v` (its deadline renewed), and the peers it names as liars.
  struct Heard {
    bool data_changed = false;  // it came to hold the dataset, or lost it
    std::set<std::string> named;
  };
  Heard hear(const std::string& key, Volunteer& v, const wire::pb::Heartbeat& h,
             const std::string& dataset_digest);
  // The work a heartbeat reports: its own progress, its receipts for others' work, and the
  // links it measured to its peers. Progress and receipts wait for flush_work(): written one
  // transaction per heartbeat, they would cost thousands of commits a second.
  // True when a peer's dial-back changed what the planner should know of a volunteer.
  bool record_work(const std::string& key, Volunteer& v, const wire::pb::Heartbeat& h);
  // Writes the work recorded since the last call in one transaction per kind, and updates the
  // live volunteers' totals from it (the service calls it every tick).
  void flush_work();
  // The same in three steps, so that the state file's transaction runs outside the lock that
  // heartbeats wait for: take_work() and apply_work() under it, write_work() (which touches the
  // state file only, thread-safe on its own) between them without it.
  struct Work {
    std::vector<ProgressReport> progress;
    std::vector<std::pair<std::string, std::vector<ReceiptReport>>> receipts;
  };
  Work take_work();
  // Reads only the state file and the clock: callable without the lock.
  std::map<std::string, Contribution> write_work(const Work& work) const;
  void apply_work(const std::map<std::string, Contribution>& totals);
  // What the live volunteers report of `accused` (kept by accused as heartbeats come: a
  // lookup, not a scan of every volunteer).
  BanReports reports_on(const std::string& accused) const;

  // The volunteers admitted (alive or silent for a while: they may come back) that have not
  // left and are not banned, and a digest of them (never 0: 0 means "no list" on the wire).
  // Nodes get the list in heartbeat replies whenever their digest of it differs.
  const std::set<std::string>& members() const { return members_; }
  std::uint64_t digest() const { return digest_; }
  // The list as heartbeat replies carry it. Every change of it sends the whole list to every
  // node, so newcomers are added at most once per `publish_every` (a node measures its links to
  // peers three heartbeats after its join: by then their lists hold it); a volunteer that left
  // or was banned is removed at once, as peers must cut it off within a heartbeat.
  const std::set<std::string>& published_members() const { return published_; }
  std::uint64_t published_digest() const { return published_digest_; }
  // The publications with their changes, which replies send a node as changes or pages.
  const net::MemberListLog& member_log() const { return log_; }
  // Publishes the newcomers when `publish_every` has passed since the last publication.
  void publish_due();
  // Whether a node whose list has `digest` misses a removal (it must get the list now), rather
  // than newcomers only (the list may wait for a later heartbeat). A digest this coordinator
  // did not publish recently counts as missing one.
  bool misses_removal(std::uint64_t digest) const;

 private:
  void members_changed(const std::string& key);
  void note_change(const std::string& key);  // a new generation, because of `key`
  void publish();
  // Bookkeeping of a volunteer coming alive or going (its index entries, reports and origin).
  void came_alive(const std::string& key);
  void went(const std::string& key, const Volunteer& v);
  void index_reports(const std::string& reporter, const std::set<std::string>& before,
                     const std::set<std::string>& now,
                     std::map<std::string, std::set<std::string>>& index);
  void remove_member(const std::string& key);
  void queue_receipts(const std::string& consumer, const wire::pb::Heartbeat& h);
  bool record_dial_backs(const std::string& prober, const wire::pb::Heartbeat& h);
  void record_peer_links(const std::string& key, Volunteer& v, const wire::pb::Heartbeat& h);

  CoordinatorState& state_;
  std::chrono::milliseconds dead_after_;
  const clock::Clock& clock_;
  std::map<std::string, Volunteer> live_;
  std::map<std::string, Ban> banned_;
  std::set<std::string> members_;
  // The digest is a sum of a keyed hash of each member, updated as one comes or goes (a hash
  // over the sorted list cost O(N) at every join); the key is this coordinator's secret, so
  // nobody can pick a key that makes two lists collide.
  std::uint64_t digest_sum_ = 0, digest_ = 0;
  std::uint64_t digest_salt_ = 0;
  std::chrono::milliseconds publish_every_;
  std::set<std::string> published_;
  std::uint64_t published_digest_ = 0;
  net::MemberListLog log_;
  bool unpublished_ = false;    // newcomers wait for publish_due()
  std::uint64_t removals_ = 0;  // members removed, all time
  // The recent publications' digests, with removals_ when each was published.
  std::deque<std::pair<std::uint64_t, std::uint64_t>> publications_;
  std::chrono::steady_clock::time_point published_at_{};
  std::uint64_t generation_ = 0;
  std::deque<std::pair<std::uint64_t, std::string>> changes_;  // generation, key: the latest
  std::vector<ProgressReport> progress_;                       // since the last flush_work()
  std::vector<std::pair<std::string, std::vector<ReceiptReport>>> receipts_;
  std::mt19937_64 random_{std::random_device{}()};          // probe targets, the digest's salt
  std::vector<std::string> live_keys_;                      // live_'s keys, to draw from at random
  std::unordered_map<std::string, std::size_t> live_slot_;  // where each is in live_keys_
  std::map<std::string, std::set<std::string>> excluded_by_, caught_by_;  // accused -> reporters
  OriginCounts origins_;
};

}  // namespace rookery::coordinator
