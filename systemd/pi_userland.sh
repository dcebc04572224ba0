#!/bin/sh
# `sudo make pi-userland`: run `sh systemd/install.sh` in an arm64 Debian Bookworm root under
# qemu-user, as a fresh 64-bit Raspberry Pi OS meets it, then import every hardware library from
# the venv it installed and run `codenames-table --help` there. Not part of `make test`: it
# compiles under emulation for many minutes. Needs root on a Debian or Ubuntu machine.
#
#   systemd/pi_userland.sh                        build or reuse the root, install, import
#   systemd/pi_userland.sh --refresh-constraints  the same, with this checkout's .venv versions
#                                                 as the constraints, then write what was
#                                                 installed to systemd/pi-constraints.txt
#
# The Bookworm root (python3 and python3-venv only, as the issue saw it) is built once with
# debootstrap and kept in .cache/pi-userland/base.tar; every run unpacks a fresh copy into
# .cache/pi-userland/root. PI_USERLAND_MIRROR=URL picks the Debian mirror (else debootstrap's).
#
# The Pi is faked just enough: /proc is a plain folder holding the device-tree model, the
# compatible string, cpuinfo and mounts (Blinka's board detection and install.sh read them);
# /dev holds the I2C, SPI and GPIO nodes as plain files; the gpio, i2c and spi groups exist; and
# systemctl only records its calls in /var/log/systemctl.calls.
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
CACHE=$SRC/.cache/pi-userland
BASE=$CACHE/base.tar
ROOT=$CACHE/root
INSIDE=/root/codenames-table
CONSTRAINTS=systemd/pi-constraints.txt
LIBRARIES="rpi_ws281x lgpio neopixel_spi board gpiod adafruit_ssd1306 gpiozero"

refresh=no
case ${1:-} in
    "") ;;
    --refresh-constraints) refresh=yes ;;
    *)
        echo "usage: $0 [--refresh-constraints]" >&2
        exit 2
        ;;
esac
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
    step "debootstrap: arm64 Debian Bookworm with python3 and python3-venv"
    rm -rf "$CACHE/base.tmp"
    mkdir -p "$CACHE"
    # shellcheck disable=SC2086 # no mirror given: debootstrap's default
    debootstrap --arch=arm64 --variant=minbase --include=python3,python3-venv bookworm \
        "$CACHE/base.tmp" ${PI_USERLAND_MIRROR:-}
    tar -C "$CACHE/base.tmp" -cf "$BASE.tmp" .
    mv "$BASE.tmp" "$BASE"
    rm -rf "$CACHE/base.tmp"
}

fake_pi() {
    step "a fresh root in $ROOT, faking a Raspberry Pi 4"
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

    proc=$ROOT/proc
    mkdir -p "$proc/device-tree/system"
    printf 'Raspberry Pi 4 Model B Rev 1.5\0' >"$proc/device-tree/model"
    printf 'raspberrypi,4-model-b\0brcm,bcm2711\0' >"$proc/device-tree/compatible"
    printf '\000\303\061\025' >"$proc/device-tree/system/linux,revision"
    cat >"$proc/cpuinfo" <<'EOF'
processor	: 0
BogoMIPS	: 108.00
Features	: fp asimd evtstrm crc32 cpuid
CPU implementer	: 0x41
CPU part	: 0xd08

Hardware	: BCM2835
Revision	: c03115
Serial		: 10000000deadbeef
Model		: Raspberry Pi 4 Model B Rev 1.5
EOF
    cat >"$proc/mounts" <<'EOF'
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

write_constraints() {
    {
        cat <<'EOF'
# Every package of the table's `pi` install, at the versions `make test` and `make pi-userland`
# ran against: systemd/install.sh passes this file to pip (--constraint), so two tables installed
# a month apart run the same code. The packages the desktop shares are the development .venv's,
# the Pi-only ones what pip chose for aarch64 and Python 3.11 (Debian Bookworm).
#
# To refresh: upgrade .venv (`.venv/bin/pip install --upgrade -e '.[test]'`), run `make test`,
# then `sudo make pi-userland PI_USERLAND_ARGS=--refresh-constraints`: it installs the table in
# the arm64 root with .venv's versions, writes here what was installed, and checks the imports.
# Commit this file with the README's pi-userland result.
EOF
        inside /opt/codenames-table/bin/pip freeze --disable-pip-version-check \
            --exclude codenames-table | LC_ALL=C sort -f
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
if inside sh "$INSIDE/systemd/install.sh" --check; then
    echo "pi-userland: --check found nothing missing on a fresh root" >&2
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
' $LIBRARIES
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
step "pi-userland passed: install.sh and every hardware library on arm64 Bookworm"
