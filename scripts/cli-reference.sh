#!/usr/bin/env bash
# Writes the reference of the `redlock` command line tool from the tool's own --help output, so the
# reference cannot drift from the code:
#
#   scripts/cli-reference.sh man REDLOCK VERSION        # roff man page redlock(1) on stdout (built by CMake)
#   scripts/cli-reference.sh console-man CONSOLE VERSION  # roff man page redlock-console(1) (built by CMake)
#   scripts/cli-reference.sh markdown REDLOCK VERSION   # docs/cli.md on stdout
#   scripts/cli-reference.sh --update [BUILD_DIR]       # rewrite docs/cli.md from BUILD_DIR/app/redlock
#
# The test `cli-reference-current` fails when docs/cli.md differs from what this script writes.
set -euo pipefail

if [ "${1:-}" = "--update" ]; then
    cd "$(dirname "$0")/.."
    build=${2:-build}
    version=$(sed -n 's/^project(RedlockConsole VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
    "$0" markdown "$build/app/redlock" "$version" >docs/cli.md
    echo "docs/cli.md written"
    exit 0
fi
if [ $# -ne 3 ] || { [ "$1" != man ] && [ "$1" != markdown ] && [ "$1" != console-man ]; }; then
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
format=$1
redlock=$2
version=$3

# Help texts that name the user's home (default paths) show "~", whoever builds: HOME is "~" itself
# (REDLOCK_REFERENCE_HOME replaces it; the test cli-reference-words-whole gives a long one).
help() {
    env -i PATH=/usr/bin:/bin HOME="${REDLOCK_REFERENCE_HOME:-~}" LANG=C.UTF-8 "$redlock" "$@" --help
}

# Parses one help text into records for the emitters below:
#   U <usage>  P <paragraph>  S <section title>  E <term> \t <description>
# An option's description comes wrapped by Qt (QCommandLineParser::helpText) at column 79, and a line break
# between words is joined back with a space. But where a line holds no space, Qt cuts inside the word (a path
# longer than the description column: "~/.local/share/redlo" + "ck/audit.jsonl"), and a space there splits the
# word. Such a cut line is full: its first line ends at column 79, a later one at column 80 (Qt counts a
# continuation line from its second character); its piece has no space; the next line goes on with the word.
# Ambiguous only for one word exactly as long as the column, which Qt lays out the same way.
parse() {
    awk '
    function flush() {
        if (para != "") { print "P\t" para; para = "" }
        if (term != "") { print "E\t" term "\t" desc; term = ""; desc = "" }
    }
    # Characters, not bytes (mawk counts bytes): UTF-8 continuation bytes do not count.
    function chars(s,   t) { t = s; return length(s) - gsub(/[\200-\277]/, "", t) }
    NR == 1 { sub(/^Usage: /, ""); print "U\t" $0; next }
    /^$/ { flush(); next }
    /^[^ ].*:$/ && section_next() { flush(); t = $0; sub(/:$/, "", t); print "S\t" t; next }
    /^  [^ ]/ && insection {
        flush()
        line = substr($0, 3)
        if (match(line, /   */)) {
            term = substr(line, 1, RSTART - 1); desc = substr(line, RSTART + RLENGTH)
        } else { term = line; desc = "" }
        cut = chars($0) >= 79 && desc !~ / /
        next
    }
    /^   / && term != "" {
        l = $0; sub(/^ */, "", l)
        desc = desc (cut ? "" : " ") l
        cut = chars($0) >= 80 && l !~ / /
        next
    }
    { insection = 0; para = (para == "" ? $0 : para " " $0) }
    END { flush() }
    function section_next() { insection = 1; return 1 }
    '
}

man_escape() { sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }

emit_man() { # $1: command name ("" for the tool itself)
    local kind text term desc
    while IFS=$'\t' read -r kind text desc; do
        case "$kind" in
        U) [ -n "$1" ] && printf '.SS "redlock %s"\n.B %s\n' "$1" "$(man_escape <<<"$text")" ;;
        P) printf '.PP\n%s\n' "$(man_escape <<<"$text")" ;;
        S) printf '.PP\n.I %s:\n' "$(man_escape <<<"$text")" ;;
        E)
            term=$(man_escape <<<"$text" | sed -e 's/<\([^>]*\)>/\\fI\1\\fB/g')
            printf '.TP\n.B %s\n%s\n' "$term" "$(man_escape <<<"$desc")"
            ;;
        esac
    done
}

