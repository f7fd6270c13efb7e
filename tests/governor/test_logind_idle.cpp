// logind's idle hint as the governor reads it, against a real D-Bus daemon (a private bus
// started here, given to the reader as DBUS_SYSTEM_BUS_ADDRESS) and a fake logind on it that
// serves org.freedesktop.login1.Manager's IdleHint and IdleSinceHint through sd-bus: in use,
// idle for two minutes, logind gone and back, the bus gone. Every failure is a reading of
// "unknown" with the reason, never a hang or an exception. Then a real rookery-node with no
// desktop session reporting: logind's hint alone pauses it ("user active") and lets it run.
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

#include <systemd/sd-bus.h>

#include "control/control_client.hpp"
#include "governor/logind_idle.hpp"
#include "support/processes.hpp"

using namespace rookery;
using namespace std::chrono_literals;

namespace {

std::int64_t now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// org.freedesktop.login1 on the test's bus, answering from two atomics on its own thread.
class FakeLogind {
 public:
  std::atomic<bool> idle{false};
  std::atomic<std::uint64_t> idle_since_us{0};

  bool start() {
    if (sd_bus_open_system(&bus_) < 0) return false;
    if (sd_bus_add_object_vtable(bus_, &slot_, "/org/freedesktop/login1",
                                 "org.freedesktop.login1.Manager", kVtable, this) < 0)
      return false;
    if (sd_bus_request_name(bus_, "org.freedesktop.login1", 0) < 0) return false;
    thread_ = std::thread([this] {
      while (!stop_) {
        int r = sd_bus_process(bus_, nullptr);
        if (r < 0) break;
        if (r == 0) sd_bus_wait(bus_, 50'000);
      }
    });
    return true;
  }
  ~FakeLogind() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    sd_bus_slot_unref(slot_);
    sd_bus_flush_close_unref(bus_);
  }

 private:
  static int get_idle(sd_bus*, const char*, const char*, const char*, sd_bus_message* reply,
                      void* self, sd_bus_error*) {
    return sd_bus_message_append(reply, "b",
                                 static_cast<int>(static_cast<FakeLogind*>(self)->idle.load()));
  }
  static int get_since(sd_bus*, const char*, const char*, const char*, sd_bus_message* reply,
                       void* self, sd_bus_error*) {
    return sd_bus_message_append(reply, "t", static_cast<FakeLogind*>(self)->idle_since_us.load());
  }
  static constexpr sd_bus_vtable kVtable[] = {
      SD_BUS_VTABLE_START(0),
      SD_BUS_PROPERTY("IdleHint", "b", get_idle, 0, 0),
      SD_BUS_PROPERTY("IdleSinceHint", "t", get_since, 0, 0),
      SD_BUS_VTABLE_END,
  };
  sd_bus* bus_ = nullptr;
  sd_bus_slot* slot_ = nullptr;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace

class TestLogindIdle : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QProcess bus_;

 private Q_SLOTS:
  void initTestCase() {
    const QString daemon = QStandardPaths::findExecutable(QStringLiteral("dbus-daemon"));
    if (daemon.isEmpty())
      QSKIP(
          "dbus-daemon is not installed (Debian package dbus-daemon; scripts/install-deps.sh "
          "installs it)");
    const QString address = QStringLiteral("unix:path=") + dir_.filePath(QStringLiteral("bus"));
    bus_.setProgram(daemon);
    bus_.setArguments({QStringLiteral("--session"), QStringLiteral("--nofork"),
                       QStringLiteral("--nopidfile"), QStringLiteral("--address=") + address,
                       QStringLiteral("--print-address=1")});
    bus_.start();
    QVERIFY(bus_.waitForStarted(5000));
    QVERIFY(
        QTest::qWaitFor([&] { return bus_.canReadLine() || bus_.waitForReadyRead(100); }, 10000));
    const QString printed = QString::fromUtf8(bus_.readLine()).trimmed();
    QVERIFY2(printed.startsWith(QStringLiteral("unix:path=")), qPrintable(printed));
    qputenv("DBUS_SYSTEM_BUS_ADDRESS", printed.toUtf8());
  }

  void cleanupTestCase() {
    bus_.kill();
    bus_.waitForFinished(5000);
  }

  void noLogindOnTheBus() {
    governor::LogindIdle reader;
    const auto r = reader.read();
    QVERIFY(!r.idle_seconds.has_value());
    QVERIFY2(r.detail.starts_with("logind: "), r.detail.c_str());
  }

