#pragma once
#include <string>

namespace rookery::device {

// Which BLAS library LibTorch's matrix products resolve to, e.g.
// "OpenBLAS 0.3.21 (/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3)" or
// "reference BLAS (/usr/lib/x86_64-linux-gnu/blas/libblas.so.3)". The reference BLAS is
// some 30x slower: the node warns about it at start-up.
struct BlasInfo {
  std::string description;
  std::string library_path;
  bool optimised = false;
};

BlasInfo detect_blas();

}  // namespace rookery::device
