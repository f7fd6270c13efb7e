#include "governor/preferences.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "store/settings.hpp"

namespace rookery::governor {

namespace {
using S = Scope;
using T = PreferenceType;

// The one table of preferences. Defaults lean towards the owner: half the cores while the
// PC is in use, no GPU while in use, everything when idle.
const std::vector<PreferenceSpec> kTable = {
    {"in_use.run", S::InUse, T::Bool, "true", 0, 1, "", "Compute while I use the PC"},
    {"in_use.cpu_cores_percent", S::InUse, T::Integer, "50", 1, 100, "% of cores", "CPU cores"},
    {"in_use.cpu_time_percent", S::InUse, T::Integer, "100", 1, 100, "% of the time", "CPU time"},
    {"in_use.use_gpu", S::InUse, T::Bool, "false", 0, 1, "", "Use the GPU"},
    {"in_use.memory_percent", S::InUse, T::Integer, "50", 5, 100, "% of RAM", "Memory"},
    {"idle.run", S::Idle, T::Bool, "true", 0, 1, "", "Compute while the PC is idle"},
    {"idle.cpu_cores_percent", S::Idle, T::Integer, "100", 1, 100, "% of cores", "CPU cores"},
    {"idle.cpu_time_percent", S::Idle, T::Integer, "100", 1, 100, "% of the time", "CPU time"},
    {"idle.use_gpu", S::Idle, T::Bool, "true", 0, 1, "", "Use the GPU"},
    {"idle.memory_percent", S::Idle, T::Integer, "90", 5, 100, "% of RAM", "Memory"},
    {"idle_after_minutes", S::Always, T::Integer, "3", 1, 1440, "min",
     "The PC is idle after no input for"},
    {"pause_above_other_cpu_percent", S::Always, T::Integer, "0", 0, 100, "% (0: never)",
     "Pause while other programs use more CPU than"},
    {"pause_on_battery", S::Always, T::Bool, "true", 0, 1, "", "Pause on battery"},
    {"schedule", S::Always, T::Schedule, "", 0, 0, "",
     "Compute only at these times (empty: any time)"},
    {"upload_kib_per_s", S::Always, T::Integer, "0", 0, 10000000, "KiB/s (0: unlimited)",
     "Upload at most"},
    {"download_kib_per_s", S::Always, T::Integer, "0", 0, 10000000, "KiB/s (0: unlimited)",
     "Download at most"},
    {"pause_while_fullscreen", S::Always, T::Bool, "true", 0, 1, "",
     "Pause while a full-screen application runs"},
    {"exclusive_programs", S::Always, T::ProgramList, "", 0, 0, "",
     "Pause while these programs run"},
    {"gpu_max_temperature_c", S::Always, T::Integer, "80", 0, 110, "°C (0: no limit)",
     "Pause the GPU above"},
    {"finish_micro_batches_before_pause", S::Always, T::Bool, "true", 0, 1, "",
     "On pause, finish the micro-batches already started (peers see a clean stop)"},
};

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\n");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\n") - b + 1);
}

std::vector<std::string> program_list(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text + ",") {
    if (c == ',') {
      auto t = trim(cur);
      if (!t.empty() && std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
      cur.clear();
    } else {
      cur += c;
    }
  }
  return out;
}

bool as_bool(const std::string& v) { return v == "true"; }
int as_int(const std::string& v) { return static_cast<int>(std::stoll(v)); }

void apply(Preferences& p, const std::string& key, const std::string& v) {
  auto profile = [&](Profile& pr, const std::string& name) {
    if (name == "run")
      pr.run = as_bool(v);
    else if (name == "cpu_cores_percent")
      pr.cpu_cores_percent = as_int(v);
    else if (name == "cpu_time_percent")
      pr.cpu_time_percent = as_int(v);
    else if (name == "use_gpu")
      pr.use_gpu = as_bool(v);
    else if (name == "memory_percent")
      pr.memory_percent = as_int(v);
  };
  if (key.rfind("in_use.", 0) == 0) return profile(p.in_use, key.substr(7));
  if (key.rfind("idle.", 0) == 0) return profile(p.idle, key.substr(5));
  if (key == "idle_after_minutes")
    p.idle_after_minutes = as_int(v);
  else if (key == "pause_above_other_cpu_percent")
    p.pause_above_other_cpu_percent = as_int(v);
  else if (key == "pause_on_battery")
    p.pause_on_battery = as_bool(v);
  else if (key == "schedule") {
    p.schedule_text = v;
    p.schedule = WeeklySchedule::parse(v);
  } else if (key == "upload_kib_per_s")
    p.upload_kib_per_s = std::stoll(v);
  else if (key == "download_kib_per_s")
    p.download_kib_per_s = std::stoll(v);
  else if (key == "pause_while_fullscreen")
    p.pause_while_fullscreen = as_bool(v);
  else if (key == "exclusive_programs")
    p.exclusive_programs = program_list(v);
  else if (key == "gpu_max_temperature_c")
    p.gpu_max_temperature_c = as_int(v);
  else if (key == "finish_micro_batches_before_pause")
    p.finish_micro_batches_before_pause = as_bool(v);
}
}  // namespace

