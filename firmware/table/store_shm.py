"""Whether SQLite may still write the database's shared-memory file (`games.sqlite3-shm`).

In WAL mode SQLite maps the `-shm` file into memory and writes it on every read and write of
the database, and on closing. A file made immutable or append-only (`chattr +i`, `chattr +a`)
under a live mapping refuses those writes at the page: the kernel sends SIGBUS, which kills
the process outright, with no Python exception to catch. A connection opened while the file
is already so is safe: SQLite then maps it read-only and refuses writes with an error.

So the store asks before each use of a connection opened on a writable `-shm` (`ShmWatch`: one
ioctl on a descriptor kept open beside the connection) and leaves the connection alone while
the answer is no (`firmware.table.store`).
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import sys
from pathlib import Path
from typing import Final

FS_IOC_GETFLAGS: Final = (2 << 30) | (ctypes.sizeof(ctypes.c_long) << 16) | (ord("f") << 8) | 1
"""`_IOR('f', 1, long)` of linux/fs.h: a file's attribute flags, those `lsattr` lists."""
FS_IMMUTABLE_FL: Final = 0x10
"""`i` in lsattr (linux/fs.h)."""
FS_APPEND_FL: Final = 0x20
"""`a` in lsattr (linux/fs.h)."""
_BLOCKING = ((FS_IMMUTABLE_FL, "immutable"), (FS_APPEND_FL, "append-only"))


def shm_path(database: Path) -> Path:
    """The shared-memory file of the WAL database at `database`."""
    return database.with_name(f"{database.name}-shm")


def shm_blocked(database: Path) -> str | None:
    """Why SQLite could not write the `-shm` of `database` through a mapping ("immutable",
    "append-only"), or None when it can, or there is none, or its flags cannot be read (a file
    system without attribute flags has neither)."""
    fd = _open_shm(shm_path(database))
    if fd is None:
        return None
    try:
        return _blocked(fd)
    finally:
        os.close(fd)


class ShmWatch:
    """`shm_blocked` for the connection open on one database, asked before each of its uses.

    The `-shm` is opened once, at the first check that finds it, and kept open until `close`, so
    a check is one ioctl: on every save, an open and a close of the file cost more than the
    save's own statements. The descriptor names the file SQLite mapped, which is the one whose
    flags matter, and no check closes a descriptor of it, which would drop SQLite's locks on it
    (a process's POSIX locks on a file go with any of its descriptors)."""

    def __init__(self, database: Path) -> None:
        self._path = shm_path(database)
        self._fd: int | None = None

    def blocked(self) -> str | None:
        """As `shm_blocked`, for the `-shm` opened at the first check that found one."""
        if self._fd is None:
            self._fd = _open_shm(self._path)
            if self._fd is None:
                return None
        return _blocked(self._fd)

    def close(self) -> None:
        """Close the descriptor (once the connection is closed); idempotent."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)


def _open_shm(path: Path) -> int | None:
    try:
        return os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        # Missing: SQLite creates it. Unreadable: SQLite's own open says why.
        return None


def _blocked(fd: int) -> str | None:
    try:
        flags = bytearray(ctypes.sizeof(ctypes.c_long))
        fcntl.ioctl(fd, FS_IOC_GETFLAGS, flags, True)
    except OSError:
        return None
    # The kernel writes an int at the start of the buffer.
    value = int.from_bytes(flags[:4], sys.byteorder)
    reasons = [name for flag, name in _BLOCKING if value & flag]
    return " and ".join(reasons) if reasons else None


def blocked_line(database: Path, why: str) -> str:
    """What the journal says of a `-shm` that SQLite cannot write, with the fix."""
    shm = shm_path(database)
    return f"{shm} is {why} (lsattr shows it; chattr -i -a {shm} lets games be saved again)"
