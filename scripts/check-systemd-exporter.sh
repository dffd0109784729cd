#!/usr/bin/env bash
# Runs the packaged exporter under a real systemd, as an operator would: boots a Debian 12 container
# (`systemd-nspawn --boot`, systemd as its PID 1, a private network with only loopback) from the pristine base
# system check-fresh-install.sh uses, installs the redlock packages and redis-server in it, starts three Redis
# masters as redis-server@ instances and then redlock-exporter@test.service from /etc/redlock/exporter-test.env,
# and checks what the unit promises:
#   - it starts and serves /metrics with the nodes up and a held lock seen, under DynamicUser and the hardening;
#   - --journal in its StateDirectory works (nothing else is writable), the journal is 0600 and
#     `redlock history` reads the lock from it;
#   - killed with SIGKILL it is restarted (Restart=on-failure), and the history says "not watched" for the gap;
#   - a usage error (exit code 2) is not restarted in a loop (RestartPreventExitStatus=2);
#   - `systemctl stop` ends it cleanly (exit 0), and its log is in the journal (journalctl -u);
#   - `systemd-analyze security` rates the unit (printed).
#
#   sudo ./scripts/check-systemd-exporter.sh                # packages built by scripts/package.sh first
#   sudo ./scripts/check-systemd-exporter.sh --debs DIR     # the .debs already in DIR (redlock_*, libredlock-core0_*)
#   sudo ./scripts/check-systemd-exporter.sh --keep         # leave the container's tree behind (path printed)
#
# Needs root, debootstrap and systemd-container (installed if missing). This machine need not run systemd.
set -euo pipefail
cd "$(dirname "$0")/.."

keep=0
debs=""
while [ $# -gt 0 ]; do
    case "$1" in
    --keep) keep=1 ;;
    --debs)
        debs=$2
        shift
        ;;
    -h | --help)
        sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "check-systemd-exporter: unknown argument: $1" >&2
        exit 2
        ;;
    esac
    shift
done

[ "$(id -u)" -eq 0 ] || { echo "check-systemd-exporter: needs root (systemd-nspawn)" >&2; exit 1; }
if ! command -v systemd-nspawn >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends systemd-container </dev/null
fi
. scripts/lib/debian-base.sh
debian_base check-systemd-exporter # sets $base

if [ -z "$debs" ]; then
    echo "== scripts/package.sh"
    ./scripts/package.sh >/tmp/check-systemd-package.log 2>&1 || { tail -30 /tmp/check-systemd-package.log >&2; exit 1; }
    debs=$PWD
fi
packages=()
for p in redlock libredlock-core0; do
    f=$(ls -t "$debs"/${p}_*.deb 2>/dev/null | head -1)
    [ -n "$f" ] || { echo "check-systemd-exporter: no ${p}_*.deb in $debs" >&2; exit 1; }
    packages+=("$f")
done

root=$(mktemp -d /var/tmp/redlock-systemd.XXXXXX)
nspawn_pid=""
mounts=()
cleanup() {
    local status=$?
    if [ -n "$nspawn_pid" ] && kill -0 "$nspawn_pid" 2>/dev/null; then
        kill -TERM "$nspawn_pid" 2>/dev/null || true # nspawn halts the container's systemd
        for _ in $(seq 1 100); do kill -0 "$nspawn_pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$nspawn_pid" 2>/dev/null || true
    fi
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[i]}" 2>/dev/null || true; done
    if [ "$keep" -eq 1 ]; then
        echo "container tree kept: $root (boot log: $root.boot.log)"
    else
        rm -rf --one-file-system "$root" "$root.boot.log"
    fi
    [ "$status" -eq 0 ] && echo "== check-systemd-exporter: passed" || echo "== check-systemd-exporter: FAILED" >&2
    exit "$status"
}
trap cleanup EXIT INT TERM

fresh_copy "$root"
mkdir -p "$root/root/debs"
cp "${packages[@]}" "$root/root/debs/"

