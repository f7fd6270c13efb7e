#include "dashboard/dashboard_json.hpp"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

namespace rookery::dashboard {

namespace {

using nlohmann::json;
namespace pb = wire::pb;

// 32 bits: two volunteers among thousands share a name once in a few thousand runs, and the
// name stays short enough to read.
constexpr std::size_t kPseudonymBytes = 4;

// "REACH_ROUTER_MAPPING" -> "router_mapping": how a volunteer is reached, never where.
std::string reach_name(pb::ReachWay way) {
  std::string name = pb::ReachWay_Name(way);
  if (name.empty()) return "unknown";
  if (name.starts_with("REACH_")) name.erase(0, 6);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name;
}

// "CHECK_COMPOSED" -> "composed": how spot-checks reach a seat's work.
std::string check_name(pb::CheckCoverage check) {
  switch (check) {
    case pb::CHECK_EXACT:
      return "exact";
    case pb::CHECK_COMPOSED:
      return "composed";
    case pb::CHECK_NONE:
      return "none";
    default:
      return "unknown";
  }
}

// The kind of device, not which one: "cuda:1" says no more than "cuda" here.
std::string device_kind(const std::string& device) {
  if (device.starts_with("cuda")) return "cuda";
  if (device.starts_with("cpu")) return "cpu";
  return "";
}

json curve(const google::protobuf::RepeatedPtrField<pb::LossPoint>& points) {
  json out = json::array();
  for (const auto& p : points) out.push_back({{"unix_ms", p.unix_ms()}, {"loss", p.loss()}});
  return out;
}

json evaluation(const pb::Evaluation& e) {
  json out = {{"unix_ms", e.unix_ms()},
              {"snapshot", e.snapshot()},
              {"validation_loss", e.validation_loss()},
              {"held_out_samples", e.held_out_samples()}};
  if (e.predictions_size() > 0) {
    out["kind"] = "classes";
    json predictions = json::array();
    for (const auto& p : e.predictions()) {
      predictions.push_back({{"label", p.label()}, {"predicted", p.predicted()}});
    }
    out["predictions"] = std::move(predictions);
    out["accuracy"] = e.accuracy();
  } else if (!e.prompt().empty() || !e.text().empty()) {
    out["kind"] = "text";
    out["prompt"] = e.prompt();
    out["text"] = e.text();
  } else {
    out["kind"] = "loss";
  }
  return out;
}

json archive(const pb::ArchiveStatus& a) {
  json restorations = json::array();
  for (const auto& r : a.restorations()) {
    restorations.push_back({{"unix_ms", r.unix_ms()},
                            {"first_block", r.first_block()},
                            {"last_block", r.last_block()},
                            {"snapshot", r.snapshot()}});
  }
  return {{"latest_snapshot", a.latest_snapshot()},
          {"latest_unix_ms", a.latest_unix_ms()},
          {"latest_plan_version", a.latest_plan_version()},
          {"restorations", std::move(restorations)}};
}

struct Row {
  const pb::RunNode* node;
  std::string name;
};

// Seated volunteers by pipeline and stage, then the unseated (pipeline -1); by name within.
bool seat_order(const Row& a, const Row& b) {
  const auto key = [](const Row& r) {
    const bool seated = r.node->pipeline() >= 0;
    return std::make_tuple(!seated, r.node->pipeline(), r.node->stage(), std::cref(r.name));
  };
  return key(a) < key(b);
}

json volunteer(const Row& r) {
  const auto& n = *r.node;
  return {{"volunteer", r.name},
          {"alive", n.alive()},
          {"pipeline", n.pipeline()},
          {"stage", n.stage()},
          {"first_block", n.first_block()},
          {"last_block", n.last_block()},
          {"device", device_kind(n.profile().device())},
          {"samples_per_s", n.samples_per_s()},
          {"samples", n.samples()},
          {"confirmed_samples", n.confirmed_samples()},
          {"confirmed_credit", n.confirmed_credit()},
          {"reach", reach_name(n.reach())},
          {"check", check_name(n.check())},
          {"check_chains", n.check_chains()}};
}

// Each pipeline as its stages in order, each stage with its blocks and who holds them. A
// pipeline's throughput is its first stage's, as the coordinator counts the swarm's.
json pipelines(const pb::RunStatus& s, const std::vector<Row>& rows) {
  std::map<int, std::map<int, std::vector<const Row*>>> seats;
  for (int p = 0; p < static_cast<int>(s.pipelines()); ++p) seats[p];
  for (const auto& r : rows) {
    if (r.node->pipeline() >= 0) seats[r.node->pipeline()][r.node->stage()].push_back(&r);
  }
  json out = json::array();
  for (const auto& [p, stages] : seats) {
    json stage_list = json::array();
    double rate = 0;
    for (const auto& [stage, holders] : stages) {
      json names = json::array();
      double stage_rate = 0;
      for (const auto* r : holders) {
        names.push_back(r->name);
        stage_rate += r->node->samples_per_s();
      }
      if (stage == 0) rate = stage_rate;
      stage_list.push_back({{"stage", stage},
                            {"first_block", holders.front()->node->first_block()},
                            {"last_block", holders.front()->node->last_block()},
                            {"volunteers", std::move(names)},
                            {"samples_per_s", stage_rate},
                            {"check", check_name(holders.front()->node->check())}});
    }
    out.push_back({{"pipeline", p}, {"samples_per_s", rate}, {"stages", std::move(stage_list)}});
  }
  return out;
}

json leaderboard(std::vector<const Row*> by_credit) {
  std::sort(by_credit.begin(), by_credit.end(), [](const Row* a, const Row* b) {
    if (a->node->confirmed_credit() != b->node->confirmed_credit()) {
      return a->node->confirmed_credit() > b->node->confirmed_credit();
    }
    return a->name < b->name;
  });
  json out = json::array();
  for (std::size_t i = 0; i < by_credit.size() && i < kLeaderboardRows; ++i) {
    const auto& n = *by_credit[i]->node;
    out.push_back({{"rank", i + 1},
                   {"volunteer", by_credit[i]->name},
                   {"confirmed_credit", n.confirmed_credit()},
                   {"confirmed_samples", n.confirmed_samples()},
                   {"samples", n.samples()}});
  }
  return out;
}

// Bans by their evidence's code and numbers; the English beside them is left out, as it may
// quote a key or an address.
json bans(const pb::RunStatus& s, std::string_view salt) {
  std::vector<const pb::BannedNode*> newest_first;
  for (const auto& b : s.banned()) newest_first.push_back(&b);
  std::stable_sort(newest_first.begin(), newest_first.end(),
                   [](const auto* a, const auto* b) { return a->unix_ms() > b->unix_ms(); });
  json by_code = json::object();
  json list = json::array();
  for (const auto* b : newest_first) {
    std::string code = pb::Verdict::Code_Name(b->why().code());
    if (code.empty()) code = "NONE";
    by_code[code] = by_code.value(code, 0) + 1;
    list.push_back({{"volunteer", pseudonym(b->key(), salt)},
                    {"code", code},
                    {"value", b->why().value()},
                    {"limit", b->why().limit()},
                    {"unix_ms", b->unix_ms()}});
  }
  return {
      {"count", s.banned_size()}, {"by_code", std::move(by_code)}, {"volunteers", std::move(list)}};
}

}  // namespace

std::string pseudonym(std::string_view key, std::string_view salt) {
  static const bool ready = sodium_init() >= 0;
  if (!ready) throw std::runtime_error("libsodium cannot start");
  std::array<unsigned char, crypto_generichash_KEYBYTES> derived{};
  const auto* hash_key = reinterpret_cast<const unsigned char*>(salt.data());
  std::size_t hash_key_length = salt.size();
  if (salt.size() < crypto_generichash_KEYBYTES_MIN ||
      salt.size() > crypto_generichash_KEYBYTES_MAX) {
    crypto_generichash(derived.data(), derived.size(),
                       reinterpret_cast<const unsigned char*>(salt.data()), salt.size(), nullptr,
                       0);
    hash_key = derived.data();
    hash_key_length = derived.size();
  }
  std::array<unsigned char, kPseudonymBytes> h{};
  crypto_generichash(h.data(), h.size(), reinterpret_cast<const unsigned char*>(key.data()),
                     key.size(), hash_key, hash_key_length);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string name = "volunteer ";
  for (unsigned char b : h) {
    name += kHex[b >> 4];
    name += kHex[b & 0xf];
  }
  return name;
}

nlohmann::json dashboard_json(const wire::pb::RunStatus& status, std::string_view salt) {
  std::vector<Row> rows;
  rows.reserve(static_cast<std::size_t>(status.nodes_size()));
  for (const auto& n : status.nodes()) rows.push_back({&n, pseudonym(n.key(), salt)});
  std::sort(rows.begin(), rows.end(), seat_order);
  std::vector<const Row*> all;
  json volunteers = json::array();
  for (const auto& r : rows) {
    all.push_back(&r);
    volunteers.push_back(volunteer(r));
  }
  json out = {
      {"job_id", status.job_id()},
      {"plan_version", status.plan_version()},
      {"pipeline_count", status.pipelines()},
      {"replans", status.replans()},
      {"totals",
       {{"volunteers", std::max<std::uint64_t>(status.total_nodes(), rows.size())},
        {"listed", rows.size()},
        {"samples", status.samples()},
        {"samples_per_s", status.samples_per_s()},
        {"banned", status.banned_size()}}},
      {"loss", curve(status.loss())},
      {"validation", curve(status.validation())},
      {"evaluation", status.has_evaluation() ? evaluation(status.evaluation()) : json(nullptr)},
      {"archive", status.has_archive() ? archive(status.archive()) : json(nullptr)},
      {"pipelines", pipelines(status, rows)},
      {"volunteers", std::move(volunteers)},
      {"leaderboard", leaderboard(std::move(all))},
      {"bans", bans(status, salt)},
      {"check_coverage",
       {{"exact", status.check_coverage().exact()},
        {"composed", status.check_coverage().composed()},
        {"unchecked", status.check_coverage().unchecked()},
        {"two_chains", status.check_coverage().two_chains()}}},
  };
  return out;
}

}  // namespace rookery::dashboard
