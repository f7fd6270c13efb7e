// The governor in a real rookery-node: preferences over the control API (bad values refused,
// nothing lost) that survive a restart with the snooze; a damaged state file refused and
// kept; a pause request and "user active" stop compute at the next unit boundary; the
// CPU-time cap, the thread cap and the upload cap take effect on a running job.
#include <QTest>

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <sstream>

#include "governor/governor_harness.hpp"
#include "support/pipeline_harness.hpp"
#include "support/processes.hpp"

using namespace rookery;
using namespace std::chrono_literals;
namespace pb = rookery::wire::pb;

class TestGovernorNode : public QObject {
  Q_OBJECT

  static control::ControlEndpoints endpoints(const testing::NodeProcess& n) {
    return control::ControlEndpoints::in(n.runtime_dir().toStdString());
  }
  static bool ready(control::ControlClient& c) {
    return testing::wait_until(
        [&] {
          auto a = c.status(1s);
          return a.ok && a.snapshot.state() != pb::STARTING;
        },
        30000);
  }
  static std::uint64_t units(control::ControlClient& c) {
    return c.status().snapshot.work().work_units();
  }

 private Q_SLOTS:
  void preferencesRoundTripAndSurviveARestart() {
    testing::NodeProcess node;
    QVERIFY(node.start());
    control::ControlClient client(endpoints(node));
    QVERIFY(ready(client));
    auto prefs = testing::get_preferences(client);
    QCOMPARE(prefs.at("in_use.cpu_time_percent"), std::string("100"));
    QCOMPARE(prefs.at("idle.use_gpu"), std::string("true"));
    QVERIFY(prefs.size() >= 19);

    // One bad value: the whole change is refused with the reason, nothing changes.
    pb::ControlReply reply;
    auto a = testing::set_preferences(
        client, {{"in_use.cpu_time_percent", "40"}, {"idle.cpu_cores_percent", "250"}}, &reply);
    QVERIFY(!a.ok);
    QVERIFY2(a.error.find("idle.cpu_cores_percent: 250 is outside 1-100") != std::string::npos,
             a.error.c_str());
    QCOMPARE(testing::get_preferences(client).at("in_use.cpu_time_percent"), std::string("100"));
    a = testing::set_preferences(client, {{"no.such.setting", "1"}});
    QVERIFY(!a.ok);
    QVERIFY2(a.error.find("unknown setting") != std::string::npos, a.error.c_str());

    a = testing::set_preferences(client, {{"in_use.cpu_time_percent", "40"},
                                          {"schedule", "mon-sun 00:00-24:00"},
                                          {"exclusive_programs", "blender"}});
    QVERIFY2(a.ok, a.error.c_str());
    a = testing::snooze(client, 3600);
    QVERIFY(a.ok);
    QCOMPARE(a.snapshot.governor().decision(), pb::GovernorSnapshot::PAUSED);
    QVERIFY2(a.snapshot.governor().reason().rfind("snoozed until ", 0) == 0,
             a.snapshot.governor().reason().c_str());
    QVERIFY(a.snapshot.governor().sensors_size() >= 6);

    QVERIFY(client.request(pb::ControlRequest::QUIT).ok);
    QVERIFY(node.process.waitForFinished(10000));
    QCOMPARE(node.process.exitCode(), 0);

    // The same data folder, a new process: settings and snooze are back.
    QVERIFY(node.start());
    QVERIFY(ready(client));
    prefs = testing::get_preferences(client);
    QCOMPARE(prefs.at("in_use.cpu_time_percent"), std::string("40"));
    QCOMPARE(prefs.at("schedule"), std::string("mon-sun 00:00-24:00"));
    QCOMPARE(prefs.at("exclusive_programs"), std::string("blender"));
    auto s = client.status().snapshot;
    QVERIFY2(s.governor().reason().rfind("snoozed until ", 0) == 0, s.governor().reason().c_str());
    QVERIFY(testing::snooze(client, 0).ok);  // ending the snooze early
    QVERIFY(client.status().snapshot.governor().decision() != pb::GovernorSnapshot::PAUSED);
    QVERIFY(client.request(pb::ControlRequest::QUIT).ok);
    QVERIFY(node.process.waitForFinished(10000));
  }

