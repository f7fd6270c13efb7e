// Read-only view of a whole file. Memory-mapped where the OS offers it, so a multi-gigabyte
// token file costs no RAM up front and pages in as samples are read.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <vector>

namespace rookery::data {

class MappedFile {
 public:
  /// Throws DatasetError naming the path if it cannot be opened or mapped.
  explicit MappedFile(const std::filesystem::path& path);
  MappedFile(MappedFile&&) noexcept;
  MappedFile& operator=(MappedFile&&) = delete;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::span<const std::byte> bytes() const { return {data_, size_}; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  const std::byte* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
  std::vector<std::byte> copy_;  // where mmap is unavailable, or the file is empty
};

}  // namespace rookery::data
