#!/bin/sh
# `sudo make pi-userland`: run `sh systemd/install.sh` in an arm64 Debian root (Bookworm or
# Trixie) under qemu-user, as a fresh 64-bit Raspberry Pi OS of that release meets it on a Pi 4
# or a Pi 5, then import every hardware library of that Pi's LED backend from the venv it
# installed and run `codenames-table --help` there. Not part of `make test`: it installs (and on
# a Pi 4 compiles) under emulation for minutes. Needs root on a Debian or Ubuntu machine.
#
#   systemd/pi_userland.sh [--release bookworm|trixie] [--model pi4|pi5] [--refresh-constraints]
#
#   --release  the Debian release under Raspberry Pi OS: bookworm (Python 3.11, the default)
#              or trixie (Python 3.13)
#   --model    the Pi faked: pi4 (the ws281x LED backend: rpi-ws281x, compiled with the
#              packages install.sh adds; the default) or pi5 (the spi backend: neopixel-spi,
#              and no compiler may be installed)
#   --refresh-constraints  install with this checkout's .venv versions as the constraints, then
#              write what was installed into systemd/pi-constraints.txt (the pins of packages
#              this release and model do not install are kept)
#
# Each release's root (python3 and python3-venv only, as a fresh Raspberry Pi OS Lite has them)
# is built once with debootstrap and kept in the machine's root cache, $CODENAMES_ROOT_CACHE
# (default /var/cache/codenames-table), as pi-userland-RELEASE-arm64.tar: outside any checkout,
# so every clone on the machine reuses it. Every run unpacks a fresh copy into
# .cache/pi-userland/RELEASE-MODEL/root. PI_USERLAND_MIRROR=URL picks the Debian mirror (else
# debootstrap's).
#
# The Pi is faked just enough: /proc is a plain folder holding the device-tree model, the
# compatible string, cpuinfo and mounts (Blinka's board detection and install.sh read them);
# /dev holds the I2C, SPI and GPIO nodes as plain files; the gpio, i2c and spi groups exist; and
# systemctl only records its calls in /var/log/systemctl.calls.
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
ROOT_CACHE=${CODENAMES_ROOT_CACHE:-/var/cache/codenames-table}
INSIDE=/root/codenames-table
CONSTRAINTS=systemd/pi-constraints.txt
# Imported on every Pi; the LED backend's own library is added below.
LIBRARIES="lgpio board gpiod adafruit_ssd1306 gpiozero"

usage() {
    echo "usage: $0 [--release bookworm|trixie] [--model pi4|pi5] [--refresh-constraints]" >&2
    exit 2
}

refresh=no
release=bookworm
model=pi4
while [ $# -gt 0 ]; do
    case $1 in
        --refresh-constraints) refresh=yes ;;
        --release | --model)
            [ $# -ge 2 ] || usage
            if [ "$1" = --release ]; then release=$2; else model=$2; fi
            shift
            ;;
        *) usage ;;
    esac
    shift
done
case $release in bookworm | trixie) ;; *) usage ;; esac
case $model in
    pi4) led_library=rpi_ws281x other_library=neopixel_spi ;;
    pi5) led_library=neopixel_spi other_library=rpi_ws281x ;;
    *) usage ;;
esac
BASE=$ROOT_CACHE/pi-userland-$release-arm64.tar
CACHE=$SRC/.cache/pi-userland/$release-$model
ROOT=$CACHE/root

if [ "$(id -u)" -ne 0 ]; then
    echo "pi-userland needs root (debootstrap, chroot): sudo make pi-userland" >&2
    exit 2
fi

started=$(date +%s)
step() { printf '== %s (%ss)\n' "$*" "$(($(date +%s) - started))"; }

host_tools() {
    if ! command -v debootstrap >/dev/null || ! command -v qemu-aarch64-static >/dev/null ||
        ! command -v update-binfmts >/dev/null; then
        step "installing debootstrap, qemu-user-static and binfmt-support"
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install --yes debootstrap qemu-user-static \
            binfmt-support
    fi
    binfmt=/proc/sys/fs/binfmt_misc
    if [ ! -e "$binfmt/status" ]; then
        mount -t binfmt_misc binfmt_misc "$binfmt"
    fi
    if [ ! -e "$binfmt/qemu-aarch64" ]; then
        update-binfmts --enable qemu-aarch64
    fi
    if ! grep -q '^enabled' "$binfmt/qemu-aarch64"; then
        echo "binfmt_misc has qemu-aarch64 disabled: update-binfmts --enable qemu-aarch64" >&2
        exit 1
    fi
}

