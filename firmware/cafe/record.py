"""The café's record: every finished game the view saw, from the tables' public `game`
messages, kept in the view's own SQLite file, and the figures the staff ask of it (games per
table and per day, wins per team, co-op scores, game lengths) as a page and as CSV.

A game is known by its table and the time of its last action, so the same finished game heard
again (the broker's retained message after a restart of the view) is kept once; a game whose
table does not date its last action (an older table) cannot be told apart and is not kept. Its
length is `model.game_length_s`: from the first clue to the last action, the one definition of
the café.
"""

from __future__ import annotations

import csv
import io
import math
import sqlite3
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from firmware.cafe.model import game_length_s
from firmware.fleet.schema import GameMessage

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS games (
    table_id TEXT NOT NULL,
    ended_at REAL NOT NULL,
    started_at REAL,
    mode TEXT NOT NULL,
    winner TEXT,
    reason TEXT,
    score INTEGER,
    length_s REAL,
    PRIMARY KEY (table_id, ended_at)
)
"""
COLUMNS: Final = (
    "table_id",
    "ended_at",
    "started_at",
    "mode",
    "winner",
    "reason",
    "score",
    "length_s",
)


@dataclass(frozen=True)
class Interval:
    """A mean and its 95 % interval (normal approximation), of `n` values."""

    n: int
    mean: float
    low: float
    high: float


def mean_interval(values: list[float]) -> Interval | None:
    """The mean of `values` with its 95 % interval; None without values."""
    if not values:
        return None
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return Interval(len(values), mean, mean - half, mean + half)


def _cell(value: object) -> object:
    """A CSV cell that a spreadsheet will not run as a formula (texts come from the tables)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


class CafeRecord:
    """The record in the SQLite file at `path` (made when missing)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(SCHEMA)

    def finished(self, table: str, game: GameMessage) -> bool:
        """Keep `table`'s finished `game` (a `game` message); False when it was kept already or
        cannot be told apart from another."""
        last = game.get("last")
        if game["phase"] != "over" or last is None:
            return False
        ended = last["at"]
        cursor = self._db.execute(
            "INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                table,
                ended,
                game.get("started_at"),
                game["mode"],
                game["winner"],
                game["reason"],
                game["score"],
                game_length_s(game, ended),
            ),
        )
        return cursor.rowcount == 1

    def games(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The games kept, the latest first."""
        query = f"SELECT {', '.join(COLUMNS)} FROM games ORDER BY ended_at DESC"
        rows = self._db.execute(query + (" LIMIT ?" if limit else ""), (limit,) if limit else ())
        return [dict(zip(COLUMNS, row, strict=True)) for row in rows]

    def stats(self) -> dict[str, Any]:
        """Games per table and per day (the view's local day), wins per team, co-op games won
        and their scores, and game lengths (mean minutes with a 95 % interval)."""
        games = self.games()
        per_table: dict[str, int] = {}
        per_day: dict[str, int] = {}
        wins: dict[str, int] = {}
        coop_scores: list[float] = []
        coop_lost = 0
        lengths: list[float] = []
        for game in games:
            per_table[game["table_id"]] = per_table.get(game["table_id"], 0) + 1
            day = time.strftime("%Y-%m-%d", time.localtime(game["ended_at"]))
            per_day[day] = per_day.get(day, 0) + 1
            if game["mode"] == "coop":
                if game["score"] is None:
                    coop_lost += 1
                else:
                    coop_scores.append(game["score"])
            elif game["winner"] is not None:
                wins[game["winner"]] = wins.get(game["winner"], 0) + 1
            if game["length_s"] is not None:
                lengths.append(game["length_s"] / 60)
        return {
            "games": len(games),
            "per_table": dict(sorted(per_table.items())),
            "per_day": dict(sorted(per_day.items(), reverse=True)),
            "wins": wins,
            "coop_won": len(coop_scores),
            "coop_lost": coop_lost,
            "coop_score": mean_interval(coop_scores),
            "minutes": mean_interval(lengths),
        }

    def csv(self) -> str:
        """Every game kept, as CSV with a header line; times in ISO 8601 (local time)."""
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(COLUMNS)
        for game in self.games():
            for name in ("ended_at", "started_at"):
                if game[name] is not None:
                    game[name] = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(game[name]))
            if game["length_s"] is not None:
                game["length_s"] = round(game["length_s"])
            writer.writerow(_cell(game[name]) for name in COLUMNS)
        return out.getvalue()

    def close(self) -> None:
        self._db.close()
