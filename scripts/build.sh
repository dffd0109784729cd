#!/usr/bin/env bash
# Configures and builds into build/ (Ninja, ccache). Extra arguments go to CMake.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup-deps.sh
# ccache hits across clones in other directories (CI builds a fresh clone): paths relative to the tree,
# and the working directory left out of the hash.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREDLOCK_WERROR=ON "$@" >/dev/null
cmake --build build --parallel "$(nproc)"
