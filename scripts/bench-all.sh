#!/usr/bin/env bash
# Every benchmark figure of issues 12 to 29 in one run, each beside its floor or peer, and the generated section of
# docs/benchmarks.md written from them. Each benchmark alternates its own runs with its floor's or peer's for
# ROUNDS rounds on the same nodes and prints medians and ranges; this script runs them one after the other and
# keeps their summaries:
#
#   inspect       scripts/bench-inspect.sh: `redlock inspect` (--json, text) and the bare pass vs the raw floor
#   inspect1m     the same at 1,000,000 locks
#   journal       build/tests/bench-journal: the journal's first pass and churn, CPU per 100k events
#   acquire       scripts/bench-compare.sh: single client acquire/release p50 vs raw hiredis and node-redlock
#   k64           CONCURRENCY=64 scripts/bench-compare.sh: pairs/s of 64 lockers vs node-redlock
#   console       build/tests/bench-console: the console's first full table, GUI stalls, RSS
#   console1m     the same at 1,000,000 locks (one run)
#   consolepath   scripts/bench-console-path.sh: the console's user's path at 100k (process start to the screenshot
#                 after its first full table) vs the raw floor
#   frontends     scripts/bench-frontends.sh: `redlock watch` and `redlock audit` peak RSS
#   exporter1m    scripts/bench-exporter.sh: `redlock exporter` at 1,000,000 locks: scrape time, RSS, node CPU
#
# Usage: scripts/bench-all.sh [--quick] [--only LIST] [--no-write] [--note TEXT]
#   --quick     1 round instead of 3, 5000 acquire pairs instead of 20000 (same lock counts): about 18 minutes
#               on a 2-core box with the 1M rows, against about 35 for a full run
#   --only      comma-separated benchmarks from the list above (default: all)
#   --no-write  print the section, leave docs/benchmarks.md alone
#   --note      a sentence for the section's notes (the machine's state: load, what else ran)
# Env: BUILD (default build); BENCH_CONSOLE: the bench-console executable (default $BUILD/tests/bench-console).
#      Needs redlock, bench-inspect, bench-journal (and bench-console for "console"),
#      redis-server/redis-cli, /usr/bin/time, curl (exporter1m), node+npm for node-redlock (its row is skipped without node).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
build="${BUILD:-$root/build}"
quick=0
write=1
note=""
only="inspect,inspect1m,journal,acquire,k64,console,console1m,consolepath,frontends,exporter1m"
while (($#)); do
    case "$1" in
    --quick) quick=1 ;;
    --no-write) write=0 ;;
    --only) only="$2"; shift ;;
    --note) note="$2"; shift ;;
    -h | --help) sed -n '2,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-all: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
rounds=3
pairs=20000
((quick)) && rounds=1 && pairs=5000
wants() { [[ ",$only," == *",$1,"* ]]; }

workdir="$(mktemp -d)"
trap 'rm -rf "$workdir"' EXIT
section="$workdir/section.md"
started=$(date -u +%Y-%m-%dT%H:%MZ)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=""
git -C "$root" diff --quiet HEAD -- core app ui 2>/dev/null || dirty=" + uncommitted changes"

# bench NAME TITLE TARGET COMMAND...: runs one benchmark, its progress to the terminal, its summary (stdout)
# into the section under TITLE, beside TARGET.
bench() {
    local name=$1 title=$2 target=$3
    shift 3
    wants "$name" || return 0
    echo "== bench-all: $name: $* (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
    local t0=$SECONDS rc=0
    "$@" >"$workdir/$name.out" 2> >(tee "$workdir/$name.err" >&2) || rc=$?
    {
        echo "### $title"
        echo
        echo "Target: $target. Rerun: \`$(printf '%s ' "$@" | sed "s|$root/||g; s| \$||")\`; $((SECONDS - t0)) s, load" \
            "$(cut -d' ' -f1-3 /proc/loadavg) at its end."
        echo
        echo '```'
        if ((rc != 0)); then
            echo "failed (exit code $rc):"
            tail -5 "$workdir/$name.err"
        fi
        cat "$workdir/$name.out"
        echo '```'
        echo
    } >>"$section"
    cat "$workdir/$name.out"
}

export BUILD="$build" ROUNDS="$rounds" REDLOCK_BIN="$build/app/redlock"
bench inspect "Inspection at 100k locks × 5 nodes: \`redlock inspect\` and the pass vs the raw floor" \
    "inspect / bare pass <= 1.0 (issue 29.2 at 1M), pass / raw floor <= 1.5" \
    "$here/bench-inspect.sh" 100000
