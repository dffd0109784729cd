#!/usr/bin/env bash
# Issue 29.2's exporter and observer rows at scale: `redlock exporter` watching N lock keys on each of 5 local
# nodes (keys written with redis-cli --pipe), its scrape time, its RSS, and what watching costs the nodes.
#
#   1. The nodes alone for SECONDS (no client: what the keys cost by themselves, the server's cron sampling them):
#      INFO used_cpu_sys + used_cpu_user per node, the baseline.
#   2. `redlock exporter` started; the time until its first full pass (redlock_inspections_total >= 1).
#   3. The exporter watching for SECONDS after its first pass (keyspace events on, the background rescan within
#      its default budget, the per-second PING and TIME, the INFO per 5 s): node CPU again, net of the baseline,
#      as % of one core per node (mean and max over the nodes).
#   4. SCRAPES scrapes of /metrics with curl, one after the other: time_total, median and max, and the body size.
#
# Usage: scripts/bench-exporter.sh [keys]          (default 1000000)
# Env:   BUILD    build directory (default build)
#        SECONDS_EACH  length of the baseline and of the watched phase (default 30)
#        SCRAPES  scrapes (default 20)
#        EXPORTER_ARGS  more arguments for `redlock exporter`, split on spaces (e.g. "--key-labels")
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
keys="${1:-1000000}"
build="${BUILD:-$root/build}"
redlock="$build/app/redlock"
phase_seconds="${SECONDS_EACH:-30}"
scrapes="${SCRAPES:-20}"
for tool in "$redlock" redis-cli curl; do
    command -v "$tool" >/dev/null || { echo "bench-exporter: $tool missing (build redlock; redis-cli, curl)" >&2; exit 2; }
done
((scrapes > 0)) || { echo "bench-exporter: SCRAPES must be at least 1" >&2; exit 2; }

exporter_pid=""
# Called by lib/cluster.sh before it stops the cluster: the exporter first.
before_cluster_stop() {
    if [[ -n "$exporter_pid" ]] && kill -0 "$exporter_pid" 2>/dev/null; then
        kill -TERM "$exporter_pid" 2>/dev/null || true
        wait "$exporter_pid" 2>/dev/null || true
    fi
}
# shellcheck source-path=SCRIPTDIR source=lib/cluster.sh
source "$here/lib/cluster.sh"
start_local_cluster bench-exporter "$redlock"
IFS=, read -r -a node_list <<<"$nodes"

echo "nodes: $nodes; writing $keys lock keys on each ..." >&2
write_lock_keys "$keys" lk: 36000000
for node in "${node_list[@]}"; do
    # Keyspace events on, as a watched deployment has them (LockInspector::keyspaceEventFlags(); a literal $).
    # shellcheck disable=SC2016
    redis-cli -h "${node%:*}" -p "${node##*:}" CONFIG SET notify-keyspace-events 'Kg$hxe' >/dev/null
done

# node_cpu: the sum of used_cpu_sys and used_cpu_user of every node, one figure per node on one line.
node_cpu() {
    local node
    for node in "${node_list[@]}"; do
        redis-cli -h "${node%:*}" -p "${node##*:}" INFO cpu |
            awk -F: '/^used_cpu_(sys|user):/ { s += $2 } END { printf "%.3f ", s }'
    done
    echo
}
# net_cpu BEFORE AFTER SECONDS [BASE_BEFORE BASE_AFTER BASE_SECONDS]: "mean max" % of a core per node, net of the
# baseline's rate when one is given.
net_cpu() {
    awk -v b="$1" -v a="$2" -v s="$3" -v bb="${4:-}" -v ba="${5:-}" -v bs="${6:-1}" 'BEGIN {
        n = split(b, x, " "); split(a, y, " "); split(bb, p, " "); split(ba, q, " ")
        for (i = 1; i <= n; ++i) {
            v = (y[i] - x[i]) / s * 100
            if (bb != "") v -= (q[i] - p[i]) / bs * 100
            sum += v; if (i == 1 || v > max) max = v
        }
        printf "%.2f %.2f", sum / n, max
    }'
}

