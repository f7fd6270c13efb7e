// The analytic cost model against the real modules: parameter counts and activation sizes
// exactly, and stashed memory as measured on the heap. Time against FLOPs is a benchmark:
// tests/bench/model/bench_cost_model.cpp.
#include <torch/torch.h>

#include "model/block_chain.hpp"
#include "model/cost.hpp"
#include "cost_model_fixtures.hpp"

#include <QtTest/QtTest>

#include <malloc.h>

#include <algorithm>
#include <chrono>

using namespace rookery;
using model::BlockChain;
using model::BlockCost;
using namespace rookery::cost_model_fixtures;

namespace {

job::ModelSpec spec_named(const QString& name) {
  if (name == "gpt") return gpt(64, 128, 4);
  if (name == "gpt-odd") return gpt(24, 96, 3, 3, 2, 0.0, 1000);
  if (name == "gpt-dropout") return gpt(32, 64, 2, 2, 4, 0.1);
  if (name == "cnn") return cnn();
  return mlp();
}

// Under AddressSanitizer (scripts/test-sanitize.sh) malloc is ASan's, which mallinfo2 does not
// see: the heap is read from ASan's own allocator there.
#if defined(__SANITIZE_ADDRESS__)
#define ROOKERY_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ROOKERY_ASAN 1
#endif
#endif
#ifdef ROOKERY_ASAN
extern "C" size_t __sanitizer_get_current_allocated_bytes();  // libasan's allocator statistics
#endif

// Bytes currently allocated by malloc (main arena + mmapped chunks; under ASan, its
// allocator's count). LibTorch's CPU allocator is plain malloc, so a forward's retained
// tensors show up here.
int64_t heap_in_use() {
#ifdef ROOKERY_ASAN
  return int64_t(__sanitizer_get_current_allocated_bytes());
#else
  const struct mallinfo2 m = mallinfo2();
  return int64_t(m.uordblks + m.hblkhd);
#endif
}

}  // namespace

class TestCostModel : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    torch::set_num_threads(1);  // measure one core, as the planner's profile does per thread
    torch::manual_seed(0);
  }

  void countsAndShapes_data() {
    QTest::addColumn<QString>("model");
    for (const char* m : {"gpt", "gpt-odd", "gpt-dropout", "cnn", "mlp"})
      QTest::newRow(m) << QString(m);
  }
  // Parameter counts and output activation sizes equal the modules' exactly.
  void countsAndShapes() {
    QFETCH(QString, model);
    const job::ModelSpec spec = spec_named(model);
    const BlockChain chain(spec, 1);
    const auto costs = model::block_costs(spec);
    QCOMPARE(int64_t(costs.size()), model::block_count(spec));
    int64_t total = 0;
    for (int64_t i = 0; i < chain.block_count(); ++i) {
      model::Shard block = chain.shard({i, i + 1});
      QCOMPARE(block.parameter_count(), costs[size_t(i)].params);
      const int64_t batch = 3;
      const torch::Tensor out = block.forward(input_for(spec, i, batch));
      QCOMPARE(int64_t(out.numel() * out.element_size()) / batch,
               costs[size_t(i)].activation_bytes_per_sample);
      QVERIFY(costs[size_t(i)].forward_flops_per_sample > 0);
      QVERIFY(costs[size_t(i)].backward_flops_per_sample >=
              costs[size_t(i)].forward_flops_per_sample);
      total += costs[size_t(i)].params;
    }
    QCOMPARE(chain.whole().parameter_count(), total);
  }

  void stashMatchesRetainedMemory_data() { countsAndShapes_data(); }
  // What a forward keeps alive for its backward, measured as heap growth across the
  // forward (minus its output). Tolerance: 1% of the prediction plus 32 KiB per forward,
  // a constant that does not grow with the batch (autograd's graph nodes, malloc slack).
  // Measured at batch 32: GPT layers +24 KB per forward on 17.9 MB (0.14%), every other
  // block within 3.2 KB per forward.
  void stashMatchesRetainedMemory() {
    QFETCH(QString, model);
    const job::ModelSpec spec = spec_named(model);
    const BlockChain chain(spec, 1);
    const auto costs = chain.costs();
    const int64_t batch = 32;
    for (int64_t i = 0; i < chain.block_count(); ++i) {
      model::Shard block = chain.shard({i, i + 1});
      block.set_training(true);
      const torch::Tensor x = input_for(spec, i, batch), targets = targets_for(spec, batch);
      run_backward(run_forward(block, x, targets));  // warm-up: gradients allocated now
      torch::Tensor out;
      const int64_t before = heap_in_use();
      out = block.forward(x);
      torch::Tensor loss = block.holds_last_block() ? block.loss(out, targets) : torch::Tensor();
      const int64_t held = heap_in_use() - before - int64_t(out.numel() * out.element_size());
      const double measured = double(held) / double(batch);
      const double predicted = double(costs[size_t(i)].stash_bytes_per_sample);
      const double tolerance = 0.01 * predicted + 32.0 * 1024 / double(batch);
      qInfo("%s block %lld (%s): stash predicted %.0f B/sample, measured %.0f", qPrintable(model),
            static_cast<long long>(i), costs[size_t(i)].kind.c_str(), predicted, measured);
      QVERIFY2(
          std::abs(measured - predicted) <= tolerance,
          qPrintable(
              QString("block %1: predicted %2, measured %3").arg(i).arg(predicted).arg(measured)));
      run_backward(loss.defined() ? loss : out);
    }
  }
};

QTEST_APPLESS_MAIN(TestCostModel)
#include "test_cost_model.moc"
