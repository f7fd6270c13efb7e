#pragma once
// What the swarm's load costs this coordinator, logged every period as one line, so that the
// job owner sees how near one coordinator is to its end (and bench_coordinator_capacity reads
// it): heartbeats handled and how long each held the request thread, the periodic tick (which
// holds the lock heartbeats need) and the state file's transaction in it, the state file's
// size, the last plan's time, the plan's and the member list's size against what a reply may
// carry, and the process's resident memory.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "coordinator/membership.hpp"
#include "coordinator/replanner.hpp"

namespace rookery::coordinator {

class LoadReport {
 public:
  using Seconds = std::chrono::duration<double>;
  // every: how often to log (0: never); `state_file`: the SQLite file whose size it reports.
  LoadReport(std::chrono::milliseconds every, std::filesystem::path state_file);

  void heartbeat(Seconds handled);
  void tick(Seconds took, Seconds flush);

  // Whether the period is over; then log() writes its figures and starts the next.
  bool due(std::chrono::steady_clock::time_point now) const;
  void log(std::chrono::steady_clock::time_point now, const Membership& membership,
           const RePlanner& replanner, std::size_t plan_bytes, std::size_t view_bytes,
           std::size_t reply_limit_bytes);

  // This process's resident memory, bytes (0 where /proc does not say).
  static std::uint64_t resident_bytes();
  // The state file with its write-ahead log, bytes.
  static std::uint64_t file_bytes(const std::filesystem::path& state_file);

 private:
  std::chrono::milliseconds every_;
  std::filesystem::path state_file_;
  std::chrono::steady_clock::time_point since_ = std::chrono::steady_clock::now();
  std::size_t heartbeats_ = 0, ticks_ = 0;
  Seconds heartbeat_sum_{}, heartbeat_max_{}, tick_max_{}, flush_sum_{}, flush_max_{};
};

}  // namespace rookery::coordinator
