#pragma once
// The job's member list, kept in step between the coordinator and every node. A node admits on
// its peer-facing sockets only the keys the list names, so a volunteer that leaves or is banned
// must drop out of every node's list within a heartbeat, and a newcomer must enter it. Sent
// whole on every change, the list costs N keys to each of N nodes (N² bytes per change), and
// from about 6,000 members it no longer fits in a reply at all. So:
//   - a node whose list the coordinator published recently is sent the changes since (the keys
//     added and removed), a few keys per change whatever the swarm's size;
//   - a node that holds no recent list (a newcomer, one long offline) is sent the list in pages
//     of key order, one per heartbeat, and says in each heartbeat how far it has got, so a list
//     of any size arrives in a few seconds.
// MemberListLog is the coordinator's side (the publications and their changes), and
// MemberListFollower the node's (the list it holds, and the pages it is assembling). Pure: no
// sockets, no clock.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "rookery/coordinator.pb.h"

namespace rookery::net {

class MemberListLog {
 public:
  // Publications whose changes are kept (a node further behind is sent pages), and at most this
  // many keys in all of them.
  static constexpr std::size_t kKeptPublications = 256;
  static constexpr std::size_t kKeptKeys = 1 << 16;

  // `members` is now the list, under `digest` (a function of the set: the same set, the same
  // digest).
  void publish(const std::set<std::string>& members, std::uint64_t digest);
  std::uint64_t digest() const { return digest_; }
  const std::vector<std::string>& list() const { return list_; }  // in key order

  struct Changes {
    std::vector<std::string> added, removed;  // each in key order
  };
  // From the list published under `digest` to the latest; nullopt when that is not one of the
  // kept publications.
  std::optional<Changes> since(std::uint64_t digest) const;

 private:
  struct Publication {
    std::uint64_t digest = 0;
    std::vector<std::string> added, removed;  // against the publication before it
  };
  std::deque<Publication> history_;
  std::size_t kept_keys_ = 0;
  std::vector<std::string> list_;
  std::uint64_t digest_ = 0;
};

// What of `log`'s list a node whose heartbeat says `h` should be sent: the changes since its
// list when `log` kept them and they fit a page, else the next page (at most `page` keys) of the
// list it is assembling, or the first. Chosen once, so a reply is sized by what it will carry.
struct MemberListPart {
  std::optional<MemberListLog::Changes> changes;  // set: these, from the node's list
  std::size_t first = 0, last = 0;                // else: these keys of the list, in key order
  std::size_t keys() const {
    return changes ? changes->added.size() + changes->removed.size() : last - first;
  }
};
// Nullopt when the node holds the latest list.
std::optional<MemberListPart> member_list_part(const MemberListLog& log,
                                               const wire::pb::Heartbeat& h, std::size_t page);
// Fills `out` with `part` (from member_list_part(log, h, ...)), and the latest digest.
void add_member_list(const MemberListLog& log, const wire::pb::Heartbeat& h,
                     const MemberListPart& part, wire::pb::HeartbeatReply& out);
// Both at once. Returns the keys added to `out`.
std::size_t add_member_list(const MemberListLog& log, const wire::pb::Heartbeat& h,
                            std::size_t page, wire::pb::HeartbeatReply& out);

class MemberListFollower {
 public:
  // The list this node holds, and how far it has got with one it receives in pages.
  void describe(wire::pb::Heartbeat& h) const;
  // A reply's part of the list. Returns the whole list when this reply completes a new one
  // (admit those keys from now on), else nullopt (nothing new, or pages still to come, or
  // changes that do not start from the list held, which the next heartbeat's digest corrects).
  std::optional<std::vector<std::string>> apply(const wire::pb::HeartbeatReply& r);
  std::uint64_t digest() const { return digest_; }
  // The coordinator keeps no list: forget ours.
  void clear();

 private:
  std::uint64_t digest_ = 0;
  std::set<std::string> members_;
  std::uint64_t pending_digest_ = 0;
  std::vector<std::string> pending_;
};

}  // namespace rookery::net
