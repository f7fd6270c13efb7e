#pragma once
// A rookery coordinator in this process, on its real CURVE socket on loopback, running the demo
// job on a thread of its own; for tests and benchmarks that play volunteers themselves.
// Needs rookery::coordinator, rookery::job and Qt Test.
#include <QTemporaryDir>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "coordinator/coordinator_service.hpp"
#include "support/demo_job.hpp"
#include "support/processes.hpp"

namespace rookery::testing {

class InProcessCoordinator {
 public:
  // Writes the demo job as `job_id`, starts the coordinator with open enrolment and whatever
  // `adjust` changes in its configuration, and waits until it listens (ok() says whether it did).
  explicit InProcessCoordinator(
      const std::string& job_id,
      const std::function<void(coordinator::CoordinatorConfig&)>& adjust = {}) {
    if (!dir_.isValid()) return;
    const auto job = write_demo_job(dir_.filePath("job.json"), job_id);
    if (!job) return;
    job_ = *job;
    coordinator::CoordinatorConfig config;
    config.bind = "tcp://127.0.0.1:0";
    config.data_dir = dir_.filePath("coordinator").toStdString();
    config.ready_file = dir_.filePath("ready").toStdString();
    config.job_path = dir_.filePath("job.json").toStdString();
    config.open = true;
    if (adjust) adjust(config);
    service_ = std::make_unique<coordinator::CoordinatorService>(config);
    thread_ = std::thread([this] { exit_code_ = service_->run(); });
    const auto address = wait_for_coordinator_ready(dir_.filePath("ready"), 10000);
    if (!address) return;
    endpoint_ = address->endpoint.toStdString();
    key_ = address->key.toStdString();
  }
  ~InProcessCoordinator() { stop(); }
  InProcessCoordinator(const InProcessCoordinator&) = delete;
  InProcessCoordinator& operator=(const InProcessCoordinator&) = delete;

  bool ok() const { return !endpoint_.empty(); }
  const std::string& endpoint() const { return endpoint_; }
  const std::string& key() const { return key_; }
  const job::JobSpec& job() const { return job_; }
  // Stops it; its exit code (0: stopped cleanly).
  int stop() {
    if (service_) service_->request_stop();
    if (thread_.joinable()) thread_.join();
    return exit_code_;
  }

 private:
  QTemporaryDir dir_;
  job::JobSpec job_;
  std::unique_ptr<coordinator::CoordinatorService> service_;
  std::thread thread_;
  int exit_code_ = -1;
  std::string endpoint_, key_;
};

}  // namespace rookery::testing