base_root() {
    if [ -e "$BASE" ]; then
        step "reusing $BASE"
        return
    fi
    step "debootstrap: arm64 Debian $release with python3 and python3-venv"
    building=$BASE.root.tmp
    rm -rf "$building"
    mkdir -p "$ROOT_CACHE"
    # shellcheck disable=SC2086 # no mirror given: debootstrap's default
    debootstrap --arch=arm64 --variant=minbase --include=python3,python3-venv "$release" \
        "$building" ${PI_USERLAND_MIRROR:-}
    tar -C "$building" -cf "$BASE.tmp" .
    mv "$BASE.tmp" "$BASE"
    rm -rf "$building"
}

fake_model() { # the device tree, cpuinfo and revision code of a Pi 4 Model B or a Pi 5 Model B
    proc=$ROOT/proc
    mkdir -p "$proc/device-tree/system"
    if [ "$model" = pi5 ]; then
        name="Raspberry Pi 5 Model B Rev 1.0"
        printf 'raspberrypi,5-model-b\0brcm,bcm2712\0' >"$proc/device-tree/compatible"
        # c04170: a Pi 5 Model B 4 GB, Rev 1.0; the device tree holds it big-endian.
        printf '\000\300\101\160' >"$proc/device-tree/system/linux,revision"
        revision=c04170 part=0xd0b hardware=""
    else
        name="Raspberry Pi 4 Model B Rev 1.5"
        printf 'raspberrypi,4-model-b\0brcm,bcm2711\0' >"$proc/device-tree/compatible"
        printf '\000\303\061\025' >"$proc/device-tree/system/linux,revision"
        revision=c03115 part=0xd08 hardware="Hardware	: BCM2835"
    fi
    printf '%s\0' "$name" >"$proc/device-tree/model"
    # The Pi 5's kernel prints no Hardware line.
    cat >"$proc/cpuinfo" <<EOF
processor	: 0
BogoMIPS	: 108.00
Features	: fp asimd evtstrm crc32 cpuid
CPU implementer	: 0x41
CPU part	: $part

$hardware
Revision	: $revision
Serial		: 10000000deadbeef
Model		: $name
EOF
}

fake_pi() {
    step "a fresh root in $ROOT, faking a $model on $release"
    rm -rf "$ROOT"
    mkdir -p "$ROOT"
    tar -C "$ROOT" -xf "$BASE"
    # Without the F flag the kernel looks for the interpreter inside the root.
    interpreter=$(sed -n 's/^interpreter //p' /proc/sys/fs/binfmt_misc/qemu-aarch64)
    if ! grep -q '^flags:.*F' /proc/sys/fs/binfmt_misc/qemu-aarch64; then
        mkdir -p "$ROOT$(dirname "$interpreter")"
        cp -L "$interpreter" "$ROOT$interpreter"
    fi
    cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
    # A network that inspects TLS has its own certificate authority, which the host's pip is
    # told about (PIP_CERT or /etc/pip.conf); pip in the root is told the same.
    host_cert=${PIP_CERT:-$(sed -n 's/^cert *= *//p' /etc/pip.conf 2>/dev/null | head -n 1)}
    if [ -n "$host_cert" ] && [ -r "$host_cert" ]; then
        cp -L "$host_cert" "$ROOT/etc/ssl/pi-userland-host-ca.crt"
    fi

    fake_model
    cat >"$ROOT/proc/mounts" <<'EOF'
/dev/mmcblk0p2 / ext4 rw,noatime 0 0
/dev/mmcblk0p1 /boot/firmware vfat rw,relatime 0 0
EOF
    for node in gpiochip0 gpiomem i2c-1 spidev0.0; do
        touch "$ROOT/dev/$node"
    done
    for group in gpio i2c spi; do
        chroot "$ROOT" groupadd --system "$group"
    done
    cat >"$ROOT/usr/local/sbin/systemctl" <<'EOF'
#!/bin/sh
echo "$*" >>/var/log/systemctl.calls
EOF
    chmod 0755 "$ROOT/usr/local/sbin/systemctl"

    mkdir -p "$ROOT$INSIDE"
    # The work tree as it is (tracked and new files), not only what is committed.
    (cd "$SRC" && git ls-files --cached --others --exclude-standard -z |
        xargs -0 tar -cf - --no-recursion) | tar -C "$ROOT$INSIDE" -xf -
}

