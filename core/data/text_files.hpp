// The files a text dataset's path stands for, as the loader reads them and as dataset
// delivery publishes them: the file itself, or a folder's regular, non-hidden files in name
// order. Header-only and torch-free (the coordinator's delivery library uses it too).
#pragma once

#include "data/dataset.hpp"
#include "job/job_spec.hpp"

#include <algorithm>
#include <filesystem>
#include <set>
#include <vector>

namespace rookery::data {

/// In the fortune format a folder is read as fortune(6) reads it: strfile's binary *.dat
/// indexes are skipped, and a file linked under two names (Debian's `cookie.u8 -> cookie`) is
/// read once, under the first name. Throws DatasetError when `path` does not exist, cannot be
/// listed, or is an empty folder.
inline std::vector<std::filesystem::path> text_files(
    const std::filesystem::path& path, job::TextFormat format = job::TextFormat::plain) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw DatasetError(path, format == job::TextFormat::fortune
                                 ? "does not exist (Debian and Ubuntu install fortune files with "
                                   "`apt install fortunes`)"
                                 : "does not exist");
  if (!std::filesystem::is_directory(path, ec)) return {path};
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || name.starts_with(".")) continue;
    if (format == job::TextFormat::fortune && name.ends_with(".dat")) continue;
    files.push_back(entry.path());
  }
  if (ec) throw DatasetError(path, "cannot list folder: " + ec.message());
  std::sort(files.begin(), files.end());
  if (format == job::TextFormat::fortune) {
    std::set<std::filesystem::path> seen;
    std::vector<std::filesystem::path> once;
    for (auto& f : files) {
      std::error_code canonical_ec;
      const auto target = std::filesystem::canonical(f, canonical_ec);
      if (canonical_ec || seen.insert(target).second) once.push_back(std::move(f));
    }
    files = std::move(once);
  }
  if (files.empty()) throw DatasetError(path, "folder holds no text files");
  return files;
}

}  // namespace rookery::data
