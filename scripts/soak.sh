#!/usr/bin/env bash
# A longer soak than CI's minute: contention under cycling faults, checked for mutual exclusion.
# Usage: scripts/soak.sh [seconds]   (default 900)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
REDLOCK_SOAK_SECONDS="${1:-900}" exec build/tests/TestMutualExclusion soak noLeakedConnections
