// The files a text dataset's path stands for, as the loader reads them and as dataset
// delivery publishes them: the file itself, or a folder's regular, non-hidden files in name
// order. Header-only and torch-free (the coordinator's delivery library uses it too).
#pragma once

#include "data/dataset.hpp"

#include <algorithm>
#include <filesystem>
#include <vector>

namespace rookery::data {

/// Throws DatasetError when `path` does not exist, cannot be listed, or is an empty folder.
inline std::vector<std::filesystem::path> text_files(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw DatasetError(path, "does not exist");
  if (!std::filesystem::is_directory(path, ec)) return {path};
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && !name.starts_with(".")) files.push_back(entry.path());
  }
  if (ec) throw DatasetError(path, "cannot list folder: " + ec.message());
  if (files.empty()) throw DatasetError(path, "folder holds no text files");
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace rookery::data
