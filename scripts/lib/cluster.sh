# shellcheck shell=bash disable=SC2034 # $nodes is read by the scripts that source this file
# Sourced by the bench scripts: a local 5-node cluster (`redlock cluster`) for the lifetime of the script.
#
# start_local_cluster PROGRAM REDLOCK [CLUSTER ARGS...]
#   makes $workdir (a temporary folder, the script's own scratch space too), starts REDLOCK cluster
#   --nodes-count 5 ARGS in the background and sets $nodes to the node list it prints as its first line
#   (host:port or unix:/path, comma-separated). A cluster that does not start: its log on stderr, exit 3,
#   with PROGRAM naming the script in the message.
# On EXIT, INT or TERM: the caller's before_cluster_stop, if it defines one (bench-frontends stops its watch
# there), then SIGTERM to the cluster (it stops its redis-servers) and a wait for it, then $workdir goes.

workdir=""
cluster_pid=""
nodes=""

# mb KB: kibibytes as mebibytes with one decimal, for the RSS figures set beside a target in MB (not truncated:
# 51,199 KB is 50.0 MB, 51,300 KB is 50.1, over a 50 MB target; truncated, both read 50).
mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

stop_local_cluster() {
    if declare -F before_cluster_stop >/dev/null; then
        before_cluster_stop
    fi
    if [[ -n "$cluster_pid" ]] && kill -0 "$cluster_pid" 2>/dev/null; then
        kill -TERM "$cluster_pid" 2>/dev/null || true
        wait "$cluster_pid" 2>/dev/null || true
    fi
    [[ -z "$workdir" ]] || rm -rf "$workdir"
}

start_local_cluster() {
    local program=$1 redlock=$2
    shift 2
    workdir="$(mktemp -d)"
    trap stop_local_cluster EXIT INT TERM
    # Through a FIFO, so that the first line is read as soon as it is written while the cluster keeps running.
    mkfifo "$workdir/nodes"
    "$redlock" cluster --nodes-count 5 "$@" >"$workdir/nodes" 2>"$workdir/cluster.log" &
    cluster_pid=$!
    if ! read -r nodes <"$workdir/nodes"; then
        echo "$program: the cluster did not start:" >&2
        cat "$workdir/cluster.log" >&2
        exit 3
    fi
}

# write_lock_keys COUNT PREFIX PX [DB]: COUNT lock keys PREFIX0 .. PREFIX(COUNT-1) on every node of $nodes (in
# database DB, default 0), each a Redlock Console token with a PX of PX ms, written with redis-cli --pipe (the
# Redis protocol made by awk), not a loop of commands. Needs $workdir (start_local_cluster).
write_lock_keys() {
    local count=$1 prefix=$2 px=$3 db=${4:-0} node
    local -a list
    awk -v n="$count" -v prefix="$prefix" -v px="$px" 'BEGIN {
        for (k = 0; k < n; ++k) {
            key = prefix k; value = sprintf("rl1:%032x:1:bench:", k)
            printf "*5\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n$2\r\nPX\r\n$%d\r\n%s\r\n", length(key), key, length(value), value, length(px), px
        }
    }' >"$workdir/keys.resp"
    IFS=, read -r -a list <<<"$nodes"
    for node in "${list[@]}"; do
        redis-cli -h "${node%:*}" -p "${node##*:}" -n "$db" --pipe <"$workdir/keys.resp" >/dev/null
    done
    rm -f "$workdir/keys.resp"
}
