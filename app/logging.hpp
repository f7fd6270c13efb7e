#pragma once
// Logging for the headless programs (spdlog): to stderr, and to a rotating file in the
// data folder so a volunteer can send it with a bug report.
#include <filesystem>
#include <memory>
#include <string>

#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace rookery::app {

inline void setup_logging(const std::string& name, const std::string& level,
                          const std::filesystem::path& log_dir) {
  std::vector<spdlog::sink_ptr> sinks;
  sinks.push_back(std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
  if (!log_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(log_dir, ec);
    try {
      sinks.push_back(std::make_shared<spdlog::sinks::rotating_file_sink_mt>(
          (log_dir / (name + ".log")).string(), 4 * 1024 * 1024, 3));
    } catch (const spdlog::spdlog_ex&) {
      // A read-only or full disk must not stop the program: keep logging to stderr.
    }
  }
  auto logger = std::make_shared<spdlog::logger>(name, sinks.begin(), sinks.end());
  logger->set_pattern("%Y-%m-%d %H:%M:%S.%e %^%l%$ [%n] %v");
  logger->set_level(spdlog::level::from_str(level));
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
}

}  // namespace rookery::app
