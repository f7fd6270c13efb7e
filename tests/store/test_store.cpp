// The state database: WAL, migrations applied once and in order, a newer or damaged file
// refused and left untouched, settings written atomically and kept across reopening.
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <iterator>

#include "store/database.hpp"
#include "store/settings.hpp"

using namespace rookery;

namespace {
std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}
}  // namespace

class TestStore : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  std::filesystem::path file(const char* name) {
    return std::filesystem::path(dir_.path().toStdString()) / name;
  }

 private Q_SLOTS:
  void freshDatabaseIsWalAtTheNewestSchema() {
    store::Database db(file("fresh.db"));
    QCOMPARE(db.journal_mode(), std::string("wal"));
    QCOMPARE(db.schema_version(), store::schema_migrations().back().version);
    auto s = db.prepare("SELECT COUNT(*) FROM settings");
    QVERIFY(s.step());
    QCOMPARE(s.integer(0), std::int64_t{0});
  }

  void migrationsApplyOnceAndInOrder() {
    const auto path = file("migrate.db");
    std::vector<store::Migration> v1 = {{1, "a", "CREATE TABLE a (x INTEGER)"}};
    {
      store::Database db(path, v1);
      QCOMPARE(db.schema_version(), 1);
      db.execute("INSERT INTO a VALUES (7)");
    }
    auto v2 = v1;
    v2.push_back({2, "b", "CREATE TABLE b (y TEXT); INSERT INTO b VALUES ('from 2')"});
    {
      store::Database db(path, v2);  // applies only 2; migration 1 would fail if re-run
      QCOMPARE(db.schema_version(), 2);
      auto s = db.prepare("SELECT x FROM a");
      QVERIFY(s.step());
      QCOMPARE(s.integer(0), std::int64_t{7});
    }
    {
      store::Database db(path, v2);  // nothing left to apply: the row is not inserted twice
      auto s = db.prepare("SELECT COUNT(*) FROM b");
      QVERIFY(s.step());
      QCOMPARE(s.integer(0), std::int64_t{1});
    }
    // A failing migration leaves the file at the previous version.
    auto bad = v2;
    bad.push_back({3, "broken", "CREATE TABLE c (z INTEGER); THIS IS NOT SQL"});
    QVERIFY_THROWS_EXCEPTION(store::StoreError, store::Database(path, bad));
    store::Database db(path, v2);
    QCOMPARE(db.schema_version(), 2);
    QVERIFY_THROWS_EXCEPTION(store::StoreError, db.prepare("SELECT * FROM c"));
  }

  void newerSchemaIsRefusedAndKept() {
    const auto path = file("newer.db");
    { store::Database db(path, {{1, "a", "CREATE TABLE a (x)"}, {2, "b", "CREATE TABLE b (x)"}}); }
    const auto before = read_all(path);
    try {
      store::Database db(path, {{1, "a", "CREATE TABLE a (x)"}});
      QFAIL("a newer schema was accepted");
    } catch (const store::StoreError& e) {
      QVERIFY2(std::string(e.what()).find("newer") != std::string::npos, e.what());
    }
    QCOMPARE(read_all(path), before);
  }

  void damagedFileIsRefusedAndKept() {
    const auto path = file("damaged.db");
    {
      std::ofstream out(path, std::ios::binary);
      for (int i = 0; i < 4096; ++i) out.put(static_cast<char>((i * 131 + 7) & 0xff));
    }
    const auto before = read_all(path);
    try {
      store::Database db(path);
      QFAIL("a damaged file was accepted");
    } catch (const store::StoreError& e) {
      const std::string what = e.what();
      QVERIFY2(what.find(path.string()) != std::string::npos, e.what());
      QVERIFY2(what.find("left as it is") != std::string::npos, e.what());
    }
    QCOMPARE(read_all(path), before);
    QVERIFY(!std::filesystem::exists(path.string() + "-wal") ||
            std::filesystem::file_size(path.string() + "-wal") == 0);
  }

  void settingsPersistAndChangeAtomically() {
    const auto path = file("settings.db");
    {
      store::Database db(path);
      store::Settings s(db);
      QVERIFY(!s.get("governor.x").has_value());
      s.set({{"governor.x", "1"}, {"governor.y", "two"}, {"ledger.z", "3"}});
      s.set("governor.x", "10");
      QCOMPARE(*s.get("governor.x"), std::string("10"));
      const auto g = s.all("governor.");
      QCOMPARE(g.size(), std::size_t{2});
      QCOMPARE(g.at("governor.y"), std::string("two"));
      QCOMPARE(s.all().size(), std::size_t{3});
      // A transaction that throws half-way changes nothing.
      QVERIFY_THROWS_EXCEPTION(std::runtime_error, db.transaction([&](store::Database&) {
        s.set("governor.x", "99");
        throw std::runtime_error("abandoned");
      }));
      QCOMPARE(*s.get("governor.x"), std::string("10"));
    }
    store::Database db(path);
    store::Settings s(db);
    QCOMPARE(*s.get("governor.x"), std::string("10"));
    QCOMPARE(*s.get("ledger.z"), std::string("3"));
    s.erase_prefix("governor.");
    QCOMPARE(s.all().size(), std::size_t{1});
    s.erase("ledger.z");
    QVERIFY(s.all().empty());
  }
};

QTEST_GUILESS_MAIN(TestStore)
#include "test_store.moc"
