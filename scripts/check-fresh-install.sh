#!/usr/bin/env bash
# Runs the README's two commands on a truly fresh Debian 12: a `debootstrap --variant=minbase bookworm` chroot
# with nothing else installed, into which a clean clone of this repository's HEAD is copied. Proves that
# scripts/setup-deps.sh installs everything a new machine lacks (a used machine hides missing packages).
#
#   sudo ./scripts/check-fresh-install.sh            # both commands: ./scripts/test.sh, then ./scripts/demo.sh
#   sudo ./scripts/check-fresh-install.sh --keep     # leave the chroot behind for a look (path printed)
#   sudo ./scripts/check-fresh-install.sh --host-ccache   # the chroot's compiler cache is this machine's
#        (bind-mounted): the same build, much faster on a busy machine. It cannot hide a missing package: a
#        missing header or library still fails the preprocessor or the linker, which ccache does not skip.
#   sudo ./scripts/check-fresh-install.sh --deb      # the .deb instead: scripts/package.sh on this machine,
#        `apt-get install ./redlock-console_*.deb` in the chroot, then the INSTALLED redlock and
#        redlock-console (--demo without and with redis-server, English and zh_CN screenshots under Xvfb,
#        copied to build/fresh-install-deb*.png); then libredlock-core-dev: examples/worker, copied out of the
#        tree, is built with only find_package(RedlockCore) and run against redis-server in the chroot
#
# Needs root and debootstrap (installed if missing). The pristine base system is cached under
# /var/cache/redlock-fresh-install (delete it to start from the mirror again); every run works on a fresh copy.
# The mirror is the one this machine's apt uses for bookworm main; DEBIAN_MIRROR=<URL> chooses another.
# Only committed work is checked: uncommitted changes are not in the clone (--deb packages the working tree).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

keep=0
deb=0
host_ccache=0
for arg in "$@"; do
    case "$arg" in
    --keep) keep=1 ;;
    --deb) deb=1 ;;
    --host-ccache) host_ccache=1 ;;
    -h | --help)
        sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "check-fresh-install: unknown argument: $arg" >&2
        exit 2
        ;;
    esac
done

[ "$(id -u)" -eq 0 ] || { echo "check-fresh-install: needs root (chroot, mounts)" >&2; exit 1; }

# The mirror and the cached pristine base system (scripts/lib/debian-base.sh, shared with check-systemd-exporter.sh).
. scripts/lib/debian-base.sh
debian_base check-fresh-install # sets $base

root=$(mktemp -d /var/tmp/redlock-fresh.XXXXXX)
mounts=()
cleanup() {
    local status=$?
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[i]}" 2>/dev/null || true; done
    if [ "$keep" -eq 1 ]; then
        echo "chroot kept: $root"
    else
        rm -rf --one-file-system "$root"
    fi
    exit "$status"
}
trap cleanup EXIT INT TERM

fresh_copy "$root"
for m in proc sys dev dev/pts dev/shm; do
    mkdir -p "$root/$m"
    case "$m" in
    proc) mount -t proc proc "$root/proc" ;;
    sys) mount -t sysfs sys "$root/sys" ;;
    dev) mount --bind /dev "$root/dev" ;;
    dev/pts) mount -t devpts devpts "$root/dev/pts" ;;
    dev/shm) mount -t tmpfs shm "$root/dev/shm" ;;
    esac
    mounts+=("$root/$m")
done

if [ "$host_ccache" -eq 1 ] && command -v ccache >/dev/null; then
    cache_dir=$(ccache -k cache_dir)
    mkdir -p "$cache_dir" "$root/root/.cache/ccache"
    mount --bind "$cache_dir" "$root/root/.cache/ccache"
    mounts+=("$root/root/.cache/ccache")
    echo "== compiler cache: this machine's ($cache_dir)"
fi

run_in_chroot() {
    chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 TERM=dumb \
        /bin/bash -c "cd /root/redlock-console && $1" </dev/null
}

