#pragma once
// A fabricated but realistic run for the dashboard's tests: six volunteers with real-looking
// CURVE keys (40 Z85 characters), in two pipelines (of three stages and of two) and one waiting
// for a seat, reached in several ways (one through a relay that is itself a volunteer); an hour
// of loss with a validation point every five minutes; an evaluation with a prompt and the text
// the model wrote (with markup in it, which the page must show as text); an archive with a
// restoration; and two bans whose English quotes endpoints and addresses. secrets() lists
// everything the dashboard must never show.
#include <QRegularExpression>
#include <QString>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "rookery/coordinator.pb.h"

namespace rookery::testing {

inline constexpr std::int64_t kFixtureStartMs = 1'760'000'000'000;

// A CURVE public key as ZeroMQ writes it: 40 characters of the Z85 alphabet.
inline std::string z85_key(std::uint32_t seed) {
  static constexpr char kZ85[] =
      "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pick(0, 84);
  std::string key;
  for (int i = 0; i < 40; ++i) key += kZ85[pick(rng)];
  return key;
}

struct FixtureNode {
  int pipeline, stage;
  std::int64_t first_block, last_block;
  double samples_per_s, credit;
  const char* device;
  wire::pb::ReachWay reach;
};

inline const std::vector<FixtureNode>& fixture_nodes() {
  // Credits out of order, so a leaderboard in input order is caught.
  static const std::vector<FixtureNode> nodes = {
      {0, 0, 0, 4, 41.5, 12.25, "cuda:0", wire::pb::REACH_DIRECT},
      {0, 1, 4, 8, 40.9, 31.5, "cpu", wire::pb::REACH_RELAYED},
      {0, 2, 8, 12, 41.2, 7.75, "cuda:0", wire::pb::REACH_ROUTER_MAPPING},
      {1, 0, 0, 6, 18.3, 44.0, "cpu", wire::pb::REACH_REVERSED},
      {1, 1, 6, 12, 18.1, 2.5, "cuda:1", wire::pb::REACH_DIRECT},
      {-1, -1, 0, 0, 0, 0.0, "cpu", wire::pb::REACH_UNREACHABLE},
  };
  return nodes;
}

// The run at `start_ms` + one hour. `start_ms` moves it to the present for a screenshot.
inline wire::pb::RunStatus fixture_status(std::int64_t start_ms = kFixtureStartMs) {
  wire::pb::RunStatus s;
  const std::int64_t now = start_ms + 3'600'000;
  s.set_job_id("fortunes-gpt-small");
  s.set_plan_version(7);
  s.set_pipelines(2);
  s.set_replans(3);
  const auto& rows = fixture_nodes();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    auto* n = s.add_nodes();
    n->set_key(z85_key(static_cast<std::uint32_t>(100 + i)));
    n->set_alive(true);
    n->set_pipeline(r.pipeline);
    n->set_stage(r.stage);
    n->set_first_block(r.first_block);
    n->set_last_block(r.last_block);
    n->set_samples_per_s(r.samples_per_s);
    n->set_samples(static_cast<std::int64_t>(r.samples_per_s * 3400));
    n->set_confirmed_samples(static_cast<std::int64_t>(r.samples_per_s * 3300));
    n->set_confirmed_credit(r.credit);
    n->set_flops(r.credit * 432e9);
    n->set_confirmed_flops(r.credit * 432e9);
    n->set_plan_version(7);
    n->set_reach(r.reach);
    // The relay is the first volunteer: its key must not leak through the one it carries.
    if (r.reach == wire::pb::REACH_RELAYED) n->set_relayed_by(z85_key(100));
    n->set_dialled_by_peers(2);
    auto* p = n->mutable_profile();
    p->set_device(r.device);
    p->set_version("0.1.0");
    p->set_flops_per_s(2.1e12);
    p->set_free_memory_bytes(8'000'000'000);
    p->set_rtt_s(0.031);
  }
  s.set_total_nodes(static_cast<std::uint32_t>(s.nodes_size()));
  s.set_samples_per_s(41.5 + 18.3);
  s.set_samples(2'143'650);
  for (int i = 0; i < 120; ++i) {
    auto* p = s.add_loss();
    p->set_unix_ms(start_ms + i * 30'000);
    p->set_loss(2.1 + 3.4 * std::exp(-i / 35.0) + 0.05 * std::sin(i * 1.7));
  }
  for (int i = 1; i <= 12; ++i) {
    auto* p = s.add_validation();
    p->set_unix_ms(start_ms + i * 300'000);
    p->set_loss(2.3 + 3.3 * std::exp(-i * 10 / 35.0));
  }
  auto* e = s.mutable_evaluation();
  e->set_unix_ms(now - 40'000);
  e->set_snapshot(12);
  e->set_validation_loss(2.3143);
  e->set_held_out_samples(512);
  e->set_prompt("Q: What do rooks do all winter?\nA:");
  e->set_text(" They gather in <b>great</b> crowds & argue about the weather until spring.");
  auto* a = s.mutable_archive();
  a->set_latest_snapshot(12);
  a->set_latest_unix_ms(now - 60'000);
  a->set_latest_plan_version(7);
  auto* r = a->add_restorations();
  r->set_unix_ms(now - 1'500'000);
  r->set_first_block(4);
  r->set_last_block(8);
  r->set_snapshot(7);
  auto* b = s.add_banned();
  b->set_key(z85_key(900));
  b->set_reason("tcp://203.0.113.7:4100 (" + z85_key(901) +
                " reporting): 2 of the 3 stages it sends to caught its activations wrong");
  b->set_unix_ms(now - 900'000);
  b->mutable_why()->set_code(wire::pb::Verdict::CAUGHT_IN_SPOT_CHECKS);
  b->mutable_why()->set_value(2);
  b->mutable_why()->set_limit(3);
  b->mutable_why()->set_detail("198.51.100.23");
  b = s.add_banned();
  b->set_key(z85_key(902));
  b->set_reason("3 of its 4 ring partners reject its averages (tcp://[2001:db8::17]:4101)");
  b->set_unix_ms(now - 2'000'000);
  b->mutable_why()->set_code(wire::pb::Verdict::RING_PARTNERS_REJECT);
  b->mutable_why()->set_value(3);
  b->mutable_why()->set_limit(4);
  return s;
}

// Every key the status holds (volunteers', relays', banned ones' and the reporter quoted in a
// ban), and every address or endpoint.
struct Secrets {
  std::vector<std::string> keys;
  std::vector<std::string> addresses;
};

inline Secrets secrets(const wire::pb::RunStatus& s) {
  Secrets out;
  for (const auto& n : s.nodes()) {
    out.keys.push_back(n.key());
    if (!n.relayed_by().empty()) out.keys.push_back(n.relayed_by());
  }
  for (const auto& b : s.banned()) out.keys.push_back(b.key());
  out.keys.push_back(z85_key(901));
  out.addresses = {"203.0.113.7", "198.51.100.23", "2001:db8::17", "tcp://", ":4100", ":4101"};
  return out;
}

// What of `secrets` shows in `text`: a key, or 8 or more consecutive characters of one, or an
// address, or anything shaped like an IPv4 address. Empty: nothing.
inline QString leaked(const std::string& text, const Secrets& secrets) {
  for (const auto& key : secrets.keys) {
    for (std::size_t i = 0; i + 8 <= key.size(); ++i) {
      if (text.find(key.substr(i, 8)) != std::string::npos) {
        return QString("part of key %1: %2")
            .arg(QString::fromStdString(key), QString::fromStdString(key.substr(i, 8)));
      }
    }
  }
  for (const auto& a : secrets.addresses) {
    if (text.find(a) != std::string::npos) return "address " + QString::fromStdString(a);
  }
  static const QRegularExpression ipv4(R"((?<![\d.])\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?![\d.]))");
  const auto m = ipv4.match(QString::fromStdString(text));
  if (m.hasMatch()) return "an IPv4 address: " + m.captured(0);
  return {};
}

}  // namespace rookery::testing