const std::vector<PreferenceSpec>& preference_table() { return kTable; }

const PreferenceSpec* find_preference(const std::string& key) {
  for (const auto& s : kTable) {
    if (key == s.key) return &s;
  }
  return nullptr;
}

const char* scope_name(Scope s) {
  switch (s) {
    case Scope::InUse:
      return "in_use";
    case Scope::Idle:
      return "idle";
    default:
      return "always";
  }
}

const char* type_name(PreferenceType t) {
  switch (t) {
    case PreferenceType::Bool:
      return "bool";
    case PreferenceType::Integer:
      return "integer";
    case PreferenceType::Schedule:
      return "schedule";
    default:
      return "program_list";
  }
}

std::string validate_preference(const std::string& key, const std::string& raw) {
  const auto* spec = find_preference(key);
  if (!spec) throw std::invalid_argument("unknown setting \"" + key + "\"");
  const auto value = trim(raw);
  switch (spec->type) {
    case PreferenceType::Bool: {
      const auto v = lower(value);
      if (v == "true" || v == "1" || v == "yes" || v == "on") return "true";
      if (v == "false" || v == "0" || v == "no" || v == "off") return "false";
      throw std::invalid_argument(key + ": \"" + raw + "\" is not true or false");
    }
    case PreferenceType::Integer: {
      std::size_t used = 0;
      long long n = 0;
      try {
        n = std::stoll(value, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (value.empty() || used != value.size())
        throw std::invalid_argument(key + ": \"" + raw + "\" is not a whole number");
      if (n < spec->min || n > spec->max) {
        throw std::invalid_argument(key + ": " + value + " is outside " +
                                    std::to_string(spec->min) + "-" + std::to_string(spec->max) +
                                    (*spec->unit ? std::string(" ") + spec->unit : ""));
      }
      return std::to_string(n);
    }
    case PreferenceType::Schedule:
      try {
        WeeklySchedule::parse(value);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(key + ": " + e.what());
      }
      return value;
    case PreferenceType::ProgramList: {
      std::string out;
      for (const auto& p : program_list(value)) {
        if (p.find('/') != std::string::npos && p.front() != '/') {
          throw std::invalid_argument(key + ": \"" + p +
                                      "\" is neither a program name nor an absolute path");
        }
        out += (out.empty() ? "" : ", ") + p;
      }
      return out;
    }
  }
  return value;
}

Preferences Preferences::defaults() { return from_values({}); }

Preferences Preferences::from_values(const std::map<std::string, std::string>& values) {
  for (const auto& [k, v] : values) {
    if (!find_preference(k)) throw std::invalid_argument("unknown setting \"" + k + "\"");
  }
  Preferences p;
  for (const auto& spec : kTable) {
    const auto it = values.find(spec.key);
    apply(p, spec.key,
          validate_preference(spec.key, it == values.end() ? spec.default_value : it->second));
  }
  return p;
}

std::map<std::string, std::string> PreferenceStore::values(std::vector<std::string>* problems) {
  const auto stored = settings_.all(kPrefix);
  std::map<std::string, std::string> out;
  for (const auto& spec : kTable) {
    out[spec.key] = spec.default_value;
    const auto it = stored.find(std::string(kPrefix) + spec.key);
    if (it == stored.end()) continue;
    try {
      out[spec.key] = validate_preference(spec.key, it->second);
    } catch (const std::invalid_argument& e) {
      if (problems)
        problems->push_back(std::string(e.what()) + " (stored value ignored; the default applies)");
    }
  }
  return out;
}

Preferences PreferenceStore::load(std::vector<std::string>* problems) {
  return Preferences::from_values(values(problems));
}

void PreferenceStore::set(const std::map<std::string, std::string>& changes) {
  std::map<std::string, std::string> rows;
  for (const auto& [k, v] : changes) rows[std::string(kPrefix) + k] = validate_preference(k, v);
  settings_.set(rows);
}

void PreferenceStore::reset() {
  for (const auto& spec : kTable) settings_.erase(std::string(kPrefix) + spec.key);
}

}  // namespace rookery::governor
