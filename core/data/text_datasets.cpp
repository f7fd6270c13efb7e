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

TokenSplit split_tokens(int64_t tokens, int64_t context, int64_t stride, double held_out,
                        const std::filesystem::path& path, const char* unit) {
  if (context < 1 || stride < 1) throw DatasetError(path, "context and stride must be >= 1");
  const int64_t held = held_out_units(tokens, held_out, context + 1, path, unit);
  TokenSplit split;
  split.held_out_first = tokens - held;
  // At most half is held out, so training keeps at least one window whenever it holds one.
  if (held > 0) split.held_out_windows = window_count(held, context, context, path, unit);
  split.train_windows = window_count(split.held_out_first, context, stride, path, unit);
  return split;
}

std::vector<std::byte> fortune_text(std::span<const std::byte> file) {
  std::vector<std::byte> out;
  out.reserve(file.size() + 2);
  bool ended_cookie = false;
  size_t at = 0;
  while (at < file.size()) {
    size_t end = at;
    while (end < file.size() && file[end] != std::byte{'\n'}) ++end;
    const bool separator = end - at == 1 && file[at] == std::byte{'%'};
    if (separator)
      out.push_back(std::byte{'\n'});
    else
      out.insert(out.end(), file.begin() + ptrdiff_t(at),
                 file.begin() + ptrdiff_t(std::min(end + 1, file.size())));
    ended_cookie = separator;
    at = end + 1;
  }
  if (!out.empty() && !ended_cookie) {
    if (out.back() != std::byte{'\n'}) out.push_back(std::byte{'\n'});
    out.push_back(std::byte{'\n'});
  }
  return out;
}

// ---- TextBytesDataset ----------------------------------------------------------------------

struct TextBytesDataset::Loaded {
  std::vector<std::filesystem::path> files;
  std::optional<MappedFile> single;
  std::vector<std::byte> joined;
  TokenSplit split;
};

namespace {
// A folder, or any fortune-format text, joined in memory in file order.
std::vector<std::byte> load_text(const std::vector<std::filesystem::path>& files,
                                 job::TextFormat format) {
  std::vector<std::byte> joined;
  for (const auto& f : files) {
    const MappedFile file(f);
    if (format == job::TextFormat::fortune) {
      const auto text = fortune_text(file.bytes());
      joined.insert(joined.end(), text.begin(), text.end());
    } else {
      joined.insert(joined.end(), file.bytes().begin(), file.bytes().end());
    }
  }
  return joined;
}
}  // namespace

TextBytesDataset::TextBytesDataset(const std::filesystem::path& path, int64_t context,
                                   int64_t stride, uint64_t order_seed, bool shuffle,
                                   double held_out, job::TextFormat format)
    : TextBytesDataset(
          [&] {
            Loaded loaded{.files = text_files(path, format), .single = {}, .joined = {}, .split = {}};
            int64_t bytes = 0;
            if (format == job::TextFormat::plain && loaded.files.size() == 1 &&
                loaded.files.front() == path) {
              loaded.single.emplace(path);  // one plain file: mapped, not copied
              bytes = int64_t(loaded.single->bytes().size());
            } else {
              loaded.joined = load_text(loaded.files, format);
              bytes = int64_t(loaded.joined.size());
            }
            loaded.split = split_tokens(bytes, context, stride, held_out, path, "bytes");
            return loaded;
          }(),
          context, stride, order_seed, shuffle) {}

TextBytesDataset::TextBytesDataset(Loaded&& loaded, int64_t context, int64_t stride,
                                   uint64_t order_seed, bool shuffle)
    : Dataset(loaded.split.train_windows, loaded.split.held_out_windows, order_seed, shuffle),
      files_(std::move(loaded.files)),
      single_(std::move(loaded.single)),
      joined_(std::move(loaded.joined)),
      context_(context),
      stride_(stride),
      held_out_first_(loaded.split.held_out_first) {}

std::span<const std::byte> TextBytesDataset::text() const {
  return single_ ? single_->bytes() : std::span<const std::byte>(joined_);
}

SampleLayout TextBytesDataset::layout() const {
  return {
      .input = SampleLayout::Input::tokens, .input_shape = {context_}, .target_shape = {context_}};
}

void TextBytesDataset::read(int64_t position, const SampleSlot& slot) const {
  read_window(position * stride_, slot);
}

void TextBytesDataset::read_held_out_sample(int64_t index, const SampleSlot& slot) const {
  read_window(held_out_first_ + index * context_, slot);
}

void TextBytesDataset::read_window(int64_t first, const SampleSlot& slot) const {
  const auto window = text().subspan(size_t(first), size_t(context_ + 1));
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
                                   int64_t stride, int64_t vocab, uint64_t order_seed, bool shuffle,
                                   double held_out)
    : TokenFileDataset(open_token_file(path), held_out, context, stride, vocab, order_seed,
                       shuffle) {}

TokenFileDataset::TokenFileDataset(MappedFile&& file, double held_out, int64_t context,
                                   int64_t stride, int64_t vocab, uint64_t order_seed, bool shuffle)
    : TokenFileDataset(std::move(file),
                       split_tokens(int64_t(file.bytes().size() / 2), context, stride, held_out,
                                    file.path(), "tokens"),
                       context, stride, vocab, order_seed, shuffle) {}

TokenFileDataset::TokenFileDataset(MappedFile&& file, TokenSplit split, int64_t context,
                                   int64_t stride, int64_t vocab, uint64_t order_seed, bool shuffle)
    : Dataset(split.train_windows, split.held_out_windows, order_seed, shuffle),
      file_(std::move(file)),
      context_(context),
      stride_(stride),
      vocab_(vocab),
      held_out_first_(split.held_out_first) {}

SampleLayout TokenFileDataset::layout() const {
  return {
      .input = SampleLayout::Input::tokens, .input_shape = {context_}, .target_shape = {context_}};
}

void TokenFileDataset::read(int64_t position, const SampleSlot& slot) const {
  read_window(position * stride_, slot);
}

void TokenFileDataset::read_held_out_sample(int64_t index, const SampleSlot& slot) const {
  read_window(held_out_first_ + index * context_, slot);
}

void TokenFileDataset::read_window(int64_t first, const SampleSlot& slot) const {
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