  void inUseIdleAndBack() {
    governor::LogindIdle reader;
    QVERIFY(!reader.read().idle_seconds);  // nobody serves logind yet
    {
      FakeLogind logind;
      QVERIFY(logind.start());
      auto r = reader.read();  // the same reader asks again and gets an answer
      QVERIFY2(r.idle_seconds.has_value(), r.detail.c_str());
      QCOMPARE(*r.idle_seconds, 0.0);
      QCOMPARE(r.detail, std::string("logind: a session is in use"));

      logind.idle_since_us = static_cast<std::uint64_t>(now_us() - 120'000'000);
      logind.idle = true;
      r = reader.read();
      QVERIFY(r.idle_seconds.has_value());
      QVERIFY2(*r.idle_seconds >= 119.0 && *r.idle_seconds < 130.0, r.detail.c_str());
      QVERIFY(r.detail.find("all sessions idle for 1") != std::string::npos);

      // Never in use since boot: idle for as long as the PC has been up.
      logind.idle_since_us = 0;
      r = reader.read();
      QVERIFY(r.idle_seconds.has_value() && *r.idle_seconds > 0);
      QCOMPARE(r.detail, std::string("logind: no session in use since boot"));

      // A hint from the future (the clock was set back) counts as just now.
      logind.idle_since_us = static_cast<std::uint64_t>(now_us() + 3'600'000'000LL);
      QCOMPARE(*reader.read().idle_seconds, 0.0);
    }
    // logind gone: unknown again, promptly.
    const auto before = std::chrono::steady_clock::now();
    const auto gone = reader.read();
    QVERIFY(!gone.idle_seconds.has_value());
    QVERIFY(std::chrono::steady_clock::now() - before < 3s);
    // And back: the reader recovers without being made anew.
    FakeLogind again;
    QVERIFY(again.start());
    again.idle = false;
    QCOMPARE(reader.read().idle_seconds, std::optional<double>(0.0));
  }

  void theNodeFollowsLogind() {
    // Computes only while the PC is idle; no GUI reports presence, so logind decides.
    FakeLogind logind;
    QVERIFY(logind.start());
    testing::NodeProcess node;
    QVERIFY(node.start({"--contribute", "--preference", "in_use.run=false"}));
    control::ControlClient client(control::ControlEndpoints::in(node.runtime_dir().toStdString()));
    auto status = [&] { return client.status(1s).snapshot; };
    auto idleness = [](const wire::pb::NodeSnapshot& s) {
      for (const auto& sensor : s.governor().sensors()) {
        if (sensor.name() == "input idleness") return sensor;
      }
      return wire::pb::SensorStatus{};
    };
    using Decision = wire::pb::GovernorSnapshot;
    QVERIFY(
        QTest::qWaitFor([&] { return status().governor().decision() == Decision::PAUSED; }, 30000));
    QCOMPARE(status().governor().reason(), std::string("user active"));
    QCOMPARE(idleness(status()).detail(), std::string("logind: a session is in use"));

    logind.idle_since_us = static_cast<std::uint64_t>(now_us() - 600'000'000LL);  // idle for 10 min
    logind.idle = true;
    QVERIFY(QTest::qWaitFor([&] { return status().governor().decision() == Decision::RUNNING; },
                            10000));
    const auto s = status();
    QVERIFY2(idleness(s).working() &&
                 idleness(s).detail().starts_with("logind: all sessions idle for 6"),
             idleness(s).detail().c_str());
    QVERIFY(QTest::qWaitFor([&] { return status().work().work_units() >= 2; }, 60000));

    logind.idle = false;  // the owner is back
    QVERIFY(QTest::qWaitFor([&] { return status().governor().reason() == "user active"; }, 10000));

    // A GUI that sees only its own window's input (Wayland): no input there for an hour, but
    // logind says a session is in use, so the owner is there.
    auto report = [&](bool covers_session) {
      wire::pb::ControlRequest r;
      r.set_kind(wire::pb::ControlRequest::REPORT_PRESENCE);
      r.mutable_presence()->set_input_idle_seconds(3600);
      r.mutable_presence()->set_idle_source(covers_session ? "X11 screensaver extension"
                                                           : "this window's input only");
      r.mutable_presence()->set_idle_covers_session(covers_session);
      r.mutable_presence()->set_valid_for_ms(600000);
      return client.request(r);
    };
    auto a = report(false);
    QVERIFY(a.ok);
    QCOMPARE(a.snapshot.governor().decision(), Decision::PAUSED);
    // logind idle too: both agree, the PC is idle.
    logind.idle_since_us = static_cast<std::uint64_t>(now_us() - 600'000'000LL);
    logind.idle = true;
    QVERIFY(QTest::qWaitFor([&] { return status().governor().decision() == Decision::RUNNING; },
                            10000));
    // A report that covers the whole session (X11) is taken as it is, whatever logind says.
    logind.idle = false;
    a = report(true);
    QVERIFY(a.ok);
    QCOMPARE(a.snapshot.governor().decision(), Decision::RUNNING);
  }

  void busGone() {
    qputenv("DBUS_SYSTEM_BUS_ADDRESS",
            "unix:path=" + dir_.filePath(QStringLiteral("no-such-bus")).toUtf8());
    governor::LogindIdle reader;
    const auto r = reader.read();
    QVERIFY(!r.idle_seconds.has_value());
    QVERIFY2(r.detail.find("no system bus") != std::string::npos, r.detail.c_str());
  }
};

QTEST_GUILESS_MAIN(TestLogindIdle)
#include "test_logind_idle.moc"
