#!/usr/bin/env bash
# Installs what is missing, builds, and runs the console against an embedded demo: a local 5-node
# Redlock cluster with contending clients. Extra arguments go to redlock-console (e.g. --lang zh_CN).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
if [ -x build/app/redlock-console ]; then
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
        echo "No display here. To see the console anyway:"
        echo "  xvfb-run -a build/app/redlock-console --demo --screenshot demo.png   # then open demo.png"
        echo "or, with an X server somewhere, set DISPLAY and run this again."
        exec xvfb-run -a build/app/redlock-console --demo --screenshot demo.png "$@"
    fi
    exec build/app/redlock-console --demo "$@"
fi
# Console not built (REDLOCK_BUILD_GUI=OFF): a local cluster through the CLI instead; try
#   build/app/redlock acquire --nodes <the printed list> my-resource
exec build/app/redlock cluster --nodes-count 5
