#!/usr/bin/env bash
# Renders the application icon's PNG sizes for the hicolor theme from resources/icons/redlock-console.svg.
# Run it after changing the SVG and commit the PNGs (the build does not need rsvg-convert).
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
command -v rsvg-convert >/dev/null || need+=(librsvg2-bin)
command -v optipng >/dev/null || need+=(optipng)
if [ ${#need[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" </dev/null
fi
svg=resources/icons/redlock-console.svg
for size in 16 22 24 32 48 64 128 256; do
    out=resources/icons/redlock-console-$size.png
    rsvg-convert -w "$size" -h "$size" "$svg" -o "$out"
    optipng -quiet -o5 -strip all "$out"
done
ls -l resources/icons/*.png