bench inspect1m "Inspection at 1M locks × 5 nodes: \`redlock inspect\` and the pass vs the raw floor" \
    "inspect --json process <= 1.0x the raw floor pass, <= 64 MB (issue 29.2)" \
    "$here/bench-inspect.sh" 1000000
bench journal "The history journal's writer, 100k events" "<= 1 s of CPU per 100k events" \
    "$build/tests/bench-journal" --events 100000 --rounds "$rounds"
if command -v node >/dev/null; then
    bench acquire "Single client: acquire and release vs raw hiredis and node-redlock" \
        "acquire p50 <= 1.1x raw hiredis, release p50 <= 1.2x" "$here/bench-compare.sh" "$pairs"
    CONCURRENCY=64 bench k64 "64 lockers in one process: pairs/s vs node-redlock" \
        ">= 4x node-redlock's pairs/s, lower p99" "$here/bench-compare.sh" "$pairs"
else
    echo "bench-all: node not found: the node-redlock rows are skipped" >&2
fi
console_bin="${BENCH_CONSOLE:-$build/tests/bench-console}"
if [[ -x "$console_bin" ]]; then
    bench console "The console at 100k locks: first full table, GUI stalls, RSS (offscreen)" \
        "RSS <= 250 MB, GUI stall <= 50 ms of GUI CPU (issue 29's 1.1x the floor and 1 KB a lock are 1M's, below; at 100k the first table's target is on the user's path, against the naive floor)" \
        "$console_bin" 100000
    bench console1m "The console at 1M locks: first full table, GUI stalls, RSS (offscreen, one run)" \
        "first full table <= 1.1x the floor (inspect1m's raw floor), GUI stall <= 50 ms of GUI CPU, RSS <= 1 KB per lock" \
        "$console_bin" 1000000
    bench consolepath "The console's user's path at 100k locks: process start to the first full table's screenshot" \
        "<= 0.6x the raw floor, the journal on (issue 29.1: not met, the page script it rested on does not pay on Redis 7.0, see \"One read-only script per SCAN page\")" \
        "$here/bench-console-path.sh" 100000
else
    echo "bench-all: $console_bin not built (needs the UI): skipped" >&2
fi
bench frontends "\`redlock watch\` and \`redlock audit\`: peak RSS" \
    "watch <= 50 MB at 100k locks; audit's memory independent of the lock count" \
    "$here/bench-frontends.sh" 100000 10000
bench exporter1m "\`redlock exporter\` at 1M locks: scrape time, RSS, what watching costs the nodes" \
    "scrape < 50 ms; the observer <= 1% of a node core" \
    "$here/bench-exporter.sh" 1000000

finished=$(date -u +%H:%MZ)
{
    echo "<!-- bench-all:begin (generated by scripts/bench-all.sh; edit the script, not this section) -->"
    echo "## All figures, one run"
    echo
    echo "Generated by \`scripts/bench-all.sh$( ((quick)) && echo ' --quick')\` on $started–$finished, commit $commit$dirty," \
        "$(nproc) cores, load average $load_before at the start. Each benchmark alternates its runs with its" \
        "floor's or peer's for $rounds round(s) on the same local nodes (medians, ranges in brackets); the" \
        "benchmarks ran one after the other. Figures from a shared machine move with its load: compare a row" \
        "with its own floor, not with another run's."
    [[ -z "$note" ]] || { echo; echo "$note"; }
    echo
    cat "$section"
    echo "<!-- bench-all:end -->"
} >"$workdir/generated.md"

if ((write)); then
    doc="$root/docs/benchmarks.md"
    if grep -q '^<!-- bench-all:begin' "$doc"; then
        # Replace the old section in place.
        awk -v gen="$workdir/generated.md" '
            /^<!-- bench-all:begin/ { while ((getline line < gen) > 0) print line; skip = 1; next }
            /^<!-- bench-all:end/ { skip = 0; next }
            !skip { print }' "$doc" >"$workdir/doc.md"
    else
        # First time: after the introduction (before the first "## " heading).
        awk -v gen="$workdir/generated.md" '
            /^## / && !done { while ((getline line < gen) > 0) print line; print ""; done = 1 }
            { print }' "$doc" >"$workdir/doc.md"
    fi
    cp "$workdir/doc.md" "$doc"
    echo "bench-all: wrote the generated section of $doc" >&2
else
    cat "$workdir/generated.md"
fi
