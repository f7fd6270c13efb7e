#include "governor/thread_priority.hpp"

#if defined(__linux__)
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <filesystem>
#endif

namespace rookery::governor {

PriorityResult lower_current_thread_priority() {
  PriorityResult r;
#if defined(__linux__)
  // On Linux nice values are per thread (setpriority on the thread id).
  const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
  if (::setpriority(PRIO_PROCESS, tid, 19) == 0) r.nice = 19;
  sched_param param{};
  param.sched_priority = 0;
  r.idle_class = ::sched_setscheduler(0, SCHED_IDLE, &param) == 0;
  r.description =
      std::string(r.idle_class ? "SCHED_IDLE" : "SCHED_OTHER") + ", nice " + std::to_string(r.nice);
#else
  r.description = "default priority (no background class on this platform)";
#endif
  return r;
}

int lower_preexisting_threads_priority() {
  int lowered = 0;
#if defined(__linux__)
  const auto self = static_cast<long>(::syscall(SYS_gettid));
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    long tid = 0;
    try {
      tid = std::stol(e.path().filename().string());
    } catch (const std::exception&) {
      continue;
    }
    if (tid == self) continue;
    ::setpriority(PRIO_PROCESS, static_cast<id_t>(tid), 19);
    sched_param param{};
    if (::sched_setscheduler(static_cast<pid_t>(tid), SCHED_IDLE, &param) == 0) ++lowered;
  }
#endif
  return lowered;
}

}  // namespace rookery::governor
