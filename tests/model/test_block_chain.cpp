#include <torch/torch.h>

#include "model/block_chain.hpp"
#include "model/optimizer.hpp"

#include <QtTest/QtTest>

#include <cmath>

using namespace rookery;
using model::BlockChain;
using model::BlockRange;
using model::Shard;

namespace {

job::ModelSpec small_gpt(double dropout = 0.0) {
  return {job::GptSpec{.vocab = 256,
                       .context = 16,
                       .width = 32,
                       .depth = 4,
                       .heads = 4,
                       .mlp_ratio = 4,
                       .dropout = dropout}};
}
job::ModelSpec small_cnn() {
  return {job::CnnSpec{.channels = 3, .image_size = 16, .classes = 5, .widths = {8, 16}}};
}
job::ModelSpec small_mlp() {
  return {job::MlpSpec{.input = 48, .hidden = {32, 24, 16}, .output = 7}};
}

job::ModelSpec spec_named(const QString& kind) {
  return kind == "gpt" ? small_gpt() : kind == "cnn" ? small_cnn() : small_mlp();
}

torch::Tensor example_input(const job::ModelSpec& spec, int64_t batch) {
  torch::manual_seed(99);
  switch (spec.kind()) {
    case job::ModelKind::gpt:
      return torch::randint(0, 256, {batch, std::get<job::GptSpec>(spec.arch).context});
    case job::ModelKind::cnn:
      return torch::rand({batch, 3, 16, 16});
    case job::ModelKind::mlp:
      return torch::rand({batch, 3, 4, 4});  // flattened by block 0
  }
  return {};
}

torch::Tensor example_targets(const job::ModelSpec& spec, int64_t batch) {
  switch (spec.kind()) {
    case job::ModelKind::gpt:
      return torch::randint(0, 256, {batch, std::get<job::GptSpec>(spec.arch).context});
    case job::ModelKind::cnn:
      return torch::randint(0, 5, {batch});
    case job::ModelKind::mlp:
      return torch::randint(0, 7, {batch});
  }
  return {};
}

// Cuts [0, n) into consecutive ranges of the given sizes.
std::vector<BlockRange> cut(const std::vector<int64_t>& sizes) {
  std::vector<BlockRange> ranges;
  int64_t first = 0;
  for (int64_t s : sizes) {
    ranges.push_back({first, first + s});
    first += s;
  }
  return ranges;
}

}  // namespace

