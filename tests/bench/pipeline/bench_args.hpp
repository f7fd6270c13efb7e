#pragma once
// What the learning benchmarks (bench_staleness, bench_convergence) share: their flags, the
// 3-stage cut and the job settings their variants need.
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>
#include <vector>

#include "job/job_spec.hpp"
#include "model/block_chain.hpp"

namespace rookery::bench {

inline QString arg(const QStringList& args, const QString& name, const QString& fallback) {
  const int i = args.indexOf(name);
  return i >= 0 && i + 1 < args.size() ? args[i + 1] : fallback;
}

// Three stages of nearly equal block counts.
inline std::vector<std::pair<int, int>> three_stages(const job::JobSpec& job) {
  const int blocks = static_cast<int>(model::BlockChain::from_job(job).block_count());
  std::vector<std::pair<int, int>> out;
  for (int i = 0; i < 3; ++i) out.emplace_back(blocks * i / 3, blocks * (i + 1) / 3);
  return out;
}

// Lowrank boundaries need them off (job_spec.cpp: they compare exact recomputations).
inline void no_spot_checks(job::JobSpec& j) {
  j.spot_checks.rate = 0;
  j.spot_checks.probation = 0;
}

// A codec by its name in job files.
inline std::optional<job::Codec> codec_named(const QString& name) {
  for (const auto c : {job::Codec::none, job::Codec::fp16, job::Codec::bf16, job::Codec::int8}) {
    if (name.toStdString() == job::to_string(c)) return c;
  }
  return std::nullopt;
}

}  // namespace rookery::bench
