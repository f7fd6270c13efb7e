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
// Publications misses_removal() remembers: a node more than this many behind gets the list.
constexpr std::size_t kRememberedPublications = 256;
// Draws probe_targets() makes among the live volunteers before it scans them all (when most
// cannot be dialled).
constexpr std::size_t kProbeDraws = 16 * kProbeTargets;
// Changes of the live volunteers changed_since() remembers.
constexpr std::size_t kLoggedChanges = 4096;

// A member's share of the list's digest: FNV-1a over the coordinator's salt and the key, mixed
// by splitmix64's finaliser.
std::uint64_t member_hash(std::uint64_t salt, const std::string& key) {
  std::uint64_t h = 1469598103934665603ull ^ salt;
  for (const unsigned char c : key) h = (h ^ c) * 1099511628211ull;
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

}  // namespace

Membership::Membership(CoordinatorState& state, std::chrono::milliseconds dead_after,
                       const clock::Clock& clock, std::chrono::milliseconds publish_every)
    : state_(state), dead_after_(dead_after), clock_(clock), publish_every_(publish_every) {
  digest_salt_ = random_();
  members_changed({});
  publish();
}

void Membership::resume(const Assignment& plan) {
  const auto now = clock_.steady_now();
  for (auto& m : state_.members()) {
    if (plan.find(m.key).first < 0) continue;
    Volunteer v;
    v.member = m;
    v.last_seen = now;
    v.plan_version = plan.version;
    v.has_data = true;  // it was seated, so it held the data
    if (live_.insert_or_assign(m.key, std::move(v)).second) came_alive(m.key);
  }
  ++generation_;  // everyone: no log of changes reaches back past it
  changes_.clear();
  banned_ = state_.banned();
  for (const auto& m : state_.members()) {
    if (banned_.find(m.key) == banned_.end() && members_.insert(m.key).second) {
      members_changed(m.key);
    }
  }
  publish();
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
  if (members_.insert(m.key).second) {
    members_changed(m.key);
    unpublished_ = true;
    publish_due();
  }
  note_change(m.key);
  const auto [slot, fresh] = live_.try_emplace(m.key);
  if (fresh) came_alive(m.key);
  auto& v = slot->second;
  const bool same_seat = v.member.key == m.key && v.member.stage_endpoint == m.stage_endpoint &&
                         v.member.reduce_endpoint == m.reduce_endpoint &&
                         v.member.shard_endpoint == m.shard_endpoint;
  if (!same_seat) v.dialled_by.clear();  // what peers found at its old endpoints
  v.member = m;
  v.measured_at_join = m.profile;
  v.peers_measured = 0;
  v.last_seen = clock_.steady_now();
  v.plan_version = plan_version;
  v.has_data = has_data;
  return same_seat;
}

void Membership::set_address(const std::string& key, const std::string& address) {
  auto* v = find(key);
  if (!v) return;
  v->address = address;
  origins_.set(key, address);
}

std::vector<const Member*> Membership::probe_targets(const std::string& key) {
  // One that no peer can dial (it dials out, or waits for a relay) has nothing to probe.
  const auto probeable = [&key](const std::string& k, const Volunteer& v) {
    return k != key && v.reach != wire::pb::REACH_REVERSED &&
           v.reach != wire::pb::REACH_UNREACHABLE && !v.member.shard_endpoint.empty();
  };
  std::vector<const Member*> picked;
  if (live_keys_.size() > kProbeDraws) {
    // Draws by index: O(1) each, when most can be dialled (else the scan below).
    std::uniform_int_distribution<std::size_t> any(0, live_keys_.size() - 1);
    for (std::size_t draw = 0; draw < kProbeDraws && picked.size() < kProbeTargets; ++draw) {
      const auto& k = live_keys_[any(random_)];
      const auto& v = live_.at(k);
      if (probeable(k, v) && std::find(picked.begin(), picked.end(), &v.member) == picked.end()) {
        picked.push_back(&v.member);
      }
    }
    if (picked.size() == kProbeTargets) return picked;
    picked.clear();
  }
  std::vector<const Member*> others;
  for (const auto& [k, v] : live_) {
    if (probeable(k, v)) others.push_back(&v.member);
  }
  std::sample(others.begin(), others.end(), std::back_inserter(picked), kProbeTargets, random_);
  return picked;
}

void Membership::note_change(const std::string& key) {
  ++generation_;
  changes_.emplace_back(generation_, key);
  if (changes_.size() > kLoggedChanges) changes_.pop_front();
}

