// The optimizer a stage steps after each (accumulated) backward, with the job's learning
// rate schedule applied per local step. Torch's optimizers stay inside the .cpp.
#pragma once

#include "job/job_spec.hpp"
#include "model/block_chain.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rookery::model {

class Optimizer {
 public:
  Optimizer(Optimizer&&) noexcept;
  Optimizer& operator=(Optimizer&&) noexcept;
  ~Optimizer();

  void zero_grad();

  /// Sets the scheduled learning rate for the current step, applies the gradients, and
  /// advances the step counter. Returns the learning rate it used.
  double step();

  /// Local optimizer steps taken so far; a resumed run sets it from its checkpoint so the
  /// schedule continues where it stopped.
  int64_t steps_taken() const;
  void set_steps_taken(int64_t steps);

  /// The rate the next step() will use.
  double next_learning_rate() const;

  /// The optimizer's state (Adam moments, momentum buffers) as bytes, for checkpoints.
  std::string save_state() const;
  /// Restores what save_state() wrote for the same parameters. Throws std::runtime_error
  /// if the bytes are not an optimizer state of this kind and shape.
  void load_state(const std::string& bytes);

  // ---- per-parameter state as flat buffers (averaging across pipelines, shard hand-over) ----
  // Each buffer is laid out like the parameters the optimizer was made for, flattened in
  // that order (for a stage: reduce::flatten_parameters' layout, block by block).

  /// The buffers this optimizer keeps: AdamW {"adamw.exp_avg", "adamw.exp_avg_sq"}; SGD
  /// with momentum {"sgd.momentum"}; SGD without momentum none.
  std::vector<std::string> state_buffer_names() const;
  /// Values in the flat layout: parameters [0, parameter_count()).
  int64_t parameter_count() const;
  /// Buffer `name`, flat; a parameter not stepped yet contributes zeros. Throws
  /// std::invalid_argument for a name not in state_buffer_names().
  std::vector<float> state_buffer(std::string_view name) const;
  /// Writes `values` into buffer `name` at flat offset `offset`, which with offset +
  /// values.size() must fall on parameter boundaries. A parameter without state yet gets
  /// it, with the other buffers at zero and AdamW's bias-correction step `moment_step`.
  /// Validates first and changes nothing when it throws std::invalid_argument: unknown
  /// name, bounds, a value that is not finite, a negative second moment.
  void write_state_buffer(std::string_view name, int64_t offset, std::span<const float> values,
                          int64_t moment_step);
  /// Forgets the state of the parameters in flat range [offset, offset + count) (on
  /// parameter boundaries): their next step starts from fresh moments, as a new optimizer's.
  void reset_state(int64_t offset, int64_t count);
  /// AdamW's bias-correction step of its moments (the largest over parameters; 0 before the
  /// first step, and always 0 for SGD).
  int64_t moment_step() const;
  /// The same over the parameters in flat range [offset, offset + count) (on parameter
  /// boundaries): how many steps those weights' moments have seen, which tells a block
  /// trained for long from one that restarted.
  int64_t moment_step(int64_t offset, int64_t count) const;

 private:
  friend Optimizer make_optimizer(const job::OptimizerSpec&, const std::vector<NamedTensor>&);
  struct Impl;
  explicit Optimizer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// AdamW or SGD (momentum, Nesterov) over `parameters`. Weight decay applies to tensors of
/// two or more dimensions (weights, embeddings, kernels) and never to biases or norm gains,
/// which decay would only pull towards zero without regularising anything.
Optimizer make_optimizer(const job::OptimizerSpec& spec,
                         const std::vector<NamedTensor>& parameters);

}  // namespace rookery::model
