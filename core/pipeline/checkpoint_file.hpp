#pragma once
// The framing every checkpoint file shares: an 8-byte magic that names the kind, the content's
// length (u64), the content, and an XXH3-64 of everything before it. Written atomically
// (temporary file, fsync, rename, fsync of the folder), so a crash or a full disk mid-write
// leaves the previous file whole; read back only when every check passes.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace rookery::pipeline {

class CheckpointError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes `content` framed under `magic` (8 bytes) to `path`, creating its folder. Throws
// CheckpointError naming the cause (the disk is full, the folder cannot be made); the file
// that was there stays intact.
void write_checkpoint_file(const std::filesystem::path& path, std::string_view magic,
                           const std::string& content);

// The content of a file written by write_checkpoint_file under `magic`. Throws
// CheckpointError saying what is wrong: unreadable, another kind of file, truncated or
// padded, a checksum that does not match.
std::string read_checkpoint_file(const std::filesystem::path& path, std::string_view magic);

}  // namespace rookery::pipeline
