# shellcheck shell=bash
# Sourced by scripts/check-fresh-install.sh and scripts/check-systemd-exporter.sh: a pristine Debian 12 base
# system (`debootstrap --variant=minbase bookworm`), cached under /var/cache/redlock-fresh-install (delete it to
# start from the mirror again), from the mirror this machine's apt uses (DEBIAN_MIRROR=<URL> chooses another).

# The Debian mirror this machine's apt already uses for bookworm's main component (one-line sources.list
# entries and deb822 *.sources files, as apt reads them); DEBIAN_MIRROR overrides it. No host is written here.
apt_mirror() {
    local files=()
    [ -f /etc/apt/sources.list ] && files+=(/etc/apt/sources.list)
    for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && files+=("$f")
    done
    [ ${#files[@]} -gt 0 ] || return 0
    awk '
        function flush() {
            if (types ~ /(^| )deb( |$)/ && suites ~ /(^| )bookworm( |$)/ && comps ~ /(^| )main( |$)/ &&
                enabled !~ /^[Nn]o$/ && uris != "" && found == "") {
                split(uris, u, " "); found = u[1]
            }
            types = uris = suites = comps = enabled = ""
        }
        FNR == 1 { flush() }
        FILENAME ~ /\.sources$/ {
            if ($0 ~ /^[ \t]*$/) { flush(); next }
            if ($0 ~ /^#/) next
            field = tolower($1); sub(/:$/, "", field); $1 = ""; sub(/^ +/, "")
            if (field == "types") types = $0
            else if (field == "uris") uris = $0
            else if (field == "suites") suites = $0
            else if (field == "components") comps = $0
            else if (field == "enabled") enabled = $0
            next
        }
        $1 == "deb" {
            i = 2
            if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
            if ($(i + 1) == "bookworm") {
                comps = ""
                for (j = i + 2; j <= NF && $j !~ /^#/; j++) comps = comps " " $j
                if (comps ~ / main( |$)/ && found == "") found = $i
            }
        }
        END { flush(); if (found != "") print found }
    ' "${files[@]}"
}

# debian_base <script name>: makes sure the cached base exists (debootstrap on first use) and sets $base to it.
debian_base() {
    local who=$1 mirror cache
    if ! command -v debootstrap >/dev/null; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap </dev/null
    fi
    mirror=${DEBIAN_MIRROR:-$(apt_mirror)}
    if [ -z "$mirror" ]; then
        echo "$who: no Debian bookworm main mirror in /etc/apt/sources.list or" \
            "/etc/apt/sources.list.d/*.sources: set DEBIAN_MIRROR=<mirror URL>" >&2
        exit 1
    fi
    echo "== Debian mirror: $mirror"
    cache=/var/cache/redlock-fresh-install
    base=$cache/bookworm-minbase
    if [ ! -e "$base/.complete" ]; then
        echo "== debootstrap --variant=minbase bookworm (cached in $base)"
        rm -rf "$base"
        mkdir -p "$cache"
        debootstrap --variant=minbase bookworm "$base" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
            { tail -20 "$cache/debootstrap.log" >&2; exit 1; }
        touch "$base/.complete"
    fi
}

# fresh_copy <dir>: a pristine copy of $base in dir, with the machine's resolver and an /etc/hosts.
fresh_copy() {
    local root=$1
    echo "== fresh copy of the base system in $root"
    cp -a "$base/." "$root/"
    rm -f "$root/.complete"
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    # debootstrap writes no /etc/hosts; every installed Debian has one (the installer's netcfg writes it), and
    # without it "localhost" does not resolve (tests reach nodes as localhost and check TLS names against it).
    [ -e "$root/etc/hosts" ] || printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"
}
