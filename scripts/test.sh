#!/usr/bin/env bash
# Installs what is needed, builds, and runs the default test suite (everything not labelled
# `slow`). Slow tests: `cd build && ctest -L slow`. Benchmarks: see tests/bench/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
cd "${ROOKERY_BUILD_DIR:-build}"
ctest -LE slow --output-on-failure --timeout 600
