#pragma once
// The coordinator's evaluation of the model its archive keeps: each snapshot of the whole
// model is scored on the job's held-out samples, the same ones every time, so the numbers of
// successive snapshots compare. A language model also writes a short text after a prompt from
// held-out text (seeded by the snapshot, so one snapshot always writes the same); a classifier
// shows its predictions for a few held-out examples and its accuracy.
//
// Torch stays in the .cpp: the coordinator includes this header.
#include <cstdint>
#include <memory>
#include <stdexcept>

#include "data/dataset.hpp"
#include "job/job_spec.hpp"
#include "rookery/coordinator.pb.h"

namespace rookery::pipeline {
struct ShardSnapshot;
}

namespace rookery::evaluation {

struct EvaluationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ModelEvaluator {
 public:
  // Reads n = min(max_samples, held_out_size()) held-out samples spread evenly over the
  // held-out part, and builds the job's model. Throws EvaluationError when the dataset has no
  // held-out part, its samples cannot be read, or the job's model cannot be built.
  ModelEvaluator(job::JobSpec job, std::shared_ptr<const data::Dataset> dataset,
                 std::int64_t max_samples = 256);
  ~ModelEvaluator();
  ModelEvaluator(const ModelEvaluator&) = delete;
  ModelEvaluator& operator=(const ModelEvaluator&) = delete;

  // Evaluates the whole model in `snapshot` (blocks [0, n) of the job's model), archive
  // snapshot number `seq`. Throws EvaluationError naming the problem: the snapshot does not
  // cover the model or its size does not match. Calls are serialised (one model is loaded
  // per call); each takes about one forward pass over the samples, plus 160 for a text.
  wire::pb::Evaluation evaluate(const pipeline::ShardSnapshot& snapshot, std::uint64_t seq) const;

  // How many held-out samples the loss averages.
  std::int64_t samples() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rookery::evaluation
