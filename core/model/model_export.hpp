#pragma once
// A trained GPT as a folder that PyTorch loads without Rookery:
//
//   model.safetensors   every parameter, f32, by Rookery's names ("block1.attn.qkv.weight")
//   config.json         the architecture and where the weights came from
//
// scripts/rookery_model.py defines the same model in plain PyTorch (the names are its module
// paths) and loads such a folder with load_state_dict(strict=True); `rookery-coordinator
// export` writes one. load_export() reads one back into a Rookery shard, checking every name
// and shape, so Rookery can evaluate or resume from an export.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "job/job_spec.hpp"
#include "model/block_chain.hpp"

namespace rookery::model {

struct ExportInfo {
  std::string source;        // where the weights came from, in words ("checkpoints of ...")
  std::int64_t samples = 0;  // samples the model trained on (0: unknown)
};

/// Writes `parameters` (a whole model of `job`, by Rookery's names) and its config into `dir`,
/// which is created. Throws std::invalid_argument for a job that is not a GPT or parameters
/// that are not exactly the model's (a name missing, extra or of another shape), and
/// SafetensorsError / std::runtime_error when the files cannot be written.
void export_model(const job::JobSpec& job, const std::vector<NamedTensor>& parameters,
                  const std::filesystem::path& dir, const ExportInfo& info);

struct LoadedExport {
  job::ModelSpec model;
  Shard shard;  // the whole model, on the CPU, holding the exported weights
  std::int64_t samples = 0;
};

/// Reads an export. Throws std::runtime_error naming what is wrong: a missing or malformed
/// config, an architecture this build does not know, a parameter missing, extra or misshapen.
LoadedExport load_export(const std::filesystem::path& dir);

}  // namespace rookery::model
