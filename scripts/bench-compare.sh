#!/usr/bin/env bash
# Benchmark of issue 2, side by side: this project's Redlock core, a minimal raw hiredis client and
# node-redlock (redlock@4.2.0 + ioredis), each a single client in a closed loop of acquire+release pairs
# against the same local 5-node cluster. Prints acquire p50/p99, release p50/p99, pairs/s and the ratios.
#
# The runs alternate (ours+raw, node-redlock) for ROUNDS rounds and the medians are shown, so that load
# from other processes on a shared machine does not land on one client only.
#
# With CONCURRENCY=K (K > 1) both run K lockers on distinct keys in one process (`redlock bench
# --concurrency K`, `bench.js --concurrency K`) and the raw client, which runs one locker, is left out: the
# figures are then pairs/s over all lockers and the latency of each acquire and release under that load.
#
# Usage: scripts/bench-compare.sh [iterations]        (default 20000)
# Env:   REDLOCK_BIN  the redlock CLI (default: build/app/redlock, then build-cli/app/redlock)
#        ROUNDS       alternating rounds (default 3)
#        TRANSPORT    tcp (default): loopback TCP; unix: all three clients over the nodes' unix domain sockets
#        CONCURRENCY  lockers per process (default 1)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
iterations="${1:-20000}"
rounds="${ROUNDS:-3}"
transport="${TRANSPORT:-tcp}"
concurrency="${CONCURRENCY:-1}"
[[ "$concurrency" =~ ^[1-9][0-9]*$ ]] || { echo "bench-compare: CONCURRENCY must be a positive integer" >&2; exit 2; }
if ((concurrency > 1)); then baseline_args=(--concurrency "$concurrency"); else baseline_args=(--baseline raw); fi
case "$transport" in
tcp) cluster_args=() ;;
unix) cluster_args=(--unix-socket) ;;
*) echo "bench-compare: TRANSPORT must be tcp or unix" >&2; exit 2 ;;
esac
redlock="${REDLOCK_BIN:-}"
if [[ -z "$redlock" ]]; then
    for candidate in "$root/build/app/redlock" "$root/build-cli/app/redlock"; do
        [[ -x "$candidate" ]] && redlock="$candidate" && break
    done
fi
[[ -x "$redlock" ]] || { echo "bench-compare: redlock CLI not found; build it or set REDLOCK_BIN" >&2; exit 2; }
command -v node >/dev/null || { echo "bench-compare: node is required" >&2; exit 2; }

node_dir="$here/bench-node-redlock"
if [[ ! -d "$node_dir/node_modules/redlock" ]]; then
    echo "bench-compare: installing node-redlock with npm ..." >&2
    (cd "$node_dir" && npm install --no-audit --no-fund --loglevel=error >&2)
fi

# shellcheck source-path=SCRIPTDIR source=lib/cluster.sh
source "$here/lib/cluster.sh"
start_local_cluster bench-compare "$redlock" "${cluster_args[@]}"
echo "nodes: $nodes" >&2

for ((round = 1; round <= rounds; ++round)); do
    echo "round $round/$rounds: redlock bench ${baseline_args[*]} ($iterations pairs; load $(cut -d' ' -f1 /proc/loadavg)) ..." >&2
    "$redlock" bench --nodes "$nodes" --iterations "$iterations" "${baseline_args[@]}" --json >"$workdir/ours-$round.json"
    echo "round $round/$rounds: node-redlock, $concurrency locker(s) ($iterations pairs) ..." >&2
    node "$node_dir/bench.js" --nodes "$nodes" --iterations "$iterations" --concurrency "$concurrency" --json \
        >"$workdir/node-$round.json"
done

node - "$workdir" "$rounds" "$transport" "$concurrency" <<'JS'
const fs = require('fs');
const [dir, rounds, transport, concurrency] =
  [process.argv[2], Number(process.argv[3]), process.argv[4], Number(process.argv[5])];
