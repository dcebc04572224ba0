"""Opening the database of saved games, at start and again after a fault.

The file is created private, checked (`PRAGMA quick_check`, the schema version) and put in WAL
mode with `synchronous=FULL`, its WAL checkpointed often and cut back to a bound
(`WAL_LIMIT_BYTES`), so that a small partition holds it; nothing is written when it is ready,
so a full disk never stops a resume. A database SQLite finds damaged is moved aside with its
`-wal` and `-shm` (`firmware.table.store_faults`) and a fresh one started; any other refusal
(full, locked, read-only, failing) leaves the files as they are and opens them read-only if it
can, so that the game on the table resumes. `firmware.table.store` reads and writes what this
opens.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from firmware.table.store_faults import (
    DamagedDatabaseError,
    SaveFault,
    fault_of,
    is_corruption,
    keep_companions,
    move_aside,
    release_companions,
)
from firmware.table.store_shm import blocked_line, shm_blocked

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2
MATCHES_VERSION = 2
"""The version that added matches: each game belongs to the match it was played in."""
READABLE_VERSIONS = (1, SCHEMA_VERSION)
PAGE_SIZE: Final = 1024
"""The page size of a new database: a save changes a few rows, and each page it touches goes to
the WAL whole, so small pages send less to the card per action. SQLite fixes it when the file is
first written: a database made with another size keeps it."""
CHECKPOINT_BYTES: Final = 400 * 1024
"""The WAL is written back into the database once it holds this much (a tenth of SQLite's
default of 1000 pages of 4 KiB), so that a small partition is not filled."""
WAL_LIMIT_BYTES: Final = 512 * 1024
"""The size the WAL is cut back to after a checkpoint (`journal_size_limit`); without it, the
file keeps the largest size it ever had. A save is a few pages: the WAL stays under it."""
STATE_PARTITION_BYTES: Final = 64 * 1024 * 1024
"""The least a state partition needs: a game takes about 1 KiB of database, so a table playing
20 games a day fills 8 MiB a year; twice that for a damaged database kept aside beside a fresh
one, the WAL and the recovery file. 64 MiB hold four such years."""
"""Versions whose games this firmware reads (an older one is brought up to date when written)."""
_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    mode TEXT NOT NULL,
    started_at REAL NOT NULL,
    phase TEXT NOT NULL,
    winner TEXT,
    reason TEXT,
    score INTEGER,
    match_id INTEGER REFERENCES matches(id)
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    started_at REAL
);
INSERT INTO matches (started_at) SELECT NULL WHERE NOT EXISTS (SELECT 1 FROM matches);
"""
"""The first match, begun with the database, starts with its first game (`started_at` NULL):
the table's clock, not SQLite's, says when that was."""
_FROM_VERSION_1 = """
ALTER TABLE games ADD COLUMN match_id INTEGER REFERENCES matches(id);
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    started_at REAL
);
INSERT INTO matches (started_at) VALUES (NULL);
UPDATE games SET match_id = 1 WHERE id = (SELECT MAX(id) FROM games);
"""
"""Every game is kept; the game on the table (the latest) begins the first match, so that the
match shown after the update does not count games played long before it."""


@dataclass
class Opened:
    """What an opening of the database gave."""

    conn: sqlite3.Connection | None = None
    """None when no database could be opened at all: the table then plays in memory."""
    writable: bool = False
    """False when `conn` was opened read-only because writing was refused."""
    schema: bool = False
    """True once the tables exist: a database never written has nothing to read."""
    version: int = SCHEMA_VERSION
    """The schema version of the tables, when they exist: an old one opened read-only is read
    as it is."""
    fault: SaveFault | None = None
    """Why games cannot be written, or None while they can."""
    moved_aside: Path | None = None
    """Where a damaged database was moved, when this opening moved one."""
    shm_mapped: bool = False
    """True when `conn` may map the `-shm` file for writing: it was writable at the opening, so
    the store checks it before each use (`firmware.table.store_shm`)."""

    def set_fault(self, fault: SaveFault, detail: str) -> None:
        """Record why writing is refused, logging each new reason once."""
        if self.fault is not fault:
            log.error("games are not saved (%s): %s", fault.value, detail)
        self.fault = fault


