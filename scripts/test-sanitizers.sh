#!/usr/bin/env bash
# The test suite under AddressSanitizer + UBSan, in build-asan/.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup-deps.sh
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DREDLOCK_SANITIZE=ON >/dev/null
cmake --build build-asan --parallel "$(nproc)"
cd build-asan
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --output-on-failure --timeout 900 --parallel 2 "$@"
