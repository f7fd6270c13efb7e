#include "coordinator/load_report.hpp"

#include <algorithm>
#include <fstream>
#include <system_error>

#include <spdlog/spdlog.h>

namespace rookery::coordinator {

LoadReport::LoadReport(std::chrono::milliseconds every, std::filesystem::path state_file)
    : every_(every), state_file_(std::move(state_file)) {}

void LoadReport::heartbeat(Seconds handled) {
  ++heartbeats_;
  heartbeat_sum_ += handled;
  heartbeat_max_ = std::max(heartbeat_max_, handled);
}

void LoadReport::tick(Seconds took, Seconds flush) {
  ++ticks_;
  tick_max_ = std::max(tick_max_, took);
  flush_sum_ += flush;
  flush_max_ = std::max(flush_max_, flush);
}

bool LoadReport::due(std::chrono::steady_clock::time_point now) const {
  return every_.count() > 0 && now - since_ >= every_;
}

void LoadReport::log(std::chrono::steady_clock::time_point now, const Membership& membership,
                     const RePlanner& replanner, std::size_t plan_bytes, std::size_t view_bytes,
                     std::size_t reply_limit_bytes) {
  // A member's key on the wire: 40 Z85 characters, a tag and a length.
  const std::size_t list_bytes = membership.published_members().size() * 42;
  const double period = Seconds(now - since_).count();
  const auto ms = [](Seconds s) { return s.count() * 1e3; };
  const auto mean = [](Seconds sum, std::size_t n) { return n ? sum.count() * 1e3 / n : 0.0; };
  spdlog::info(
      "load: {} live, {} members; {} heartbeats in {:.1f} s, handled in mean {:.3f} ms max {:.1f} "
      "ms; tick max {:.1f} ms, state transaction per tick mean {:.2f} ms max {:.1f} ms; state "
      "file {:.1f} MiB; last plan {:.2f} s for {} volunteers; plan {} KiB, largest view {} KiB, "
      "member list {} KiB (a reply holds {} KiB); resident {:.0f} MiB",
      membership.live().size(), membership.members().size(), heartbeats_, period,
      mean(heartbeat_sum_, heartbeats_), ms(heartbeat_max_), ms(tick_max_),
      mean(flush_sum_, ticks_), ms(flush_max_), double(file_bytes(state_file_)) / (1 << 20),
      replanner.last_planning_time().count(), replanner.last_planned_volunteers(), plan_bytes >> 10,
      view_bytes >> 10, list_bytes >> 10, reply_limit_bytes >> 10,
      double(resident_bytes()) / (1 << 20));
  since_ = now;
  heartbeats_ = ticks_ = 0;
  heartbeat_sum_ = heartbeat_max_ = tick_max_ = flush_sum_ = flush_max_ = Seconds{};
}

std::uint64_t LoadReport::resident_bytes() {
  std::ifstream status("/proc/self/status");
  std::string word;
  while (status >> word) {
    if (word == "VmRSS:") {
      std::uint64_t kib = 0;
      status >> kib;
      return kib << 10;
    }
  }
  return 0;
}

std::uint64_t LoadReport::file_bytes(const std::filesystem::path& state_file) {
  std::uint64_t total = 0;
  for (const auto& p : {state_file, std::filesystem::path(state_file.string() + "-wal")}) {
    std::error_code ec;
    const auto n = std::filesystem::file_size(p, ec);
    if (!ec) total += n;
  }
  return total;
}

}  // namespace rookery::coordinator