std::optional<std::vector<std::string>> Membership::changed_since(std::uint64_t generation) const {
  if (generation == generation_) return std::vector<std::string>{};
  if (changes_.empty() || changes_.front().first > generation + 1) return std::nullopt;
  std::vector<std::string> keys;
  for (auto it = changes_.rbegin(); it != changes_.rend() && it->first > generation; ++it) {
    keys.push_back(it->second);
  }
  return keys;
}

void Membership::came_alive(const std::string& key) {
  live_slot_[key] = live_keys_.size();
  live_keys_.push_back(key);
}

void Membership::went(const std::string& key, const Volunteer& v) {
  if (const auto slot = live_slot_.find(key); slot != live_slot_.end()) {
    const std::size_t i = slot->second;
    live_slot_.erase(slot);
    if (i + 1 != live_keys_.size()) {
      live_keys_[i] = std::move(live_keys_.back());
      live_slot_[live_keys_[i]] = i;
    }
    live_keys_.pop_back();
  }
  index_reports(key, v.accuses, {}, excluded_by_);
  index_reports(key, v.caught, {}, caught_by_);
  origins_.erase(key);
}

void Membership::index_reports(const std::string& reporter, const std::set<std::string>& before,
                               const std::set<std::string>& now,
                               std::map<std::string, std::set<std::string>>& index) {
  for (const auto& accused : before) {
    if (now.count(accused)) continue;
    const auto it = index.find(accused);
    if (it == index.end()) continue;
    it->second.erase(reporter);
    if (it->second.empty()) index.erase(it);
  }
  for (const auto& accused : now) {
    if (!before.count(accused)) index[accused].insert(reporter);
  }
}

bool Membership::leave(const std::string& key) {
  const auto it = live_.find(key);
  if (it == live_.end()) return false;
  went(key, it->second);
  live_.erase(it);
  note_change(key);
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
  if (const auto it = live_.find(key); it != live_.end()) {
    went(key, it->second);
    live_.erase(it);
    note_change(key);
  }
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
      went(it->first, it->second);
      it = live_.erase(it);
      note_change(gone.back());
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
  if (!v.accuses.empty() || h.excluded_peers_size() > 0) {
    std::set<std::string> accuses;
    for (const auto& k : h.excluded_peers()) {
      if (k != key && accuses.size() < kMaxNamedPeers) accuses.insert(k);
    }
    index_reports(key, v.accuses, accuses, excluded_by_);
    v.accuses = std::move(accuses);
  }
  if (!v.caught.empty() || h.failed_spot_checks_size() > 0) {
    std::set<std::string> caught;
    for (const auto& k : h.failed_spot_checks()) {
      if (k != key && caught.size() < kMaxNamedPeers) caught.insert(k);
    }
    index_reports(key, v.caught, caught, caught_by_);
    v.caught = std::move(caught);
  }
  heard.named = v.accuses;
  heard.named.insert(v.caught.begin(), v.caught.end());
  return heard;
}

BanReports Membership::reports_on(const std::string& accused) const {
  BanReports reports;
  if (const auto it = excluded_by_.find(accused); it != excluded_by_.end()) {
    reports.excluded_by = it->second;
  }
  if (const auto it = caught_by_.find(accused); it != caught_by_.end()) {
    reports.caught_by = it->second;
  }
  return reports;
}

bool Membership::record_work(const std::string& key, Volunteer& v, const wire::pb::Heartbeat& h) {
  progress_.push_back({key, h.samples(), h.micro_batches(), h.flops()});
  queue_receipts(key, h);
  if (h.peer_links_size() == 0) return false;
  record_peer_links(key, v, h);
  return record_dial_backs(key, h);
}

