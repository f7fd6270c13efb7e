// Dataset delivery end to end: a rookery-coordinator publishes a 12 MB text dataset and serves
// it at 2 MB/s (its owner's cap); two volunteers fetch it, one of which (`--fault corrupt-data`)
// then serves peers corrupt chunks. A third volunteer joins: it fetches from the coordinator
// and both peers, finds the liar by the hash, drops it, completes its copy byte for byte with
// the honest peer's help (faster than the capped coordinator alone could), and is planned.
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <random>
#include <regex>

#include "job/job_spec.hpp"
#include "net/identity.hpp"
#include "rookery/envelope.pb.h"
#include "support/coordinator_rpc.hpp"
#include "support/demo_job.hpp"
#include "support/processes.hpp"
#include "support/swarm_test.hpp"

using namespace rookery;
using namespace rookery::testing;
namespace pb = wire::pb;

namespace {

constexpr std::size_t kDatasetBytes = 12 << 20;  // 12 chunks of 1 MiB
constexpr double kCoordinatorMBs = 2.0;

// English-like bytes for the byte-level GPT: words from a small vocabulary, seeded.
QByteArray generated_text(std::size_t bytes) {
  static const char* words[] = {"the",        "swarm", "trains",  "a",         "model", "together",
                                "volunteers", "share", "their",   "pipelines", "and",   "rings",
                                "of",         "peers", "average", "gradients"};
  std::mt19937 rng(11);
  QByteArray out;
  out.reserve(static_cast<qsizetype>(bytes + 16));
  while (static_cast<std::size_t>(out.size()) < bytes) {
    out += words[rng() % 16];
    out += (rng() % 9 == 0) ? ".\n" : " ";
  }
  out.truncate(static_cast<qsizetype>(bytes));
  return out;
}

}  // namespace

class TestDatasetSwarm : public SwarmTest {
  Q_OBJECT

  QByteArray text_;

  // Whether volunteer i holds a seat in the coordinator's current plan.
  bool seated(const pb::RunStatus& s, int i) const {
    for (const auto& n : s.nodes()) {
      if (n.key() == volunteers_.keys[std::size_t(i)].toStdString()) return n.pipeline() >= 0;
    }
    return false;
  }

  bool wait_seated(std::vector<int> who, int timeout_ms) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeout_ms) {
      if (const auto s = status()) {
        if (std::all_of(who.begin(), who.end(), [&](int i) { return seated(*s, i); })) return true;
      }
      QTest::qWait(200);
    }
    return false;
  }

  QByteArray copy_of(int i) const {
    const auto job =
        job::load_job_spec((volunteers_.dir(i) + "/jobs/data-swarm.json").toStdString());
    QFile f(QString::fromStdString(job.dataset.path.string()));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
  }

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    text_ = generated_text(kDatasetBytes);
    {
      QFile f(dir_.filePath("corpus.txt"));
      QVERIFY(f.open(QIODevice::WriteOnly));
      QCOMPARE(f.write(text_), text_.size());
    }
    const auto corpus = dir_.filePath("corpus.txt").toStdString();
    QVERIFY(write_demo_job(dir_.filePath("job.json"), "data-swarm", [&](job::JobSpec& j) {
      j.dataset.path = corpus;
      j.dataset.format = job::TextFormat::plain;  // the demo's is fortune cookies
      j.micro_batch_size = 8;
    }));
    QVERIFY(
        start_swarm(dir_.filePath("volunteers"),
                    {"--job", dir_.filePath("job.json"), "--heartbeat-ms", "200", "--dead-after-ms",
                     "3000", "--data-rate-mb", QString::number(kCoordinatorMBs)}));
  }

  void twoVolunteersFetchTheDataAndArePlanned() {
    QVERIFY(volunteers_.add("data-swarm"));
    QVERIFY(volunteers_.add("data-swarm", {"--fault", "corrupt-data"}));
    QVERIFY2(wait_seated({0, 1}, 60000), "the first two volunteers were not planned within 60 s");
    QCOMPARE(copy_of(0), text_);
    QCOMPARE(copy_of(1), text_);
  }

  void aNewcomerDropsTheLyingPeerAndCompletesFromTheHonestOne() {
    QElapsedTimer t;
    t.start();
    QVERIFY(volunteers_.add("data-swarm"));
    QVERIFY2(wait_seated({2}, 60000), "the newcomer was not planned within 60 s");
    qInfo("the newcomer was planned %.1f s after it started", double(t.elapsed()) / 1000);
    QCOMPARE(copy_of(2), text_);
    const std::string out = volunteers_.output[2].toStdString();
    // The liar was caught by the hash and named.
    const auto liar = volunteers_.keys[1].left(8).toStdString();
    QVERIFY2(out.find("peer " + liar + " served a chunk whose SHA-256 is not the manifest's") !=
                 std::string::npos,
             out.c_str());
    // Where the chunks came from: the honest peer served some, the capped coordinator not all.
    std::smatch m;
    QVERIFY2(std::regex_search(out, m,
                               std::regex("the job's dataset is complete: ([0-9.]+) MB in "
                                          "([0-9.]+) s; chunks from ([^\n]*)")),
             out.c_str());
    const std::string from = m[3];
    qInfo("newcomer: %s MB in %s s; chunks from %s", m[1].str().c_str(), m[2].str().c_str(),
          from.c_str());
    const auto honest = volunteers_.keys[0].left(8).toStdString();
    QVERIFY2(from.find("peer " + honest + ": ") != std::string::npos, from.c_str());
    QVERIFY2(from.find("peer " + liar + ": ") == std::string::npos, from.c_str());
    std::smatch c;
    if (std::regex_search(from, c, std::regex("the coordinator: ([0-9]+)")))
      QVERIFY(std::stoi(c[1]) < 12);
  }
};

QTEST_MAIN(TestDatasetSwarm)
#include "test_dataset_swarm.moc"
