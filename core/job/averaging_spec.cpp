#include "job/averaging_spec.hpp"

#include <array>
#include <utility>

#include <nlohmann/json.hpp>

#include "job/job_spec.hpp"

namespace rookery::job {
namespace {

constexpr std::array<std::pair<std::string_view, VerifyMode>, 3> kVerifyModes{
    {{"auto", VerifyMode::automatic}, {"on", VerifyMode::on}, {"off", VerifyMode::off}}};

constexpr std::int64_t kMaxValidators = 16;

[[noreturn]] void fail(const std::string& field, const std::string& message) {
  throw JobSpecError(field + ": " + message);
}

std::string show(const nlohmann::json& v) {
  std::string s = v.dump();
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

}  // namespace

AveragingSpec parse_averaging(const nlohmann::json& object, const std::string& path) {
  if (!object.is_object()) fail(path, "must be an object, got " + show(object));
  AveragingSpec s;
  for (const auto& [key, value] : object.items()) {
    const std::string field = path + "." + key;
    if (key == "verify") {
      bool known = false;
      for (const auto& [name, mode] : kVerifyModes) {
        if (value.is_string() && value.get_ref<const std::string&>() == name) {
          s.verify = mode;
          known = true;
        }
      }
      if (!known) fail(field, "must be one of auto, on, off; got " + show(value));
    } else if (key == "validators") {
      if (!value.is_number_integer() ||
          (value.is_number_unsigned() && value.get<std::uint64_t>() > 1u << 30))
        fail(field, "must be an integer, got " + show(value));
      s.validators = value.get<std::int64_t>();
    } else {
      fail(field, "unknown key (expected one of: verify, validators)");
    }
  }
  return s;
}

bool verifies(const AveragingSpec& spec, bool centered_clip) {
  return spec.verify == VerifyMode::on || (spec.verify == VerifyMode::automatic && centered_clip);
}

void validate_averaging(const AveragingSpec& spec, bool verified, const std::string& path) {
  if (spec.validators < 1 || spec.validators > kMaxValidators) {
    fail(path + ".validators", "must be in [1, " + std::to_string(kMaxValidators) +
                                   "] (members that recompute each chunk), got " +
                                   std::to_string(spec.validators));
  }
  if (!verified && spec.validators != AveragingSpec{}.validators) {
    fail(path + ".validators",
         "has no effect without verified aggregation (verify is " +
             std::string(to_string(spec.verify)) +
             (spec.verify == VerifyMode::automatic ? " and the aggregator is not centered_clip"
                                                   : "") +
             ")");
  }
}

std::string to_json(const AveragingSpec& spec) {
  return nlohmann::ordered_json{{"verify", to_string(spec.verify)}, {"validators", spec.validators}}
      .dump();
}

std::string_view to_string(VerifyMode v) {
  for (const auto& [name, mode] : kVerifyModes)
    if (mode == v) return name;
  return "?";
}

}  // namespace rookery::job
