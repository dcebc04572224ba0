#!/bin/sh
# Install the Codenames table on a Raspberry Pi (Raspberry Pi OS Bookworm or Trixie), as root:
# `sudo make install` from a checkout. Running it again updates the installed table.
#
#   systemd/install.sh            check, then install and (re)start the service
#   systemd/install.sh --check    name the LED backend this Pi will use, and only report what
#                                 is missing (system packages, I2C, SPI, groups, the config.txt
#                                 lines for the model and backend (SPI, I2C speed, a fixed core
#                                 clock), a state folder that would not survive a reboot, a
#                                 config the installed table refuses) and whether the SD card is
#                                 protected; exit 1 if anything is missing, else 0
#   systemd/install.sh --dry-run  check, then print the commands an install would run
#   systemd/install.sh --when-idle MINUTES
#                                 install, but switch to the new version and restart only once
#                                 no game is in play (`codenames-table update --wait-idle`): what
#                                 `codenames-table update SOURCE` runs
#
# What it installs: the system packages the LED backend's extra needs (apt-get), the system user
# codenames-table (no home, no login, in gpio, i2c and spi), a virtual environment with the
# project and the hardware extra of this Pi's LED backend (`pi-spi` or `pi-ws281x`) at the
# versions of systemd/pi-constraints.txt (and the command linked into /usr/local/bin), the unit in
# /etc/systemd/system, and /etc/codenames-table/config.toml from config.example.toml when there is
# none yet. It restarts the service only once the new version accepts the config.
#
# Each version is a virtual environment of its own, /opt/codenames-table-versions/VERSION-TIME;
# /opt/codenames-table links to the one in service and /opt/codenames-table-versions/previous to
# the one before (`codenames-table update --previous` goes back to it); older ones are removed.
# A new version that does not start is switched back at once.
#
# The saved games live in the config's [table] state_dir: by default /var/lib/codenames-table
# (the unit's StateDirectory=); any other folder gets a ReadWritePaths= drop-in. It must be on
# persistent storage, not in RAM. uninstall.sh keeps them.
#
# CODENAMES_TABLE_ROOT=DIR makes DIR stand for / in every path (the tests check a fake Pi
# that way); it is refused for a real install.
set -eu

APP=codenames-table
SERVICE_USER=codenames-table
NEEDED_GROUPS="gpio i2c spi"
# What a fresh 64-bit Raspberry Pi OS (Bookworm or Trixie) lacks to install the hardware extra:
# python3-venv brings ensurepip. Every package of the `pi-spi` extra has an aarch64 wheel for
# Python 3.11 and 3.13 (lgpio's own up to 3.12, adafruit-lgpio's from 3.13); rpi-ws281x
# publishes none, so the `ws281x` backend has pip compile it against Python.h. `make
# pi-userland-all` shows these lists are enough, on both releases.
APT_PACKAGES="python3-venv"
APT_BUILD_PACKAGES="python3-dev gcc libc6-dev"
DEFAULT_STATE_DIR=/var/lib/$APP
ROOT=${CODENAMES_TABLE_ROOT:-}
VENV=$ROOT/opt/$APP
VERSIONS=$ROOT/opt/$APP-versions
CONFIG_DIR=$ROOT/etc/$APP
UNIT_DIR=$ROOT/etc/systemd/system
DROPIN=$UNIT_DIR/$APP.service.d/state-dir.conf
FLEET_DROPIN=$UNIT_DIR/$APP.service.d/fleet.conf
SRC=$(cd "$(dirname "$0")/.." && pwd)
# The exact versions `make test` and `make pi-userland` ran against (how to refresh: its header).
CONSTRAINTS=$SRC/systemd/pi-constraints.txt

mode=install
wait_minutes=""
case ${1:-} in
    "") ;;
    --check) mode=check ;;
    --dry-run) mode=dry-run ;;
    --when-idle)
        wait_minutes=${2:-}
        case $wait_minutes in
            "" | *[!0-9.]*)
                echo "usage: $0 --when-idle MINUTES" >&2
                exit 2
                ;;
        esac
        ;;
    -h | --help)
        sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "usage: $0 [--check | --dry-run | --when-idle MINUTES]" >&2
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