echo "== apt-get install systemd, redis-server, curl and the packages (in a chroot, before booting)"
for m in proc sys dev; do
    case "$m" in
    proc) mount -t proc proc "$root/proc" ;;
    sys) mount -t sysfs sys "$root/sys" ;;
    dev) mount --bind /dev "$root/dev" ;;
    esac
    mounts+=("$root/$m")
done
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
    /bin/bash -c 'apt-get update -qq && apt-get install -y -q --no-install-recommends systemd systemd-sysv dbus \
        redis-server curl /root/debs/*.deb >/tmp/apt.log 2>&1 || { tail -30 /tmp/apt.log; exit 1; }' </dev/null
for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[i]}"; done
mounts=()

# Three Redis masters as the Debian package's own redis-server@ template instances, keyspace events on.
for port in 7301 7302 7303; do
    cat >"$root/etc/redis/redis-$port.conf" <<EOF
include /etc/redis/redis.conf
port $port
bind 127.0.0.1
pidfile /run/redis-$port/redis-server.pid
logfile /var/log/redis/redis-server-$port.log
dbfilename dump-$port.rdb
save ""
notify-keyspace-events Kg\$xe
EOF
    chown redis:redis "$root/etc/redis/redis-$port.conf" 2>/dev/null || chroot "$root" chown redis:redis "/etc/redis/redis-$port.conf"
    ln -sf /lib/systemd/system/redis-server@.service \
        "$root/etc/systemd/system/multi-user.target.wants/redis-server@$port.service"
done
# The stock single instance on 6379 is not part of this deployment.
rm -f "$root/etc/systemd/system/multi-user.target.wants/redis-server.service"
mkdir -p "$root/etc/redlock"
cat >"$root/etc/redlock/exporter-test.env" <<'EOF'
REDLOCK_NODES=127.0.0.1:7301,127.0.0.1:7302,127.0.0.1:7303
REDLOCK_LISTEN=127.0.0.1:9721
REDLOCK_EXPORTER_OPTIONS=--pattern lk:* --journal /var/lib/redlock-exporter/test/journal.sqlite
EOF
chmod 0600 "$root/etc/redlock/exporter-test.env"

echo "== boot: systemd-nspawn --boot --private-network"
systemd-nspawn --register=no --keep-unit --private-network --quiet -D "$root" -b --console=pipe \
    >"$root.boot.log" 2>&1 </dev/null &
nspawn_pid=$!
# The container's PID 1 is nspawn's child; every check runs in its namespaces.
init_pid=""
for _ in $(seq 1 300); do
    init_pid=$(pgrep -P "$nspawn_pid" -x systemd || true)
    [ -n "$init_pid" ] && break
    sleep 0.1
done
[ -n "$init_pid" ] || { cat "$root.boot.log" >&2; echo "check-systemd-exporter: the container did not boot" >&2; exit 1; }
in_container() {
    nsenter -t "$init_pid" -a /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
        /bin/bash -c "$1" </dev/null
}
state=""
for _ in $(seq 1 600); do
    state=$(in_container 'systemctl is-system-running 2>/dev/null' || true)
    case "$state" in running | degraded) break ;; esac
    sleep 0.1
done
echo "systemd in the container: $state"
in_container 'systemctl --failed --no-legend --no-pager'
for port in 7301 7302 7303; do
    in_container "for i in \$(seq 1 100); do redis-cli -p $port ping 2>/dev/null | grep -q PONG && exit 0; sleep 0.1; done
        systemctl status --no-pager redis-server@$port; exit 1"
done
echo "three redis-server@ instances answer"

unit=redlock-exporter@test.service
# wait_for <description> <shell condition>: up to 30 s.
wait_for() {
    for _ in $(seq 1 300); do
        in_container "$2" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "check-systemd-exporter: timed out waiting for $1" >&2
    in_container "systemctl status --no-pager $unit; journalctl -u $unit --no-pager | tail -30" >&2 || true
    exit 1
}
show() { in_container "systemctl show $unit -p $1 --value"; }

