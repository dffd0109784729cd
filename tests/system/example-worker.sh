#!/usr/bin/env bash
# The core as a service embeds it, with nothing from this source tree: install the library's two components
# (libredlock-core0, libredlock-core-dev) into a temporary prefix, build examples/worker out of tree with only
# find_package(RedlockCore) (and once more with only pkg-config; every installed header compiles alone), and run
# it against a real `redlock cluster`: it takes orders:<id> with a fencing token that grows, finishes and
# releases; and when its key is taken over behind its back it says the lock is lost and does no step after that.
# Usage: example-worker.sh <cmake> <generator> <build dir> <examples/worker> <redlock>
set -euo pipefail
cmake=$1 generator=$2 build=$3 example=$4 redlock=$5
tmp=$(mktemp -d)
cluster_pid=""
worker_pid=""
cleanup() {
    [ -n "$worker_pid" ] && kill "$worker_pid" 2>/dev/null || true
    if [ -n "$cluster_pid" ]; then kill -TERM "$cluster_pid" 2>/dev/null || true; wait "$cluster_pid" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# Waits (bounded) until file $1 has a line matching $2.
wait_for_line() {
    for _ in $(seq 1 300); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
    fail "no line matching '$2' in $1: $(cat "$1" 2>/dev/null)"
}

prefix=$tmp/prefix
for component in libredlock-core0 libredlock-core-dev; do
    "$cmake" --install "$build" --prefix "$prefix" --component "$component" >/dev/null
done
# Only the public layers are installed.
[ -f "$prefix/include/redlock/redlock/LockKeeper.h" ] || fail "LockKeeper.h not installed"
! find "$prefix/include" -path '*observe*' -o -path '*export*' | grep -q . || fail "private headers installed"

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# A library built with the sanitizers (REDLOCK_SANITIZE) needs their runtime first in the program that loads it:
# the example is then built with them too, as a service embedding that build would be.
sanitize=()
grep -q '^REDLOCK_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null && sanitize=(-fsanitize=address,undefined)
"$cmake" -S "$example" -B "$tmp/worker" -G "$generator" -DCMAKE_PREFIX_PATH="$prefix" "${launcher[@]}" \
    -DCMAKE_CXX_FLAGS="${sanitize[*]}" -DCMAKE_EXE_LINKER_FLAGS="${sanitize[*]}" >"$tmp/configure.log" \
    || { cat "$tmp/configure.log"; fail "configure"; }
grep -q "^RedlockCore_DIR:PATH=$prefix/" "$tmp/worker/CMakeCache.txt" || fail "RedlockCore not found in the prefix"
"$cmake" --build "$tmp/worker" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "build"; }
worker=$tmp/worker/redlock-example-worker

# The same program with pkg-config only.
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
pc_flags=$(pkg-config --cflags --libs redlock-core) || fail "pkg-config redlock-core"
cxx=(${CXX:-c++})
command -v ccache >/dev/null && cxx=(ccache "${cxx[@]}")
"${cxx[@]}" -std=c++20 -fPIC "${sanitize[@]}" "$example/main.cpp" $pc_flags -o "$tmp/worker-pc" || fail "build with pkg-config"
# Every installed header compiles on its own: none needs a header that was not installed. One compiler per core at
# a time (each parses Qt's headers: ~5 s, much more on a loaded machine).
export CXX_CHECK="${CXX:-c++} -std=c++20 -fPIC -fsyntax-only $(pkg-config --cflags redlock-core)"
(cd "$prefix/include/redlock" && find . -name '*.h' | sed 's|^\./||') |
    xargs -P "$(nproc)" -I{} sh -c 'printf "#include <%s>\n" "$1" | $CXX_CHECK -x c++ - ||
        { echo "FAIL: $1 does not compile alone" >&2; exit 255; }' sh {} \
    || fail "an installed header does not compile alone"

"$redlock" cluster --nodes-count 3 >"$tmp/cluster.out" 2>"$tmp/cluster.err" &
cluster_pid=$!
wait_for_line "$tmp/cluster.out" ':'
nodes=$(head -n 1 "$tmp/cluster.out")

"$worker" --nodes "$nodes" --order 42 --steps 3 --step-ms 20 >"$tmp/run1.out" || fail "run 1: exit $? $(cat "$tmp/run1.out")"
LD_LIBRARY_PATH=$prefix/lib "$tmp/worker-pc" --nodes "$nodes" --order 42 --steps 3 --step-ms 20 >"$tmp/run2.out" \
    || fail "run 2: exit $? $(cat "$tmp/run2.out")"
for run in run1 run2; do
    grep -q '^step 3/3 of orders:42' "$tmp/$run.out" || fail "$run: $(cat "$tmp/$run.out")"
    grep -q '^released orders:42 on 3 nodes' "$tmp/$run.out" || fail "$run: $(cat "$tmp/$run.out")"
done
fence1=$(sed -n 's/^acquired orders:42 fencing token \([0-9]*\)$/\1/p' "$tmp/run1.out")
fence2=$(sed -n 's/^acquired orders:42 fencing token \([0-9]*\)$/\1/p' "$tmp/run2.out")
[ -n "$fence1" ] && [ -n "$fence2" ] && [ "$fence2" -gt "$fence1" ] || fail "fencing tokens $fence1 then $fence2"

# Lost: another holder's value on every node; the next extension finds it and the worker stops.
"$worker" --nodes "$nodes" --order 43 --steps 100000 --step-ms 50 --ttl 1500 >"$tmp/run3.out" &
worker_pid=$!
wait_for_line "$tmp/run3.out" '^step 1/'
IFS=, read -ra endpoints <<<"$nodes"
for endpoint in "${endpoints[@]}"; do
    redis-cli -h "${endpoint%:*}" -p "${endpoint##*:}" SET orders:43 intruder PX 60000 >/dev/null
done
code=0
for _ in $(seq 1 300); do kill -0 "$worker_pid" 2>/dev/null || break; sleep 0.1; done
wait "$worker_pid" || code=$?
worker_pid=""
[ "$code" -eq 3 ] || fail "run 3: exit $code, expected 3: $(tail -n 5 "$tmp/run3.out")"
lost_line=$(grep -n -m 1 -E '^(lost orders:43|lock no longer held)' "$tmp/run3.out" | cut -d: -f1)
[ -n "$lost_line" ] || fail "run 3: no lost line: $(tail -n 5 "$tmp/run3.out")"
! tail -n +"$lost_line" "$tmp/run3.out" | grep -q '^step ' || fail "run 3: a step after the lock was lost"
echo "ok: installed, built out of tree (find_package, pkg-config), fencing $fence1 < $fence2, stopped when lost"
