#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite (real redis-server processes on loopback).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
cd build
ctest --output-on-failure --timeout 600 --parallel 2 "$@"
