#include <torch/torch.h>

#include "pipeline/checkpoint.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>

#include <xxhash.h>

#include "rookery/checkpoint.pb.h"

namespace rookery::pipeline {

namespace {
constexpr char kMagic[8] = {'R', 'K', 'C', 'K', 'P', 'T', '0', '1'};
constexpr std::uint32_t kFormat = 1;
constexpr std::uint64_t kMaxCheckpointBytes = std::uint64_t{1} << 31;  // protobuf's limit

std::string serialize_parameters(const model::Shard& shard) {
  torch::serialize::OutputArchive archive;
  for (const auto& p : shard.parameters()) archive.write(p.name, p.tensor.detach().to(torch::kCPU));
  std::ostringstream out;
  archive.save_to(out);
  return out.str();
}

wire::pb::StageCheckpoint read_verified(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CheckpointError("checkpoint " + path.string() + " cannot be read");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string what = "checkpoint " + path.string() + " is corrupt: ";
  if (bytes.size() < sizeof kMagic + 16)
    throw CheckpointError(what + "too short (" + std::to_string(bytes.size()) + " bytes)");
  if (std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    throw CheckpointError(what + "not a Rookery checkpoint");
  std::uint64_t len = 0;
  std::memcpy(&len, bytes.data() + sizeof kMagic, 8);
  if (len > kMaxCheckpointBytes || sizeof kMagic + 8 + len + 8 != bytes.size()) {
    throw CheckpointError(what + "truncated or padded (declares " + std::to_string(len) +
                          " bytes of content)");
  }
  std::uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + bytes.size() - 8, 8);
  if (XXH3_64bits(bytes.data(), bytes.size() - 8) != stored)
    throw CheckpointError(what + "checksum mismatch");
  wire::pb::StageCheckpoint ckpt;
  if (!ckpt.ParseFromArray(bytes.data() + sizeof kMagic + 8, static_cast<int>(len))) {
    throw CheckpointError(what + "content does not parse");
  }
  if (ckpt.format() != kFormat)
    throw CheckpointError(what + "unknown format " + std::to_string(ckpt.format()));
  return ckpt;
}

std::vector<model::NamedTensor> parse_parameters(const std::string& bytes,
                                                 const std::vector<std::string>& names,
                                                 const std::filesystem::path& path) {
  std::vector<model::NamedTensor> out;
  try {
    std::istringstream in(bytes);
    torch::serialize::InputArchive archive;
    archive.load_from(in);
    for (const auto& n : names) {
      torch::Tensor t;
      archive.read(n, t);
      out.push_back({n, t});
    }
  } catch (const c10::Error& e) {
    throw CheckpointError("checkpoint " + path.string() + ": parameters do not fit this shard (" +
                          e.what_without_backtrace() + ")");
  }
  return out;
}
}  // namespace

void save_checkpoint(const std::filesystem::path& path, const model::Shard& shard,
                     const model::Optimizer& optimizer, const CheckpointCounters& c) {
  wire::pb::StageCheckpoint ckpt;
  ckpt.set_format(kFormat);
  ckpt.set_job_id(c.job_id);
  ckpt.set_pipeline(c.pipeline);
  ckpt.set_first_block(c.blocks.first);
  ckpt.set_last_block(c.blocks.last);
  ckpt.set_optimizer_steps(optimizer.steps_taken());
  ckpt.set_micro_batches(c.micro_batches);
  ckpt.set_samples(c.samples);
  ckpt.set_next_sample(c.next_sample);
  ckpt.set_unix_ms(std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count());
  ckpt.set_parameters(serialize_parameters(shard));
  ckpt.set_optimizer_state(optimizer.save_state());
  const std::string content = ckpt.SerializeAsString();
  std::string file(kMagic, sizeof kMagic);
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

CheckpointCounters load_checkpoint(const std::filesystem::path& path, model::Shard& shard,
                                   model::Optimizer& optimizer, const std::string& expected_job,
                                   model::BlockRange expected_blocks) {
  const auto ckpt = read_verified(path);
  if (ckpt.job_id() != expected_job) {
    throw CheckpointError("checkpoint " + path.string() + " belongs to job '" + ckpt.job_id() +
                          "', not '" + expected_job + "'");
  }
  if (ckpt.first_block() != expected_blocks.first || ckpt.last_block() != expected_blocks.last) {
    throw CheckpointError(
        "checkpoint " + path.string() + " holds blocks [" + std::to_string(ckpt.first_block()) +
        ", " + std::to_string(ckpt.last_block()) + "), this stage holds [" +
        std::to_string(expected_blocks.first) + ", " + std::to_string(expected_blocks.last) + ")");
  }
  auto live = shard.parameters();
  std::vector<std::string> names;
  for (const auto& p : live) names.push_back(p.name);
  auto loaded = parse_parameters(ckpt.parameters(), names, path);
  for (std::size_t i = 0; i < live.size(); ++i) {
    if (!loaded[i].tensor.sizes().equals(live[i].tensor.sizes())) {
      throw CheckpointError("checkpoint " + path.string() + ": parameter " + names[i] +
                            " has the wrong shape");
    }
  }
  // Everything verified: now change state.
  {
    torch::NoGradGuard no_grad;
    for (std::size_t i = 0; i < live.size(); ++i) live[i].tensor.copy_(loaded[i].tensor);
  }
  optimizer.load_state(ckpt.optimizer_state());
  optimizer.set_steps_taken(ckpt.optimizer_steps());
  CheckpointCounters c;
  c.job_id = ckpt.job_id();
  c.pipeline = ckpt.pipeline();
  c.blocks = {ckpt.first_block(), ckpt.last_block()};
  c.micro_batches = ckpt.micro_batches();
  c.samples = ckpt.samples();
  c.next_sample = ckpt.next_sample();
  return c;
}

std::vector<model::NamedTensor> read_checkpoint_parameters(const std::filesystem::path& path,
                                                           CheckpointCounters* counters) {
  const auto ckpt = read_verified(path);
  std::istringstream in(ckpt.parameters());
  torch::serialize::InputArchive archive;
  std::vector<model::NamedTensor> out;
  try {
    archive.load_from(in);
    for (const auto& key : archive.keys()) {
      torch::Tensor t;
      archive.read(key, t);
      out.push_back({key, t});
    }
  } catch (const c10::Error& e) {
    throw CheckpointError("checkpoint " + path.string() + ": " + e.what_without_backtrace());
  }
  if (counters) {
    counters->job_id = ckpt.job_id();
    counters->pipeline = ckpt.pipeline();
    counters->blocks = {ckpt.first_block(), ckpt.last_block()};
    counters->micro_batches = ckpt.micro_batches();
    counters->samples = ckpt.samples();
    counters->next_sample = ckpt.next_sample();
  }
  return out;
}

}  // namespace rookery::pipeline
