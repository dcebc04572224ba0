"""A directory standing for a Raspberry Pi's /, and install.sh or uninstall.sh run against it.

The scripts read every file of the system under `$CODENAMES_TABLE_ROOT` (the device-tree model,
os-release, the users and groups, dpkg's status file, /proc/mounts, the device nodes), so the
tests fake a Pi with plain files and nothing else.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

APT_PACKAGES = ("python3-venv", "python3-dev", "gcc", "libc6-dev")
"""What install.sh needs from the system to build the `pi` extra (its APT_PACKAGES)."""
SD_CARD = "/dev/mmcblk0p2 / ext4 rw,noatime 0 0\n/dev/mmcblk0p1 /boot/firmware vfat rw 0 0\n"
"""/proc/mounts of a Pi as Raspberry Pi OS leaves it: the root written in place."""
PI_4 = "Raspberry Pi 4 Model B Rev 1.5"
READY_CONFIG_TXT = """\
dtparam=i2c_arm=on
dtparam=i2c_arm_baudrate=400000
dtparam=spi=on
[pi3]
core_freq=250
[pi02]
core_freq=250
[pi4]
core_freq=500
core_freq_min=500
[all]
"""
"""/boot/firmware/config.txt with the lines hardware/README.md asks for, on every model."""


def dpkg_status(packages: tuple[str, ...], *, removed: tuple[str, ...] = ()) -> str:
    """dpkg's status file: `packages` installed, `removed` gone but for their config files."""
    installed = "Status: install ok installed\nArchitecture: arm64"
    stanzas = [f"Package: {p}\n{installed}\n" for p in packages]
    stanzas += [f"Package: {p}\nStatus: deinstall ok config-files\n" for p in removed]
    return "\n".join(stanzas)


def fake_pi(
    root: Path,
    *,
    devices: tuple[str, ...],
    user_groups: tuple[str, ...] | None,
    packages: tuple[str, ...] = APT_PACKAGES,
    mounts: str = SD_CARD,
    model: str = PI_4,
    config_txt: str | None = READY_CONFIG_TXT,
) -> Path:
    """A directory standing for a Pi's /: its model, OS, groups, users, packages, mounts,
    device nodes and /boot/firmware/config.txt (none when `config_txt` is None). `user_groups`
    None: the service user does not exist yet."""
    (root / "proc/device-tree").mkdir(parents=True)
    (root / "proc/device-tree/model").write_bytes(model.encode() + b"\0")
    if config_txt is not None:
        (root / "boot/firmware").mkdir(parents=True)
        (root / "boot/firmware/config.txt").write_text(config_txt)
    (root / "proc/mounts").write_text(mounts)
    (root / "etc").mkdir()
    (root / "etc/os-release").write_text(
        'PRETTY_NAME="Raspbian GNU/Linux 12 (bookworm)"\nVERSION_ID="12"\n'
    )
    members = user_groups or ()
    groups = ["root:x:0:", "codenames-table:x:990:"]
    for gid, group in enumerate(("gpio", "i2c", "spi"), start=997):
        groups.append(f"{group}:x:{gid}:pi" + (",codenames-table" if group in members else ""))
    (root / "etc/group").write_text("\n".join(groups) + "\n")
    users = ["root:x:0:0:root:/root:/bin/sh"]
    if user_groups is not None:
        users.append("codenames-table:x:990:990::/nonexistent:/usr/sbin/nologin")
    (root / "etc/passwd").write_text("\n".join(users) + "\n")
    (root / "var/lib/dpkg").mkdir(parents=True)
    (root / "var/lib/dpkg/status").write_text(dpkg_status(packages))
    (root / "dev").mkdir()
    for node in devices:
        (root / "dev" / node).touch()
    return root


def ready_pi(
    root: Path,
    *,
    packages: tuple[str, ...] = APT_PACKAGES,
    mounts: str = SD_CARD,
    model: str = PI_4,
    config_txt: str | None = READY_CONFIG_TXT,
) -> Path:
    """A Pi with every bus on and the service user in its groups."""
    return fake_pi(
        root,
        devices=("gpiochip0", "i2c-1", "spidev0.0"),
        user_groups=("gpio", "i2c", "spi"),
        packages=packages,
        mounts=mounts,
        model=model,
        config_txt=config_txt,
    )


def run_script(
    script: Path, *args: str, root: Path, user: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*user, "sh", str(script), *args],
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "CODENAMES_TABLE_ROOT": str(root)},
        timeout=30,
    )


def commands(output: str) -> list[str]:
    """The commands a dry run printed (`+ ` lines), without the `+ `."""
    return [line[2:] for line in output.splitlines() if line.startswith("+ ")]


def missing_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("MISSING:")]


def needs_root() -> None:
    if os.geteuid() != 0:
        pytest.skip("the check reports 'not root' first when not run as root")
