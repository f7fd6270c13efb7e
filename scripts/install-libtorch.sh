#!/usr/bin/env bash
# Installs the one LibTorch every Rookery build uses: PyTorch's own, taken from its wheel on PyPI
# (the wheel carries LibTorch's headers, CMake package and libraries), pinned by version and
# SHA-256. Debian's libtorch is 1.13 and CPU-only; this one is current and has CUDA.
#
# Layout under $ROOKERY_LIBTORCH (default /opt/rookery/libtorch-<version>):
#   include/, share/cmake/   headers and Torch's CMake package
#   lib/                     libc10, libtorch_cpu (the CPU kernels, MKL inside) and its libgomp;
#                            libcudart and libcupti, which libtorch_cpu names as needed although a
#                            CPU run never calls into a GPU (they load no driver);
#   lib/cuda/                libtorch_cuda and libc10_cuda: the CUDA part, which only a node that
#                            finds a GPU loads (model/cuda_backend), with the three libraries it
#                            needs that the CUDA toolkit lacks (cuFile, cuSPARSELt, NVSHMEM).
#                            Its other CUDA libraries (cuBLAS, cuDNN, NCCL…) come from the CUDA
#                            toolkit, or on a GPU test machine from its torch.
# The vendored fmt, protobuf and pybind11 headers are left out: Debian's are the ones we use.
# Idempotent: a complete install is left as it is.
set -euo pipefail

TORCH_VERSION=2.11.0
TORCH_WHEEL=torch-2.11.0-cp311-cp311-manylinux_2_28_x86_64.whl
TORCH_SHA256=7aa2f9bbc6d4595ba72138026b2074be1233186150e9292865e04b7a63b8c67a
# The CUDA runtime and profiler interface torch 2.11.0+cu130 was built with (cuda-toolkit 13.0.2).
CUDART=(nvidia-cuda-runtime 13.0.96 7f82250d7782aa23b6cfe765ecc7db554bd3c2870c43f3d1821f1d18aebf0548)
CUPTI=(nvidia-cuda-cupti 13.0.85 4eb01c08e859bf924d222250d2e8f8b8ff6d3db4721288cf35d14252a4d933c8)
# What libtorch_cuda needs beyond the CUDA toolkit's libraries (cuBLAS, cuDNN, NCCL... which the
# build machines have): the versions torch 2.11.0 pins.
CUFILE=(nvidia-cufile 1.15.1.6 08a3ecefae5a01c7f5117351c64f17c7c62efa5fffdbe24fc7d298da19cd0b44)
CUSPARSELT=(nvidia-cusparselt-cu13 0.8.0 25e30a8a7323935d4ad0340b95a0b69926eee755767e8e0b1cf8dd85b197d3fd)
NVSHMEM=(nvidia-nvshmem-cu13 3.4.5 290f0a2ee94c9f3687a02502f3b9299a9f9fe826e6d0287ee18482e78d495b80)

# Bumped whenever what this script puts into the prefix changes, so older installs are redone.
LAYOUT=2

prefix=${ROOKERY_LIBTORCH:-/opt/rookery/libtorch-$TORCH_VERSION}
if [ -f "$prefix/.complete" ] && [ "$(cat "$prefix/.complete")" = "$LAYOUT" ]; then
  echo "install-libtorch: LibTorch $TORCH_VERSION is in $prefix"
  exit 0
fi

