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
# A fresh build takes about 8 GiB (two precompiled LibTorch headers of 0.9 GiB each, debug
# information) and ccache grows beside it: a full disk otherwise shows up as a compiler's
# "cannot write PCH file" or a truncated object, far from its cause.
mkdir -p "$BUILD_DIR"
free_kib=$(df -Pk "$BUILD_DIR" | awk 'NR == 2 { print $4 }')
if [ -n "$free_kib" ] && [ "$free_kib" -lt $((9 * 1024 * 1024)) ] && [ ! -f "$BUILD_DIR/build.ninja" ]; then
  echo "build: warning: only $((free_kib / 1024)) MiB free where $BUILD_DIR is; a fresh build needs about 9 GiB" >&2
fi
# ROOKERY_WERROR=ON (CI sets it) makes every compiler warning an error.
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DROOKERY_WERROR="${ROOKERY_WERROR:-OFF}" "$@"
elif [ -n "${ROOKERY_WERROR:-}" ]; then
  cmake "$BUILD_DIR" -DROOKERY_WERROR="$ROOKERY_WERROR" >/dev/null
fi
cmake --build "$BUILD_DIR" -j"$(nproc)"
