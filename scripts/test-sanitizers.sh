#!/usr/bin/env bash
# The whole test suite under AddressSanitizer + UBSan (Debug build in build-asan/). Extra arguments go to ctest
# (e.g. -R TestRedlockClient). Fails if any test fails or any process reported an error.
#
# Every instrumented process reports into build-asan/sanitizer-reports/ (the tests, and the CLI, contender and
# console processes they start): a child's report cannot hide behind an exit code a test happens to accept.
# redis-server is not instrumented (it is Debian's binary); the glibc-malloc shim preloaded into it for
# libfaketime is built without sanitizers (tests/CMakeLists.txt). No test is excluded.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup-deps.sh
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DREDLOCK_SANITIZE=ON >/dev/null
cmake --build build-asan --parallel "$(nproc)"
cd build-asan
reports="$PWD/sanitizer-reports"
rm -rf "$reports"
mkdir -p "$reports"
# Leak checking is off: Qt, fontconfig and the GL stack keep allocations until exit by design.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1:detect_stack_use_after_return=1:check_initialization_order=1:log_path=$reports/asan"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$reports/ubsan"
status=0
ctest --output-on-failure --timeout 900 --parallel 2 "$@" || status=$?
shopt -s nullglob
found=("$reports"/*)
if ((${#found[@]} > 0)); then
    echo "Sanitizer reports (${#found[@]}):" >&2
    for f in "${found[@]}"; do
        echo "=== $f" >&2
        cat "$f" >&2
    done
    exit 1
fi
exit "$status"
