#!/bin/sh
# Install the Codenames table on a Raspberry Pi (Raspberry Pi OS Bookworm or later), as root:
# `sudo make install` from a checkout. Running it again updates the installed table.
#
#   systemd/install.sh            check, then install and (re)start the service
#   systemd/install.sh --check    only report what is missing (I2C, SPI, groups, ...); exit 1 if
#                                 anything is, 0 if the table can be installed and run
#   systemd/install.sh --dry-run  check, then print the commands an install would run
#
# What it installs: the system user codenames-table (no home, no login, in gpio, i2c and spi),
# a virtual environment in /opt/codenames-table with the project and its `pi` extra (and the
# command linked into /usr/local/bin), the unit in /etc/systemd/system, and /etc/codenames-table/config.toml from config.example.toml when
# there is none yet. The saved games live in /var/lib/codenames-table (the unit's
# StateDirectory=); uninstall.sh keeps them.
#
# CODENAMES_TABLE_ROOT=DIR makes DIR stand for / in every path (the tests check a fake Pi
# that way); it is refused for a real install.
set -eu

APP=codenames-table
SERVICE_USER=codenames-table
NEEDED_GROUPS="gpio i2c spi"
ROOT=${CODENAMES_TABLE_ROOT:-}
VENV=$ROOT/opt/$APP
SHARE=$VENV/share/$APP
CONFIG_DIR=$ROOT/etc/$APP
UNIT_DIR=$ROOT/etc/systemd/system
SRC=$(cd "$(dirname "$0")/.." && pwd)

mode=install
case ${1:-} in
    "") ;;
    --check) mode=check ;;
    --dry-run) mode=dry-run ;;
    -h | --help)
        sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "usage: $0 [--check | --dry-run]" >&2
        exit 2
        ;;
esac
if [ "$mode" = install ] && [ -n "$ROOT" ]; then
    echo "CODENAMES_TABLE_ROOT is for --check and --dry-run only; unset it to install" >&2
    exit 2
fi

missing=0 # problems that keep a part of the table from working
fatal=0   # problems that keep the install from running at all

problem() { # WHAT FIX...: report something missing and how to fix it
    missing=$((missing + 1))
    printf 'MISSING: %s\n' "$1"
    shift
    for fix in "$@"; do
        printf '    fix: %s\n' "$fix"
    done
}

ok() { printf 'ok: %s\n' "$*"; }
note() { printf 'note: %s\n' "$*"; }

run() { # COMMAND...: run it, or only show it in a dry run
    printf '+ %s\n' "$*"
    if [ "$mode" = install ]; then
        "$@"
    fi
}

group_exists() { grep -q "^$1:" "$ROOT/etc/group" 2>/dev/null; }
user_exists() { grep -q "^$1:" "$ROOT/etc/passwd" 2>/dev/null; }

user_in_group() { # USER GROUP: as a supplementary member or by its primary group
    gid=$(awk -F: -v g="$2" '$1 == g { print $3 }' "$ROOT/etc/group")
    awk -F: -v u="$1" -v gid="$gid" '$1 == u && $4 == gid { found = 1 } END { exit !found }' \
        "$ROOT/etc/passwd" && return 0
    awk -F: -v g="$2" -v u="$1" '
        $1 == g { n = split($4, members, ","); for (i = 1; i <= n; i++) if (members[i] == u) found = 1 }
        END { exit !found }' "$ROOT/etc/group"
}

check_root() {
    if [ "$(id -u)" -eq 0 ]; then
        ok "running as root"
    else
        problem "not root: installing needs root" "sudo make install"
        fatal=$((fatal + 1))
    fi
}

check_pi() {
    model_file=$ROOT/proc/device-tree/model
    if [ -r "$model_file" ]; then
        model=$(tr -d '\000' <"$model_file")
    else
        model=""
    fi
    case $model in
        *"Raspberry Pi"*) ok "$model" ;;
        *)
            problem "not a Raspberry Pi (device tree model: ${model:-none})" \
                "the table runs on a Raspberry Pi; on a desktop: codenames-table sim --headless --script FILE"
            fatal=$((fatal + 1))
            ;;
    esac
}

