#!/usr/bin/env bash
# Regenerates docs/screenshots/history-deployment.png and history-deployment-zh_CN.png: the console's history view
# on a deployment's history (a profile's "Lock history", written by `redlock exporter --journal`), with a span
# nobody watched and the writer of each tenure. It plays the deployment for real, on a local cluster
# (`redlock cluster`): the exporter journals a lock taken by billing-worker, stops; while nobody watches, that
# lock expires and report-job takes the key; the exporter starts again and finds report-job holding it. Then the
# console, on a profile naming that journal, is screenshot under Xvfb. Takes about 90 s. Commit the result.
# Needs a built console and CLI (./scripts/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
console=build/app/redlock-console
redlock=build/app/redlock
[ -x "$console" ] && [ -x "$redlock" ] || { echo "history-screenshots.sh: build first (./scripts/build.sh)" >&2; exit 1; }
for tool in pngquant optipng xvfb-run; do
    command -v "$tool" >/dev/null || { echo "history-screenshots.sh: needs $tool (see scripts/screenshots.sh)" >&2; exit 1; }
done

tmp=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT

"$redlock" cluster --nodes-count 3 >"$tmp/nodes" &
pids+=($!)
for _ in $(seq 100); do [ -s "$tmp/nodes" ] && break; sleep 0.2; done
nodes=$(head -1 "$tmp/nodes")
[ -n "$nodes" ] || { echo "history-screenshots.sh: the cluster did not start" >&2; exit 1; }
journal=$tmp/deployment-history.sqlite

exporter() { # starts the exporter; waits until it holds the journal's writer lock
    "$redlock" exporter --nodes "$nodes" --listen 127.0.0.1:0 --journal "$journal" >/dev/null 2>&1 &
    exporter_pid=$!
    pids+=("$exporter_pid")
    for _ in $(seq 100); do
        [ "$(head -1 "$journal-writer.lock" 2>/dev/null)" = "$exporter_pid" ] && return 0
        sleep 0.2
    done
    echo "history-screenshots.sh: the exporter did not start journaling" >&2
    exit 1
}

exporter
"$redlock" acquire --nodes "$nodes" --ttl 20000 --client-name billing-worker orders:12 >/dev/null
"$redlock" acquire --nodes "$nodes" --ttl 600000 --client-name invoice-sync invoices:7 >/dev/null
sleep 8 # the exporter journals the acquisitions
kill -TERM "$exporter_pid"
wait "$exporter_pid" || true
# Nobody watches: billing-worker's lock expires, report-job takes the key.
sleep 25
"$redlock" acquire --nodes "$nodes" --ttl 600000 --client-name report-job orders:12 >/dev/null
sleep 40 # a gap of over a minute
exporter
sleep 8

mkdir -p "$tmp/config/RedlockConsole"
{
    printf '[profiles]\ndeployment\\pattern=*\ndeployment\\history=%s\n' "$journal"
    i=1
    IFS=, read -ra list <<<"$nodes"
    for node in "${list[@]}"; do
        printf 'deployment\\nodes\\%d\\address=%s\n' "$i" "$node"
        i=$((i + 1))
    done
    printf 'deployment\\nodes\\size=%d\n' "${#list[@]}"
} >"$tmp/config/RedlockConsole/redlock-console.conf"

shot() { # $1: output file, rest: extra arguments
    local out=$1
    shift
    env XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" \
        xvfb-run -a -s "-screen 0 3000x2000x24" \
        "$console" --profile deployment --open-dock history --screenshot "$tmp/raw.png" --screenshot-delay 4 "$@" \
        >/dev/null
    pngquant --force --quality 60-90 --speed 1 --strip --output "$out" "$tmp/raw.png"
    optipng -quiet -o2 "$out"
    echo "$out: $(($(stat -c %s "$out") / 1024)) KB"
}
mkdir -p docs/screenshots
shot docs/screenshots/history-deployment.png --lang en
shot docs/screenshots/history-deployment-zh_CN.png --lang zh_CN
