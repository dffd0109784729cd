#!/usr/bin/env bash
# Builds the Debian packages (CPack, in build-package/, copied here): redlock-console (the GUI), redlock (the CLI and
# the exporter), libredlock-core0 and libredlock-core-dev (the embeddable core, docs/embedding.md). Checks the
# desktop entry and the AppStream metainfo with their validators first, and the packages' contents after.
#
#   ./scripts/package.sh                 # as root or with sudo (installs what is missing)
#   ./scripts/package.sh -DREDLOCK_PACKAGE_CONTACT="Jane Doe <jane@example.org>"   # the Maintainer field (CMake args)
#   apt-get install ./redlock_*.deb ./redlock-console_*.deb
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup-deps.sh

# Packaging and validation tools, not needed to build: dpkg-shlibdeps (dpkg-dev) and file for CPack's
# dependency scan, the two validators, lintian for the packages.
tools=(dpkg-dev file desktop-file-utils appstream lintian)
missing=()
for p in "${tools[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
fi

desktop-file-validate resources/linux/org.redlockconsole.RedlockConsole.desktop
appstreamcli validate --no-net resources/linux/org.redlockconsole.RedlockConsole.metainfo.xml >/dev/null

export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake -S . -B build-package -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREDLOCK_WERROR=ON \
    -DREDLOCK_BUILD_TESTS=OFF -DCMAKE_INSTALL_PREFIX=/usr "$@" >/dev/null
cmake --build build-package --parallel "$(nproc)"
cmake --build build-package --target docs # the API reference, installed by libredlock-core-dev
(cd build-package && cpack -G DEB >cpack.log 2>&1) || { cat build-package/cpack.log >&2; exit 1; }

# One package per install component (cmake/Packaging.cmake); each must hold what it is for.
libdir=usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)
check_package() { # <package> <file>...
    local package=$1 deb contents f
    shift
    deb=$(ls -t build-package/"${package}"_*.deb | head -1)
    cp "$deb" .
    deb=$(basename "$deb")
    contents=$(dpkg-deb -c "$deb")
    for f in "$@"; do
        grep -q " \./$f\( ->.*\)\?\$" <<<"$contents" || { echo "package.sh: $f is missing from $deb" >&2; exit 1; }
    done
    echo "$deb:"
    dpkg-deb -f "$deb" Package Version Architecture Section Depends Recommends Suggests | sed 's/^/  /'
}
check_package redlock-console usr/bin/redlock-console usr/share/man/man1/redlock-console.1.gz \
    usr/share/applications/org.redlockconsole.RedlockConsole.desktop \
    usr/share/metainfo/org.redlockconsole.RedlockConsole.metainfo.xml \
    usr/share/icons/hicolor/scalable/apps/redlock-console.svg usr/share/icons/hicolor/48x48/apps/redlock-console.png
check_package redlock usr/bin/redlock usr/share/man/man1/redlock.1.gz usr/share/redlock/prometheus/redlock-alerts.yml
check_package libredlock-core0 "$libdir/libredlock-core.so.0"
check_package libredlock-core-dev "$libdir/libredlock-core.so" usr/include/redlock/redlock/RedlockClient.h \
    "$libdir/cmake/RedlockCore/RedlockCoreConfig.cmake" "$libdir/pkgconfig/redlock-core.pc" \
    usr/share/doc/libredlock-core-dev/api/index.html

# Debian's checks on every package: an error or a warning fails; what remains is overridden with its reason in
# resources/debian/<package>.lintian-overrides (installed with the package, so lintian reads it).
for package in redlock-console redlock libredlock-core0 libredlock-core-dev; do
    deb=$(ls -t "${package}"_*.deb | head -1)
    if ! findings=$(lintian --fail-on error,warning --tag-display-limit 0 "$deb" 2>&1); then
        grep -v 'running with root privileges' <<<"$findings" >&2 || true
        echo "package.sh: lintian finds errors or warnings in $deb (above)" >&2
        exit 1
    fi
    echo "$deb: lintian clean (overrides: resources/debian/$package.lintian-overrides)"
done
