#include "data/dataset_delivery.hpp"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>

#include "data/dataset.hpp"
#include "data/text_files.hpp"

namespace rookery::data {

namespace fs = std::filesystem;
namespace pb = wire::pb;

namespace {

constexpr std::uint32_t kMinChunkBytes = 4 << 10;
constexpr std::uint32_t kMaxChunkBytes = 64 << 20;
constexpr std::size_t kMaxFiles = 100'000;
constexpr std::uint64_t kMaxFileBytes = std::uint64_t{1} << 40;

// A file descriptor closed on scope exit.
struct Fd {
  int fd = -1;
  explicit Fd(int f) : fd(f) {}
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
};

// Reads exactly out.size() bytes at `offset`; false on a short read or an error.
bool read_at(int fd, std::span<std::byte> out, std::uint64_t offset) {
  std::size_t done = 0;
  while (done < out.size()) {
    const auto n =
        ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

void write_at(int fd, std::span<const std::byte> bytes, std::uint64_t offset,
              const fs::path& path) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const auto n =
        ::pwrite(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw DatasetError(path, std::string("cannot write: ") + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

pb::DatasetFile describe_file(const fs::path& path, std::string role, std::string name,
                              std::uint32_t chunk_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DatasetError(path, "cannot open");
  pb::DatasetFile f;
  f.set_role(std::move(role));
  f.set_name(std::move(name));
  std::vector<char> buffer(chunk_bytes);
  std::uint64_t size = 0;
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const auto n = static_cast<std::size_t>(in.gcount());
    if (n == 0) break;
    size += n;
    const auto d = sha256(std::string_view(buffer.data(), n));
    f.add_chunk_sha256(std::string(as_bytes(d)));
  }
  if (in.bad()) throw DatasetError(path, "cannot read");
  f.set_size(size);
  return f;
}

bool plain_name(const std::string& name) {
  if (name.empty() || name.size() > 255 || name == "." || name == ".." || name.starts_with("."))
    return false;
  return name.find_first_of(std::string("/\\\0", 3)) == std::string::npos;
}

}  // namespace

Sha256 sha256(std::span<const std::byte> bytes) {
  static const int ready =
      sodium_init();  // 0, or 1 when already initialised; -1 cannot happen on Linux
  (void)ready;
  Sha256 out{};
  crypto_hash_sha256(out.data(), reinterpret_cast<const unsigned char*>(bytes.data()),
                     bytes.size());
  return out;
}

Sha256 sha256(std::string_view bytes) {
  return sha256(
      std::span<const std::byte>(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()));
}

std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (auto b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

pb::DatasetManifest build_manifest(const job::DatasetSpec& spec, std::uint32_t chunk_bytes) {
  pb::DatasetManifest m;
  m.set_chunk_bytes(chunk_bytes);
  std::error_code ec;
  if (fs::is_directory(spec.path, ec)) {
    m.set_folder(true);
    for (const auto& f : text_files(spec.path, spec.format)) {
      *m.add_files() = describe_file(f, "data", f.filename().string(), chunk_bytes);
    }
  } else {
    *m.add_files() = describe_file(spec.path, "data", spec.path.filename().string(), chunk_bytes);
  }
  if (spec.kind == job::DatasetKind::images) {
    *m.add_files() =
        describe_file(spec.labels, "labels", spec.labels.filename().string(), chunk_bytes);
  }
  std::string error;
  if (!check_manifest(m, error)) throw DatasetError(spec.path, "cannot be published: " + error);
  return m;
}

std::vector<fs::path> manifest_sources(const job::DatasetSpec& spec,
                                       const pb::DatasetManifest& manifest) {
  std::vector<fs::path> out;
  for (const auto& f : manifest.files()) {
    if (f.role() == "labels") {
      out.push_back(spec.labels);
    } else {
      out.push_back(manifest.folder() ? spec.path / f.name() : spec.path);
    }
  }
  return out;
}

std::uint64_t chunk_count(const pb::DatasetFile& file, std::uint32_t chunk_bytes) {
  return chunk_bytes == 0 ? 0 : (file.size() + chunk_bytes - 1) / chunk_bytes;
}

bool check_manifest(const pb::DatasetManifest& m, std::string& error) {
  if (m.chunk_bytes() < kMinChunkBytes || m.chunk_bytes() > kMaxChunkBytes) {
    error = "chunk size " + std::to_string(m.chunk_bytes()) + " outside [4 KiB, 64 MiB]";
    return false;
  }
  if (m.files_size() == 0 || static_cast<std::size_t>(m.files_size()) > kMaxFiles) {
    error = std::to_string(m.files_size()) + " files (1 to 100000 allowed)";
    return false;
  }
  std::set<std::pair<std::string, std::string>> seen;
  int data = 0, labels = 0;
  for (const auto& f : m.files()) {
    if (f.role() == "data") {
      ++data;
    } else if (f.role() == "labels") {
      ++labels;
    } else {
      error = "a file has the role '" + f.role().substr(0, 32) + "' (data or labels expected)";
      return false;
    }
    if (!plain_name(f.name())) {
      error = "a file is named '" + f.name().substr(0, 64) + "': a plain file name is expected";
      return false;
    }
    if (!seen.insert({f.role(), f.name()}).second) {
      error = "two files are named '" + f.name() + "'";
      return false;
    }
    if (f.size() > kMaxFileBytes) {
      error = "'" + f.name() + "' is over 1 TiB";
      return false;
    }
    if (static_cast<std::uint64_t>(f.chunk_sha256_size()) != chunk_count(f, m.chunk_bytes())) {
      error = "'" + f.name() + "' has " + std::to_string(f.chunk_sha256_size()) +
              " chunk hashes for " + std::to_string(chunk_count(f, m.chunk_bytes())) + " chunks";
      return false;
    }
    for (const auto& h : f.chunk_sha256()) {
      if (h.size() != 32) {
        error = "'" + f.name() + "' has a chunk hash that is not 32 bytes";
        return false;
      }
    }
  }
  if (data == 0 || labels > 1 || (!m.folder() && data != 1)) {
    error = std::to_string(data) + " data and " + std::to_string(labels) + " labels files" +
            (m.folder() ? "" : " (one data file expected when the dataset is no folder)");
    return false;
  }
  return true;
}

std::vector<std::byte> read_chunk(const fs::path& path, const pb::DatasetManifest& manifest,
                                  std::uint32_t file, std::uint64_t chunk) {
  if (file >= static_cast<std::uint32_t>(manifest.files_size()))
    throw DatasetError(path, "no such file in the manifest");
  const auto& f = manifest.files(static_cast<int>(file));
  if (chunk >= chunk_count(f, manifest.chunk_bytes())) throw DatasetError(path, "no such chunk");
  const std::uint64_t offset = chunk * manifest.chunk_bytes();
  std::vector<std::byte> out(
      static_cast<std::size_t>(std::min<std::uint64_t>(manifest.chunk_bytes(), f.size() - offset)));
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.fd < 0) throw DatasetError(path, std::string("cannot open: ") + std::strerror(errno));
  if (!read_at(fd.fd, out, offset))
    throw DatasetError(path, "is shorter than the manifest says, or cannot be read");
  return out;
}

// ---- DatasetStore ---------------------------------------------------------------------------

DatasetStore::DatasetStore(const fs::path& root, std::string manifest_bytes)
    : manifest_bytes_(std::move(manifest_bytes)) {
  if (!manifest_.ParseFromString(manifest_bytes_))
    throw DatasetError(root, "the dataset's manifest does not parse");
  std::string error;
  if (!check_manifest(manifest_, error))
    throw DatasetError(root, "the dataset's manifest is invalid: " + error);
  digest_ = sha256(manifest_bytes_);
  dir_ = root / to_hex(digest_);
  std::error_code ec;
  for (const char* sub : {"partial", "data", "labels"}) fs::create_directories(dir_ / sub, ec);
  if (ec) throw DatasetError(dir_, "cannot create: " + ec.message());
  if (!fs::exists(dir_ / "manifest.pb")) {
    const auto tmp = dir_ / "manifest.pb.tmp";
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      out.write(manifest_bytes_.data(), static_cast<std::streamsize>(manifest_bytes_.size()));
      if (!out) throw DatasetError(tmp, "cannot write");
    }
    fs::rename(tmp, dir_ / "manifest.pb", ec);
    if (ec) throw DatasetError(dir_, "cannot write the manifest: " + ec.message());
  }

  const auto files = static_cast<std::uint32_t>(manifest_.files_size());
  held_.resize(files);
  done_.assign(files, false);
  std::vector<std::byte> buffer(manifest_.chunk_bytes());
  std::lock_guard lock(mutex_);
  for (std::uint32_t i = 0; i < files; ++i) {
    const auto& f = manifest_.files(static_cast<int>(i));
    total_bytes_ += f.size();
    const auto chunks = chunk_count(f, manifest_.chunk_bytes());
    held_[i].assign(chunks, false);
    // A copy in place is checked like a partial one: a bit flipped on disk since is fetched again.
    if (fs::exists(final_path(i), ec) && !fs::exists(partial_path(i), ec)) {
      fs::rename(final_path(i), partial_path(i), ec);
      if (ec) throw DatasetError(final_path(i), "cannot check: " + ec.message());
    }
    const auto partial = partial_path(i);
    Fd fd(::open(partial.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644));
    if (fd.fd < 0) throw DatasetError(partial, std::string("cannot open: ") + std::strerror(errno));
    if (::ftruncate(fd.fd, static_cast<off_t>(f.size())) != 0) {
      throw DatasetError(partial, std::string("cannot size: ") + std::strerror(errno));
    }
    for (std::uint64_t c = 0; c < chunks; ++c) {
      const auto size = chunk_size(i, c);
      std::span<std::byte> piece(buffer.data(), static_cast<std::size_t>(size));
      if (!read_at(fd.fd, piece, c * manifest_.chunk_bytes())) continue;
      if (as_bytes(sha256(piece)) == f.chunk_sha256(static_cast<int>(c))) {
        held_[i][c] = true;
        bytes_held_ += size;
      }
    }
    if (std::all_of(held_[i].begin(), held_[i].end(), [](bool b) { return b; }))
      finish_file_locked(i);
  }
}

fs::path DatasetStore::final_path(std::uint32_t file) const {
  const auto& f = manifest_.files(static_cast<int>(file));
  return dir_ / f.role() / f.name();
}

fs::path DatasetStore::partial_path(std::uint32_t file) const {
  return dir_ / "partial" / std::to_string(file);
}

std::uint64_t DatasetStore::chunk_size(std::uint32_t file, std::uint64_t chunk) const {
  const auto& f = manifest_.files(static_cast<int>(file));
  return std::min<std::uint64_t>(manifest_.chunk_bytes(),
                                 f.size() - chunk * manifest_.chunk_bytes());
}

void DatasetStore::finish_file_locked(std::uint32_t file) {
  const auto partial = partial_path(file);
  {
    Fd fd(::open(partial.c_str(), O_RDWR | O_CLOEXEC));
    if (fd.fd < 0 || ::fsync(fd.fd) != 0)
      throw DatasetError(partial, std::string("cannot sync: ") + std::strerror(errno));
  }
  std::error_code ec;
  fs::rename(partial, final_path(file), ec);
  if (ec) throw DatasetError(final_path(file), "cannot move into place: " + ec.message());
  done_[file] = true;
}

std::vector<ChunkId> DatasetStore::missing() const {
  std::lock_guard lock(mutex_);
  std::vector<ChunkId> out;
  for (std::uint32_t i = 0; i < held_.size(); ++i) {
    for (std::uint64_t c = 0; c < held_[i].size(); ++c) {
      if (!held_[i][c]) out.push_back({i, c});
    }
  }
  return out;
}

bool DatasetStore::complete() const {
  std::lock_guard lock(mutex_);
  return std::all_of(done_.begin(), done_.end(), [](bool b) { return b; });
}

std::uint64_t DatasetStore::bytes_held() const {
  std::lock_guard lock(mutex_);
  return bytes_held_;
}

DatasetStore::Put DatasetStore::put(ChunkId id, std::span<const std::byte> bytes) {
  if (id.file >= held_.size() || id.chunk >= held_[id.file].size()) return Put::NoSuchChunk;
  if (bytes.size() != chunk_size(id.file, id.chunk)) return Put::WrongSize;
  // Hashed before the lock: other workers' chunks are checked meanwhile.
  if (as_bytes(sha256(bytes)) !=
      manifest_.files(static_cast<int>(id.file)).chunk_sha256(static_cast<int>(id.chunk))) {
    return Put::WrongHash;
  }
  std::lock_guard lock(mutex_);
  if (held_[id.file][id.chunk]) return Put::AlreadyHeld;
  const auto partial = partial_path(id.file);
  {
    Fd fd(::open(partial.c_str(), O_WRONLY | O_CLOEXEC));
    if (fd.fd < 0) throw DatasetError(partial, std::string("cannot open: ") + std::strerror(errno));
    write_at(fd.fd, bytes, id.chunk * manifest_.chunk_bytes(), partial);
  }
  held_[id.file][id.chunk] = true;
  bytes_held_ += bytes.size();
  if (std::all_of(held_[id.file].begin(), held_[id.file].end(), [](bool b) { return b; }))
    finish_file_locked(id.file);
  return Put::Stored;
}

std::optional<std::vector<std::byte>> DatasetStore::read(ChunkId id) const {
  fs::path path;
  {
    std::lock_guard lock(mutex_);
    if (id.file >= held_.size() || id.chunk >= held_[id.file].size() || !held_[id.file][id.chunk])
      return std::nullopt;
    path = done_[id.file] ? final_path(id.file) : partial_path(id.file);
  }
  std::vector<std::byte> out(static_cast<std::size_t>(chunk_size(id.file, id.chunk)));
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.fd < 0 || !read_at(fd.fd, out, id.chunk * manifest_.chunk_bytes())) return std::nullopt;
  return out;
}

job::DatasetSpec DatasetStore::localized(job::DatasetSpec spec) const {
  for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(manifest_.files_size()); ++i) {
    const auto& f = manifest_.files(static_cast<int>(i));
    if (f.role() == "labels") {
      spec.labels = final_path(i);
    } else if (!manifest_.folder()) {
      spec.path = final_path(i);
    }
  }
  if (manifest_.folder()) spec.path = dir_ / "data";
  return spec;
}

}  // namespace rookery::data
