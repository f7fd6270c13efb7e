// Datasets as the first pipeline stage reads them: a fixed number of samples per epoch,
// each read by data position into caller-provided buffers. Torch-free: tensors are made in
// one place, make_batch (data/batch.hpp), from the samples a Dataset writes.
#pragma once

#include "data/sample_order.hpp"

#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace rookery::data {

/// A file that is missing, short, corrupt or does not fit the model. what() starts with
/// the path and says what is wrong.
class DatasetError : public std::runtime_error {
 public:
  DatasetError(const std::filesystem::path& path, const std::string& problem)
      : std::runtime_error(path.string() + ": " + problem) {}
};

/// Shape of one sample. Inputs are int64 token ids or fp32 pixels; targets are always
/// int64 (next tokens or a class id).
struct SampleLayout {
  enum class Input { tokens, pixels };
  Input input = Input::tokens;
  std::vector<int64_t> input_shape;   ///< e.g. {context} or {channels, height, width}
  std::vector<int64_t> target_shape;  ///< {context} for language models, {} for a class id

  int64_t input_elements() const;
  int64_t target_elements() const;
};

/// Where read() writes one sample: `tokens` or `pixels` (whichever the layout names) and
/// `targets`, each exactly as long as the layout says.
struct SampleSlot {
  std::span<int64_t> tokens;
  std::span<float> pixels;
  std::span<int64_t> targets;
};

class Dataset {
 public:
  virtual ~Dataset() = default;

  virtual SampleLayout layout() const = 0;
  /// Writes the sample at data position [0, size()); throws DatasetError if the data
  /// there is invalid (a token id beyond the vocabulary, a label beyond the classes).
  virtual void read(int64_t position, const SampleSlot& slot) const = 0;

  /// Samples per epoch (distinct data positions), the held-out part excluded.
  int64_t size() const { return order_.size(); }
  /// The data position sample `sample_id` reads (see SampleOrder); never a held-out one.
  int64_t position_of(int64_t sample_id) const { return order_.position(sample_id); }

  /// Held-out samples (DatasetSpec::held_out): data no sample id reads, kept for evaluation.
  /// They are fixed by the data alone, so every process and every call reads the same ones.
  int64_t held_out_size() const { return held_out_size_; }
  /// Writes held-out sample `index`; throws std::out_of_range unless 0 <= index <
  /// held_out_size(), and DatasetError like read().
  void read_held_out(int64_t index, const SampleSlot& slot) const {
    if (index < 0 || index >= held_out_size_)
      throw std::out_of_range("held-out sample " + std::to_string(index) + " is outside [0, " +
                              std::to_string(held_out_size_) + ")");
    read_held_out_sample(index, slot);
  }

 protected:
  Dataset(int64_t size, int64_t held_out_size, uint64_t order_seed, bool shuffle)
      : order_(size, order_seed, shuffle), held_out_size_(held_out_size) {}

 private:
  virtual void read_held_out_sample(int64_t index, const SampleSlot& slot) const = 0;

  SampleOrder order_;
  int64_t held_out_size_;
};

/// How many of `count` units (tokens, images) `fraction` of them holds, rounded down; throws
/// DatasetError for `path` when a non-zero fraction holds fewer than `at_least` units.
int64_t held_out_units(int64_t count, double fraction, int64_t at_least,
                       const std::filesystem::path& path, const char* unit);

}  // namespace rookery::data