// Peers dial each other back, not only the coordinator: each probe a volunteer made (or got no
// answer to) at the endpoint its target is planned at. A target the coordinator reached but
// that two peers or more found silent, and none reached (the coordinator shares its LAN, say),
// cannot host its neighbours' connection reversal: it is planned without its service.
bool Membership::record_dial_backs(const std::string& prober, const wire::pb::Heartbeat& h) {
  constexpr std::size_t kMaxDialBacks = 32;  // probers remembered per volunteer
  bool changed = false;
  for (const auto& link : h.peer_links()) {
    const auto it = live_.find(link.key());
    if (link.key() == prober || it == live_.end()) continue;
    auto& target = it->second;
    if (link.endpoint().empty() || link.endpoint() != target.member.shard_endpoint) continue;
    if (target.dialled_by.size() >= kMaxDialBacks && target.dialled_by.count(prober) == 0) continue;
    target.dialled_by[prober] = !link.unanswered();
    const auto answered =
        static_cast<std::size_t>(std::count_if(target.dialled_by.begin(), target.dialled_by.end(),
                                               [](const auto& d) { return d.second; }));
    const std::size_t silent = target.dialled_by.size() - answered;
    if (silent >= 2 && answered == 0 && target.member.reversal_control_port != 0) {
      spdlog::warn(
          "volunteer {} answers the coordinator at {}, but {} peer(s) found nothing there: "
          "planned without its reversal service",
          net::short_key(link.key()), target.member.shard_endpoint, silent);
      target.member.reversal_control_port = target.member.reversal_data_port = 0;
      changed = true;
    }
  }
  return changed;
}

void Membership::flush_work() {
  auto work = take_work();
  apply_work(write_work(work));
}

Membership::Work Membership::take_work() {
  Work work;
  work.progress.swap(progress_);
  work.receipts.swap(receipts_);
  // A producer banned since its receipt was queued earns nothing from it.
  for (auto& [consumer, receipts] : work.receipts) {
    std::erase_if(receipts, [this](const ReceiptReport& r) { return banned_.count(r.producer); });
  }
  return work;
}

std::map<std::string, Contribution> Membership::write_work(const Work& work) const {
  auto& state = state_;
  const auto now = clock_.unix_ms();
  std::map<std::string, Contribution> totals;
  if (!work.progress.empty()) {
    try {
      totals = state.record_progress(work.progress, now);
    } catch (const std::exception& e) {
      spdlog::error("cannot record the progress of {} heartbeat(s): {}", work.progress.size(),
                    e.what());
    }
  }
  if (!work.receipts.empty()) {
    try {
      for (auto& [k, c] : state.record_receipts(work.receipts, now)) totals[k] = c;
    } catch (const std::exception& e) {
      spdlog::error("cannot record the receipts of {} heartbeat(s): {}", work.receipts.size(),
                    e.what());
    }
  }
  return totals;
}

void Membership::apply_work(const std::map<std::string, Contribution>& totals) {
  for (const auto& [k, c] : totals) {
    if (const auto it = live_.find(k); it != live_.end()) it->second.totals = c;
  }
}

// The node's receipts credit the volunteers whose work it consumed (members only; a banned
// key earns nothing). What a volunteer claims for itself is kept beside, never credited
// beyond what its consumers confirm.
void Membership::queue_receipts(const std::string& consumer, const wire::pb::Heartbeat& h) {
  std::vector<ReceiptReport> receipts;
  for (const auto& r : h.receipts()) {
    if (receipts.size() >= kMaxReceiptsPerHeartbeat) break;
    if (r.key() == consumer || live_.find(r.key()) == live_.end()) continue;
    receipts.push_back({r.key(), r.forward_samples(), r.backward_samples()});
  }
  if (!receipts.empty()) receipts_.emplace_back(consumer, std::move(receipts));
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

void Membership::members_changed(const std::string& key) {
  if (!key.empty()) {
    const auto h = member_hash(digest_salt_, key);
    digest_sum_ = members_.count(key) ? digest_sum_ + h : digest_sum_ - h;
  }
  digest_ = digest_sum_ == 0 ? 1 : digest_sum_;
}

void Membership::publish() {
  published_ = members_;
  published_digest_ = digest_;
  log_.publish(published_, published_digest_);
  unpublished_ = false;
  published_at_ = clock_.steady_now();
  publications_.emplace_back(digest_, removals_);
  if (publications_.size() > kRememberedPublications) publications_.pop_front();
}

bool Membership::misses_removal(std::uint64_t digest) const {
  for (const auto& [d, removals] : publications_) {
    if (d == digest) return removals != removals_;
  }
  return true;
}

void Membership::publish_due() {
  if (unpublished_ && clock_.steady_now() - published_at_ >= publish_every_) publish();
}

void Membership::remove_member(const std::string& key) {
  if (members_.erase(key) == 0) return;
  ++removals_;
  members_changed(key);
  publish();  // with any newcomers still waiting: they are members too
  try {
    state_.remove_member(key);
  } catch (const std::exception& e) {
    spdlog::error("cannot remove {} from the members: {}", net::short_key(key), e.what());
  }
}

}  // namespace rookery::coordinator
