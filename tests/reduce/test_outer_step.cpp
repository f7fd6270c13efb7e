// The outer step of averaging (DiLoCo): the Nesterov update against one computed by hand, only
// inside the spans a round averaged; and error feedback, whose sent values plus residual
// always add up to the true pseudo-gradients, and which gives back the residual of a round
// that did not average.
#include "reduce/error_feedback.hpp"
#include "reduce/outer_optimizer.hpp"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using namespace rookery;
using reduce::Spans;

class TestOuterStep : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void nesterovStepIsTheHandComputedOne() {
    job::OuterSpec spec;
    spec.lr = 0.7;
    spec.momentum = 0.9;
    reduce::OuterOptimizer outer(spec);
    std::vector<float> anchor{1.0f, -2.0f, 0.5f};
    const std::vector<float> g1{0.1f, 0.2f, -0.3f}, g2{-0.05f, 0.1f, 0.2f};
    outer.step(anchor, g1, {{0, 3}});
    // Step 1: m = g1; anchor -= 0.7 (g1 + 0.9 g1) = 0.7 * 1.9 * g1.
    const float expect1[] = {1.0f - 0.7f * 1.9f * 0.1f, -2.0f - 0.7f * 1.9f * 0.2f,
                             0.5f + 0.7f * 1.9f * 0.3f};
    for (int i = 0; i < 3; ++i) QVERIFY(std::abs(anchor[size_t(i)] - expect1[i]) < 1e-6f);
    outer.step(anchor, g2, {{0, 3}});
    // Step 2: m = 0.9 g1 + g2; anchor -= 0.7 (g2 + 0.9 m).
    for (int i = 0; i < 3; ++i) {
      const float m = 0.9f * g1[size_t(i)] + g2[size_t(i)];
      const float expect2 = expect1[i] - 0.7f * (g2[size_t(i)] + 0.9f * m);
      QVERIFY2(std::abs(anchor[size_t(i)] - expect2) < 1e-6f,
               qPrintable(QString("value %1: %2, by hand %3").arg(i).arg(anchor[size_t(i)]).arg(expect2)));
      QVERIFY(std::abs(outer.momentum()[size_t(i)] - m) < 1e-6f);
    }
  }

  void plainAverageIsLrOneWithoutMomentum() {
    // Two replicas from the same anchor: the outer step with lr 1, momentum 0 on the mean
    // pseudo-gradient lands on the mean of their weights.
    reduce::OuterOptimizer outer(job::OuterSpec{});
    std::vector<float> anchor{1.0f, 2.0f};
    const std::vector<float> a{0.8f, 2.5f}, b{1.4f, 1.0f};
    std::vector<float> g(2);
    for (size_t i = 0; i < 2; ++i) g[i] = ((anchor[i] - a[i]) + (anchor[i] - b[i])) / 2;
    outer.step(anchor, g, {{0, 2}});
    QCOMPARE(anchor[0], 1.1f);
    QCOMPARE(anchor[1], 1.75f);
    QVERIFY(outer.momentum().empty());
  }

  void onlyAveragedSpansMove() {
    job::OuterSpec spec;
    spec.momentum = 0.5;
    reduce::OuterOptimizer outer(spec);
    std::vector<float> anchor(10, 1.0f);
    const std::vector<float> g(10, 0.25f);
    outer.step(anchor, g, {{2, 4}, {7, 10}});
    for (size_t i = 0; i < 10; ++i) {
      const bool in = (i >= 2 && i < 4) || i >= 7;
      QCOMPARE(anchor[i], in ? 1.0f - 0.25f * 1.5f : 1.0f);
      QCOMPARE(outer.momentum()[i], in ? 0.25f : 0.0f);
    }
  }

  void badShapesAreRefused() {
    reduce::OuterOptimizer outer(job::OuterSpec{});
    std::vector<float> anchor(4, 0.0f);
    const std::vector<float> g(3, 0.0f), g4(4, 0.0f);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, outer.step(anchor, g, {{0, 3}}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, outer.step(anchor, g4, {{2, 5}}));
  }

  void errorFeedbackSendsEverythingEventually_data() {
    QTest::addColumn<int>("codec");
    QTest::newRow("int8 blockwise") << int(wire::Codec::Int8Block);
    QTest::newRow("fp16") << int(wire::Codec::Fp16);
    QTest::newRow("bf16") << int(wire::Codec::Bf16);
  }

  void errorFeedbackSendsEverythingEventually() {
    QFETCH(int, codec);
    reduce::ErrorFeedback feedback(static_cast<wire::Codec>(codec));
    std::mt19937 rng(5);
    std::normal_distribution<double> normal(0.0, 1e-3);
    const size_t n = 3000;
    std::vector<double> true_sum(n, 0.0), sent_sum(n, 0.0);
    double worst_single = 0;
    for (int round = 0; round < 40; ++round) {
      std::vector<float> g(n);
      for (size_t i = 0; i < n; ++i) {
        // A few large values per block make the small ones round away without feedback.
        g[i] = static_cast<float>(normal(rng) * (i % 97 == 0 ? 300.0 : 1.0));
        true_sum[i] += g[i];
      }
      const auto sent = feedback.compensate(g);
      feedback.settle({{0, n}});
      for (size_t i = 0; i < n; ++i) {
        sent_sum[i] += sent[i];
        worst_single = std::max(worst_single, std::abs(double(sent[i]) - g[i]));
      }
    }
    // sum sent + residual == sum of the pseudo-gradients, up to f32 rounding.
    double worst = 0;
    for (size_t i = 0; i < n; ++i)
      worst = std::max(worst, std::abs(sent_sum[i] + feedback.residual()[i] - true_sum[i]));
    QVERIFY2(worst < 1e-6, qPrintable(QString("sum sent + residual is off by %1").arg(worst)));
    QVERIFY2(worst_single > 0, "the codec dropped nothing: the test shows nothing");
  }

  void aRoundWithoutPartnersGivesTheResidualBack() {
    reduce::ErrorFeedback feedback(wire::Codec::Int8Block);
    std::vector<float> g(600);
    for (size_t i = 0; i < g.size(); ++i) g[i] = (i % 50 == 0) ? 1.0f : 1e-4f * float(i % 7);
    (void)feedback.compensate(g);
    feedback.settle({{0, 600}});
    const auto before = feedback.residual();
    QVERIFY(std::any_of(before.begin(), before.end(), [](float v) { return v != 0; }));
    (void)feedback.compensate(g);
    feedback.settle({{100, 200}});  // only [100, 200) averaged
    for (size_t i = 0; i < g.size(); ++i) {
      if (i >= 100 && i < 200) continue;
      QCOMPARE(feedback.residual()[i], before[i]);
    }
  }

  void withoutCompressionNothingIsKept() {
    reduce::ErrorFeedback feedback(wire::Codec::None);
    const std::vector<float> g{0.1f, -3.0f, 1e-9f};
    QCOMPARE(feedback.compensate(g), g);
    feedback.settle({{0, 3}});
    for (float r : feedback.residual()) QCOMPARE(r, 0.0f);
  }
};

QTEST_GUILESS_MAIN(TestOuterStep)
#include "test_outer_step.moc"
