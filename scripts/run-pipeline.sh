#!/usr/bin/env bash
# Runs one pipeline by hand: N rookery-node processes on loopback, each holding a contiguous
# share of the model's blocks, training the job asynchronously. Watch the loss in the logs
# (or drive the nodes with the GUI's control API). Ctrl-C stops them all (with checkpoints).
#
#   scripts/run-pipeline.sh [STAGES] [JOB.json]     defaults: 3, resources/demo/demo-job.json
#   environment: ROOKERY_PIPELINE_DIR (state; default build/pipeline), ROOKERY_BASE_PORT (7600),
#                ROOKERY_NODE_ARGS (extra node options, e.g. "--max-micro-batches 200")
set -euo pipefail
cd "$(dirname "$0")/.."
STAGES=${1:-3}
JOB=$(realpath "${2:-resources/demo/demo-job.json}")
BUILD_DIR=${ROOKERY_BUILD_DIR:-build}
NODE="$PWD/$BUILD_DIR/app/rookery-node"
DIR=${ROOKERY_PIPELINE_DIR:-$PWD/$BUILD_DIR/pipeline}
PORT=${ROOKERY_BASE_PORT:-7600}
[ -x "$NODE" ] || { echo "build first: scripts/build.sh" >&2; exit 1; }
mkdir -p "$DIR"

# Blocks per stage: as even as the model allows (the coordinator balances by cost later).
BLOCKS=$(python3 -c "import json,sys; m=json.load(open('$JOB'))['model']; k=m['kind']; \
print(m['depth']+2 if k=='gpt' else (len(m['widths'])+1 if k=='cnn' else len(m['hidden'])+1))")
[ "$STAGES" -le "$BLOCKS" ] || { echo "the model has only $BLOCKS blocks" >&2; exit 1; }

stages_json=""
for i in $(seq 0 $((STAGES - 1))); do
  key=$("$NODE" --data-dir "$DIR/stage$i" --print-identity)
  first=$((i * BLOCKS / STAGES)); last=$(((i + 1) * BLOCKS / STAGES))
  stages_json+="${stages_json:+,}{\"blocks\":[$first,$last],\"endpoint\":\"tcp://127.0.0.1:$((PORT + i))\",\"key\":\"$key\"}"
done
printf '{"job":"%s","pipeline":0,"stages":[%s]}\n' "$JOB" "$stages_json" > "$DIR/plan.json"
echo "plan: $DIR/plan.json ($STAGES stages over $BLOCKS blocks)"

pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait' EXIT INT TERM
for i in $(seq $((STAGES - 1)) -1 0); do
  # shellcheck disable=SC2086
  "$NODE" --data-dir "$DIR/stage$i" --runtime-dir "$DIR/run$i" --plan "$DIR/plan.json" --stage "$i" \
    --contribute --threads 1 ${ROOKERY_NODE_ARGS:-} > "$DIR/stage$i.log" 2>&1 &
  pids+=($!)
done
echo "stages running (logs in $DIR/stage*.log); the last stage reports the loss:"
tail -f "$DIR/stage$((STAGES - 1)).log" &
pids+=($!)
wait "${pids[0]}"
