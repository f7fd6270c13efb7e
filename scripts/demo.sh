#!/usr/bin/env bash
# Installs what is needed, builds, and runs the demo: a local coordinator and the Rookery
# window joined to it. Without a display it runs under Xvfb and saves a screenshot.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
exec ./scripts/run-demo.sh "$@"
