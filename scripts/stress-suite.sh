#!/usr/bin/env bash
# Runs the whole test suite several times in a row while two busy loops keep both cores loaded, as a CI machine
# shared with other jobs is: a test whose margins are scheduling fails here first. Stops at the first round that
# fails and says which tests failed (their output is in the round's log).
#
#   ./scripts/stress-suite.sh                 # 10 rounds of ctest --parallel 2 in build/, under 2 busy loops
#   ./scripts/stress-suite.sh --rounds 3      # fewer rounds
#   ./scripts/stress-suite.sh -- -LE heavy    # anything after -- goes to ctest (here: all but the heavy tests)
#
# Builds nothing: run ./scripts/build.sh first. Logs: build/stress-suite/round-N.log. The busy loops are bounded
# by timeout(1) (--loop-limit seconds, default 1800, per round) and killed when the script ends, even on failure.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=10
loops=2
loop_limit=1800
ctest_args=()
while [ $# -gt 0 ]; do
    case "$1" in
    --rounds) rounds=${2:?--rounds needs a number}; shift 2 ;;
    --loops) loops=${2:?--loops needs a number}; shift 2 ;;
    --loop-limit) loop_limit=${2:?--loop-limit needs seconds}; shift 2 ;;
    --) shift; ctest_args=("$@"); break ;;
    -h | --help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "stress-suite: unknown argument: $1" >&2; exit 2 ;;
    esac
done
for n in "$rounds" "$loops" "$loop_limit"; do
    case "$n" in
    '' | *[!0-9]*) echo "stress-suite: not a number: $n" >&2; exit 2 ;;
    esac
done
[ -f build/CTestTestfile.cmake ] || { echo "stress-suite: no build/ with tests: run ./scripts/build.sh first" >&2; exit 2; }

logs=build/stress-suite
mkdir -p "$logs"
busy=()
suite=""
stop_busy() {
    # timeout(1) passes the TERM on to its shell loop.
    for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${busy[@]}"; do wait "$pid" 2>/dev/null || true; done
    busy=()
}
stop_all() {
    # ctest stops the tests it runs when it is stopped.
    if [ -n "$suite" ]; then
        kill "$suite" 2>/dev/null || true
        wait "$suite" 2>/dev/null || true
    fi
    stop_busy
}
trap stop_all EXIT
# ctest runs in the background and the script waits for it: a signal interrupts the wait at once.
trap 'exit 130' INT
trap 'exit 143' TERM

start_all=$(date +%s)
for ((round = 1; round <= rounds; round++)); do
    for ((i = 0; i < loops; i++)); do
        timeout "$loop_limit" sh -c 'while :; do :; done' &
        busy+=($!)
    done
    log=$logs/round-$round.log
    start=$(date +%s)
    status=0
    (cd build && exec ctest --output-on-failure --timeout 600 --parallel 2 "${ctest_args[@]}") >"$log" 2>&1 &
    suite=$!
    wait "$suite" || status=$?
    suite=""
    stop_busy
    elapsed=$(($(date +%s) - start))
    if [ "$status" -ne 0 ]; then
        echo "stress-suite: round $round of $rounds FAILED after $elapsed s (ctest exit $status; load: $(cut -d' ' -f1-3 /proc/loadavg))"
        # ctest's own list, e.g. "  12 - TestLockInspector (Failed)"; the failing functions with their lines.
        sed -n '/The following tests FAILED:/,$p' "$log"
        grep -E '^FAIL!  : ' "$log" | head -20 || true
        grep -q 'The following tests FAILED:' "$log" || tail -20 "$log"
        echo "stress-suite: the whole output: $log"
        exit 1
    fi
    echo "stress-suite: round $round of $rounds passed in $elapsed s ($(grep -Eo '[0-9]+ tests passed|100% tests passed, 0 tests failed out of [0-9]+' "$log" | tail -1); load: $(cut -d' ' -f1-3 /proc/loadavg))"
done
echo "stress-suite: $rounds of $rounds rounds passed under $loops busy loops in $(($(date +%s) - start_all)) s"
