#!/usr/bin/env bash
# Configures and builds into build/ (Ninja, ccache). Extra arguments go to CMake.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREDLOCK_WERROR=ON "$@" >/dev/null
cmake --build build --parallel "$(nproc)"
