#include "governor/blas_threads.hpp"

#include <dlfcn.h>

#include <algorithm>

namespace rookery::governor {

BlasThreads set_blas_threads(int threads) {
  BlasThreads r;
  using SetThreads = void (*)(int);
  if (auto* openblas =
          reinterpret_cast<SetThreads>(::dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) {
    openblas(std::max(1, threads));
    r.applied = true;
    r.library = "OpenBLAS";
  } else {
    r.library = "no OpenBLAS loaded: the BLAS follows LibTorch's thread count";
  }
  return r;
}

}  // namespace rookery::governor
