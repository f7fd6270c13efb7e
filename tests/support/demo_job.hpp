#pragma once
// The demo job (resources/demo/demo-job.json) under an id of the test's, written where a
// coordinator can read it. Needs rookery::job and Qt Core.
#include <QFile>
#include <QString>

#include <functional>
#include <optional>
#include <string>

#include "job/job_spec.hpp"

namespace rookery::testing {

// The demo job under `id`, with whatever `adjust` changes.
inline job::JobSpec demo_job(const std::string& id,
                             const std::function<void(job::JobSpec&)>& adjust = {}) {
  auto job = job::load_job_spec(ROOKERY_SOURCE_DIR "/resources/demo/demo-job.json");
  job.id = id;
  if (adjust) adjust(job);
  return job;
}

// The same, small enough to train fast on two cores: micro-batches of 8, staleness 2.
// Small micro-batches and little in flight: quick steps for multi-process swarms.
inline void make_small(job::JobSpec& j) {
  j.micro_batch_size = 8;
  j.staleness = 2;
}

inline job::JobSpec small_demo_job(const std::string& id) { return demo_job(id, make_small); }

// Writes the demo job with `id` (and whatever `adjust` changes) to `path`; returns the job,
// or nullopt when it cannot write.
inline std::optional<job::JobSpec> write_demo_job(
    const QString& path, const std::string& id,
    const std::function<void(job::JobSpec&)>& adjust = {}) {
  const auto job = demo_job(id, adjust);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return std::nullopt;
  const auto json = QByteArray::fromStdString(job::to_json(job));
  if (f.write(json) != json.size()) return std::nullopt;
  return job;
}

// small_demo_job, written to `path`.
inline std::optional<job::JobSpec> write_small_demo_job(const QString& path,
                                                        const std::string& id) {
  return write_demo_job(path, id, make_small);
}

}  // namespace rookery::testing
