"""The Debian 13 Trixie root that `make provision-test` boots: built once with `debootstrap`
and kept as a tarball under /var/cache/codenames-table/ (rebuilt when its package list
changes); each run unpacks a fresh copy.

Standard library only, as `tools.service_test.container`, whose container boots it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

SUITES = ("trixie", "bookworm")
"""Debian 13 and 12, the bases of Raspberry Pi OS Trixie (systemd 257, cloud-init 25) and
Bookworm (systemd 252, cloud-init 22); the first is the default."""
PACKAGES = (
    # systemd as PID 1, D-Bus for systemctl, the distribution's cloud-init.
    "systemd",
    "systemd-sysv",
    "dbus",
    "cloud-init",
    # Provides the virtual package python3-cryptography depends on, which debootstrap's
    # resolver does not follow.
    "python3-cffi-backend",
    # What the table's install needs (install.sh would otherwise fetch them on every run).
    "python3",
    "python3-venv",
    "python3-dev",
    "gcc",
    "libc6-dev",
    "ca-certificates",
    # Raspberry Pi OS has it, and cloud-init's locale module needs its update-locale.
    "locales",
)
CACHE = Path(os.environ.get("CODENAMES_ROOT_CACHE") or "/var/cache/codenames-table")


def stamp(suite: str) -> str:
    """What the cached root is built from: another list rebuilds it.

    >>> stamp("trixie").startswith("suite=trixie include=")
    True
    """
    return f"suite={suite} include={','.join(sorted(PACKAGES))}\n"


def cached_tarball(suite: str, mirror: str, log: Path) -> Path:
    """The root's tarball, built now when missing or built from another package list.
    RuntimeError when debootstrap fails."""
    name = f"provision-test-{suite}-amd64"
    tarball = CACHE / f"{name}.tar"
    stamp_file = CACHE / f"{name}.stamp"
    if tarball.is_file() and stamp_file.is_file() and stamp_file.read_text() == stamp(suite):
        return tarball
    CACHE.mkdir(parents=True, exist_ok=True)
    building = CACHE / "build" / name
    if building.exists():
        shutil.rmtree(building)
    building.parent.mkdir(parents=True, exist_ok=True)
    command = ["debootstrap", "--variant=minbase", f"--include={','.join(PACKAGES)}"]
    command += [suite, str(building), mirror]
    with log.open("w", encoding="utf-8") as out:
        done = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"debootstrap failed (exit {done.returncode}); see {log}")
    partial = tarball.with_suffix(".tar.tmp")
    # --numeric-owner and --xattrs: unpacked, the root is what debootstrap made.
    subprocess.run(
        ["tar", "--numeric-owner", "--xattrs", "-C", str(building), "-cf", str(partial), "."],
        check=True,
    )
    partial.rename(tarball)
    shutil.rmtree(building)
    stamp_file.write_text(stamp(suite))
    return tarball


def unpack(tarball: Path, run: Path) -> Path:
    """A fresh root from `tarball` in `run` (kept until the next run, to look into)."""
    if run.exists():
        shutil.rmtree(run)
    run.mkdir(parents=True)
    subprocess.run(
        ["tar", "--numeric-owner", "--xattrs", "-C", str(run), "-xf", str(tarball)], check=True
    )
    return run