  void damagedStateIsRefusedAndKept() {
    testing::NodeProcess node;
    QDir().mkpath(node.data_dir());
    const auto path = node.data_dir().toStdString() + "/state.db";
    {
      std::ofstream out(path, std::ios::binary);
      for (int i = 0; i < 8192; ++i) out.put(static_cast<char>((i * 37 + 11) & 0xff));
    }
    std::ifstream before_in(path, std::ios::binary);
    const std::string before{std::istreambuf_iterator<char>(before_in), {}};
    QVERIFY(node.start());
    QVERIFY(node.process.waitForFinished(20000));
    QCOMPARE(node.process.exitCode(), 2);
    std::ifstream after_in(path, std::ios::binary);
    const std::string after{std::istreambuf_iterator<char>(after_in), {}};
    QVERIFY(after == before);

    // A bad --preference is refused the same way, before anything runs.
    testing::NodeProcess other;
    QVERIFY(other.start({"--preference", "in_use.cpu_time_percent=0"}));
    QVERIFY(other.process.waitForFinished(20000));
    QCOMPARE(other.process.exitCode(), 2);
  }

  void pauseAndUserActiveStopComputeAtTheNextUnit() {
    // A terminal with input just now (a new pseudo-terminal's access time is its creation), as
    // where the tests were started: the window's report decides, not a terminal's input.
    const int terminal = posix_openpt(O_RDWR | O_NOCTTY);
    QVERIFY(terminal >= 0 && grantpt(terminal) == 0 && unlockpt(terminal) == 0);
    const auto close_terminal = qScopeGuard([&] { ::close(terminal); });
    testing::NodeProcess node;
    QVERIFY(node.start({"--contribute", "--preference", "in_use.run=false"}));
    control::ControlClient client(endpoints(node));
    QVERIFY(ready(client));
    // No presence report yet and no terminal known to be idle: the PC counts as in use.
    QVERIFY(testing::report_presence(client, 3600).ok);  // the GUI: idle for an hour
    QTRY_VERIFY_WITH_TIMEOUT(units(client) >= 3, 90000);

    // The owner touches the mouse.
    auto a = testing::report_presence(client, 0);
    QVERIFY(a.ok);
    QCOMPARE(a.snapshot.governor().decision(), pb::GovernorSnapshot::PAUSED);
    QCOMPARE(a.snapshot.governor().reason(), std::string("user active"));
    QCOMPARE(a.snapshot.state_reason(), std::string("paused: user active"));
    QTest::qWait(600);  // a unit is 0.2 s: the one in progress has finished by now
    const auto held = units(client);
    QTest::qWait(1000);
    QCOMPARE(units(client), held);

    // Idle again: compute resumes.
    QVERIFY(testing::report_presence(client, 3600).ok);
    QTRY_VERIFY_WITH_TIMEOUT(units(client) >= held + 2, 60000);

    // A full-screen application pauses too; and so does the pause request.
    a = testing::report_presence(client, 3600, true);
    QCOMPARE(a.snapshot.governor().reason(), std::string("a full-screen application runs"));
    QVERIFY(testing::report_presence(client, 3600, false).ok);
    QVERIFY(client.request(pb::ControlRequest::PAUSE).ok);
    QTest::qWait(600);
    const auto paused = units(client);
    QTest::qWait(1000);
    QCOMPARE(units(client), paused);
  }

