#include "store/database.hpp"

#include <sqlite3.h>

#include <chrono>

#include "clock/clock.hpp"

namespace rookery::store {

namespace {
using clock::unix_ms;
}  // namespace

// --- Statement ---

Statement::Statement(Statement&& o) noexcept
    : db_(o.db_), lock_(std::move(o.lock_)), stmt_(o.stmt_) {
  o.stmt_ = nullptr;
}

Statement::~Statement() {
  if (stmt_) sqlite3_finalize(stmt_);
}

Statement& Statement::bind(int index, const std::string& value) {
  const int rc = sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()),
                                   SQLITE_TRANSIENT);
  if (rc != SQLITE_OK) db_->fail("bind", rc);
  return *this;
}

Statement& Statement::bind_blob(int index, const std::string& bytes) {
  const int rc = sqlite3_bind_blob(stmt_, index, bytes.data(), static_cast<int>(bytes.size()),
                                   SQLITE_TRANSIENT);
  if (rc != SQLITE_OK) db_->fail("bind", rc);
  return *this;
}

Statement& Statement::bind(int index, std::int64_t value) {
  const int rc = sqlite3_bind_int64(stmt_, index, value);
  if (rc != SQLITE_OK) db_->fail("bind", rc);
  return *this;
}

Statement& Statement::bind_null(int index) {
  const int rc = sqlite3_bind_null(stmt_, index);
  if (rc != SQLITE_OK) db_->fail("bind", rc);
  return *this;
}

Statement& Statement::bind_real(int index, double value) {
  const int rc = sqlite3_bind_double(stmt_, index, value);
  if (rc != SQLITE_OK) db_->fail("bind", rc);
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  db_->fail(sqlite3_sql(stmt_), rc);
}

Statement& Statement::reset() {
  sqlite3_reset(stmt_);  // returns the last step's error, which step() has already thrown
  sqlite3_clear_bindings(stmt_);
  return *this;
}

std::string Statement::text(int column) const {
  const auto* p = sqlite3_column_text(stmt_, column);
  return p ? std::string(reinterpret_cast<const char*>(p),
                         static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)))
           : std::string();
}

std::string Statement::blob(int column) const {
  const auto* p = sqlite3_column_blob(stmt_, column);
  return p ? std::string(static_cast<const char*>(p),
                         static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)))
           : std::string();
}

std::int64_t Statement::integer(int column) const { return sqlite3_column_int64(stmt_, column); }

double Statement::real(int column) const { return sqlite3_column_double(stmt_, column); }

bool Statement::is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

// --- Database ---

Database::Database(const std::filesystem::path& path) : Database(path, schema_migrations()) {}

Database::Database(const std::filesystem::path& path, const std::vector<Migration>& migrations)
    : path_(path) {
  const int rc =
      sqlite3_open_v2(path.c_str(), &db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    if (db_) sqlite3_close(db_);
    db_ = nullptr;
    throw StoreError("cannot open the state database " + path.string() + ": " + why);
  }
  sqlite3_commit_hook(
      db_,
      [](void* self) {
        ++static_cast<Database*>(self)->commits_;
        return 0;  // 0: let the commit go ahead
      },
      this);
  try {
    sqlite3_busy_timeout(db_, 5000);
    // The first read of the file: a file that is not a database fails here, untouched.
    execute("PRAGMA schema_version");
    if (journal_mode() != "wal") {
      auto s = prepare("PRAGMA journal_mode=WAL");
      s.step();
    }
    execute("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON");
    migrate(migrations);
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

Database::~Database() {
  if (db_) sqlite3_close(db_);
}

void Database::fail(const std::string& what, int code) const {
  std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(code);
  const int primary = code & 0xff;
  if (primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT) {
    throw StoreError("the state database " + path_.string() +
                     " is damaged or not a Rookery database (" + msg +
                     "); it was left as it is: move it aside to start with fresh state");
  }
  throw StoreError("state database " + path_.string() + ": " + msg + " (in: " + what + ")");
}

std::string Database::journal_mode() {
  auto s = prepare("PRAGMA journal_mode");
  return s.step() ? s.text(0) : std::string();
}

void Database::execute(const std::string& sql) {
  std::lock_guard lock(mutex_);
  char* err = nullptr;
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err);
  sqlite3_free(err);  // fail() reads the same message from the connection
  if (rc != SQLITE_OK) fail(sql.substr(0, 60), rc);
}

Statement Database::prepare(const std::string& sql) {
  std::unique_lock lock(mutex_);
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) fail(sql, rc);
  return Statement(*this, std::move(lock), stmt);
}

void Database::transaction(const std::function<void(Database&)>& body) {
  std::lock_guard lock(mutex_);
  execute("BEGIN IMMEDIATE");
  try {
    body(*this);
    // A COMMIT can fail too (the disk is full): the transaction is then still open and must
    // be rolled back, or the connection could never begin another one.
    execute("COMMIT");
  } catch (...) {
    if (!sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

int Database::schema_version() {
  auto s = prepare("SELECT COALESCE(MAX(version), 0) FROM schema_version");
  return s.step() ? static_cast<int>(s.integer(0)) : 0;
}

void Database::migrate(const std::vector<Migration>& migrations) {
  execute(
      "CREATE TABLE IF NOT EXISTS schema_version ("
      " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_unix_ms INTEGER NOT NULL)");
  const int have = schema_version();
  int newest = 0;
  for (const auto& m : migrations) newest = std::max(newest, m.version);
  if (have > newest) {
    throw StoreError("the state database " + path_.string() + " has schema version " +
                     std::to_string(have) + ", newer than this Rookery knows (" +
                     std::to_string(newest) +
                     "): it was written by a newer version and was left as it is");
  }
  int previous = 0;
  for (const auto& m : migrations) {
    if (m.version <= previous)
      throw StoreError("state schema migrations out of order at version " +
                       std::to_string(m.version));
    previous = m.version;
    if (m.version <= have) continue;
    transaction([&](Database& db) {
      db.execute(m.sql);
      db.prepare("INSERT INTO schema_version (version, name, applied_unix_ms) VALUES (?, ?, ?)")
          .bind(1, std::int64_t{m.version})
          .bind(2, m.name)
          .bind(3, unix_ms())
          .step();
    });
  }
}

}  // namespace rookery::store