pi_model() { # the device tree's model string, nothing when there is none
    if [ -r "$ROOT/proc/device-tree/model" ]; then
        tr -d '\000' <"$ROOT/proc/device-tree/model"
    fi
}

check_pi() {
    model=$(pi_model)
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
    if python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        ok "$(python3 --version)"
    else
        problem "python3 3.11 or later" "flash Raspberry Pi OS Lite (Bookworm or later)"
        fatal=$((fatal + 1))
    fi
}

model_led_backend() { # MODEL: the LED backend of `backend = "auto"` on this model
    # The same mapping as the firmware's LED backend choice (keep the two in step): rpi-ws281x
    # knows the Pi 3, 4, 400, CM3, CM4 and Zero 2; the Pi 5 family (5, 500, CM5), which it does not
    # know, and any other model get neopixel-spi.
    case $1 in
        *"Raspberry Pi 5"* | *"Compute Module 5"*) echo spi ;;
        *"Raspberry Pi 3"* | *"Raspberry Pi 4"* | *"Compute Module 3"* | *"Compute Module 4"* | *"Zero 2"*)
            echo ws281x
            ;;
        *) echo spi ;;
    esac
}

config_led_backend() { # the config's [pins.led] backend; nothing when it has none or "auto"
    python3 - "$(config_file)" <<'PY'
import sys, tomllib
try:
    with open(sys.argv[1], "rb") as file:
        led = tomllib.load(file).get("pins", {}).get("led", {})
except (OSError, ValueError, AttributeError):
    led = {}  # the config's own check names what is wrong with it
if isinstance(led, dict) and led.get("backend") in ("ws281x", "spi", "virtual"):
    print(led["backend"])
PY
}

check_led_backend() { # sets led_backend and extra: what drives the LED key, what pip installs
    model=$(pi_model)
    led_backend=$(config_led_backend)
    why="[pins.led] backend in $(config_file)"
    if [ "$led_backend" = ws281x ] && [ "$(model_led_backend "$model")" = spi ] &&
        [ -n "$model" ]; then
        problem "[pins.led] backend = \"ws281x\" cannot drive the LED key of a ${model% Rev *}: rpi-ws281x does not know this model" \
            "set backend = \"spi\" (or \"auto\") under [pins.led] in $(config_file), or delete the line"
        led_backend=spi
        why="the one that works on this model"
    fi
    if [ -z "$led_backend" ]; then
        led_backend=$(model_led_backend "$model")
        why="the default for ${model:-a model it does not know}"
    fi
    case $led_backend in
        ws281x) extra=pi-ws281x library=rpi-ws281x ;;
        spi) extra=pi-spi library=neopixel-spi ;;
        *) extra=pi-base library="no library, a virtual strip" ;;
    esac
    ok "LED key: the $led_backend backend ($library), $why"
}

package_installed() { # PACKAGE: dpkg's status file says it is installed
    awk -v p="$1" '
        /^Package: / { name = $2 }
        /^Status: / && name == p && $NF == "installed" { found = 1 }
        END { exit !found }' "$ROOT/var/lib/dpkg/status" 2>/dev/null
}

