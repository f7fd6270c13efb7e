#include "store/settings.hpp"

#include <chrono>

#include "clock/clock.hpp"

namespace rookery::store {

namespace {
using clock::unix_ms;

// The first key after every key that starts with `prefix` (prefix with its last byte raised).
std::string prefix_end(std::string prefix) {
  while (!prefix.empty() && static_cast<unsigned char>(prefix.back()) == 0xff) prefix.pop_back();
  if (!prefix.empty())
    prefix.back() = static_cast<char>(static_cast<unsigned char>(prefix.back()) + 1);
  return prefix;
}
}  // namespace

std::optional<std::string> Settings::get(const std::string& key) {
  auto s = db_.prepare("SELECT value FROM settings WHERE key = ?");
  s.bind(1, key);
  if (!s.step()) return std::nullopt;
  return s.text(0);
}

std::map<std::string, std::string> Settings::all(const std::string& prefix) {
  std::map<std::string, std::string> out;
  const auto end = prefix_end(prefix);
  auto s = end.empty() ? db_.prepare("SELECT key, value FROM settings WHERE key >= ?")
                       : db_.prepare("SELECT key, value FROM settings WHERE key >= ? AND key < ?");
  s.bind(1, prefix);
  if (!end.empty()) s.bind(2, end);
  while (s.step()) out.emplace(s.text(0), s.text(1));
  return out;
}

void Settings::set(const std::map<std::string, std::string>& values) {
  const auto now = unix_ms();
  db_.transaction([&](Database& db) {
    for (const auto& [k, v] : values) {
      db.prepare(
            "INSERT INTO settings (key, value, updated_unix_ms) VALUES (?, ?, ?)"
            " ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_unix_ms = "
            "excluded.updated_unix_ms")
          .bind(1, k)
          .bind(2, v)
          .bind(3, now)
          .step();
    }
  });
}

void Settings::erase(const std::string& key) {
  db_.prepare("DELETE FROM settings WHERE key = ?").bind(1, key).step();
}

void Settings::erase_prefix(const std::string& prefix) {
  const auto end = prefix_end(prefix);
  if (end.empty()) {
    db_.prepare("DELETE FROM settings WHERE key >= ?").bind(1, prefix).step();
  } else {
    db_.prepare("DELETE FROM settings WHERE key >= ? AND key < ?")
        .bind(1, prefix)
        .bind(2, end)
        .step();
  }
}

}  // namespace rookery::store
