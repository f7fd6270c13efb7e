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
      // The contribution ledger (ledger.hpp): a row per unit of work, kept for a while;
      // quarter-hour sums kept for good (every time zone's hours and days are whole
      // quarters); one row of totals with the recent average credit.
      {2, "contribution ledger",
       "CREATE TABLE ledger_units ("
       " id INTEGER PRIMARY KEY,"
       " finished_unix_ms INTEGER NOT NULL,"
       " job_id TEXT NOT NULL,"
       " samples INTEGER NOT NULL CHECK (samples >= 0),"
       " flops REAL NOT NULL CHECK (flops >= 0),"
       " seconds REAL NOT NULL CHECK (seconds >= 0),"
       " bytes_sent INTEGER NOT NULL CHECK (bytes_sent >= 0),"
       " bytes_received INTEGER NOT NULL CHECK (bytes_received >= 0),"
       " credit REAL NOT NULL CHECK (credit >= 0));"
       "CREATE INDEX ledger_units_by_time ON ledger_units (finished_unix_ms);"
       "CREATE TABLE ledger_quarters ("
       " start_unix_s INTEGER PRIMARY KEY CHECK (start_unix_s % 900 = 0),"
       " units INTEGER NOT NULL,"
       " samples INTEGER NOT NULL,"
       " flops REAL NOT NULL,"
       " seconds REAL NOT NULL,"
       " bytes_sent INTEGER NOT NULL,"
       " bytes_received INTEGER NOT NULL,"
       " credit REAL NOT NULL);"
       "CREATE TABLE ledger_totals ("
       " id INTEGER PRIMARY KEY CHECK (id = 1),"
       " units INTEGER NOT NULL,"
       " samples INTEGER NOT NULL,"
       " flops REAL NOT NULL,"
       " seconds REAL NOT NULL,"
       " bytes_sent INTEGER NOT NULL,"
       " bytes_received INTEGER NOT NULL,"
       " credit REAL NOT NULL,"
       " rac REAL NOT NULL,"
       " rac_unix_ms INTEGER NOT NULL,"
       " first_unix_ms INTEGER NOT NULL,"
       " last_unix_ms INTEGER NOT NULL);"
       "INSERT INTO ledger_totals VALUES (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)"},
  };
  return migrations;
}

}  // namespace rookery::store
