#include "net/paths.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace rookery::net {

namespace {
std::filesystem::path env_path(const char* name) {
  const char* v = std::getenv(name);
  return (v && *v) ? std::filesystem::path(v) : std::filesystem::path();
}
}  // namespace

std::filesystem::path default_data_dir() {
  if (auto p = env_path("ROOKERY_DATA_DIR"); !p.empty()) return p;
  if (auto p = env_path("XDG_DATA_HOME"); !p.empty()) return p / "rookery";
  if (auto p = env_path("HOME"); !p.empty()) return p / ".local" / "share" / "rookery";
  return std::filesystem::temp_directory_path() / ("rookery-data-" + std::to_string(::getuid()));
}

std::filesystem::path default_runtime_dir() {
  if (auto p = env_path("ROOKERY_RUNTIME_DIR"); !p.empty()) return p;
  if (auto p = env_path("XDG_RUNTIME_DIR"); !p.empty()) return p / "rookery";
  return std::filesystem::temp_directory_path() / ("rookery-" + std::to_string(::getuid()));
}

void ensure_private_dir(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) throw std::runtime_error("cannot stat " + dir.string());
  if (!S_ISDIR(st.st_mode)) throw std::runtime_error(dir.string() + " is not a directory");
  if (st.st_uid != ::getuid()) {
    throw std::runtime_error(dir.string() + " belongs to another user (uid " +
                             std::to_string(st.st_uid) + ")");
  }
  if ((st.st_mode & 0777) != 0700 && ::chmod(dir.c_str(), 0700) != 0) {
    throw std::runtime_error("cannot make " + dir.string() + " private (chmod 0700)");
  }
}

}  // namespace rookery::net
