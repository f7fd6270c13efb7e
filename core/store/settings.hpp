#pragma once
// Settings in the state database: text values under dotted keys ("governor.in_use.cpu_time_percent").
// What a key means, its type and default belong to its owner (the governor's preference
// table); this layer stores and returns text and changes several keys atomically.
#include <map>
#include <optional>
#include <string>

#include "store/database.hpp"

namespace rookery::store {

class Settings {
 public:
  explicit Settings(Database& db) : db_(db) {}

  std::optional<std::string> get(const std::string& key);
  // Every key starting with `prefix`, sorted.
  std::map<std::string, std::string> all(const std::string& prefix = {});
  // All written in one transaction, or none.
  void set(const std::map<std::string, std::string>& values);
  void set(const std::string& key, const std::string& value) { set({{key, value}}); }
  void erase(const std::string& key);
  void erase_prefix(const std::string& prefix);

 private:
  Database& db_;
};

}  // namespace rookery::store
