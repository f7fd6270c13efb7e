// The dashboard's JSON, which anyone who opens the page reads: no key, no part of one, no
// address or endpoint; each volunteer under a pseudonym that stays the same from one answer to
// the next and differs under another coordinator's salt; the leaderboard in credit order; the
// curves, the evaluation (a language model's text, a classifier's predictions), the archive,
// the pipelines and the bans carried.
#include <QRegularExpression>
#include <QTest>

#include <set>
#include <string>
#include <vector>

#include "dashboard/dashboard_json.hpp"
#include "run_fixture.hpp"

using namespace rookery;
using nlohmann::json;

namespace {

const std::string kSalt = "3b9f0c1d2e4a5b6c7d8e9f00112233445566778899aabbcc";

std::string str(const json& j) { return j.get<std::string>(); }

std::set<std::string> names(const json& j) {
  std::set<std::string> out;
  for (const auto& v : j["volunteers"]) out.insert(v["volunteer"].get<std::string>());
  return out;
}

}  // namespace

class TestDashboardJson : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void no_key_or_address() {
    const auto status = testing::fixture_status();
    const auto text = dashboard::dashboard_json(status, kSalt).dump();
    const auto leak = testing::leaked(text, testing::secrets(status));
    QVERIFY2(leak.isEmpty(), qPrintable(leak));
    // The fixture's English does hold them: the check above would see a leak.
    QVERIFY(!testing::leaked(status.banned(0).reason(), testing::secrets(status)).isEmpty());
    QVERIFY(text.find("reporting") == std::string::npos);
  }

  void pseudonyms_stable_and_salted() {
    const auto status = testing::fixture_status();
    const auto a = names(dashboard::dashboard_json(status, kSalt));
    QCOMPARE(a.size(), static_cast<std::size_t>(status.nodes_size()));
    QCOMPARE(names(dashboard::dashboard_json(status, kSalt)), a);
    const auto other = names(dashboard::dashboard_json(status, "another coordinator's salt"));
    QCOMPARE(other.size(), a.size());
    for (const auto& n : other) QVERIFY2(!a.contains(n), n.c_str());
    static const QRegularExpression shape("^volunteer [0-9a-f]{8}$");
    for (const auto& n : a) QVERIFY2(shape.match(QString::fromStdString(n)).hasMatch(), n.c_str());
    // Any length of salt keys it: short ones and long ones are hashed to a key first.
    const auto key = testing::z85_key(1);
    for (const std::string& salt : std::vector<std::string>{
             "", "short", std::string(16, 's'), std::string(64, 's'), std::string(200, 's')}) {
      QCOMPARE(dashboard::pseudonym(key, salt), dashboard::pseudonym(key, salt));
      QVERIFY(dashboard::pseudonym(key, salt) != dashboard::pseudonym(key, salt + "x"));
    }
  }

  void leaderboard_in_credit_order() {
    const auto status = testing::fixture_status();
    const auto j = dashboard::dashboard_json(status, kSalt);
    const auto& board = j["leaderboard"];
    QCOMPARE(board.size(), static_cast<std::size_t>(status.nodes_size()));
    QCOMPARE(board[0]["confirmed_credit"].get<double>(), 44.0);
    for (std::size_t i = 0; i < board.size(); ++i) {
      QCOMPARE(board[i]["rank"].get<int>(), static_cast<int>(i + 1));
      if (i > 0) {
        QVERIFY(board[i - 1]["confirmed_credit"].get<double>() >=
                board[i]["confirmed_credit"].get<double>());
      }
    }
    // The credits the volunteers' rows carry, under the same names.
    for (const auto& row : board) {
      bool found = false;
      for (const auto& v : j["volunteers"]) {
        if (v["volunteer"] == row["volunteer"]) {
          QVERIFY(v["confirmed_credit"] == row["confirmed_credit"]);
          found = true;
        }
      }
      QVERIFY(found);
    }
    // A crowd: the board holds the first kLeaderboardRows, the volunteers' table everyone.
    wire::pb::RunStatus crowd;
    for (int i = 0; i < 50; ++i) {
      auto* n = crowd.add_nodes();
      n->set_key(testing::z85_key(static_cast<std::uint32_t>(5000 + i)));
      n->set_pipeline(-1);
      n->set_confirmed_credit((i * 37) % 50);
    }
    const auto c = dashboard::dashboard_json(crowd, kSalt);
    QCOMPARE(c["leaderboard"].size(), dashboard::kLeaderboardRows);
    QCOMPARE(c["leaderboard"][0]["confirmed_credit"].get<double>(), 49.0);
    QCOMPARE(c["leaderboard"][dashboard::kLeaderboardRows - 1]["confirmed_credit"].get<double>(),
             30.0);
    QCOMPARE(c["volunteers"].size(), std::size_t{50});
  }

  void curves_evaluation_and_archive_carried() {
    const auto status = testing::fixture_status();
    const auto j = dashboard::dashboard_json(status, kSalt);
    QCOMPARE(str(j["job_id"]), "fortunes-gpt-small");
    QCOMPARE(j["plan_version"].get<int>(), 7);
    QCOMPARE(j["pipeline_count"].get<int>(), 2);
    QCOMPARE(j["replans"].get<int>(), 3);
    QCOMPARE(j["totals"]["volunteers"].get<int>(), status.nodes_size());
    QCOMPARE(j["totals"]["samples"].get<std::int64_t>(), status.samples());
    QCOMPARE(j["totals"]["samples_per_s"].get<double>(), status.samples_per_s());
    QCOMPARE(j["totals"]["banned"].get<int>(), 2);
    QCOMPARE(j["loss"].size(), std::size_t{120});
    QCOMPARE(j["validation"].size(), std::size_t{12});
    for (int i = 0; i < status.loss_size(); ++i) {
      QCOMPARE(j["loss"][i]["unix_ms"].get<std::int64_t>(), status.loss(i).unix_ms());
      QCOMPARE(j["loss"][i]["loss"].get<double>(), status.loss(i).loss());
    }
    QCOMPARE(j["validation"][11]["loss"].get<double>(), status.validation(11).loss());
    const auto& e = j["evaluation"];
    QCOMPARE(str(e["kind"]), "text");
    QCOMPARE(str(e["prompt"]), status.evaluation().prompt());
    QCOMPARE(str(e["text"]), status.evaluation().text());
    QCOMPARE(e["validation_loss"].get<double>(), 2.3143);
    QCOMPARE(e["snapshot"].get<int>(), 12);
    QCOMPARE(e["held_out_samples"].get<int>(), 512);
    const auto& a = j["archive"];
    QCOMPARE(a["latest_snapshot"].get<int>(), 12);
    QCOMPARE(a["latest_plan_version"].get<int>(), 7);
    QCOMPARE(a["restorations"].size(), std::size_t{1});
    QCOMPARE(a["restorations"][0]["first_block"].get<int>(), 4);
    QCOMPARE(a["restorations"][0]["last_block"].get<int>(), 8);
    QCOMPARE(a["restorations"][0]["snapshot"].get<int>(), 7);

    // A classifier's evaluation: its predictions and accuracy, no text.
    auto classifier = status;
    auto* ev = classifier.mutable_evaluation();
    ev->clear_prompt();
    ev->clear_text();
    for (int i = 0; i < 4; ++i) {
      auto* p = ev->add_predictions();
      p->set_label(i);
      p->set_predicted(i == 2 ? 7 : i);
    }
    ev->set_accuracy(0.875);
    const auto c = dashboard::dashboard_json(classifier, kSalt)["evaluation"];
    QCOMPARE(str(c["kind"]), "classes");
    QCOMPARE(c["accuracy"].get<double>(), 0.875);
    QCOMPARE(c["predictions"].size(), std::size_t{4});
    QCOMPARE(c["predictions"][2]["predicted"].get<int>(), 7);
    QVERIFY(!c.contains("text"));

    // Before the first evaluation, and without an archive: null, not zeros.
    wire::pb::RunStatus bare;
    const auto b = dashboard::dashboard_json(bare, kSalt);
    QVERIFY(b["evaluation"].is_null());
    QVERIFY(b["archive"].is_null());
    QCOMPARE(b["pipelines"].size(), std::size_t{0});
  }

  void pipelines_volunteers_and_bans() {
    const auto status = testing::fixture_status();
    const auto j = dashboard::dashboard_json(status, kSalt);
    const auto& pipelines = j["pipelines"];
    QCOMPARE(pipelines.size(), std::size_t{2});
    QCOMPARE(pipelines[0]["stages"].size(), std::size_t{3});
    QCOMPARE(pipelines[1]["stages"].size(), std::size_t{2});
    // A pipeline's throughput is its first stage's.
    QCOMPARE(pipelines[0]["samples_per_s"].get<double>(), 41.5);
    QCOMPARE(pipelines[1]["samples_per_s"].get<double>(), 18.3);
    std::int64_t next = 0;
    for (const auto& stage : pipelines[0]["stages"]) {
      QCOMPARE(stage["first_block"].get<std::int64_t>(), next);
      next = stage["last_block"].get<std::int64_t>();
      QCOMPARE(stage["volunteers"].size(), std::size_t{1});
    }
    QCOMPARE(next, std::int64_t{12});
    QCOMPARE(str(pipelines[0]["stages"][1]["volunteers"][0]),
             dashboard::pseudonym(status.nodes(1).key(), kSalt));

    // Seated volunteers first, by pipeline and stage; the one without a seat last.
    const auto& v = j["volunteers"];
    QCOMPARE(v[0]["pipeline"].get<int>(), 0);
    QCOMPARE(v[0]["stage"].get<int>(), 0);
    QCOMPARE(v[v.size() - 1]["pipeline"].get<int>(), -1);
    std::set<std::string> devices, reaches;
    for (const auto& row : v) {
      devices.insert(row["device"].get<std::string>());
      reaches.insert(row["reach"].get<std::string>());
    }
    QCOMPARE(devices, (std::set<std::string>{"cpu", "cuda"}));
    QCOMPARE(reaches, (std::set<std::string>{"direct", "relayed", "router_mapping", "reversed",
                                             "unreachable"}));

    // How spot-checks reach each seat, and the plan's sum of it.
    auto with_checks = status;
    with_checks.mutable_nodes(0)->set_check(wire::pb::CHECK_COMPOSED);
    with_checks.mutable_nodes(0)->set_check_chains(2);
    with_checks.mutable_check_coverage()->set_composed(1);
    with_checks.mutable_check_coverage()->set_unchecked(3);
    const auto c = dashboard::dashboard_json(with_checks, kSalt);
    QCOMPARE(str(c["volunteers"][0]["check"]), "composed");
    QCOMPARE(c["volunteers"][0]["check_chains"].get<int>(), 2);
    QCOMPARE(str(c["pipelines"][0]["stages"][0]["check"]), "composed");
    QCOMPARE(str(c["volunteers"][1]["check"]), "unknown");
    QCOMPARE(c["check_coverage"]["composed"].get<int>(), 1);
    QCOMPARE(c["check_coverage"]["unchecked"].get<int>(), 3);

    const auto& bans = j["bans"];
    QCOMPARE(bans["count"].get<int>(), 2);
    QCOMPARE(bans["by_code"]["CAUGHT_IN_SPOT_CHECKS"].get<int>(), 1);
    QCOMPARE(bans["by_code"]["RING_PARTNERS_REJECT"].get<int>(), 1);
    QCOMPARE(str(bans["volunteers"][0]["code"]), "CAUGHT_IN_SPOT_CHECKS");  // the newest first
    QCOMPARE(bans["volunteers"][0]["value"].get<int>(), 2);
    QCOMPARE(bans["volunteers"][0]["limit"].get<int>(), 3);
    QCOMPARE(str(bans["volunteers"][0]["volunteer"]),
             dashboard::pseudonym(status.banned(0).key(), kSalt));
  }
};

QTEST_GUILESS_MAIN(TestDashboardJson)
#include "test_dashboard_json.moc"
