#!/usr/bin/env bash
# Runs the demo from an existing build: a coordinator on loopback and the GUI, which starts
# its own rookery-node. All state lives in build/demo (delete it to start afresh).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${ROOKERY_BUILD_DIR:-build}
DEMO_DIR=${ROOKERY_DEMO_DIR:-$PWD/$BUILD_DIR/demo}
mkdir -p "$DEMO_DIR"
export ROOKERY_DATA_DIR="$DEMO_DIR/node" ROOKERY_RUNTIME_DIR="$DEMO_DIR/run"
export ROOKERY_NODE_BIN="$PWD/$BUILD_DIR/app/rookery-node"

pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

rm -f "$DEMO_DIR/coordinator.ready"
"$BUILD_DIR/app/rookery-coordinator" --bind tcp://127.0.0.1:0 --data-dir "$DEMO_DIR/coordinator" \
  --ready-file "$DEMO_DIR/coordinator.ready" > "$DEMO_DIR/coordinator.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -f "$DEMO_DIR/coordinator.ready" ] && break; sleep 0.1; done
read -r COORD_ENDPOINT COORD_KEY < "$DEMO_DIR/coordinator.ready"
echo "demo: coordinator at $COORD_ENDPOINT"
export ROOKERY_COORDINATOR="$COORD_ENDPOINT" ROOKERY_COORDINATOR_KEY="$COORD_KEY"

gui=("$BUILD_DIR/app/rookery")
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  "${gui[@]}" "$@"
else
  shot="$DEMO_DIR/screenshot.png"
  echo "demo: no display; running under Xvfb, screenshot in $shot"
  xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
    "$@" &
    gui=$!
    sleep "${ROOKERY_DEMO_SECONDS:-20}"
    import -window root "'"$shot"'"
    kill $gui; wait $gui' _ "${gui[@]}" --contribute "$@"
  echo "demo: screenshot saved to $shot"
fi
