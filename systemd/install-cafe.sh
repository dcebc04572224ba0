#!/bin/sh
# Install the café's counter machine (Debian, Ubuntu or Raspberry Pi OS), as root, from a broker
# recipe written by `codenames-table broker-recipe --out DIR`: the café's Mosquitto with the
# recipe's TLS, passwords and ACL, and the café view as a service serving its page on the LAN.
# Running it again updates both.
#
#   systemd/install-cafe.sh --recipe DIR [--http HOST:PORT] [--lang LANG] [--no-broker]
#   systemd/install-cafe.sh --dry-run --recipe DIR ...   only print the commands it would run
#
#   --http HOST:PORT  where the page is served: this machine's LAN address and a port, such as
#                     192.168.1.10:8080 (default: the recipe's, 127.0.0.1:8080, this machine only)
#   --lang LANG       the page's language: en, es, pt or it (default: the recipe's, en)
#   --no-broker       the broker runs elsewhere: install the view only
#
# What it installs: the packages mosquitto (unless --no-broker) and python3-venv when missing; the
# recipe's broker files in /etc/mosquitto/conf.d and /etc/mosquitto/codenames (its secrets
# readable by the group mosquitto only), then restarts Mosquitto; a virtual environment in
# /opt/codenames-table with the project and its `fleet` extra (the command linked into
# /usr/local/bin); the view's files in /etc/codenames-cafe; and systemd/codenames-cafe.service,
# enabled and (re)started. The recipe's CA key (ca/cafe-ca.key) is never copied.
#
# CODENAMES_CAFE_ROOT=DIR makes DIR stand for / in every path written (the tests check a dry
# run that way); it is refused for a real install.
set -eu

APP=codenames-table
UNIT=codenames-cafe
ROOT=${CODENAMES_CAFE_ROOT:-}
VENV=$ROOT/opt/$APP
VIEW_DIR=$ROOT/etc/$UNIT
UNIT_DIR=$ROOT/etc/systemd/system
SRC=$(cd "$(dirname "$0")/.." && pwd)

usage() {
    echo "usage: $0 [--dry-run] --recipe DIR [--http HOST:PORT] [--lang en|es|pt|it] [--no-broker]" >&2
    exit 2
}

mode=install
recipe=""
http=""
lang=""
broker=yes
while [ $# -gt 0 ]; do
    case $1 in
        --dry-run) mode=dry-run ;;
        --recipe) [ $# -ge 2 ] || usage; recipe=$2; shift ;;
        --http) [ $# -ge 2 ] || usage; http=$2; shift ;;
        --lang) [ $# -ge 2 ] || usage; lang=$2; shift ;;
        --no-broker) broker=no ;;
        -h | --help)
            sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
            exit 0
            ;;
        *) usage ;;
    esac
    shift
done
[ -n "$recipe" ] || usage
if [ ! -r "$recipe/recipe.json" ]; then
    echo "--recipe $recipe: no recipe.json there (codenames-table broker-recipe --out DIR writes one)" >&2
    exit 2
fi
case $http in
    "" | *:[0-9]*) ;;
    *)
        echo "--http $http: expected HOST:PORT, such as 192.168.1.10:8080" >&2
        exit 2
        ;;
esac
case $lang in
    "" | en | es | pt | it) ;;
    *)
        echo "--lang $lang: expected en, es, pt or it" >&2
        exit 2
        ;;
esac
if [ "$mode" = install ] && [ -n "$ROOT" ]; then
    echo "CODENAMES_CAFE_ROOT is for --dry-run only; unset it to install" >&2
    exit 2
fi
if [ "$mode" = install ] && [ "$(id -u)" -ne 0 ]; then
    echo "installing needs root: sudo $0 ..." >&2
    exit 1
fi

run() { # COMMAND...: run it, or only show it in a dry run
    printf '+ %s\n' "$*"
    if [ "$mode" = install ]; then
        "$@"
    fi
}

