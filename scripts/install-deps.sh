#!/usr/bin/env bash
# Installs every Debian 12 package that building, testing and running Rookery's demo need.
# Idempotent and fast when everything is present: it only calls apt when something is missing.
set -euo pipefail

PACKAGES=(
  # toolchain
  build-essential cmake ninja-build ccache pkg-config git
  # Qt 6: Widgets, Charts, SVG icons, Linguist tools (lupdate/lrelease), Qt Test (in base-dev)
  qt6-base-dev qt6-charts-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  libgl-dev libqt6opengl6-dev qt6-qpa-plugins
  # LibTorch itself comes from PyTorch's wheel (below): python3 and pip fetch it
  python3 python3-pip
  # ZeroMQ (built with libsodium: CURVE) and its C++ binding
  libzmq3-dev cppzmq-dev libsodium-dev
  # state, wire schema, logging, command line, JSON job specs and plans, checksums
  libsqlite3-dev sqlite3 libprotobuf-dev protobuf-compiler libspdlog-dev libfmt-dev
  libcli11-dev nlohmann-json3-dev libxxhash-dev
  # Gloo: the reference ring all-reduce in the benchmark
  libgloo-dev
  # the desktop's input idleness and full-screen state for the resource governor (X11 screensaver
  # extension); logind's idle hint over D-Bus where there is none (sd-bus; dbus-daemon for its test)
  libxss-dev libsystemd-dev dbus-daemon
  # the man pages (installer/man, scdoc sources)
  scdoc
  # a real window without a display, and screenshots of it
  xvfb xauth x11-utils imagemagick
  # the demo job's and the learning benchmarks' English text: fortune cookies in
  # /usr/share/games/fortunes (resources/demo/demo-job.json)
  fortunes
  # port mapping on home routers (UPnP IGD, NAT-PMP)
  libminiupnpc-dev libnatpmp-dev
  # the coordinator's web dashboard: its HTTP server, the charts its page draws with, and a
  # headless browser that renders the page in its test (core/dashboard, tests/dashboard)
  libcpp-httplib-dev libjs-chart.js chromium
  # network namespaces and traffic shaping for the multi-host tests and benchmarks; nftables and
  # Debian's miniupnpd are the home routers of the reach tests
  iproute2 procps nftables miniupnpd-nftables
  # fuzzing (scripts/fuzz.sh, run by scripts/test.sh): clang, and libFuzzer + the ASan/UBSan
  # runtimes (libclang_rt.*), which clang-14 pulls in only as a recommendation (not installed here)
  clang libclang-rt-14-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${#missing[@]} package(s): ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

echo "install-deps: all packages present"

"$(dirname "$0")/install-libtorch.sh"
