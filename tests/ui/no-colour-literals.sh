#!/bin/sh
# Colours are written in ui/theme/StatePalette only: fails (listing them) when ui/ or app/ has a colour literal,
# a named Qt colour or a style-sheet colour anywhere else.
root=${1:?usage: no-colour-literals.sh SOURCE_DIR}
grep -rnE --exclude-dir=theme \
    'QColor\(|QRgb|Qt::(red|green|blue|yellow|cyan|magenta|darkRed|darkGreen|darkBlue|gray|darkGray|lightGray|black|white)\b|setStyleSheet|#[0-9a-fA-F]{6}\b' \
    "$root/ui" "$root/app"
status=$?
[ "$status" -eq 1 ] # 1: nothing found; 0: found (listed above); 2: grep failed