inside() { # COMMAND...: run in the root, with a clean environment
    cert=/etc/ssl/pi-userland-host-ca.crt
    if [ -e "$ROOT$cert" ]; then
        set -- "PIP_CERT=$cert" "$@"
    fi
    chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

dev_versions() { # this checkout's .venv, but for the project itself
    "$SRC/.venv/bin/pip" freeze --exclude-editable | grep -v '^#'
}

write_constraints() { # this run's versions, over the pins of the file for everything else
    inside /opt/codenames-table/bin/pip freeze --disable-pip-version-check \
        --exclude codenames-table >"$CACHE/installed.txt"
    {
        cat <<'EOF'
# Every package of the table's `pi` install, at the versions `make test` and `make pi-userland`
# ran against: systemd/install.sh passes this file to pip (--constraint), so two tables installed
# a month apart run the same code. The packages the desktop shares are the development .venv's,
# the Pi-only ones what pip chose for aarch64 and Python 3.11 (Debian Bookworm) and 3.13 (Debian
# Trixie): one file for both, as a pin of a package a release does not install is ignored there.
#
# To refresh: upgrade .venv (`.venv/bin/pip install --upgrade -e '.[test]'`), run `make test`,
# then `sudo make pi-userland PI_USERLAND_ARGS=--refresh-constraints` with each PI_RELEASE and
# PI_MODEL (bookworm pi4, trixie pi5, trixie pi4): each installs the table in the arm64 root with
# .venv's versions, writes here what was installed (keeping the other pins), and checks the
# imports. Commit this file with the README's pi-userland result.
EOF
        # A name is compared as pip does: case, "-", "_" and "." alike.
        awk -F'==' '
            function key(name) { name = tolower(name); gsub(/[-_.]+/, "-", name); return name }
            FNR == NR { fresh[key($1)] = 1; print; next }
            /^#/ || NF == 0 { next }
            !(key($1) in fresh) { print }' "$CACHE/installed.txt" "$SRC/$CONSTRAINTS" |
            LC_ALL=C sort -f
    } >"$SRC/$CONSTRAINTS.new"
    mv "$SRC/$CONSTRAINTS.new" "$SRC/$CONSTRAINTS"
}

host_tools
base_root
fake_pi
if [ "$refresh" = yes ]; then
    dev_versions >"$ROOT$INSIDE/$CONSTRAINTS"
fi

step "install.sh --check on the fresh root (system packages expected missing)"
if inside sh "$INSIDE/systemd/install.sh" --check >"$CACHE/check.txt"; then
    cat "$CACHE/check.txt"
    echo "pi-userland: --check found nothing missing on a fresh root" >&2
    exit 1
fi
cat "$CACHE/check.txt"
backend=$(sed -n 's/^ok: LED key: the \([a-z0-9]*\) backend.*/\1/p' "$CACHE/check.txt")
expected=ws281x
if [ "$model" = pi5 ]; then expected=spi; fi
if [ "$backend" != "$expected" ]; then
    echo "pi-userland: install.sh --check chose the LED backend '$backend' on a $model, not $expected" >&2
    exit 1
fi
step "sh systemd/install.sh"
inside sh "$INSIDE/systemd/install.sh"
step "systemctl calls: $(tr '\n' ';' <"$ROOT/var/log/systemctl.calls")"
# shellcheck disable=SC2086 # one module per word
inside /opt/codenames-table/bin/python -c '
import importlib, sys
for name in sys.argv[1:]:
    module = importlib.import_module(name)
    print("imported", name, "from", module.__file__)
' $LIBRARIES "$led_library"
# Only the LED backend of this model is installed: on a Pi 5, no rpi-ws281x and no compiler.
if inside /opt/codenames-table/bin/python -c "import $other_library" 2>/dev/null; then
    echo "pi-userland: $other_library was installed on a $model, whose LED backend does not use it" >&2
    exit 1
fi
if [ "$model" = pi5 ] && [ -e "$ROOT/usr/bin/gcc" ]; then
    echo "pi-userland: install.sh installed a compiler on a Pi 5" >&2
    exit 1
fi
step "$led_library imports; $other_library is not installed"
inside /opt/codenames-table/bin/pip check --disable-pip-version-check
inside codenames-table --help >/dev/null
step "codenames-table --help runs"
if [ "$refresh" = yes ]; then
    write_constraints
    step "wrote $CONSTRAINTS"
else
    inside /opt/codenames-table/bin/pip freeze --disable-pip-version-check \
        --exclude codenames-table >"$CACHE/installed.txt"
fi
step "pi-userland passed: install.sh and the hardware libraries of a $model on arm64 $release ($(inside python3 --version))"
