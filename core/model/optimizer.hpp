// The optimizer a stage steps after each (accumulated) backward, with the job's learning
// rate schedule applied per local step. Torch's optimizers stay inside the .cpp.
#pragma once

#include "job/job_spec.hpp"
#include "model/block_chain.hpp"

#include <memory>
#include <string>
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

private:
    friend Optimizer make_optimizer(const job::OptimizerSpec&, const std::vector<NamedTensor>&);
    struct Impl;
    explicit Optimizer(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

/// AdamW or SGD (momentum, Nesterov) over `parameters`. Weight decay applies to tensors of
/// two or more dimensions (weights, embeddings, kernels) and never to biases or norm gains,
/// which decay would only pull towards zero without regularising anything.
Optimizer make_optimizer(const job::OptimizerSpec& spec, const std::vector<NamedTensor>& parameters);

}  // namespace rookery::model
