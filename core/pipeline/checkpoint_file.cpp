#include "pipeline/checkpoint_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>

#include <xxhash.h>

namespace rookery::pipeline {

namespace {
constexpr std::size_t kMagicBytes = 8;
constexpr std::uint64_t kMaxContentBytes = std::uint64_t{1} << 31;  // protobuf's limit
}  // namespace

void write_checkpoint_file(const std::filesystem::path& path, std::string_view magic,
                           const std::string& content) {
  if (magic.size() != kMagicBytes) throw std::invalid_argument("a checkpoint magic is 8 bytes");
  std::string file(magic);
  const std::uint64_t len = content.size();
  file.append(reinterpret_cast<const char*>(&len), 8);
  file += content;
  const std::uint64_t sum = XXH3_64bits(file.data(), file.size());
  file.append(reinterpret_cast<const char*>(&sum), 8);

  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec)
    throw CheckpointError("cannot create the checkpoint folder " + path.parent_path().string() +
                          ": " + ec.message());
  const auto tmp = path.string() + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) throw CheckpointError("cannot create " + tmp + ": " + std::strerror(errno));
  std::size_t done = 0;
  while (done < file.size()) {
    const auto n = ::write(fd, file.data() + done, file.size() - done);
    if (n <= 0) {
      const int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      throw CheckpointError("cannot write checkpoint " + path.string() + ": " + std::strerror(err) +
                            " (the previous checkpoint is kept)");
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    throw CheckpointError("cannot flush checkpoint " + path.string() + ": " + std::strerror(err));
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    throw CheckpointError("cannot replace checkpoint " + path.string() + ": " +
                          std::strerror(errno));
  }
  // Make the rename itself durable.
  const int dir = ::open(path.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

std::string read_checkpoint_file(const std::filesystem::path& path, std::string_view magic) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CheckpointError("checkpoint " + path.string() + " cannot be read");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string what = "checkpoint " + path.string() + " is corrupt: ";
  if (bytes.size() < kMagicBytes + 16)
    throw CheckpointError(what + "too short (" + std::to_string(bytes.size()) + " bytes)");
  if (std::string_view(bytes).substr(0, kMagicBytes) != magic)
    throw CheckpointError(what + "not a Rookery checkpoint of this kind");
  std::uint64_t len = 0;
  std::memcpy(&len, bytes.data() + kMagicBytes, 8);
  if (len > kMaxContentBytes || kMagicBytes + 8 + len + 8 != bytes.size()) {
    throw CheckpointError(what + "truncated or padded (declares " + std::to_string(len) +
                          " bytes of content)");
  }
  std::uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + bytes.size() - 8, 8);
  if (XXH3_64bits(bytes.data(), bytes.size() - 8) != stored)
    throw CheckpointError(what + "checksum mismatch");
  return bytes.substr(kMagicBytes + 8, len);
}

}  // namespace rookery::pipeline
