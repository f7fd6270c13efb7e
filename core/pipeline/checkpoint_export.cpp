#include "pipeline/checkpoint_export.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "pipeline/checkpoint.hpp"
#include "pipeline/shard_snapshot.hpp"
#include "reduce/shard_buffers.hpp"

namespace rookery::pipeline {

namespace {

// "block12.attn.qkv.weight" -> 12; -1 for a name not of that form.
std::int64_t block_of(const std::string& name) {
  if (name.rfind("block", 0) != 0) return -1;
  const auto dot = name.find('.');
  try {
    return std::stoll(name.substr(5, dot - 5));
  } catch (const std::exception&) {
    return -1;
  }
}

}  // namespace

CheckpointModel model_from_checkpoints(const job::JobSpec& job,
                                       const std::vector<std::filesystem::path>& paths) {
  std::vector<std::filesystem::path> files;
  for (const auto& p : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(p, ec))
        if (e.is_regular_file() && e.path().extension() == ".ckpt") files.push_back(e.path());
    } else if (std::filesystem::exists(p, ec)) {
      files.push_back(p);
    } else {
      throw CheckpointError(p.string() + ": no such file or folder");
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw CheckpointError("no checkpoint (*.ckpt) found in what was given");

  struct Read {
    std::filesystem::path path;
    CheckpointCounters counters;
    std::vector<model::NamedTensor> parameters;
  };
  std::vector<Read> reads;
  for (const auto& f : files) {
    Read r{f, {}, read_checkpoint_parameters(f, &r.counters)};
    if (r.counters.job_id != job.id)
      throw CheckpointError(f.string() + " is a checkpoint of job '" + r.counters.job_id +
                            "', not of '" + job.id + "'");
    reads.push_back(std::move(r));
  }
  const auto blocks = model::BlockChain(job.model, job.seed).block_count();
  CheckpointModel out;
  out.samples = std::numeric_limits<std::int64_t>::max();
  std::map<std::size_t, std::vector<std::int64_t>> used;  // read -> blocks taken from it
  for (std::int64_t b = 0; b < blocks; ++b) {
    const Read* best = nullptr;
    for (const auto& r : reads) {
      if (r.counters.blocks.first <= b && b < r.counters.blocks.last &&
          (!best || r.counters.samples > best->counters.samples))
        best = &r;
    }
    if (!best) {
      throw CheckpointError("no checkpoint holds block " + std::to_string(b) + " of job " +
                            job.id + " (it has " + std::to_string(blocks) + " blocks)");
    }
    for (const auto& p : best->parameters)
      if (block_of(p.name) == b) out.parameters.push_back(p);
    out.samples = std::min(out.samples, best->counters.samples);
    used[std::size_t(best - reads.data())].push_back(b);
  }
  out.source = std::to_string(used.size()) + " checkpoint(s) of job " + job.id + ":";
  for (const auto& [i, bs] : used) {
    out.source += " " + reads[i].path.filename().string() + " [" + std::to_string(bs.front()) +
                  ", " + std::to_string(bs.back() + 1) + ")";
  }
  return out;
}

CheckpointModel model_from_snapshot(const job::JobSpec& job, const ShardSnapshot& snapshot,
                                    std::string source) {
  const model::BlockChain chain(job.model, job.seed);
  if (snapshot.first_block != 0 || snapshot.last_block != chain.block_count()) {
    throw CheckpointError(source + " holds blocks [" + std::to_string(snapshot.first_block) +
                          ", " + std::to_string(snapshot.last_block) + "), not the job's " +
                          std::to_string(chain.block_count()));
  }
  auto whole = chain.whole();
  if (static_cast<std::int64_t>(snapshot.values.size()) != whole.parameter_count()) {
    throw CheckpointError(source + " holds " + std::to_string(snapshot.values.size()) +
                          " parameters, the job's model " +
                          std::to_string(whole.parameter_count()));
  }
  reduce::write_parameters(whole, snapshot.values);
  CheckpointModel out;
  out.parameters = whole.parameters();
  out.samples = 0;  // an archive counts optimizer steps, not samples
  out.source = std::move(source);
  return out;
}

}  // namespace rookery::pipeline
