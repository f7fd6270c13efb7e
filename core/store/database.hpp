#pragma once
// The node's state database: one SQLite file in the data folder, in WAL mode, whose schema
// is a list of numbered migrations. Opening applies the ones the file has not seen yet, each
// in its own transaction, and records them in `schema_version`. A file that is not a
// database, is corrupt, or was written by a newer Rookery is refused with the reason and
// left exactly as it was.
//
// Thread-safe: one connection, serialised by a mutex; statements run to completion inside
// the call that issues them.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace rookery::store {

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Migration {
  int version;       // 1, 2, 3 ...: each applied once, in order
  std::string name;  // "settings", "contribution ledger"
  std::string sql;   // one or more statements
};

// The migrations of Rookery's state database (schema.cpp); new parts append here.
const std::vector<Migration>& schema_migrations();

class Database;

// A prepared statement bound to values; step() walks the rows.
class Statement {
 public:
  Statement(Statement&&) noexcept;
  ~Statement();
  Statement& bind(int index, const std::string& value);  // 1-based, as in SQLite
  Statement& bind(int index, std::int64_t value);
  Statement& bind_null(int index);
  // Named apart from bind(): an int literal must not become ambiguous between the two.
  Statement& bind_real(int index, double value);
  Statement& bind_blob(int index, const std::string& bytes);
  bool step();  // true: a row is ready; false: done. Throws StoreError.
  // Back to before the first step with no values bound, to run again with new ones.
  Statement& reset();
  std::string text(int column) const;
  std::string blob(int column) const;  // the bytes as stored (a text column's too)
  std::int64_t integer(int column) const;
  double real(int column) const;
  bool is_null(int column) const;

 private:
  friend class Database;
  Statement(Database& db, std::unique_lock<std::recursive_mutex> lock, sqlite3_stmt* stmt)
      : db_(&db), lock_(std::move(lock)), stmt_(stmt) {}
  Database* db_;
  std::unique_lock<std::recursive_mutex> lock_;  // the connection is ours while the statement lives
  sqlite3_stmt* stmt_;
};

class Database {
 public:
  // Opens or creates `path` and applies `migrations` (default: the state schema).
  explicit Database(const std::filesystem::path& path);
  Database(const std::filesystem::path& path, const std::vector<Migration>& migrations);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  const std::filesystem::path& path() const { return path_; }
  int schema_version();  // the highest applied migration
  std::string journal_mode();

  // Runs `body` inside one transaction holding the connection: committed when it returns,
  // rolled back when it throws (the exception propagates).
  void transaction(const std::function<void(Database&)>& body);
  // Inside transaction() or on its own (then the call is its own transaction).
  void execute(const std::string& sql);
  Statement prepare(const std::string& sql);
  // Transactions this connection has committed since it was opened (SQLite's commit hook:
  // explicit transactions and single autocommit statements alike). For tests of batching.
  std::uint64_t commits() const { return commits_.load(); }

 private:
  friend class Statement;
  [[noreturn]] void fail(const std::string& what, int code) const;
  void migrate(const std::vector<Migration>& migrations);

  std::filesystem::path path_;
  sqlite3* db_ = nullptr;
  std::recursive_mutex mutex_;
  std::atomic<std::uint64_t> commits_{0};
};

}  // namespace rookery::store
