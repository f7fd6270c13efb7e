#include "net/member_list_sync.hpp"

#include <algorithm>
#include <iterator>
#include <map>

namespace rookery::net {

void MemberListLog::publish(const std::set<std::string>& members, std::uint64_t digest) {
  Publication p;
  p.digest = digest;
  std::set_difference(members.begin(), members.end(), list_.begin(), list_.end(),
                      std::back_inserter(p.added));
  std::set_difference(list_.begin(), list_.end(), members.begin(), members.end(),
                      std::back_inserter(p.removed));
  list_.assign(members.begin(), members.end());
  digest_ = digest;
  kept_keys_ += p.added.size() + p.removed.size();
  history_.push_back(std::move(p));
  while (history_.size() > kKeptPublications || (history_.size() > 1 && kept_keys_ > kKeptKeys)) {
    kept_keys_ -= history_.front().added.size() + history_.front().removed.size();
    history_.pop_front();
  }
}

std::optional<MemberListLog::Changes> MemberListLog::since(std::uint64_t digest) const {
  if (digest == 0) return std::nullopt;
  if (digest == digest_) return Changes{};
  // The latest publication under that digest (an earlier one had the same list).
  auto from = history_.rend();
  for (auto it = history_.rbegin(); it != history_.rend(); ++it) {
    if (it->digest == digest) {
      from = it;
      break;
    }
  }
  if (from == history_.rend()) return std::nullopt;
  // Each key's first change after that publication says whether that list held it.
  std::map<std::string, bool> held_then;
  for (auto it = from.base(); it != history_.end(); ++it) {
    for (const auto& k : it->added) held_then.emplace(k, false);
    for (const auto& k : it->removed) held_then.emplace(k, true);
  }
  Changes out;
  for (const auto& [key, held] : held_then) {
    const bool held_now = std::binary_search(list_.begin(), list_.end(), key);
    if (held_now && !held) out.added.push_back(key);
    if (!held_now && held) out.removed.push_back(key);
  }
  return out;
}

std::optional<MemberListPart> member_list_part(const MemberListLog& log,
                                               const wire::pb::Heartbeat& h, std::size_t page) {
  if (h.members_digest() == log.digest()) return std::nullopt;
  MemberListPart part;
  if (auto changes = log.since(h.members_digest());
      changes && changes->added.size() + changes->removed.size() <= page) {
    part.changes = std::move(changes);
    return part;
  }
  const auto& list = log.list();
  if (h.members_pending() == log.digest() && h.members_have() < list.size())
    part.first = h.members_have();
  part.last = std::min(list.size(), part.first + std::max<std::size_t>(page, 1));
  return part;
}

void add_member_list(const MemberListLog& log, const wire::pb::Heartbeat& h,
                     const MemberListPart& part, wire::pb::HeartbeatReply& out) {
  out.set_members_digest(log.digest());
  if (part.changes) {
    out.set_members_base(h.members_digest());
    for (const auto& k : part.changes->added) out.add_members_added(k);
    for (const auto& k : part.changes->removed) out.add_members_removed(k);
    return;
  }
  const auto& list = log.list();
  out.set_members_page_first(static_cast<std::uint32_t>(part.first));
  out.set_members_total(static_cast<std::uint32_t>(list.size()));
  for (std::size_t i = part.first; i < part.last; ++i) out.add_members(list[i]);
}

std::size_t add_member_list(const MemberListLog& log, const wire::pb::Heartbeat& h,
                            std::size_t page, wire::pb::HeartbeatReply& out) {
  out.set_members_digest(log.digest());
  const auto part = member_list_part(log, h, page);
  if (!part) return 0;
  add_member_list(log, h, *part, out);
  return part->keys();
}

void MemberListFollower::describe(wire::pb::Heartbeat& h) const {
  h.set_members_digest(digest_);
  if (!pending_.empty()) {
    h.set_members_pending(pending_digest_);
    h.set_members_have(static_cast<std::uint32_t>(pending_.size()));
  }
}

void MemberListFollower::clear() {
  digest_ = pending_digest_ = 0;
  members_.clear();
  pending_.clear();
}

std::optional<std::vector<std::string>> MemberListFollower::apply(
    const wire::pb::HeartbeatReply& r) {
  if (r.members_digest() == 0 || r.members_digest() == digest_) return std::nullopt;
  if (r.members_base() != 0) {  // changes, from the list this node holds or none
    if (r.members_base() != digest_) return std::nullopt;
    for (const auto& k : r.members_removed()) members_.erase(k);
    members_.insert(r.members_added().begin(), r.members_added().end());
    digest_ = r.members_digest();
    pending_.clear();
    return std::vector<std::string>(members_.begin(), members_.end());
  }
  if (r.members_total() == 0) {  // the whole list in one reply, or none
    if (r.members().empty()) return std::nullopt;
    members_ = std::set<std::string>(r.members().begin(), r.members().end());
    digest_ = r.members_digest();
    pending_.clear();
    return std::vector<std::string>(members_.begin(), members_.end());
  }
  // A page: the first starts a list, the next must follow on from the keys held of it.
  if (r.members_page_first() == 0) {
    pending_.clear();
    pending_digest_ = r.members_digest();
  }
  if (pending_digest_ != r.members_digest() || r.members_page_first() != pending_.size()) {
    return std::nullopt;
  }
  pending_.insert(pending_.end(), r.members().begin(), r.members().end());
  if (pending_.size() < r.members_total()) return std::nullopt;
  members_ = std::set<std::string>(pending_.begin(), pending_.end());
  digest_ = pending_digest_;
  pending_.clear();
  return std::vector<std::string>(members_.begin(), members_.end());
}

}  // namespace rookery::net
