#!/usr/bin/env bash
# Regenerates the screenshots under docs/screenshots/ from the console itself: `redlock-console --demo
# --screenshot` under Xvfb, after a delay so the live charts have a history, then quantised (pngquant) to
# stay small. Commit the result. Needs a built console (./scripts/build.sh).
#
#   ./scripts/screenshots.sh            # docs/screenshots/console-demo.png, console-demo-zh_CN.png,
#                                       # console-demo-dark.png (--dark), history.png and history-zh_CN.png (the
#                                       # lock history dock) and alerts.png (short alert thresholds);
#                                       # build/console-demo-zh_CN-dark.png to look at
#   ./scripts/screenshots.sh --hidpi    # also build/console-demo-hidpi.png at QT_SCALE_FACTOR=2 (not committed)
# The history view on a deployment's history (history-deployment*.png): ./scripts/history-screenshots.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
console=build/app/redlock-console
[ -x "$console" ] || { echo "screenshots.sh: build the console first (./scripts/build.sh)" >&2; exit 1; }
need=()
command -v pngquant >/dev/null || need+=(pngquant)
command -v optipng >/dev/null || need+=(optipng)
command -v xvfb-run >/dev/null || need+=(xvfb xauth)
if [ ${#need[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" </dev/null
fi

delay=${SCREENSHOT_DELAY:-30}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A clean configuration (no saved profiles or layout) and the default 1400x900 window.
shot() { # $1: output file, rest: extra arguments
    local out=$1
    shift
    env XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" \
        xvfb-run -a -s "-screen 0 3000x2000x24" \
        "$console" --demo --screenshot "$tmp/raw.png" --screenshot-delay "$delay" "$@" >/dev/null
    pngquant --force --quality 60-90 --speed 1 --strip --output "$out" "$tmp/raw.png"
    optipng -quiet -o2 "$out"
    local size
    size=$(stat -c %s "$out")
    echo "$out: $((size / 1024)) KB"
    [ "$size" -le $((300 * 1024)) ] || { echo "screenshots.sh: $out is over 300 KB" >&2; exit 1; }
}

mkdir -p docs/screenshots
shot docs/screenshots/console-demo.png --lang en
shot docs/screenshots/console-demo-zh_CN.png --lang zh_CN
shot docs/screenshots/console-demo-dark.png --lang en --dark
shot build/console-demo-zh_CN-dark.png --lang zh_CN --dark
shot docs/screenshots/history.png --lang en --open-dock history
shot docs/screenshots/history-zh_CN.png --lang zh_CN --open-dock history
# The alerts dock: thresholds short enough for the demo's locks and leftovers to alert within the delay (no tray
# under Xvfb, so the first notification opens the dock).
mkdir -p "$tmp/config/RedlockConsole"
printf '[alerts]\nminority-leftover\\afterMs=2000\nlock-contested\\afterMs=1000\nlock-held\\afterMs=3000\n' \
    >"$tmp/config/RedlockConsole/redlock-console.conf"
shot docs/screenshots/alerts.png --lang en
if [ "${1:-}" = "--hidpi" ]; then
    QT_SCALE_FACTOR=2 shot build/console-demo-hidpi.png --lang en
fi