def open_read_only(path: Path) -> tuple[sqlite3.Connection, int]:
    """The database at `path` for reading only, and its schema version: for staff tools beside
    a running table, which never create, repair, update or move anything. Raises `sqlite3.Error`
    when it cannot be read."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        conn.execute("SELECT COUNT(*) FROM games").fetchone()
    except sqlite3.Error:
        conn.close()
        raise
    return conn, version


def open_for_writing(
    path: Path,
    *,
    busy_timeout_s: float,
    wall_clock: Callable[[], float],
    fault: SaveFault | None,
) -> Opened:
    """Open the database at `path` (creating its folder and file if need be) for writing, or for
    reading when writing is refused; `fault` is the reason already known, logged again only when
    it changes. Never raises: what went wrong is in the result's `fault`."""
    opened = Opened(fault=fault)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as error:
        opened.set_fault(fault_of(error), f"state directory {path.parent}: {error}")
        return opened
    kept = keep_companions(path)
    opened.shm_mapped = shm_blocked(path) is None
    try:
        opened.conn = _connect(path, busy_timeout_s)
        opened.writable = opened.schema = True
        _check_writable(opened.conn, path, opened)
        release_companions(kept)
        return opened
    except sqlite3.Error as error:
        if not is_corruption(error):
            release_companions(kept)
            opened.set_fault(fault_of(error, path), f"{path}: {error}")
            _open_for_reading(path, opened)
            return opened
        log.error("database %s is damaged (%s): moving it aside", path, error)
    except OSError as error:
        release_companions(kept)
        opened.set_fault(fault_of(error), f"{path}: {error}")
        if opened.conn is not None:
            # Opened, but its companions could not be put back: it is not trusted for writing.
            opened.conn.close()
            opened.conn, opened.writable = None, False
        _open_for_reading(path, opened)
        return opened
    try:
        opened.moved_aside = move_aside(path, wall_clock(), kept)
    except OSError as error:
        release_companions(kept)
        # Left where it is, it is kept: the table plays on without saving.
        opened.set_fault(fault_of(error), f"cannot move {path} aside: {error}")
        return opened
    log.error("the damaged database is kept as %s", opened.moved_aside)
    opened.shm_mapped = shm_blocked(path) is None
    try:
        opened.conn = _connect(path, busy_timeout_s)
        opened.writable = opened.schema = True
        opened.fault = None
    except (sqlite3.Error, OSError) as error:
        opened.set_fault(fault_of(error, path), f"no new database at {path}: {error}")
    return opened


def _connect(path: Path, busy_timeout_s: float) -> sqlite3.Connection:
    if not path.exists():
        # Create it private: the key of the game in progress is in it.
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    conn = sqlite3.connect(
        path, timeout=busy_timeout_s, check_same_thread=False, isolation_level=None
    )
    try:
        _prepare(conn)
    except sqlite3.Error:
        conn.close()
        raise
    return conn


def _prepare(conn: sqlite3.Connection) -> None:
    if conn.execute("PRAGMA quick_check").fetchone() != ("ok",):
        raise DamagedDatabaseError("quick_check found damage")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version not in (0, *READABLE_VERSIONS):
        # A newer firmware's database: this one cannot write it, so it is kept aside whole.
        raise DamagedDatabaseError(f"schema version {version} is not {SCHEMA_VERSION}")
    # Nothing is written when the database is ready: a full disk must not stop a resume.
    # Before anything is written to a new file (an existing one keeps its own size).
    conn.execute(f"PRAGMA page_size={PAGE_SIZE}")
    if conn.execute("PRAGMA journal_mode").fetchone() != ("wal",):
        conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    # Connection settings, not written to the file: a bounded WAL on a small partition.
    page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
    conn.execute(f"PRAGMA wal_autocheckpoint={max(CHECKPOINT_BYTES // page_size, 1)}")
    conn.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")
    if version == SCHEMA_VERSION:
        return
    # In one transaction: a power cut leaves the old version whole, brought up at the next start.
    script = _FROM_VERSION_1 if version == 1 else _SCHEMA
    conn.executescript(f"BEGIN IMMEDIATE; {script} PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")


def _check_writable(conn: sqlite3.Connection, path: Path, opened: Opened) -> None:
    # SQLite opens a file it may not write read-only without a word; a write rolled back
    # tells at once (and waits for a lock) instead of at the first action.
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        opened.fault = None
    except sqlite3.Error as error:
        blocked = shm_blocked(path)
        why = "" if blocked is None else f"; {blocked_line(path, blocked)}"
        opened.set_fault(fault_of(error, path), f"{path}: {error}{why}")
    finally:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")


def _open_for_reading(path: Path, opened: Opened) -> None:
    # The game on the table must resume even when nothing can be written. A WAL database
    # on a read-only or full disk may open only as immutable, which is right only when its
    # -wal file holds nothing.
    uris = [f"file:{path}?mode=ro"]
    wal = Path(f"{path}-wal")
    if not wal.exists() or wal.stat().st_size == 0:
        uris.append(f"file:{path}?mode=ro&immutable=1")
    if not path.is_file():
        return
    opened.shm_mapped = shm_blocked(path) is None
    for uri in uris:
        try:
            conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
        except sqlite3.Error:
            continue
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            conn.execute("SELECT COUNT(*) FROM games").fetchone()
        except sqlite3.Error:
            conn.close()
            continue
        opened.conn, opened.writable = conn, False
        opened.schema, opened.version = version in READABLE_VERSIONS, version
        log.warning("database %s opened read-only: the game resumes", path)
        return
