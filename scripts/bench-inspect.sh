#!/usr/bin/env bash
# Issue 12's inspection rows, side by side on the same nodes: `redlock inspect --json` and `redlock inspect`
# (text) against the bare LockInspector pass (`bench-inspect --nodes`), each a process of its own measured
# by /usr/bin/time -v (wall time, max RSS), plus the raw hiredis floor the pass is compared to. Keys are
# written once (SET PX, each on all 5 nodes) into a 5-node local cluster; the runs then alternate for ROUNDS
# rounds and the medians are printed with the spread.
#
# Usage: scripts/bench-inspect.sh [keys]          (default 100000)
# Env:   BUILD   build directory (default build)
#        ROUNDS  alternating rounds (default 3)
#        BASELINE  another build directory: its `redlock inspect --json` runs too in every round, after this
#                  build's (row "baseline inspect --json"), on the same keys, for a before/after in one run
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
keys="${1:-100000}"
rounds="${ROUNDS:-3}"
build="${BUILD:-$root/build}"
baseline="${BASELINE:-}"
redlock="$build/app/redlock"
bench="$build/tests/bench-inspect"
for tool in "$redlock" "$bench" /usr/bin/time "$(command -v redis-cli || true)"; do
    [[ -n "$tool" && -x "$tool" ]] || { echo "bench-inspect: $tool missing (build redlock and bench-inspect; redis-cli)" >&2; exit 2; }
done

# shellcheck source-path=SCRIPTDIR source=lib/cluster.sh
source "$here/lib/cluster.sh"
start_local_cluster bench-inspect "$redlock"
echo "nodes: $nodes; writing $keys lock keys on each ..." >&2
# The same keys and values as bench-inspect writes.
write_lock_keys "$keys" lock:bench: 600000

# run NAME COMMAND...: one measured process; its stdout goes to a file (a terminal or pipe would measure them).
run() {
    local name=$1 round=$2
    shift 2
    /usr/bin/time -v -o "$workdir/$name-$round.time" "$@" >"$workdir/$name-$round.out" 2>"$workdir/$name-$round.err" || {
        echo "bench-inspect: $name failed:" >&2
        cat "$workdir/$name-$round.err" >&2
        exit 1
    }
    local wall rss bytes cpu
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + t[i]; printf "%.3f", s }' "$workdir/$name-$round.time")
    rss=$(mb "$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$workdir/$name-$round.time")")
    bytes=$(stat -c %s "$workdir/$name-$round.out")
    cpu=$(awk -F': ' '/(User|System) time \(seconds\)/ { s += $2 } END { printf "%.2f", s }' "$workdir/$name-$round.time")
    echo "$name $round $wall $rss $bytes $cpu" >>"$workdir/results"
    rm -f "$workdir/$name-$round.out"
    echo "round $round: $name ${wall}s, CPU (user+sys) ${cpu}s, max RSS ${rss} MB, ${bytes} bytes out" >&2
}

for ((round = 1; round <= rounds; ++round)); do
    echo "round $round/$rounds (load: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
    run bare "$round" "$bench" --nodes "$nodes" --passes 1
    run json "$round" "$redlock" inspect --nodes "$nodes" --pattern 'lock:*' --json
    if [[ -n "$baseline" ]]; then
        run json0 "$round" "$baseline/app/redlock" inspect --nodes "$nodes" --pattern 'lock:*' --json
    fi
    run text "$round" "$redlock" inspect --nodes "$nodes" --pattern 'lock:*'
    # The pass and the raw floor once more, one after the other in one process: the passes alone, in ms.
    "$bench" --nodes "$nodes" --passes 1 --baseline raw >"$workdir/floor-$round.out" 2>&1
    sed -n 's/^median of 1: inspector pass \([0-9]*\) ms, raw hiredis floor \([0-9]*\) ms.*/pass '"$round"' \1 0 0\nfloor '"$round"' \2 0 0/p' \
        "$workdir/floor-$round.out" >>"$workdir/results"
    echo "round $round: pass alone $(grep -E '^median' "$workdir/floor-$round.out" | sed 's/^median of 1: //')" >&2
done

awk -v keys="$keys" -v rounds="$rounds" '
function sort(a, n,   i, j, t) { for (i = 2; i <= n; ++i) for (j = i; j > 1 && a[j - 1] > a[j]; --j) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t } }
function median(name, field,   a, n, r) { n = 0; for (r = 1; r <= rounds; ++r) if ((name, r) in v) a[++n] = v[name, r, field]; sort(a, n); return a[int((n + 1) / 2)] }
function spread(name, field,   a, n, r) { n = 0; for (r = 1; r <= rounds; ++r) if ((name, r) in v) a[++n] = v[name, r, field]; sort(a, n); return a[1] "-" a[n] }
{ v[$1, $2] = 1; v[$1, $2, "wall"] = $3; v[$1, $2, "rss"] = $4; v[$1, $2, "bytes"] = $5; v[$1, $2, "cpu"] = $6 }
END {
    printf "%d lock keys on 5 local nodes, median of %d alternating rounds (range)\n", keys, rounds
    printf "%-32s %-22s %-18s %-10s %s\n", "", "wall s", "max RSS MB", "output MB", "CPU s (user+sys)"
    split("bare json text json0", names, " ")
    label["bare"] = "bare pass (bench-inspect)"; label["json"] = "redlock inspect --json"; label["text"] = "redlock inspect (text)"
    label["json0"] = "baseline inspect --json"
    for (i = 1; i <= 4; ++i) {
        n = names[i]
        if (!((n, 1) in v))
            continue
        printf "%-32s %-22s %-18s %-10.1f %s\n", label[n], median(n, "wall") " (" spread(n, "wall") ")", median(n, "rss") " (" spread(n, "rss") ")", median(n, "bytes") / 1e6, median(n, "cpu") " (" spread(n, "cpu") ")"
    }
    printf "inspect --json / bare pass: %.2f (target <= 1.3), RSS target <= 200 MB\n", median("json", "wall") / median("bare", "wall")
    printf "inspect text / bare pass:   %.2f (target <= 1.3)\n", median("text", "wall") / median("bare", "wall")
    printf "passes alone (in one process): inspector %s ms (%s), raw hiredis floor %s ms (%s): %.2f (target <= 1.5)\n", median("pass", "wall"), spread("pass", "wall"), median("floor", "wall"), spread("floor", "wall"), median("pass", "wall") / median("floor", "wall")
    # Issue 29.2: the whole `redlock inspect --json` process (start, connections, output) beside the raw floor pass.
    printf "inspect --json process / raw floor pass: %.2f, max RSS %s MB (issue 29.2 at 1M: <= 1.0, <= 64 MB)\n", median("json", "wall") * 1000 / median("floor", "wall"), median("json", "rss")
    if (("json0", 1) in v)
        printf "baseline inspect --json process / raw floor pass: %.2f, max RSS %s MB\n", median("json0", "wall") * 1000 / median("floor", "wall"), median("json0", "rss")
}' "$workdir/results"
