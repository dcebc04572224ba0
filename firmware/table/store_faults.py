"""Telling a damaged database from a failing disk, and moving a damaged one aside intact.

Only SQLite's own verdict counts as damage (`SQLITE_CORRUPT`, `SQLITE_NOTADB`, a failing
`PRAGMA quick_check`): a full, locked, read-only or failing disk leaves every file as it is, since
right after a power cut the game on the table may sit entirely in the `-wal` file. A damaged
database is moved aside together with its `-wal` and `-shm`, under names reserved first with
`O_EXCL`, so that no move ever overwrites an earlier one. SQLite deletes the `-wal` of a file it
finds is not a database when closing it, so both keep a second name while it is checked.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import sqlite3
import time
from enum import Enum
from pathlib import Path

from firmware.errors import FirmwareError

COMPANIONS = ("-wal", "-shm")
"""SQLite's files beside a WAL database; a database moves with them or not at all."""


class SaveFault(Enum):
    """Why games cannot be written right now; each is shown on the OLED and retried."""

    FULL = "disk full"
    LOCKED = "locked"
    """Another process held the write lock for longer than the busy timeout."""
    READ_ONLY = "read-only"
    NO_PERMISSION = "no permission"
    IO_ERROR = "I/O error"
    """A failing disk, or anything else SQLite or the system refused without a reason above."""


_BY_SQLITE_CODE = {
    sqlite3.SQLITE_FULL: SaveFault.FULL,
    sqlite3.SQLITE_BUSY: SaveFault.LOCKED,
    sqlite3.SQLITE_LOCKED: SaveFault.LOCKED,
    sqlite3.SQLITE_READONLY: SaveFault.READ_ONLY,
    sqlite3.SQLITE_PERM: SaveFault.NO_PERMISSION,
    sqlite3.SQLITE_AUTH: SaveFault.NO_PERMISSION,
    sqlite3.SQLITE_IOERR: SaveFault.IO_ERROR,
}
_BY_ERRNO = {
    errno.ENOSPC: SaveFault.FULL,
    errno.EDQUOT: SaveFault.FULL,
    errno.EROFS: SaveFault.READ_ONLY,
    errno.EACCES: SaveFault.NO_PERMISSION,
    errno.EPERM: SaveFault.NO_PERMISSION,
}
_CORRUPTION_CODES = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})


class DamagedDatabaseError(FirmwareError, sqlite3.DatabaseError):
    """SQLite reads the file but finds it damaged (`quick_check`), or of an unknown schema."""

    sqlite_errorcode = sqlite3.SQLITE_CORRUPT


def _primary_code(error: sqlite3.Error) -> int | None:
    code = getattr(error, "sqlite_errorcode", None)
    # Extended codes (SQLITE_IOERR_WRITE…) carry the primary code in their low byte.
    return None if code is None else int(code) & 0xFF


def is_corruption(error: sqlite3.Error) -> bool:
    """True only when SQLite itself says the file is damaged or not a database."""
    return _primary_code(error) in _CORRUPTION_CODES


def fault_of(error: BaseException, path: Path | None = None) -> SaveFault:
    """The reason to show for a failed write or open of the database at `path`.

    SQLite says only "unable to open database file" for a refused open, and "disk I/O error"
    when its shared-memory file cannot grow on a full disk: the system's own reason is then
    read by opening `path` for writing ourselves, or from the free room on its disk.
    """
    if isinstance(error, sqlite3.Error):
        code = _primary_code(error)
        if code == sqlite3.SQLITE_CANTOPEN and path is not None:
            return _probe(path)
        if code == sqlite3.SQLITE_IOERR and path is not None and _no_room(path.parent):
            return SaveFault.FULL  # SQLite's shared-memory file could not grow
        return _BY_SQLITE_CODE.get(code or 0, SaveFault.IO_ERROR)
    if isinstance(error, OSError) and error.errno is not None:
        return _BY_ERRNO.get(error.errno, SaveFault.IO_ERROR)
    return SaveFault.IO_ERROR


def _no_room(directory: Path) -> bool:
    try:
        return os.statvfs(directory).f_bavail == 0
    except OSError:
        return False


