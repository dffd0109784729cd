#!/usr/bin/env bash
# Issue 29.4's rows: the peak RSS of `redlock watch` over a first full pass and of `redlock audit`, at two lock
# counts, beside their targets (watch <= 50 MB at 100k; audit's memory independent of the lock count: its peak at
# the larger count within a few MB of the smaller). Keys are written with redis-cli --pipe into a 5-node local
# cluster (`redlock cluster`), the larger set in database 0 and the smaller in database 1 (so that both are read
# with the same pattern and SCAN pages equally full); the two commands then alternate for ROUNDS rounds, and
# medians and ranges are printed.
#
# watch runs until it has printed one "seen held" line per lock (its first full pass), plus one second; its
# peak RSS is VmHWM from /proc/PID/status, then it is stopped with SIGINT. audit runs to its end under
# /usr/bin/time -v. A third watch row: its RSS and idle CPU once every lock has joined the lock-held group (watch_grouped).
#
# Usage: scripts/bench-frontends.sh [keys] [small]   (default 100000 and 10000)
# Env:   BUILD   build directory (default build)
#        ROUNDS  alternating rounds (default 3)
#        OUT     also append the results, one "name round value" per line, to this file
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
keys="${1:-100000}"
small="${2:-10000}"
rounds="${ROUNDS:-3}"
build="${BUILD:-$root/build}"
redlock="$build/app/redlock"
for tool in "$redlock" /usr/bin/time "$(command -v redis-cli || true)"; do
    [[ -n "$tool" && -x "$tool" ]] || { echo "bench-frontends: $tool missing (build redlock; redis-cli, time)" >&2; exit 2; }
done

watch_pid=""
# Called by lib/cluster.sh before it stops the cluster: a watch still running is stopped first.
before_cluster_stop() {
    if [[ -n "$watch_pid" ]] && kill -0 "$watch_pid" 2>/dev/null; then
        kill -INT "$watch_pid" 2>/dev/null || true
        wait "$watch_pid" 2>/dev/null || true
    fi
}
# shellcheck source-path=SCRIPTDIR source=lib/cluster.sh
source "$here/lib/cluster.sh"
start_local_cluster bench-frontends "$redlock"

# load DB N: N lock keys lk:0..lk:(N-1) in database DB of every node.
load() { write_lock_keys "$2" lk: 3600000 "$1"; }
echo "nodes: $nodes; writing $keys + $small lock keys on each ..." >&2
load 0 "$keys"
load 1 "$small"

# wait_first_pass OUT N: until the watch ($watch_pid) has printed N "seen held" lines to OUT (600 s at most).
wait_first_pass() {
    local out=$1 n=$2 deadline=$((SECONDS + 600))
    while (($(grep -c 'seen held' "$out") < n)); do
        kill -0 "$watch_pid" 2>/dev/null || { echo "bench-frontends: watch ended:" >&2; cat "$workdir/watch.err" >&2; exit 1; }
        ((SECONDS < deadline)) || { echo "bench-frontends: watch printed $(grep -c 'seen held' "$out") of $n locks in 600 s" >&2; exit 1; }
        sleep 0.2
    done
}

# watch_rss NAME ROUND DB N: the peak RSS (MB) of `redlock watch` (alerts on, as by default) once it has printed
# N "seen held" lines.
watch_rss() {
    local name=$1 round=$2 db=$3 n=$4 out="$workdir/watch.out" start
    start=$(date +%s.%N)
    : >"$out" # before the loop below counts its lines, whenever the shell opens it for watch
    "$redlock" watch --nodes "$nodes" --db "$db" --pattern 'lk:*' >"$out" 2>"$workdir/watch.err" &
    watch_pid=$!
    wait_first_pass "$out" "$n"
    local wall
    wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
    sleep 1
    local kb
    kb=$(awk '/^VmHWM:/ { print $2 }' "/proc/$watch_pid/status")
    kill -INT "$watch_pid"
    wait "$watch_pid" || true
    watch_pid=""
    echo "$name $round $(mb "$kb") $wall" >>"$workdir/results"
    echo "round $round: $name: peak RSS $(mb "$kb") MB, first pass printed in ${wall} s" >&2
}

