#include "coordinator/coordinator_state.hpp"

#include <nlohmann/json.hpp>

#include "coordinator/verdicts.hpp"

namespace rookery::coordinator {

const std::vector<store::Migration>& coordinator_migrations() {
  static const std::vector<store::Migration> m = {
      {1, "volunteers, plans, contributions, loss",
       "CREATE TABLE members ("
       " key TEXT PRIMARY KEY NOT NULL,"
       " flops_per_s REAL NOT NULL, free_memory_bytes INTEGER NOT NULL,"
       " upload_bytes_per_s REAL NOT NULL, download_bytes_per_s REAL NOT NULL, rtt_s REAL NOT NULL,"
       " stage_endpoint TEXT NOT NULL, reduce_endpoint TEXT NOT NULL, shard_endpoint TEXT NOT NULL,"
       " updated_unix_ms INTEGER NOT NULL);"
       "CREATE TABLE plans ("
       " version INTEGER PRIMARY KEY NOT NULL,"
       " seats_json TEXT NOT NULL,"
       " created_unix_ms INTEGER NOT NULL);"
       "CREATE TABLE contributions ("
       " key TEXT PRIMARY KEY NOT NULL,"
       " samples INTEGER NOT NULL, micro_batches INTEGER NOT NULL, flops REAL NOT NULL,"
       " reported_samples INTEGER NOT NULL, reported_micro_batches INTEGER NOT NULL, "
       "reported_flops REAL NOT NULL,"
       " first_seen_unix_ms INTEGER NOT NULL, last_seen_unix_ms INTEGER NOT NULL);"
       "CREATE TABLE loss ("
       " unix_ms INTEGER NOT NULL,"
       " loss REAL NOT NULL);"
       "CREATE INDEX loss_by_time ON loss(unix_ms);"},
      {2, "banned volunteers",
       "CREATE TABLE banned ("
       " key TEXT PRIMARY KEY NOT NULL,"
       " reason TEXT NOT NULL,"
       " unix_ms INTEGER NOT NULL)"},
      {3, "receipts: the work of each volunteer that its peers confirm consuming",
       "ALTER TABLE contributions ADD COLUMN confirmed_forward INTEGER NOT NULL DEFAULT 0;"
       "ALTER TABLE contributions ADD COLUMN confirmed_backward INTEGER NOT NULL DEFAULT 0;"
       "CREATE TABLE receipts ("
       " consumer TEXT NOT NULL, producer TEXT NOT NULL,"
       " forward_samples INTEGER NOT NULL, backward_samples INTEGER NOT NULL,"
       " PRIMARY KEY (consumer, producer))"},
      {4, "invites that expire and can be revoked",
       "CREATE TABLE invites ("
       " token TEXT PRIMARY KEY NOT NULL,"
       " created_unix_ms INTEGER NOT NULL,"
       " expires_unix_ms INTEGER NOT NULL,"    // 0: never
       " revoked_unix_ms INTEGER NOT NULL)"},  // 0: not revoked
      {5, "a ban's evidence as a code (a serialized Verdict; empty for older bans)",
       "ALTER TABLE banned ADD COLUMN verdict BLOB NOT NULL DEFAULT x''"},
      {6, "the model archive's snapshots, their evaluations, blocks restored from them",
       "CREATE TABLE snapshots ("
       " seq INTEGER PRIMARY KEY NOT NULL,"
       " unix_ms INTEGER NOT NULL,"
       " plan_version INTEGER NOT NULL);"
       "CREATE TABLE evaluations ("
       " unix_ms INTEGER NOT NULL,"
       " loss REAL NOT NULL,"  // the held-out loss: the validation curve
       " body BLOB NOT NULL);"  // the whole Evaluation, serialized
       "CREATE INDEX evaluations_by_time ON evaluations(unix_ms);"
       "CREATE TABLE restorations ("
       " unix_ms INTEGER NOT NULL,"
       " first_block INTEGER NOT NULL, last_block INTEGER NOT NULL,"
       " snapshot INTEGER NOT NULL)"},
  };
  return m;
}

namespace {

double real(store::Statement& s, int column) { return std::stod(s.text(column)); }
std::string real_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// A contributions row, read in this column order by read_contribution.
constexpr const char* kContributionColumns =
    "samples, micro_batches, flops, reported_samples, reported_micro_batches, reported_flops,"
    " first_seen_unix_ms, last_seen_unix_ms, confirmed_forward, confirmed_backward";
constexpr int kContributionColumnCount = 10;

Contribution read_contribution(store::Statement& q) {
  Contribution c;
  c.samples = q.integer(0);
  c.micro_batches = q.integer(1);
  c.flops = real(q, 2);
  c.reported_samples = q.integer(3);
  c.reported_micro_batches = q.integer(4);
  c.reported_flops = real(q, 5);
  c.first_seen_unix_ms = q.integer(6);
  c.last_seen_unix_ms = q.integer(7);
  c.confirmed_forward_samples = q.integer(8);
  c.confirmed_backward_samples = q.integer(9);
  return c;
}
}  // namespace

std::string assignment_to_json(const Assignment& a) {
  nlohmann::json pipelines = nlohmann::json::array();
  for (const auto& p : a.pipelines) {
    nlohmann::json seats = nlohmann::json::array();
    for (const auto& s : p)
      seats.push_back({{"key", s.key}, {"blocks", {s.first_block, s.last_block}}});
    pipelines.push_back(std::move(seats));
  }
  return nlohmann::json{{"version", a.version},
                        {"pipelines", pipelines},
                        {"predicted_samples_per_s", a.predicted_samples_per_s}}
      .dump();
}

Assignment assignment_from_json(const std::string& json) {
  try {
    const auto j = nlohmann::json::parse(json);
    Assignment a;
    a.version = j.at("version").get<std::uint64_t>();
    a.predicted_samples_per_s = j.value("predicted_samples_per_s", 0.0);
    for (const auto& p : j.at("pipelines")) {
      std::vector<Seat> seats;
      for (const auto& s : p) {
        seats.push_back({s.at("key").get<std::string>(), s.at("blocks").at(0).get<std::int64_t>(),
                         s.at("blocks").at(1).get<std::int64_t>()});
      }
      a.pipelines.push_back(std::move(seats));
    }
    return a;
  } catch (const nlohmann::json::exception& e) {
    throw store::StoreError(std::string("a stored plan is not valid: ") + e.what());
  }
}

CoordinatorState::CoordinatorState(const std::filesystem::path& path)
    : db_(path, coordinator_migrations()) {}

void CoordinatorState::save_member(const Member& m, std::int64_t now_ms) {
  db_.prepare(
         "INSERT INTO members VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) ON CONFLICT(key) DO "
         "UPDATE SET"
         " flops_per_s = ?2, free_memory_bytes = ?3, upload_bytes_per_s = ?4, download_bytes_per_s "
         "= ?5, rtt_s = ?6,"
         " stage_endpoint = ?7, reduce_endpoint = ?8, shard_endpoint = ?9, updated_unix_ms = ?10")
      .bind(1, m.key)
      .bind(2, real_text(m.profile.flops_per_s))
      .bind(3, static_cast<std::int64_t>(m.profile.free_memory_bytes))
      .bind(4, real_text(m.profile.upload_bytes_per_s))
      .bind(5, real_text(m.profile.download_bytes_per_s))
      .bind(6, real_text(m.profile.rtt_s))
      .bind(7, m.stage_endpoint)
      .bind(8, m.reduce_endpoint)
      .bind(9, m.shard_endpoint)
      .bind(10, now_ms)
      .step();
}

void CoordinatorState::remove_member(const std::string& key) {
  db_.prepare("DELETE FROM members WHERE key = ?1").bind(1, key).step();
}

std::vector<Member> CoordinatorState::members() {
  std::vector<Member> out;
  auto s = db_.prepare(
      "SELECT key, flops_per_s, free_memory_bytes, upload_bytes_per_s, download_bytes_per_s, rtt_s,"
      " stage_endpoint, reduce_endpoint, shard_endpoint FROM members ORDER BY key");
  while (s.step()) {
    Member m;
    m.key = s.text(0);
    m.profile.id = m.key;
    m.profile.flops_per_s = real(s, 1);
    m.profile.free_memory_bytes = s.integer(2);
    m.profile.upload_bytes_per_s = real(s, 3);
    m.profile.download_bytes_per_s = real(s, 4);
    m.profile.rtt_s = real(s, 5);
    m.stage_endpoint = s.text(6);
    m.reduce_endpoint = s.text(7);
    m.shard_endpoint = s.text(8);
    out.push_back(std::move(m));
  }
  return out;
}

namespace {

constexpr const char* kUpsertProgress =
    "INSERT INTO contributions (key, samples, micro_batches, flops, reported_samples, "
    "reported_micro_batches,"
    " reported_flops, first_seen_unix_ms, last_seen_unix_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
    "?7, ?8, ?9)"
    " ON CONFLICT(key) DO UPDATE SET samples = ?2, micro_batches = ?3, flops = ?4, "
    "reported_samples = ?5,"
    " reported_micro_batches = ?6, reported_flops = ?7, last_seen_unix_ms = ?9";

// One progress report, inside the caller's transaction, with its two statements prepared once
// for a batch.
Contribution add_progress(store::Statement& select, store::Statement& upsert,
                          const ProgressReport& r, std::int64_t now_ms) {
  Contribution c;
  select.reset().bind(1, r.key);
  if (select.step()) {
    c = read_contribution(select);
  } else {
    c.first_seen_unix_ms = now_ms;
  }
  select.reset();  // the read ends before the write
  // A counter below the last report: the node restarted, and counts from 0 again.
  const bool restarted =
      r.samples < c.reported_samples || r.micro_batches < c.reported_micro_batches;
  c.samples += restarted ? r.samples : r.samples - c.reported_samples;
  c.micro_batches += restarted ? r.micro_batches : r.micro_batches - c.reported_micro_batches;
  c.flops += restarted ? r.flops : std::max(0.0, r.flops - c.reported_flops);
  c.reported_samples = r.samples;
  c.reported_micro_batches = r.micro_batches;
  c.reported_flops = r.flops;
  c.last_seen_unix_ms = now_ms;
  upsert.reset()
      .bind(1, r.key)
      .bind(2, c.samples)
      .bind(3, c.micro_batches)
      .bind(4, real_text(c.flops))
      .bind(5, c.reported_samples)
      .bind(6, c.reported_micro_batches)
      .bind(7, real_text(c.reported_flops))
      .bind(8, c.first_seen_unix_ms)
      .bind(9, c.last_seen_unix_ms)
      .step();
  return c;
}

}  // namespace

Contribution CoordinatorState::record_progress(const std::string& key, std::int64_t samples,
                                               std::int64_t micro_batches, double flops,
                                               std::int64_t now_ms) {
  return record_progress({{key, samples, micro_batches, flops}}, now_ms).at(key);
}

std::map<std::string, Contribution> CoordinatorState::record_progress(
    const std::vector<ProgressReport>& reports, std::int64_t now_ms) {
  std::map<std::string, Contribution> out;
  db_.transaction([&](store::Database& db) {
    auto select = db.prepare("SELECT " + std::string(kContributionColumns) +
                             " FROM contributions WHERE key = ?1");
    auto upsert = db.prepare(kUpsertProgress);
    for (const auto& r : reports) out[r.key] = add_progress(select, upsert, r, now_ms);
  });
  return out;
}

std::map<std::string, Contribution> CoordinatorState::contributions() {
  std::map<std::string, Contribution> out;
  auto s = db_.prepare("SELECT " + std::string(kContributionColumns) + ", key FROM contributions");
  while (s.step()) out[s.text(kContributionColumnCount)] = read_contribution(s);
  return out;
}

namespace {

// One consumer's receipts, inside the caller's transaction; the producers' totals go to `touched`.
void add_receipts(store::Database& db, const std::string& consumer,
                  const std::vector<ReceiptReport>& receipts, std::int64_t now_ms,
                  std::map<std::string, Contribution>& touched) {
  for (const auto& r : receipts) {
    if (r.producer == consumer || r.producer.empty() || r.forward_samples < 0 ||
        r.backward_samples < 0)
      continue;
    std::int64_t last_forward = 0, last_backward = 0;
    {
      auto q = db.prepare(
          "SELECT forward_samples, backward_samples FROM receipts WHERE consumer = ?1 AND "
          "producer = ?2");
      q.bind(1, consumer).bind(2, r.producer);
      if (q.step()) {
        last_forward = q.integer(0);
        last_backward = q.integer(1);
      }
    }
    // Totals below the last report: the consumer restarted, and counts from 0 again.
    const bool restarted = r.forward_samples < last_forward || r.backward_samples < last_backward;
    const std::int64_t forward = restarted ? r.forward_samples : r.forward_samples - last_forward;
    const std::int64_t backward =
        restarted ? r.backward_samples : r.backward_samples - last_backward;
    db.prepare("INSERT OR REPLACE INTO receipts VALUES (?1, ?2, ?3, ?4)")
        .bind(1, consumer)
        .bind(2, r.producer)
        .bind(3, r.forward_samples)
        .bind(4, r.backward_samples)
        .step();
    if (forward == 0 && backward == 0) continue;
    db.prepare(
          "INSERT INTO contributions (key, samples, micro_batches, flops, reported_samples, "
          "reported_micro_batches,"
          " reported_flops, first_seen_unix_ms, last_seen_unix_ms, confirmed_forward, "
          "confirmed_backward)"
          " VALUES (?1, 0, 0, '0', 0, 0, '0', ?2, ?2, ?3, ?4) ON CONFLICT(key) DO UPDATE SET"
          " confirmed_forward = confirmed_forward + ?3, confirmed_backward = confirmed_backward "
          "+ ?4")
        .bind(1, r.producer)
        .bind(2, now_ms)
        .bind(3, forward)
        .bind(4, backward)
        .step();
    auto q = db.prepare("SELECT " + std::string(kContributionColumns) +
                        " FROM contributions WHERE key = ?1");
    q.bind(1, r.producer);
    if (q.step()) touched[r.producer] = read_contribution(q);
  }
}

}  // namespace

std::map<std::string, Contribution> CoordinatorState::record_receipts(
    const std::string& consumer, const std::vector<ReceiptReport>& receipts, std::int64_t now_ms) {
  return record_receipts({{consumer, receipts}}, now_ms);
}

std::map<std::string, Contribution> CoordinatorState::record_receipts(
    const std::vector<std::pair<std::string, std::vector<ReceiptReport>>>& by_consumer,
    std::int64_t now_ms) {
  std::map<std::string, Contribution> touched;
  db_.transaction([&](store::Database& db) {
    for (const auto& [consumer, receipts] : by_consumer) {
      add_receipts(db, consumer, receipts, now_ms, touched);
    }
  });
  return touched;
}

void CoordinatorState::save_plan(const Assignment& plan, std::int64_t now_ms) {
  db_.prepare("INSERT OR REPLACE INTO plans VALUES (?1, ?2, ?3)")
      .bind(1, static_cast<std::int64_t>(plan.version))
      .bind(2, assignment_to_json(plan))
      .bind(3, now_ms)
      .step();
}

std::pair<Assignment, Assignment> CoordinatorState::latest_plans() {
  std::pair<Assignment, Assignment> out;
  auto s = db_.prepare("SELECT seats_json FROM plans ORDER BY version DESC LIMIT 2");
  if (s.step()) out.first = assignment_from_json(s.text(0));
  if (s.step()) out.second = assignment_from_json(s.text(0));
  return out;
}

std::int64_t CoordinatorState::plan_count() {
  auto s = db_.prepare("SELECT COUNT(*) FROM plans");
  s.step();
  return s.integer(0);
}

void CoordinatorState::ban(const std::string& key, const wire::pb::Verdict& why,
                           std::int64_t unix_ms) {
  db_.prepare(
         "INSERT OR REPLACE INTO banned (key, reason, unix_ms, verdict) VALUES (?1, ?2, ?3, ?4)")
      .bind(1, key)
      .bind(2, verdict::words(why))
      .bind(3, unix_ms)
      .bind_blob(4, why.SerializeAsString())
      .step();
}

std::map<std::string, Ban> CoordinatorState::banned() {
  std::map<std::string, Ban> out;
  auto s = db_.prepare("SELECT key, reason, unix_ms, verdict FROM banned");
  while (s.step()) {
    Ban& b = out[s.text(0)];
    b.reason = s.text(1);
    b.unix_ms = s.integer(2);
    // A verdict that does not parse (a damaged row) leaves the ban with its English only.
    if (!b.why.ParseFromString(s.blob(3))) b.why.Clear();
  }
  return out;
}

void CoordinatorState::add_invite(const std::string& token, std::int64_t now_ms,
                                  std::int64_t expires_unix_ms) {
  if (token.empty()) throw std::invalid_argument("an invite token cannot be empty");
  db_.prepare("INSERT INTO invites VALUES (?1, ?2, ?3, 0)")
      .bind(1, token)
      .bind(2, now_ms)
      .bind(3, std::max<std::int64_t>(0, expires_unix_ms))
      .step();
}

bool CoordinatorState::revoke_invite(const std::string& token, std::int64_t now_ms) {
  bool found = false;
  db_.transaction([&](store::Database& db) {
    {
      auto q = db.prepare("SELECT revoked_unix_ms FROM invites WHERE token = ?1");
      q.bind(1, token);
      found = q.step();
      if (!found || q.integer(0) != 0) return;  // unknown, or revoked already (keep the first time)
    }
    db.prepare("UPDATE invites SET revoked_unix_ms = ?2 WHERE token = ?1")
        .bind(1, token)
        .bind(2, now_ms)
        .step();
  });
  return found;
}

InviteStatus CoordinatorState::invite_status(const std::string& token, std::int64_t now_ms) {
  auto q = db_.prepare("SELECT expires_unix_ms, revoked_unix_ms FROM invites WHERE token = ?1");
  q.bind(1, token);
  if (token.empty() || !q.step()) return InviteStatus::Unknown;
  if (q.integer(1) != 0) return InviteStatus::Revoked;
  if (q.integer(0) != 0 && now_ms >= q.integer(0)) return InviteStatus::Expired;
  return InviteStatus::Valid;
}

std::vector<Invite> CoordinatorState::invites() {
  std::vector<Invite> out;
  auto q = db_.prepare(
      "SELECT token, created_unix_ms, expires_unix_ms, revoked_unix_ms FROM invites ORDER BY "
      "created_unix_ms, token");
  while (q.step()) out.push_back({q.text(0), q.integer(1), q.integer(2), q.integer(3)});
  return out;
}

bool CoordinatorState::has_invites() {
  auto q = db_.prepare("SELECT EXISTS (SELECT 1 FROM invites)");
  q.step();
  return q.integer(0) != 0;
}

void CoordinatorState::add_loss(std::int64_t unix_ms, double loss) {
  db_.prepare("INSERT INTO loss VALUES (?1, ?2)").bind(1, unix_ms).bind(2, real_text(loss)).step();
}

std::vector<LossSample> CoordinatorState::loss_curve(std::size_t max_points) {
  return thinned_curve("loss", max_points);
}

std::vector<LossSample> CoordinatorState::thinned_curve(const char* table,
                                                        std::size_t max_points) {
  // Evenly thinned over the whole run: every k-th point, k chosen so at most max_points remain.
  std::int64_t n = 0;
  {
    auto count = db_.prepare(std::string("SELECT COUNT(*) FROM ") + table);
    count.step();
    n = count.integer(0);
  }
  const std::int64_t stride =
      max_points == 0 ? 1
                      : std::max<std::int64_t>(1, (n + static_cast<std::int64_t>(max_points) - 1) /
                                                      static_cast<std::int64_t>(max_points));
  std::vector<LossSample> out;
  auto s = db_.prepare(
      std::string("SELECT unix_ms, loss FROM (SELECT unix_ms, loss, ROW_NUMBER() OVER (ORDER BY "
                  "unix_ms) - 1 AS i FROM ") +
      table + ") WHERE i % ?1 = 0 ORDER BY unix_ms");
  s.bind(1, stride);
  while (s.step()) out.push_back({s.integer(0), real(s, 1)});
  return out;
}

void CoordinatorState::add_snapshot(const SnapshotRecord& r) {
  db_.prepare("INSERT OR REPLACE INTO snapshots VALUES (?1, ?2, ?3)")
      .bind(1, static_cast<std::int64_t>(r.seq))
      .bind(2, r.unix_ms)
      .bind(3, static_cast<std::int64_t>(r.plan_version))
      .step();
}

std::optional<SnapshotRecord> CoordinatorState::latest_snapshot() {
  auto q = db_.prepare("SELECT seq, unix_ms, plan_version FROM snapshots ORDER BY seq DESC LIMIT 1");
  if (!q.step()) return std::nullopt;
  return SnapshotRecord{static_cast<std::uint64_t>(q.integer(0)), q.integer(1),
                        static_cast<std::uint64_t>(q.integer(2))};
}

void CoordinatorState::add_evaluation(const wire::pb::Evaluation& e) {
  db_.prepare("INSERT INTO evaluations VALUES (?1, ?2, ?3)")
      .bind(1, e.unix_ms())
      .bind(2, real_text(e.validation_loss()))
      .bind_blob(3, e.SerializeAsString())
      .step();
}

std::optional<wire::pb::Evaluation> CoordinatorState::latest_evaluation() {
  auto q = db_.prepare("SELECT body FROM evaluations ORDER BY unix_ms DESC, rowid DESC LIMIT 1");
  if (!q.step()) return std::nullopt;
  wire::pb::Evaluation e;
  if (!e.ParseFromString(q.blob(0))) {
    throw store::StoreError(db_.path().string() + ": an evaluation that does not parse");
  }
  return e;
}

std::vector<LossSample> CoordinatorState::validation_curve(std::size_t max_points) {
  return thinned_curve("evaluations", max_points);
}

void CoordinatorState::add_restoration(const wire::pb::Restoration& r) {
  db_.prepare("INSERT INTO restorations VALUES (?1, ?2, ?3, ?4)")
      .bind(1, r.unix_ms())
      .bind(2, r.first_block())
      .bind(3, r.last_block())
      .bind(4, static_cast<std::int64_t>(r.snapshot()))
      .step();
}

std::vector<wire::pb::Restoration> CoordinatorState::restorations(std::size_t latest) {
  auto q = db_.prepare(
      "SELECT unix_ms, first_block, last_block, snapshot FROM (SELECT rowid, * FROM restorations"
      " ORDER BY unix_ms DESC, rowid DESC LIMIT ?1) ORDER BY unix_ms, rowid");
  q.bind(1, static_cast<std::int64_t>(latest));
  std::vector<wire::pb::Restoration> out;
  while (q.step()) {
    auto& r = out.emplace_back();
    r.set_unix_ms(q.integer(0));
    r.set_first_block(q.integer(1));
    r.set_last_block(q.integer(2));
    r.set_snapshot(static_cast<std::uint64_t>(q.integer(3)));
  }
  return out;
}

}  // namespace rookery::coordinator
