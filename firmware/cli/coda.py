"""`codenames-table coda`: Coda against computer opponents.

Without `--headless` it opens the on-screen game (`firmware.coda.app`, imported only then:
Textual takes a while to load on a Pi): the person against `--opponents` (1 to 3 of easy, hard,
expert and master, comma-separated), the basic game or `--advanced`, in `--lang`, dealt from
`--seed`; the person first chooses their seat in the order of play.

`--headless --players hard,random --games G --seed S` lets 2 to 4 computer players play G games,
the winner of each starting the next (the first is started by player 1), or with `--rotate` the
next player in order, and prints `{"games": G, "seed": S, "wins": [...], "seats": [...],
"rates": [...]}`: the seed (drawn and printed when none is given, so any run can be repeated),
the wins of player 1, 2, ..., the wins by seat (the starter's first), and each player's win
rate in percent with its 95 % interval (Wilson's score interval) as `[rate, low, high]`.
`--timing` adds `"slowest_ms"` and `"p99_ms"`: each player's slowest decision and the 99th
percentile of its decisions, in milliseconds of processor time on this machine.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import secrets
import statistics
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from board_rules.coda.actions import Action
from board_rules.coda.levels import strategy
from board_rules.coda.match import tally_match
from board_rules.coda.players import Level, Strategy
from board_rules.coda.state import MAX_PLAYERS, MIN_PLAYERS
from board_rules.coda.view import PlayerView
from board_rules.text import clip
from firmware.cli.rate_interval import rate_interval
from firmware.collector import settle_garbage_collector
from firmware.errors import UsageError

if TYPE_CHECKING:
    from firmware.coda.app import CodaApp

MAX_GAMES: Final = 10_000
"""The most games one headless run plays: enough for a win rate within ±1 % (95 %), and a run
that ends in minutes even with the slowest players."""
_LEVELS = ", ".join(level.value for level in Level)
COLLECT_AFTER: Final = 10_000
"""The allocations between two of the garbage collector's young passes (Python's default is
700). A computer's decision builds a deduction's layers, tens of thousands of short-lived
tuples and dicts: at the default the collector runs hundreds of times in one decision, and its
full passes over everything alive hold a decision up by up to 200 ms."""


def run_coda(args: argparse.Namespace, clock: Callable[[], float] = time.thread_time) -> int:
    """Run the `coda` subcommand; returns the exit code, raises `UsageError` naming a bad
    option. `clock` times the decisions for `--timing`: by default the deciding thread's own
    processor time, so that other programs sharing the machine do not count."""
    gc.set_threshold(COLLECT_AFTER)
    if not args.headless:
        build_app(args).run()
        return 0
    if args.timer:
        raise UsageError("--timer is for the on-screen game: computers take no time to think")
    levels = parse_players(args.players)
    if not 1 <= args.games <= MAX_GAMES:
        raise UsageError(f"--games must be 1 to {MAX_GAMES}, not {clip(str(args.games))}")
    seed = secrets.randbits(32) if args.seed is None else args.seed
    players = [Timed(strategy(level), clock) for level in levels]
    tally = tally_match(
        players,
        args.games,
        random.Random(seed),
        advanced=args.advanced,
        rotate=args.rotate,
        # Outside any decision: the players' kept odds grow to hundreds of thousands of objects,
        # and a full collection walking them all delayed a decision by up to 318 ms.
        between_games=settle_garbage_collector,
    )
    report: dict[str, object] = {
        "games": args.games,
        "seed": seed,
        "wins": tally.wins,
        "seats": tally.seats,
        "rates": [rate_interval(wins, args.games) for wins in tally.wins],
    }
    if args.timing:
        report["slowest_ms"] = [round(player.slowest * 1000, 1) for player in players]
        report["p99_ms"] = [round(player.percentile(99) * 1000, 1) for player in players]
    print(json.dumps(report))
    return 0


class Timed:
    """A computer player that keeps the time of each decision, by `clock` (seconds)."""

    def __init__(self, play: Strategy, clock: Callable[[], float]) -> None:
        self._play = play
        self._clock = clock
        self.times: list[float] = []

    def __call__(self, view: PlayerView, rng: random.Random) -> Action:
        began = self._clock()
        action = self._play(view, rng)
        self.times.append(self._clock() - began)
        return action

    @property
    def slowest(self) -> float:
        """The slowest decision so far (0 before the first)."""
        return max(self.times, default=0.0)

    def percentile(self, percent: int) -> float:
        """The time `percent` % of the decisions took at most (0 before two of them)."""
        if len(self.times) < 2:
            return self.slowest
        return statistics.quantiles(self.times, n=100, method="inclusive")[percent - 1]


def build_app(args: argparse.Namespace) -> CodaApp:
    """The on-screen game the options ask for; raises `UsageError` naming a bad option."""
    if args.players is not None or args.games != 1 or args.timing:
        raise UsageError("--players, --games and --timing need --headless")
    levels = parse_opponents(args.opponents)
    from firmware.coda.app import CodaApp

    # A seedless game still gets its own Random: the app draws every deal and each computer's
    # stream from it.
    rng = random.Random(args.seed)
    return CodaApp(
        levels,
        advanced=args.advanced,
        language=args.lang,
        rng=rng,
        rotate=args.rotate,
        time_rule=args.timer,
        choose_seat=True,
    )


def parse_opponents(text: str) -> list[Level]:
    """Read `--opponents`: 1 to 3 levels, easy, hard, expert or master, comma-separated
    (`easy,hard`)."""
    from firmware.coda.controller import MAX_OPPONENTS, OPPONENT_LEVELS

    allowed = ", ".join(level.value for level in OPPONENT_LEVELS)
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in {level.value for level in OPPONENT_LEVELS}]
    if unknown:
        raise UsageError(f"--opponents: unknown level {unknown[0]!r}; the levels are {allowed}")
    if not 1 <= len(names) <= MAX_OPPONENTS:
        raise UsageError(f"--opponents: 1 to {MAX_OPPONENTS} opponents, not {len(names)}")
    return [Level(name) for name in names]


def parse_players(text: str | None) -> list[Level]:
    """Read `--players`: 2 to 4 levels, comma-separated (`hard,random`)."""
    if text is None:
        raise UsageError(f"--headless needs --players: 2 to 4 of {_LEVELS}, comma-separated")
    names = [name.strip().lower() for name in text.split(",")]
    unknown = [name for name in names if name not in {level.value for level in Level}]
    if unknown:
        raise UsageError(f"--players: unknown level {unknown[0]!r}; the levels are {_LEVELS}")
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise UsageError(f"--players: 2 to 4 players, not {len(names)}")
    return [Level(name) for name in names]
