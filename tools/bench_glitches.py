"""`make bench`'s glitch run: pulses of 1 µs to 1 ms pulling a random column of the switch matrix
low, as ESD on a card and spikes from the mains do, while a team is guessing and nobody touches
and while the bench plays; every card covered that the bench did not touch is a false guess (and
one could be the assassin). `tools.bench` runs this module as a child, since it imports it; the
figures go out as one JSON object on standard output.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from board_rules.codenames import Coord, Phase
from firmware.drivers.matrix_wires import COLUMN_COUNT
from firmware.virtual.matrix_circuit import SwitchMatrixCircuit, glitch_width
from tools.bench import GLITCHES, SCAN_QUIET_S, SEED, Player, next_move, pi_like_table

GLITCH_GAP_S = (0.01, 0.02)
"""Time between two glitches: isolated pulses, as ESD and mains spikes are, yet hundreds a
second (a café sees a few an hour)."""


class Glitcher:
    """Pulls a random column of the switch matrix low for 1 µs to 1 ms, again and again, on its
    own thread, as ESD and mains spikes do; counts the pulses."""

    def __init__(self, circuit: SwitchMatrixCircuit, seed: int = SEED) -> None:
        self._circuit = circuit
        self._rng = random.Random(seed)
        self.pulses = 0
        self._thread: threading.Thread | None = None

    def run_until(self, pulses: int) -> None:
        """Start pulsing, on its thread, until `pulses` pulses in all have been made."""
        self._thread = threading.Thread(
            target=self._run, args=(pulses,), name="glitcher", daemon=True
        )
        self._thread.start()

    def wait(self) -> None:
        """Wait until the pulses asked for are made."""
        if self._thread is not None:
            self._thread.join()

    def _run(self, target: int) -> None:
        rng = self._rng
        while self.pulses < target:
            time.sleep(rng.uniform(*GLITCH_GAP_S))
            width = glitch_width(rng)
            column = rng.randrange(COLUMN_COUNT)
            self._circuit.pull_column(column, low=True)
            # A sleep would stretch a microsecond pulse to tens of them: spin.
            end = time.perf_counter() + width
            while time.perf_counter() < end:
                pass
            self._circuit.pull_column(column, low=False)
            self.pulses += 1


class GlitchedPlayer(Player):
    """A `Player` that counts the cards covered without its touch: false guesses."""

    false_guesses = 0
    # Each glitch sets a scan that reads the columns, 10 to 20 ms apart, so the pins are seldom
    # quiet for a held switch's scan period: the scanner's own word that it rests tells that a
    # release is over.
    scan_quiet_s = 0.0

    def step(self) -> None:
        state, game = self._vt.table.state, self._vt.table.game
        move = next_move(state)
        super().step()
        if self._vt.table.game is game:
            touched = {move} if isinstance(move, Coord) else set()
            self.false_guesses += len(self._vt.table.state.covered - state.covered - touched)


def measure_glitches(
    state_dir: Path, *, glitches: int = GLITCHES, paced: bool = True
) -> dict[str, Any]:
    """The glitch run: `glitches` pulses on the matrix's columns, half of them while a team is
    guessing and nobody touches, half while the bench plays; every card covered that nobody
    touched is a false guess (and one of them could be the assassin)."""
    with pi_like_table(state_dir, paced=paced) as (vt, bus, leds):
        circuit = vt.circuit
        assert isinstance(circuit, SwitchMatrixCircuit)  # the matrix, as bench_config has it
        player = GlitchedPlayer(vt, bus, leds)
        while vt.table.state.phase is not Phase.GUESS:
            player.step()
        idle = vt.table.state
        glitcher = Glitcher(circuit)
        glitcher.run_until(glitches // 2)
        glitcher.wait()
        time.sleep(SCAN_QUIET_S)
        idle_false = len(vt.table.state.covered - idle.covered)
        changed = vt.table.state != idle
        glitcher.run_until(glitches)
        while glitcher.pulses < glitches:
            player.step()
        glitcher.wait()
    return {
        "glitch_run": {
            "glitches": glitcher.pulses,
            "touches": len(player.touches),
            "idle_state_changed": changed,
        },
        "false_guesses": idle_false + player.false_guesses,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench_glitches",
        description="Glitch the switch matrix's columns while a table plays; print the figures.",
    )
    parser.add_argument("--glitches", type=int, default=GLITCHES, help="pulses in all")
    parser.add_argument("--unpaced", action="store_true", help="no bus pacing (quick checks)")
    args = parser.parse_args(argv)
    if args.glitches < 2:
        parser.error("--glitches must be 2 or more")
    with tempfile.TemporaryDirectory(prefix="codenames-bench-") as state:
        figures = measure_glitches(Path(state), glitches=args.glitches, paced=not args.unpaced)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
