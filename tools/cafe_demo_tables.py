"""Virtual tables playing lifelike games in real time, each reporting to a café's broker as the
service does; the tables of `make cafe-demo` (`tools.cafe_demo`), one process for them all.

    python -m tools.cafe_demo_tables URL FOLDER TABLE... [--coop TABLE] [--pace F] [--seed N]

Each table is the whole table on virtual hardware (`VirtualTable`), its games saved in
FOLDER/TABLE, attached to the broker by `firmware.fleet.attach.reporting`, the service's own
way. Its clock is virtual but kept up with real time: the gap before each move is waited on
the table's clock too, so its timers and its messages' times run as a real table's. The players
think as people do (a clue after some seconds, a touch after a few, a new game a while after
the end), those times multiplied by `--pace`; they mostly touch their own agents, now and then
another card, and stop when their clue's number is reached. `--coop` tables play the two-player
variant. SIGINT or SIGTERM ends them: each says `offline` and closes.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from types import FrameType

from board_rules.codenames import ALL_COORDS, Mode, Phase
from firmware.drivers.events import ConsoleButton
from firmware.fleet.attach import reporting
from firmware.table.config import FleetConfig, TableConfig
from firmware.table.settings import TableSettings
from firmware.virtual.table import VirtualTable

NEW_HOLD_S = 2.5
"""Long enough a hold of NEW to deal a new game (2 s by default)."""
OWN_AGENT_ODDS = 0.75
"""How often a touch finds one of the guessing team's own agents."""
THINK_S = {"clue": (8.0, 20.0), "touch": (3.0, 9.0), "done": (2.0, 5.0), "new": (12.0, 25.0)}
"""How long players take before each kind of move, at pace 1: (shortest, longest) seconds."""


def next_move(vt: VirtualTable, rng: random.Random) -> str:
    """The kind of move the players make next: clue, touch, done or new."""
    state = vt.table.state
    if state.phase is Phase.OVER:
        return "new"
    if state.phase in (Phase.CLUE, Phase.PENALTY_COVER):
        return "clue"
    clue = state.clue
    if state.phase is Phase.GUESS and isinstance(clue, int) and state.guesses_made >= clue:
        return "done"
    return "touch"


def make_move(vt: VirtualTable, move: str, rng: random.Random) -> None:
    """Make `move` (from `next_move`) through the table's switches and console."""
    state = vt.table.state
    if move == "new":
        vt.press_button(ConsoleButton.NEW, hold_s=NEW_HOLD_S)
    elif move == "clue":
        # The selector starts at 1: a clue of 1 to 3.
        vt.turn(rng.choice((0, 1, 1, 2)))
        vt.push()
    elif move == "done":
        vt.press_button(ConsoleButton.DONE)
    else:
        open_cards = [coord for coord in ALL_COORDS if coord not in state.covered]
        # The team whose card is covered: in co-op's cover phase, the opponent's.
        own = [coord for coord in open_cards if state.key[coord].team is state.turn]
        pick = own if own and rng.random() < OWN_AGENT_ODDS else open_cards
        vt.press_pad(rng.choice(pick))
        if state.phase is Phase.ENEMY_COVER:
            # A touch only chooses the card to cover; DONE covers it (or, refused, is counted).
            vt.press_button(ConsoleButton.DONE)


@dataclass
class DemoTable:
    """One table and when its players move next (monotonic seconds)."""

    vt: VirtualTable
    due: float
    move: str = "clue"


def oled_up(vt: VirtualTable) -> Callable[[], bool]:
    """Whether `vt`'s displays answer now, as the service's health tells it."""
    return lambda: vt.oled.is_up


def think(move: str, rng: random.Random, pace: float) -> float:
    """Seconds the players take before `move`."""
    shortest, longest = THINK_S[move]
    return rng.uniform(shortest, longest) * pace


def play(
    url: str,
    folder: Path,
    ids: list[str],
    *,
    coop: set[str],
    pace: float,
    seed: int,
    stop: threading.Event,
) -> None:
    """Play on every table until `stop` is set."""
    rng = random.Random(seed)
    with contextlib.ExitStack() as stack:
        tables = []
        for number, table in enumerate(ids):
            mode = Mode.COOP if table in coop else Mode.STANDARD
            config = TableConfig(
                settings=replace(TableSettings(), mode=mode),
                fleet=FleetConfig(broker=url, table=table),
            )
            vt = stack.enter_context(
                VirtualTable(
                    config,
                    folder / table,
                    rng=random.Random(seed + number),
                    wall_clock_start=time.time(),
                    first_mode=mode,
                )
            )
            stack.enter_context(reporting(config.fleet, vt.table, folder / table, oled_up(vt)))
            move = next_move(vt, rng)
            tables.append(DemoTable(vt, time.monotonic() + think(move, rng, pace), move))
        last = time.monotonic()
        while not stop.is_set():
            player = min(tables, key=lambda t: t.due)
            if stop.wait(max(0.0, player.due - time.monotonic())):
                break
            now = time.monotonic()
            for each in tables:
                each.vt.wait(now - last)  # every table's clock keeps up with real time
            last = now
            make_move(player.vt, player.move, rng)
            player.move = next_move(player.vt, rng)
            player.due = time.monotonic() + think(player.move, rng, pace)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the broker, mqtt://host:port")
    parser.add_argument("folder", type=Path, help="where each table keeps its games")
    parser.add_argument("tables", nargs="+", metavar="TABLE", help="the tables' ids")
    parser.add_argument("--coop", action="append", default=[], metavar="TABLE")
    parser.add_argument(
        "--pace",
        type=float,
        default=1.0,
        help="times the players take, times F (0.1: ten times faster)",
    )
    parser.add_argument("--seed", type=int, default=27)
    args = parser.parse_args(argv)
    stop = threading.Event()

    def request_stop(signum: int, frame: FrameType | None) -> None:
        stop.set()

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, request_stop)
    play(
        args.url,
        args.folder,
        args.tables,
        coop=set(args.coop),
        pace=args.pace,
        seed=args.seed,
        stop=stop,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
