// Quantities in words: bytes, durations, FLOP counts and rates, node states (C locale).
#include <QTest>

#include "ui/app_resources.hpp"
#include "ui/format.hpp"

#include <QFile>

using rookery::ui::Format;
namespace pb = rookery::wire::pb;

class TestFormat : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { QLocale::setDefault(QLocale::c()); }

  void bytes_data() {
    QTest::addColumn<quint64>("bytes");
    QTest::addColumn<QString>("text");
    QTest::newRow("bytes") << quint64(512) << "512 B";
    QTest::newRow("kib") << quint64(2048) << "2 KiB";
    QTest::newRow("mib") << quint64(300) * 1024 * 1024 << "300 MiB";
    QTest::newRow("gib") << quint64(24) * 1024 * 1024 * 1024 << "24.0 GiB";
  }
  void bytes() {
    QFETCH(quint64, bytes);
    QFETCH(QString, text);
    QCOMPARE(Format::bytes(bytes), text);
  }

  void bytesOf() {
    QCOMPARE(Format::bytesOf(3ull << 30, 24ull << 30), QStringLiteral("3.0 / 24.0 GiB"));
  }

  void duration_data() {
    QTest::addColumn<double>("seconds");
    QTest::addColumn<QString>("text");
    QTest::newRow("seconds") << 42.7 << "42 s";
    QTest::newRow("minutes") << 65.0 << "1 min 05 s";
    QTest::newRow("hours") << 7500.0 << "2 h 05 min";
    QTest::newRow("days") << 90000.0 << "1 d 1 h";
  }
  void duration() {
    QFETCH(double, seconds);
    QFETCH(QString, text);
    QCOMPARE(Format::duration(seconds), text);
  }

  void flops() {
    QCOMPARE(Format::flopCount(0), QStringLiteral("0.00 GFLOP"));
    QCOMPARE(Format::flopCount(512e9), QStringLiteral("512 GFLOP"));
    QCOMPARE(Format::flopCount(1.234e12), QStringLiteral("1.23 TFLOP"));
    QCOMPARE(Format::flopCount(456e12), QStringLiteral("456 TFLOP"));
    QCOMPARE(Format::flopCount(2.5e15), QStringLiteral("2.50 PFLOP"));
    QCOMPARE(Format::gflopRate(45.64), QStringLiteral("45.6 GFLOP/s"));
    QCOMPARE(Format::gflopRate(1200), QStringLiteral("1.20 TFLOP/s"));
  }

  void states() {
    QCOMPARE(Format::state(pb::CONTRIBUTING, true), QStringLiteral("Contributing"));
    QCOMPARE(Format::state(pb::PAUSED, true), QStringLiteral("Paused"));
    QCOMPARE(Format::state(pb::CONTRIBUTING, false), QStringLiteral("Not running"));
  }

  void blasNames() {
    QCOMPARE(Format::blas("OpenBLAS (OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH) at "
                          "/usr/lib/x86_64-linux-gnu/libblas.so.3"),
             QStringLiteral("OpenBLAS 0.3.21"));
    QCOMPARE(Format::blas("Intel MKL"), QStringLiteral("Intel MKL"));
    QCOMPARE(Format::blas("Intel oneMKL 2024.2 (LibTorch 2.11.0)"), QStringLiteral("Intel oneMKL 2024.2"));
    QCOMPARE(Format::blas("cuBLAS and cuDNN on NVIDIA H100 (LibTorch 2.11.0)"),
             QStringLiteral("cuBLAS and cuDNN on NVIDIA H100"));
    QCOMPARE(Format::blas("no BLAS loaded (sgemm_ not found)"), QStringLiteral("no BLAS loaded"));
  }

  void pipelineQuantities() {
    QCOMPARE(Format::blockRange(0, 3, 6), QStringLiteral("blocks 0–2 of 6"));
    QCOMPARE(Format::blockRange(5, 6, 6), QStringLiteral("block 5 of 6"));
    QCOMPARE(Format::loss(2.31449), QStringLiteral("2.314"));
    QCOMPARE(Format::loss(12.5), QStringLiteral("12.50"));
    QCOMPARE(Format::sampleRate(4.54), QStringLiteral("4.5 samples/s"));
    QCOMPARE(Format::sampleRate(123.4), QStringLiteral("123 samples/s"));
  }

  void translationsLoadForTheLocale() {
    // A language Rookery has no translation for (or the C locale) gets English plurals.
    QVERIFY(
        rookery::ui::installTranslations(*QCoreApplication::instance(), QLocale::c()).isEmpty());
    QCOMPARE(
        QCoreApplication::translate("rookery::ui::SwarmCard", "%n micro-batch(es)", nullptr, 1),
        QStringLiteral("1 micro-batch"));
    QCOMPARE(
        QCoreApplication::translate("rookery::ui::SwarmCard", "%n micro-batch(es)", nullptr, 3),
        QStringLiteral("3 micro-batches"));
    // English carries only plural forms; the other languages are still being translated.
    QVERIFY(
        rookery::ui::installTranslations(*QCoreApplication::instance(), QLocale(QLocale::English))
            .startsWith(QStringLiteral("en")));
    QCOMPARE(
        QCoreApplication::translate("rookery::ui::DeviceCard", "%n logical core(s)", nullptr, 1),
        QStringLiteral("1 logical core"));
    QCOMPARE(
        QCoreApplication::translate("rookery::ui::DeviceCard", "%n logical core(s)", nullptr, 8),
        QStringLiteral("8 logical cores"));
    QVERIFY(rookery::ui::installTranslations(*QCoreApplication::instance(), QLocale(QLocale::Welsh))
                .isEmpty());
  }

  void resourcesAreCompiledIn() {
    rookery::ui::initResources();
    for (const char* name :
         {":/icons/rookery.svg", ":/icons/tray-contributing.svg", ":/icons/tray-paused.svg",
          ":/icons/tray-error.svg", ":/i18n/rookery_de.qm", ":/i18n/rookery_en.qm",
          ":/i18n/rookery_zh_CN.qm"}) {
      QVERIFY2(QFile::exists(QString::fromLatin1(name)), name);
    }
  }
};

QTEST_MAIN(TestFormat)
#include "test_format.moc"
