// Language-model datasets: a stream of tokens cut into windows of context + 1 tokens;
// a sample's input is the first `context` tokens and its targets are the same window
// shifted by one (next-token prediction).
//
// A held-out fraction f keeps the stream's last floor(f · tokens) tokens out of training:
// training windows lie wholly before them, so none overlaps a held-out window, and the
// held-out part is cut into disjoint windows starting every `context` tokens (each held-out
// token after the first is predicted exactly once), whatever the training stride.
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

/// A stream of `tokens` split into training windows and held-out windows (see above).
struct TokenSplit {
  int64_t train_windows = 0;
  int64_t held_out_first = 0;  ///< the first held-out token (== the training tokens)
  int64_t held_out_windows = 0;
};
/// Throws DatasetError for `path` when either part is too short for one window.
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
  int64_t context_, stride_, held_out_first_;
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
  int64_t context_, stride_, vocab_, held_out_first_;
};

/// The bytes of one fortune(6) cookie file as text: each line holding only "%" becomes a
/// blank line, and the text ends with one (a cookie boundary) whether or not the file ended
/// with a "%" line.
std::vector<std::byte> fortune_text(std::span<const std::byte> file);

}  // namespace rookery::data
