// NesterovLookahead against values worked out by hand on small tensors: the bias-corrected
// momentum of the updates, scaled by the delay, added to the master.
#include <torch/torch.h>

#include <QTest>

#include <stdexcept>

#include "pipeline/nesterov_lookahead.hpp"

using rookery::pipeline::NesterovLookahead;

class TestNesterovLookahead : public QObject {
  Q_OBJECT

  static std::vector<at::Tensor> tensors(std::initializer_list<float> a,
                                         std::initializer_list<float> b) {
    return {torch::tensor(std::vector<float>(a)),
            torch::tensor(std::vector<float>(b)).reshape({2, 2})};
  }
  static std::vector<at::Tensor> like(const std::vector<at::Tensor>& v) {
    std::vector<at::Tensor> out;
    for (const auto& t : v) out.push_back(torch::full_like(t, -99));
    return out;
  }
  static void expect(const std::vector<at::Tensor>& got, const std::vector<at::Tensor>& want) {
    QCOMPARE(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      const double gap = (got[i] - want[i]).abs().max().item<double>();
      if (gap > 1e-6) {
        qWarning("tensor %zu is off by %g", i, gap);
        QFAIL("look-ahead point differs from the hand-computed one");
      }
    }
  }

 private Q_SLOTS:
  void twoUpdatesByHand() {
    const auto master = tensors({1, 2, 3}, {0, 0, 1, -1});
    NesterovLookahead la(0.5);
    auto out = like(master);
    la.point_into(out, master, 3);  // no update yet: nothing to look along
    expect(out, master);

    la.note_update(tensors({0.2f, -0.4f, 0}, {1, 0, 0, 0}));
    // One update: d = 0.5 u1, bias-corrected by 1 - 0.5 = u1 (weight prediction's point).
    la.point_into(out, master, 2);
    expect(out, tensors({1.4f, 1.2f, 3}, {2, 0, 1, -1}));

    la.note_update(tensors({0.4f, 0, -0.8f}, {0, 1, 0, 0}));
    // d = 0.5 (0.5 u1) + 0.5 u2 = ([0.25, -0.1, -0.4], [0.25, 0.5, 0, 0]); corrected by
    // 1 - 0.25 = 0.75 and scaled by the delay 3: x 4 on top of the master.
    la.point_into(out, master, 3);
    expect(out, tensors({2.0f, 1.6f, 1.4f}, {1, 2, 1, -1}));
    QCOMPARE(la.updates(), std::int64_t{2});

    la.point_into(out, master, 0);  // no delay (the last stage): the master itself
    expect(out, master);
    la.forget();  // a hand-over: nothing to look along until the next update
    la.point_into(out, master, 3);
    expect(out, master);
  }

  void zeroMomentumIsWeightPrediction() {
    const auto master = tensors({1, 2, 3}, {0, 0, 1, -1});
    NesterovLookahead la(0);
    la.note_update(tensors({5, 5, 5}, {5, 5, 5, 5}));
    la.note_update(tensors({0.2f, -0.4f, 0}, {1, 0, 0, 0}));
    auto out = like(master);
    la.point_into(out, master, 2);  // master + 2 x the last update
    expect(out, tensors({1.4f, 1.2f, 3}, {2, 0, 1, -1}));
  }

  void refusesUpdatesOfOtherParameters() {
    NesterovLookahead la(0.9);
    la.note_update(tensors({1, 2, 3}, {0, 0, 1, -1}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, la.note_update({torch::ones({3})}));
  }
};

QTEST_GUILESS_MAIN(TestNesterovLookahead)
#include "test_nesterov_lookahead.moc"
