"""`codenames-table stats`: how the table is used, from the saved games.

Games by mode, wins per team, assassin endings, average length (first to last action) and turns,
guesses per clue, co-op scores, and the matches with their wins. Undone actions do not count:
each game is replayed and only the actions that still stand are read.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from board_rules.codenames import EndReason, GiveClue, IllegalActionError, Mode, Team, Touch
from firmware.cli.state_folder import open_record, staff_state_dir
from firmware.errors import UsageError
from firmware.table.store import (
    GameStore,
    MatchRecord,
    SavedGame,
    StoreError,
    UnreadableGameError,
    game_length_s,
    iso_time,
)


@dataclass
class UsageStats:
    """The figures `stats` reports."""

    games: Counter[str] = field(default_factory=Counter)
    """Games started, per mode."""
    finished: Counter[str] = field(default_factory=Counter)
    """Games played to the end, per mode."""
    wins: Counter[str] = field(default_factory=Counter)
    """Standard games won, per team."""
    assassin_endings: int = 0
    minutes: list[float] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    clues: int = 0
    guesses: int = 0
    coop_scores: Counter[int] = field(default_factory=Counter)
    coop_losses: int = 0
    unreadable: int = 0
    """Saved games that no longer replay (left out of every other figure)."""
    matches: list[MatchRecord] = field(default_factory=list)
    """Every match, oldest first, with its wins."""

    def add(self, saved: SavedGame) -> None:
        """Count one saved game."""
        try:
            game = saved.replay()
        except IllegalActionError:
            self.unreadable += 1
            return
        mode = saved.mode.value
        self.games[mode] += 1
        standing = game.standing
        self.clues += sum(1 for action in standing if isinstance(action, GiveClue))
        self.guesses += sum(1 for action in standing if isinstance(action, Touch))
        state = game.state
        if not state.is_over:
            return
        self.finished[mode] += 1
        self.turns.append(sum(1 for action in standing if isinstance(action, GiveClue)))
        if saved.actions:
            length_s = game_length_s(saved.actions[0].at, saved.actions[-1].at)
            self.minutes.append(length_s / 60)
        if state.reason is EndReason.ASSASSIN:
            self.assassin_endings += 1
        if saved.mode is Mode.COOP:
            if state.score is None:
                self.coop_losses += 1
            else:
                self.coop_scores[state.score] += 1
        elif state.winner is not None:
            self.wins[state.winner.value] += 1

    def to_dict(self) -> dict[str, Any]:
        """The figures as JSON-ready data."""
        scores = list(self.coop_scores.elements())
        return {
            "games": {mode.value: self.games[mode.value] for mode in Mode},
            "finished": {mode.value: self.finished[mode.value] for mode in Mode},
            "wins": {team.value: self.wins[team.value] for team in Team},
            "assassin_endings": self.assassin_endings,
            "average_minutes": _mean(self.minutes),
            "average_turns": _mean(self.turns),
            "guesses_per_clue": round(self.guesses / self.clues, 2) if self.clues else None,
            "coop": {
                "wins": len(scores),
                "losses": self.coop_losses,
                "average_score": _mean(scores),
                "scores": {str(score): self.coop_scores[score] for score in sorted(scores)},
            },
            "unreadable": self.unreadable,
            "matches": [
                {
                    "id": match.match_id,
                    "started_at": None if match.started_at is None else iso_time(match.started_at),
                    "games": match.games,
                    "wins": {"red": match.red, "blue": match.blue},
                }
                for match in self.matches
            ],
        }


def _local(at: str) -> str:
    """An ISO 8601 time of the figures as a person reads it."""
    return datetime.fromisoformat(at).strftime("%Y-%m-%d %H:%M")


def _mean(values: list[float] | list[int]) -> float | None:
    return round(statistics.fmean(values), 1) if values else None


def collect(store: GameStore) -> UsageStats:
    """The figures of every game in `store`."""
    stats = UsageStats()
    for game_id in store.game_ids():
        try:
            saved = store.game(game_id)
        except UnreadableGameError:
            stats.unreadable += 1
            continue
        stats.add(saved)
    stats.matches = store.matches()
    return stats


def format_text(figures: dict[str, Any]) -> str:
    """The figures for people, one per line."""
    games, finished, wins, coop = (
        figures["games"],
        figures["finished"],
        figures["wins"],
        figures["coop"],
    )

    def shown(value: object, unit: str = "") -> str:
        return "–" if value is None else f"{value}{unit}"

    total, done = games["standard"] + games["coop"], finished["standard"] + finished["coop"]
    lines = [
        f"Saved games in:   {figures['state_dir']}",
        f"Games:            {total} ({games['standard']} standard, {games['coop']} co-op), "
        f"{done} of them finished",
        f"Wins:             red {wins['red']}, blue {wins['blue']}",
        f"Assassin endings: {figures['assassin_endings']}",
        f"Average game:     {shown(figures['average_minutes'], ' min')}, "
        f"{shown(figures['average_turns'])} turns",
        f"Guesses per clue: {shown(figures['guesses_per_clue'])}",
        f"Co-op:            {coop['wins']} won, {coop['losses']} lost, "
        f"average score {shown(coop['average_score'])}",
    ]
    if coop["scores"]:
        counts = ", ".join(f"{score}: {count}" for score, count in coop["scores"].items())
        lines.append(f"Co-op scores:     {counts}")
    if figures["matches"]:
        current = figures["matches"][-1]
        began = current["started_at"]
        since = "" if began is None else f", since {_local(began)}"
        lines.append(
            f"Matches:          {len(figures['matches'])}; the latest{since}: "
            f"red {current['wins']['red']}, blue {current['wins']['blue']}"
        )
    if figures["unreadable"]:
        lines.append(f"Unreadable games: {figures['unreadable']} (left out)")
    return "\n".join(lines)


def run_stats(args: argparse.Namespace) -> int:
    """Run the `stats` subcommand; returns the exit code, raises `UsageError`."""
    state_dir = staff_state_dir(args.state_dir, args.config)
    store = open_record(state_dir)
    stats = UsageStats()
    if store is not None:
        with store:
            try:
                stats = collect(store)
            except StoreError as error:
                raise UsageError(f"cannot read the saved games in {state_dir}: {error}") from error
    figures = {"state_dir": str(state_dir), **stats.to_dict()}
    print(json.dumps(figures) if args.json else format_text(figures))
    return 0
