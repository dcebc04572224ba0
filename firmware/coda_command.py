"""`codenames-table coda`: Coda against computer opponents.

For now only the headless mode exists: `--headless --players hard,random --games G --seed S`
lets 2 to 4 computer players play G games, the winner of each starting the next (the first is
started by player 1), and prints `{"games": G, "wins": [...]}` with the wins of player 1, 2, ...
The on-screen game is not built yet.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import sys

from board_rules.coda.match import play_match
from board_rules.coda.players import Level, strategy
from board_rules.coda.state import MAX_PLAYERS, MIN_PLAYERS
from firmware.cli import EXIT_USAGE

_PROG = "codenames-table coda"
_LEVELS = ", ".join(level.value for level in Level)


class _UsageError(Exception):
    """A bad option: the message names it."""


def run_coda(args: argparse.Namespace) -> int:
    """Run the `coda` subcommand; returns the exit code."""
    if not args.headless:
        print(
            f"{_PROG}: the on-screen game is not built yet; use --headless --players LEVELS"
            " to let computer players play",
            file=sys.stderr,
        )
        return EXIT_USAGE
    try:
        levels = parse_players(args.players)
        if args.games < 1:
            raise _UsageError(f"--games must be 1 or more, not {args.games}")
    except _UsageError as error:
        print(f"{_PROG}: {error}", file=sys.stderr)
        return EXIT_USAGE
    rng: random.Random = secrets.SystemRandom() if args.seed is None else random.Random(args.seed)
    players = [strategy(level) for level in levels]
    wins = play_match(players, args.games, rng, advanced=args.advanced)
    print(json.dumps({"games": args.games, "wins": wins}))
    return 0


def parse_players(text: str | None) -> list[Level]:
    """Read `--players`: 2 to 4 levels, comma-separated (`hard,random`)."""
    if text is None:
        raise _UsageError(f"--headless needs --players: 2 to 4 of {_LEVELS}, comma-separated")
    names = [name.strip().lower() for name in text.split(",")]
    unknown = [name for name in names if name not in {level.value for level in Level}]
    if unknown:
        raise _UsageError(f"--players: unknown level {unknown[0]!r}; the levels are {_LEVELS}")
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise _UsageError(f"--players: 2 to 4 players, not {len(names)}")
    return [Level(name) for name in names]