echo "baseline: the nodes alone for $phase_seconds s ..." >&2
base_before=$(node_cpu)
sleep "$phase_seconds"
base_after=$(node_cpu)
read -r base_mean base_max <<<"$(net_cpu "$base_before" "$base_after" "$phase_seconds")"

start=$(date +%s.%N)
# Any free port; the exporter says which (in English: LC_ALL=C).
read -r -a exporter_args <<<"${EXPORTER_ARGS:-}"
LC_ALL=C LANGUAGE=C "$redlock" exporter --nodes "$nodes" --pattern 'lk:*' --listen 127.0.0.1:0 "${exporter_args[@]}" \
    >"$workdir/exporter.out" 2>"$workdir/exporter.err" &
exporter_pid=$!
deadline=$((SECONDS + 900))
metrics=""
while [[ -z "$metrics" ]]; do
    metrics=$(grep -o 'http://127\.0\.0\.1:[0-9]*/metrics' "$workdir/exporter.err" | head -1 || true)
    kill -0 "$exporter_pid" 2>/dev/null || { echo "bench-exporter: the exporter ended:" >&2; cat "$workdir/exporter.err" >&2; exit 1; }
    ((SECONDS < deadline)) || { echo "bench-exporter: the exporter did not listen" >&2; exit 1; }
    [[ -n "$metrics" ]] || sleep 0.1
done
inspections() { body=$(curl -fsS "$metrics" 2>/dev/null || true); grep -Eq '^redlock_inspections_total [1-9]' <<<"$body"; }
until inspections; do
    kill -0 "$exporter_pid" 2>/dev/null || { echo "bench-exporter: the exporter ended:" >&2; cat "$workdir/exporter.err" >&2; exit 1; }
    ((SECONDS < deadline)) || { echo "bench-exporter: no full pass in 900 s" >&2; exit 1; }
    sleep 0.5
done
first_pass=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
echo "first full pass after ${first_pass} s; watching for $phase_seconds s ..." >&2
rss_first=$(awk '/^VmRSS:/ { printf "%d", $2 / 1024 }' "/proc/$exporter_pid/status")

watch_before=$(node_cpu)
sleep "$phase_seconds"
watch_after=$(node_cpu)
read -r net_mean net_max <<<"$(net_cpu "$watch_before" "$watch_after" "$phase_seconds" "$base_before" "$base_after" "$phase_seconds")"

: >"$workdir/scrapes"
for ((i = 0; i < scrapes; ++i)); do
    curl -fsS -o "$workdir/body" -w '%{time_total}\n' "$metrics" >>"$workdir/scrapes"
done
bytes=$(stat -c %s "$workdir/body")
locks=$(awk '/^redlock_locks\{/ { s += $2 } END { print s + 0 }' "$workdir/body")
rss=$(awk '/^VmRSS:/ { printf "%d", $2 / 1024 }' "/proc/$exporter_pid/status")
hwm=$(awk '/^VmHWM:/ { printf "%d", $2 / 1024 }' "/proc/$exporter_pid/status")

sort -n "$workdir/scrapes" | awk -v keys="$keys" -v n="$scrapes" -v bytes="$bytes" -v locks="$locks" -v fp="$first_pass" \
    -v rss_first="$rss_first" -v rss="$rss" -v hwm="$hwm" -v bm="$base_mean" -v bx="$base_max" -v nm="$net_mean" -v nx="$net_max" -v s="$phase_seconds" '
{ t[NR] = $1 * 1000 }
END {
    printf "%d lock keys on 5 local nodes; redlock exporter (its audit on, no journal), %d locks by its verdicts\n", keys, locks
    printf "first full pass %s s; RSS %d MB right after it, %d MB after the watch and the scrapes (peak %d MB)\n", fp, rss_first, rss, hwm
    printf "scrape (curl time_total, %d in a row): median %.1f ms, max %.1f ms, %d bytes (target < 50 ms)\n", n, t[int((n + 1) / 2)], t[n], bytes
    printf "node CPU, %% of a core per node over %d s: the nodes alone %.2f mean / %.2f max; watched by the exporter, net of that: %.2f mean / %.2f max (target <= 1%%)\n", s, bm, bx, nm, nx
}'
