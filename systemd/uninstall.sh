#!/bin/sh
# Remove what systemd/install.sh installed, as root: `sudo make uninstall`.
#
#   systemd/uninstall.sh            stop and remove the service, the venv and the user
#   systemd/uninstall.sh --dry-run  print the commands it would run
#
# Kept: the saved games (the config's [table] state_dir, by default /var/lib/codenames-table),
# which then belong to a uid no user has; it prints the command that deletes them. Also kept:
# /etc/codenames-table/config.toml when it differs from the example it was installed from.
#
# CODENAMES_TABLE_ROOT=DIR makes DIR stand for / in every path; only with --dry-run.
set -eu

APP=codenames-table
SERVICE_USER=codenames-table
ROOT=${CODENAMES_TABLE_ROOT:-}
VENV=$ROOT/opt/$APP
SHARE=$VENV/share/$APP
CONFIG_DIR=$ROOT/etc/$APP
UNIT=$ROOT/etc/systemd/system/$APP.service
DROPIN_DIR=$ROOT/etc/systemd/system/$APP.service.d
SRC=$(cd "$(dirname "$0")/.." && pwd)

mode=uninstall
case ${1:-} in
    "") ;;
    --dry-run) mode=dry-run ;;
    -h | --help)
        sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "usage: $0 [--dry-run]" >&2
        exit 2
        ;;
esac
if [ "$mode" = uninstall ]; then
    if [ -n "$ROOT" ]; then
        echo "CODENAMES_TABLE_ROOT is for --dry-run only; unset it to uninstall" >&2
        exit 2
    fi
    if [ "$(id -u)" -ne 0 ]; then
        echo "not root: sudo make uninstall" >&2
        exit 1
    fi
fi

run() { # COMMAND...: run it, or only show it in a dry run
    printf '+ %s\n' "$*"
    if [ "$mode" = uninstall ]; then
        "$@"
    fi
}

# Read before the config goes: where the games are, and whose they were.
config=$CONFIG_DIR/config.toml
state_dir=$(python3 "$SRC/systemd/state_dir.py" "$config" 2>/dev/null) || state_dir=/var/lib/$APP
uid=$(awk -F: -v u="$SERVICE_USER" '$1 == u { print $3 }' "$ROOT/etc/passwd" 2>/dev/null)

remove_dropin() { # install.sh's ReadWritePaths= for a state folder of its own
    if [ -e "$DROPIN_DIR/state-dir.conf" ]; then
        run rm -f "$DROPIN_DIR/state-dir.conf"
        run rmdir --ignore-fail-on-non-empty "$DROPIN_DIR"
    fi
}

# The service first, so that nothing runs from the venv while it goes.
if [ -e "$UNIT" ]; then
    run systemctl disable --now "$APP"
    run rm -f "$UNIT"
    remove_dropin
    run systemctl daemon-reload
    # Forget an earlier failure, or `systemctl --failed` lists a unit that no longer exists.
    run systemctl reset-failed "$APP" || true
else
    echo "no $UNIT: the service is not installed"
    remove_dropin
fi
if [ -e "$config" ]; then
    # Compared with the example it was installed from, else with this checkout's.
    if cmp -s "$config" "$SHARE/config.example.toml" || cmp -s "$config" "$SRC/config.example.toml"; then
        run rm -f "$config"
        # Only if empty: anything else someone put there stays.
        run rmdir --ignore-fail-on-non-empty "$CONFIG_DIR"
    else
        echo "keeping $config: it was changed from the example (your settings)"
    fi
fi

link=$ROOT/usr/local/bin/$APP
if [ -L "$link" ]; then
    run rm -f "$link"
fi
if [ -L "$VENV" ]; then
    run rm -f "$VENV"
elif [ -d "$VENV" ]; then
    run rm -rf "$VENV"
fi
# Every version install.sh kept (the one in service and the previous one).
if [ -d "$VENV-versions" ]; then
    run rm -rf "$VENV-versions"
fi

if grep -q "^$SERVICE_USER:" "$ROOT/etc/passwd" 2>/dev/null; then
    # Also removes its own group (useradd --user-group made it), not gpio, i2c or spi.
    run userdel "$SERVICE_USER"
fi

if [ -d "$ROOT$state_dir" ]; then
    echo "kept the saved games in $ROOT$state_dir${uid:+: they now belong to uid $uid, which no user has}"
    echo "    (a new install takes them over); to delete them: sudo rm -rf $ROOT$state_dir"
fi
if [ "$mode" = dry-run ]; then
    echo "dry run: nothing was changed"
fi
