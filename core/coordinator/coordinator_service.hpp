#pragma once
// The job owner's server. It admits volunteers over CURVE (open enrolment, or an allow-list
// of keys) and answers their heartbeats. Training traffic never passes through it.
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

namespace rookery::coordinator {

struct CoordinatorConfig {
  std::string bind = "tcp://127.0.0.1:7461";  // port 0 picks a free one
  std::filesystem::path data_dir;
  std::vector<std::string> allowed_keys;       // empty: open enrolment
  std::filesystem::path ready_file;            // optional: write "<endpoint> <public key>" here once listening
};

class CoordinatorService {
 public:
  explicit CoordinatorService(CoordinatorConfig config);
  // Serves until request_stop(). Returns the process exit code.
  int run();
  void request_stop();

 private:
  CoordinatorConfig config_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
};

}  // namespace rookery::coordinator
