// The governor's OS sensors on fake sysfs and /proc trees (battery, listed programs), each
// degrading to "unknown" with a reason where the source is missing; the token bucket's
// contract (unlimited passes, closing and cancelling release waiters).
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <thread>

#include "governor/sensors.hpp"
#include "net/token_bucket.hpp"

using namespace rookery;
namespace fs = std::filesystem;

namespace {
void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}
void write_bytes(const fs::path& p, const std::string& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}
}  // namespace

class TestGovernorSensors : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void battery() {
    QTemporaryDir dir;
    const fs::path root = dir.path().toStdString();
    auto r = governor::read_battery(root / "missing");
    QVERIFY(!r.on_battery.has_value());
    QVERIFY(r.detail.find("not available") != std::string::npos);

    write(root / "AC" / "type", "Mains\n");
    write(root / "AC" / "online", "1\n");
    r = governor::read_battery(root);
    QCOMPARE(r.on_battery, std::optional<bool>(false));
    QCOMPARE(r.detail, std::string("no battery (mains powered)"));

    write(root / "BAT0" / "type", "Battery\n");
    write(root / "BAT0" / "status", "Charging\n");
    QCOMPARE(governor::read_battery(root).on_battery, std::optional<bool>(false));

    write(root / "AC" / "online", "0\n");
    write(root / "BAT0" / "status", "Discharging\n");
    r = governor::read_battery(root);
    QCOMPARE(r.on_battery, std::optional<bool>(true));
    QCOMPARE(r.detail, std::string("on battery"));

    // A mouse's battery is not the PC's.
    fs::remove_all(root / "BAT0");
    write(root / "hidpp_battery_0" / "type", "Battery\n");
    write(root / "hidpp_battery_0" / "scope", "Device\n");
    write(root / "hidpp_battery_0" / "status", "Discharging\n");
    QCOMPARE(governor::read_battery(root).on_battery, std::optional<bool>(false));
  }

  void listedPrograms() {
    QTemporaryDir dir;
    const fs::path proc = dir.path().toStdString();
    write(proc / "100" / "comm", "blender\n");
    write_bytes(proc / "100" / "cmdline", std::string("/usr/bin/blender\0--background\0", 30));
    write(proc / "200" / "comm", "steamwebhelper\n");  // argv[0] has a path
    write_bytes(proc / "200" / "cmdline", std::string("/opt/steam/steamwebhelper\0", 26));
    write(proc / "300" / "comm", "a-very-long-pro\n");  // comm cut to 15 characters
    write_bytes(proc / "300" / "cmdline", std::string("", 0));
    write(proc / "self" / "comm", "ignored\n");

    auto r = governor::find_programs({"blender", "gimp"}, proc);
    QVERIFY(r.running.has_value());
    QCOMPARE(*r.running, std::vector<std::string>{"blender"});
    r = governor::find_programs({"gimp"}, proc);
    QVERIFY(r.running->empty());
    QCOMPARE(r.detail, std::string("none of the listed programs runs"));
    QCOMPARE(*governor::find_programs({"steamwebhelper"}, proc).running,
             std::vector<std::string>{"steamwebhelper"});
    QCOMPARE(*governor::find_programs({"/opt/steam/steamwebhelper"}, proc).running,
             std::vector<std::string>{"/opt/steam/steamwebhelper"});
    QVERIFY(governor::find_programs({"/usr/bin/steamwebhelper"}, proc).running->empty());
    QCOMPARE(*governor::find_programs({"a-very-long-program-name"}, proc).running,
             std::vector<std::string>{"a-very-long-program-name"});
    r = governor::find_programs({"x"}, proc / "missing");
    QVERIFY(!r.running.has_value());
    QVERIFY(r.detail.find("cannot list") != std::string::npos);
  }

  void realSystemSensorsAnswer() {
    // On the machine itself: /proc is there, this test runs, so the listed-program sensor
    // finds its own parent's kind of process by name only when listed; resident memory is real.
    QVERIFY(governor::find_programs({"no-such-program-rookery"}).running.has_value());
    QVERIFY(governor::resident_memory_bytes() > 1024 * 1024);
    const auto idle = governor::terminal_idle({"/nonexistent"});
    QVERIFY(!idle.idle_seconds.has_value());
    QCOMPARE(idle.detail, std::string("no terminals to watch"));
  }

  void tokenBucketContract() {
    net::TokenBucket unlimited;
    for (int i = 0; i < 1000; ++i) QVERIFY(unlimited.acquire(1 << 20));  // rate 0: never waits

    // A waiter for more than the bucket holds is released by close(), with false.
    net::TokenBucket slow(1);  // 1 byte/s, 16 KiB burst
    bool result = true;
    std::thread t([&] { result = slow.acquire(1 << 20); });
    QTest::qWait(50);
    slow.close();
    t.join();
    QVERIFY(!result);

    // ... and by its cancel flag.
    net::TokenBucket slow2(1);
    std::atomic<bool> cancel{false};
    std::thread t2([&] { result = slow2.acquire(1 << 20, &cancel); });
    QTest::qWait(50);
    cancel = true;
    t2.join();
    QVERIFY(!result);

    // Raising the rate to unlimited releases a waiter at once.
    net::TokenBucket raised(1);
    std::thread t3([&] { result = raised.acquire(1 << 20); });
    QTest::qWait(50);
    raised.set_rate(0);
    t3.join();
    QVERIFY(result);
    QCOMPARE(raised.rate(), std::uint64_t{0});
  }
};

QTEST_GUILESS_MAIN(TestGovernorSensors)
#include "test_sensors.moc"
