#!/usr/bin/env bash
# Builds the GPU test bundle: what a GPU machine that has nothing but its NVIDIA driver and
# Python's torch 2.11.0 needs to run Rookery's GPU tests and benchmarks (tests/gpu/README.md).
#
#   tests/gpu/make-bundle.sh [OUT]      (default OUT: build/gpu-bundle; at most 64 MiB)
#
# OUT holds run.sh, this README and payload.tar.xz (xz: Qt's ICU data alone is 31 MiB
# unpacked), which run.sh unpacks beside itself on its first run. In the payload:
#   real/     rookery-node, the GPU tests and benchmarks, and librookery_cuda.so, stripped
#   bin/      one wrapper per program: runs it through the bundled dynamic loader, against the
#             bundled libraries and the machine's own torch/lib
#   lib/      the Debian shared libraries they load (Qt, ZeroMQ, protobuf, ... and glibc and
#             libstdc++ themselves, so the machine's distribution does not matter), taken from
#             Debian's packages with `apt-get download` and `dpkg -x`
#   run.sh    tests/gpu/run.sh
# LibTorch is not in it: the programs load the machine's torch/lib (the same 2.11.0 this
# build pins), whose libtorch_cuda finds CUDA's libraries in the machine's nvidia/ wheels.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${ROOKERY_BUILD_DIR:-build}
OUT=$(realpath -m "${1:-$BUILD/gpu-bundle}")
LIMIT=$((64 << 20))

TARGETS=(rookery-node rookery_cuda test_gpu_stage test_cuda_backend test_mixed_precision test_fused_adamw test_model_export bench_gpu_training)
cmake --build "$BUILD" --target "${TARGETS[@]}"

programs=(
  "$BUILD/app/rookery-node"
  "$BUILD/tests/pipeline/test_gpu_stage"
  "$BUILD/tests/model/test_cuda_backend"
  "$BUILD/tests/model/test_mixed_precision"
  "$BUILD/tests/model/test_fused_adamw"
  "$BUILD/tests/pipeline/test_model_export"
  "$BUILD/tests/bench/model/bench_gpu_training"
)
module=$(find "$BUILD/core/model" -name librookery_cuda.so | head -1)
[ -n "$module" ] || { echo "make-bundle: librookery_cuda.so was not built (is the CUDA toolkit installed?)" >&2; exit 1; }

rm -rf "$OUT"
mkdir -p "$OUT/real" "$OUT/bin" "$OUT/lib" "$OUT/debs"
for p in "${programs[@]}" "$module"; do
  strip --strip-unneeded -o "$OUT/real/$(basename "$p")" "$p"
done

# LibTorch's libraries come from the GPU machine's torch; everything else the programs load
# comes from Debian's packages.
torch_libs='^(libtorch|libc10|libgomp|libcudart|libcupti|libcaffe2|libshm|libnv|libcu|libnccl)'
declare -A wanted=()
for p in "${programs[@]}" "$module"; do
  while read -r name path; do
    [[ "$name" =~ $torch_libs ]] && continue
    # Keyed by the file, named as the programs ask for it (the SONAME, e.g. libQt6Test.so.6):
    # the Debian package holds the versioned file, and the loader looks for the SONAME.
    [ -n "$path" ] || continue
    [ "$name" = loader ] && name=$(basename "$path")
    real=$(realpath "$path")
    [[ " ${wanted[$real]:-} " == *" $name "* ]] || wanted["$real"]+=" $name"
  done < <(ldd "$p" | awk '/=>/ && $3 ~ /^\// {print $1, $3} !/=>/ && $1 ~ /^\// {print "loader", $1}')
done

declare -A packages=() sonames=()
for lib in "${!wanted[@]}"; do
  pkg=$(dpkg -S "$lib" 2>/dev/null | head -1 | cut -d: -f1) \
    || pkg=$(dpkg -S "${lib/\/usr\/lib/\/lib}" 2>/dev/null | head -1 | cut -d: -f1) || true
  if [ -z "$pkg" ]; then
    pkg=$(dpkg -S "$(basename "$lib")" 2>/dev/null | grep -v -- '-dev' | head -1 | cut -d: -f1) || true
  fi
  [ -n "$pkg" ] || { echo "make-bundle: no Debian package holds $lib" >&2; exit 1; }
  packages["$pkg"]+=" $(basename "$lib")"
  sonames["$(basename "$lib")"]=${wanted[$lib]}