  void cpuTimeAndThreadCapsOnARunningJob() {
    testing::NodeProcess node;
    // All cores allowed by the command line (the last --threads wins): the governor's thread cap decides.
    QVERIFY(node.start({"--contribute", "--threads", "0"}));
    control::ControlClient client(endpoints(node));
    QVERIFY(ready(client));
    QVERIFY(testing::report_presence(client, 3600).ok);  // idle profile
    const int cores = client.status().snapshot.device().cpu_cores();
    QTRY_VERIFY_WITH_TIMEOUT(units(client) >= 2, 90000);

    // Thread cap: LibTorch's intra-op thread count follows the preference at the next unit.
    if (cores >= 2) {
      QVERIFY(testing::set_preferences(client, {{"idle.cpu_cores_percent", "50"}}).ok);
      QTRY_COMPARE_WITH_TIMEOUT(client.status().snapshot.device().compute_threads(), cores / 2,
                                30000);
      QVERIFY(testing::set_preferences(client, {{"idle.cpu_cores_percent", "100"}}).ok);
      QTRY_COMPARE_WITH_TIMEOUT(client.status().snapshot.device().compute_threads(), cores, 30000);
    }
    QVERIFY(testing::set_preferences(client, {{"idle.cpu_cores_percent", "1"}}).ok);
    QTRY_COMPARE_WITH_TIMEOUT(client.status().snapshot.device().compute_threads(), 1, 30000);

    // CPU-time cap at 30%: the worker computes 30% of the wall time, and the process's CPU
    // time (one thread) stays near it. Without the cap the duty cycle is ~100%.
    auto a = testing::set_preferences(client, {{"idle.cpu_time_percent", "30"}});
    QVERIFY(a.ok);
    QCOMPARE(a.snapshot.governor().decision(), pb::GovernorSnapshot::SLOWED);
    QTest::qWait(5500);  // the duty window (5 s) holds only capped work now
    const double cpu0 = testing::process_cpu_seconds(node.process.processId());
    QElapsedTimer t;
    t.start();
    QTest::qWait(4000);
    const double cpu_share =
        (testing::process_cpu_seconds(node.process.processId()) - cpu0) / (t.elapsed() / 1000.0);
    const double duty = client.status().snapshot.governor().duty_cycle_measured();
    qInfo("cap 30%%: duty cycle %.2f, process CPU %.2f of one core", duty, cpu_share);
    QVERIFY2(duty > 0.2 && duty < 0.4, qPrintable(QString::number(duty)));
    QVERIFY2(cpu_share < 0.45, qPrintable(QString::number(cpu_share)));
    QVERIFY(testing::set_preferences(client, {{"idle.cpu_time_percent", "100"}}).ok);
    QTest::qWait(5500);
    const double full = client.status().snapshot.governor().duty_cycle_measured();
    QVERIFY2(full > 0.8, qPrintable(QString::number(full)));
  }

  void uploadCapOnARunningPipeline() {
    testing::PipelineHarness h;
    QVERIFY(h.prepare(testing::small_gpt_job("bandwidth"), {{0, 2}, {2, 4}}));
    QVERIFY(h.start_all({}));
    auto c0 = h.client(0);
    auto bytes = [&] { return c0.status(2s).snapshot.stage().bytes_sent(); };
    QVERIFY(testing::wait_until([&] { return bytes() > 0; }, 60000));
    // Uncapped: how fast stage 0 sends activations on its own.
    auto rate_over = [&](int ms) {
      const auto b0 = bytes();
      QElapsedTimer t;
      t.start();
      QTest::qWait(ms);
      return static_cast<double>(bytes() - b0) / (t.elapsed() / 1000.0);
    };
    const double free_rate = rate_over(3000);
    const double cap = 48 * 1024;
    QVERIFY2(free_rate > 2 * cap,
             qPrintable(QString("uncapped rate %1 B/s is too slow to show a cap").arg(free_rate)));
    QVERIFY(testing::set_preferences(c0, {{"upload_kib_per_s", "48"}}).ok);
    QCOMPARE(c0.status().snapshot.governor().upload_bytes_per_s(), std::uint64_t{48 * 1024});
    QTest::qWait(2000);  // the bucket's burst and queued messages pass
    const double capped = rate_over(6000);
    qInfo("upload: %.0f B/s uncapped, %.0f B/s under a %.0f B/s cap", free_rate, capped, cap);
    QVERIFY2(capped < cap * 1.25, qPrintable(QString::number(capped)));
    QVERIFY2(capped > cap * 0.5,
             qPrintable(QString::number(capped)));  // still training, not stalled
    QVERIFY(h.quit_all());
  }
};

QTEST_GUILESS_MAIN(TestGovernorNode)
#include "test_governor_node.moc"
