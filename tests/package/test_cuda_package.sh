#!/usr/bin/env bash
# rookery-cuda, the GPU part (installer/linux/cuda-package.cmake), end to end on this machine:
#   1. build it and the rookery package it belongs to with cpack
#   2. validate it: it depends on exactly that rookery; it holds the module and every library
#      the module's closure needs, under /usr/lib/rookery and nowhere else; the rookery package
#      holds none of them; lintian (no errors)
#   3. install rookery alone and run its node on a PC with an NVIDIA driver: the CPU computes,
#      and the node says the GPU part is not installed
#   4. install rookery-cuda beside it: the same node now loads the installed module, and every
#      CUDA library it maps comes from /usr/lib/rookery, none from the CUDA toolkit or the build
#   5. remove both: no file of either is left; every package this test installed is purged
# There is no GPU here: the "driver" is the CUDA toolkit's stub libcuda (stubs/libcuda.so),
# which cudart recognises and refuses ("CUDA driver is a stub library"), so a loaded module
# counts 0 GPUs with that reason. On a PC with a real driver the same module trains on the GPU.
# Usage: test_cuda_package.sh BUILD_DIR PACKAGE_NODE_PROBE CUDA_STUB_DIR
# Exit 77 (skipped) where it cannot run: no root, no apt, rookery installed already, or a build
# without the CUDA part.
set -euo pipefail

BUILD=$(cd "$1" && pwd)
PROBE=$2
STUBS=$(realpath "$3")  # the path the node maps the stub under
WORK="$BUILD/cuda-package-test"

say() { echo "cuda-package-test: $*"; }
skip() { echo "cuda-package-test: SKIPPED: $*"; exit 77; }
fail() { echo "cuda-package-test: FAILED: $*" >&2; exit 1; }

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  sudo -n true 2>/dev/null || skip "needs root or password-less sudo: it installs packages with apt"
  SUDO="sudo -n"
fi
command -v apt-get > /dev/null && command -v dpkg-deb > /dev/null || skip "not a Debian system"
is_installed() { dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null | grep -q '^ii'; }
is_installed rookery && skip "a rookery package is installed already; this test never replaces one"
[ -f "$BUILD/CPackConfig-cuda.cmake" ] || skip "this build has no CUDA part (no CPackConfig-cuda.cmake)"
[ -f "$STUBS/libcuda.so" ] || skip "no CUDA driver stub at $STUBS/libcuda.so"

export DEBIAN_FRONTEND=noninteractive
apt_get() { $SUDO apt-get -y -q -o Dpkg::Use-Pty=0 "$@"; }
installed_packages() { dpkg-query -W -f='${db:Status-Abbrev} ${binary:Package}\n' | awk '$1 == "ii" {print $2}' | sort; }

rm -rf "$WORK"
mkdir -p "$WORK"
installed_packages > "$WORK/packages-before"
NODE_PID=""
cleanup() {
  local rc=$?
  set +e
  [ -z "$NODE_PID" ] || { kill "$NODE_PID" 2> /dev/null; wait "$NODE_PID" 2> /dev/null; }
  installed_packages > "$WORK/packages-after"
  local extra
  extra=$(comm -13 "$WORK/packages-before" "$WORK/packages-after" | tr '\n' ' ')
  if [ -n "${extra// /}" ]; then
    say "purging what this test installed: $extra"
    # shellcheck disable=SC2086
    apt_get purge $extra > "$WORK/cleanup.log" 2>&1 || say "could not purge $extra (see $WORK/cleanup.log)"
  fi
  rm -rf "$WORK/release"  # 1.5 GB of packages
  if [ "$rc" -eq 0 ]; then say "PASSED"; else say "failed with status $rc; logs in $WORK"; fi
  exit "$rc"
}
trap cleanup EXIT

command -v lintian > /dev/null || apt_get install --no-install-recommends lintian > "$WORK/tools.log" 2>&1 ||
  fail "cannot install lintian (see $WORK/tools.log)"

# --- 1. build -----------------------------------------------------------------------------
say "building the programs"
cmake --build "$BUILD" --target rookery rookery-node rookery-coordinator rookery_cuda rookery_package_docs \
  package_node_probe > "$WORK/build.log" 2>&1 || fail "build (see $WORK/build.log)"
