#include "node/swarm_checkpoint.hpp"

#include <string_view>

namespace rookery::node {

namespace {
constexpr std::string_view kMagic = "RKSHRD01";
}  // namespace

std::filesystem::path swarm_checkpoint_path(const std::filesystem::path& dir,
                                            const std::string& job_id) {
  // A job id names a file only through these characters (it comes from the coordinator).
  std::string name;
  for (const char c : job_id) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '_' || c == '.';
    name += plain ? c : '_';
  }
  return dir / ("swarm-" + name + ".ckpt");
}

void save_swarm_checkpoint(const std::filesystem::path& path, const std::string& job_id,
                           const ShardSnapshot& shard) {
  pipeline::write_shard_file(path, kMagic, job_id, shard);
}

ShardSnapshot load_swarm_checkpoint(const std::filesystem::path& path, const std::string& job_id) {
  return pipeline::read_shard_file(path, kMagic, job_id);
}

}  // namespace rookery::node