if [ "$deb" -eq 1 ]; then
    echo "== scripts/package.sh (on this machine)"
    ./scripts/package.sh
    # The console and the CLI are two packages (cmake/Packaging.cmake); a user installs both.
    package="$(ls -t redlock-console_*.deb | head -1) $(ls -t redlock_*.deb | head -1)"
    mkdir -p "$root/root/redlock-console"
    cp $package "$root/root/redlock-console/"
    apt_get="DEBIAN_FRONTEND=noninteractive apt-get -y -q"
    echo "== apt-get install $package (with what they recommend, as a user would)"
    run_in_chroot "$apt_get update >/dev/null && $apt_get install $(printf './%s ' $package) >/tmp/apt.log 2>&1 || { tail -30 /tmp/apt.log; exit 1; }"
    run_in_chroot "dpkg -s redlock-console redlock | grep -E '^(Package|Version|Depends|Recommends|Suggests):'"
    echo "== installed redlock --help, man page, desktop files"
    run_in_chroot "command -v redlock redlock-console && redlock --help | head -3 && redlock --version"
    run_in_chroot "ls /usr/share/man/man1/redlock.1.gz /usr/share/man/man1/redlock-console.1.gz /usr/share/applications/*.desktop /usr/share/metainfo/*.xml \
        /usr/share/icons/hicolor/scalable/apps/redlock-console.svg"
    # The demo without redis-server (only Suggested) must say what it needs; xvfb for the display.
    run_in_chroot "$apt_get install --no-install-recommends xvfb xauth >/tmp/apt.log 2>&1 || { tail -30 /tmp/apt.log; exit 1; }"
    echo "== redlock-console --demo without redis-server"
    if run_in_chroot "xvfb-run -a redlock-console --demo --screenshot /tmp/none.png >/tmp/demo.log 2>&1"; then
        echo "check-fresh-install: the demo succeeded without redis-server?" >&2
        exit 1
    fi
    run_in_chroot "cat /tmp/demo.log; grep -q 'redis-server not found' /tmp/demo.log"
    echo "== redlock-console --demo with redis-server (English, then zh_CN)"
    run_in_chroot "$apt_get install --no-install-recommends redis-server >/tmp/apt.log 2>&1 || { tail -30 /tmp/apt.log; exit 1; }"
    # The -dev package proven out of tree: examples/worker copied away from the source tree, built with nothing but
    # the installed packages (find_package(RedlockCore)), run against three redis-server processes in the chroot.
    echo "== libredlock-core-dev: examples/worker built out of tree with find_package(RedlockCore)"
    dev_packages="$(ls -t libredlock-core0_*.deb | head -1) $(ls -t libredlock-core-dev_*.deb | head -1)"
    cp $dev_packages "$root/root/redlock-console/"
    rm -rf "$root/tmp/worker-src"
    cp -r examples/worker "$root/tmp/worker-src"
    run_in_chroot "$apt_get install $(printf './%s ' $dev_packages) g++ make >/tmp/apt.log 2>&1 || { tail -30 /tmp/apt.log; exit 1; }"
    run_in_chroot "dpkg -s libredlock-core0 libredlock-core-dev | grep -E '^(Package|Version|Depends|Recommends):'"
    run_in_chroot "cmake -S /tmp/worker-src -B /tmp/worker-build >/tmp/worker-configure.log 2>&1 &&
        grep '^RedlockCore_DIR:PATH=/usr/lib/' /tmp/worker-build/CMakeCache.txt &&
        cmake --build /tmp/worker-build >/tmp/worker-build.log 2>&1 || { cat /tmp/worker-configure.log /tmp/worker-build.log; exit 1; }"
    run_in_chroot "set -e; for port in 7101 7102 7103; do
            redis-server --port \$port --bind 127.0.0.1 --daemonize yes --save '' --appendonly no \\
                --logfile /tmp/redis-\$port.log --pidfile /tmp/redis-\$port.pid
        done
        for port in 7101 7102 7103; do
            for i in \$(seq 1 100); do redis-cli -p \$port ping 2>/dev/null | grep -q PONG && break; sleep 0.1; done
        done
        status=0
        /tmp/worker-build/redlock-example-worker --nodes 127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103 --order 42 \\
            --steps 3 --step-ms 20 >/tmp/worker.out 2>&1 || status=\$?
        for port in 7101 7102 7103; do redis-cli -p \$port shutdown nosave >/dev/null 2>&1 || true; done
        cat /tmp/worker.out
        [ \$status -eq 0 ] && grep -q '^step 3/3 of orders:42' /tmp/worker.out &&
            grep -q '^released orders:42 on 3 nodes' /tmp/worker.out"
    echo "== the installed -dev package builds and runs examples/worker out of tree"
    # A crash leaves its core dump and a backtrace (the unstripped binary is build-package/app/redlock-console).
    console_run() {
        run_in_chroot "ulimit -c unlimited; cd /tmp && rm -f core*; xvfb-run -a redlock-console --demo $1 || {
            status=\$?; core=\$(ls core* 2>/dev/null | head -1)
            if [ -n \"\$core\" ]; then
                $apt_get install --no-install-recommends gdb >/dev/null 2>&1
                gdb -q -batch -ex 'thread apply all bt 40' /usr/bin/redlock-console \$core 2>&1 | tail -150
                mv \$core /tmp/console.core
            fi
            exit \$status; }" || {
            status=$?
            if [ -e "$root/tmp/console.core" ]; then
                mkdir -p "$repo/build"
                cp "$root/tmp/console.core" "$repo/build/fresh-install-console.core"
                echo "check-fresh-install: core dump in build/fresh-install-console.core" >&2
            fi
            exit $status
        }
    }
    console_run "--screenshot /tmp/x.png --screenshot-delay 3"
    console_run "--lang zh_CN --screenshot /tmp/zh.png --screenshot-delay 3"
    mkdir -p "$repo/build"
    for shot in x zh; do
        [ -s "$root/tmp/$shot.png" ] || { echo "check-fresh-install: no screenshot /tmp/$shot.png" >&2; exit 1; }
    done
    cp "$root/tmp/x.png" "$repo/build/fresh-install-deb.png"
    cp "$root/tmp/zh.png" "$repo/build/fresh-install-deb-zh_CN.png"
    echo "== the .deb installs and runs on a fresh Debian 12; screenshots: build/fresh-install-deb{,-zh_CN}.png"
    exit 0
fi

echo "== clean clone of HEAD ($(git -C "$repo" rev-parse --short HEAD))"
git clone -q --no-hardlinks "$repo" "$root/root/redlock-console"
rm -rf "$root/root/redlock-console/.git/hooks"

# The README's two commands, as a new user runs them: as root, in the clone, no standard input, no display.

start=$(date +%s)
echo "== ./scripts/test.sh"
run_in_chroot ./scripts/test.sh
echo "== ./scripts/test.sh passed after $(($(date +%s) - start)) s"

echo "== ./scripts/demo.sh (no display: renders demo.png under Xvfb)"
run_in_chroot ./scripts/demo.sh
png=$root/root/redlock-console/demo.png
[ -s "$png" ] || { echo "check-fresh-install: demo.sh wrote no demo.png" >&2; exit 1; }
mkdir -p "$repo/build"
cp "$png" "$repo/build/fresh-install-demo.png"
echo "== both README commands passed on a fresh Debian 12 in $(($(date +%s) - start)) s"
echo "   the demo's screenshot: build/fresh-install-demo.png"
