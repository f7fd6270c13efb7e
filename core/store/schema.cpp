// The state database's schema, as numbered migrations. Append, never edit a released one:
// a user's file has already applied it.
#include "store/database.hpp"

namespace rookery::store {

const std::vector<Migration>& schema_migrations() {
  static const std::vector<Migration> migrations = {
      {1, "settings",
       "CREATE TABLE settings ("
       " key TEXT PRIMARY KEY NOT NULL,"
       " value TEXT NOT NULL,"
       " updated_unix_ms INTEGER NOT NULL)"},
  };
  return migrations;
}

}  // namespace rookery::store