write_file() { # PATH MODE: write standard input to PATH, or only show it in a dry run
    printf '+ (write %s)\n' "$1"
    if [ "$mode" = install ]; then
        cat >"$1"
        chmod "$2" "$1"
    else
        sed 's/^/    /'
    fi
}

placed() { # PART: the recipe's files of PART (broker or view), one "source path mode owner" a line
    python3 - "$recipe/recipe.json" "$1" <<'EOF'
import json, sys
with open(sys.argv[1], encoding="utf-8") as file:
    for entry in json.load(file)[sys.argv[2]]["files"]:
        print(entry["source"], entry["path"], entry["mode"], entry["owner"])
EOF
}

install_files() { # PART: install the recipe's files of PART where they go, owner and mode
    placed "$1" | while read -r source path file_mode owner; do
        # The view's settings are written with this install's options (install_view).
        [ "$source" != view/cafe.env ] || continue
        run install -D -o "${owner%%:*}" -g "${owner##*:}" -m "$file_mode" \
            "$recipe/$source" "$ROOT$path"
    done
}

installed() { # PACKAGE: whether dpkg has it installed
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

install_packages() {
    wanted=python3-venv
    [ "$broker" = no ] || wanted="mosquitto $wanted"
    missing_apt=""
    for package in $wanted; do
        installed "$package" || missing_apt="$missing_apt $package"
    done
    if [ -n "$missing_apt" ]; then
        run apt-get update
        # shellcheck disable=SC2086 # one word per package
        run env DEBIAN_FRONTEND=noninteractive apt-get install --yes --no-install-recommends \
            $missing_apt
    fi
}

install_broker() {
    [ "$broker" = yes ] || return 0
    install_files broker
    run systemctl enable mosquitto
    # A restart, not a reload: the listener and its certificate change.
    if ! run systemctl restart mosquitto; then
        echo "Mosquitto did not start with the recipe: journalctl -u mosquitto -n 50 says why" >&2
        exit 1
    fi
}

install_venv() {
    # Built from a copy: pip builds in the source tree, and root-owned build files would be
    # left in the checkout. The venv is root's: the view cannot change its own code.
    if [ "$mode" = install ]; then
        build=$(mktemp -d)
        trap 'rm -rf "$build"' EXIT
        tar -C "$SRC" --dereference --exclude=__pycache__ -cf - \
            pyproject.toml README.md board_rules firmware | tar -C "$build" -xf -
    else
        build=/tmp/codenames-cafe.XXXXXX
        printf '+ %s\n' "(copy pyproject.toml README.md board_rules firmware from $SRC to $build)"
    fi
    run python3 -m venv "$VENV"
    run "$VENV/bin/pip" install --disable-pip-version-check --no-cache-dir --upgrade \
        "${build}[fleet]"
    run ln -sfn "/opt/$APP/bin/$APP" "$ROOT/usr/local/bin/$APP"
}

install_view() {
    install_files view
    # The page's address and language, as given here; the rest of the recipe's settings stays.
    sed -e "${http:+s|^CAFE_HTTP=.*|CAFE_HTTP=$http|}" -e "${lang:+s|^CAFE_LANG=.*|CAFE_LANG=$lang|}" \
        "$recipe/view/cafe.env" | write_file "$VIEW_DIR/cafe.env" 0644
    run install -m 0644 "$SRC/systemd/$UNIT.service" "$UNIT_DIR/$UNIT.service"
    run systemctl daemon-reload
    run systemctl enable "$UNIT"
    if ! run systemctl restart "$UNIT"; then
        echo "the café view did not start: journalctl -u $UNIT -n 50 says why" >&2
        exit 1
    fi
}

echo "== Installing the café's counter machine from $recipe"
install_packages
install_broker
install_venv
install_view
if [ "$mode" = dry-run ]; then
    echo "== Dry run: nothing was changed"
    exit 0
fi
page=$(sed -n 's/^CAFE_HTTP=//p' "$VIEW_DIR/cafe.env")
echo "== Installed: the café view on http://$page/ (systemctl status $UNIT, journalctl -u $UNIT)"
