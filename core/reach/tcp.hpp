#pragma once
// Plain TCP sockets for the relay: listening on every interface (IPv6 and IPv4 on one socket),
// dialling with a deadline, and an owning file descriptor.
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>

namespace rookery::reach {

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(Fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      reset();
      fd_ = std::exchange(o.fd_, -1);
    }
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }
  void reset();

 private:
  int fd_ = -1;
};

// Listens on `host` ("*" or "" for every interface, dual-stack) and `port` (0: any); throws
// std::system_error naming the address when it cannot.
Fd listen_tcp(const std::string& host, std::uint16_t port);
std::uint16_t local_port(int fd);
// Dials host:port within `timeout`; an invalid Fd when it cannot.
Fd dial_tcp(const std::string& host, std::uint16_t port, std::chrono::milliseconds timeout);
// Accepts one connection without blocking; an invalid Fd when none is waiting.
Fd accept_tcp(int listener);
// Writes all of `size` bytes (blocking); false when the connection is gone.
bool write_all(int fd, const void* data, std::size_t size);

}  // namespace rookery::reach
