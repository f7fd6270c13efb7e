// Replays a fuzz target's checked-in seed corpus (tests/fuzz/corpus/<target>) and every input
// that ever crashed it (tests/fuzz/regressions/<target>) through its LLVMFuzzerTestOneInput,
// in the normal build: a crash or sanitizer report fails the test.
#include <QtTest/QtTest>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace fs = std::filesystem;

class ReplayCorpus : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void replay_data() {
    QTest::addColumn<QString>("file");
    const fs::path root = fs::path(ROOKERY_SOURCE_DIR) / "tests" / "fuzz";
    int seeds = 0;
    for (const char* dir : {"corpus", "regressions"}) {
      const fs::path d = root / dir / ROOKERY_FUZZ_TARGET;
      if (!fs::is_directory(d)) continue;
      std::vector<fs::path> files;
      for (const auto& e : fs::directory_iterator(d))
        if (e.is_regular_file() && e.path().filename() != ".gitkeep") files.push_back(e.path());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) {
        QTest::newRow((std::string(dir) + "/" + f.filename().string()).c_str())
            << QString::fromStdString(f.string());
        if (std::string(dir) == "corpus") ++seeds;
      }
    }
    QVERIFY2(seeds > 0, "no seed corpus checked in for " ROOKERY_FUZZ_TARGET);
  }
  void replay() {
    QFETCH(QString, file);
    std::ifstream in(file.toStdString(), std::ios::binary);
    QVERIFY(in);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
    QCOMPARE(
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()),
        0);
  }
};

QTEST_GUILESS_MAIN(ReplayCorpus)
#include "replay_corpus.moc"
