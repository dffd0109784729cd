#!/usr/bin/env bash
# The SSH screenshots of docs/guide.md ("Nodes behind a bastion"): a throwaway lab on loopback (three redis-servers,
# an sshd with its own host key, a user key and an ssh config with a strict known_hosts, all in a temporary
# directory: the user's ~/.ssh is never read), a console profile that reaches the nodes through it, then
#   docs/screenshots/ssh-profile[-zh_CN].png  the profiles dialog with the SSH route (--screenshot-profiles)
#   docs/screenshots/ssh-nodes[-zh_CN].png    the console connected through the tunnel: the nodes with their path
# Needs openssh-server and redis-server (scripts/setup-deps.sh) and a built console; installs xvfb, pngquant and
# optipng when missing.
# Usage: ./scripts/ssh-screenshots.sh   (from the repository root)
set -euo pipefail
console=${CONSOLE:-build/app/redlock-console}
[ -x "$console" ] || { echo "ssh-screenshots.sh: build the console first (./scripts/build.sh)" >&2; exit 1; }
need=()
command -v pngquant >/dev/null || need+=(pngquant)
command -v optipng >/dev/null || need+=(optipng)
command -v xvfb-run >/dev/null || need+=(xvfb xauth)
if [ ${#need[@]} -gt 0 ]; then # as scripts/screenshots.sh: only the screenshots need them
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" </dev/null
fi

tmp=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

ports=()
for i in 1 2 3; do
    port=$(free_port)
    mkdir -p "$tmp/redis$i"
    redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$tmp/redis$i" \
        --notify-keyspace-events Kg\$hxe >/dev/null &
    pids+=($!)
    ports+=("$port")
done

ssh-keygen -q -t ed25519 -N '' -f "$tmp/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$tmp/user_key"
cp "$tmp/user_key.pub" "$tmp/authorized_keys"
sshd_port=$(free_port)
cat >"$tmp/sshd_config" <<CONF
Port $sshd_port
ListenAddress 127.0.0.1
HostKey $tmp/host_key
AuthorizedKeysFile $tmp/authorized_keys
PermitRootLogin prohibit-password
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PidFile none
AllowTcpForwarding yes
CONF
[ "$(id -u)" -ne 0 ] || mkdir -p /run/sshd
/usr/sbin/sshd -D -e -f "$tmp/sshd_config" 2>"$tmp/sshd.log" &
pids+=($!)
echo "[127.0.0.1]:$sshd_port $(cut -d' ' -f1,2 "$tmp/host_key.pub")" >"$tmp/known_hosts"
cat >"$tmp/ssh_config" <<CONF
Host bastion.example.net
  HostName 127.0.0.1
  Port $sshd_port
  User $(id -un)
Host *
  IdentityFile $tmp/user_key
  IdentitiesOnly yes
  IdentityAgent none
  UserKnownHostsFile $tmp/known_hosts
  GlobalKnownHostsFile /dev/null
  BatchMode yes
  StrictHostKeyChecking yes
CONF
for _ in $(seq 100); do grep -q "Server listening" "$tmp/sshd.log" && break; sleep 0.1; done

# The profile, as the dialog saves it (QSettings, ini format).
mkdir -p "$tmp/config/RedlockConsole"
{
    echo "[profiles]"
    echo "prod-behind-bastion\\pattern=*"
    echo "prod-behind-bastion\\refreshIntervalMs=1000"
    echo "prod-behind-bastion\\sshRoute=bastion.example.net"
    echo "prod-behind-bastion\\sshConfigFile=$tmp/ssh_config"
    echo "prod-behind-bastion\\nodes\\size=3"
    for i in 1 2 3; do
        echo "prod-behind-bastion\\nodes\\$i\\address=127.0.0.1:${ports[$((i - 1))]}"
        echo "prod-behind-bastion\\nodes\\$i\\user=console-monitor"
    done
} >"$tmp/config/RedlockConsole/redlock-console.conf"
# The nodes' ACL user of the profile.
for port in "${ports[@]}"; do
    redis-cli -p "$port" ACL SETUSER console-monitor on nopass '+@all' '~*' '&*' >/dev/null
done

shot() { # $1: output file, rest: console arguments
    local out=$1
    shift
    env XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" \
        xvfb-run -a -s "-screen 0 3000x2000x24" \
        "$console" --profile prod-behind-bastion --no-journal --screenshot "$tmp/raw.png" "$@" >/dev/null
    pngquant --force --quality 60-90 --speed 1 --strip --output "$out" "$tmp/raw.png"
    optipng -quiet -o2 "$out"
    echo "$out: $(($(stat -c %s "$out") / 1024)) KB"
}

mkdir -p docs/screenshots
shot docs/screenshots/ssh-profile.png --lang en --screenshot-profiles
shot docs/screenshots/ssh-profile-zh_CN.png --lang zh_CN --screenshot-profiles
shot docs/screenshots/ssh-nodes.png --lang en --screenshot-delay 3
shot docs/screenshots/ssh-nodes-zh_CN.png --lang zh_CN --screenshot-delay 3