say "cpack: rookery and rookery-cuda"
(cd "$WORK" && cpack --config "$BUILD/CPackConfig.cmake" -G DEB -B "$WORK/release") > "$WORK/cpack.log" 2>&1 ||
  fail "cpack rookery (see $WORK/cpack.log)"
(cd "$WORK" && cpack --config "$BUILD/CPackConfig-cuda.cmake" -G DEB -B "$WORK/release") > "$WORK/cpack-cuda.log" 2>&1 ||
  fail "cpack rookery-cuda (see $WORK/cpack-cuda.log)"
DEB=$(ls "$WORK"/release/rookery_*.deb)
CUDA_DEB=$(ls "$WORK"/release/rookery-cuda_*.deb)
say "built $(basename "$DEB") ($(du -h "$DEB" | cut -f1)) and $(basename "$CUDA_DEB") ($(du -h "$CUDA_DEB" | cut -f1))"

# --- 2. validate --------------------------------------------------------------------------
V=$(dpkg-deb -f "$DEB" Version)
[ "$(dpkg-deb -f "$CUDA_DEB" Version)" = "$V" ] || fail "rookery-cuda's version is not rookery's ($V)"
depends=$(dpkg-deb -f "$CUDA_DEB" Depends)
say "rookery-cuda depends on: $depends"
grep -qF "rookery (= $V)" <<< "$depends" || fail "rookery-cuda does not depend on exactly rookery $V"
dpkg-deb --contents "$CUDA_DEB" | awk '{print $6}' | sed 's|^\./|/|' | grep -v '/$' > "$WORK/cuda-files.txt"
dpkg-deb --contents "$DEB" | awk '{print $6}' | sed 's|^\./|/|' > "$WORK/files.txt"
outside=$(grep -vE '^/usr/lib/rookery/|^/usr/share/doc/rookery-cuda/|^/usr/share/lintian/overrides/rookery-cuda$' \
  "$WORK/cuda-files.txt" || true)
[ -z "$outside" ] || fail "rookery-cuda puts files outside its folders: $outside"
grep -qx /usr/lib/rookery/librookery_cuda.so "$WORK/cuda-files.txt" || fail "rookery-cuda lacks librookery_cuda.so"
for lib in libtorch_cuda.so libc10_cuda.so libcublas.so.13 libcublasLt.so.13 libcudnn.so.9 \
           libcudnn_engines_precompiled.so.9 libnccl.so.2 libcufft.so.12 libcurand.so.10 libcusparse.so.12; do
  grep -qx "/usr/lib/rookery/cuda/$lib" "$WORK/cuda-files.txt" || fail "rookery-cuda lacks $lib"
done
if grep -E 'librookery_cuda|/usr/lib/rookery/cuda/' "$WORK/files.txt"; then
  fail "the rookery package carries part of the GPU part"
fi
say "rookery-cuda holds $(wc -l < "$WORK/cuda-files.txt") files, $(dpkg-deb -f "$CUDA_DEB" Installed-Size) KiB installed"
say "lintian rookery-cuda"
lintian --fail-on error "$CUDA_DEB" > "$WORK/lintian.txt" 2>&1 && lintian_rc=0 || lintian_rc=$?
cat "$WORK/lintian.txt"
[ "$lintian_rc" -eq 0 ] || fail "lintian reports errors in rookery-cuda (status $lintian_rc)"
! grep -q '^E: ' "$WORK/lintian.txt" || fail "lintian reports errors in rookery-cuda"

# --- 3. rookery alone, on a PC with a driver ----------------------------------------------
# The driver: a folder with only libcuda.so.1, the toolkit's stub.
mkdir -p "$WORK/driver"
ln -sf "$STUBS/libcuda.so" "$WORK/driver/libcuda.so.1"
export HOME="$WORK/home" XDG_DATA_HOME="$WORK/home/.local/share" XDG_CONFIG_HOME="$WORK/home/.config"
export XDG_RUNTIME_DIR="$WORK/run" OMP_NUM_THREADS=1
unset ROOKERY_CUDA_BACKEND ROOKERY_COORDINATOR ROOKERY_COORDINATOR_KEY
mkdir -p "$HOME" && mkdir -m 700 "$XDG_RUNTIME_DIR"
RUNTIME="$XDG_RUNTIME_DIR/rookery"

