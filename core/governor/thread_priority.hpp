#pragma once
// Compute threads run at the lowest scheduling priority the OS offers, so the owner's
// programs always come first. One interface; the per-OS code lives in the .cpp.
#include <string>

namespace rookery::governor {

struct PriorityResult {
  bool idle_class = false;  // SCHED_IDLE (Linux) or the platform's background class
  int nice = 0;
  std::string description;  // "SCHED_IDLE, nice 19"
};

// Lowers the calling thread's priority. Threads it creates afterwards (LibTorch's intra-op
// pool) inherit it.
PriorityResult lower_current_thread_priority();

// Lowers every other thread of the process. Call first thing in main(): the threads that
// exist then were started by library constructors, i.e. the BLAS thread pool, which computes
// for the worker but would otherwise run at normal priority. Returns how many were lowered.
int lower_preexisting_threads_priority();

}  // namespace rookery::governor
