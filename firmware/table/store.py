"""Saved games: every game and every accepted action, in SQLite, written before any feedback.

WAL mode with `synchronous=FULL` makes each committed action survive a power cut. The table
resumes the latest game by replaying its actions through the rules core; a new game taken back
by UNDO is deleted, so that the game it replaced is the latest again.

Opening the file, and moving a damaged one aside, is `firmware.table.store_open`'s job. A full,
locked, read-only or failing disk leaves the files as they are: the store opens what it can read
(read-only if need be) so that the game on the table resumes, reports the `SaveFault`, and
`recover` tries again; the table keeps what it could not write and writes it, in order, once the
disk takes it (`firmware.table.saving`).

A `-shm` file made immutable under an open connection would crash the process at the
connection's next use, close included (`firmware.table.store_shm`): the store checks it before
each use and, while it cannot be written, sets the connection aside unused (`READ_ONLY`), takes
it back once the file is writable again, and never closes it while it is not.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Final, TypeVar

from board_rules.codenames import Action, Game, IllegalActionError, Key, Mode, parse_action
from board_rules.text import clip
from firmware.errors import FirmwareError
from firmware.table.store_faults import SaveFault, fault_of, is_corruption
from firmware.table.store_open import MATCHES_VERSION, open_for_writing, open_read_only
from firmware.table.store_shm import ShmWatch, blocked_line, shm_blocked

log = logging.getLogger(__name__)

DATABASE_NAME = "games.sqlite3"

_LEFT_OPEN: set[Path] = set()
"""Databases whose connection this process left open for good (`GameStore.close`)."""

BUSY_TIMEOUT_S = 5.0
"""How long a write waits for another process's lock before the lock counts as a fault."""


class StoreError(FirmwareError, OSError):
    """The saved games could not be written or read; the game goes on in memory."""

    def __init__(self, message: str, *, fault: SaveFault = SaveFault.IO_ERROR) -> None:
        super().__init__(message)
        self.fault = fault
        """The reason shown on the OLED."""


class UnreadableGameError(StoreError):
    """A saved game whose key, mode or actions no longer parse: the database was damaged."""


@dataclass(frozen=True)
class TimedAction:
    """An accepted action and the wall-clock time it was accepted at."""

    action: Action
    at: float


@dataclass(frozen=True)
class SavedGame:
    """A game read back from the database."""

    game_id: int
    key: Key
    mode: Mode
    actions: tuple[TimedAction, ...]

    def replay(self) -> Game:
        """The game rebuilt through the rules core."""
        return Game.replay(self.key, self.mode, (timed.action for timed in self.actions))


@dataclass(frozen=True)
class GameSummary:
    """One line of the record of games: a saved game without its key or actions."""

    game_id: int
    started_at: float
    """Wall-clock time the game began."""
    mode: str
    phase: str
    winner: str | None
    reason: str | None
    score: int | None
    actions: int
    """Actions saved, undos included."""
    last_at: float | None
    """Wall-clock time of its latest action, None before the first."""
    match_id: int | None = None
    """The match it was played in; None for a game saved before matches were counted."""
    first_at: float | None = None
    """Wall-clock time of its first action (the first clue: the rules take nothing before it)."""

    @property
    def length_s(self) -> float:
        """How long it was played (`game_length_s`)."""
        return game_length_s(self.first_at, self.last_at)


def iso_time(at: float) -> str:
    """A saved time as every JSON output writes it: ISO 8601 in local time, with its offset."""
    return datetime.fromtimestamp(at).astimezone().isoformat("T", "seconds")


def game_length_s(first_at: float | None, last_at: float | None) -> float:
    """A game's length, the one definition `history`, `stats` and the café share: from its first
    clue to its last action (undos included), 0 before the first clue. The time between NEW and
    the first clue is the table waiting, not the game."""
    if first_at is None or last_at is None:
        return 0.0
    return max(0.0, last_at - first_at)


@dataclass(frozen=True)
class MatchRecord:
    """A match: the games won per team, counting only finished standard games."""

    match_id: int
    started_at: float | None
    """When it was begun; for the first match, its first game's start (None before any)."""
    games: int
    red: int
    blue: int


_T = TypeVar("_T")
LARGEST_ID: Final = 2**63 - 1
"""The largest whole number SQLite stores: no game id or count is larger."""
LATEST_TIME: Final = 253_402_000_000.0
"""The last wall-clock time a record may hold: just before 10000-01-01, the end of the dates
`datetime` shows in any time zone. A time past it, or not a number, is a damaged record."""


