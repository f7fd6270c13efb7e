#include "model/optimizer.hpp"

#include <torch/torch.h>

#include <sstream>
#include <stdexcept>

namespace rookery::model {

struct Optimizer::Impl {
    job::OptimizerSpec spec;
    std::unique_ptr<torch::optim::Optimizer> torch_optimizer;
    int64_t steps = 0;
};

Optimizer::Optimizer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Optimizer::Optimizer(Optimizer&&) noexcept = default;
Optimizer& Optimizer::operator=(Optimizer&&) noexcept = default;
Optimizer::~Optimizer() = default;

void Optimizer::zero_grad() { impl_->torch_optimizer->zero_grad(); }

double Optimizer::step() {
    const double lr = next_learning_rate();
    for (auto& group : impl_->torch_optimizer->param_groups()) group.options().set_lr(lr);
    impl_->torch_optimizer->step();
    ++impl_->steps;
    return lr;
}

int64_t Optimizer::steps_taken() const { return impl_->steps; }

void Optimizer::set_steps_taken(int64_t steps) {
    if (steps < 0) throw std::invalid_argument("Optimizer::set_steps_taken: negative step count");
    impl_->steps = steps;
}

std::string Optimizer::save_state() const {
    torch::serialize::OutputArchive archive;
    impl_->torch_optimizer->save(archive);
    std::ostringstream out;
    archive.save_to(out);
    return out.str();
}

void Optimizer::load_state(const std::string& bytes) {
    try {
        std::istringstream in(bytes);
        torch::serialize::InputArchive archive;
        archive.load_from(in);
        impl_->torch_optimizer->load(archive);
    } catch (const c10::Error& e) {
        throw std::runtime_error(std::string("optimizer state does not fit this optimizer: ") + e.what_without_backtrace());
    }
}

double Optimizer::next_learning_rate() const { return job::learning_rate_at(impl_->spec, impl_->steps); }

Optimizer make_optimizer(const job::OptimizerSpec& spec, const std::vector<NamedTensor>& parameters) {
    if (parameters.empty()) throw std::invalid_argument("make_optimizer: no parameters");
    std::vector<torch::Tensor> decayed, plain;
    for (const auto& p : parameters) (p.tensor.dim() >= 2 ? decayed : plain).push_back(p.tensor);

    auto impl = std::make_unique<Optimizer::Impl>();
    impl->spec = spec;
    const double lr = job::learning_rate_at(spec, 0);
    if (spec.kind == job::OptimizerKind::adamw) {
        auto options = [&](double weight_decay) {
            return std::make_unique<torch::optim::AdamWOptions>(
                torch::optim::AdamWOptions(lr)
                    .betas({spec.betas[0], spec.betas[1]})
                    .eps(spec.eps)
                    .weight_decay(weight_decay));
        };
        std::vector<torch::optim::OptimizerParamGroup> groups;
        if (!decayed.empty()) groups.emplace_back(decayed, options(spec.weight_decay));
        if (!plain.empty()) groups.emplace_back(plain, options(0.0));
        impl->torch_optimizer = std::make_unique<torch::optim::AdamW>(std::move(groups), *options(0.0));
    } else {
        auto options = [&](double weight_decay) {
            return std::make_unique<torch::optim::SGDOptions>(torch::optim::SGDOptions(lr)
                                                                  .momentum(spec.momentum)
                                                                  .nesterov(spec.nesterov)
                                                                  .weight_decay(weight_decay));
        };
        std::vector<torch::optim::OptimizerParamGroup> groups;
        if (!decayed.empty()) groups.emplace_back(decayed, options(spec.weight_decay));
        if (!plain.empty()) groups.emplace_back(plain, options(0.0));
        impl->torch_optimizer = std::make_unique<torch::optim::SGD>(std::move(groups), *options(0.0));
    }
    return Optimizer(std::move(impl));
}

}  // namespace rookery::model
