#pragma once
// SIGINT/SIGTERM/SIGHUP handling for the headless programs. Libraries start threads before
// main() (OpenBLAS does), so a signal may land on any thread: the handler only writes to a
// pipe, and a dedicated thread turns that into an ordinary call.
#include <fcntl.h>
#include <unistd.h>

#include <csignal>
#include <functional>
#include <thread>

namespace rookery::app {

class StopSignals {
 public:
  StopSignals() {
    if (::pipe2(pipe_, O_CLOEXEC) != 0) pipe_[0] = pipe_[1] = -1;
    write_fd() = pipe_[1];
    struct sigaction sa {};
    sa.sa_handler = &StopSignals::handle;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &sa, nullptr);
    ::signal(SIGPIPE, SIG_IGN);
  }
  void on_stop(std::function<void(int)> handler) {
    waiter_ = std::thread([this, handler = std::move(handler)] {
      unsigned char sig = 0;
      while (::read(pipe_[0], &sig, 1) == 1) {
        if (sig == 0) return;  // our destructor
        handler(sig);
      }
    });
  }
  ~StopSignals() {
    if (waiter_.joinable()) {
      const unsigned char zero = 0;
      (void)!::write(pipe_[1], &zero, 1);
      waiter_.join();
    }
    write_fd() = -1;
    ::close(pipe_[0]);
    ::close(pipe_[1]);
  }

 private:
  static int& write_fd() {
    static int fd = -1;
    return fd;
  }
  static void handle(int sig) {
    const unsigned char s = static_cast<unsigned char>(sig);
    if (write_fd() >= 0) (void)!::write(write_fd(), &s, 1);
  }
  int pipe_[2] = {-1, -1};
  std::thread waiter_;
};

}  // namespace rookery::app
