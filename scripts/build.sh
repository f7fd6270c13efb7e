#!/usr/bin/env bash
# Configures and builds Rookery into ./build (ccache makes rebuilds fast).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${ROOKERY_BUILD_DIR:-build}
# ccache: paths relative to the checkout and no build folder in the hash, so that a fresh
# clone elsewhere (CI's) compiles from the cache a developer's build filled.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
# LibTorch's header is precompiled (cmake/RookeryDependencies.cmake): ccache caches those
# compiles only when told to trust the precompiled header.
export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"
# ROOKERY_WERROR=ON (CI sets it) makes every compiler warning an error.
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DROOKERY_WERROR="${ROOKERY_WERROR:-OFF}" "$@"
elif [ -n "${ROOKERY_WERROR:-}" ]; then
  cmake "$BUILD_DIR" -DROOKERY_WERROR="$ROOKERY_WERROR" >/dev/null
fi
cmake --build "$BUILD_DIR" -j"$(nproc)"
