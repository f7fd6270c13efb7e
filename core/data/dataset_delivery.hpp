#pragma once
// Dataset delivery. A volunteer's PC holds no copy of a job's data, so the coordinator
// publishes a manifest of the dataset's files (their sizes and a SHA-256 of every chunk) and
// serves the chunks. A volunteer fetches them from the coordinator and from peers that hold
// them (core/node/dataset_fetcher), checks every chunk against the manifest before it writes
// it, and trains on its own copy: a peer that serves a wrong chunk is caught by the hash.
//
// The manifest travels as the bytes the coordinator serialized; their SHA-256, the dataset's
// digest, names the copy on disk: <root>/<digest hex>/. A copy left half-fetched by a killed
// process is checked chunk by chunk when it is opened again and keeps what is right.
#include <array>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "job/job_spec.hpp"
#include "rookery/coordinator.pb.h"

namespace rookery::data {

using Sha256 = std::array<std::uint8_t, 32>;

Sha256 sha256(std::span<const std::byte> bytes);
Sha256 sha256(std::string_view bytes);
std::string to_hex(std::span<const std::uint8_t> bytes);
inline std::string_view as_bytes(const Sha256& d) {
  return {reinterpret_cast<const char*>(d.data()), d.size()};
}

constexpr std::uint32_t kChunkBytes = 1 << 20;

// The manifest of the files `spec` names: its path (a file, or every file of a folder that
// the text loader reads, in its order) and, for images, the labels file. Throws DatasetError
// when one cannot be read.
wire::pb::DatasetManifest build_manifest(const job::DatasetSpec& spec,
                                         std::uint32_t chunk_bytes = kChunkBytes);

// Where the files of build_manifest(spec) are on this machine, in manifest order.
std::vector<std::filesystem::path> manifest_sources(const job::DatasetSpec& spec,
                                                    const wire::pb::DatasetManifest& manifest);

// Chunks of `file` at `chunk_bytes` each.
std::uint64_t chunk_count(const wire::pb::DatasetFile& file, std::uint32_t chunk_bytes);

// A manifest as received, before anything is written by it: every name a plain relative path
// under its role, no two files at one path, a chunk size in bounds, one 32-byte hash per
// chunk. False, and why in `error`, otherwise.
bool check_manifest(const wire::pb::DatasetManifest& manifest, std::string& error);

// Chunk `chunk` of the manifest's file `file`, read from `path` (the coordinator's original).
// Throws DatasetError when the file is shorter than the manifest says or cannot be read.
std::vector<std::byte> read_chunk(const std::filesystem::path& path,
                                  const wire::pb::DatasetManifest& manifest, std::uint32_t file,
                                  std::uint64_t chunk);

struct ChunkId {
  std::uint32_t file = 0;
  std::uint64_t chunk = 0;
  friend bool operator==(const ChunkId&, const ChunkId&) = default;
};

// This machine's copy of one dataset, as it is fetched. Thread-safe: fetch workers put, the
// shard server reads.
class DatasetStore {
 public:
  // Opens (creating) the copy that `manifest_bytes` describe, under `root`. What an earlier
  // run left there is verified chunk by chunk and kept where it is right. Throws DatasetError
  // when the bytes are no valid manifest or the folder cannot be written.
  DatasetStore(const std::filesystem::path& root, std::string manifest_bytes);

  const Sha256& digest() const { return digest_; }
  const std::string& manifest_bytes() const { return manifest_bytes_; }
  const wire::pb::DatasetManifest& manifest() const { return manifest_; }
  const std::filesystem::path& dir() const { return dir_; }

  std::vector<ChunkId> missing() const;
  bool complete() const;
  std::uint64_t bytes_held() const;
  std::uint64_t total_bytes() const { return total_bytes_; }

  enum class Put { Stored, AlreadyHeld, NoSuchChunk, WrongSize, WrongHash };
  // Checks the bytes against the manifest and writes them. The last chunk of a file moves the
  // file into place. Throws DatasetError when the disk refuses the write (full, read-only):
  // the chunk stays missing.
  Put put(ChunkId id, std::span<const std::byte> bytes);

  // A chunk this copy holds, verified, for a peer that asks; nullopt when it does not hold it.
  std::optional<std::vector<std::byte>> read(ChunkId id) const;

  // `spec` with its path (and labels) pointing into this copy, as the job's loader opens it.
  job::DatasetSpec localized(job::DatasetSpec spec) const;

 private:
  std::filesystem::path final_path(std::uint32_t file) const;
  std::filesystem::path partial_path(std::uint32_t file) const;
  std::uint64_t chunk_size(std::uint32_t file, std::uint64_t chunk) const;
  void finish_file_locked(std::uint32_t file);

  std::filesystem::path dir_;
  std::string manifest_bytes_;
  wire::pb::DatasetManifest manifest_;
  Sha256 digest_{};
  std::uint64_t total_bytes_ = 0;
  mutable std::mutex mutex_;
  std::vector<std::vector<bool>> held_;  // per file, per chunk
  std::vector<bool> done_;               // per file: moved into place
  std::uint64_t bytes_held_ = 0;
};

}  // namespace rookery::data