const runs = [];
for (let r = 1; r <= rounds; ++r) {
  const ours = JSON.parse(fs.readFileSync(`${dir}/ours-${r}.json`));
  runs.push({ ours: ours.ours, raw: ours.raw, node: JSON.parse(fs.readFileSync(`${dir}/node-${r}.json`)), meta: ours });
}
const median = (values) => { const v = [...values].sort((a, b) => a - b); return v[Math.floor((v.length - 1) / 2)]; };
const fields = ['acquireP50Us', 'acquireP99Us', 'releaseP50Us', 'releaseP99Us', 'pairsPerSecond', 'failures'];
const medianOf = (who) => Object.fromEntries(fields.map((f) => [f, median(runs.map((r) => r[who][f]))]));
const ours = { nodes: runs[0].meta.nodes, iterations: runs[0].meta.iterations, rssKb: median(runs.map((r) => r.meta.rssKb)),
               ours: medianOf('ours'), raw: concurrency > 1 ? null : medianOf('raw') };
const nodeRedlock = { ...medianOf('node'), rssKb: median(runs.map((r) => r.node.rssKb)) };
const rows = [
  ['', 'acquire p50 us', 'acquire p99 us', 'release p50 us', 'release p99 us', 'pairs/s', 'failures'],
];
const row = (name, f) => [name, f.acquireP50Us.toFixed(1), f.acquireP99Us.toFixed(1), f.releaseP50Us.toFixed(1),
                          f.releaseP99Us.toFixed(1), String(Math.round(f.pairsPerSecond)), String(f.failures)];
rows.push(row('redlock core', ours.ours));
if (ours.raw) rows.push(row('raw hiredis', ours.raw));
rows.push(row('node-redlock 4.2.0', nodeRedlock));
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
const over = transport === 'unix' ? 'unix domain sockets' : 'TCP loopback';
const lockers = concurrency > 1 ? `${concurrency} lockers on distinct keys in each process` : 'one client';
console.log(`${ours.nodes} local nodes over ${over}, ${ours.iterations} acquire+release pairs, ${lockers}, ` +
            `closed loop(s); median of ${rounds} alternating round(s)`);
for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i] + 2)).join('').trimEnd());
const vsNode = nodeRedlock.acquireP50Us / ours.ours.acquireP50Us;
if (ours.raw) {
  console.log(`acquire p50 ours/raw:          ${(ours.ours.acquireP50Us / ours.raw.acquireP50Us).toFixed(2)}  (target <= 1.1)`);
  console.log(`release p50 ours/raw:          ${(ours.ours.releaseP50Us / ours.raw.releaseP50Us).toFixed(2)}  (target <= 1.2; both compare-and-delete)`);
}
console.log(`acquire p50 node-redlock/ours: ${vsNode.toFixed(2)}`);
console.log(`pairs/s ours/node-redlock:     ${(ours.ours.pairsPerSecond / nodeRedlock.pairsPerSecond).toFixed(2)}` +
            (concurrency > 1 ? '  (target >= 4 at K=64)' : ''));
console.log(`acquire p99 ours/node-redlock: ${(ours.ours.acquireP99Us / nodeRedlock.acquireP99Us).toFixed(2)}; ` +
            `release p99: ${(ours.ours.releaseP99Us / nodeRedlock.releaseP99Us).toFixed(2)}`);
const perRound = (f) => runs.map(f).map((v) => v.toFixed(2)).join(' ');
console.log('per round, pairs/s ours/node-redlock: ' + perRound((r) => r.ours.pairsPerSecond / r.node.pairsPerSecond) +
            '; acquire p50 node-redlock/ours: ' + perRound((r) => r.node.acquireP50Us / r.ours.acquireP50Us) +
            (ours.raw ? '; acquire p50 ours/raw: ' + perRound((r) => r.ours.acquireP50Us / r.raw.acquireP50Us) : ''));
console.log(`RSS: redlock bench ${ours.rssKb} kB, node-redlock ${nodeRedlock.rssKb} kB`);
JS