done

(cd "$OUT/debs" && apt-get download -q "${!packages[@]}" > /dev/null)
for deb in "$OUT"/debs/*.deb; do
  dir="$OUT/debs/x"
  rm -rf "$dir"
  dpkg -x "$deb" "$dir"
  pkg=$(dpkg-deb -f "$deb" Package)
  for name in ${packages[$pkg]}; do
    found=$(find "$dir" -name "$name" \( -type f -o -type l \) | head -1)
    [ -n "$found" ] || { echo "make-bundle: $name is not in $(basename "$deb")" >&2; exit 1; }
    for soname in ${sonames[$name]}; do cp -L "$found" "$OUT/lib/$soname"; done
  done
done
rm -rf "$OUT/debs"
# The loader by its canonical name, whatever the file in libc6 is called.
loader=$(ls "$OUT"/lib/ld-linux-x86-64.so.2 2>/dev/null || true)
[ -n "$loader" ] || { echo "make-bundle: the dynamic loader is missing" >&2; exit 1; }

# Check: through the bundle's loader and library path, every library that is not LibTorch's
# resolves inside the bundle, by the name the programs ask for (not from this machine's /usr/lib).
for p in "${programs[@]}" "$module"; do
  bad=$("$OUT/lib/ld-linux-x86-64.so.2" --library-path "$OUT/lib" --list "$OUT/real/$(basename "$p")" \
          | awk -v lib="$OUT/lib/" -v torch="$torch_libs" \
              '/=>/ { n = $1; sub(/^[ \t]+/, "", n); if (n ~ torch) next;
                      if ($3 !~ "^" lib) print n " => " $3 }')
  [ -z "$bad" ] || { printf 'make-bundle: %s would load from outside the bundle:\n%s\n' "$(basename "$p")" "$bad" >&2; exit 1; }
done

for p in "${programs[@]}"; do
  name=$(basename "$p")
  cat > "$OUT/bin/$name" <<WRAP
#!/bin/sh
# $name through the bundle's loader: the bundle's libraries first, then the machine's torch/lib
# (whose libtorch_cuda finds CUDA's libraries through its own RUNPATH), then LD_LIBRARY_PATH.
here=\$(dirname "\$(readlink -f "\$0")")/..
exec "\$here/lib/ld-linux-x86-64.so.2" --library-path "\$here/lib:\${ROOKERY_TORCH_LIB:?set by run.sh}\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" "\$here/real/$name" "\$@"
WRAP
  chmod +x "$OUT/bin/$name"
done
unpacked=$(du -sb "$OUT" | cut -f1)
tar -C "$OUT" -cf - real bin lib | xz -T2 -6 > "$OUT/payload.tar.xz"
rm -rf "$OUT/real" "$OUT/bin" "$OUT/lib"
cp tests/gpu/run.sh "$OUT/run.sh"
cp tests/gpu/README.md "$OUT/README.md"
# The files of the source tree the tests read, in its layout (run.sh points the tests at them
# with ROOKERY_TEST_SOURCE_DIR), and PyTorch's own figures for the same step (torch_reference.py).
for f in resources/demo/demo-text.txt resources/demo/demo-job.json scripts/rookery_model.py \
         tests/gpu/torch_reference.py; do
  mkdir -p "$OUT/source/$(dirname "$f")" && cp "$f" "$OUT/source/$f"
done

size=$(du -sb "$OUT" | cut -f1)
echo "make-bundle: $OUT: $((size >> 20)) MiB ($((unpacked >> 20)) MiB unpacked; ${#wanted[@]} libraries from ${#packages[@]} Debian packages)"
[ "$size" -le "$LIMIT" ] || { echo "make-bundle: the bundle is over 64 MiB" >&2; exit 1; }
