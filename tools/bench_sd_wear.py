"""The SD card's wear: what the table writes to its state folder per action, and the years a card
lasts at that rate.

    python -m tools.bench_sd_wear [--games N] [--state-dir DIR]

Plays N of the bench's longest legal games (clue, touches, new game: `tools.bench.next_move`) on
a virtual table on a virtual clock, its store in a folder on a real disk, and reads the bytes
this process made the kernel send to storage (`write_bytes` of `/proc/self/io`: the pages the
store's writes and fsyncs pushed out, the WAL's appends and checkpoints included) and its write
calls (`syscw`). The WAL index's write-back, which the kernel does on its own later, is added
from its rule (`SHM_PAGES_PER_FLUSH`). Prints one JSON object.

The years come from the card below and are only as good as its figures, named where they are
set; with the read-only root the state folder is all the table writes to the card.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from board_rules.codenames import Phase
from firmware.drivers.events import ConsoleButton
from firmware.virtual.table import VirtualTable
from tools.bench import SEED, bench_config, next_move

GAMES = 40
"""Games to play: about 1,600 saved actions, a few checkpoints of the WAL."""

CARD_BYTES = 16e9
"""A 16 GB card."""
ERASE_CYCLES = {"high_endurance": 3000, "cheapest": 100}
"""How often each cell of a card may be erased and written again: 3,000 for a high-endurance
card as those state it (the kind the bill of materials names), and the pessimistic end of QLC
NAND's rating, 100 to 1,000 cycles (Micron, announcing its i300 QLC microSD cards), the cheapest
flash a card may hold. The goal is judged on the first."""
WRITE_AMPLIFICATION = 8.0
"""What the card writes inside for each byte it is sent, taken pessimistically (no card states
it): the store's writes come in 4 KiB pages, each fsynced, and a card whose flash pages are
16 KiB programs a whole one for each (×4); its garbage collection rewrites as much again (×2)."""
GAMES_PER_DAY = 300
"""More than one table can play in a day: the wear at 300 is an upper bound."""
SHM_PAGES_PER_FLUSH = 2
"""The WAL index (`games.sqlite3-shm`) is a shared mapping of a file on the card: SQLite never
syncs it, but the kernel writes its dirty pages back. Each commit dirties its header page and
one hash page; both go back at most once per flush interval."""
FLUSH_INTERVAL_S = 30.0
"""How old a dirty page gets before the kernel writes it back (`vm.dirty_expire_centisecs`,
3000 by default): with play all day, the WAL index costs two pages every 30 s."""
DAYS_PER_YEAR = 365.25
YEARS_GOAL = 10.0
PAGE_BYTES = 4096
"""The kernel's page: the unit it writes back."""


def io_counters() -> dict[str, int]:
    """This process's I/O counters (Linux): `write_bytes`, `syscw` and the others."""
    counters = {}
    for line in Path("/proc/self/io").read_text().splitlines():
        name, _, value = line.partition(":")
        counters[name.strip()] = int(value)
    return counters


def _new_game(vt: VirtualTable) -> None:
    game = vt.table.game
    vt.press_button(ConsoleButton.NEW, hold_s=2.2)  # NEW is held 2 s by default
    if vt.table.game is game:
        raise RuntimeError("holding NEW did not start a new game")


def play(vt: VirtualTable, games: int) -> int:
    """Play `games` games to their end (the last one too) and return the actions saved."""
    actions = 0
    played = 0
    while True:
        state = vt.table.state
        move = next_move(state)
        if move == "new":
            played += 1
            if played == games:
                return actions
            _new_game(vt)
            continue
        before = len(vt.table.game.applied)
        if move == "clue":
            vt.turn(-1)  # the selector starts at 1 in every clue phase: now 0
            vt.push()
            if vt.table.state.phase is not Phase.GUESS:
                raise RuntimeError("the clue was not taken")
        else:
            vt.press_pad(move)
        taken = len(vt.table.game.applied) - before
        if taken != 1:
            raise RuntimeError(f"a move was taken {taken} times")
        actions += taken


def measure(state_dir: Path, games: int) -> dict[str, Any]:
    """Play on a table whose store is in `state_dir`, and work out the wear from what it wrote."""
    with VirtualTable(bench_config(), state_dir, rng=random.Random(SEED)) as vt:
        vt.wait(0)
        start = io_counters()
        actions = play(vt, games)
        end = io_counters()
        files = {path.name: path.stat().st_size for path in sorted(state_dir.iterdir())}
    written = end["write_bytes"] - start["write_bytes"]
    if written <= 0:
        raise RuntimeError(f"{state_dir} is not on a disk: nothing was written to storage")
    per_action = written / actions
    shm_per_day = SHM_PAGES_PER_FLUSH * PAGE_BYTES * 86400 / FLUSH_INTERVAL_S
    per_day = per_action * actions / games * GAMES_PER_DAY + shm_per_day
    years = {
        card: CARD_BYTES * cycles / (WRITE_AMPLIFICATION * per_day * DAYS_PER_YEAR)
        for card, cycles in ERASE_CYCLES.items()
    }
    return {
        "games": games,
        "actions": actions,
        "bytes_written": written,
        "bytes_per_action": round(per_action),
        "write_calls_per_action": round((end["syscw"] - start["syscw"]) / actions, 2),
        "state_files_bytes": files,
        "card": {
            "bytes": CARD_BYTES,
            "erase_cycles": ERASE_CYCLES,
            "flush_interval_s": FLUSH_INTERVAL_S,
            "write_amplification": WRITE_AMPLIFICATION,
            "games_per_day": GAMES_PER_DAY,
        },
        "wal_index_bytes_per_day": round(shm_per_day),
        "bytes_per_day": round(per_day),
        "card_years": {card: round(value, 1) for card, value in years.items()},
        "card_years_goal": YEARS_GOAL,
        "card_years_met": years["high_endurance"] >= YEARS_GOAL,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench_sd_wear",
        description="Bytes the table writes per action, and the years an SD card lasts at that.",
    )
    parser.add_argument("--games", type=int, default=GAMES, help="games to play (2 or more)")
    parser.add_argument(
        "--state-dir",
        type=Path,
        help="an empty folder on the disk to measure (default: a new one in the working folder, "
        "since /tmp may be in memory)",
    )
    args = parser.parse_args(argv)
    if args.games < 2:
        parser.error("--games must be 2 or more")
    if args.state_dir is not None:
        figures = measure(args.state_dir, args.games)
    else:
        with tempfile.TemporaryDirectory(prefix=".bench-sd-wear-", dir=os.getcwd()) as folder:
            figures = measure(Path(folder), args.games)
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