check_packages() { # sets missing_apt
    missing_apt=""
    needed=$APT_PACKAGES
    if [ "$led_backend" = ws281x ]; then
        needed="$needed $APT_BUILD_PACKAGES"
    fi
    for package in $needed; do
        if ! package_installed "$package"; then
            missing_apt="$missing_apt $package"
        fi
    done
    missing_apt=${missing_apt# }
    if [ -z "$missing_apt" ]; then
        ok "system packages: $needed"
    else
        # Not fatal: the install installs them first.
        problem "system packages the $extra extra needs: $missing_apt" \
            "sudo apt-get install $missing_apt (make install does it)"
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

model_filters() { # MODEL: the config.txt model sections ([pi4] and so on) that apply to it
    case $1 in
        *"Raspberry Pi 400"*) echo "pi4 pi400" ;;
        *"Compute Module 4"*) echo "pi4 cm4" ;;
        *"Raspberry Pi 4"*) echo "pi4" ;;
        *"Raspberry Pi 500"*) echo "pi5 pi500" ;;
        *"Compute Module 5"*) echo "pi5 cm5" ;;
        *"Raspberry Pi 5"*) echo "pi5" ;;
        *"Zero 2"*) echo "pi0 pi02" ;;
        *"Raspberry Pi 3"*"Plus"*) echo "pi3 pi3+" ;;
        *"Raspberry Pi 3"* | *"Compute Module 3"*) echo "pi3" ;;
        *"Raspberry Pi Zero"*) echo "pi0" ;;
        *) echo "" ;;
    esac
}

boot_settings() { # FILE FILTERS: every setting that applies to this model, as key=value lines
    # As the firmware reads it: [all] applies to every model, a model section ([pi4], [pi02],
    # ...) only to its models, [none] to none; a section under any other condition (HDMI, EDID,
    # GPIO) cannot be judged from here, so its lines do not count. dtparam lines come out as
    # dtparam:NAME=VALUE, one per parameter; a later line wins.
    awk -v filters=" $2 " '
        { sub(/#.*/, ""); gsub(/^[ \t]+|[ \t\r]+$/, "") }
        $0 == "" { next }
        /^\[.*\]$/ {
            name = tolower(substr($0, 2, length($0) - 2))
            if (name == "all") applies = 1
            else if (name == "none") applies = 0
            else if (name ~ /^(pi[0-9]|cm[0-9])/) applies = index(filters, " " name " ") > 0
            else applies = 0
            next
        }
        !applies { next }
        {
            eq = index($0, "=")
            if (eq == 0) next
            key = substr($0, 1, eq - 1)
            value = substr($0, eq + 1)
            if (key != "dtparam") { print key "=" value; next }
            n = split(value, params, ",")
            for (i = 1; i <= n; i++) {
                if (index(params[i], "=") == 0) params[i] = params[i] "=on"
                print "dtparam:" params[i]
            }
        }
        BEGIN { applies = 1 }' "$1"
}

setting() { # NAME: the last value of NAME in $settings (empty when unset)
    printf '%s\n' "$settings" | sed -n "s/^$1=//p" | tail -n 1
}

need_setting() { # NAME VALUE SECTION WHY: report NAME unless it is VALUE in $boot_file
    have=$(setting "$1")
    line=$1=$2
    case $1 in dtparam:*) line=dtparam=${1#dtparam:}=$2 ;; esac
    if [ "$have" = "$2" ]; then
        ok "config.txt: $line"
        return
    fi
    if [ -z "$have" ]; then
        what="config.txt has no $line for this $short_model: $4"
    else
        what="config.txt sets ${1#dtparam:} to $have where this $short_model needs $line: $4"
    fi
    problem "$what" \
        "printf '[$3]\\n$line\\n[all]\\n' | sudo tee -a ${boot_file#"$ROOT"}, then reboot (see hardware/README.md)"
}

check_boot_config() { # the config.txt lines hardware/README.md calls necessary, per model
    boot_file=""
    for candidate in /boot/firmware/config.txt /boot/config.txt; do
        if [ -r "$ROOT$candidate" ]; then
            boot_file=$ROOT$candidate
            break
        fi
    done
    if [ -z "$boot_file" ]; then
        problem "no /boot/firmware/config.txt or /boot/config.txt: cannot check the I2C speed and the core clock" \
            "add the lines of hardware/README.md (Raspberry Pi configuration) to the boot partition's config.txt"
        return
    fi
    model=$(pi_model)
    filters=$(model_filters "$model")
    short_model=${model% Rev *}
    short_model=${short_model:-Pi}
    settings=$(boot_settings "$boot_file" "$filters")
    if [ -n "$(setting dtparam:i2c_baudrate)" ] && [ -z "$(setting dtparam:i2c_arm_baudrate)" ]; then
        settings="$settings
dtparam:i2c_arm_baudrate=$(setting dtparam:i2c_baudrate)"
    fi
    need_setting dtparam:i2c_arm_baudrate 400000 all "a full OLED frame is slow at the default 100 kHz"
    if [ "$led_backend" = virtual ]; then
        return
    fi
    # Both LED backends send the key's data on SPI0 MOSI (GPIO 10): rpi-ws281x in its SPI mode,
    # neopixel-spi through spidev.
    need_setting dtparam:spi on all "the $led_backend LED backend sends the key's data on SPI0"
    case " $filters " in
        *" pi4 "*)
            need_setting core_freq 500 pi4 "the SPI clock of the LED key follows the core clock"
            need_setting core_freq_min 500 pi4 "idle frequency scaling moves the SPI clock and corrupts the LED colours"
            ;;
        *" pi3 "* | *" pi02 "*)
            section=pi3
            case " $filters " in *" pi02 "*) section=pi02 ;; esac
            need_setting core_freq 250 "$section" "the SPI clock of the LED key follows the core clock; without it the LED colours are corrupted"
            ;;
    esac
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