def _time(value: object) -> float:
    # A record written by hand may hold anything: text, infinity, a date no calendar shows.
    if isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= LATEST_TIME:
        return float(value)  # (NaN fails the comparison)
    raise ValueError(f"{clip(repr(value))} is not a time")


def _text(value: object) -> str:
    if isinstance(value, str):
        return value
    raise ValueError(f"{clip(repr(value))} is not a text")


def _whole(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ValueError(f"{clip(repr(value))} is not a whole number")


def _or_none(check: Callable[[object], _T], value: object) -> _T | None:
    return None if value is None else check(value)


def _summary(game_id: object, started_at: object, *fields: object) -> GameSummary:
    """A row of `summaries`, each field checked for its type: a hand-written record raises
    `ValueError` naming the value."""
    mode, phase, winner, reason, score, actions, first_at, last_at, match_id = fields
    return GameSummary(
        _whole(game_id),
        _time(started_at),
        _text(mode),
        _text(phase),
        _or_none(_text, winner),
        _or_none(_text, reason),
        _or_none(_whole, score),
        _whole(actions),
        _or_none(_time, last_at),
        _or_none(_whole, match_id),
        _or_none(_time, first_at),
    )


class GameStore:
    """The database of saved games and settings under a state directory."""

    def __init__(
        self,
        state_dir: Path,
        wall_clock: Callable[[], float] = time.time,
        *,
        read_only: bool = False,
        busy_timeout_s: float = BUSY_TIMEOUT_S,
    ) -> None:
        self.state_dir = state_dir
        self.path = state_dir / DATABASE_NAME
        self._wall_clock = wall_clock
        self._busy_timeout_s = busy_timeout_s
        self._busy_timeout_set: tuple[sqlite3.Connection, int] | None = None
        """The connection whose busy timeout was last set, and the milliseconds set."""
        self._conn: sqlite3.Connection | None = None
        self._writable = False
        """False when the connection was opened read-only because writing was refused."""
        self._schema = False
        """True once the tables exist: a database never written has nothing to read."""
        self._version = 0
        """Their schema version: one from before matches, opened read-only, has none."""
        self._saved: dict[int, tuple[int, tuple[object, ...] | None]] = {}
        """Game id → the actions already written, and the phase, winner, reason and score its
        row was last saved with (None when not known): a save that leaves them as they were (most
        guesses) writes the actions alone, one database page fewer for the SD card."""
        self._shm_mapped = False
        """True when the connection may map the `-shm` for writing: checked before each use."""
        self._shm = ShmWatch(self.path)
        """That check, on the `-shm` of the connection open now."""
        self._set_aside: sqlite3.Connection | None = None
        """A connection whose `-shm` stopped taking writes under it: unused, and never closed,
        until the file takes writes again."""
        self.fault: SaveFault | None = None
        """Why games cannot be written right now, or None while they can."""
        self.moved_aside: Path | None = None
        """Where the latest damaged database was moved, if one was."""
        self.fresh_starts = 0
        """How many times a fresh database replaced a damaged one since the store opened: game
        ids handed out before such a start no longer exist."""
        if read_only:
            self._open_read_only()
        else:
            self._open()

    def _open_read_only(self) -> None:
        try:
            self._shm_mapped = shm_blocked(self.path) is None
            self._conn, self._version = open_read_only(self.path)
        except sqlite3.Error as error:
            raise StoreError(f"cannot read {self.path}: {error}") from error
        self._schema = True

    @property
    def available(self) -> bool:
        """False when no database could be opened at all: the table then plays in memory."""
        return self._conn is not None

    @property
    def writable(self) -> bool:
        """True when games are being written: the database is open for writing, and the last
        write (or the check at opening) succeeded."""
        return self._conn is not None and self._writable and self.fault is None

    def recover(self) -> bool:
        """Try again after a fault, reopening the database where the open connection cannot
        write; True when it can be written to again. A full disk or a lock keeps the
        connection, and the next write tells."""
        if self._set_aside is None:
            self._shm_writable()
        if self._set_aside is not None:
            return self._take_back()
        if self.fault in (None, SaveFault.FULL, SaveFault.LOCKED) and self._writable:
            return True
        self.close()
        self._open()
        return self.writable

    def _open(self) -> None:
        self._saved.clear()
        blocked = shm_blocked(self.path)
        if self.path in _LEFT_OPEN and blocked is not None:
            # A connection of this process still maps that -shm: a new one would share the
            # mapping, and crash at its first use.
            self._conn, self._writable, self.fault = None, False, SaveFault.READ_ONLY
            log.error("games are not saved: %s", blocked_line(self.path, blocked))
            return
        opened = open_for_writing(
            self.path,
            busy_timeout_s=self._busy_timeout_s,
            wall_clock=self._wall_clock,
            fault=self.fault,
        )
        self._conn, self._writable, self._schema = opened.conn, opened.writable, opened.schema
        self._shm_mapped = opened.shm_mapped
        self._shm = ShmWatch(self.path)
        self._version = opened.version
        self.fault = opened.fault
        if opened.moved_aside is not None:
            self.moved_aside = opened.moved_aside
            self.fresh_starts += 1

    def _shm_writable(self) -> bool:
        """Before each use of the connection: False, with the connection set aside, when its
        `-shm` no longer takes writes (using it would crash the process)."""
        if self._conn is None or not self._shm_mapped:
            return True
        blocked = self._shm.blocked()
        if blocked is None:
            return True
        self._set_aside, self._conn = self._conn, None
        self.fault = SaveFault.READ_ONLY
        log.error(
            "games are not saved (%s): %s; the game plays on and is saved once it is not",
            SaveFault.READ_ONLY.value,
            blocked_line(self.path, blocked),
        )
        return False

    def _take_back(self) -> bool:
        """The connection set aside, in use again once its `-shm` takes writes."""
        if self._shm.blocked() is not None:
            return False
        self._conn, self._set_aside = self._set_aside, None
        self.fault = None
        log.warning("%s takes writes again: saving resumes", self.path.name + "-shm")
        return self.writable

    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> int | None:
        """Run `statements` in one transaction; the row id of the last one."""
        self._shm_writable()
        if self._conn is None or not self._writable:
            fault = self.fault or SaveFault.IO_ERROR
            raise StoreError(f"games are not saved ({fault.value})", fault=fault)
        # Already failing: try without waiting for a lock, so the table never stops for long.
        timeout_ms = 0 if self.fault is not None else int(self._busy_timeout_s * 1000)
        try:
            if self._busy_timeout_set != (self._conn, timeout_ms):
                # Set only when it changes: one statement fewer on every save.
                self._conn.execute(f"PRAGMA busy_timeout={timeout_ms}")
                self._busy_timeout_set = (self._conn, timeout_ms)
            # One statement is a transaction of its own (the connection commits each statement
            # outside BEGIN), and a writing one takes the write lock as it starts, as BEGIN
            # IMMEDIATE would: two fewer calls into SQLite for most saves.
            several = len(statements) > 1
            if several:
                self._conn.execute("BEGIN IMMEDIATE")
            cursor = None
            for sql, parameters in statements:
                cursor = self._conn.execute(sql, parameters)
            if several:
                self._conn.execute("COMMIT")
        except sqlite3.Error as error:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("ROLLBACK")
            # The table logs it, once per fault, with what it means for the game.
            fault = self.fault = fault_of(error, self.path)
            if is_corruption(error):
                # Reopened by `recover`, whose check moves the damaged file aside.
                self._writable = False
            raise StoreError(f"cannot save ({fault.value}): {error}", fault=fault) from error
        self.fault = None
        return None if cursor is None else cursor.lastrowid

    def start_game(self, key: Key, mode: Mode, started_at: float | None = None) -> int:
        """Record a new game and return its id; raises `StoreError` when it cannot be saved.
        `started_at` is the wall-clock time the game began, when it is written late."""
        at = self._wall_clock() if started_at is None else started_at
        game_id = self._write(
            [
                (
                    "INSERT INTO games (key, mode, started_at, phase, match_id)"
                    " VALUES (?, ?, ?, 'clue', (SELECT MAX(id) FROM matches))",
                    (str(key), mode.value, at),
                )
            ]
        )
        if game_id is None:
            # SQLite gives every inserted row an id; without one the game cannot be saved.
            raise StoreError("the new game got no id")
        self._saved[game_id] = (0, None)
        return game_id

    def save(self, game_id: int, game: Game, actions: Sequence[TimedAction]) -> None:
        """Write the actions not yet saved and the game's current result, in one transaction.

        `actions` is the whole list of accepted actions of the game, so that actions accepted
        while the disk was failing are written as soon as it works again.
        """
        saved, written = self._saved.get(game_id, (None, None))
        if saved is None:
            saved = self._count_actions(game_id)
        state = game.state
        statements: list[tuple[str, Sequence[Any]]] = [
            (
                "INSERT INTO actions (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
                (game_id, seq, str(timed.action), timed.at),
            )
            for seq, timed in enumerate(actions[saved:], start=saved)
        ]
        result = (
            state.phase.value,
            None if state.winner is None else state.winner.value,
            None if state.reason is None else state.reason.value,
            state.score,
        )
        if written != result:
            statements.append(
                (
                    "UPDATE games SET phase = ?, winner = ?, reason = ?, score = ? WHERE id = ?",
                    (*result, game_id),
                )
            )
        if statements:
            self._write(statements)
        self._saved[game_id] = (len(actions), result)

    def _count_actions(self, game_id: int) -> int:
        rows = self._read("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,))
        return int(rows[0][0])

    def latest_game(self) -> SavedGame | None:
        """The most recent game with its actions, or None when there is none to resume."""
        if not self._schema:
            return None
        rows = self._read("SELECT id FROM games ORDER BY id DESC LIMIT 1")
        return self.game(int(rows[0][0])) if rows else None

    def game_before(self, game_id: int) -> SavedGame | None:
        """The game saved just before `game_id` (the one NEW left), or None when there is none."""
        if not self._schema:
            return None
        rows = self._read("SELECT id FROM games WHERE id < ? ORDER BY id DESC LIMIT 1", (game_id,))
        return self.game(int(rows[0][0])) if rows else None

    def undo_reaches(self, game_id: int) -> bool:
        """Whether the table's UNDO can still bring `game_id` back into play: the latest game
        (UNDO takes back its last action, even the one that finished it), and the game before
        it while no action stands in the latest (UNDO takes back the NEW that dealt it). A latest
        game that cannot be read or replayed counts as one with nothing standing: the key stays
        secret."""
        if not self._schema:
            return False
        latest = [row[0] for row in self._read("SELECT id FROM games ORDER BY id DESC LIMIT 2")]
        if game_id not in latest:
            return False
        if game_id == latest[0]:
            return True
        try:
            return not self.game(latest[0]).replay().standing
        except (UnreadableGameError, IllegalActionError):
            return True

    def discard_game(self, game_id: int) -> None:
        """Delete a game and its actions in one transaction: a new game taken back by UNDO, so
        that the latest game, the one a restart resumes, is again the game it replaced. Raises
        `StoreError` when it cannot be written."""
        self._write(
            [
                ("DELETE FROM actions WHERE game_id = ?", (game_id,)),
                ("DELETE FROM games WHERE id = ?", (game_id,)),
            ]
        )
        self._saved.pop(game_id, None)

    def game(self, game_id: int) -> SavedGame:
        """One saved game by id; raises `UnreadableGameError` when it no longer parses."""
        games = self._read("SELECT key, mode FROM games WHERE id = ?", (game_id,))
        if not games:
            raise StoreError(f"no saved game {game_id}")
        rows = self._read(
            "SELECT action, at FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        (key_text, mode_text), number = games[0], len(rows)
        try:
            key, mode = Key.parse(_text(key_text)), Mode(_text(mode_text))
            actions = tuple(TimedAction(parse_action(_text(text)), _time(at)) for text, at in rows)
        except ValueError as error:
            # The message names what failed (never the key itself: it may be a live one).
            raise UnreadableGameError(f"saved game {game_id} cannot be read: {error}") from error
        self._saved[game_id] = (number, None)
        return SavedGame(game_id, key, mode, actions)

    def game_ids(self) -> list[int]:
        """Every saved game, oldest first."""
        if not self._schema:
            return []
        return [row[0] for row in self._read("SELECT id FROM games ORDER BY id")]

    def summaries(self, limit: int | None = None) -> list[GameSummary]:
        """The saved games as the record lists them, newest first, at most `limit` of them."""
        if not self._schema:
            return []
        match = "g.match_id" if self._has_matches else "NULL"
        rows = self._read(
            "SELECT g.id, g.started_at, g.mode, g.phase, g.winner, g.reason, g.score,"
            f" COUNT(a.seq), MIN(a.at), MAX(a.at), {match} FROM games g"
            " LEFT JOIN actions a ON a.game_id = g.id GROUP BY g.id ORDER BY g.id DESC LIMIT ?",
            (-1 if limit is None else limit,),
        )
        try:
            return [_summary(*row) for row in rows]
        except ValueError as error:
            raise StoreError(f"a saved game's record is damaged: {error}") from error

    @property
    def _has_matches(self) -> bool:
        return self._schema and self._version >= MATCHES_VERSION

    def matches(self, *, leaving_out: int | None = None) -> list[MatchRecord]:
        """Every match, oldest first, with its wins; `leaving_out` is a game not counted (the
        one in play, which the table counts itself)."""
        if not self._has_matches:
            return []
        rows = self._read(
            "SELECT m.id, COALESCE(m.started_at,"
            " (SELECT MIN(started_at) FROM games WHERE match_id = m.id)), COUNT(g.id),"
            " COUNT(CASE WHEN g.winner = 'red' THEN 1 END),"
            " COUNT(CASE WHEN g.winner = 'blue' THEN 1 END)"
            " FROM matches m LEFT JOIN games g ON g.match_id = m.id AND g.id IS NOT ?"
            " AND g.mode = 'standard' AND g.phase = 'over'"
            " GROUP BY m.id ORDER BY m.id",
            (leaving_out,),
        )
        try:
            return [
                MatchRecord(_whole(m), _or_none(_time, at), *map(_whole, counts))
                for m, at, *counts in rows
            ]
        except ValueError as error:
            raise StoreError(f"a match's record is damaged: {error}") from error

    def match_of(self, game_id: int) -> int | None:
        """The match `game_id` was played in, None when it has none."""
        if not self._has_matches:
            return None
        rows = self._read("SELECT match_id FROM games WHERE id = ?", (game_id,))
        return rows[0][0] if rows else None

    def open_match(self, at: float, moving: int | None = None) -> None:
        """Begin a new match at wall-clock time `at`: every game started from now on is played
        in it, and so is the saved game `moving`, if given (a game nothing was played in yet).
        Raises `StoreError` when it cannot be written."""
        statements: list[tuple[str, Sequence[Any]]] = [
            ("INSERT INTO matches (started_at) VALUES (?)", (at,))
        ]
        if moving is not None:
            statements.append(
                (
                    "UPDATE games SET match_id = (SELECT MAX(id) FROM matches) WHERE id = ?",
                    (moving,),
                )
            )
        self._write(statements)

    def load_settings(self) -> dict[str, Any]:
        """The settings saved from the menu; one that cannot be read is left out (its default
        applies), and so are all of them when the table cannot be read."""
        if not self._schema:
            return {}
        try:
            rows = self._read("SELECT name, value FROM settings")
        except StoreError as error:
            log.warning("menu settings not read, using the defaults: %s", error)
            return {}
        settings = {}
        for name, value in rows:
            try:
                settings[name] = json.loads(value)
            except (TypeError, ValueError):
                log.warning("menu setting %r is unreadable, using its default", name)
        return settings

    def _read(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        self._shm_writable()
        if self._conn is None:
            fault = self.fault or SaveFault.IO_ERROR
            raise StoreError(f"no database ({fault.value})", fault=fault)
        try:
            return self._conn.execute(sql, parameters).fetchall()
        except sqlite3.Error as error:
            raise StoreError(f"cannot read: {error}") from error

    def save_setting(self, name: str, value: Any) -> None:
        """Save one menu setting; raises `StoreError` when it cannot be saved."""
        self._write(
            [
                (
                    "INSERT INTO settings (name, value) VALUES (?, ?)"
                    " ON CONFLICT(name) DO UPDATE SET value = excluded.value",
                    (name, json.dumps(value)),
                )
            ]
        )

    def close(self) -> None:
        """Close the database; idempotent."""
        self._shm_writable()
        if self._set_aside is not None and not self._take_back():
            # Closing writes the -shm, which would crash the process: the connection is left
            # open for good, and its reference kept so that not even the interpreter's exit
            # closes it. The system drops it with the process.
            ctypes.pythonapi.Py_IncRef(ctypes.py_object(self._set_aside))
            _LEFT_OPEN.add(self.path)
            self._set_aside = None
            self._shm = ShmWatch(self.path)  # its descriptor stays open with the connection
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self._shm.close()
        self._writable = False

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
