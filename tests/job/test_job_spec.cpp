#include "job/job_spec.hpp"

#include <nlohmann/json.hpp>

#include <QtTest/QtTest>

#include <cmath>
#include <fstream>

using namespace rookery::job;
using nlohmann::json;

namespace {

// A complete, valid spec; the invalid cases below each break one thing in it.
json valid_gpt_doc() {
  return json::parse(R"({
      "id": "bytes-gpt.v1",
      "name": "Byte GPT",
      "model": {"kind": "gpt", "vocab": 256, "context": 64, "width": 128, "depth": 4,
                "heads": 4, "mlp_ratio": 4, "dropout": 0.1},
      "dataset": {"kind": "text", "path": "data/corpus.txt", "stride": 1, "shuffle": true},
      "optimizer": {"kind": "adamw", "lr": 0.003, "betas": [0.9, 0.95], "eps": 1e-8,
                    "weight_decay": 0.1,
                    "schedule": {"warmup_steps": 20, "decay": "cosine", "total_steps": 1000,
                                 "min_lr_ratio": 0.1}},
      "micro_batch_size": 16, "grad_accumulation": 2, "staleness": 3, "codec": "fp16",
      "averaging_period": 50, "seed": 1234
    })");
}

}  // namespace

class TestJobSpec : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void parsesEveryField() {
    const JobSpec s = parse_job_spec(valid_gpt_doc().dump(), "/jobs/demo");
    QCOMPARE(s.id, std::string("bytes-gpt.v1"));
    QCOMPARE(s.name, std::string("Byte GPT"));
    QVERIFY(s.model.kind() == ModelKind::gpt);
    const auto& g = std::get<GptSpec>(s.model.arch);
    QCOMPARE(g.vocab, 256);
    QCOMPARE(g.context, 64);
    QCOMPARE(g.width, 128);
    QCOMPARE(g.depth, 4);
    QCOMPARE(g.heads, 4);
    QCOMPARE(g.dropout, 0.1);
    QVERIFY(s.dataset.kind == DatasetKind::text);
    QCOMPARE(s.dataset.path.generic_string(), std::string("/jobs/demo/data/corpus.txt"));
    QVERIFY(s.optimizer.kind == OptimizerKind::adamw);
    QCOMPARE(s.optimizer.lr, 0.003);
    QCOMPARE(s.optimizer.betas[1], 0.95);
    QCOMPARE(s.optimizer.weight_decay, 0.1);
    QCOMPARE(s.optimizer.schedule.warmup_steps, 20);
    QVERIFY(s.optimizer.schedule.decay == LrDecay::cosine);
    QCOMPARE(s.micro_batch_size, 16);
    QCOMPARE(s.grad_accumulation, 2);
    QCOMPARE(s.staleness, 3);
    QVERIFY(s.codec == Codec::fp16);
    QCOMPARE(s.averaging_period, 50);
    QCOMPARE(s.seed, uint64_t{1234});
  }

  void defaultsApplyWhenOptionalFieldsAreAbsent() {
    const JobSpec s =
        parse_job_spec(R"({"id": "m", "model": {"kind": "mlp", "input": 4, "output": 3},
            "dataset": {"kind": "images", "path": "i.idx", "labels": "l.idx"},
            "optimizer": {"kind": "sgd", "lr": 0.1}})");
    QCOMPARE(s.name, std::string("m"));
    QVERIFY(std::get<MlpSpec>(s.model.arch).hidden.empty());
    QCOMPARE(s.dataset.path.generic_string(), std::string("i.idx"));  // no base dir: kept relative
    QCOMPARE(s.dataset.held_out, 0.0);  // nothing held out unless the owner asks
    QVERIFY(s.dataset.format == TextFormat::plain);
    QCOMPARE(s.staleness, 1);
    QVERIFY(s.codec == Codec::none);
    QVERIFY(s.optimizer.schedule.decay == LrDecay::constant);
    QVERIFY(s.aggregator == AggregatorSpec{});  // robust by default
    QVERIFY(s.aggregator.kind == AggregatorKind::centered_clip);
    QCOMPARE(s.aggregator.tau, 1.0);
    QCOMPARE(s.average_optimizer_state_every, 0);  // optimizer state averaging is opt-in
    // Averaging is the plain mean of the replicas, as outer steps on pseudo-gradients.
    QVERIFY(s.outer == OuterSpec{});
    QCOMPARE(s.outer.lr, 1.0);
    QCOMPARE(s.outer.momentum, 0.0);
    QVERIFY(s.outer.error_feedback);
    QCOMPARE(s.outer.anchor_sync_every, 8);
  }

  void parsesHeldOutAndTextFormat() {
    json doc = valid_gpt_doc();
    doc["dataset"]["held_out"] = 0.05;
    doc["dataset"]["format"] = "fortune";
    const JobSpec s = parse_job_spec(doc.dump());
    QCOMPARE(s.dataset.held_out, 0.05);
    QVERIFY(s.dataset.format == TextFormat::fortune);
    doc["dataset"]["held_out"] = 0.5;  // the bound itself is allowed
    QCOMPARE(parse_job_spec(doc.dump()).dataset.held_out, 0.5);

    // Specs built by hand are held to the same rules.
    const auto refused = [](JobSpec spec, const std::string& message) {
      try {
        validate(spec);
        return false;
      } catch (const JobSpecError& e) {
        return std::string(e.what()).find(message) != std::string::npos;
      }
    };
    JobSpec bad = s;
    bad.dataset.held_out = std::nan("");
    QVERIFY(refused(bad, "job.dataset.held_out: must be a finite number"));
    bad.dataset.held_out = 0.75;
    QVERIFY(refused(bad, "job.dataset.held_out: must be a fraction in [0, 0.5]"));
    bad = s;
    bad.dataset.kind = DatasetKind::tokens;
    QVERIFY(refused(bad,
                    "job.dataset.format: applies to text datasets only, got fortune for "
                    "tokens"));
  }

  void parsesOuterStep() {
    json doc = valid_gpt_doc();
    doc["outer"] = json::parse(
        R"({"lr": 0.7, "momentum": 0.9, "error_feedback": false, "anchor_sync_every": 4})");
    const JobSpec s = parse_job_spec(doc.dump());
    QCOMPARE(s.outer.lr, 0.7);
    QCOMPARE(s.outer.momentum, 0.9);
    QVERIFY(!s.outer.error_feedback);
    QCOMPARE(s.outer.anchor_sync_every, 4);
    QVERIFY(parse_job_spec(to_json(s)) == s);
  }

  void parsesClippingAndStalenessCorrection() {
    const JobSpec defaults = parse_job_spec(valid_gpt_doc().dump());
    QCOMPARE(defaults.max_grad_norm, 0.0);  // off unless the job asks
    QCOMPARE(defaults.staleness_lr_anneal_steps, 0);
    json doc = valid_gpt_doc();
    doc["max_grad_norm"] = 1.5;
    doc["staleness_lr_anneal_steps"] = 200;
    const JobSpec s = parse_job_spec(doc.dump());
    QCOMPARE(s.max_grad_norm, 1.5);
    QCOMPARE(s.staleness_lr_anneal_steps, 200);
    QVERIFY(parse_job_spec(to_json(s)) == s);
  }

  void parsesNesterovLookahead() {
    const JobSpec defaults = parse_job_spec(valid_gpt_doc().dump());
    QCOMPARE(defaults.nesterov_lookahead, 0.0);  // off unless the job asks
    // Left out of the JSON when off, so nodes that do not know the key still read the job.
    QVERIFY(!json::parse(to_json(defaults)).contains("nesterov_lookahead"));
    json doc = valid_gpt_doc();
    doc["nesterov_lookahead"] = 0.9;
    const JobSpec s = parse_job_spec(doc.dump());
    QCOMPARE(s.nesterov_lookahead, 0.9);
    QCOMPARE(json::parse(to_json(s))["nesterov_lookahead"].get<double>(), 0.9);
    QVERIFY(parse_job_spec(to_json(s)) == s);
  }

  void parsesAggregator() {
    json doc = valid_gpt_doc();
    doc["aggregator"] = json::parse(R"({"kind": "centered_clip", "tau": 2.5, "iterations": 20,
            "reject_norm_factor": 0, "weight_cap": 3})");
    const JobSpec s = parse_job_spec(doc.dump());
    QVERIFY(s.aggregator.kind == AggregatorKind::centered_clip);
    QCOMPARE(s.aggregator.tau, 2.5);
    QCOMPARE(s.aggregator.iterations, 20);
    QCOMPARE(s.aggregator.reject_norm_factor, 0.0);
    QCOMPARE(s.aggregator.weight_cap, 3.0);
    doc["aggregator"] = json::parse(R"({"kind": "mean"})");
    QVERIFY(parse_job_spec(doc.dump()).aggregator.kind == AggregatorKind::mean);
  }

  void parsesAveraging() {
    json doc = valid_gpt_doc();
    const JobSpec defaults = parse_job_spec(doc.dump());
    QVERIFY(defaults.averaging.verify == VerifyMode::automatic);
    QCOMPARE(defaults.averaging.validators, int64_t{2});
    QVERIFY(verifies_aggregation(defaults));  // CenteredClip, the default aggregator
    QVERIFY(to_json(defaults).find("\"averaging\"") == std::string::npos);  // old nodes read it
    doc["aggregator"] = json::parse(R"({"kind": "mean"})");
    QVERIFY(!verifies_aggregation(parse_job_spec(doc.dump())));  // auto: not with the mean
    doc["averaging"] = json::parse(R"({"verify": "on", "validators": 3})");
    const JobSpec on = parse_job_spec(doc.dump());
    QVERIFY(verifies_aggregation(on));
    QCOMPARE(on.averaging.validators, int64_t{3});
    QVERIFY(parse_job_spec(to_json(on)) == on);
    doc.erase("aggregator");
    doc["averaging"] = json::parse(R"({"verify": "off"})");
    QVERIFY(!verifies_aggregation(parse_job_spec(doc.dump())));
  }

  void parsesBoundaryCompression() {
    const JobSpec defaults = parse_job_spec(valid_gpt_doc().dump());
    QVERIFY(defaults.boundary.kind == BoundaryKind::none);  // off unless the job asks
    // A default spec's canonical JSON does not name it, so nodes that predate it read it.
    QVERIFY(to_json(defaults).find("boundary") == std::string::npos);
    json doc = valid_gpt_doc();
    doc["boundary"] = json::parse(R"({"kind": "lowrank", "rank": 24})");
    doc["spot_checks"] = json::parse(R"({"rate": 0, "probation": 0})");
    const JobSpec s = parse_job_spec(doc.dump());
    QVERIFY(s.boundary.kind == BoundaryKind::lowrank);
    QCOMPARE(s.boundary.rank, 24);
    QVERIFY(parse_job_spec(to_json(s)) == s);
    // A rank kept while the compression is off survives the round trip too.
    doc["boundary"] = json::parse(R"({"kind": "none", "rank": 8})");
    const JobSpec off = parse_job_spec(doc.dump());
    QCOMPARE(off.boundary.rank, 8);
    QVERIFY(parse_job_spec(to_json(off)) == off);
  }

  void refusesBoundaryCompressionOfOtherModels() {
    const auto cnn = json::parse(R"({"id": "cnn", "model": {"kind": "cnn", "channels": 3,
            "image_size": 32, "classes": 10, "widths": [16, 32]},
            "dataset": {"kind": "images", "path": "/d/img", "labels": "/d/lab"},
            "optimizer": {"lr": 0.05}, "boundary": {"kind": "lowrank", "rank": 4},
            "spot_checks": {"rate": 0, "probation": 0}})");
    try {
      parse_job_spec(cnn.dump());
      QFAIL("accepted lowrank boundaries on a cnn");
    } catch (const JobSpecError& e) {
      QVERIFY2(std::string(e.what()).starts_with("job.boundary.kind: lowrank needs a gpt model"),
               e.what());
    }
  }

  void acceptsBoundaryCompressionWithSpotChecks() {
    // Checks compare what crossed a compressed boundary with the same compression of exact
    // recomputations (pipeline/boundary_compression.hpp's as_received), so the two go together.
    json doc = valid_gpt_doc();
    doc["boundary"] = json::parse(R"({"kind": "lowrank", "rank": 24})");
    const JobSpec s = parse_job_spec(doc.dump());  // spot checks are on by default
    QVERIFY(s.boundary.kind == BoundaryKind::lowrank);
    QVERIFY(s.spot_checks.rate > 0 || s.spot_checks.probation > 0);
  }

  void roundTrips_data() {
    QTest::addColumn<QString>("doc");
    QTest::newRow("gpt") << QString::fromStdString(valid_gpt_doc().dump());
    QTest::newRow("cnn+sgd") << QString(R"({"id": "cnn", "model": {"kind": "cnn", "channels": 3,
            "image_size": 32, "classes": 10, "widths": [16, 32, 64]},
            "dataset": {"kind": "images", "path": "/d/img", "labels": "/d/lab", "shuffle": false},
            "optimizer": {"kind": "sgd", "lr": 0.05, "momentum": 0.9, "nesterov": true,
                          "weight_decay": 0.0005,
                          "schedule": {"warmup_steps": 0, "decay": "linear", "total_steps": 10}},
            "codec": "int8", "seed": 18446744073709551615})");
    QTest::newRow("mlp") << QString(R"({"id": "mlp", "model": {"kind": "mlp", "input": 784,
            "hidden": [256, 128], "output": 10},
            "dataset": {"kind": "images", "path": "/x", "labels": "/y"},
            "optimizer": {"lr": 0.001}})");
    json with_mean = valid_gpt_doc();
    with_mean["aggregator"] = {{"kind", "mean"}};
    QTest::newRow("gpt+mean") << QString::fromStdString(with_mean.dump());
    json with_clip = valid_gpt_doc();
    with_clip["aggregator"] = {{"tau", 0.5}, {"iterations", 7}, {"weight_cap", 0}};
    QTest::newRow("gpt+centered_clip") << QString::fromStdString(with_clip.dump());
    json held_out = valid_gpt_doc();
    held_out["dataset"]["held_out"] = 0.05;
    held_out["dataset"]["format"] = "fortune";
    QTest::newRow("gpt+held_out+fortune") << QString::fromStdString(held_out.dump());
    json lowrank = valid_gpt_doc();
    lowrank["boundary"] = {{"kind", "lowrank"}, {"rank", 8}};
    QTest::newRow("gpt+lowrank") << QString::fromStdString(lowrank.dump());
    QTest::newRow("images+held_out") << QString(R"({"id": "mlp", "model": {"kind": "mlp",
            "input": 784, "output": 10},
            "dataset": {"kind": "images", "path": "/x", "labels": "/y", "held_out": 0.1},
            "optimizer": {"lr": 0.001}})");
  }
  void roundTrips() {
    QFETCH(QString, doc);
    const JobSpec first = parse_job_spec(doc.toStdString());
    const std::string text = to_json(first);
    const JobSpec second = parse_job_spec(text);
    QVERIFY2(first == second, text.c_str());
    QCOMPARE(to_json(second), text);  // canonical form is a fixed point
  }

  void rejectsInvalidSpecs_data() {
    QTest::addColumn<QString>("pointer");  // JSON pointer to change; a leading '-' removes it
    QTest::addColumn<QString>("value");    // new value as JSON text
    QTest::addColumn<QString>("message");  // expected fragment of what()

    QTest::newRow("lr negative") << "/optimizer/lr"
                                 << "-1"
                                 << "job.optimizer.lr: must be > 0, got -1";
    QTest::newRow("lr zero") << "/optimizer/lr"
                             << "0"
                             << "job.optimizer.lr: must be > 0, got 0";
    QTest::newRow("lr string") << "/optimizer/lr"
                               << "\"fast\""
                               << "job.optimizer.lr: must be a number, got \"fast\"";
    QTest::newRow("lr missing") << "-/optimizer/lr"
                                << ""
                                << "job.optimizer.lr: is required";
    QTest::newRow("id missing") << "-/id"
                                << ""
                                << "job.id: is required";
    QTest::newRow("id chars") << "/id"
                              << "\"My Job\""
                              << "job.id: may contain only";
    QTest::newRow("typo top") << "/stalenes"
                              << "2"
                              << "job.stalenes: unknown key";
    QTest::newRow("typo model") << "/model/widht"
                                << "128"
                                << "job.model.widht: unknown key (expected one of: kind, vocab";
    QTest::newRow("cnn key on gpt") << "/model/widths"
                                    << "[8]"
                                    << "job.model.widths: unknown key";
    QTest::newRow("momentum on adamw") << "/optimizer/momentum"
                                       << "0.9"
                                       << "job.optimizer.momentum: unknown key";
    QTest::newRow("held_out above half") << "/dataset/held_out"
                                         << "0.6"
                                         << "job.dataset.held_out: must be a fraction in [0, 0.5] "
                                            "(0: no held-out part), got 0.6";
    QTest::newRow("held_out negative") << "/dataset/held_out"
                                       << "-0.1"
                                       << "job.dataset.held_out: must be a fraction in [0, 0.5] "
                                          "(0: no held-out part), got -0.1";
    QTest::newRow("held_out percent") << "/dataset/held_out"
                                      << "5"
                                      << "job.dataset.held_out: must be a fraction in [0, 0.5]";
    QTest::newRow("held_out string") << "/dataset/held_out"
                                     << "\"5%\""
                                     << "job.dataset.held_out: must be a number, got \"5%\"";
    QTest::newRow("text format") << "/dataset/format"
                                 << "\"fortunes\""
                                 << "job.dataset.format: must be one of plain, fortune; got "
                                    "\"fortunes\"";
    QTest::newRow("format on images") << "/dataset"
                                      << R"({"kind": "images", "path": "i", "labels": "l",
                                             "format": "plain"})"
                                      << "job.dataset.format: unknown key";
    QTest::newRow("labels on text") << "/dataset/labels"
                                    << "\"l\""
                                    << "job.dataset.labels: unknown key";
    QTest::newRow("typo schedule") << "/optimizer/schedule/warmup"
                                   << "5"
                                   << "job.optimizer.schedule.warmup: unknown key";
    QTest::newRow("model kind") << "/model/kind"
                                << "\"gtp\""
                                << "job.model.kind: must be one of gpt, cnn, mlp; got \"gtp\"";
    QTest::newRow("width not int") << "/model/width"
                                   << "128.5"
                                   << "job.model.width: must be an integer, got 128.5";
    QTest::newRow("width % heads") << "/model/width"
                                   << "130"
                                   << "job.model.width: must be divisible by heads (4), got 130";
    QTest::newRow("heads zero") << "/model/heads"
                                << "0"
                                << "job.model.heads: must be >= 1, got 0";
    QTest::newRow("depth zero") << "/model/depth"
                                << "0"
                                << "job.model.depth: must be >= 1, got 0";
    QTest::newRow("vocab too large") << "/model/vocab"
                                     << "70000"
                                     << "job.model.vocab: must be <= 65536, got 70000";
    QTest::newRow("vocab < bytes")
        << "/model/vocab"
        << "100"
        << "job.model.vocab: must be >= 256 for a text (bytes) dataset, got 100";
    QTest::newRow("dropout 1") << "/model/dropout"
                               << "1.0"
                               << "job.model.dropout: must be in [0, 1), got 1";
    QTest::newRow("images for gpt") << "/dataset"
                                    << R"({"kind": "images", "path": "a", "labels": "b"})"
                                    << "job.dataset.kind: images needs a cnn or mlp model, got gpt";
    QTest::newRow("stride zero") << "/dataset/stride"
                                 << "0"
                                 << "job.dataset.stride: must be >= 1, got 0";
    QTest::newRow("dataset path empty") << "/dataset/path"
                                        << "\"\""
                                        << "job.dataset.path: must not be empty";
    QTest::newRow("shuffle string") << "/dataset/shuffle"
                                    << "\"yes\""
                                    << "job.dataset.shuffle: must be true or false";
    QTest::newRow("betas one") << "/optimizer/betas"
                               << "[0.9]"
                               << "job.optimizer.betas: must be an array of two numbers";
    QTest::newRow("beta2 = 1") << "/optimizer/betas"
                               << "[0.9, 1.0]"
                               << "job.optimizer.betas[1]: must be in [0, 1), got 1";
    QTest::newRow("eps zero") << "/optimizer/eps"
                              << "0"
                              << "job.optimizer.eps: must be > 0, got 0";
    QTest::newRow("decay negative") << "/optimizer/weight_decay"
                                    << "-0.1"
                                    << "job.optimizer.weight_decay: must be >= 0, got -0.1";
    QTest::newRow("total <= warmup") << "/optimizer/schedule/total_steps"
                                     << "20"
                                     << "job.optimizer.schedule.total_steps: must be > "
                                        "warmup_steps (20) for cosine decay, got 20";
    QTest::newRow("decay kind")
        << "/optimizer/schedule/decay"
        << "\"exp\""
        << "job.optimizer.schedule.decay: must be one of cosine, linear, constant";
    QTest::newRow("min ratio") << "/optimizer/schedule/min_lr_ratio"
                               << "1.5"
                               << "job.optimizer.schedule.min_lr_ratio: must be in [0, 1], got 1.5";
    QTest::newRow("staleness 0") << "/staleness"
                                 << "0"
                                 << "job.staleness: must be >= 1, got 0";
    QTest::newRow("micro batch 0") << "/micro_batch_size"
                                   << "0"
                                   << "job.micro_batch_size: must be >= 1, got 0";
    QTest::newRow("grad accum") << "/grad_accumulation"
                                << "-2"
                                << "job.grad_accumulation: must be >= 1, got -2";
    QTest::newRow("clip negative") << "/max_grad_norm"
                                   << "-1"
                                   << "job.max_grad_norm: must be >= 0 (0: off), got -1";
    QTest::newRow("clip not a number") << "/max_grad_norm"
                                       << "\"1\""
                                       << "job.max_grad_norm: must be a number, got \"1\"";
    QTest::newRow("lr anneal negative") << "/staleness_lr_anneal_steps"
                                        << "-5"
                                        << "job.staleness_lr_anneal_steps: must be >= 0, got -5";
    QTest::newRow("lookahead 1") << "/nesterov_lookahead"
                                 << "1"
                                 << "job.nesterov_lookahead: must be in [0, 1) (0: off), got 1";
    QTest::newRow("lookahead negative")
        << "/nesterov_lookahead"
        << "-0.5"
        << "job.nesterov_lookahead: must be in [0, 1) (0: off), got -0.5";
    QTest::newRow("averaging 0") << "/averaging_period"
                                 << "0"
                                 << "job.averaging_period: must be >= 1, got 0";
    QTest::newRow("state averaging negative")
        << "/average_optimizer_state_every"
        << "-1"
        << "job.average_optimizer_state_every: must be >= 0, got -1";
    QTest::newRow("codec") << "/codec"
                           << "\"fp8\""
                           << "job.codec: must be one of none, fp16, bf16, int8; got \"fp8\"";
    QTest::newRow("boundary kind")
        << "/boundary"
        << R"({"kind": "svd", "rank": 8})"
        << "job.boundary.kind: must be one of none, lowrank; got \"svd\"";
    QTest::newRow("boundary rank zero") << "/boundary"
                                        << R"({"kind": "lowrank", "rank": 0})"
                                        << "job.boundary.rank: must be >= 1, got 0";
    QTest::newRow("boundary rank at width")
        << "/boundary"
        << R"({"kind": "lowrank", "rank": 128})"
        << "job.boundary.rank: must be below the model's width 128, got 128";
    QTest::newRow("boundary rank string") << "/boundary/rank"
                                          << "\"8\""
                                          << "job.boundary.rank";
    QTest::newRow("boundary typo") << "/boundary"
                                   << R"({"kind": "lowrank", "ranks": 8})"
                                   << "job.boundary.ranks: unknown key";
    QTest::newRow("boundary not object") << "/boundary"
                                         << "8"
                                         << "job.boundary";
    QTest::newRow("seed negative") << "/seed"
                                   << "-1"
                                   << "job.seed: must be a non-negative integer, got -1";
    QTest::newRow("model not object") << "/model"
                                      << "[1]"
                                      << "job.model: must be an object";
    QTest::newRow("cnn image size")
        << "/model"
        << R"({"kind": "cnn", "channels": 1, "image_size": 28, "classes": 10, "widths": [8, 8, 8]})"
        << "job.model.image_size: must be divisible by 2^3 = 8 (each stage halves it), got 28";
    QTest::newRow("cnn no stages")
        << "/model"
        << R"({"kind": "cnn", "channels": 1, "image_size": 28, "classes": 10, "widths": []})"
        << "job.model.widths: must list at least one conv stage";
    QTest::newRow("mlp hidden") << "/model"
                                << R"({"kind": "mlp", "input": 4, "hidden": [8, 0], "output": 2})"
                                << "job.model.hidden[1]: must be >= 1, got 0";
    QTest::newRow("aggregator kind")
        << "/aggregator/kind"
        << "\"median\""
        << "job.aggregator.kind: must be one of centered_clip, mean; got \"median\"";
    QTest::newRow("aggregator not object") << "/aggregator"
                                           << "\"mean\""
                                           << "job.aggregator: must be an object";
    QTest::newRow("tau zero") << "/aggregator/tau"
                              << "0"
                              << "job.aggregator.tau: must be > 0, got 0";
    QTest::newRow("tau string") << "/aggregator/tau"
                                << "\"wide\""
                                << "job.aggregator.tau: must be a number";
    QTest::newRow("iterations zero") << "/aggregator/iterations"
                                     << "0"
                                     << "job.aggregator.iterations: must be >= 1, got 0";
    QTest::newRow("iterations huge") << "/aggregator/iterations"
                                     << "100000"
                                     << "job.aggregator.iterations: must be <= 10000";
    QTest::newRow("reject factor")
        << "/aggregator/reject_norm_factor"
        << "0.5"
        << "job.aggregator.reject_norm_factor: must be 0 (off) or >= 1, got 0.5";
    QTest::newRow("weight cap") << "/aggregator/weight_cap"
                                << "-1"
                                << "job.aggregator.weight_cap: must be 0 (no cap) or >= 1, got -1";
    QTest::newRow("outer lr zero") << "/outer/lr"
                                   << "0"
                                   << "job.outer.lr: must be in (0, 2], got 0";
    QTest::newRow("outer momentum one") << "/outer/momentum"
                                        << "1"
                                        << "job.outer.momentum: must be in [0, 1), got 1";
    QTest::newRow("outer anchor sync") << "/outer/anchor_sync_every"
                                       << "0"
                                       << "job.outer.anchor_sync_every: must be >= 1, got 0";
    QTest::newRow("typo aggregator") << "/aggregator/taus"
                                     << "1"
                                     << "job.aggregator.taus: unknown key";
    QTest::newRow("tau on mean") << "/aggregator"
                                 << R"({"kind": "mean", "tau": 1})"
                                 << "job.aggregator.tau: unknown key";
    QTest::newRow("verify typo")
        << "/averaging"
        << R"({"verify": "yes"})"
        << "job.averaging.verify: must be one of auto, on, off; got \"yes\"";
    QTest::newRow("verify bool") << "/averaging"
                                 << R"({"verify": true})"
                                 << "job.averaging.verify: must be one of auto, on, off; got true";
    QTest::newRow("validators zero") << "/averaging"
                                     << R"({"validators": 0})"
                                     << "job.averaging.validators: must be in [1, 16]";
    QTest::newRow("validators many") << "/averaging"
                                     << R"({"validators": 17})"
                                     << "job.averaging.validators: must be in [1, 16]";
    QTest::newRow("validators text") << "/averaging"
                                     << R"({"validators": "2"})"
                                     << "job.averaging.validators: must be an integer";
    QTest::newRow("validators off") << "/averaging"
                                    << R"({"verify": "off", "validators": 3})"
                                    << "job.averaging.validators: has no effect without verified";
    QTest::newRow("averaging typo") << "/averaging"
                                    << R"({"validator": 3})"
                                    << "job.averaging.validator: unknown key";
    QTest::newRow("sgd nesterov") << "/optimizer"
                                  << R"({"kind": "sgd", "lr": 0.1, "nesterov": true})"
                                  << "job.optimizer.nesterov: requires momentum > 0";
  }
  void rejectsInvalidSpecs() {
    QFETCH(QString, pointer);
    QFETCH(QString, value);
    QFETCH(QString, message);
    json doc = valid_gpt_doc();
    if (pointer.startsWith('-')) {
      const json::json_pointer p(pointer.mid(1).toStdString());
      doc[p.parent_pointer()].erase(p.back());
    } else {
      doc[json::json_pointer(pointer.toStdString())] = json::parse(value.toStdString());
    }
    try {
      parse_job_spec(doc.dump());
      QFAIL("accepted an invalid spec");
    } catch (const JobSpecError& e) {
      QVERIFY2(std::string(e.what()).find(message.toStdString()) != std::string::npos, e.what());
    }
  }

  void rejectsMalformedJson() {
    QVERIFY_THROWS_EXCEPTION(JobSpecError, parse_job_spec("{\"id\": "));
    try {
      parse_job_spec("[1, 2]");
      QFAIL("accepted an array");
    } catch (const JobSpecError& e) {
      QVERIFY2(std::string(e.what()).starts_with("job: must be an object"), e.what());
    }
  }

  void loadsFromFileResolvingRelativePaths() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::filesystem::path folder = dir.path().toStdString();
    const auto file = folder / "job.json";
    std::ofstream(file) << valid_gpt_doc().dump(2);
    const JobSpec s = load_job_spec(file);
    QCOMPARE(s.dataset.path, (folder / "data/corpus.txt").lexically_normal());

    json bad = valid_gpt_doc();
    bad["optimizer"]["lr"] = -1;
    std::ofstream(folder / "bad.json") << bad.dump();
    try {
      load_job_spec(folder / "bad.json");
      QFAIL("accepted an invalid file");
    } catch (const JobSpecError& e) {
      const std::string what = e.what();
      QVERIFY2(what.find("bad.json: job.optimizer.lr: must be > 0, got -1") != std::string::npos,
               e.what());
    }
    QVERIFY_THROWS_EXCEPTION(JobSpecError, load_job_spec(folder / "missing.json"));
  }

  void learningRateSchedule_data() {
    QTest::addColumn<QString>("decay");
    QTest::addColumn<qint64>("step");
    QTest::addColumn<double>("expected");
    // lr 1.0, warm-up 10, total 110, floor 0.1
    QTest::newRow("warmup first") << "cosine" << qint64(0) << 0.1;
    QTest::newRow("warmup mid") << "cosine" << qint64(4) << 0.5;
    QTest::newRow("warmup last") << "cosine" << qint64(9) << 1.0;
    QTest::newRow("cosine start") << "cosine" << qint64(10) << 1.0;
    QTest::newRow("cosine half") << "cosine" << qint64(60) << 0.55;
    QTest::newRow("cosine end") << "cosine" << qint64(110) << 0.1;
    QTest::newRow("cosine after") << "cosine" << qint64(500) << 0.1;
    QTest::newRow("linear quarter") << "linear" << qint64(35) << 0.775;
    QTest::newRow("linear end") << "linear" << qint64(110) << 0.1;
    QTest::newRow("constant") << "constant" << qint64(1000) << 1.0;
  }
  void learningRateSchedule() {
    QFETCH(QString, decay);
    QFETCH(qint64, step);
    QFETCH(double, expected);
    OptimizerSpec o;
    o.lr = 1.0;
    o.schedule = {.warmup_steps = 10,
                  .decay = decay == "cosine"   ? LrDecay::cosine
                           : decay == "linear" ? LrDecay::linear
                                               : LrDecay::constant,
                  .total_steps = 110,
                  .min_lr_ratio = 0.1};
    QVERIFY2(std::abs(learning_rate_at(o, step) - expected) < 1e-12,
             qPrintable(QString::number(learning_rate_at(o, step))));
  }
};

QTEST_APPLESS_MAIN(TestJobSpec)
#include "test_job_spec.moc"
