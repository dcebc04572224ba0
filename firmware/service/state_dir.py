"""Checks of the state directory, the folder of the saved games, before a command uses it.

Two rules: the folder must be one the command can enter (a folder it may not enter, or a file in
its place, is a setup mistake, reported in one line rather than met as a traceback deep in the
store); and the service's folder must survive a reboot (a relative path depends on the working
directory, `/tmp`, `/var/tmp`, `/run` and `/dev/shm` are emptied at boot or live in RAM, and so
does any folder on a file system kept in memory, such as `/dev`'s devtmpfs, or on an overlay,
whose changes live in RAM on a Pi with raspi-config's overlay on), but on virtual hardware, a
demonstration, where an absolute folder is enough.
Faults of the disk itself (full, read-only, failing) are the store's to handle: it plays on in
memory and the OLED says "Not saving: <reason>".
"""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path, PurePosixPath
from typing import Final

from firmware.errors import FirmwareError

VOLATILE: Final = tuple(PurePosixPath(p) for p in ("/tmp", "/var/tmp", "/run", "/dev/shm"))
"""Folders whose content does not outlive a reboot (or is cleaned up behind the service's back)."""


VOLATILE_FILE_SYSTEMS: Final = frozenset(
    {
        # Kept in RAM: lost at every power-off.
        *("tmpfs", "ramfs", "devtmpfs", "overlay", "aufs"),
        # The kernel's own views: nothing written there is a file kept anywhere.
        *("proc", "sysfs", "devpts", "cgroup", "cgroup2", "debugfs", "tracefs", "securityfs"),
        *("configfs", "mqueue", "hugetlbfs", "bpf", "pstore", "efivarfs", "binfmt_misc"),
    }
)
"""File system types (the third field of /proc/self/mounts) where saved games would not outlive
a power-off."""
MOUNTS: Final = Path("/proc/self/mounts")


class StateDirError(FirmwareError, ValueError):
    """A state directory that cannot be used; the message is one line and names the folder."""


def check_service_state_dir(
    path: Path, mounts: Path = MOUNTS, *, demonstration: bool = False
) -> Path:
    """`path` if the service may keep its games there, else `StateDirError`. A `demonstration`
    (`run --virtual`) may keep them in a folder that a reboot empties. Nothing on disk is
    touched but the symbolic links on the way, which are followed, and `mounts`, which says
    what file system holds it."""
    if not path.is_absolute():
        raise StateDirError(
            f"{path} is a relative path: the service needs an absolute one, "
            "such as /var/lib/codenames-table"
        )
    if demonstration:
        return path
    volatile = volatile_parent(path)
    if volatile is not None:
        raise StateDirError(
            f"{path} is under {volatile}, which does not survive a reboot: "
            "the saved games would be lost; use a folder such as /var/lib/codenames-table"
        )
    mount = mount_of(Path(os.path.realpath(path)), mounts)
    if mount is not None and mount[1] in VOLATILE_FILE_SYSTEMS:
        point, kind = mount
        raise StateDirError(
            f"{path} is on {kind} ({point}), which does not survive a power-off: the saved games "
            "would be lost; use a folder on the SD card, such as /var/lib/codenames-table"
        )
    return path


def volatile_parent(path: Path) -> PurePosixPath | None:
    """The folder of `VOLATILE` that absolute `path` lies in (as written or once its links
    are followed), or None."""
    for candidate in (PurePosixPath(os.path.normpath(path)), PurePosixPath(os.path.realpath(path))):
        for volatile in VOLATILE:
            if candidate == volatile or volatile in candidate.parents:
                return volatile
    return None


def mount_of(path: Path, mounts: Path = MOUNTS) -> tuple[str, str] | None:
    """The mount point and file system type that hold `path` (an absolute path without links),
    from `mounts` (/proc/self/mounts); None when it cannot be read."""
    try:
        text = mounts.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    best: tuple[str, str] | None = None
    for line in text.splitlines():
        fields = line.split()
        if len(fields) < 3:
            continue
        # The kernel writes a blank, tab, newline or backslash in a path as an octal escape.
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), fields[1])
        holds = path == Path(point) or Path(point) in path.parents
        # The longest mount point holding the path wins; of two at one point, the later one.
        if holds and (best is None or len(point) >= len(best[0])):
            best = (point, fields[2])
    return best


def check_enterable(path: Path) -> Path:
    """`path` if it is a folder this process can enter, or one its nearest existing parent lets
    it create; else `StateDirError`. Creates nothing."""
    probe = path
    while True:
        try:
            # What the store does first: look for its database inside the folder.
            os.stat(probe / "games.sqlite3")
        except FileNotFoundError:
            if probe != probe.parent and not _is_dir(probe):
                probe = probe.parent  # missing: the store creates it if the parent lets it
                continue
        except (PermissionError, NotADirectoryError) as error:
            raise StateDirError(f"{path}: cannot enter it: {error.strerror}") from error
        except OSError as error:
            if error.errno == errno.ENAMETOOLONG:
                raise StateDirError(f"{path}: cannot enter it: {error.strerror}") from error
            # Any other fault is the disk's: the store plays on in memory and says so.
        return path


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False
