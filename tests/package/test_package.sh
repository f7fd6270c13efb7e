#!/usr/bin/env bash
# The Debian package end to end, on this machine:
#   1. build it with cpack, twice: release 1, and release 2 of the same build for the upgrade
#   2. validate it: its contents and dependencies, lintian (no errors), desktop-file-validate,
#      appstreamcli validate, systemd-analyze verify of both units, man pages naming every option
#   3. install release 1 with apt and run the installed programs as a user would: --version of
#      all three; the window on the offscreen platform (it starts the installed node) and under
#      Xvfb (its window is mapped; a screenshot is kept); a headless node that trains a stage of
#      the installed demo text and joins a locally started coordinator
#   4. upgrade to release 2 with apt: the user's keys, state database (settings, ledger) and
#      checkpoints are byte for byte the same, and the upgraded node carries on with them
#   5. purge it: no file of the package is left, its folders are gone, the user's data stays
#   6. put the machine back: every package this test installed is purged again
# Usage: test_package.sh BUILD_DIR PACKAGE_NODE_PROBE
# Exit 77 (skipped) where it cannot run: no root (or password-less sudo), no apt, or a rookery
# package installed already (the test never replaces a real installation).
set -euo pipefail

BUILD=$(cd "$1" && pwd)
PROBE=$2
WORK="$BUILD/package-test"

say() { echo "package-test: $*"; }
skip() { echo "package-test: SKIPPED: $*"; exit 77; }
fail() { echo "package-test: FAILED: $*" >&2; exit 1; }

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  sudo -n true 2>/dev/null || skip "needs root or password-less sudo: it installs packages with apt"
  SUDO="sudo -n"
fi
if ! command -v apt-get > /dev/null || ! command -v dpkg-deb > /dev/null; then
  skip "not a Debian system (no apt-get, dpkg-deb)"
fi
is_installed() { dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null | grep -q '^ii'; }
is_installed rookery && skip "a rookery package is installed already; this test never replaces one"

export DEBIAN_FRONTEND=noninteractive
apt_get() { $SUDO apt-get -y -q -o Dpkg::Use-Pty=0 "$@"; }
installed_packages() { dpkg-query -W -f='${db:Status-Abbrev} ${binary:Package}\n' | awk '$1 == "ii" {print $2}' | sort; }

rm -rf "$WORK"
mkdir -p "$WORK"
installed_packages > "$WORK/packages-before"

PIDS=()
cleanup() {
  local rc=$?
  set +e
  for p in "${PIDS[@]}"; do kill "$p" 2> /dev/null; done
  for p in "${PIDS[@]}"; do wait "$p" 2> /dev/null; done
  if is_installed rookery || dpkg-query -W rookery > /dev/null 2>&1; then
    apt_get purge rookery > "$WORK/cleanup-purge.log" 2>&1
  fi
  installed_packages > "$WORK/packages-after"
  local extra
  extra=$(comm -13 "$WORK/packages-before" "$WORK/packages-after" | tr '\n' ' ')
  if [ -n "${extra// /}" ]; then
    say "purging what this test installed: $extra"
    # shellcheck disable=SC2086
    apt_get purge $extra > "$WORK/cleanup-tools.log" 2>&1 || say "could not purge $extra (see $WORK/cleanup-tools.log)"
  fi
  if [ "$rc" -eq 0 ]; then say "PASSED"; else say "failed with status $rc; logs in $WORK"; fi
  exit "$rc"
}
trap cleanup EXIT

