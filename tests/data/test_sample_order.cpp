#include <torch/torch.h>

#include "data/batch.hpp"
#include "data/sample_order.hpp"
#include "data/text_datasets.hpp"

#include <QtTest/QtTest>

#include <fstream>
#include <random>
#include <set>

using namespace rookery::data;

class TestSampleOrder : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void everyEpochIsAPermutation_data() {
    QTest::addColumn<qint64>("size");
    QTest::addColumn<quint64>("seed");
    for (qint64 n : {1, 2, 3, 5, 16, 17, 100, 1000, 4097})
      QTest::newRow(qPrintable(QString("n=%1").arg(n))) << n << quint64(n * 31 + 1);
  }
  void everyEpochIsAPermutation() {
    QFETCH(qint64, size);
    QFETCH(quint64, seed);
    const SampleOrder order(size, seed);
    for (int64_t epoch = 0; epoch < 3; ++epoch) {
      std::vector<int> seen(size_t(size), 0);
      for (int64_t i = 0; i < size; ++i) {
        const int64_t p = order.position(epoch * size + i);
        QVERIFY(p >= 0 && p < size);
        ++seen[size_t(p)];
      }
      QVERIFY(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
    }
  }

  void orderIsShuffledAndChangesWithEpochAndSeed() {
    const int64_t n = 1000;
    const SampleOrder a(n, 1), b(n, 2);
    int64_t fixed_points = 0, same_as_next_epoch = 0, same_as_other_seed = 0;
    for (int64_t i = 0; i < n; ++i) {
      fixed_points += a.position(i) == i;
      same_as_next_epoch += a.position(i) == a.position(n + i);
      same_as_other_seed += a.position(i) == b.position(i);
    }
    // A random permutation has ~1 fixed point and ~1 coincidence with another.
    QVERIFY2(fixed_points < 10, qPrintable(QString::number(fixed_points)));
    QVERIFY2(same_as_next_epoch < 10, qPrintable(QString::number(same_as_next_epoch)));
    QVERIFY2(same_as_other_seed < 10, qPrintable(QString::number(same_as_other_seed)));
    // Neighbouring ids do not land near each other (no striding pattern).
    int64_t near = 0;
    for (int64_t i = 0; i + 1 < n; ++i) near += std::abs(a.position(i + 1) - a.position(i)) < 10;
    QVERIFY2(near < 50, qPrintable(QString::number(near)));
  }

  void unshuffledIsIdentityModuloSize() {
    const SampleOrder order(7, 123, /*shuffle=*/false);
    for (int64_t id = 0; id < 30; ++id) QCOMPARE(order.position(id), id % 7);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, order.position(-1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SampleOrder(0, 1));
  }

  void sameIdsGiveSameBatchesDisjointIdsDisjointSamples() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto path = std::filesystem::path(dir.path().toStdString()) / "t.txt";
    {
      std::ofstream out(path, std::ios::binary);
      std::mt19937 random(5);  // random letters: no two 8-byte windows alike
      for (int i = 0; i < 3000; ++i) out << char('a' + random() % 26);
    }
    const TextBytesDataset d(path, 8, 1, /*order_seed=*/42);
    const TextBytesDataset again(path, 8, 1, 42);
    // Two "processes" asked for the same ids read the same samples.
    QVERIFY(torch::equal(make_batch(d, 500, 64).inputs, make_batch(again, 500, 64).inputs));
    // A batch is the concatenation of its sub-ranges: a micro-batch can be split freely.
    const Batch whole = make_batch(d, 100, 40);
    const Batch head = make_batch(d, 100, 15), tail = make_batch(d, 115, 25);
    QVERIFY(torch::equal(whole.inputs, torch::cat({head.inputs, tail.inputs})));
    QVERIFY(torch::equal(whole.targets, torch::cat({head.targets, tail.targets})));
    // Disjoint ranges within an epoch read disjoint windows.
    std::set<int64_t> positions;
    for (int64_t id = 0; id < d.size(); ++id) positions.insert(d.position_of(id));
    QCOMPARE(int64_t(positions.size()), d.size());
    const Batch p1 = make_batch(d, 0, 200), p2 = make_batch(d, 200, 200);
    std::set<std::vector<int64_t>> first;
    for (int64_t i = 0; i < 200; ++i) {
      const auto row = p1.inputs[i].contiguous();
      first.insert(std::vector<int64_t>(row.data_ptr<int64_t>(), row.data_ptr<int64_t>() + 8));
    }
    for (int64_t i = 0; i < 200; ++i) {
      const auto row = p2.inputs[i].contiguous();
      QVERIFY(!first.contains(
          std::vector<int64_t>(row.data_ptr<int64_t>(), row.data_ptr<int64_t>() + 8)));
    }
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, make_batch(d, 0, 0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, make_batch(d, -5, 2));
  }
};

QTEST_APPLESS_MAIN(TestSampleOrder)
#include "test_sample_order.moc"
