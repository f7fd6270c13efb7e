#include "reach/tcp_splice.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

namespace rookery::reach {

namespace {
constexpr std::size_t kChunk = 64 * 1024;

// A node computes at the background class (SCHED_IDLE, nice 19), and threads inherit it. A
// splice that waits for its turn among its own process's compute threads delays every message
// it carries: a reversed pipeline ran at 0.67 of direct until this. It forwards as an ordinary
// thread, still at nice 19, so the owner's programs come first all the same. Linux lets an
// unprivileged thread leave SCHED_IDLE for SCHED_OTHER at its own nice value.
void forward_at_ordinary_class() {
#if defined(__linux__)
  if (::sched_getscheduler(0) != SCHED_IDLE) return;
  sched_param param{};
  param.sched_priority = 0;
  (void)::sched_setscheduler(0, SCHED_OTHER, &param);
#endif
}
}  // namespace

TcpSplice::TcpSplice(Fd a, Fd b, net::TokenBucket& cap, Tap tap)
    : a_(std::move(a)), b_(std::move(b)), cap_(cap), tap_(std::move(tap)) {
  if (::pipe2(wake_, O_CLOEXEC) != 0) wake_[0] = wake_[1] = -1;
  thread_ = std::thread([this] { run(); });
}

TcpSplice::~TcpSplice() {
  stop_ = true;
  if (wake_[1] >= 0) (void)!::write(wake_[1], "x", 1);
  if (thread_.joinable()) thread_.join();
  for (int fd : wake_) {
    if (fd >= 0) ::close(fd);
  }
}

void TcpSplice::run() {
  forward_at_ordinary_class();
  std::vector<char> buffer(kChunk);
  const int ends[2] = {a_.get(), b_.get()};
  while (!stop_) {
    pollfd p[3] = {{ends[0], POLLIN, 0}, {ends[1], POLLIN, 0}, {wake_[0], POLLIN, 0}};
    if (::poll(p, wake_[0] >= 0 ? 3 : 2, 1000) < 0 && errno != EINTR) break;
    bool closed = false;
    for (int i = 0; i < 2 && !closed && !stop_; ++i) {
      if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::recv(ends[i], buffer.data(), buffer.size(), 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        closed = true;
        break;
      }
      if (!cap_.acquire(static_cast<std::uint64_t>(n), &stop_)) {
        closed = true;
        break;
      }
      if (tap_) tap_(buffer.data(), static_cast<std::size_t>(n));
      if (!write_all(ends[1 - i], buffer.data(), static_cast<std::size_t>(n))) closed = true;
      bytes_ += static_cast<std::uint64_t>(n);
    }
    if (closed) break;
  }
  ::shutdown(ends[0], SHUT_RDWR);
  ::shutdown(ends[1], SHUT_RDWR);
  finished_ = true;
}

}  // namespace rookery::reach