# --- tools ------------------------------------------------------------------------------
need=()
command -v lintian > /dev/null || need+=(lintian)
command -v desktop-file-validate > /dev/null || need+=(desktop-file-utils)
command -v appstreamcli > /dev/null || need+=(appstream)
command -v scdoc > /dev/null || need+=(scdoc)           # a build dependency (scripts/install-deps.sh)
command -v xvfb-run > /dev/null || need+=(xvfb xauth)
command -v xwininfo > /dev/null || need+=(x11-utils)
command -v import > /dev/null || need+=(imagemagick)
command -v sqlite3 > /dev/null || need+=(sqlite3)
if [ ${#need[@]} -gt 0 ]; then
  say "installing ${need[*]}"
  apt_get install --no-install-recommends "${need[@]}" > "$WORK/tools.log" 2>&1 ||
    { apt_get update > /dev/null 2>&1 && apt_get install --no-install-recommends "${need[@]}" >> "$WORK/tools.log" 2>&1; } ||
    fail "cannot install ${need[*]} (see $WORK/tools.log)"
fi

# --- 1. build the packages --------------------------------------------------------------
if grep -q '^SCDOC_EXECUTABLE:FILEPATH=.*NOTFOUND' "$BUILD/CMakeCache.txt"; then
  say "configuring again: scdoc is here now"
  cmake "$BUILD" > "$WORK/configure.log" 2>&1 || fail "cmake (see $WORK/configure.log)"
fi
say "building the programs and the man pages"
cmake --build "$BUILD" --target rookery rookery-node rookery-coordinator rookery_package_docs package_node_probe \
  > "$WORK/build.log" 2>&1 || fail "build (see $WORK/build.log)"
say "cpack: release 1, and release 2 for the upgrade"
(cd "$WORK" && cpack --config "$BUILD/CPackConfig.cmake" -G DEB -B "$WORK/release1") > "$WORK/cpack1.log" 2>&1 ||
  fail "cpack (see $WORK/cpack1.log)"
(cd "$WORK" && cpack --config "$BUILD/CPackConfig.cmake" -G DEB -B "$WORK/release2" -D CPACK_DEBIAN_PACKAGE_RELEASE=2) \
  > "$WORK/cpack2.log" 2>&1 || fail "cpack (see $WORK/cpack2.log)"
DEB1=$(ls "$WORK"/release1/rookery_*.deb)
DEB2=$(ls "$WORK"/release2/rookery_*.deb)
V1=$(dpkg-deb -f "$DEB1" Version)
V2=$(dpkg-deb -f "$DEB2" Version)
UPSTREAM=${V1%-*}
dpkg --compare-versions "$V2" gt "$V1" || fail "release 2 ($V2) is not newer than release 1 ($V1)"
say "built $(basename "$DEB1") ($(du -h "$DEB1" | cut -f1)) and $(basename "$DEB2")"

# --- 2. validate ------------------------------------------------------------------------
dpkg-deb --info "$DEB1" > "$WORK/info.txt"
dpkg-deb --contents "$DEB1" > "$WORK/contents.txt"
cat "$WORK/info.txt"
contents=$(awk '{print $6}' "$WORK/contents.txt" | sed 's|^\./|/|')
for f in /usr/bin/rookery /usr/bin/rookery-node /usr/bin/rookery-coordinator \
         /usr/share/applications/org.rookery.Rookery.desktop \
         /usr/share/metainfo/org.rookery.Rookery.metainfo.xml \
         /usr/share/icons/hicolor/scalable/apps/org.rookery.Rookery.svg \
         /usr/share/icons/hicolor/scalable/status/org.rookery.Rookery-contributing.svg \
         /usr/share/icons/hicolor/scalable/status/org.rookery.Rookery-paused.svg \
         /usr/share/icons/hicolor/scalable/status/org.rookery.Rookery-error.svg \
         /usr/lib/systemd/user/rookery-node.service /usr/lib/systemd/system/rookery-coordinator.service \
         /usr/share/man/man1/rookery.1.gz /usr/share/man/man1/rookery-node.1.gz \
         /usr/share/man/man1/rookery-coordinator.1.gz \
         /usr/share/doc/rookery/copyright /usr/share/doc/rookery/changelog.Debian.gz \
         /usr/share/rookery/demo/demo-job.json; do
  grep -qxF "$f" <<< "$contents" || fail "the package lacks $f"
done
# The demo's text is Debian's fortunes, a dependency: the package carries no copy of a corpus.
grep -q 'demo-text.txt' <<< "$contents" && fail "the package carries the generated demo-text.txt"
# LibTorch's CPU part rides along, private to Rookery; its CUDA part does not.
for f in /usr/lib/rookery/libtorch_cpu.so /usr/lib/rookery/libc10.so; do
  grep -qxF "$f" <<< "$contents" || fail "the package lacks $f (LibTorch's CPU part)"
done
grep -q 'libtorch_cuda' <<< "$contents" && fail "the package carries LibTorch's CUDA part"
outside=$(grep -v '^/usr/' <<< "$contents" | grep -vx '/' || true)
[ -z "$outside" ] || fail "the package installs outside /usr: $outside"
grep -q '/etc/xdg/autostart' <<< "$contents" && fail "the package installs a global autostart entry"
depends=$(dpkg-deb -f "$DEB1" Depends)
for d in libqt6widgets6 libqt6charts6 libqt6svg6 libzmq5 libsqlite3-0 libprotobuf32 libspdlog1.10 fortunes libjs-chart.js libcpp-httplib0.11; do
  grep -q "\b$d\b" <<< "$depends" || fail "Depends lacks $d: $depends"
done
recommends=$(dpkg-deb -f "$DEB1" Recommends)
grep -q '\bfonts-noto-cjk\b' <<< "$recommends" || fail "Recommends lacks fonts-noto-cjk (the Chinese UI): $recommends"
say "contents and Depends as expected"

say "lintian"
lintian --fail-on error --info --display-info --pedantic "$DEB1" > "$WORK/lintian.txt" 2>&1 && lintian_rc=0 || lintian_rc=$?
cat "$WORK/lintian.txt"
[ "$lintian_rc" -eq 0 ] || fail "lintian reports errors (status $lintian_rc)"
! grep -q '^E: ' "$WORK/lintian.txt" || fail "lintian reports errors"

rm -rf "$WORK/extract"
dpkg-deb -x "$DEB1" "$WORK/extract"
say "desktop-file-validate"
out=$(desktop-file-validate "$WORK/extract/usr/share/applications/org.rookery.Rookery.desktop" 2>&1) ||
  fail "desktop-file-validate: $out"
[ -z "$out" ] || { echo "$out"; grep -qi 'error' <<< "$out" && fail "desktop-file-validate reports errors"; }
# rookery:// invite links open Rookery: the entry handles the scheme and passes the link on.
grep -qx 'MimeType=.*x-scheme-handler/rookery;.*' "$WORK/extract/usr/share/applications/org.rookery.Rookery.desktop" ||
  fail "the desktop entry does not handle rookery:// links"
grep -qx 'Exec=rookery %u' "$WORK/extract/usr/share/applications/org.rookery.Rookery.desktop" ||
  fail "the desktop entry does not pass the link (%u) to rookery"
say "appstreamcli validate"
appstreamcli validate --no-net --pedantic --explain "$WORK/extract/usr/share/metainfo/org.rookery.Rookery.metainfo.xml" ||
  fail "appstreamcli validate"
for page in rookery-node rookery-coordinator; do
  # Every option the program knows is in its man page.
  text=$(zcat "$WORK/extract/usr/share/man/man1/$page.1.gz" | sed 's/\\-/-/g; s/\\f[BIRP]//g')
  for opt in $("$BUILD/app/$page" --help | grep -oE '(^|[ ,])--[a-z][a-z-]*' | tr -d ' ,' | sort -u); do
    grep -qF -- "$opt" <<< "$text" || fail "man page $page(1) does not mention $opt"
  done
done
say "the man pages name every option of rookery-node and rookery-coordinator"

# --- 3. install release 1 and run it ----------------------------------------------------
say "apt-get install $(basename "$DEB1")"
apt_get install --no-install-recommends "$DEB1" > "$WORK/install1.log" 2>&1 || { cat "$WORK/install1.log"; fail "apt-get install"; }
[ "$(dpkg-query -W -f='${Version}' rookery)" = "$V1" ] || fail "rookery $V1 is not installed"


# A user of our own: a fresh home and XDG folders, no variables from the caller's session.
unset ROOKERY_DATA_DIR ROOKERY_RUNTIME_DIR ROOKERY_NODE_BIN ROOKERY_NODE_ARGS ROOKERY_COORDINATOR \
      ROOKERY_COORDINATOR_KEY XDG_CONFIG_DIRS XDG_DATA_DIRS DISPLAY WAYLAND_DISPLAY
export HOME="$WORK/home" XDG_DATA_HOME="$WORK/home/.local/share" XDG_CONFIG_HOME="$WORK/home/.config"
export XDG_RUNTIME_DIR="$WORK/run" OMP_NUM_THREADS=1
mkdir -p "$HOME" && mkdir -m 700 "$XDG_RUNTIME_DIR"
DATA="$XDG_DATA_HOME/rookery"
RUNTIME="$XDG_RUNTIME_DIR/rookery"

if command -v systemd-analyze > /dev/null; then
  say "systemd-analyze verify"
  systemd-analyze verify --man=no /usr/lib/systemd/system/rookery-coordinator.service ||
    fail "systemd-analyze verify rookery-coordinator.service"
  systemd-analyze --user verify --man=no /usr/lib/systemd/user/rookery-node.service ||
    fail "systemd-analyze --user verify rookery-node.service"
  if systemd-analyze security --offline=true /usr/lib/systemd/system/rookery-coordinator.service > "$WORK/security.txt" 2>&1; then
    say "coordinator unit exposure: $(tail -n 1 "$WORK/security.txt")"
  fi
fi

say "--version"
[ "$(/usr/bin/rookery-node --version)" = "rookery-node $UPSTREAM" ] || fail "rookery-node --version: $(/usr/bin/rookery-node --version)"
[ "$(/usr/bin/rookery-coordinator --version)" = "rookery-coordinator $UPSTREAM" ] || fail "rookery-coordinator --version"
gui_version=$(QT_QPA_PLATFORM=offscreen /usr/bin/rookery --version 2>&1)
grep -qxF "Rookery $UPSTREAM" <<< "$gui_version" || fail "rookery --version: $gui_version"

wait_gone() {  # pid seconds
  for _ in $(seq $((10 * $2))); do kill -0 "$1" 2> /dev/null || return 0; sleep 0.1; done
  return 1
}
node_pid() { "$PROBE" "$RUNTIME" | sed -n 's/^pid=//p'; }
stop_node() {
  local pid
  pid=$(node_pid 2> /dev/null || true)
  /usr/bin/rookery-node --stop > /dev/null 2>&1 || true
  [ -z "$pid" ] || wait_gone "$pid" 60 || fail "rookery-node $pid did not stop"
}
exe_of() { readlink "/proc/$1/exe"; }

start_coordinator() {  # log
  rm -f "$WORK/coordinator.ready"
  /usr/bin/rookery-coordinator --bind tcp://127.0.0.1:0 --data-dir "$WORK/coordinator" --job "$WORK/job.json" \
    --open --ready-file "$WORK/coordinator.ready" > "$1" 2>&1 &
  COORDINATOR_PID=$!
  PIDS+=("$COORDINATOR_PID")
  for _ in $(seq 300); do [ -s "$WORK/coordinator.ready" ] && break; sleep 0.1; done
  [ -s "$WORK/coordinator.ready" ] || fail "the coordinator did not get ready (see $1)"
  read -r COORD_ENDPOINT COORD_KEY < "$WORK/coordinator.ready"
  [ "$(exe_of "$COORDINATOR_PID")" = /usr/bin/rookery-coordinator ] || fail "the coordinator is not the installed one"
}

# The job: a small GPT on the demo's text as installed (the fortunes the package depends on, as
# the installed demo job reads them), so the node does real micro-batches on two cores in seconds.
KEY=$(/usr/bin/rookery-node --print-identity)
[ ${#KEY} -eq 40 ] || fail "rookery-node --print-identity: $KEY"
cat > "$WORK/job.json" << EOF
{"id": "package-test", "name": "Package test: a small GPT on the installed demo corpus",
 "model": {"kind": "gpt", "vocab": 256, "context": 16, "width": 32, "depth": 1, "heads": 2, "mlp_ratio": 4, "dropout": 0.0},
 "dataset": $(python3 -c 'import json; print(json.dumps(json.load(open("/usr/share/rookery/demo/demo-job.json"))["dataset"]))'),
 "optimizer": {"kind": "adamw", "lr": 0.001, "betas": [0.9, 0.95], "eps": 1e-8, "weight_decay": 0.1,
               "schedule": {"warmup_steps": 10, "decay": "constant"}},
 "micro_batch_size": 8, "grad_accumulation": 1, "staleness": 1, "codec": "none", "averaging_period": 50, "seed": 3}
EOF
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat > "$WORK/plan.json" << EOF
{"job": "$WORK/job.json", "pipeline": 0,
 "stages": [{"blocks": [0, 3], "endpoint": "tcp://127.0.0.1:$port", "key": "$KEY"}]}
EOF
export ROOKERY_LEDGER_FLUSH_MS=200  # the node writes its ledger every 200 ms instead of 5 s
ledger_units() { sqlite3 -cmd ".timeout 5000" "$DATA/state.db" "SELECT units FROM ledger_totals" 2> /dev/null || echo 0; }

# Starts the installed node headless (its options after the log), checks that it is the
# installed program, with this user's identity and data, and that it reached the coordinator.
start_headless_node() {  # log options...
  local log=$1
  shift
  touch "$WORK/node-started"
  /usr/bin/rookery-node --coordinator "$COORD_ENDPOINT" --coordinator-key "$COORD_KEY" --contribute --threads 1 \
    --benchmark-seconds 0.1 --telemetry-ms 200 "$@" > "$log" 2>&1 &
  NODE_PID=$!
  PIDS+=("$NODE_PID")
  "$PROBE" "$RUNTIME" 60 > "$WORK/probe.txt" || { cat "$log"; fail "the headless node did not reach the coordinator"; }
  cat "$WORK/probe.txt"
  grep -qxF "pid=$NODE_PID" "$WORK/probe.txt" || fail "another node answers"
  grep -qxF "version=$UPSTREAM" "$WORK/probe.txt" || fail "the node reports another version"
  grep -qxF "node_key=$KEY" "$WORK/probe.txt" || fail "the node has another identity"
  grep -qxF "data_dir=$DATA" "$WORK/probe.txt" || fail "the node's data is not in \$XDG_DATA_HOME/rookery"
  grep -qxF "coordinator_reachable=true" "$WORK/probe.txt" || fail "the coordinator is not reachable"
  [ "$(exe_of "$NODE_PID")" = /usr/bin/rookery-node ] || fail "the node is not the installed one"
}

# Joins the coordinator's job and trains until the ledger holds more units than before.
run_joined_node() {  # log options...
  local log=$1 before
  before=$(ledger_units)
  start_headless_node "$@" --join package-test
  for _ in $(seq 1200); do [ "$(ledger_units)" -gt "$before" ] && break; sleep 0.1; done
  [ "$(ledger_units)" -gt "$before" ] || { cat "$log"; fail "the joined node recorded no work in its ledger"; }
  say "joined job package-test and trained: $(grep -o 'plan [0-9]*: pipeline.*' "$log" | head -n 1); ledger units $before -> $(ledger_units)"
  stop_node
}

# Trains a one-stage static plan until it wrote a checkpoint of its own.
run_plan_node() {  # log options...
  local log=$1
  start_headless_node "$@" --plan "$WORK/plan.json" --stage 0 --checkpoint-interval 2
  new_checkpoint() { [ -n "$(find "$DATA/checkpoints" -type f -newer "$WORK/node-started" 2> /dev/null)" ]; }
  for _ in $(seq 1200); do new_checkpoint && break; sleep 0.1; done
  new_checkpoint || { cat "$log"; fail "the node wrote no checkpoint"; }
  stop_node
}

say "a headless node (release 1) joins a local coordinator's job and trains"
start_coordinator "$WORK/coordinator1.log"
run_joined_node "$WORK/node1-join.log" --preference gpu_max_temperature_c=77
say "a headless node (release 1) trains a static one-stage plan and checkpoints"
run_plan_node "$WORK/node1-plan.log"

# The window, told which swarm to join as the demo script tells it (so it skips the first-run
# dialog): it starts the installed node beside it, and that node joins the coordinator's job.
export ROOKERY_COORDINATOR="$COORD_ENDPOINT" ROOKERY_COORDINATOR_KEY="$COORD_KEY"
export ROOKERY_NODE_ARGS="--join package-test --threads 1 --benchmark-seconds 0.1 --telemetry-ms 200"
say "the window on the offscreen platform"
QT_QPA_PLATFORM=offscreen /usr/bin/rookery > "$WORK/gui-offscreen.log" 2>&1 &
GUI_PID=$!
PIDS+=("$GUI_PID")
"$PROBE" "$RUNTIME" 90 > "$WORK/probe-gui.txt" || { cat "$WORK/gui-offscreen.log"; fail "the window's node did not join the coordinator"; }
gui_node=$(sed -n 's/^pid=//p' "$WORK/probe-gui.txt")
[ "$(exe_of "$gui_node")" = /usr/bin/rookery-node ] || fail "the window started $(exe_of "$gui_node"), not /usr/bin/rookery-node"
sleep 3
kill -0 "$GUI_PID" 2> /dev/null || { cat "$WORK/gui-offscreen.log"; fail "the window exited"; }
kill "$GUI_PID"
wait "$GUI_PID" 2> /dev/null || true
say "the offscreen window ran and started the installed node (pid $gui_node), which joined the coordinator"

say "the window under Xvfb"
# shellcheck disable=SC2016  # the inner script expands its own arguments
xvfb-run -a -s "-screen 0 1280x900x24" bash -c '
  /usr/bin/rookery > "$1/gui-x11.log" 2>&1 & gui=$!
  for _ in $(seq 150); do
    xwininfo -name Rookery 2> /dev/null | grep -q "Map State: IsViewable" && break
    sleep 0.2
  done
  sleep 3
  xwininfo -name Rookery > "$1/xwininfo.txt" 2>&1
  import -window root "$1/window.png" 2> /dev/null
  kill $gui; wait $gui 2> /dev/null; exit 0' _ "$WORK" || true
grep -q "Map State: IsViewable" "$WORK/xwininfo.txt" || { cat "$WORK/xwininfo.txt" "$WORK/gui-x11.log"; fail "no Rookery window was shown"; }
say "the Rookery window is shown: $(grep -E 'Width|Height' "$WORK/xwininfo.txt" | tr -s ' ' | tr '\n' ' ')(screenshot: $WORK/window.png)"
stop_node
unset ROOKERY_COORDINATOR ROOKERY_COORDINATOR_KEY ROOKERY_NODE_ARGS

# --- 4. upgrade -------------------------------------------------------------------------
manifest() { (cd "$DATA" && find . -type f ! -path './logs/*' -print0 | sort -z | xargs -0 sha256sum); }
manifest > "$WORK/data-before.txt"
say "the user's data before the upgrade:"
cat "$WORK/data-before.txt"
grep -q ' ./keys/' "$WORK/data-before.txt" || fail "no keys in $DATA"
grep -q ' ./state.db$' "$WORK/data-before.txt" || fail "no state.db in $DATA"
grep -q ' ./checkpoints/' "$WORK/data-before.txt" || fail "no checkpoints in $DATA"
preference() { sqlite3 "$DATA/state.db" "SELECT value FROM settings WHERE key = 'governor.gpu_max_temperature_c'"; }
[ "$(preference)" = 77 ] || fail "the preference is not in state.db"
ledger_before=$(ledger_units)
[ "$ledger_before" -gt 0 ] || fail "the ledger is empty"
say "ledger before the upgrade: $ledger_before units"

say "apt-get install $(basename "$DEB2") (upgrade)"
apt_get install --no-install-recommends "$DEB2" > "$WORK/install2.log" 2>&1 || { cat "$WORK/install2.log"; fail "apt-get install (upgrade)"; }
grep -q "Unpacking rookery ($V2) over ($V1)" "$WORK/install2.log" || { cat "$WORK/install2.log"; fail "apt did not upgrade $V1 to $V2"; }
[ "$(dpkg-query -W -f='${Version}' rookery)" = "$V2" ] || fail "rookery $V2 is not installed"
manifest > "$WORK/data-after.txt"
diff -u "$WORK/data-before.txt" "$WORK/data-after.txt" || fail "the upgrade changed the user's data"
say "the upgrade kept the user's keys, state.db and checkpoints byte for byte"

say "the upgraded coordinator carries on with its key and state"
old_key=$COORD_KEY
kill "$COORDINATOR_PID" 2> /dev/null || true
wait "$COORDINATOR_PID" 2> /dev/null || true
start_coordinator "$WORK/coordinator2.log"
[ "$COORD_KEY" = "$old_key" ] || fail "the upgraded coordinator has another key"
say "the upgraded node carries on with the same identity and state"
[ "$(/usr/bin/rookery-node --print-identity)" = "$KEY" ] || fail "the upgraded node has another identity"
run_plan_node "$WORK/node2-plan.log"
grep -q "resumed from checkpoint" "$WORK/node2-plan.log" ||
  { cat "$WORK/node2-plan.log"; fail "the upgraded node did not resume from its checkpoint"; }
run_joined_node "$WORK/node2-join.log"
[ "$(preference)" = 77 ] || fail "the preference was lost"
say "the upgraded node resumed from its checkpoint and added to the same ledger ($ledger_before -> $(ledger_units) units)"
kill "$COORDINATOR_PID" 2> /dev/null || true
wait "$COORDINATOR_PID" 2> /dev/null || true

# --- 5. purge ---------------------------------------------------------------------------
dpkg-query -L rookery > "$WORK/files.txt"
say "apt-get purge rookery"
apt_get purge rookery > "$WORK/purge.log" 2>&1 || { cat "$WORK/purge.log"; fail "apt-get purge"; }
! dpkg-query -W -f='${db:Status-Abbrev}' rookery 2> /dev/null | grep -q '^[ih]' || fail "rookery is still known to dpkg"
while read -r path; do
  if [ -z "$path" ] || [ "$path" = "/." ]; then continue; fi
  if [ -d "$path" ] && [ ! -L "$path" ]; then
    # A folder may stay when it holds other packages' files or another package owns it too.
    [ -n "$(ls -A "$path")" ] || dpkg-query -S "$path" > /dev/null 2>&1 || fail "purge left the folder $path"
  elif [ -e "$path" ] || [ -L "$path" ]; then
    fail "purge left $path"
  fi
done < "$WORK/files.txt"
for d in /usr/share/rookery /usr/share/doc/rookery /var/lib/rookery-coordinator /var/lib/private/rookery-coordinator; do
  [ ! -e "$d" ] || fail "purge left $d"
done
ls /var/lib/dpkg/info/rookery.* > /dev/null 2>&1 && fail "dpkg still has rookery's control files"
if [ ! -s "$DATA/state.db" ] || [ ! -d "$DATA/keys" ]; then fail "purge touched the user's data"; fi
say "purge left nothing of the package under /usr or /var/lib; the user's own data stays in their home"