echo "== systemctl enable --now $unit"
in_container "systemctl enable --now $unit"
wait_for "the exporter's /metrics" "curl -sf http://127.0.0.1:9721/metrics | grep -q '^redlock_servers_up 3\$'"
in_container "systemctl is-active $unit"
uid=$(in_container "stat -c %u /proc/\$(systemctl show $unit -p MainPID --value)")
echo "runs as uid $uid"
# DynamicUser=yes allocates from 61184-65519.
[ "$uid" -ge 61184 ] && [ "$uid" -le 65519 ] ||
    { echo "check-systemd-exporter: the exporter runs as uid $uid, not a dynamic user" >&2; exit 1; }

echo "== a held lock is seen and journaled"
in_container "redlock acquire lk:orders:42 --nodes 127.0.0.1:7301,127.0.0.1:7302,127.0.0.1:7303 --ttl 600000 >/tmp/acquire.out"
wait_for "the lock in /metrics" "curl -sf http://127.0.0.1:9721/metrics | grep -E '^redlock_locks\\{verdict=\"held\"\\} 1\$'"
in_container "curl -sf http://127.0.0.1:9721/metrics | grep -E '^redlock_(nodes|quorum|servers_up|node_up|locks)\\b'"
journal=/var/lib/redlock-exporter/test/journal.sqlite
wait_for "the journal" "redlock history 'lk:*' --journal $journal | grep -q lk:orders:42"
in_container "stat -c '%A %U %n' \$(readlink -f $journal); redlock history 'lk:*' --journal $journal"
mode=$(in_container "stat -c %a \$(readlink -f $journal)")
[ "$mode" = 600 ] || { echo "check-systemd-exporter: the journal is mode $mode, not 600" >&2; exit 1; }

echo "== SIGKILL: restarted by systemd (Restart=on-failure), the gap is in the history"
first_pid=$(show MainPID)
in_container "kill -KILL $first_pid"
wait_for "a restart" "[ \$(systemctl show $unit -p NRestarts --value) -ge 1 ] && systemctl is-active -q $unit &&
    [ \$(systemctl show $unit -p MainPID --value) != $first_pid ]"
wait_for "/metrics after the restart" "curl -sf http://127.0.0.1:9721/metrics | grep -q '^redlock_servers_up 3\$'"
echo "restarted: MainPID $first_pid -> $(show MainPID), NRestarts $(show NRestarts)"
wait_for "the unwatched span" "redlock history 'lk:*' --journal $journal | grep -q 'not watched'"
in_container "redlock history 'lk:*' --journal $journal"

echo "== systemctl stop: a clean exit"
in_container "systemctl stop $unit"
result=$(show Result)
status=$(show ExecMainStatus)
echo "Result=$result ExecMainStatus=$status"
[ "$result" = success ] || { echo "check-systemd-exporter: stop ended with $result (status $status)" >&2; exit 1; }
in_container "journalctl -u $unit --no-pager -o cat | tail -8"
in_container "journalctl -u $unit --no-pager -o cat | grep -q ." ||
    { echo "check-systemd-exporter: nothing of the exporter in the journal" >&2; exit 1; }

echo "== a usage error (exit code 2) is not restarted"
in_container "sed -i 's/^REDLOCK_EXPORTER_OPTIONS=.*/REDLOCK_EXPORTER_OPTIONS=--no-such-option/' /etc/redlock/exporter-test.env
    systemctl reset-failed $unit 2>/dev/null; systemctl start $unit || true"
wait_for "the failed state" "systemctl is-failed -q $unit"
restarts_before=$(show NRestarts)
sleep 7 # longer than RestartSec=5s: a restart would have happened by now
[ "$(show NRestarts)" = "$restarts_before" ] && in_container "systemctl is-failed -q $unit" ||
    { echo "check-systemd-exporter: a usage error was restarted" >&2; exit 1; }
echo "failed and stays failed: ExecMainStatus=$(show ExecMainStatus) NRestarts=$(show NRestarts)"
[ "$(show ExecMainStatus)" = 2 ] || { echo "check-systemd-exporter: usage error did not exit 2" >&2; exit 1; }
in_container "journalctl -u $unit --no-pager -o cat | grep -i 'no-such-option' | tail -2"

echo "== systemd-analyze security $unit"
in_container "systemd-analyze security --no-pager $unit | tail -1"
