#include "data/batch.hpp"

#include <torch/torch.h>

namespace rookery::data {

int64_t SampleLayout::input_elements() const {
  int64_t n = 1;
  for (int64_t d : input_shape) n *= d;
  return n;
}

int64_t SampleLayout::target_elements() const {
  int64_t n = 1;
  for (int64_t d : target_shape) n *= d;
  return n;
}

namespace {
// `count` samples, sample i written by read(i, slot).
template <typename Read>
Batch read_batch(const Dataset& dataset, int64_t first, int64_t count, bool held_out,
                 const Read& read) {
  const SampleLayout layout = dataset.layout();
  const bool tokens = layout.input == SampleLayout::Input::tokens;
  std::vector<int64_t> input_shape{count}, target_shape{count};
  input_shape.insert(input_shape.end(), layout.input_shape.begin(), layout.input_shape.end());
  target_shape.insert(target_shape.end(), layout.target_shape.begin(), layout.target_shape.end());

  Batch batch{.inputs = torch::empty(input_shape, tokens ? torch::kLong : torch::kFloat),
              .targets = torch::empty(target_shape, torch::kLong),
              .first_sample_id = first,
              .count = count,
              .held_out = held_out};
  const size_t in_n = size_t(layout.input_elements()), target_n = size_t(layout.target_elements());
  for (int64_t i = 0; i < count; ++i) {
    SampleSlot slot;
    if (tokens)
      slot.tokens = {batch.inputs.data_ptr<int64_t>() + size_t(i) * in_n, in_n};
    else
      slot.pixels = {batch.inputs.data_ptr<float>() + size_t(i) * in_n, in_n};
    slot.targets = {batch.targets.data_ptr<int64_t>() + size_t(i) * target_n, target_n};
    read(i, slot);
  }
  return batch;
}
}  // namespace

Batch make_batch(const Dataset& dataset, int64_t first_sample_id, int64_t count) {
  if (first_sample_id < 0 || count < 1)
    throw std::invalid_argument("make_batch: need first_sample_id >= 0 and count >= 1, got " +
                                std::to_string(first_sample_id) + " and " + std::to_string(count));
  return read_batch(dataset, first_sample_id, count, false, [&](int64_t i, const SampleSlot& slot) {
    dataset.read(dataset.position_of(first_sample_id + i), slot);
  });
}

Batch make_held_out_batch(const Dataset& dataset, int64_t first, int64_t count) {
  if (first < 0 || count < 1 || first + count > dataset.held_out_size())
    throw std::out_of_range("make_held_out_batch: held-out samples [" + std::to_string(first) +
                            ", " + std::to_string(first + count) + ") are not within the " +
                            std::to_string(dataset.held_out_size()) + " the dataset holds");
  return read_batch(dataset, first, count, true, [&](int64_t i, const SampleSlot& slot) {
    dataset.read_held_out(first + i, slot);
  });
}

}  // namespace rookery::data