check_os() {
    os_release=$ROOT/etc/os-release
    if [ ! -r "$os_release" ]; then
        note "no /etc/os-release: cannot tell whether this is Raspberry Pi OS Bookworm or later"
        return
    fi
    version=$(sed -n 's/^VERSION_ID="\{0,1\}\([0-9]*\).*/\1/p' "$os_release")
    name=$(sed -n 's/^PRETTY_NAME="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$os_release")
    if [ -n "$version" ] && [ "$version" -ge 12 ]; then
        ok "$name"
    else
        problem "Raspberry Pi OS Bookworm (Debian 12) or later is needed; this is ${name:-unknown}" \
            "flash Raspberry Pi OS Lite (Bookworm or later) with Raspberry Pi Imager"
        fatal=$((fatal + 1))
    fi
}

check_python() {
    # Debian ships venv and ensurepip apart from python3 itself (python3-venv).
    if python3 -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        ok "$(python3 --version) with venv"
    else
        problem "python3 3.11 or later with its venv module" "sudo apt install python3-venv"
        fatal=$((fatal + 1))
    fi
}

check_device() { # NODE GROUP WHAT WHEN-MISSING FIX...
    node=$1 group=$2 what=$3 when_missing=$4
    shift 4
    if [ ! -e "$ROOT$node" ]; then
        problem "$when_missing (no $node)" "$@"
        return
    fi
    # Only a real device node has an owner worth checking (a fake root holds plain files).
    if [ -c "$ROOT$node" ]; then
        owner=$(stat -c %G "$ROOT$node")
        if [ "$owner" != "$group" ]; then
            problem "$node belongs to group $owner, not $group: the service cannot open it" \
                "Raspberry Pi OS's udev rules set this; see /usr/lib/udev/rules.d/99-com.rules"
            return
        fi
    fi
    ok "$what: $node"
}

check_devices() {
    check_device /dev/i2c-1 i2c "I2C (the OLED)" "I2C is not enabled: the OLED stays dark" \
        "sudo raspi-config nonint do_i2c 0" \
        "or add dtparam=i2c_arm=on to /boot/firmware/config.txt (see hardware/README.md), then reboot"
    check_device /dev/spidev0.0 spi "SPI (the LED key)" "SPI is not enabled: the LED key stays dark" \
        "sudo raspi-config nonint do_spi 0" \
        "or add dtparam=spi=on to /boot/firmware/config.txt (see hardware/README.md), then reboot"
    check_device /dev/gpiochip0 gpio "GPIO (switches, encoder, buzzer)" "GPIO is not available: the switches cannot be read" \
        "update the kernel (sudo apt full-upgrade), then reboot"
}

check_groups() {
    for group in $NEEDED_GROUPS; do
        if ! group_exists "$group"; then
            problem "group $group does not exist" \
                "make install creates it, but Raspberry Pi OS's udev rules must give it $group devices"
        elif ! user_exists "$SERVICE_USER"; then
            : # reported once below
        elif user_in_group "$SERVICE_USER" "$group"; then
            ok "user $SERVICE_USER is in group $group"
        else
            problem "user $SERVICE_USER is not in group $group" \
                "sudo usermod -aG $group $SERVICE_USER (or run sudo make install again)"
        fi
    done
    if ! user_exists "$SERVICE_USER"; then
        note "user $SERVICE_USER does not exist yet: make install creates it"
    fi
}

check_all() {
    check_root
    check_pi
    check_os
    check_python
    check_devices
    check_groups
}

install_user() {
    for group in $NEEDED_GROUPS; do
        if ! group_exists "$group"; then
            run groupadd --system "$group"
        fi
    done
    groups=$(echo "$NEEDED_GROUPS" | tr ' ' ',')
    if user_exists "$SERVICE_USER"; then
        run usermod --append --groups "$groups" "$SERVICE_USER"
    else
        # A system user that nobody can log in as, with no home: the service is all it does.
        run useradd --system --user-group --no-create-home --home-dir /nonexistent \
            --shell /usr/sbin/nologin --comment "Codenames game table" \
            --groups "$groups" "$SERVICE_USER"
    fi
}

install_venv() {
    # Build from a copy: pip builds in the source tree, and root-owned build files would be
    # left in the checkout. The venv is root's, so the service cannot change its own code.
    if [ "$mode" = install ]; then
        build=$(mktemp -d)
        trap 'rm -rf "$build"' EXIT
        tar -C "$SRC" --exclude=__pycache__ -cf - pyproject.toml README.md board_rules firmware |
            tar -C "$build" -xf -
    else
        build=/tmp/codenames-table.XXXXXX
        printf '+ %s\n' "(copy pyproject.toml README.md board_rules firmware from $SRC to $build)"
    fi
    run python3 -m venv "$VENV"
    # Raspberry Pi OS's /etc/pip.conf adds piwheels, which has built wheels of the `pi` extra.
    run "$VENV/bin/pip" install --disable-pip-version-check --no-cache-dir --upgrade \
        "${build}[pi]"
    # Staff type `codenames-table selftest` or `stats` without the venv's path.
    run ln -sfn "/opt/$APP/bin/$APP" "$ROOT/usr/local/bin/$APP"
    run install -d -m 0755 "$SHARE"
    # The example as installed: uninstall.sh removes the config only while it is unchanged.
    run install -m 0644 "$SRC/config.example.toml" "$SHARE/config.example.toml"
}

install_config() {
    run install -d -m 0755 "$CONFIG_DIR"
    if [ -e "$CONFIG_DIR/config.toml" ]; then
        note "keeping $CONFIG_DIR/config.toml"
    else
        run install -m 0644 "$SRC/config.example.toml" "$CONFIG_DIR/config.toml"
    fi
}

install_unit() {
    run install -m 0644 "$SRC/systemd/$APP.service" "$UNIT_DIR/$APP.service"
    run systemctl daemon-reload
    run systemctl enable "$APP"
    # restart, not `enable --now`: an update must replace the running table, and a first
    # install starts it the same way. Type=notify: this waits for READY=1, or fails.
    if ! run systemctl restart "$APP"; then
        echo "the service did not start: journalctl -u $APP -n 50 says why" >&2
        exit 1
    fi
}

echo "== Checking this machine"
check_all
if [ "$mode" = check ]; then
    if [ "$missing" -gt 0 ]; then
        echo "== $missing thing(s) missing"
        exit 1
    fi
    echo "== Nothing missing"
    exit 0
fi
if [ "$fatal" -gt 0 ]; then
    echo "== Cannot install: fix what is MISSING above. Nothing was changed." >&2
    if [ "$mode" = install ]; then
        exit 1
    fi
fi

echo "== Installing"
install_user
install_venv
install_config
install_unit
if [ "$mode" = dry-run ]; then
    echo "== Dry run: nothing was changed"
    exit 0
fi

echo "== Checking again"
missing=0
check_devices
check_groups
if [ "$missing" -gt 0 ]; then
    echo "== Installed and started, but $missing thing(s) are MISSING above: the table plays" \
        "on without them. Fix them, reboot, and check: systemctl status $APP"
else
    echo "== Installed and started: systemctl status $APP, journalctl -u $APP"
fi