mount_of() { # PATH: sets m_point m_type m_options m_source of the mount that holds PATH
    # The longest mount point that is PATH or a folder above it; of equals, the later one (it is
    # mounted over the earlier).
    found=$(awk -v p="$1" '
        $2 == "/" || $2 == p || index(p, $2 "/") == 1 {
            if (length($2) >= best) { best = length($2); found = $2 " " $3 " " $4 " " $1 }
        }
        END { if (found == "") exit 1; print found }' "$ROOT/proc/mounts" 2>/dev/null) || return 1
    read -r m_point m_type m_options m_source <<EOF
$found
EOF
}

has_option() { # OPTIONS OPTION: the comma-separated mount options include OPTION
    case ",$1," in *",$2,"*) return 0 ;; *) return 1 ;; esac
}

config_file() { # the config the table will read: the installed one, else the example
    if [ -e "$CONFIG_DIR/config.toml" ]; then
        echo "$CONFIG_DIR/config.toml"
    else
        echo "$SRC/config.example.toml"
    fi
}

check_protection() { # is the SD card protected from power cuts (raspi-config's overlay)?
    if ! mount_of /; then
        note "cannot read /proc/mounts: cannot tell whether the root file system is protected"
        return
    fi
    if [ "$m_type" = overlay ]; then
        ok "protected: the root file system is a read-only overlay (changes to it live in RAM)"
        if [ "$mode" != check ]; then
            # Anything installed now would be gone at the next boot.
            problem "the read-only overlay is on: an install would vanish at the next boot" \
                "turn it off (sudo raspi-config, Performance Options, Overlay File System: No), reboot, install, then turn it on again: hardware/README.md, The SD card"
            fatal=$((fatal + 1))
        fi
    else
        note "not protected: the root file system ($m_source, $m_type) is written in place, and power cuts wear it; hardware/README.md (The SD card) says how to make it read-only"
    fi
}

