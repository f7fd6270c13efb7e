// Language-model datasets: a stream of tokens cut into windows of context + 1 tokens;
// a sample's input is the first `context` tokens and its targets are the same window
// shifted by one (next-token prediction).
//
// A held-out fraction f keeps part of the stream out of training (TokenSplit): the last
// fraction f of each stripe of about 64 Ki tokens, so that a corpus of many documents in file
// order is evaluated on all of them rather than on its last file. No window crosses from a
// training part into a held-out part; held-out windows are disjoint, one every `context`
// tokens (each held-out token after a window's first is predicted once), whatever the stride.
#pragma once

#include "data/dataset.hpp"
#include "data/mapped_file.hpp"
#include "job/job_spec.hpp"

#include <optional>

namespace rookery::data {

/// Windows of context + 1 tokens, starting every `stride` tokens, that fit in a stream of
/// `tokens`; window p starts at p·stride. Throws DatasetError for `path` if not even one fits.
int64_t window_count(int64_t tokens, int64_t context, int64_t stride,
                     const std::filesystem::path& path, const char* unit);

/// Where the training and held-out windows of a stream of tokens start: the stream is cut
/// into `stripes` stripes of `stripe_tokens` tokens (the last one takes the remainder) and
/// each stripe's last floor(f · its tokens) tokens are held out.
struct TokenSplit {
  /// One stripe's windows: training ones from its start, held-out ones from `held_out_first`.
  struct Stripe {
    int64_t train_windows = 0;
    int64_t held_out_first = 0;  ///< offset in the stripe
    int64_t held_out_windows = 0;
  };
  int64_t context = 1, stride = 1;
  int64_t stripes = 1, stripe_tokens = 0;
  Stripe stripe;  ///< every stripe but the last
  Stripe last;

  int64_t train_windows() const {
    return (stripes - 1) * stripe.train_windows + last.train_windows;
  }
  int64_t held_out_windows() const {
    return (stripes - 1) * stripe.held_out_windows + last.held_out_windows;
  }
  /// The first token of training window `window` and of held-out window `window`.
  int64_t train_start(int64_t window) const;
  int64_t held_out_start(int64_t window) const;
};
/// Tokens per stripe, about: fewer stripes when the held-out part is short, so that each
/// stripe holds out at least one window.
inline constexpr int64_t kHeldOutStripeTokens = int64_t{1} << 16;
/// Throws DatasetError for `path` when the stream is too short for one training window, or a
/// non-zero `held_out` fraction of it for one held-out window.
TokenSplit split_tokens(int64_t tokens, int64_t context, int64_t stride, double held_out,
                        const std::filesystem::path& path, const char* unit);

/// Plain text read as bytes (vocabulary 256): one file, or every regular file directly in
/// a folder, concatenated in sorted file-name order (hidden files skipped). In the fortune
/// format (job::TextFormat) each "%" line reads as a blank line, and each file ends a cookie.
class TextBytesDataset final : public Dataset {
 public:
  TextBytesDataset(const std::filesystem::path& path, int64_t context, int64_t stride,
                   uint64_t order_seed, bool shuffle = true, double held_out = 0,
                   job::TextFormat format = job::TextFormat::plain);

  SampleLayout layout() const override;
  void read(int64_t position, const SampleSlot& slot) const override;
  /// The files read, in order (one entry for a single file).
  const std::vector<std::filesystem::path>& files() const { return files_; }
  /// The text as the model reads it (after the format's conversion).
  std::span<const std::byte> text() const;

 private:
  struct Loaded;
  TextBytesDataset(Loaded&& loaded, int64_t context, int64_t stride, uint64_t order_seed,
                   bool shuffle);
  void read_held_out_sample(int64_t index, const SampleSlot& slot) const override;
  void read_window(int64_t first, const SampleSlot& slot) const;

  std::vector<std::filesystem::path> files_;
  std::optional<MappedFile> single_;  // one plain file: mapped
  std::vector<std::byte> joined_;     // a folder, or the fortune format: the text in memory
  TokenSplit split_;
  int64_t context_;
};

/// nanoGPT's train.bin: token ids as uint16 little-endian, no header.
class TokenFileDataset final : public Dataset {
 public:
  TokenFileDataset(const std::filesystem::path& path, int64_t context, int64_t stride,
                   int64_t vocab, uint64_t order_seed, bool shuffle = true, double held_out = 0);

  SampleLayout layout() const override;
  void read(int64_t position, const SampleSlot& slot) const override;
  int64_t token_count() const { return int64_t(file_.bytes().size() / 2); }

 private:
  TokenFileDataset(MappedFile&& file, double held_out, int64_t context, int64_t stride,
                   int64_t vocab, uint64_t order_seed, bool shuffle);
  TokenFileDataset(MappedFile&& file, TokenSplit split, int64_t context, int64_t stride,
                   int64_t vocab, uint64_t order_seed, bool shuffle);
  void read_held_out_sample(int64_t index, const SampleSlot& slot) const override;
  void read_window(int64_t first, const SampleSlot& slot) const;

  MappedFile file_;
  TokenSplit split_;
  int64_t context_, vocab_;
};

/// The bytes of one fortune(6) cookie file as text: each line holding only "%" becomes a
/// blank line, and the text ends with one (a cookie boundary) whether or not the file ended
/// with a "%" line.
std::vector<std::byte> fortune_text(std::span<const std::byte> file);

}  // namespace rookery::data
