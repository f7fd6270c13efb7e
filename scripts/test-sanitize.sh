#!/usr/bin/env bash
# The core tests (label fast) under AddressSanitizer + UndefinedBehaviorSanitizer (GCC) in
# build-asan, without the GUI.   scripts/test-sanitize.sh [extra ctest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-asan
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROOKERY_SANITIZE=address,undefined \
  -DROOKERY_BUILD_GUI=OFF -DROOKERY_BUILD_BENCH=OFF >/dev/null
ninja -C "$build" -j"${JOBS:-2}"
cd "$build"
# LibTorch and Qt are not instrumented; leaks they keep until exit are not ours.
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest -L fast --output-on-failure "$@"