SUDO=""
if [ ! -w "$(dirname "$(dirname "$prefix")")" ] && [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# fetch NAME VERSION SHA256: the wheel of NAME==VERSION for this platform, its hash checked.
fetch() {
  python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_25_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux2014_x86_64 --dest "$work/$1" "$1==$2" >&2 \
    || { echo "install-libtorch: cannot fetch $1 $2 from PyPI" >&2; exit 1; }
  local wheel
  wheel=$(ls "$work/$1"/*.whl)
  echo "$3  $wheel" | sha256sum --check --quiet \
    || { echo "install-libtorch: $1 $2: the wheel's SHA-256 is not the pinned one" >&2; exit 1; }
  echo "$wheel"
}

echo "install-libtorch: fetching torch $TORCH_VERSION and its CUDA companions from PyPI (about 760 MB)"
torch_wheel=$(fetch torch "$TORCH_VERSION" "$TORCH_SHA256")
[ "$(basename "$torch_wheel")" = "$TORCH_WHEEL" ] || echo "install-libtorch: note: got $(basename "$torch_wheel")"
cudart_wheel=$(fetch "${CUDART[0]}" "${CUDART[1]}" "${CUDART[2]}")
cupti_wheel=$(fetch "${CUPTI[0]}" "${CUPTI[1]}" "${CUPTI[2]}")
cufile_wheel=$(fetch "${CUFILE[0]}" "${CUFILE[1]}" "${CUFILE[2]}")
cusparselt_wheel=$(fetch "${CUSPARSELT[0]}" "${CUSPARSELT[1]}" "${CUSPARSELT[2]}")
nvshmem_wheel=$(fetch "${NVSHMEM[0]}" "${NVSHMEM[1]}" "${NVSHMEM[2]}")

stage="$work/libtorch"
python3 - "$stage" "$torch_wheel" "$cudart_wheel" "$cupti_wheel" "$cufile_wheel" \
  "$cusparselt_wheel" "$nvshmem_wheel" <<'PY'
import os, shutil, sys, zipfile
stage, torch_wheel, cudart_wheel, cupti_wheel, cufile_wheel, cusparselt_wheel, nvshmem_wheel = sys.argv[1:]
cpu = {"libc10.so", "libtorch_cpu.so", "libgomp.so.1", "libtorch_global_deps.so", "libshm.so"}
cuda = {"libtorch_cuda.so", "libc10_cuda.so", "libtorch_cuda_linalg.so", "libtorch_nvshmem.so",
        "libcaffe2_nvrtc.so", "libtorch.so"}
def extract(zf, member, dest):
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with zf.open(member) as src, open(dest, "wb") as out:
        shutil.copyfileobj(src, out)
    os.chmod(dest, 0o755 if ".so" in os.path.basename(dest) else 0o644)
with zipfile.ZipFile(torch_wheel) as zf:
    for m in zf.namelist():
        if m.endswith("/"):
            continue
        # Third-party headers that PyTorch vendors and Debian also provides (fmt, protobuf's
        # google/, pybind11) would shadow Debian's, which spdlog and our wire schema use; no
        # header of LibTorch's C++ API needs them.
        if any(m.startswith("torch/include/" + d + "/") for d in ("fmt", "google", "pybind11")):
            continue
        if m.startswith("torch/include/") or m.startswith("torch/share/cmake/"):
            extract(zf, m, os.path.join(stage, m[len("torch/"):]))
        elif m.startswith("torch/lib/"):
            name = m[len("torch/lib/"):]
            if name in cpu:
                extract(zf, m, os.path.join(stage, "lib", name))
            elif name in cuda:
                extract(zf, m, os.path.join(stage, "lib", "cuda", name))
for wheel, member, sub in ((cudart_wheel, "nvidia/cu13/lib/libcudart.so.13", "lib"),
                           (cupti_wheel, "nvidia/cu13/lib/libcupti.so.13", "lib"),
                           (cufile_wheel, "nvidia/cu13/lib/libcufile.so.0", "lib/cuda"),
                           (cusparselt_wheel, "nvidia/cusparselt/lib/libcusparseLt.so.0", "lib/cuda"),
                           (nvshmem_wheel, "nvidia/nvshmem/lib/libnvshmem_host.so.3", "lib/cuda")):
    with zipfile.ZipFile(wheel) as zf:
        extract(zf, member, os.path.join(stage, sub, os.path.basename(member)))
PY
echo "$TORCH_VERSION" > "$stage/VERSION"
echo "$LAYOUT" > "$stage/.complete"

$SUDO mkdir -p "$(dirname "$prefix")"
$SUDO rm -rf "$prefix"
$SUDO mv "$stage" "$prefix"
echo "install-libtorch: LibTorch $TORCH_VERSION installed in $prefix"
