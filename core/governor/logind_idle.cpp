#include "governor/logind_idle.hpp"

#include <time.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#ifdef ROOKERY_HAVE_SDBUS
#include <systemd/sd-bus.h>
#endif

namespace rookery::governor {

#ifdef ROOKERY_HAVE_SDBUS

namespace {
constexpr const char* kService = "org.freedesktop.login1";
constexpr const char* kPath = "/org/freedesktop/login1";
constexpr const char* kManager = "org.freedesktop.login1.Manager";

std::string bus_error(const sd_bus_error& e, int r) {
  if (e.message && *e.message) return e.message;
  if (e.name && *e.name) return e.name;
  return std::strerror(-r);
}
}  // namespace

struct LogindIdle::Bus {
  sd_bus* bus = nullptr;
  ~Bus() { close(); }
  void close() { bus = sd_bus_flush_close_unref(bus); }
};

LogindIdle::LogindIdle(std::chrono::milliseconds timeout)
    : bus_(std::make_unique<Bus>()), timeout_(timeout) {}
LogindIdle::~LogindIdle() = default;

IdleReading LogindIdle::read() {
  IdleReading out;
  if (!bus_->bus) {
    const int r = sd_bus_open_system(&bus_->bus);
    if (r < 0) {
      bus_->bus = nullptr;
      out.detail = std::string("logind: no system bus (") + std::strerror(-r) + ")";
      return out;
    }
    sd_bus_set_method_call_timeout(bus_->bus, static_cast<std::uint64_t>(timeout_.count()) * 1000);
  }
  sd_bus_error error = SD_BUS_ERROR_NULL;
  int idle = 0;
  int r = sd_bus_get_property_trivial(bus_->bus, kService, kPath, kManager, "IdleHint", &error, 'b',
                                      &idle);
  std::uint64_t since_us = 0;
  if (r >= 0)
    r = sd_bus_get_property_trivial(bus_->bus, kService, kPath, kManager, "IdleSinceHint", &error,
                                    't', &since_us);
  if (r < 0) {
    out.detail = "logind: " + bus_error(error, r);
    sd_bus_error_free(&error);
    // A broken connection is opened afresh next time; a missing logind is asked again too.
    bus_->close();
    return out;
  }
  sd_bus_error_free(&error);
  if (!idle) {
    out.idle_seconds = 0.0;
    out.from_logind = true;
    out.detail = "logind: a session is in use";
    return out;
  }
  // IdleSinceHint is CLOCK_REALTIME in microseconds; 0: no session was ever in use, so the
  // PC has been idle since it booted.
  if (since_us == 0) {
    timespec boot{};
    ::clock_gettime(CLOCK_BOOTTIME, &boot);
    out.idle_seconds = static_cast<double>(boot.tv_sec);
    out.from_logind = true;
    out.detail = "logind: no session in use since boot";
    return out;
  }
  const auto now_us = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  const auto since = static_cast<std::int64_t>(since_us);
  out.idle_seconds = since > now_us
                         ? 0.0
                         : static_cast<double>(now_us - since) / 1e6;  // a clock set back: just now
  out.from_logind = true;
  out.detail = "logind: all sessions idle for " +
               std::to_string(static_cast<long>(*out.idle_seconds)) + " s";
  return out;
}

#else  // built without libsystemd

struct LogindIdle::Bus {};
LogindIdle::LogindIdle(std::chrono::milliseconds timeout) : timeout_(timeout) {}
LogindIdle::~LogindIdle() = default;
IdleReading LogindIdle::read() {
  return {std::nullopt, "logind: Rookery was built without libsystemd", false};
}

#endif

}  // namespace rookery::governor
