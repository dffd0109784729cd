#!/usr/bin/env bash
# Issue 29's user's path: the console from process start to the screenshot written after its first full refresh
# (`redlock-console --nodes ... --pattern 'lock:*' --screenshot F`, offscreen, the lock history journal on, in a
# temporary SQLite file), beside the raw floor pass (`bench-inspect --baseline raw`, the strongest simple client:
# one thread per node, SCAN then GET+PTTL per page in one pipeline) on the same keys, alternating for ROUNDS rounds.
# The time to the screenshot is taken when the file appears (polled every 10 ms); the process then goes on writing
# its journal, which is not waited for. The screenshot waits for one metrics tick after the refresh (the charts'
# first point, up to a second), so each round also times the same path with a pattern no key matches: the part of
# the path that does not grow with the locks.
#
# Usage: scripts/bench-console-path.sh [keys]      (default 100000)
# Env:   BUILD   build directory (default build)
#        ROUNDS  alternating rounds (default 3)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
keys="${1:-100000}"
rounds="${ROUNDS:-3}"
build="${BUILD:-$root/build}"
redlock="$build/app/redlock"
console="$build/app/redlock-console"
bench="$build/tests/bench-inspect"
for tool in "$redlock" "$console" "$bench" "$(command -v redis-cli || true)"; do
    [[ -n "$tool" && -x "$tool" ]] || { echo "bench-console-path: $tool missing (build; redis-cli)" >&2; exit 2; }
done

# shellcheck source-path=SCRIPTDIR source=lib/cluster.sh
source "$here/lib/cluster.sh"
console_pid=""
before_cluster_stop() {
    if [[ -n "$console_pid" ]] && kill -0 "$console_pid" 2>/dev/null; then
        kill -TERM "$console_pid" 2>/dev/null || true
        wait "$console_pid" 2>/dev/null || true
    fi
}
start_local_cluster bench-console-path "$redlock"
echo "nodes: $nodes; writing $keys lock keys on each ..." >&2
write_lock_keys "$keys" lock:bench: 600000

now_ms() { date +%s%3N; }
# console_path NAME PATTERN: ms from the console's start to its screenshot, in $path.
console_path() {
    local name=$1 pattern=$2 shot="$workdir/$1.png" start
    start=$(now_ms)
    QT_QPA_PLATFORM=offscreen "$console" --nodes "$nodes" --pattern "$pattern" --journal "$workdir/$name.sqlite" \
        --screenshot "$shot" >"$workdir/$name.log" 2>&1 &
    console_pid=$!
    while [[ ! -s "$shot" ]]; do
        if ! kill -0 "$console_pid" 2>/dev/null; then
            echo "bench-console-path: the console ended without a screenshot:" >&2
            cat "$workdir/$name.log" >&2
            exit 1
        fi
        sleep 0.01
    done
    path=$(($(now_ms) - start))
    wait "$console_pid" || true
    console_pid=""
}
floors=() paths=() empties=()
for ((round = 1; round <= rounds; ++round)); do
    floor=$("$bench" --nodes "$nodes" --passes 1 --baseline raw 2>&1 | grep -oP '^median of 1: .*raw hiredis floor \K[0-9]+')
    [[ -n "$floor" ]] || { echo "bench-console-path: the floor printed no figure" >&2; exit 1; }
    console_path "locks-$round" 'lock:*'
    locks=$path
    console_path "none-$round" 'no-such-key:*'
    echo "round $round: raw floor pass ${floor} ms, console to its first full table's screenshot ${locks} ms ($(awk -v p="$locks" -v f="$floor" 'BEGIN { printf "%.2f", p / f }')x), with no lock ${path} ms; load $(cut -d' ' -f1 /proc/loadavg)"
    floors+=("$floor") paths+=("$locks") empties+=("$path")
done
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
f=$(median "${floors[@]}") p=$(median "${paths[@]}")
e=$(median "${empties[@]}")
echo "$keys locks x 5 nodes, median of $rounds alternating rounds: console's user's path $p ms, raw floor $f ms: $(awk -v p="$p" -v f="$f" 'BEGIN { printf "%.2f", p / f }')x; the same path with no lock $e ms"
