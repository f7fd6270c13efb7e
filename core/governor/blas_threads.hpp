#pragma once
// The BLAS library's own thread pool. LibTorch's intra-op thread count does not reach
// OpenBLAS's pthread pool, which multiplies on every core unless told otherwise; the thread
// cap sets both. Looked up at run time, so any BLAS (or none) links.
#include <string>

namespace rookery::governor {

struct BlasThreads {
  bool applied = false;
  std::string library;  // "OpenBLAS", or why nothing was set
};

// Sets the BLAS pool to `threads` from the calling thread (threads it creates inherit the
// caller's idle priority).
BlasThreads set_blas_threads(int threads);

}  // namespace rookery::governor
