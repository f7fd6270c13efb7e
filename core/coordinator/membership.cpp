#include "coordinator/membership.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include <spdlog/spdlog.h>

#include "coordinator/verdicts.hpp"
#include "net/identity.hpp"

namespace rookery::coordinator {

namespace {

constexpr std::size_t kMaxReceiptsPerHeartbeat = 256;  // a node consumes from a few neighbours
constexpr std::size_t kMaxNamedPeers = 64;

}  // namespace

Membership::Membership(CoordinatorState& state, std::chrono::milliseconds dead_after,
                       const clock::Clock& clock)
    : state_(state), dead_after_(dead_after), clock_(clock) {}

void Membership::resume(const Assignment& plan) {
  const auto now = clock_.steady_now();
  for (auto& m : state_.members()) {
    if (plan.find(m.key).first < 0) continue;
    Volunteer v;
    v.member = m;
    v.last_seen = now;
    v.plan_version = plan.version;
    v.has_data = true;  // it was seated, so it held the data
    live_[m.key] = std::move(v);
  }
  banned_ = state_.banned();
  for (const auto& m : state_.members()) {
    if (banned_.find(m.key) == banned_.end()) members_.insert(m.key);
  }
  members_changed();
  const auto totals = state_.contributions();
  for (auto& [k, v] : live_) {
    if (const auto it = totals.find(k); it != totals.end()) v.totals = it->second;
  }
}

Volunteer* Membership::find(const std::string& key) {
  const auto it = live_.find(key);
  return it == live_.end() ? nullptr : &it->second;
}

const Ban* Membership::ban_of(const std::string& key) const {
  const auto it = banned_.find(key);
  return it == banned_.end() ? nullptr : &it->second;
}

bool Membership::admit(const Member& m, std::uint64_t plan_version, bool has_data) {
  state_.save_member(m, clock_.unix_ms());
  if (members_.insert(m.key).second) members_changed();
  auto& v = live_[m.key];
  const bool same_seat = v.member.key == m.key && v.member.stage_endpoint == m.stage_endpoint &&
                         v.member.reduce_endpoint == m.reduce_endpoint &&
                         v.member.shard_endpoint == m.shard_endpoint;
  v.member = m;
  v.measured_at_join = m.profile;
  v.peers_measured = 0;
  v.last_seen = clock_.steady_now();
  v.plan_version = plan_version;
  v.has_data = has_data;
  return same_seat;
}

std::vector<const Member*> Membership::probe_targets(const std::string& key) {
  std::vector<const Member*> others, picked;
  for (const auto& [k, v] : live_) {
    if (k != key && !v.member.shard_endpoint.empty()) others.push_back(&v.member);
  }
  std::sample(others.begin(), others.end(), std::back_inserter(picked), kProbeTargets, random_);
  return picked;
}

bool Membership::leave(const std::string& key) {
  const auto it = live_.find(key);
  if (it == live_.end()) return false;
  live_.erase(it);
  remove_member(key);
  return true;
}

void Membership::ban(const std::string& key, const wire::pb::Verdict& why) {
  try {
    state_.ban(key, why, clock_.unix_ms());
  } catch (const std::exception& e) {
    spdlog::error("cannot record the ban: {}", e.what());
  }
  banned_[key] = {why, verdict::words(why), clock_.unix_ms()};
  live_.erase(key);
  remove_member(key);
}

std::vector<std::string> Membership::expire_silent() {
  std::vector<std::string> gone;
  const auto now = clock_.steady_now();
  for (auto it = live_.begin(); it != live_.end();) {
    if (now - it->second.last_seen > dead_after_) {
      spdlog::warn("volunteer {} went silent for {} ms: planning around it",
                   net::short_key(it->first), dead_after_.count());
      gone.push_back(it->first);
      it = live_.erase(it);
    } else {
      ++it;
    }
  }
  return gone;
}

Membership::Heard Membership::hear(const std::string& key, Volunteer& v,
                                   const wire::pb::Heartbeat& h,
                                   const std::string& dataset_digest) {
  Heard heard;
  v.last_seen = clock_.steady_now();
  v.plan_version = h.plan_version();
  v.samples_per_s = h.samples_per_s();
  v.loss = h.loss();
  if (v.contributing != h.contributing()) {
    // A paused volunteer keeps its seat: its pipeline waits for it, as after a short pause
    // it would be costlier to move its shard than to wait. Reported, not re-planned.
    spdlog::info("volunteer {} {}", net::short_key(key),
                 h.contributing() ? "contributes again" : "paused");
  }
  if (v.contributing && !h.contributing()) v.paused_since = clock_.steady_now();
  v.contributing = h.contributing();
  // Planned once it holds the whole dataset, verified.
  const bool has_data = h.dataset_digest() == dataset_digest;
  if (has_data != v.has_data) {
    spdlog::info("volunteer {} {} the job's dataset", net::short_key(key),
                 has_data ? "holds" : "no longer holds");
    v.has_data = has_data;
    heard.data_changed = true;
  }
  v.data_fetched = std::clamp(h.dataset_fetched(), 0.0, 1.0);
  v.accuses.clear();
  for (const auto& k : h.excluded_peers()) {
    if (k != key && v.accuses.size() < kMaxNamedPeers) v.accuses.insert(k);
  }
  v.caught.clear();
  for (const auto& k : h.failed_spot_checks()) {
    if (k != key && v.caught.size() < kMaxNamedPeers) v.caught.insert(k);
  }
  heard.named = v.accuses;
  heard.named.insert(v.caught.begin(), v.caught.end());
  return heard;
}

BanReports Membership::reports_on(const std::string& accused) const {
  BanReports reports;
  for (const auto& [k, v] : live_) {
    if (v.accuses.count(accused)) reports.excluded_by.insert(k);
    if (v.caught.count(accused)) reports.caught_by.insert(k);
  }
  return reports;
}

void Membership::record_work(const std::string& key, Volunteer& v, const wire::pb::Heartbeat& h) {
  try {
    v.totals =
        state_.record_progress(key, h.samples(), h.micro_batches(), h.flops(), clock_.unix_ms());
  } catch (const std::exception& e) {
    spdlog::error("cannot record {}'s progress: {}", net::short_key(key), e.what());
  }
  record_receipts(key, h);
  if (h.peer_links_size() > 0) record_peer_links(key, v, h);
}

// The node's receipts credit the volunteers whose work it consumed (members only; a banned
// key earns nothing). What a volunteer claims for itself is kept beside, never credited
// beyond what its consumers confirm.
void Membership::record_receipts(const std::string& consumer, const wire::pb::Heartbeat& h) {
  std::vector<ReceiptReport> receipts;
  for (const auto& r : h.receipts()) {
    if (receipts.size() >= kMaxReceiptsPerHeartbeat) break;
    if (r.key() == consumer || live_.find(r.key()) == live_.end()) continue;
    receipts.push_back({r.key(), r.forward_samples(), r.backward_samples()});
  }
  if (receipts.empty()) return;
  try {
    for (auto& [producer, totals] : state_.record_receipts(consumer, receipts, clock_.unix_ms())) {
      if (const auto it = live_.find(producer); it != live_.end()) it->second.totals = totals;
    }
  } catch (const std::exception& e) {
    spdlog::error("cannot record {}'s receipts: {}", net::short_key(consumer), e.what());
  }
}

// The links a volunteer measured to the peers its join named: its profile's bandwidth and
// round trip become the worse of its link to the coordinator and the peers' median (what a
// node reports of its peers cannot make it look better than the coordinator measured it).
void Membership::record_peer_links(const std::string& key, Volunteer& v,
                                   const wire::pb::Heartbeat& h) {
  std::vector<double> up, down, rtt;
  for (const auto& link : h.peer_links()) {
    if (up.size() >= 2 * kProbeTargets) break;
    const bool plausible = link.key() != key && members_.count(link.key()) &&
                           link.upload_bytes_per_s() > 0 && link.upload_bytes_per_s() < 1e12 &&
                           link.download_bytes_per_s() > 0 && link.download_bytes_per_s() < 1e12 &&
                           link.rtt_s() >= 0 && link.rtt_s() < 60;
    if (!plausible) continue;
    up.push_back(link.upload_bytes_per_s());
    down.push_back(link.download_bytes_per_s());
    rtt.push_back(link.rtt_s());
  }
  if (up.empty()) return;
  const auto median = [](std::vector<double> x) {
    std::nth_element(x.begin(), x.begin() + static_cast<long>(x.size() / 2), x.end());
    return x[x.size() / 2];
  };
  auto& p = v.member.profile;
  const auto& joined = v.measured_at_join;
  const double peer_up = median(up), peer_down = median(down), peer_rtt = median(rtt);
  const double new_up = std::min(joined.upload_bytes_per_s, peer_up);
  const double new_down = std::min(joined.download_bytes_per_s, peer_down);
  const double new_rtt = std::max(joined.rtt_s, peer_rtt);
  spdlog::info(
      "volunteer {} measured its links to {} peer(s): median {:.0f}/{:.0f} MB/s up/down, rtt "
      "{:.2f} ms "
      "(to the coordinator {:.0f}/{:.0f} MB/s, {:.2f} ms)",
      net::short_key(key), up.size(), peer_up / 1e6, peer_down / 1e6, peer_rtt * 1e3,
      joined.upload_bytes_per_s / 1e6, joined.download_bytes_per_s / 1e6, joined.rtt_s * 1e3);
  v.peers_measured = static_cast<std::uint32_t>(up.size());
  const auto moved = [](double a, double b) { return std::abs(a - b) > 0.25 * std::max(a, b); };
  const bool changed = moved(new_up, p.upload_bytes_per_s) ||
                       moved(new_down, p.download_bytes_per_s) || moved(new_rtt, p.rtt_s);
  p.upload_bytes_per_s = new_up;
  p.download_bytes_per_s = new_down;
  p.rtt_s = new_rtt;
  if (!changed) return;
  try {
    state_.save_member(v.member, clock_.unix_ms());
  } catch (const std::exception& e) {
    spdlog::error("cannot record {}'s profile: {}", net::short_key(key), e.what());
  }
}

void Membership::members_changed() {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the sorted keys
  for (const auto& k : members_) {
    for (const unsigned char c : k) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0xffu) * 1099511628211ull;
  }
  digest_ = h == 0 ? 1 : h;
}

void Membership::remove_member(const std::string& key) {
  if (members_.erase(key) == 0) return;
  members_changed();
  try {
    state_.remove_member(key);
  } catch (const std::exception& e) {
    spdlog::error("cannot remove {} from the members: {}", net::short_key(key), e.what());
  }
}

}  // namespace rookery::coordinator