md_escape() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/|/\\|/g' -e 's/\*/\\*/g'; }

emit_markdown() { # $1: command name ("" for the tool itself)
    local kind text desc in_table=0
    while IFS=$'\t' read -r kind text desc; do
        if [ "$kind" != E ] && [ $in_table -eq 1 ]; then
            echo
            in_table=0
        fi
        case "$kind" in
        U) printf '```\n%s\n```\n\n' "$text" ;;
        P) printf '%s\n\n' "$(md_escape <<<"$text")" ;;
        S) printf '**%s**\n\n' "$text" ;;
        E)
            [ $in_table -eq 0 ] && printf '| | |\n| --- | --- |\n'
            in_table=1
            printf '| `%s` | %s |\n' "$(sed 's/|/\\|/g' <<<"$text")" "$(md_escape <<<"$desc")"
            ;;
        esac
    done
    [ $in_table -eq 1 ] && echo
    return 0
}

if [ "$format" = console-man ]; then
    # The console's --help (QCommandLineParser's layout; it prints without a display) as redlock-console(1).
    general=$(help)
    description=$(awk 'NR == 2' <<<"$general")
    cat <<EOF
.\\" Generated by scripts/cli-reference.sh from \`redlock-console --help\`; do not edit.
.TH REDLOCK\\-CONSOLE 1 "" "redlock-console $version" "User Commands"
.SH NAME
redlock\\-console \\- $(man_escape <<<"${description%.}")
.SH SYNOPSIS
.B redlock\\-console
[\\fIoptions\\fR]
.SH DESCRIPTION
.PP
$(man_escape <<<"$description")
It shows, for every lock of a Redlock deployment, its holder, the TTL on each node, the quorum and the
validity; operators force\\-release locks, test acquires and extends, and schedule delayed node restarts.
.B \\-\\-demo
starts a local 5\\-node cluster (it needs
.BR redis\\-server )
to try it without touching a real deployment.
.SH OPTIONS
EOF
    parse <<<"$general" | awk -F'\t' '$1 == "E"' | emit_man ""
    cat <<EOF
.SH SEE ALSO
.BR redlock (1),
the command line tool for the same clusters; the operator guide in
.IR /usr/share/doc/redlock\\-console/guide.md .
EOF
    exit 0
fi

general=$(help)
commands=$(awk '/^Commands:$/ { on = 1; next } on && /^$/ { exit } on { print $1 }' <<<"$general")
summary=$(awk 'NR == 3' <<<"$general")

if [ "$format" = man ]; then
    cat <<EOF
.\\" Generated by scripts/cli-reference.sh from \`redlock --help\`; do not edit.
.TH REDLOCK 1 "" "redlock $version" "User Commands"
.SH NAME
redlock \\- $(man_escape <<<"${summary%.}")
.SH SYNOPSIS
.B redlock
.I command
[\\fIoptions\\fR] ...
.SH DESCRIPTION
EOF
    # The general help without its usage line and its own command table (the COMMANDS section has them all).
    parse <<<"$general" | awk -F'\t' '$1 == "U" || ($1 == "P" && NR == 2) { next } { print }' |
        awk -F'\t' '$1 == "S" && $2 == "Commands" { skip = 1; next } $1 == "S" || $1 == "P" { skip = 0 } !skip' | emit_man ""
    echo ".SH COMMANDS"
    for c in $commands; do help "$c" | parse | emit_man "$c"; done
    cat <<EOF
.SH SEE ALSO
.BR redlock\\-console (1)
is the desktop console for the same clusters.
EOF
else
    cat <<EOF
<!-- Generated by scripts/cli-reference.sh from \`redlock --help\`; do not edit (run scripts/cli-reference.sh --update). -->
# \`redlock\` command line reference (version $version)

EOF
    help | parse | emit_markdown ""
    for c in $commands; do
        printf '## redlock %s\n\n' "$c"
        help "$c" | parse | emit_markdown "$c"
    done
fi
