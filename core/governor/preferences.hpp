#pragma once
// The owner's preferences for how much of the PC Rookery may use. One table (kPreferenceTable
// in preferences.cpp) holds every setting: its key, scope, type, range, default and label.
// Settings with an *in use* and an *idle* value (BOINC's model) appear twice, as
// "in_use.<name>" and "idle.<name>". Values persist in the state database under
// "governor.<key>"; an unknown key or an out-of-range value is refused with the reason and
// changes nothing.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "governor/schedule.hpp"

namespace rookery::store {
class Settings;
}

namespace rookery::governor {

enum class Scope { InUse, Idle, Always };
enum class PreferenceType { Bool, Integer, Schedule, ProgramList };

struct PreferenceSpec {
  const char* key;
  Scope scope;
  PreferenceType type;
  const char* default_value;
  std::int64_t min = 0;
  std::int64_t max = 0;
  const char* unit = "";
  const char* label = "";
};

const std::vector<PreferenceSpec>& preference_table();
const PreferenceSpec* find_preference(const std::string& key);
const char* scope_name(Scope s);  // "in_use", "idle", "always"
const char* type_name(PreferenceType t);

// The limits of one profile (in use, or idle).
struct Profile {
  bool run = true;              // compute at all in this profile
  int cpu_cores_percent = 100;  // share of logical cores for intra-op threads
  int cpu_time_percent = 100;   // duty cycle
  bool use_gpu = true;
  int memory_percent = 90;  // of physical RAM, for the node's resident memory
};

// Every preference, typed. Built from text values by Preferences::from_values.
struct Preferences {
  Profile in_use;
  Profile idle;
  int idle_after_minutes = 3;
  int pause_above_other_cpu_percent = 0;  // 0: off
  bool pause_on_battery = true;
  std::string schedule_text;
  WeeklySchedule schedule;
  std::int64_t upload_kib_per_s = 0;  // 0: unlimited
  std::int64_t download_kib_per_s = 0;
  bool pause_while_fullscreen = true;
  std::vector<std::string> exclusive_programs;
  int gpu_max_temperature_c = 80;  // 0: off
  // On pause the node stops taking new micro-batches and finishes the ones in flight first,
  // so its pipeline neighbours see a clean stop rather than timeouts.
  bool finish_micro_batches_before_pause = true;

  static Preferences defaults();
  // All values by key (defaults for the keys missing). Throws std::invalid_argument for an
  // unknown key or an invalid value, naming it.
  static Preferences from_values(const std::map<std::string, std::string>& values);
};

// Checks one value against its spec and returns it in canonical form ("true", "50").
// Throws std::invalid_argument: "in_use.cpu_time_percent: 150 is outside 1-100 %".
std::string validate_preference(const std::string& key, const std::string& value);

// The preferences in the state database.
class PreferenceStore {
 public:
  explicit PreferenceStore(store::Settings& settings) : settings_(settings) {}
  // Current values of every preference, defaults filled in. A stored value that no longer
  // validates (written by another version) falls back to its default and is reported in
  // `problems`, never deleted.
  std::map<std::string, std::string> values(std::vector<std::string>* problems = nullptr);
  Preferences load(std::vector<std::string>* problems = nullptr);
  // Validates all, then writes all in one transaction. Throws std::invalid_argument (nothing written).
  void set(const std::map<std::string, std::string>& changes);
  void reset();

  static constexpr const char* kPrefix = "governor.";

 private:
  store::Settings& settings_;
};

}  // namespace rookery::governor
