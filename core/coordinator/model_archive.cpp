#include "coordinator/model_archive.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "pipeline/checkpoint_file.hpp"
#include "pipeline/shard_state.hpp"
#include "reduce/centered_clip.hpp"

namespace rookery::coordinator {

namespace pb = wire::pb;

namespace {

constexpr std::string_view kMagic = "RKARCH01";

double norm(std::span<const float> v) {
  double s = 0;
  for (const float x : v) s += double(x) * x;
  return std::sqrt(s);
}

double distance(std::span<const float> a, std::span<const float> b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
  return std::sqrt(s);
}

// The element-wise mean of two states with the same buffers (else the first's).
pipeline::OptimizerState mean_state(const pipeline::OptimizerState& a,
                                    const pipeline::OptimizerState& b) {
  pipeline::OptimizerState out = a;
  out.moment_step = std::max(a.moment_step, b.moment_step);
  for (auto& [name, v] : out.buffers) {
    const auto* other = b.find(name);
    if (!other || other->size() != v.size()) return a;
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = 0.5f * (v[i] + (*other)[i]);
  }
  return out;
}

}  // namespace

ReconciledBlock reconcile_block(std::span<const BlockCopy> copies, double agree_tolerance) {
  ReconciledBlock r;
  if (copies.empty()) {
    r.how = "no holder answered";
    return r;
  }
  if (copies.size() == 1) {
    r.block = copies[0];
    r.how = "one holder (nothing to check its copy against)";
    return r;
  }
  if (copies.size() == 2) {
    const auto& a = copies[0];
    const auto& b = copies[1];
    const double scale = std::max({norm(a.values), norm(b.values), 1e-12});
    const double d = distance(a.values, b.values) / scale;
    char words[96];
    std::snprintf(words, sizeof words, "%.2g", d);
    if (!(d <= agree_tolerance)) {
      r.how = std::string("two holders disagree (relative distance ") + words +
              "): kept from the snapshot before";
      return r;
    }
    BlockCopy m = a;
    for (std::size_t i = 0; i < m.values.size(); ++i)
      m.values[i] = 0.5f * (a.values[i] + b.values[i]);
    if (a.state && b.state)
      m.state = mean_state(*a.state, *b.state);
    else if (!m.state)
      m.state = b.state;
    m.optimizer_steps = std::max(a.optimizer_steps, b.optimizer_steps);
    m.holder = a.holder + "+" + b.holder;
    r.block = std::move(m);
    r.how = std::string("two holders agree (relative distance ") + words + "), averaged";
    return r;
  }
  // Three or more: CenteredClip, every holder weighted alike.
  std::vector<reduce::Contribution> in;
  for (const auto& c : copies) in.push_back({c.holder, 1.0, c.values, false});
  BlockCopy out;
  out.values.resize(copies[0].values.size());
  const reduce::CenteredClip clip;
  const auto report = clip.aggregate_with_report(in, out.values);
  // The state of the accepted copy nearest the aggregate: moments belong to weights.
  std::size_t nearest = copies.size();
  double best = 0;
  for (std::size_t i = 0; i < copies.size(); ++i) {
    const auto v = report.members[i].verdict;
    if (reduce::is_rejected(v) || v == reduce::Verdict::clipped_hard) {
      r.outliers.push_back(copies[i].holder);
      continue;
    }
    const double d = distance(copies[i].values, out.values);
    if (nearest == copies.size() || d < best) nearest = i, best = d;
  }
  if (nearest == copies.size()) {
    r.how = "every holder's copy was an outlier";
    return r;
  }
  out.state = copies[nearest].state;
  out.holder = copies[nearest].holder;
  for (const auto& c : copies)
    out.optimizer_steps = std::max(out.optimizer_steps, c.optimizer_steps);
  r.block = std::move(out);
  r.how = std::to_string(copies.size()) + " holders, CenteredClip" +
          (r.outliers.empty() ? "" : " (" + std::to_string(r.outliers.size()) + " outlier(s))");
  return r;
}

ModelArchive::ModelArchive(std::filesystem::path dir, std::string job_id,
                           std::vector<std::int64_t> block_counts, std::size_t keep)
    : dir_(std::move(dir)),
      job_id_(std::move(job_id)),
      block_counts_(std::move(block_counts)),
      keep_(std::max<std::size_t>(1, keep)) {
  offsets_.push_back(0);
  for (const auto n : block_counts_) offsets_.push_back(offsets_.back() + n);
  std::error_code ec;
  std::vector<std::uint64_t> seqs;
  for (const auto& e : std::filesystem::directory_iterator(dir_, ec)) {
    unsigned long long seq = 0;
    char tail = 0;
    const auto name = e.path().filename().string();
    if (std::sscanf(name.c_str(), "snapshot-%llu.ckp%c", &seq, &tail) == 2 && tail == 't' &&
        name == "snapshot-" + std::to_string(seq) + ".ckpt") {
      seqs.push_back(seq);
    }
  }
  std::sort(seqs.rbegin(), seqs.rend());
  for (const auto seq : seqs) {
    try {
      auto s = pipeline::read_shard_file(path_of(seq), kMagic, job_id_);
      if (s.first_block != 0 || s.last_block != static_cast<std::int64_t>(blocks()) ||
          static_cast<std::int64_t>(s.values.size()) != offsets_.back()) {
        throw pipeline::CheckpointError("snapshot " + path_of(seq).string() +
                                        " is not of this job's model");
      }
      latest_ = std::make_shared<const pipeline::ShardSnapshot>(std::move(s));
      seq_ = seq;
      spdlog::info("model archive: snapshot {} of plan {} ({} blocks)", seq, latest_->plan_version,
                   blocks());
      break;
    } catch (const std::exception& e) {
      spdlog::error("model archive: {}; trying the snapshot before", e.what());
    }
  }
}

std::filesystem::path ModelArchive::path_of(std::uint64_t seq) const {
  return dir_ / ("snapshot-" + std::to_string(seq) + ".ckpt");
}

std::shared_ptr<const pipeline::ShardSnapshot> ModelArchive::latest() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

std::uint64_t ModelArchive::latest_seq() const {
  std::lock_guard lock(mutex_);
  return seq_;
}

bool ModelArchive::store(std::vector<std::optional<BlockCopy>> blocks, std::uint64_t plan_version) {
  const auto before = latest();
  if (blocks.size() != this->blocks()) {
    spdlog::error("model archive: {} blocks offered for a model of {}", blocks.size(),
                  this->blocks());
    return false;
  }
  pipeline::ShardSnapshot s;
  s.first_block = 0;
  s.last_block = static_cast<std::int64_t>(blocks.size());
  s.plan_version = plan_version;
  s.values.reserve(static_cast<std::size_t>(offsets_.back()));
  std::vector<std::string> names;  // the state buffers, as the first block with state has them
  for (const auto& b : blocks) {
    if (b && b->state && !b->state->buffers.empty()) {
      for (const auto& [name, v] : b->state->buffers) names.push_back(name);
      break;
    }
  }
  for (const auto& n : names) s.state.buffers.emplace_back(n, std::vector<float>{});
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const auto a = offsets_[i], n = block_counts_[i];
    std::vector<float> values;
    pipeline::OptimizerState state;
    std::int64_t moment = 0;
    if (blocks[i] && static_cast<std::int64_t>(blocks[i]->values.size()) == n) {
      values = blocks[i]->values;
      if (blocks[i]->state) state = *blocks[i]->state;
      moment = state.moment_step;
      s.optimizer_steps = std::max(s.optimizer_steps, blocks[i]->optimizer_steps);
    } else if (before) {
      const auto part =
          before->part(static_cast<std::int64_t>(i), static_cast<std::int64_t>(i) + 1, a, n);
      values = part.values;
      state = part.state;
      moment =
          before->moment_step_of(static_cast<std::int64_t>(i), static_cast<std::int64_t>(i) + 1);
      s.optimizer_steps = std::max(s.optimizer_steps, before->optimizer_steps);
    } else {
      spdlog::warn("model archive: block {} has no copy yet; no snapshot this round", i);
      return false;
    }
    s.values.insert(s.values.end(), values.begin(), values.end());
    s.block_moment_steps.push_back(moment);
    s.state.moment_step = std::max(s.state.moment_step, moment);
    // A block without the buffers (fresh moments, another optimizer) keeps zeros: fresh.
    for (auto& [name, v] : s.state.buffers) {
      const auto* got = state.find(name);
      if (got && static_cast<std::int64_t>(got->size()) == n) {
        v.insert(v.end(), got->begin(), got->end());
      } else {
        v.insert(v.end(), static_cast<std::size_t>(n), 0.0f);
      }
    }
  }
  std::uint64_t seq = 0;
  {
    std::lock_guard lock(mutex_);
    seq = seq_ + 1;
  }
  try {
    pipeline::write_shard_file(path_of(seq), kMagic, job_id_, s);
  } catch (const std::exception& e) {
    spdlog::error("model archive: snapshot {} not written: {} (snapshot {} stays)", seq, e.what(),
                  seq - 1);
    return false;
  }
  {
    std::lock_guard lock(mutex_);
    seq_ = seq;
    latest_ = std::make_shared<const pipeline::ShardSnapshot>(std::move(s));
  }
  // The newest `keep_` stay.
  std::error_code ec;
  for (std::uint64_t old = seq > keep_ ? seq - keep_ : 0; old > 0; --old) {
    if (!std::filesystem::remove(path_of(old), ec)) break;
  }
  return true;
}

void ModelArchive::serve(const pb::ShardRequest& q, net::Reply& reply) const {
  const auto snap = latest();
  const auto first = q.first_block(), last = q.last_block();
  if (!snap || first < 0 || last > static_cast<std::int64_t>(blocks()) || first >= last) {
    reply.header.mutable_error()->set_message(snap ? "the archive holds blocks [0, " +
                                                         std::to_string(blocks()) + ") only"
                                                   : "the model archive holds no snapshot yet");
    return;
  }
  const auto offset = offsets_[static_cast<std::size_t>(first)];
  const auto size = offsets_[static_cast<std::size_t>(last)] - offset;
  auto* out = reply.header.mutable_shard_reply();
  out->set_first_block(first);
  out->set_last_block(last);
  out->set_optimizer_steps(snap->optimizer_steps);
  out->set_plan_version(snap->plan_version);
  reply.tensors.push_back(wire::OutgoingTensor::encode(
      "parameters", {size},
      std::span<const float>(snap->values)
          .subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(size))));
  pipeline::add_shard_state(snap->state, offset, size, *out, reply.tensors);
  out->set_moment_step(snap->moment_step_of(first, last));
}

}  // namespace rookery::coordinator
