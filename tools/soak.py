"""Soak play for the power-cut test: random legal play on a virtual table that may die any time.

    python -m tools.soak STATE_DIR SEED [--max-seconds S]

The table resumes whatever STATE_DIR holds, then plays random legal games through its switches
and console (guesses, clues, stops, penalties and their covers, undo, new games) on a virtual
clock, and reports on standard output, one flushed line each:

    resumed GAME_ID COUNT STATE_JSON    at start: the game resumed and its saved actions
    game GAME_ID                        a new game was started
    back GAME_ID                        UNDO took back the new game (deleted from the disk):
                                        GAME_ID, the game it replaced, is in play again
    action GAME_ID SEQ TEXT             an action accepted, saved and shown (SEQ from 0)

An action's line is written at its first feedback, the moment the players see it taken: the
first frame of the LED strip or the first OLED transfer after the table applied it (hooks at
the lowest boundary, the strip's `show` and the bus's pacing), or else at the end of the move.
The table saves each action before any feedback, so every line names a saved action; a table
that lit the key before saving would let a kill confirm an action the disk never got. The test
kills this process with SIGKILL at random moments and checks that each restart resumes exactly
the confirmed actions (at most the one in flight beyond them), none lost and none doubled.
Short real pauses between moves spread the kills over every part of a move.

`random_move` is also what the robustness tests play with.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from board_rules.codenames import ALL_COORDS, Coord, Game, Phase
from firmware.drivers.events import ConsoleButton
from firmware.drivers.led_strip import DATA_PIN, Ws281xStrip
from firmware.table.config import TableConfig
from firmware.virtual.i2c import VirtualI2C
from firmware.virtual.table import ObservedPixelStrip, VirtualTable

MAX_SECONDS = 120.0
"""The driver stops by itself after this long, should its killer have died first."""
PAUSE_S = 0.002
"""Longest real pause between moves."""
HOLD_S = {ConsoleButton.PENALTY: 1.1, ConsoleButton.UNDO: 1.1, ConsoleButton.NEW: 2.1}
"""Long enough to count as held (1 s, 1 s, 2 s by default)."""


def _clue(vt: VirtualTable, rng: random.Random) -> None:
    # The selector starts at 1: from -1 (clue 0) to +9 (unlimited), and now and then too far.
    vt.turn(rng.randint(-2, 10))
    vt.push()


def random_move(vt: VirtualTable, rng: random.Random, pads: Sequence[Coord] = ALL_COORDS) -> None:
    """Make one random move that a player could make now, mostly legal ones, pressing only
    `pads` (a stuck one left out, say).

    Works on a table driven by `VirtualTable.wait`, that is on a virtual clock.
    """
    state = vt.table.state
    open_cards = [coord for coord in pads if coord not in state.covered] or list(pads)
    roll = rng.random()
    # More often in a game with nothing standing, where UNDO takes back the NEW that dealt it.
    if roll < (0.15 if not vt.table.game.standing else 0.03):
        vt.press_button(ConsoleButton.UNDO, HOLD_S[ConsoleButton.UNDO])
    elif state.phase is Phase.OVER:
        vt.press_button(ConsoleButton.NEW, HOLD_S[ConsoleButton.NEW])
    elif state.phase is Phase.CLUE:
        _clue(vt, rng)
    elif state.phase is Phase.PENALTY_COVER:
        own = [coord for coord in open_cards if state.key[coord].team is state.turn]
        if own and roll < 0.7:
            # A touch chooses the card, DONE covers it.
            vt.press_pad(rng.choice(own))
            vt.press_button(ConsoleButton.DONE)
        else:
            _clue(vt, rng)  # skips the cover
    elif state.phase is Phase.ENEMY_COVER:
        enemy = [coord for coord in open_cards if state.key[coord].team is state.turn]
        vt.press_pad(rng.choice(enemy or open_cards))
        vt.press_button(ConsoleButton.DONE)
    elif roll < 0.8:
        # Now and then the assassin ends a game, which starts the next one.
        vt.press_pad(rng.choice(open_cards))
    elif roll < 0.9:
        vt.press_button(ConsoleButton.DONE)
    elif roll < 0.95:
        vt.press_button(ConsoleButton.PENALTY, HOLD_S[ConsoleButton.PENALTY])
    else:
        # A covered card, or a pad of no use: rejected, nothing saved.
        vt.press_pad(rng.choice(pads))


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class _Reporter:
    """Writes the lines of what the table has applied and not yet reported."""

    def __init__(self) -> None:
        self.vt: VirtualTable | None = None
        """None while the table is being built: nothing is reported before `resumed`."""
        self._game: Game | None = None
        self._game_id = 0
        self._reported = 0

    def start(self, vt: VirtualTable) -> None:
        """Report the resumed game, and from now on each action at its feedback."""
        self._game, self._game_id = vt.table.game, _game_id(vt)
        self._reported = len(self._game.applied)
        state = json.dumps(vt.table.state.to_dict(), sort_keys=True)
        _say(f"resumed {self._game_id} {self._reported} {state}")
        self.vt = vt

    def feedback(self) -> None:
        vt = self.vt
        if vt is None:
            return
        game = vt.table.game
        if game is not self._game:
            game_id = _game_id(vt)
            # NEW adds the latest game; UNDO of a NEW deletes it, the one before is latest again.
            back = game_id < self._game_id
            self._game, self._game_id = game, game_id
            self._reported = len(game.applied) if back else 0
            _say(f"back {game_id}" if back else f"game {game_id}")
        applied = game.applied
        for seq in range(self._reported, len(applied)):
            _say(f"action {self._game_id} {seq} {applied[seq]}")
        self._reported = len(applied)


def _game_id(vt: VirtualTable) -> int:
    saved = vt.store.latest_game()
    if saved is None:
        raise RuntimeError("the table saves nothing: the soak needs a working state directory")
    return saved.game_id


def soak(state_dir: Path, seed: int, *, max_seconds: float = MAX_SECONDS) -> None:
    """Resume the table in `state_dir` and play random moves, reporting each confirmed action."""
    rng = random.Random(seed)
    reporter = _Reporter()
    config = TableConfig()
    pixels = ObservedPixelStrip(config.led_layout.pixel_count, DATA_PIN)
    pixels.on_show = reporter.feedback
    with VirtualTable(
        config,
        state_dir,
        rng=random.Random(rng.random()),
        bus=VirtualI2C(pace=lambda seconds: reporter.feedback()),
        strip=Ws281xStrip(pixels),
    ) as vt:
        reporter.start(vt)
        deadline = time.monotonic() + max_seconds
        while time.monotonic() < deadline:
            random_move(vt, rng)
            reporter.feedback()  # an action that changed neither the key nor the screen
            time.sleep(rng.random() * PAUSE_S)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.soak",
        description="Random legal play on a virtual table, one line per confirmed action.",
    )
    parser.add_argument("state_dir", type=Path)
    parser.add_argument("seed", type=int)
    parser.add_argument("--max-seconds", type=float, default=MAX_SECONDS)
    args = parser.parse_args(argv)
    soak(args.state_dir, args.seed, max_seconds=args.max_seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
