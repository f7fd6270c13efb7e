// Language-model datasets: a stream of tokens cut into windows of context + 1 tokens;
// a sample's input is the first `context` tokens and its targets are the same window
// shifted by one (next-token prediction).
#pragma once

#include "data/dataset.hpp"
#include "data/mapped_file.hpp"

#include <optional>

namespace rookery::data {

/// Windows of context + 1 tokens, starting every `stride` tokens, that fit in a stream of
/// `tokens`; window p starts at p·stride. Throws DatasetError for `path` if not even one fits.
int64_t window_count(int64_t tokens, int64_t context, int64_t stride,
                     const std::filesystem::path& path, const char* unit);

/// Plain text read as bytes (vocabulary 256): one file, or every regular file directly in
/// a folder, concatenated in sorted file-name order (hidden files skipped).
class TextBytesDataset final : public Dataset {
 public:
  TextBytesDataset(const std::filesystem::path& path, int64_t context, int64_t stride,
                   uint64_t order_seed, bool shuffle = true);

  SampleLayout layout() const override;
  void read(int64_t position, const SampleSlot& slot) const override;
  /// The files read, in order (one entry for a single file).
  const std::vector<std::filesystem::path>& files() const { return files_; }

 private:
  TextBytesDataset(std::vector<std::filesystem::path> files, const std::filesystem::path& path,
                   int64_t context, int64_t stride, uint64_t order_seed, bool shuffle);
  std::span<const std::byte> text() const;

  std::vector<std::filesystem::path> files_;
  std::optional<MappedFile> single_;  // one file: mapped
  std::vector<std::byte> joined_;     // a folder: its files joined in memory
  int64_t context_, stride_;
};

/// nanoGPT's train.bin: token ids as uint16 little-endian, no header.
class TokenFileDataset final : public Dataset {
 public:
  TokenFileDataset(const std::filesystem::path& path, int64_t context, int64_t stride,
                   int64_t vocab, uint64_t order_seed, bool shuffle = true);

  SampleLayout layout() const override;
  void read(int64_t position, const SampleSlot& slot) const override;
  int64_t token_count() const { return int64_t(file_.bytes().size() / 2); }

 private:
  TokenFileDataset(MappedFile file, int64_t context, int64_t stride, int64_t vocab,
                   uint64_t order_seed, bool shuffle);
  MappedFile file_;
  int64_t context_, stride_, vocab_;
};

}  // namespace rookery::data
