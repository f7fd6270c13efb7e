// The speed a volunteer offers: benchmark x duty cycle, re-measured once on the job's blocks
// when the node joined without knowing the job, and kept when that measurement fails.
#include "node/device_speed.hpp"

#include <QtTest/QtTest>

#include <atomic>
#include <stdexcept>

using namespace rookery;

class TestDeviceSpeed : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void offersTheBenchmarkTimesTheDutyCycle() {
    std::atomic<int> duty{50};
    node::DeviceSpeed speed(10e9, true, [&] { return duty.load(); }, nullptr);
    QCOMPARE(speed.offered_flops_per_s(), 5e9);
    duty = 0;  // clamped: a node that offers nothing is not planned at all, 1% is the least
    QCOMPARE(speed.offered_flops_per_s(), 0.1e9);
    duty = 100;
    QCOMPARE(speed.offered_flops_per_s(), 10e9);
    QVERIFY(!speed.wants_job());  // measured on the job's blocks already
  }

  void aFirstTimeJoinerMeasuresTheJobOnce() {
    int calls = 0;
    std::string measured;
    node::DeviceSpeed speed(10e9, false, [] { return 50; }, [&](const job::JobSpec& j) {
      ++calls;
      measured = j.id;
      return 4e9;
    });
    QVERIFY(speed.wants_job());
    job::JobSpec job;
    job.id = "demo";
    QVERIFY(speed.measure_job(job));
    QCOMPARE(QString::fromStdString(measured), QString("demo"));
    QCOMPARE(speed.benchmark_flops_per_s(), 4e9);
    QCOMPARE(speed.offered_flops_per_s(), 2e9);
    QVERIFY(speed.on_job_blocks());
    QVERIFY(!speed.wants_job());
    QVERIFY(!speed.measure_job(job));
    QCOMPARE(calls, 1);
  }

  void aFailedMeasurementKeepsTheMatmulsFigure() {
    int calls = 0;
    node::DeviceSpeed speed(10e9, false, nullptr, [&](const job::JobSpec&) -> double {
      ++calls;
      throw std::runtime_error("CUDA out of memory");
    });
    QVERIFY(!speed.measure_job(job::JobSpec{}));
    QCOMPARE(speed.benchmark_flops_per_s(), 10e9);
    QVERIFY(!speed.wants_job());  // not retried every unit
    QVERIFY(!speed.measure_job(job::JobSpec{}));
    QCOMPARE(calls, 1);
  }

  void aMeasurementOfNothingIsRefused() {
    node::DeviceSpeed speed(10e9, false, nullptr, [](const job::JobSpec&) { return 0.0; });
    QVERIFY(!speed.measure_job(job::JobSpec{}));
    QCOMPARE(speed.benchmark_flops_per_s(), 10e9);
  }
};

QTEST_GUILESS_MAIN(TestDeviceSpeed)
#include "test_device_speed.moc"