check_state_dir() { # sets state_dir; is it somewhere the games survive a reboot?
    config=$(config_file)
    if ! state_dir=$(python3 "$SRC/systemd/state_dir.py" "$config" 2>&1); then
        problem "cannot tell where the games are saved: $state_dir" "fix $config, then check again"
        fatal=$((fatal + 1))
        state_dir=""
        return
    fi
    case $state_dir in
        /tmp | /tmp/* | /var/tmp | /var/tmp/* | /run | /run/* | /dev/shm | /dev/shm/*)
            problem "state_dir $state_dir is emptied at boot: the saved games would be lost" \
                "set [table] state_dir in $config to a folder on the SD card, e.g. $DEFAULT_STATE_DIR"
            fatal=$((fatal + 1))
            return
            ;;
        /home | /home/* | /root | /root/*)
            problem "state_dir $state_dir is in a home folder, which the service cannot see (ProtectHome=yes)" \
                "set [table] state_dir in $config to $DEFAULT_STATE_DIR or a partition of its own, e.g. /data/$APP"
            fatal=$((fatal + 1))
            return
            ;;
        /*) ;;
        *)
            problem "state_dir $state_dir is not an absolute path" \
                "set [table] state_dir in $config to an absolute path, e.g. $DEFAULT_STATE_DIR"
            fatal=$((fatal + 1))
            return
            ;;
    esac
    if ! mount_of "$state_dir"; then
        note "cannot read /proc/mounts: cannot tell whether $state_dir is on persistent storage"
        return
    fi
    case $m_type in
        tmpfs | ramfs)
            problem "the saved games in $state_dir would be in RAM ($m_type on $m_point) and lost at every power-off" \
                "set [table] state_dir in $config to a folder on the SD card"
            fatal=$((fatal + 1))
            ;;
        overlay)
            problem "the saved games in $state_dir would be in the overlay's RAM ($m_point) and lost at every power-off" \
                "give them a partition of their own, mounted outside the overlay (overlayroot=tmpfs:recurse=0): hardware/README.md, The SD card"
            fatal=$((fatal + 1))
            ;;
        *)
            if has_option "$m_options" ro; then
                problem "$state_dir is on a read-only mount ($m_source on $m_point): nothing can be saved" \
                    "mount $m_point read-write (its line in /etc/fstab)"
            else
                ok "saved games in $state_dir: persistent ($m_source, $m_type, on $m_point)"
            fi
            ;;
    esac
}

config_verdict() { # [VENV]: sets verdict: that version's own check of the config ("" if none)
    verdict=""
    command=${1:-$VENV}/bin/$APP
    config=$CONFIG_DIR/config.toml
    [ -x "$command" ] && [ -e "$config" ] || return 0
    # The firmware's own rules (unknown keys, ranges, pins, the state folder) decide: it exits
    # 0 for a good config and 2 with a one-line message otherwise; it needs no Pi.
    if output=$("$command" run --check-config --config "$config" 2>&1); then
        verdict=ok
    else
        verdict="exit $?: $(printf '%s' "$output" | tail -n 1)"
    fi
}

check_config() {
    config_verdict
    case $verdict in
        "") ;;
        ok) ok "the installed table accepts $CONFIG_DIR/config.toml" ;;
        *) problem "the installed table refuses $CONFIG_DIR/config.toml ($verdict)" \
            "fix the file, then: sudo $APP run --check-config" ;;
    esac
}

check_all() {
    check_root
    check_pi
    check_os
    check_python
    check_led_backend
    check_packages
    check_devices
    check_boot_config
    check_groups
    check_protection
    check_state_dir
    if [ "$mode" = check ]; then
        check_config
    fi
}

install_packages() {
    if [ -n "$missing_apt" ]; then
        run apt-get update
        # shellcheck disable=SC2086 # one word per package
        run env DEBIAN_FRONTEND=noninteractive apt-get install --yes --no-install-recommends \
            $missing_apt
    fi
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
        # --dereference: firmware/drivers/pinout.toml is a link to hardware/pinout.toml, not copied.
        tar -C "$SRC" --dereference --exclude=__pycache__ -cf - \
            pyproject.toml README.md board_rules firmware | tar -C "$build" -xf -
    else
        build=/tmp/codenames-table.XXXXXX
        printf '+ %s\n' "(copy pyproject.toml README.md board_rules firmware from $SRC to $build)"
    fi
    # A folder of its own for this version: the one in service plays on meanwhile.
    version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$SRC/pyproject.toml")
    NEW=$VERSIONS/${version:-unknown}-$(date -u +%Y%m%dT%H%M%S)
    SHARE=$NEW/share/$APP
    run install -d -m 0755 "$VERSIONS"
    run python3 -m venv "$NEW"
    # The constraints pin every package, the project's own dependencies included, so that two
    # tables installed a month apart run the same code. Raspberry Pi OS's /etc/pip.conf adds
    # piwheels, whose wheels are for 32-bit systems only: on 64-bit, what has no aarch64 wheel is
    # compiled with the packages of install_packages.
    run "$NEW/bin/pip" install --disable-pip-version-check --no-cache-dir --upgrade \
        --constraint "$CONSTRAINTS" "${build}[$extra]"
    # Staff type `codenames-table selftest` or `stats` without the venv's path.
    run ln -sfn "/opt/$APP/bin/$APP" "$ROOT/usr/local/bin/$APP"
    run install -d -m 0755 "$SHARE"
    # The example as installed: uninstall.sh removes the config only while it is unchanged.
    run install -m 0644 "$SRC/config.example.toml" "$SHARE/config.example.toml"
    # Its unit as shipped: `codenames-table update --previous` puts it back with this version.
    run install -m 0644 "$SRC/systemd/$APP.service" "$SHARE/$APP.service"
}

install_config() {
    run install -d -m 0755 "$CONFIG_DIR"
    if [ -e "$CONFIG_DIR/config.toml" ]; then
        note "keeping $CONFIG_DIR/config.toml"
    else
        run install -m 0644 "$SRC/config.example.toml" "$CONFIG_DIR/config.toml"
    fi
}

write_file() { # PATH: write standard input to PATH (0644), or only show it in a dry run
    printf '+ (write %s)\n' "$1"
    if [ "$mode" = install ]; then
        cat >"$1"
        chmod 0644 "$1"
    else
        sed 's/^/    /'
    fi
}

install_state_dir() {
    [ -n "$state_dir" ] || return 0 # unknown: a dry run that already said why
    if [ "$state_dir" = "$DEFAULT_STATE_DIR" ]; then
        # The unit's StateDirectory= makes this one, owned by the service user.
        if [ -e "$DROPIN" ]; then
            run rm -f "$DROPIN"
            run rmdir --ignore-fail-on-non-empty "$(dirname "$DROPIN")"
        fi
        return
    fi
    # Another folder (a partition of its own under a read-only root): made here, handed to the
    # service user (again after a reinstall, whose new user has a new uid), and made writable
    # through ProtectSystem=strict.
    run install -d -m 0700 "$ROOT$state_dir"
    run chown -R "$SERVICE_USER:$SERVICE_USER" "$ROOT$state_dir"
    run install -d -m 0755 "$(dirname "$DROPIN")"
    write_file "$DROPIN" <<EOF
# Written by install.sh: [table] state_dir in /etc/$APP/config.toml is not the unit's
# StateDirectory=, so the service needs write access to it.
[Service]
ReadWritePaths=$state_dir
EOF
}

fleet_broker() { # print the [fleet] broker's "host port" of the config, nothing without [fleet]
    python3 - "$(config_file)" <<'PY'
import re, sys, tomllib
try:
    with open(sys.argv[1], "rb") as file:
        fleet = tomllib.load(file).get("fleet")
except (OSError, ValueError):
    fleet = None  # the config's own check names what is wrong with it
if isinstance(fleet, dict) and isinstance(fleet.get("broker"), str):
    m = re.fullmatch(r"(mqtts?)://\[?([^\]/\s]+?)\]?(?::(\d+))?", fleet["broker"])
    if m:
        print(m[2], m[3] or (8883 if m[1] == "mqtts" else 1883))
PY
}

install_fleet() { # the network the fleet needs, and no more; none without [fleet]
    broker=$(fleet_broker)
    if [ -z "$broker" ]; then
        if [ -e "$FLEET_DROPIN" ]; then
            run rm -f "$FLEET_DROPIN"
            run rmdir --ignore-fail-on-non-empty "$(dirname "$FLEET_DROPIN")"
        fi
        return
    fi
    host=${broker% *}
    # The broker's addresses now (install again when they change); localhost for the resolver.
    addresses=$(getent ahosts "$host" 2>/dev/null | awk '{ print $1 }' | sort -u | tr '\n' ' ')
    if [ -z "$addresses" ]; then
        note "the fleet's broker $host does not resolve now: the table will play offline"
    fi
    # The password reaches the service as a credential, never through the config.
    credential=""
    if [ -e "$CONFIG_DIR/mqtt-password" ]; then
        credential="LoadCredential=mqtt:/etc/$APP/mqtt-password"
    fi
    run install -d -m 0755 "$(dirname "$FLEET_DROPIN")"
    write_file "$FLEET_DROPIN" <<EOF
# Written by install.sh: [fleet] in /etc/$APP/config.toml reports to the broker $host; the
# service may reach it (and the local resolver) over IP, and nothing else.
[Service]
PrivateNetwork=no
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6
IPAddressDeny=any
IPAddressAllow=localhost ${addresses}
$credential
EOF
}

verify_config() { # refuse to restart onto a config the new version would refuse
    # The new version's check; a dry run, which builds none, asks the installed one.
    checker=$NEW
    [ -x "$checker/bin/$APP" ] || checker=$VENV
    printf '+ %s\n' "${checker#"$ROOT"}/bin/$APP run --check-config --config /etc/$APP/config.toml"
    config_verdict "$checker"
    case $verdict in
        "" | ok) ;;
        *)
            echo "== Not restarting: the new version refuses $CONFIG_DIR/config.toml ($verdict)." >&2
            echo "   The running table was left as it is; after a crash or a reboot it would stop" >&2
            echo "   on this config. Fix the file, check it with" >&2
            echo "   sudo $APP run --check-config, then run sudo make install again." >&2
            exit 1
            ;;
    esac
}

wait_until_idle() { # with --when-idle: no game in play, as the new version reads the store
    [ -n "$wait_minutes" ] || return 0
    echo "== Waiting until no game is in play (the new version is ready)"
    run "$NEW/bin/$APP" update --wait-idle --idle-minutes "$wait_minutes"
}

point() { # LINK TARGET: LINK names TARGET, replaced in one step
    run ln -sfn "$2" "$1.partial"
    run mv -Tf "$1.partial" "$1"
}

switch_version() { # the new version in service, the one it replaces kept as previous
    old=""
    if [ -L "$VENV" ]; then
        old=$(readlink "$VENV")
    elif [ -d "$VENV" ]; then
        # A version installed in place before versions had folders: it cannot move (a virtual
        # environment names its own path), so there is no previous version this once.
        run rm -rf "$VENV"
    fi
    if [ -n "$old" ] && [ -d "$ROOT$old" ]; then
        point "$VERSIONS/previous" "$old"
    fi
    point "$VENV" "${NEW#"$ROOT"}"
    # Only the version in service and the previous one are kept.
    keep_previous=$(readlink "$VERSIONS/previous" 2>/dev/null || true)
    for folder in "$VERSIONS"/*; do
        if [ -L "$folder" ] || [ ! -d "$folder" ]; then
            continue
        fi
        case ${folder#"$ROOT"} in
            "${NEW#"$ROOT"}" | "$keep_previous") ;;
            *) run rm -rf "$folder" ;;
        esac
    done
}

switch_back() { # the new version did not start: the previous one in service again
    previous=$(readlink "$VERSIONS/previous" 2>/dev/null || true)
    [ -n "$previous" ] && [ "$mode" = install ] || return 1
    echo "== The new version did not start: back to $previous" >&2
    point "$VENV" "$previous"
    run systemctl restart "$APP"
}

install_unit() {
    run install -m 0644 "$SRC/systemd/$APP.service" "$UNIT_DIR/$APP.service"
    run systemctl daemon-reload
    run systemctl enable "$APP"
    # restart, not `enable --now`: an update must replace the running table, and a first
    # install starts it the same way. Type=notify: this waits for READY=1, or fails.
    if ! run systemctl restart "$APP"; then
        echo "the service did not start: journalctl -u $APP -n 50 says why" >&2
        switch_back || true
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
install_packages
install_user
install_venv
install_config
verify_config
wait_until_idle
switch_version
install_state_dir
install_fleet
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
