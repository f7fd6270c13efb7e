#include "model/safetensors.hpp"

#include <torch/torch.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>

#include <nlohmann/json.hpp>

namespace rookery::model {

namespace {

static_assert(std::endian::native == std::endian::little,
              "safetensors is little-endian; this build writes raw host floats");

constexpr std::uint64_t kMaxHeaderBytes = 100ull << 20;  // the format's own limit (100 MB)

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw SafetensorsError(path.string() + ": " + what);
}

std::size_t dtype_bytes(const std::string& dtype) {
  if (dtype == "F32") return 4;
  if (dtype == "F16" || dtype == "BF16") return 2;
  return 0;
}

void write_all(int fd, const void* data, std::size_t n, const std::string& tmp) {
  const auto* p = static_cast<const char*>(data);
  while (n > 0) {
    const auto w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      const std::string why = std::strerror(errno);
      ::close(fd);
      std::filesystem::remove(tmp);
      throw SafetensorsError("cannot write " + tmp + ": " + why);
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

}  // namespace

void write_safetensors(const std::filesystem::path& path, const std::vector<NamedTensor>& tensors,
                       const std::map<std::string, std::string>& metadata) {
  nlohmann::ordered_json header = nlohmann::ordered_json::object();
  if (!metadata.empty()) header["__metadata__"] = metadata;
  std::vector<torch::Tensor> data;
  std::set<std::string> names;
  std::uint64_t offset = 0;
  for (const auto& t : tensors) {
    if (t.name.empty() || t.name == "__metadata__") fail(path, "a tensor needs a name");
    if (!names.insert(t.name).second) fail(path, "the name '" + t.name + "' is used twice");
    auto f32 = t.tensor.detach().to(torch::kCPU, torch::kFloat32).contiguous();
    const std::uint64_t bytes = static_cast<std::uint64_t>(f32.numel()) * 4;
    std::vector<std::int64_t> shape(f32.sizes().begin(), f32.sizes().end());
    header[t.name] = {{"dtype", "F32"}, {"shape", shape}, {"data_offsets", {offset, offset + bytes}}};
    offset += bytes;
    data.push_back(std::move(f32));
  }
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');  // the data starts 8-byte aligned
  const std::uint64_t length = text.size();

  const std::string tmp = path.string() + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw SafetensorsError("cannot create " + tmp + ": " + std::strerror(errno));
  write_all(fd, &length, sizeof length, tmp);
  write_all(fd, text.data(), text.size(), tmp);
  for (const auto& t : data)
    write_all(fd, t.data_ptr<float>(), static_cast<std::size_t>(t.numel()) * 4, tmp);
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string why = std::strerror(errno);
    std::filesystem::remove(tmp);
    throw SafetensorsError("cannot write " + tmp + ": " + why);
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp);
    throw SafetensorsError("cannot move " + tmp + " to " + path.string() + ": " + ec.message());
  }
}

Safetensors read_safetensors(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open");
  std::error_code ec;
  const std::uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) fail(path, "cannot stat: " + ec.message());
  std::uint64_t length = 0;
  if (size < 8 || !in.read(reinterpret_cast<char*>(&length), 8))
    fail(path, "too short for a safetensors file (" + std::to_string(size) + " bytes)");
  if (length > kMaxHeaderBytes || length > size - 8)
    fail(path, "the header claims " + std::to_string(length) + " bytes; the file has " +
                   std::to_string(size) + " in all");
  std::string text(length, '\0');
  if (!in.read(text.data(), static_cast<std::streamsize>(length))) fail(path, "truncated header");
  // In the file's order: the tensors come back in the order they were written.
  nlohmann::ordered_json header;
  try {
    header = nlohmann::ordered_json::parse(text);
  } catch (const nlohmann::ordered_json::exception& e) {
    fail(path, std::string("the header is not JSON: ") + e.what());
  }
  if (!header.is_object()) fail(path, "the header is not a JSON object");
  const std::uint64_t data_bytes = size - 8 - length;

  struct Entry {
    std::string name, dtype;
    std::vector<std::int64_t> shape;
    std::uint64_t begin = 0, end = 0;
  };
  Safetensors out;
  std::vector<Entry> entries;
  for (const auto& [name, v] : header.items()) {
    if (name == "__metadata__") {
      if (!v.is_object()) fail(path, "__metadata__ is not an object");
      for (const auto& [k, s] : v.items()) {
        if (!s.is_string()) fail(path, "__metadata__." + k + " is not a string");
        out.metadata[k] = s.get<std::string>();
      }
      continue;
    }
    try {
      Entry e{name, v.at("dtype").get<std::string>(), v.at("shape").get<std::vector<std::int64_t>>(),
              0, 0};
      const auto offsets = v.at("data_offsets").get<std::vector<std::uint64_t>>();
      if (offsets.size() != 2) fail(path, name + ": data_offsets must be [begin, end]");
      e.begin = offsets[0];
      e.end = offsets[1];
      entries.push_back(std::move(e));
    } catch (const nlohmann::json::exception& ex) {
      fail(path, name + ": " + ex.what());
    }
  }
  // The byte ranges must tile the data exactly: no overlap, no gap, nothing past the end.
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.begin < b.begin; });
  std::uint64_t expected = 0;
  for (const auto& e : entries) {
    const auto width = dtype_bytes(e.dtype);
    if (width == 0) fail(path, e.name + ": dtype " + e.dtype + " is not F32, F16 or BF16");
    std::uint64_t count = 1;
    for (auto d : e.shape) {
      if (d < 0) fail(path, e.name + ": a negative dimension");
      if (d > 0 && count > std::numeric_limits<std::uint64_t>::max() / std::uint64_t(d) / width)
        fail(path, e.name + ": its shape overflows");
      count *= std::uint64_t(d);
    }
    if (e.begin != expected || e.end < e.begin)
      fail(path, e.name + ": bytes [" + std::to_string(e.begin) + ", " + std::to_string(e.end) +
                     ") overlap another tensor or leave a gap");
    if (e.end - e.begin != count * width)
      fail(path, e.name + ": " + std::to_string(e.end - e.begin) + " bytes for " +
                     std::to_string(count) + " " + e.dtype + " values");
    if (e.end > data_bytes)
      fail(path, e.name + ": its bytes end past the file (truncated?)");
    expected = e.end;
  }
  if (expected != data_bytes)
    fail(path, std::to_string(data_bytes - expected) + " bytes after the last tensor");

  std::vector<char> bytes(data_bytes);
  if (data_bytes > 0 && !in.read(bytes.data(), static_cast<std::streamsize>(data_bytes)))
    fail(path, "truncated data");
  // Back in the header's order, which is the writer's.
  std::vector<Entry> ordered;
  for (const auto& [name, v] : header.items()) {
    if (name == "__metadata__") continue;
    ordered.push_back(*std::find_if(entries.begin(), entries.end(),
                                    [&](const Entry& e) { return e.name == name; }));
  }
  for (const auto& e : ordered) {
    const auto dtype = e.dtype == "F32" ? torch::kFloat32
                       : e.dtype == "F16" ? torch::kFloat16
                                          : torch::kBFloat16;
    try {
      auto t = torch::empty(e.shape, torch::TensorOptions().dtype(dtype));
      if (e.end > e.begin) std::memcpy(t.data_ptr(), bytes.data() + e.begin, e.end - e.begin);
      out.tensors.push_back({e.name, t.to(torch::kFloat32)});
    } catch (const c10::Error& ex) {
      fail(path, e.name + ": " + ex.what_without_backtrace());
    }
  }
  return out;
}

}  // namespace rookery::model
