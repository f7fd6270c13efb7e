#!/usr/bin/env bash
# Installs what is needed, builds, and runs the default test suite (everything not labelled
# `slow`), then fuzzes every libFuzzer target (scripts/fuzz.sh, clang, in build-fuzz) for
# ROOKERY_FUZZ_SECONDS seconds each (default 30; 0 skips fuzzing) from the checked-in seed
# corpus: a crash, a sanitizer report or a hang fails the run like a failing test.
# Slow tests: `cd build && ctest -L slow`. Benchmarks: tests/bench (the comment
# at the top of each says how to run it).
# Sanitizers (not part of this run, see the script): scripts/test-sanitize.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
status=0
# A test that fails is run once more, and fails the run only if it fails again: a few of the
# multi-process tests train real swarms on two shared cores, and their learning bounds (the
# Byzantine rows of test_byzantine_averaging: within 5% of clean runs that themselves differ by
# up to 6%) are crossed now and then by noise alone. The first failure stays in the log.
(cd "${ROOKERY_BUILD_DIR:-build}" && ctest -LE slow --output-on-failure --timeout 600 --repeat until-pass:2) || status=$?
fuzz_seconds=${ROOKERY_FUZZ_SECONDS:-30}
if [ "$fuzz_seconds" -gt 0 ]; then
  # Run even when a test failed, so one CI run reports both.
  ./scripts/fuzz.sh "$fuzz_seconds" || { echo "test: fuzzing failed: a target crashed or did not build (see above)"; status=1; }
fi
exit $status
