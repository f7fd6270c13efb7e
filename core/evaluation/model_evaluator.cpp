#include "evaluation/model_evaluator.hpp"

#include <torch/torch.h>

#include <algorithm>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

#include "clock/clock.hpp"
#include "data/batch.hpp"
#include "evaluation/text_sampler.hpp"
#include "model/block_chain.hpp"
#include "pipeline/checkpoint_export.hpp"
#include "pipeline/shard_snapshot.hpp"

namespace rookery::evaluation {

namespace {

constexpr std::int64_t kBatch = 32;  // held-out samples per forward pass
constexpr int kPredictions = 16;     // a classifier's examples shown
constexpr std::size_t kPromptBytes = 40;
constexpr std::int64_t kTextBytes = 160;
constexpr double kTemperature = 0.8;  // below 1: fewer unlikely bytes, still not the argmax loop

// splitmix64's finaliser: seeds that differ in one bit give unrelated streams.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

model::Shard build_model(const job::JobSpec& job) {
  try {
    auto whole = model::BlockChain::from_job(job).whole();
    whole.set_training(false);
    return whole;
  } catch (const std::exception& e) {
    throw EvaluationError("job " + job.id + ": its model cannot be built: " + e.what());
  }
}

// A language model over bytes writes text people can read; a tokens dataset's ids are no
// bytes, so such a model is scored by its loss alone.
bool writes_text(const job::JobSpec& job) {
  return job.model.kind() == job::ModelKind::gpt && job.dataset.kind == job::DatasetKind::text;
}

}  // namespace

struct ModelEvaluator::Impl {
  Impl(job::JobSpec j, std::shared_ptr<const data::Dataset> d, std::int64_t max_samples)
      : job(std::move(j)), dataset(std::move(d)), model(build_model(job)) {
    if (!dataset) throw EvaluationError("job " + job.id + ": no dataset to evaluate on");
    const std::int64_t held = dataset->held_out_size();
    if (held == 0) {
      throw EvaluationError("job " + job.id +
                            ": its dataset keeps no held-out part (dataset.held_out is 0), so "
                            "there is nothing to evaluate the model on");
    }
    if (max_samples < 1)
      throw EvaluationError("max_samples must be >= 1, got " + std::to_string(max_samples));
    samples = std::min(max_samples, held);
    try {
      read_samples(held);
      if (writes_text(job)) prompt = choose_prompt(held_out_text(0), kPromptBytes);
    } catch (const std::exception& e) {
      throw EvaluationError("job " + job.id + ": its held-out samples cannot be read: " + e.what());
    }
  }

  // Sample i of `samples` is held-out sample i * held / samples: the whole held-out part, not
  // its start (one file's, or one stripe's), and the same ones for every snapshot.
  void read_samples(std::int64_t held) {
    for (std::int64_t first = 0; first < samples; first += kBatch) {
      const std::int64_t count = std::min(kBatch, samples - first);
      std::vector<torch::Tensor> inputs, targets;
      for (std::int64_t i = first; i < first + count; ++i) {
        const auto one = data::make_held_out_batch(*dataset, i * held / samples, 1);
        inputs.push_back(one.inputs);
        targets.push_back(one.targets);
      }
      batches.push_back(data::Batch{.inputs = torch::cat(inputs),
                                    .targets = torch::cat(targets),
                                    .first_sample_id = first,
                                    .count = count,
                                    .held_out = true});
    }
  }

  // A held-out window's bytes: its inputs and the one byte its targets add.
  std::string held_out_text(std::int64_t index) const {
    const auto window = data::make_held_out_batch(*dataset, index, 1);
    const auto tokens = torch::cat({window.inputs[0], window.targets[0].slice(0, -1)});
    const auto* ids = tokens.data_ptr<std::int64_t>();
    std::string bytes;
    for (std::int64_t i = 0; i < tokens.numel(); ++i)
      bytes.push_back(static_cast<char>(static_cast<unsigned char>(ids[i])));
    return bytes;
  }

