#include "data/text_datasets.hpp"
#include "data/text_files.hpp"

#include <algorithm>
#include <fstream>

namespace rookery::data {

int64_t window_count(int64_t tokens, int64_t context, int64_t stride,
                     const std::filesystem::path& path, const char* unit) {
  if (context < 1 || stride < 1) throw DatasetError(path, "context and stride must be >= 1");
  if (tokens < context + 1)
    throw DatasetError(path, "holds " + std::to_string(tokens) + " " + unit +
                                 ", fewer than one sample needs (context " +
                                 std::to_string(context) + " + 1)");
  return (tokens - (context + 1)) / stride + 1;
}

// ---- TextBytesDataset ----------------------------------------------------------------------

TextBytesDataset::TextBytesDataset(const std::filesystem::path& path, int64_t context,
                                   int64_t stride, uint64_t order_seed, bool shuffle)
    : TextBytesDataset(text_files(path), path, context, stride, order_seed, shuffle) {}

namespace {
int64_t total_bytes(const std::vector<std::filesystem::path>& files) {
  int64_t n = 0;
  for (const auto& f : files) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(f, ec);
    if (ec) throw DatasetError(f, "cannot read size: " + ec.message());
    n += int64_t(size);
  }
  return n;
}
}  // namespace

TextBytesDataset::TextBytesDataset(std::vector<std::filesystem::path> files,
                                   const std::filesystem::path& path, int64_t context,
                                   int64_t stride, uint64_t order_seed, bool shuffle)
    : Dataset(window_count(total_bytes(files), context, stride, path, "bytes"), order_seed,
              shuffle),
      files_(std::move(files)),
      context_(context),
      stride_(stride) {
  if (files_.size() == 1 && files_.front() == path) {
    single_.emplace(path);
  } else {
    for (const auto& f : files_) {
      const MappedFile file(f);
      joined_.insert(joined_.end(), file.bytes().begin(), file.bytes().end());
    }
  }
  // The file may have changed between sizing and reading it.
  if (int64_t(text().size()) < context_ + 1 + (size() - 1) * stride_)
    throw DatasetError(path, "changed while being opened");
}

std::span<const std::byte> TextBytesDataset::text() const {
  return single_ ? single_->bytes() : std::span<const std::byte>(joined_);
}

SampleLayout TextBytesDataset::layout() const {
  return {
      .input = SampleLayout::Input::tokens, .input_shape = {context_}, .target_shape = {context_}};
}

void TextBytesDataset::read(int64_t position, const SampleSlot& slot) const {
  const auto window = text().subspan(size_t(position * stride_), size_t(context_ + 1));
  for (int64_t t = 0; t < context_; ++t) {
    slot.tokens[size_t(t)] = int64_t(std::to_integer<uint8_t>(window[size_t(t)]));
    slot.targets[size_t(t)] = int64_t(std::to_integer<uint8_t>(window[size_t(t + 1)]));
  }
}

// ---- TokenFileDataset ----------------------------------------------------------------------

namespace {
MappedFile open_token_file(const std::filesystem::path& path) {
  MappedFile file(path);
  if (file.bytes().size() % 2 != 0)
    throw DatasetError(path, "size " + std::to_string(file.bytes().size()) +
                                 " bytes is not a whole number of uint16 tokens (truncated?)");
  return file;
}
}  // namespace

TokenFileDataset::TokenFileDataset(const std::filesystem::path& path, int64_t context,
                                   int64_t stride, int64_t vocab, uint64_t order_seed, bool shuffle)
    : TokenFileDataset(open_token_file(path), context, stride, vocab, order_seed, shuffle) {}

TokenFileDataset::TokenFileDataset(MappedFile file, int64_t context, int64_t stride, int64_t vocab,
                                   uint64_t order_seed, bool shuffle)
    : Dataset(
          window_count(int64_t(file.bytes().size() / 2), context, stride, file.path(), "tokens"),
          order_seed, shuffle),
      file_(std::move(file)),
      context_(context),
      stride_(stride),
      vocab_(vocab) {}

SampleLayout TokenFileDataset::layout() const {
  return {
      .input = SampleLayout::Input::tokens, .input_shape = {context_}, .target_shape = {context_}};
}

void TokenFileDataset::read(int64_t position, const SampleSlot& slot) const {
  const int64_t first = position * stride_;
  const auto bytes = file_.bytes();
  for (int64_t t = 0; t <= context_; ++t) {
    const size_t at = size_t(first + t) * 2;
    // Little-endian by definition of the format, whatever this machine's byte order.
    const int64_t id = int64_t(std::to_integer<uint16_t>(bytes[at])) |
                       (int64_t(std::to_integer<uint16_t>(bytes[at + 1])) << 8);
    if (id >= vocab_)
      throw DatasetError(file_.path(),
                         "token " + std::to_string(id) + " at index " + std::to_string(first + t) +
                             " is outside the vocabulary of " + std::to_string(vocab_));
    if (t < context_) slot.tokens[size_t(t)] = id;
    if (t > 0) slot.targets[size_t(t - 1)] = id;
  }
}

}  // namespace rookery::data
