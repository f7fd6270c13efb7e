#!/usr/bin/env bash
# Runs Rookery's GPU tests and benchmarks from the bundle tests/gpu/make-bundle.sh built, on a
# machine with an NVIDIA GPU, its driver, and python3 with torch 2.11.0 (nothing else needed).
#
#   ./run.sh [RESULTS_DIR]        (default: ./results; each program's output is kept there)
#
#   ROOKERY_GPU_TESTS="test_a test_b:fn"  runs only those tests (or one function; default: all)
#   ROOKERY_BENCH_BATCHES="8 16"       runs the benchmark once per micro-batch (default: 8; "": none)
#
# Exits 0 when every test passed (a test that finds no GPU exits 77 and counts as skipped).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
results=$(realpath -m "${1:-$here/results}")
mkdir -p "$results"
# The programs and libraries travel compressed (make-bundle.sh): unpack them once.
if [ ! -x "$here/bin/rookery-node" ]; then
  xz -dc "$here/payload.tar.xz" | tar -C "$here" -xf - \
    || { echo "run: cannot unpack $here/payload.tar.xz" >&2; exit 2; }
fi

# Only stdout: importing torch may warn on stderr (no NumPy, say).
torch_lib=$(python3 -c 'import os, torch; print(torch.__version__); print(os.path.join(os.path.dirname(torch.__file__), "lib"))' 2> "$results/python-torch.err") \
  || { echo "run: python3 cannot import torch: $(tail -3 "$results/python-torch.err")" >&2; exit 2; }
version=$(sed -n 1p <<< "$torch_lib")
export ROOKERY_TORCH_LIB=$(sed -n 2p <<< "$torch_lib")
case "$version" in
  2.11.0*) ;;
  *) echo "run: this bundle was built against LibTorch 2.11.0; the machine's torch is $version" >&2; exit 2 ;;
esac
export ROOKERY_CUDA_BACKEND="$here/real/librookery_cuda.so"
export ROOKERY_NODE_BIN="$here/bin/rookery-node"
export QT_QPA_PLATFORM=offscreen
# The build machine's source tree is not here: the tests read the bundle's copies of its files.
export ROOKERY_TEST_SOURCE_DIR="$here/source"
echo "run: torch $version from $ROOKERY_TORCH_LIB"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/run: GPU: /'

status=0
# A test, or test:function for one of its functions. test_model_export's check runs the
# exported model in this machine's PyTorch (scripts/rookery_model.py) against Rookery's logits.
for spec in ${ROOKERY_GPU_TESTS-test_cuda_backend test_mixed_precision test_fused_adamw test_gpu_stage test_model_export:pytorchComputesTheSameLogits}; do
  t=${spec%%:*}
  fn=(); [ "$t" = "$spec" ] || fn=("${spec#*:}")
  "$here/bin/$t" "${fn[@]}" > "$results/$t.txt" 2>&1
  rc=$?
  case $rc in
    0) echo "run: $t passed" ;;
    77) echo "run: $t skipped: $(tail -1 "$results/$t.txt")" ;;
    *) echo "run: $t FAILED (exit $rc)"; tail -30 "$results/$t.txt"; status=1 ;;
  esac
done
for batch in ${ROOKERY_BENCH_BATCHES-8}; do
  out="$results/bench_gpu_training-batch$batch.txt"
  ROOKERY_BENCH_BATCH=$batch "$here/bin/bench_gpu_training" > "$out" 2>&1
  case $? in
    0) ;;
    77) echo "run: bench_gpu_training skipped (no GPU)" ;;
    *) echo "run: bench_gpu_training FAILED"; status=1 ;;
  esac
  cat "$out"
done
# PyTorch's figures for the same step on this GPU, beside ours: eager, bf16 copies, compiled.
if [ "${ROOKERY_TORCH_REFERENCE:-0}" = 1 ]; then
  python3 "$here/source/tests/gpu/torch_reference.py" ${ROOKERY_TORCH_REFERENCE_ARGS:-} > "$results/torch_reference.txt" 2>&1 \
    || echo "run: torch_reference.py failed (exit $?)"
  cat "$results/torch_reference.txt"
fi
exit $status