  // The snapshot's parameters into `model`.
  void load(const pipeline::ShardSnapshot& snapshot, std::uint64_t seq) {
    pipeline::CheckpointModel whole;
    try {
      whole =
          pipeline::model_from_snapshot(job, snapshot, "archive snapshot " + std::to_string(seq));
    } catch (const std::exception& e) {
      throw EvaluationError(e.what());
    }
    auto parameters = model.parameters();
    if (parameters.size() != whole.parameters.size())
      throw EvaluationError("archive snapshot " + std::to_string(seq) +
                            " does not have the job's parameters");
    torch::NoGradGuard no_grad;
    for (std::size_t i = 0; i < parameters.size(); ++i) {
      if (parameters[i].name != whole.parameters[i].name)
        throw EvaluationError("archive snapshot " + std::to_string(seq) + " holds " +
                              whole.parameters[i].name + " where the model has " +
                              parameters[i].name);
      parameters[i].tensor.copy_(whole.parameters[i].tensor);
    }
  }

  void score(wire::pb::Evaluation& out) {
    torch::NoGradGuard no_grad;
    const bool classifier = job.model.kind() != job::ModelKind::gpt;
    double loss = 0;
    std::int64_t correct = 0;
    for (const auto& batch : batches) {
      const auto logits = model.forward(batch.inputs);
      loss += model.loss(logits, batch.targets).item<double>() * double(batch.count);
      if (!classifier) continue;
      const auto predicted = logits.argmax(1).contiguous();
      const auto targets = batch.targets.contiguous();
      correct += predicted.eq(targets).sum().item<std::int64_t>();
      for (std::int64_t i = 0; i < batch.count && out.predictions_size() < kPredictions; ++i) {
        auto* p = out.add_predictions();
        p->set_label(targets.data_ptr<std::int64_t>()[i]);
        p->set_predicted(predicted.data_ptr<std::int64_t>()[i]);
      }
    }
    out.set_validation_loss(loss / double(samples));
    if (classifier) out.set_accuracy(double(correct) / double(samples));
  }

  void write_text(wire::pb::Evaluation& out, std::uint64_t seq) {
    const auto context = std::get<job::GptSpec>(job.model.arch).context;
    const auto text =
        sample_text(model, context, prompt, kTextBytes, kTemperature, mix(job.seed ^ mix(seq)));
    out.set_prompt(valid_utf8(prompt));
    out.set_text(valid_utf8(text));
  }

  const job::JobSpec job;
  const std::shared_ptr<const data::Dataset> dataset;
  std::int64_t samples = 0;
  std::vector<data::Batch> batches;  // the held-out samples, read once
  std::string prompt;                // raw bytes; empty unless writes_text(job)
  std::mutex mutex;                  // model: one evaluation loads its parameters at a time
  model::Shard model;
};

ModelEvaluator::ModelEvaluator(job::JobSpec job, std::shared_ptr<const data::Dataset> dataset,
                               std::int64_t max_samples)
    : impl_(std::make_unique<Impl>(std::move(job), std::move(dataset), max_samples)) {}

ModelEvaluator::~ModelEvaluator() = default;

std::int64_t ModelEvaluator::samples() const { return impl_->samples; }

wire::pb::Evaluation ModelEvaluator::evaluate(const pipeline::ShardSnapshot& snapshot,
                                              std::uint64_t seq) const {
  auto& m = *impl_;
  const std::lock_guard lock(m.mutex);
  m.load(snapshot, seq);
  wire::pb::Evaluation out;
  out.set_snapshot(seq);
  out.set_held_out_samples(m.samples);
  try {
    m.score(out);
    if (writes_text(m.job)) m.write_text(out, seq);
  } catch (const std::exception& e) {
    throw EvaluationError("evaluating archive snapshot " + std::to_string(seq) + " of job " +
                          m.job.id + ": " + e.what());
  }
  out.set_unix_ms(clock::unix_ms());
  return out;
}

}  // namespace rookery::evaluation
