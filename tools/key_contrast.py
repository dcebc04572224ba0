"""How well a spymaster can read the LED key: the measured contrast of every pair of cell states.

`python -m tools.key_contrast` (or `make key-contrast`) prints, for each brightness level of
the table's menu and each palette, the pair of cell states that is hardest to tell apart and
their difference in CIEDE2000 units, and exits 1 when any figure is under `GOAL`.

The colours are the ones the pixels emit: the real pattern (`firmware.table.led_pattern`) drawn by
the real `LedKey` on the virtual strip, with the strip's own brightness scaling applied as the
ws2811 driver applies it (`VirtualPixelStrip.lit`), at the brightness the table sets for the
level (`firmware.table.key_feedback.BRIGHTNESS_STEPS`). The states are each identity uncovered and
covered; two covered cells need not differ, every other pair must. A pair counts at the moment of
the blink cycle when it differs most: a cell that blinks while the other holds still stands apart.
Each colour is seen as `tools.colour_vision` models it, and for the colour-blind palette also
as a deuteranope and a protanope see it.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from board_rules.codenames import GameState, Identity, Key
from board_rules.codenames.grid import ALL_COORDS
from firmware.drivers.key_picture import Colour
from firmware.drivers.led_layout import LedLayout
from firmware.table.key_feedback import BRIGHTNESS_STEPS
from firmware.table.led_key import LedKey
from firmware.table.led_pattern import LedStyle
from firmware.virtual.strip import open_virtual_strip
from tools.colour_vision import DEUTERANOPIA, PROTANOPIA, Matrix, apply, ciede2000, lab

GOAL = 12.0
"""The smallest ΔE00 every pair must reach: well past "clearly different" (about 5) so that a
glance at a dim key in a lit room still tells the states apart."""

KEY = Key.parse("RRRRR/RRRRB/BBBBB/BBNNN/NNNNA")
"""Any key will do: a cell's colour depends on its identity and whether it is covered."""


@dataclass(frozen=True)
class CellState:
    """What a spymaster must read off one cell."""

    identity: Identity
    covered: bool

    def __str__(self) -> str:
        return f"{'covered ' if self.covered else ''}{self.identity.value}"


STATES = tuple(CellState(identity, covered) for covered in (False, True) for identity in Identity)


@dataclass(frozen=True)
class View:
    """A palette of the key as one kind of eye sees it."""

    name: str
    colour_blind: bool
    """The colour-blind palette (`LedStyle.colour_blind`) or the normal one."""
    vision: Matrix | None = None
    """A simulated colour-vision deficiency; None for normal vision."""


VIEWS = (
    View("normal", colour_blind=False),
    View("colour-blind", colour_blind=True),
    View("colour-blind, deuteranope", colour_blind=True, vision=DEUTERANOPIA),
    View("colour-blind, protanope", colour_blind=True, vision=PROTANOPIA),
)


@dataclass(frozen=True)
class Figure:
    """The hardest pair of one level and view, and how far apart it is at best in the cycle."""

    first: CellState
    second: CellState
    delta_e: float

    def __str__(self) -> str:
        return f"{self.delta_e:5.1f}  {self.first} / {self.second}"


def must_differ(first: CellState, second: CellState) -> bool:
    """Whether a spymaster must tell the two states apart: all but two covered cells."""
    return first != second and not (first.covered and second.covered)


def blink_times(style: LedStyle) -> tuple[float, ...]:
    """One moment inside each stretch of one whole blink cycle where the picture holds still.

    >>> blink_times(LedStyle())
    (0.25, 0.75)
    >>> blink_times(LedStyle(colour_blind=True))
    (0.25, 0.75, 1.25, 1.75)
    """
    rates = [style.assassin_blink_hz]
    if style.colour_blind:
        rates.append(style.colour_blind_blink_hz)
    # Exact fractions, so that the end of the cycle is not mistaken for a new stretch.
    halves = [1 / (2 * Fraction(hz).limit_denominator(1000)) for hz in rates]
    cycle = 2 * Fraction(
        math.lcm(*(h.numerator for h in halves)), math.gcd(*(h.denominator for h in halves))
    )
    edges = sorted({half * k for half in halves for k in range(int(cycle / half))} | {cycle})
    return tuple(float((start + end) / 2) for start, end in itertools.pairwise(edges))


def emitted(style: LedStyle) -> dict[CellState, tuple[Colour, ...]]:
    """The colour each state's pixel emits at each of `blink_times(style)`, drawn by `LedKey` on
    the virtual strip."""
    cell = {identity: next(c for c in ALL_COORDS if KEY[c] is identity) for identity in Identity}
    uncovered = GameState.start(KEY)
    covered = uncovered
    for coord in cell.values():
        covered = covered.cover(coord)
    layout = LedLayout()
    samples: dict[CellState, list[Colour]] = {state: [] for state in STATES}
    with open_virtual_strip(layout.pixel_count) as strip:
        key = LedKey(strip, layout, style)
        for t in blink_times(style):
            for state, game in ((False, uncovered), (True, covered)):
                key.render(game, t)
                lit = strip.pixel_strip.lit()
                for identity, coord in cell.items():
                    r, g, b = lit[layout.index(coord)]
                    samples[CellState(identity, state)].append((r, g, b))
    return {state: tuple(colours) for state, colours in samples.items()}


def worst_pair(colours: Mapping[CellState, Sequence[Colour]], vision: Matrix | None) -> Figure:
    """The pair of states that differs least at its most distinct moment of the cycle."""

    def seen(colour: Colour) -> tuple[float, float, float]:
        r, g, b = (channel / 255 for channel in colour)
        return lab((r, g, b) if vision is None else apply(vision, (r, g, b)))

    figures = (
        Figure(
            first,
            second,
            max(
                ciede2000(seen(one), seen(other))
                for one, other in zip(colours[first], colours[second], strict=True)
            ),
        )
        for first, second in itertools.combinations(STATES, 2)
        if must_differ(first, second)
    )
    return min(figures, key=lambda figure: figure.delta_e)


def measure(
    style: LedStyle, steps: Mapping[int, int] = BRIGHTNESS_STEPS
) -> Iterator[tuple[int, View, Figure]]:
    """The worst figure of every brightness level and view, levels in order."""
    for level, brightness in sorted(steps.items()):
        for colour_blind in (False, True):
            colours = emitted(replace(style, brightness=brightness, colour_blind=colour_blind))
            for view in VIEWS:
                if view.colour_blind is colour_blind:
                    yield level, view, worst_pair(colours, view.vision)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.key_contrast",
        description=f"Measure the LED key's contrast at every brightness level; exit 1 when a"
        f" pair of cell states is less than ΔE00 {GOAL:g} apart.",
    )
    parser.parse_args(argv)
    return report(list(measure(LedStyle())))


def report(results: Sequence[tuple[int, View, Figure]]) -> int:
    """Print the table of figures; 0 when every one meets `GOAL`, else 1."""
    print(f"LED key: the hardest pair of cell states to tell apart, ΔE00 (goal ≥ {GOAL:g})")
    print(f"{'level':<6}{'view':<27}{'ΔE00':>5}  pair")
    for level, view, figure in results:
        print(f"{level:<6}{view.name:<27}{figure}")
    failing = [figure for _, _, figure in results if figure.delta_e < GOAL]
    print(f"{len(failing)} of {len(results)} under the goal" if failing else "All meet the goal")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
