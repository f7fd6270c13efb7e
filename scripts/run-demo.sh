#!/usr/bin/env bash
# Runs the demo from an existing build: a coordinator on loopback running the demo job, two
# headless volunteers, and the Rookery window whose own rookery-node joins them; the
# coordinator plans the three into a pipeline that trains the demo GPT (it waits while you
# pause, as your node holds a stage).
# All state lives in build/demo; delete it to start afresh.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${ROOKERY_BUILD_DIR:-build}
DEMO_DIR=${ROOKERY_DEMO_DIR:-$PWD/$BUILD_DIR/demo}
JOB=$PWD/resources/demo/demo-job.json
NODE="$PWD/$BUILD_DIR/app/rookery-node"
GUI="$PWD/$BUILD_DIR/app/rookery"
VOLUNTEERS=3   # with the window's own node
for program in "$NODE" "$GUI" "$PWD/$BUILD_DIR/app/rookery-coordinator"; do
  [ -x "$program" ] || { echo "demo: $program is missing: build first (scripts/build.sh, with the GUI on)" >&2; exit 1; }
done
mkdir -p "$DEMO_DIR"

pids=()
cleanup() {
  # The GUI leaves its node contributing from the tray; the demo's swarm ends here, so stop it.
  [ -n "${ROOKERY_RUNTIME_DIR:-}" ] && "$NODE" --runtime-dir "$ROOKERY_RUNTIME_DIR" --stop > /dev/null 2>&1 || true
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

# The coordinator runs the demo job: it admits volunteers, measures them, plans them into
# pipelines and re-plans as they come and go. Each volunteer here offers half the memory the
# model needs in one place, so three of them form one pipeline: two headless volunteers, and
# the window's own node.
# Each demo is a new run: the model lived only in the volunteers that stopped with the last
# one, so the coordinator does not resume that run's plan, totals and loss history (its chart
# drew a line from the last demo's loss, hours back, to this one's start).
rm -rf "$DEMO_DIR/coordinator" "$DEMO_DIR/coordinator.ready"
# --open: on loopback only this PC's volunteers can join, so the demo needs no invites.
# Its archive collects the model every 20 s (a real run: every 10 min) and judges each snapshot on
# held-out fortunes; its dashboard is the job owner's web page of the run
# (ROOKERY_DEMO_DASHBOARD_PORT, default any free port).
"$BUILD_DIR/app/rookery-coordinator" --bind tcp://127.0.0.1:0 --data-dir "$DEMO_DIR/coordinator" --job "$JOB" \
  --open --ready-file "$DEMO_DIR/coordinator.ready" --archive-interval 20 \
  --dashboard-port "${ROOKERY_DEMO_DASHBOARD_PORT:-0}" > "$DEMO_DIR/coordinator.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -f "$DEMO_DIR/coordinator.ready" ] && break; sleep 0.1; done
read -r COORD_ENDPOINT COORD_KEY < "$DEMO_DIR/coordinator.ready"
for _ in $(seq 50); do grep -q '^DASHBOARD ' "$DEMO_DIR/coordinator.log" && break; sleep 0.1; done
DASHBOARD=$(sed -n 's/^DASHBOARD //p' "$DEMO_DIR/coordinator.log" | head -1)
echo "demo: coordinator at $COORD_ENDPOINT; the run's dashboard: $DASHBOARD"

JOB_ID=$(python3 -c "import json; print(json.load(open('$JOB'))['id'])")
NEED=$("$BUILD_DIR/app/rookery-coordinator" --job "$JOB" --print-memory)
OFFER_MB=$(( NEED * 50 / 100 / 1048576 + 1 ))
for i in $(seq 1 $((VOLUNTEERS - 1))); do
  "$NODE" --data-dir "$DEMO_DIR/peer$i" --runtime-dir "$DEMO_DIR/run-peer$i" --join "$JOB_ID" \
    --coordinator "$COORD_ENDPOINT" --coordinator-key "$COORD_KEY" --memory-limit-mb "$OFFER_MB" \
    --contribute --threads 1 > "$DEMO_DIR/peer$i.log" 2>&1 &
  pids+=($!)
done
echo "demo: $((VOLUNTEERS - 1)) volunteers joined job $JOB_ID offering $OFFER_MB MiB each (logs in $DEMO_DIR/peer*.log)"

export ROOKERY_DATA_DIR="$DEMO_DIR/you" ROOKERY_RUNTIME_DIR="$DEMO_DIR/run-you"
export ROOKERY_NODE_BIN="$NODE"
export ROOKERY_COORDINATOR="$COORD_ENDPOINT" ROOKERY_COORDINATOR_KEY="$COORD_KEY"
export ROOKERY_NODE_ARGS="--join $JOB_ID --memory-limit-mb $OFFER_MB --threads 1"

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  "$GUI" "$@"
else
  shot="$DEMO_DIR/screenshot.png"
  seconds=${ROOKERY_DEMO_SECONDS:-45}
  echo "demo: no display; running the window under Xvfb for ${seconds}s, then saving $shot"
  xvfb-run -a -s "-screen 0 ${ROOKERY_DEMO_SCREEN:-1400x1200}x24" bash -c '
    gui=$1 seconds=$2 shot=$3; shift 3
    "$gui" --contribute "$@" & pid=$!
    sleep "$seconds"
    timeout 30 import -window root "$shot" || echo "demo: the screenshot failed"
    kill $pid 2>/dev/null; sleep 2; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null; exit 0' _ "$GUI" "$seconds" "$shot" "$@"
  echo "demo: screenshot saved to $shot"
  if [ -n "$DASHBOARD" ] && command -v chromium > /dev/null; then
    timeout 60 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
      --user-data-dir="$DEMO_DIR/chromium" --virtual-time-budget=5000 --window-size=1280,1600 \
      --screenshot="$DEMO_DIR/dashboard.png" "$DASHBOARD" > /dev/null 2>&1 &&
      echo "demo: the dashboard's screenshot saved to $DEMO_DIR/dashboard.png"
  fi
fi
