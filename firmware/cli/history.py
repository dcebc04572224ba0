"""`codenames-table history`: the saved games, newest first, for staff settling a question.

Each game's id (what `export` takes), start (local time), mode, state (in play, or the winner
and why, the score in co-op), the actions saved (undos included) and its length (from its first
clue to its latest action: `game_length_s`), and the match it was played in. `--json` prints
the same as one array.
"""

from __future__ import annotations

import argparse
import json
from datetime import datetime
from typing import Any

from board_rules.text import clip
from firmware.cli.state_folder import open_record, staff_state_dir
from firmware.errors import UsageError
from firmware.table.store import LARGEST_ID, GameSummary, StoreError, iso_time


def summary_dict(game: GameSummary) -> dict[str, Any]:
    """One game as `--json` prints it; `started_at` in local time, ISO 8601 with its offset."""
    return {
        "id": game.game_id,
        "started_at": iso_time(game.started_at),
        "mode": game.mode,
        "phase": game.phase,
        "winner": game.winner,
        "reason": game.reason,
        "score": game.score,
        "actions": game.actions,
        "seconds": _length_s(game),
        "match": game.match_id,
    }


def _length_s(game: GameSummary) -> int:
    return round(game.length_s)


def state_text(game: GameSummary) -> str:
    """The game's state in a few words: in play, or who won and why."""
    if game.phase != "over":
        return "in play"
    if game.mode == "coop":
        return "lost" if game.score is None else f"won, score {game.score}"
    return f"{game.winner} won ({'assassin' if game.reason == 'assassin' else 'all agents'})"


def format_table(games: list[GameSummary]) -> str:
    """The games for people: a header and one line per game."""
    lines = [
        f"{'ID':>5}  {'Started':<16}  {'Mode':<8}  {'State':<22}  {'Actions':>7}  {'Length':>6}"
        "  Match"
    ]
    for game in games:
        started = datetime.fromtimestamp(game.started_at).strftime("%Y-%m-%d %H:%M")
        minutes, seconds = divmod(_length_s(game), 60)
        lines.append(
            f"{game.game_id:>5}  {started:<16}  {'co-op' if game.mode == 'coop' else game.mode:<8}"
            f"  {state_text(game):<22}  {game.actions:>7}  {minutes:>3}:{seconds:02d}"
            f"  {'–' if game.match_id is None else game.match_id:>5}"
        )
    return "\n".join(lines)


def run_history(args: argparse.Namespace) -> int:
    """Run the `history` subcommand; returns the exit code, raises `UsageError`."""
    if args.limit is not None and not 1 <= args.limit <= LARGEST_ID:
        raise UsageError(f"--limit must be 1 to {LARGEST_ID}, not {clip(str(args.limit))}")
    state_dir = staff_state_dir(args.state_dir, args.config)
    store = open_record(state_dir)
    games: list[GameSummary] = []
    if store is not None:
        with store:
            try:
                games = store.summaries(args.limit)
            except StoreError as error:
                raise UsageError(f"cannot read the saved games in {state_dir}: {error}") from error
    if args.json:
        print(json.dumps([summary_dict(game) for game in games]))
    elif games:
        print(format_table(games))
    else:
        print(f"No saved games in {state_dir}")
    return 0