def _probe(path: Path) -> SaveFault:
    for target in (path, *(Path(f"{path}{suffix}") for suffix in COMPANIONS)):
        try:
            os.close(os.open(target, os.O_RDWR))
        except FileNotFoundError:
            continue
        except OSError as error:
            return fault_of(error)
    # Every file there opens: SQLite could not create a missing -wal or -shm beside them.
    if not os.access(path.parent, os.W_OK):
        return SaveFault.NO_PERMISSION
    return SaveFault.IO_ERROR


def keep_companions(path: Path) -> dict[str, Path]:
    """Second names (hard links) for the database's `-wal` and `-shm` while it is checked:
    SQLite deletes both when it closes a file it finds is not a database. A file that cannot be
    linked is left out (the check then goes on without its spare name)."""
    kept = {}
    for suffix in COMPANIONS:
        companion, spare = Path(f"{path}{suffix}"), Path(f"{path}{suffix}.kept")
        _settle_spare(companion, spare)
        with contextlib.suppress(OSError):
            os.link(companion, spare)
            kept[suffix] = spare
    return kept


def _settle_spare(companion: Path, spare: Path) -> None:
    # A spare name left by a power cut during an earlier check: put a companion SQLite had
    # removed back, drop a mere second name; a different file is left for staff to look at.
    if not spare.exists():
        return
    with contextlib.suppress(OSError):  # a read-only disk: it stays for the next start
        if not companion.exists():
            os.replace(spare, companion)
        elif os.path.samefile(companion, spare) or spare.stat().st_size == 0:
            spare.unlink()


def release_companions(kept: dict[str, Path]) -> None:
    """Drop the spare names from `keep_companions` once the database opened or was moved;
    a companion SQLite removed meanwhile is put back first, where SQLite looks for it."""
    for spare in kept.values():
        _settle_spare(Path(str(spare).removesuffix(".kept")), spare)


def move_aside(path: Path, wall_time: float, kept: dict[str, Path] | None = None) -> Path:
    """Move a damaged database and its `-wal` and `-shm` to `<name>.broken-<time>[-n]`, where
    the time has microseconds and `n` counts moves that would otherwise share a name; returns
    the new path of the database. `kept` (from `keep_companions`) stands in for companions
    SQLite removed. Raises `OSError` when it cannot be moved."""
    spares = kept or {}
    target = _reserve(path, wall_time)
    try:
        os.replace(path, target)
    except OSError:
        _release(target)
        raise
    for suffix in COMPANIONS:
        companion = Path(f"{path}{suffix}")
        if not companion.exists() and suffix in spares:
            companion = spares[suffix]
        moved = Path(f"{target}{suffix}")
        try:
            os.replace(companion, moved)
        except FileNotFoundError:
            _remove_reservation(moved)
    for spare in spares.values():
        with contextlib.suppress(FileNotFoundError):
            spare.unlink()  # only a second name of a file already moved
    return target


def _reserve(path: Path, wall_time: float) -> Path:
    seconds = int(wall_time)
    micro = round((wall_time - seconds) * 1_000_000) % 1_000_000
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(seconds)) + f".{micro:06d}Z"
    for count in itertools.count():
        base = f"{path.name}.broken-{stamp}" + (f"-{count}" if count else "")
        target = path.with_name(base)
        reserved: list[Path] = []
        try:
            for name in (target, *(Path(f"{target}{suffix}") for suffix in COMPANIONS)):
                os.close(os.open(name, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
                reserved.append(name)
        except FileExistsError:
            for name in reserved:
                _remove_reservation(name)
            continue
        except OSError:
            for name in reserved:
                _remove_reservation(name)
            raise
        return target
    raise AssertionError("unreachable")  # itertools.count() never ends


def _release(target: Path) -> None:
    for name in (target, *(Path(f"{target}{suffix}") for suffix in COMPANIONS)):
        _remove_reservation(name)


def _remove_reservation(name: Path) -> None:
    # Only the empty placeholder made by `_reserve` is removed, never a file with content.
    try:
        if name.stat().st_size == 0:
            name.unlink()
    except FileNotFoundError:
        pass
