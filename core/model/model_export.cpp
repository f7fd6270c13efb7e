#include "model/model_export.hpp"

#include <torch/torch.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "model/safetensors.hpp"

namespace rookery::model {

namespace {

constexpr const char* kFormat = "rookery-model/1";

// Every parameter of the model, by name, with its shape: what an export must hold exactly.
std::map<std::string, std::vector<std::int64_t>> expected_shapes(const job::ModelSpec& model) {
  const auto whole = BlockChain(model, 0).whole();
  std::map<std::string, std::vector<std::int64_t>> shapes;
  for (const auto& p : whole.parameters())
    shapes[p.name] = std::vector<std::int64_t>(p.tensor.sizes().begin(), p.tensor.sizes().end());
  return shapes;
}

std::string shape_text(const std::vector<std::int64_t>& s) {
  std::ostringstream o;
  o << "[";
  for (std::size_t i = 0; i < s.size(); ++i) o << (i ? ", " : "") << s[i];
  return o.str() + "]";
}

// Names and shapes must be exactly the model's; the first difference is the error.
void check_parameters(const job::ModelSpec& model, const std::vector<NamedTensor>& parameters,
                      const std::string& where) {
  auto expected = expected_shapes(model);
  std::set<std::string> seen;
  for (const auto& p : parameters) {
    const auto it = expected.find(p.name);
    if (it == expected.end())
      throw std::invalid_argument(where + ": '" + p.name + "' is not a parameter of this model");
    const std::vector<std::int64_t> shape(p.tensor.sizes().begin(), p.tensor.sizes().end());
    if (shape != it->second)
      throw std::invalid_argument(where + ": '" + p.name + "' has shape " + shape_text(shape) +
                                  ", the model's is " + shape_text(it->second));
    if (!seen.insert(p.name).second)
      throw std::invalid_argument(where + ": '" + p.name + "' appears twice");
  }
  for (const auto& [name, shape] : expected) {
    if (!seen.count(name)) throw std::invalid_argument(where + ": '" + name + "' is missing");
  }
}

}  // namespace

void export_model(const job::JobSpec& job, const std::vector<NamedTensor>& parameters,
                  const std::filesystem::path& dir, const ExportInfo& info) {
  const auto* gpt = std::get_if<job::GptSpec>(&job.model.arch);
  if (!gpt) {
    throw std::invalid_argument("export: only GPT models can be exported so far; job " + job.id +
                                "'s model is a " + std::string(job::to_string(job.model.kind())));
  }
  check_parameters(job.model, parameters, "export");
  std::filesystem::create_directories(dir);
  nlohmann::ordered_json config;
  config["format"] = kFormat;
  config["architecture"] = "gpt";
  config["vocab"] = gpt->vocab;
  config["context"] = gpt->context;
  config["width"] = gpt->width;
  config["depth"] = gpt->depth;
  config["heads"] = gpt->heads;
  config["mlp_ratio"] = gpt->mlp_ratio;
  config["layer_norm_eps"] = 1e-5;
  config["activation"] = "gelu";  // exact (erf), as torch::gelu's default
  config["blocks"] = BlockChain(job.model, 0).block_count();
  config["job"] = job.id;
  config["samples"] = info.samples;
  config["source"] = info.source;
  write_safetensors(dir / "model.safetensors", parameters,
                    {{"format", kFormat}, {"job", job.id}, {"samples", std::to_string(info.samples)}});
  const auto tmp = dir / "config.json.tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << config.dump(2) << "\n";
    if (!out.flush()) throw std::runtime_error("export: cannot write " + tmp.string());
  }
  std::filesystem::rename(tmp, dir / "config.json");
}

LoadedExport load_export(const std::filesystem::path& dir) {
  const auto config_path = dir / "config.json";
  std::ifstream in(config_path);
  if (!in) throw std::runtime_error(config_path.string() + ": cannot open");
  nlohmann::json config;
  job::GptSpec gpt;
  try {
    config = nlohmann::json::parse(in);
    if (config.value("format", "") != kFormat)
      throw std::runtime_error("not a " + std::string(kFormat) + " export (format '" +
                               config.value("format", "") + "')");
    if (config.at("architecture") != "gpt")
      throw std::runtime_error("architecture " + config.at("architecture").dump() + " is not gpt");
    gpt.vocab = config.at("vocab").get<std::int64_t>();
    gpt.context = config.at("context").get<std::int64_t>();
    gpt.width = config.at("width").get<std::int64_t>();
    gpt.depth = config.at("depth").get<std::int64_t>();
    gpt.heads = config.at("heads").get<std::int64_t>();
    gpt.mlp_ratio = config.at("mlp_ratio").get<std::int64_t>();
    gpt.dropout = 0.0;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(config_path.string() + ": " + e.what());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(config_path.string() + ": " + e.what());
  }
  const job::ModelSpec model{gpt};
  try {
    job::validate(model);
  } catch (const std::exception& e) {
    throw std::runtime_error(config_path.string() + ": " + e.what());
  }
  const auto file = read_safetensors(dir / "model.safetensors");
  try {
    check_parameters(model, file.tensors, (dir / "model.safetensors").string());
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(e.what());
  }
  LoadedExport out{model, BlockChain(model, 0).whole(), config.value("samples", std::int64_t{0})};
  std::map<std::string, torch::Tensor> by_name;
  for (const auto& t : file.tensors) by_name[t.name] = t.tensor;
  torch::NoGradGuard no_grad;
  for (auto& p : out.shard.parameters()) p.tensor.copy_(by_name.at(p.name));
  return out;
}

}  // namespace rookery::model
