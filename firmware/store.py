"""Saved games: every game and every accepted action, in SQLite, written before any feedback.

WAL mode with `synchronous=FULL` makes each committed action survive a power cut. The table
resumes the latest game by replaying its actions through the rules core. A database that cannot
be opened or is corrupt is moved aside with a time stamp and a fresh one is started; when even
that fails, or a write fails (full or read-only disk), the store reports it and the table plays
on in memory, writing what it missed once the disk is back.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from board_rules.codenames import Action, Game, Key, Mode, parse_action

log = logging.getLogger(__name__)

DATABASE_NAME = "games.sqlite3"
SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    mode TEXT NOT NULL,
    started_at REAL NOT NULL,
    phase TEXT NOT NULL,
    winner TEXT,
    reason TEXT,
    score INTEGER
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
"""


class StoreError(OSError):
    """The saved games could not be written or read; the game goes on in memory."""


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


class GameStore:
    """The database of saved games and settings under a state directory."""

    def __init__(
        self,
        state_dir: Path,
        wall_clock: Callable[[], float] = time.time,
        *,
        read_only: bool = False,
    ) -> None:
        self.path = state_dir / DATABASE_NAME
        self._wall_clock = wall_clock
        self._conn: sqlite3.Connection | None = None
        self._saved: dict[int, int] = {}  # game id → actions already written
        self.moved_aside: Path | None = None
        """Where a corrupt or unopenable database was moved, if it was."""
        if read_only:
            self._open_read_only()
        else:
            self._open(state_dir)

    def _open_read_only(self) -> None:
        # For staff tools beside a running table: never create, repair or move anything.
        try:
            self._conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
            self._conn.execute("SELECT COUNT(*) FROM games").fetchone()
        except sqlite3.Error as error:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
            raise StoreError(f"cannot read {self.path}: {error}") from error

    @property
    def available(self) -> bool:
        """False when no database could be opened: the table then plays in memory only."""
        return self._conn is not None

    def _open(self, state_dir: Path) -> None:
        try:
            state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as error:
            log.warning(
                "state directory %s is not usable (%s): games are not saved", state_dir, error
            )
            return
        try:
            self._conn = self._connect()
            return
        except sqlite3.Error as error:
            log.warning("database %s cannot be used (%s): moving it aside", self.path, error)
        self.moved_aside = self._move_aside()
        try:
            self._conn = self._connect()
        except (sqlite3.Error, OSError) as error:
            log.warning("no database at %s (%s): games are not saved", self.path, error)

    def _connect(self) -> sqlite3.Connection:
        if not self.path.exists():
            # Create it private: the key of the game in progress is in it.
            os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
        conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            if conn.execute("PRAGMA quick_check").fetchone() != ("ok",):
                raise sqlite3.DatabaseError("integrity check failed")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, SCHEMA_VERSION):
                raise sqlite3.DatabaseError(f"schema version {version} is not {SCHEMA_VERSION}")
            conn.executescript(_SCHEMA)
            conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.Error:
            conn.close()
            raise
        return conn

    def _move_aside(self) -> Path | None:
        stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(self._wall_clock()))
        target = self.path.with_name(f"{self.path.name}.broken-{stamp}")
        try:
            os.replace(self.path, target)
        except OSError as error:
            log.warning("cannot move %s aside: %s", self.path, error)
            return None
        for suffix in ("-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.remove(f"{self.path}{suffix}")
        return target

    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
        if self._conn is None:
            raise StoreError("games are not saved: no database")
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            for sql, parameters in statements:
                self._conn.execute(sql, parameters)
            self._conn.execute("COMMIT")
        except sqlite3.Error as error:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("ROLLBACK")
            raise StoreError(f"cannot save: {error}") from error

    def start_game(self, key: Key, mode: Mode) -> int:
        """Record a new game and return its id; raises `StoreError` when it cannot be saved."""
        if self._conn is None:
            raise StoreError("games are not saved: no database")
        try:
            with self._conn:
                cursor = self._conn.execute(
                    "INSERT INTO games (key, mode, started_at, phase) VALUES (?, ?, ?, 'clue')",
                    (str(key), mode.value, self._wall_clock()),
                )
        except sqlite3.Error as error:
            raise StoreError(f"cannot save: {error}") from error
        game_id = cursor.lastrowid
        assert game_id is not None  # an INSERT always has one
        self._saved[game_id] = 0
        return game_id

    def save(self, game_id: int, game: Game, actions: Sequence[TimedAction]) -> None:
        """Write the actions not yet saved and the game's current result, in one transaction.

        `actions` is the whole list of accepted actions of the game, so that actions accepted
        while the disk was failing are written as soon as it works again.
        """
        saved = self._saved.get(game_id)
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
        statements.append(
            (
                "UPDATE games SET phase = ?, winner = ?, reason = ?, score = ? WHERE id = ?",
                (
                    state.phase.value,
                    None if state.winner is None else state.winner.value,
                    None if state.reason is None else state.reason.value,
                    state.score,
                    game_id,
                ),
            )
        )
        self._write(statements)
        self._saved[game_id] = len(actions)

    def _count_actions(self, game_id: int) -> int:
        rows = self._read("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,))
        return int(rows[0][0])

    def latest_game(self) -> SavedGame | None:
        """The most recent game with its actions, or None when there is none to resume."""
        if self._conn is None:
            return None
        rows = self._read("SELECT id FROM games ORDER BY id DESC LIMIT 1")
        return self.game(int(rows[0][0])) if rows else None

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
            key, mode = Key.parse(key_text), Mode(mode_text)
            actions = tuple(TimedAction(parse_action(text), at) for text, at in rows)
        except ValueError as error:
            # The message names what failed (never the key itself: it may be a live one).
            raise UnreadableGameError(f"saved game {game_id} cannot be read: {error}") from error
        self._saved[game_id] = number
        return SavedGame(game_id, key, mode, actions)

    def game_ids(self) -> list[int]:
        """Every saved game, oldest first."""
        if self._conn is None:
            return []
        return [row[0] for row in self._read("SELECT id FROM games ORDER BY id")]

    def load_settings(self) -> dict[str, Any]:
        """The settings saved from the menu; one that cannot be read is left out (its default
        applies), and so are all of them when the table cannot be read."""
        if self._conn is None:
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
        if self._conn is None:
            raise StoreError("games are not saved: no database")
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
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
