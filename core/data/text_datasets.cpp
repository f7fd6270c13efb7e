#include "data/text_datasets.hpp"
#include "data/text_files.hpp"

#include <algorithm>
#include <cmath>
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

namespace {
TokenSplit::Stripe split_stripe(int64_t tokens, int64_t context, int64_t stride, double held_out,
                                const std::filesystem::path& path, const char* unit) {
  const auto held = held_out > 0 ? int64_t(std::floor(double(tokens) * held_out)) : 0;
  TokenSplit::Stripe s;
  s.held_out_first = tokens - held;
  s.train_windows = window_count(s.held_out_first, context, stride, path, unit);
  if (held > 0) s.held_out_windows = window_count(held, context, context, path, unit);
  return s;
}

// Window `window` of stripes that each hold `per` of them but the last, which holds the rest.
std::pair<int64_t, int64_t> stripe_of(int64_t window, int64_t per, int64_t stripes) {
  const int64_t s = per > 0 ? std::min(window / per, stripes - 1) : stripes - 1;
  return {s, window - s * per};
}
}  // namespace

int64_t TokenSplit::train_start(int64_t window) const {
  const auto [s, k] = stripe_of(window, stripe.train_windows, stripes);
  return s * stripe_tokens + k * stride;
}

int64_t TokenSplit::held_out_start(int64_t window) const {
  const auto [s, k] = stripe_of(window, stripe.held_out_windows, stripes);
  const Stripe& part = s == stripes - 1 ? last : stripe;
  return s * stripe_tokens + part.held_out_first + k * context;
}

TokenSplit split_tokens(int64_t tokens, int64_t context, int64_t stride, double held_out,
                        const std::filesystem::path& path, const char* unit) {
  if (context < 1 || stride < 1) throw DatasetError(path, "context and stride must be >= 1");
  // Refuses a fraction out of range, or one that holds out less than one window in all.
  held_out_units(tokens, held_out, context + 1, path, unit);
  TokenSplit split;
  split.context = context;
  split.stride = stride;
  split.stripes = held_out > 0 ? std::max<int64_t>(1, tokens / kHeldOutStripeTokens) : 1;
  // Each stripe holds out at least one window (and so, holding out at most half of itself,
  // trains on at least one).
  while (split.stripes > 1 &&
         std::floor(double(tokens / split.stripes) * held_out) < double(context + 1))
    --split.stripes;
  split.stripe_tokens = tokens / split.stripes;
  const int64_t last_tokens = tokens - (split.stripes - 1) * split.stripe_tokens;
  if (split.stripes > 1)
    split.stripe = split_stripe(split.stripe_tokens, context, stride, held_out, path, unit);
  split.last = split_stripe(last_tokens, context, stride, held_out, path, unit);
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
            Loaded loaded{
                .files = text_files(path, format), .single = {}, .joined = {}, .split = {}};
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
    : Dataset(loaded.split.train_windows(), loaded.split.held_out_windows(), order_seed, shuffle),
      files_(std::move(loaded.files)),
      single_(std::move(loaded.single)),
      joined_(std::move(loaded.joined)),
      split_(loaded.split),
      context_(context) {}

std::span<const std::byte> TextBytesDataset::text() const {
  return single_ ? single_->bytes() : std::span<const std::byte>(joined_);
}

SampleLayout TextBytesDataset::layout() const {
  return {
      .input = SampleLayout::Input::tokens, .input_shape = {context_}, .target_shape = {context_}};
}

void TextBytesDataset::read(int64_t position, const SampleSlot& slot) const {
  read_window(split_.train_start(position), slot);
}

void TextBytesDataset::read_held_out_sample(int64_t index, const SampleSlot& slot) const {
  read_window(split_.held_out_start(index), slot);
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
    : Dataset(split.train_windows(), split.held_out_windows(), order_seed, shuffle),
      file_(std::move(file)),
      split_(split),
      context_(context),
      vocab_(vocab) {}

SampleLayout TokenFileDataset::layout() const {
  return {
      .input = SampleLayout::Input::tokens, .input_shape = {context_}, .target_shape = {context_}};
}

void TokenFileDataset::read(int64_t position, const SampleSlot& slot) const {
  read_window(split_.train_start(position), slot);
}

void TokenFileDataset::read_held_out_sample(int64_t index, const SampleSlot& slot) const {
  read_window(split_.held_out_start(index), slot);
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
