#!/usr/bin/env bash
# The core tests (label fast) under AddressSanitizer + UndefinedBehaviorSanitizer (GCC) in
# build-asan, without the GUI.   scripts/test-sanitize.sh [extra ctest arguments]
#
# A CTest configuration of its own: the same tests, compiled with -DROOKERY_SANITIZE (see
# cmake/RookeryFlags.cmake; any sanitizer GCC knows, e.g. 'thread'). By hand:
#   cmake -S . -B build-asan -G Ninja -DROOKERY_SANITIZE=address,undefined -DROOKERY_BUILD_GUI=OFF \
#     -DROOKERY_BUILD_BENCH=OFF && ninja -C build-asan
#   cd build-asan && ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
#     UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest -L fast --output-on-failure
# A CI job runs it on a clean Debian 12 machine as `./scripts/install-deps.sh &&
# ./scripts/test-sanitize.sh` (JOBS=n sets ninja's parallelism, default 2). It is not part of
# ./scripts/test.sh (.ci/run): it is a second build of nearly everything (about 230 ninja
# steps, the LibTorch translation units slower still with instrumentation) plus the fast tests
# at ASan speed (test_demo_training alone ~150 s), which would take the CI run from ~25 min
# (build, ctest, fuzzing) to about 50 on two cores, past its budget.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-asan
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROOKERY_SANITIZE=address,undefined \
  -DROOKERY_BUILD_GUI=OFF -DROOKERY_BUILD_BENCH=OFF >/dev/null
# Only what the fast tests need (their executables, and the programs every test depends on):
# the multi-process tests are not run here and would only lengthen the build.
targets=()
while IFS= read -r t; do
  ninja -C "$build" -t query "$t" >/dev/null 2>&1 && targets+=("$t")
done < <(cd "$build" && ctest -L fast -N | sed -n 's/^ *Test *#[0-9]*: //p')
[ ${#targets[@]} -gt 0 ] || { echo "test-sanitize: no fast tests found in $build" >&2; exit 1; }
ninja -C "$build" -j"${JOBS:-2}" "${targets[@]}"
cd "$build"
# LibTorch and Qt are not instrumented; leaks they keep until exit are not ours.
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest -L fast --output-on-failure "$@"