# watch_grouped ROUND DB N: `redlock watch --alert lock-held=1000` once every lock has joined the lock-held group (what
# a console or a watch is in after five minutes of long holds): its RSS and the CPU it takes a second while nothing
# changes, over 10 s, 10 s after its first pass.
watch_grouped() {
    local round=$1 db=$2 n=$3 out="$workdir/watch.out"
    : >"$out"
    "$redlock" watch --nodes "$nodes" --db "$db" --pattern 'lk:*' --alert lock-held=1000 >"$out" 2>"$workdir/watch.err" &
    watch_pid=$!
    wait_first_pass "$out" "$n"
    sleep 10
    grep -q 'lock held too long: [0-9]* lock' "$out" || { echo "bench-frontends: no lock-held group alert" >&2; exit 1; }
    local t0 t1 kb
    t0=$(awk '{ print $14 + $15 }' "/proc/$watch_pid/stat")
    sleep 10
    t1=$(awk '{ print $14 + $15 }' "/proc/$watch_pid/stat")
    kb=$(awk '/^VmRSS:/ { print $2 }' "/proc/$watch_pid/status")
    kill -INT "$watch_pid"
    wait "$watch_pid" || true
    watch_pid=""
    local ms_per_s=$(((t1 - t0) * 1000 / $(getconf CLK_TCK) / 10))
    echo "watch-grouped $round $(mb "$kb") $ms_per_s" >>"$workdir/results"
    echo "round $round: watch-grouped: RSS $(mb "$kb") MB, ${ms_per_s} ms of CPU a second" >&2
}

audit_rss() {
    local name=$1 round=$2 db=$3
    /usr/bin/time -v -o "$workdir/audit.time" "$redlock" audit --nodes "$nodes" --db "$db" --pattern 'lk:*' --json \
        >"$workdir/audit.out" 2>"$workdir/audit.err" || true # a finding's exit code is no failure here
    grep -q '"maxTtlMs"' "$workdir/audit.out" || { echo "bench-frontends: audit failed:" >&2; cat "$workdir/audit.err" >&2; exit 1; }
    local rss wall
    rss=$(mb "$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$workdir/audit.time")")
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + t[i]; printf "%.2f", s }' "$workdir/audit.time")
    echo "$name $round $rss $wall" >>"$workdir/results"
    echo "round $round: $name: max RSS $rss MB, ${wall} s" >&2
}

for ((round = 1; round <= rounds; ++round)); do
    echo "round $round/$rounds (load: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
    watch_rss watch-big "$round" 0 "$keys"
    audit_rss audit-big "$round" 0
    watch_rss watch-small "$round" 1 "$small"
    watch_grouped "$round" 0 "$keys"
    audit_rss audit-small "$round" 1
done
[[ -z "${OUT:-}" ]] || cat "$workdir/results" >>"$OUT"

awk -v keys="$keys" -v small="$small" -v rounds="$rounds" '
function sort(a, n,   i, j, t) { for (i = 2; i <= n; ++i) for (j = i; j > 1 && a[j - 1] > a[j]; --j) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t } }
function med(name, f,   a, n, r) { n = 0; for (r = 1; r <= rounds; ++r) if ((name, r, f) in v) a[++n] = v[name, r, f]; sort(a, n); return a[int((n + 1) / 2)] }
function rng(name, f,   a, n, r) { n = 0; for (r = 1; r <= rounds; ++r) if ((name, r, f) in v) a[++n] = v[name, r, f]; sort(a, n); return a[1] "-" a[n] }
{ v[$1, $2, "rss"] = $3; v[$1, $2, "wall"] = $4 }
END {
    printf "5 local nodes, median of %d alternating rounds (range)\n", rounds
    printf "redlock watch, %d locks: peak RSS %s MB (%s), first pass %s s (target <= 50 MB at 100k)\n", keys, med("watch-big", "rss"), rng("watch-big", "rss"), med("watch-big", "wall")
    printf "redlock watch, %d locks: peak RSS %s MB (%s)\n", small, med("watch-small", "rss"), rng("watch-small", "rss")
    printf "redlock watch, %d locks, every lock in the lock-held group: RSS %s MB (%s), CPU %s ms a second (%s) while nothing changes\n", keys, med("watch-grouped", "rss"), rng("watch-grouped", "rss"), med("watch-grouped", "wall"), rng("watch-grouped", "wall")
    printf "redlock audit, %d locks: max RSS %s MB (%s), %s s\n", keys, med("audit-big", "rss"), rng("audit-big", "rss"), med("audit-big", "wall")
    printf "redlock audit, %d locks: max RSS %s MB (%s), %s s\n", small, med("audit-small", "rss"), rng("audit-small", "rss"), med("audit-small", "wall")
    printf "audit growth: %+.1f MB for %dx the locks (target: independent of the lock count)\n", med("audit-big", "rss") - med("audit-small", "rss"), keys / small
}' "$workdir/results"
