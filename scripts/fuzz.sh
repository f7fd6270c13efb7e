#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with clang, ASan and UBSan in build-fuzz, and runs
# each for a bounded time from its checked-in seed corpus (and regressions); fails when any
# target crashes, hangs (10 s on one input), exceeds 4 GiB or trips a sanitizer.
#   scripts/fuzz.sh [seconds per target, default 60]
# scripts/test.sh (and so CI) runs it for 30 s per target after ctest. Needs clang and
# libclang-rt-14-dev (libFuzzer and the sanitizer runtimes), which scripts/install-deps.sh installs.
# A crash leaves its input in build-fuzz/crashes/<target>/; copy it to
# tests/fuzz/regressions/<target>/ once fixed, so the default test run replays it forever.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
build=build-fuzz
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"  # as scripts/build.sh
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROOKERY_FUZZ=ON \
  -DROOKERY_BUILD_GUI=OFF -DROOKERY_BUILD_BENCH=OFF -DROOKERY_CUDA=OFF >/dev/null
# stage_plan and checkpoint need LibTorch, which clang 14 cannot compile against in C++20
# (see tests/fuzz/CMakeLists.txt): their corpora are replayed by the normal test run instead.
targets=(wire_decode job_spec invite_link aggregation_proof)
ninja -C "$build" -j"${JOBS:-2}" "${targets[@]/#/fuzz_}"
status=0
for t in "${targets[@]}"; do
  work="$build/corpus/$t"; crashes="$build/crashes/$t"
  mkdir -p "$work" "$crashes"
  echo "fuzz: $t for ${seconds}s"
  if ! ASAN_OPTIONS=detect_leaks=0 "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
      -max_len=65536 -artifact_prefix="$crashes/" -print_final_stats=1 \
      "$work" "tests/fuzz/corpus/$t" "tests/fuzz/regressions/$t" 2>"$build/fuzz-$t.log"; then
    echo "fuzz: $t FAILED, see $build/fuzz-$t.log and $crashes/"; tail -40 "$build/fuzz-$t.log"; status=1
  else
    grep -E "stat::number_executed_units|cov:" "$build/fuzz-$t.log" | tail -2
  fi
done
exit $status