# Starts the installed node with the stub driver, and waits until it says which device computes.
run_node() {  # log
  LD_LIBRARY_PATH="$WORK/driver" /usr/bin/rookery-node --device auto --threads 1 --benchmark-seconds 0.1 \
    --telemetry-ms 200 > "$1" 2>&1 &
  NODE_PID=$!
  for _ in $(seq 120); do
    if "$PROBE" "$RUNTIME" > "$WORK/probe.txt" 2> /dev/null && grep -q '^compute_device=.' "$WORK/probe.txt"; then
      return 0
    fi
    kill -0 "$NODE_PID" 2> /dev/null || { cat "$1"; fail "the node exited"; }
    sleep 0.5
  done
  cat "$1"
  fail "the node did not say which device computes"
}
stop_node() {
  /usr/bin/rookery-node --stop > /dev/null 2>&1 || kill "$NODE_PID"
  wait "$NODE_PID" 2> /dev/null || true
  NODE_PID=""
}
cuda_libraries_mapped() {  # pid: the CUDA and LibTorch libraries it maps, one path a line
  awk '{print $6}' "/proc/$1/maps" | grep -E '/lib(torch_cuda|c10_cuda|cublas|cudnn|nccl|cufft|curand|cusparse|nvshmem|cufile|nvrtc|nvJitLink|cuda\.so|rookery_cuda)' |
    sort -u
}

say "installing rookery alone"
apt_get install "$DEB" > "$WORK/install.log" 2>&1 || fail "apt install rookery (see $WORK/install.log)"
run_node "$WORK/node-alone.log"
cat "$WORK/probe.txt"
grep -qx 'compute_device=cpu' "$WORK/probe.txt" || fail "without rookery-cuda the node should compute on the CPU"
grep -q '^gpu_unused=.*rookery-cuda' "$WORK/probe.txt" || fail "the node does not say the GPU part is not installed"
stop_node

# --- 4. with rookery-cuda -----------------------------------------------------------------
say "installing rookery-cuda"
apt_get install "$CUDA_DEB" > "$WORK/install-cuda.log" 2>&1 || fail "apt install rookery-cuda (see $WORK/install-cuda.log)"
run_node "$WORK/node-cuda.log"
cat "$WORK/probe.txt"
cuda_libraries_mapped "$NODE_PID" > "$WORK/mapped.txt"
say "the node maps $(wc -l < "$WORK/mapped.txt") CUDA and LibTorch libraries"
grep -qx /usr/lib/rookery/librookery_cuda.so "$WORK/mapped.txt" || { cat "$WORK/mapped.txt"; fail "the installed module is not loaded"; }
grep -qx /usr/lib/rookery/cuda/libtorch_cuda.so "$WORK/mapped.txt" || fail "LibTorch's CUDA part is not loaded from the package"
grep -qx /usr/lib/rookery/cuda/libcublas.so.13 "$WORK/mapped.txt" || fail "cuBLAS is not loaded from the package"
foreign=$(grep -vE "^/usr/lib/rookery/|^$WORK/driver/|^$STUBS/" "$WORK/mapped.txt" || true)
[ -z "$foreign" ] || fail "libraries loaded from outside the packages: $foreign"
grep -q 'CUDA backend /usr/lib/rookery/librookery_cuda.so: 0 GPU(s)' "$WORK/node-cuda.log" ||
  { cat "$WORK/node-cuda.log"; fail "the node did not report the loaded backend"; }
grep -qx 'compute_device=cpu' "$WORK/probe.txt" || fail "a stub driver has no GPU to compute on"
grep -q '^gpu_unused=.*stub' "$WORK/probe.txt" || fail "the node does not give the CUDA runtime's reason (the stub driver)"
stop_node

# --- 5. remove ----------------------------------------------------------------------------
say "purging rookery-cuda and rookery"
apt_get purge rookery-cuda rookery > "$WORK/purge.log" 2>&1 || fail "apt purge (see $WORK/purge.log)"
left=$(while read -r f; do [ ! -e "$f" ] || echo "$f"; done < "$WORK/cuda-files.txt")
[ -z "$left" ] || fail "files left after purge: $left"
[ ! -e /usr/lib/rookery ] || fail "/usr/lib/rookery is left after purge"
