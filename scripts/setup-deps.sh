#!/usr/bin/env bash
# Installs what building, testing and running Redlock Console need on Debian 12, if it is missing.
# Safe to run again: it only calls apt-get when a package is not installed. No questions asked.
set -euo pipefail

packages=(
    build-essential cmake ninja-build ccache pkg-config
    qt6-base-dev libqt6sql6-sqlite qt6-charts-dev qt6-svg-dev libqt6opengl6-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n
    libfaketime libgl-dev libhiredis-dev redis-server openssl
    libsqlite3-dev # the history journal writes on the Qt SQLite driver's own sqlite3 handle (core/history/JournalStore.cpp)
    xvfb xauth fonts-noto-cjk
    clang-format # tests only: the sources-formatted test
    appstream desktop-file-utils # tests only: metainfo-valid and desktop-entry-valid (appstreamcli, desktop-file-validate)
    libcrypt-dev # redlock exporter's basic auth: crypt_r checks bcrypt hashes (libxcrypt)
    systemd # tests only: exporter-unit-verifies runs systemd-analyze verify on resources/systemd/redlock-exporter@.service.in
    openssh-client # SSH jump hosts: the tunnels are the system ssh client
    openssh-server # tests only: tests/core/TestSshTunnel runs real sshd bastions on loopback
    qtkeychain-qt6-dev # the console's "Remember password": node passwords in the desktop keyring (Secret Service)
    gnome-keyring dbus-daemon # tests only: TestPasswordKeyring runs a real gnome-keyring-daemon in a dbus-run-session
    doxygen # the API reference of the public headers (`docs` target, installed by libredlock-core-dev) and its api-reference test
    libqt6sql6-psql # the history journal in PostgreSQL (`--journal postgresql://...`: Qt SQL's QPSQL driver)
    postgresql # tests only: tests/core/TestPostgresJournal runs a real PostgreSQL (initdb, pg_ctl) in a temp dir
    curl # benchmarks only: scripts/bench-exporter.sh times the exporter's scrapes with it
    prometheus # tests only: tests/system/TestExporter runs a real prometheus and promtool against `redlock exporter`; promtool checks and tests resources/prometheus/redlock-alerts.yml
)
if [ "${1:-}" = "--print" ]; then
    printf '%s\n' "${packages[@]}"
    exit 0
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "error: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
# The packages start a system redis on 6379 (and, where systemd runs, a prometheus on 9090); the console and
# the tests run their own servers on free ports.