class TestBlockChain : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { torch::set_num_threads(1); }

  void blockCounts() {
    QCOMPARE(BlockChain(small_gpt(), 1).block_count(), 6);  // embedding + 4 layers + head
    QCOMPARE(BlockChain(small_cnn(), 1).block_count(), 3);  // 2 stages + head
    QCOMPARE(BlockChain(small_mlp(), 1).block_count(), 4);  // 3 hidden + output
  }

  void shardsMatchTheWholeModel_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<std::vector<int64_t>>("sizes");
    QTest::newRow("gpt 2+2+2") << "gpt" << std::vector<int64_t>{2, 2, 2};
    QTest::newRow("gpt 1+4+1") << "gpt" << std::vector<int64_t>{1, 4, 1};
    QTest::newRow("gpt 1 each") << "gpt" << std::vector<int64_t>{1, 1, 1, 1, 1, 1};
    QTest::newRow("cnn 1+2") << "cnn" << std::vector<int64_t>{1, 2};
    QTest::newRow("cnn 1 each") << "cnn" << std::vector<int64_t>{1, 1, 1};
    QTest::newRow("mlp 2+2") << "mlp" << std::vector<int64_t>{2, 2};
    QTest::newRow("mlp 1+3") << "mlp" << std::vector<int64_t>{1, 3};
  }
  // The property a pipeline relies on: shards built separately (as on separate PCs) hold
  // exactly the whole model's initial parameters, and chaining their forwards is the
  // whole model's forward.
  void shardsMatchTheWholeModel() {
    QFETCH(QString, kind);
    QFETCH(std::vector<int64_t>, sizes);
    const job::ModelSpec spec = spec_named(kind);
    const BlockChain chain(spec, 2024);
    Shard whole = chain.whole();
    whole.set_training(false);

    std::vector<model::NamedTensor> pieces;
    torch::Tensor x = example_input(spec, 3);
    const torch::Tensor expected = whole.forward(x);
    for (const BlockRange& r : cut(sizes)) {
      Shard shard = chain.shard(r);  // built alone, from nothing but (spec, seed, range)
      shard.set_training(false);
      QCOMPARE(shard.holds_first_block(), r.first == 0);
      QCOMPARE(shard.holds_last_block(), r.last == chain.block_count());
      for (auto& p : shard.parameters()) pieces.push_back(p);
      x = shard.forward(x);
    }
    QVERIFY(torch::equal(x, expected));

    const auto all = whole.parameters();
    QCOMPARE(pieces.size(), all.size());
    for (size_t i = 0; i < all.size(); ++i) {
      QCOMPARE(pieces[i].name, all[i].name);
      QVERIFY2(torch::equal(pieces[i].tensor, all[i].tensor), all[i].name.c_str());
    }
  }

  // What a spot-check's verifier chain relies on: parts of other shards, run one after the
  // other, are the checked shard's forward. Here [0,2) against [0,1) and then the [1,2) part
  // of a shard that ends the model, [1,4) (the chain through a last stage of another cut).
  void partsOfShardsMatchAShard_data() {
    QTest::addColumn<QString>("kind");
    QTest::newRow("gpt") << "gpt";
    QTest::newRow("mlp") << "mlp";
  }
  void partsOfShardsMatchAShard() {
    QFETCH(QString, kind);
    const job::ModelSpec spec = spec_named(kind);
    const BlockChain chain(spec, 2024);
    const auto n = chain.block_count();
    QVERIFY(n >= 4);
    Shard checked = chain.shard({0, 2}), first = chain.shard({0, 1}), rest = chain.shard({1, n});
    for (Shard* s : {&checked, &first, &rest}) s->set_training(false);
    const torch::Tensor x = example_input(spec, 3);
    const torch::Tensor expected = checked.forward(x);
    const torch::Tensor composed = rest.forward(first.forward(x, {0, 1}), {1, 2});
    QCOMPARE(composed.sizes(), expected.sizes());
    QVERIFY(torch::equal(composed, expected));
  }

  void parameterNamesAreGlobalAndOrdered() {
    const BlockChain chain(small_gpt(), 1);
    const auto params = chain.shard({3, 4}).parameters();
    std::vector<std::string> names;
    for (const auto& p : params) names.push_back(p.name);
    const std::vector<std::string> expected{
        "block3.ln1.weight",    "block3.ln1.bias",         "block3.attn.qkv.weight",
        "block3.attn.qkv.bias", "block3.attn.proj.weight", "block3.attn.proj.bias",
        "block3.ln2.weight",    "block3.ln2.bias",         "block3.mlp.fc.weight",
        "block3.mlp.fc.bias",   "block3.mlp.proj.weight",  "block3.mlp.proj.bias"};
    QCOMPARE(names, expected);
    QCOMPARE(chain.shard({0, 1}).parameters().front().name, std::string("block0.tok.weight"));
    QCOMPARE(chain.shard({5, 6}).parameters().back().name, std::string("block5.head.weight"));
    QVERIFY(params[2].tensor.requires_grad());
  }

  void initialisationDependsOnSeedAndBlock() {
    const auto a = BlockChain(small_gpt(), 1).shard({1, 3}).parameters();
    const auto b = BlockChain(small_gpt(), 2).shard({1, 3}).parameters();
    // same seed, different layers: not copies of each other
    QVERIFY(!torch::equal(a[2].tensor, a[14].tensor));
    QCOMPARE(a[2].name, std::string("block1.attn.qkv.weight"));
    QCOMPARE(a[14].name, std::string("block2.attn.qkv.weight"));
    QVERIFY(!torch::equal(a[2].tensor, b[2].tensor));  // another seed, other weights
    // GPT-2 init: N(0, 0.02); residual projections scaled by 1/sqrt(2·depth)
    QVERIFY(std::abs(a[2].tensor.std().item<double>() - 0.02) < 0.002);
    QVERIFY(std::abs(a[4].tensor.std().item<double>() - 0.02 / std::sqrt(8.0)) < 0.001);
    // The global RNG is not what initialises blocks.
    torch::manual_seed(1);
    const auto c = BlockChain(small_gpt(), 1).shard({1, 3}).parameters();
    torch::manual_seed(12345);
    const auto d = BlockChain(small_gpt(), 1).shard({1, 3}).parameters();
    QVERIFY(torch::equal(c[2].tensor, d[2].tensor));
  }

  void lossOnlyOnTheLastShard_data() {
    QTest::addColumn<QString>("kind");
    QTest::newRow("gpt") << "gpt";
    QTest::newRow("cnn") << "cnn";
    QTest::newRow("mlp") << "mlp";
  }
  void lossOnlyOnTheLastShard() {
    QFETCH(QString, kind);
    const job::ModelSpec spec = spec_named(kind);
    const BlockChain chain(spec, 5);
    Shard front = chain.shard({0, 1});
    Shard back = chain.shard({1, chain.block_count()});
    const torch::Tensor x = example_input(spec, 4);
    const torch::Tensor targets = example_targets(spec, 4);
    const torch::Tensor logits = back.forward(front.forward(x));
    QVERIFY_THROWS_EXCEPTION(std::logic_error, front.loss(logits, targets));
    const torch::Tensor loss = back.loss(logits, targets);
    QCOMPARE(loss.dim(), 0);
    // At initialisation the predictions are close to uniform.
    const int64_t classes = logits.size(-1);
    QVERIFY2(std::abs(loss.item<double>() - std::log(double(classes))) < 0.5,
             qPrintable(QString::number(loss.item<double>())));
  }

  // The pipeline's backward: the last stage backpropagates the loss, sends the gradient of
  // its input to the previous stage, which continues from there. Gradients must equal
  // those of one backward through the whole model.
  void gradientsFlowAcrossShards() {
    const job::ModelSpec spec = small_gpt();
    const BlockChain chain(spec, 3);
    Shard whole = chain.whole();
    const torch::Tensor x = example_input(spec, 2), targets = example_targets(spec, 2);
    whole.loss(whole.forward(x), targets).backward();

    Shard first = chain.shard({0, 3}), second = chain.shard({3, 6});
    const torch::Tensor sent = first.forward(x);
    const torch::Tensor received = sent.detach().requires_grad_(true);
    second.loss(second.forward(received), targets).backward();
    sent.backward(received.grad());

    std::vector<model::NamedTensor> split = first.parameters();
    for (auto& p : second.parameters()) split.push_back(p);
    const auto reference = whole.parameters();
    for (size_t i = 0; i < reference.size(); ++i)
      QVERIFY2(torch::allclose(split[i].tensor.grad(), reference[i].tensor.grad(), 1e-5, 1e-7),
               reference[i].name.c_str());
  }

  void rejectsBadRanges() {
    const BlockChain chain(small_mlp(), 1);
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, chain.shard({2, 2}));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, chain.shard({-1, 2}));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, chain.shard({0, 5}));
    QVERIFY_THROWS_EXCEPTION(job::JobSpecError,
                             BlockChain(job::ModelSpec{job::GptSpec{.width = 30, .heads = 4}}, 1));
  }

  void gptRejectsTooLongInput() {
    Shard s = BlockChain(small_gpt(), 1).shard({0, 1});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, s.forward(torch::zeros({1, 17}, torch::kLong)));
    QCOMPARE(s.forward(torch::zeros({1, 5}, torch::kLong)).sizes().vec(),
             (std::vector<int64_t>{1, 5, 32}));
  }

  void dropoutOnlyInTraining() {
    Shard s = BlockChain(small_gpt(0.5), 1).shard({0, 2});
    const torch::Tensor x = example_input(small_gpt(), 2);
    s.set_training(false);
    QVERIFY(torch::equal(s.forward(x), s.forward(x)));
    s.set_training(true);
    QVERIFY(!torch::equal(s.forward(x), s.forward(x)));
  }

  void optimizersReduceLoss_data() {
    QTest::addColumn<QString>("optimizer");
    QTest::newRow("adamw") << R"({"kind": "adamw", "lr": 0.01, "weight_decay": 0.1,
                                      "schedule": {"warmup_steps": 5, "decay": "cosine", "total_steps": 40}})";
    QTest::newRow("sgd nesterov")
        << R"({"kind": "sgd", "lr": 0.2, "momentum": 0.9, "nesterov": true})";
  }
  void optimizersReduceLoss() {
    QFETCH(QString, optimizer);
    const std::string doc =
        R"({"id": "t", "model": {"kind": "mlp", "input": 48, "hidden": [32], "output": 7},
            "dataset": {"kind": "images", "path": "x", "labels": "y"}, "optimizer": )" +
        optimizer.toStdString() + "}";
    const job::JobSpec job = job::parse_job_spec(doc);
    Shard net = BlockChain::from_job(job).whole();
    auto opt = model::make_optimizer(job.optimizer, net.parameters());
    const torch::Tensor x = example_input(job.model, 32), y = example_targets(job.model, 32);
    double first = 0, last = 0;
    for (int step = 0; step < 40; ++step) {
      opt.zero_grad();
      const torch::Tensor loss = net.loss(net.forward(x), y);
      loss.backward();
      QCOMPARE(opt.next_learning_rate(), job::learning_rate_at(job.optimizer, step));
      QCOMPARE(opt.step(), job::learning_rate_at(job.optimizer, step));
      (step == 0 ? first : last) = loss.item<double>();
    }
    QCOMPARE(opt.steps_taken(), 40);
    QVERIFY2(last < 0.5 * first, qPrintable(QString("%1 -> %2").arg(first).arg(last)));
  }

  void weightDecaySparesBiasesAndNorms() {
    job::OptimizerSpec spec;
    spec.lr = 0.5;
    spec.weight_decay = 1.0;
    Shard s = BlockChain(small_gpt(), 1).shard({1, 2});
    auto params = s.parameters();
    auto opt = model::make_optimizer(spec, params);
    std::vector<torch::Tensor> before;
    for (auto& p : params) {
      before.push_back(p.tensor.detach().clone());
      p.tensor.mutable_grad() = torch::zeros_like(p.tensor);  // only decay can move them
    }
    opt.step();
    for (size_t i = 0; i < params.size(); ++i) {
      const bool matrix = params[i].tensor.dim() >= 2;
      QVERIFY2(torch::equal(params[i].tensor, before[i]) != matrix, params[i].name.c_str());
    }
  }
};

QTEST_APPLESS_MAIN(TestBlockChain)
#include "test_block_chain.moc"
