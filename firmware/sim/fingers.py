"""The fingers on the simulation's switches: what a key or a mouse button does to the virtual
circuit, on the virtual clock, with no window.

A press closes a switch of the virtual matrix (or the encoder's push) and a release opens it, but
never before the switch was down for a short press: a click of the mouse takes no time at all,
and the scanner would rightly take it for a bounce. A switch pressed again before an earlier
release came due keeps its new press: each release names the press it ends.
"""

from __future__ import annotations

from enum import Enum
from functools import partial
from typing import NamedTuple

from board_rules.codenames import Coord
from firmware.drivers.clock import VirtualClock
from firmware.drivers.events import ConsoleButton
from firmware.virtual.table import PRESS_S, VirtualTable


class EncoderPush(Enum):
    """The encoder's push switch, the one console switch outside the matrix."""

    PUSH = "push"


Switch = Coord | ConsoleButton | EncoderPush
"""Anything the simulation can hold down: a card pad, a console button, the encoder push."""


class _Press(NamedTuple):
    """A switch held down: since when (virtual seconds) and which press it is."""

    at: float
    number: int


class Fingers:
    """Presses and releases on `table`'s switches, timed by `clock` (the table's own);
    after `lift` they touch nothing."""

    def __init__(self, table: VirtualTable, clock: VirtualClock) -> None:
        self._table = table
        self._clock = clock
        self._held: dict[Switch, _Press] = {}
        """Switches down now."""
        self._presses = 0
        self._lifted = False

    def press(self, switch: Switch) -> bool:
        """Close `switch`; False when it is already down."""
        if switch in self._held or self._lifted:
            return False
        self._presses += 1
        self._held[switch] = _Press(self._clock.monotonic(), self._presses)
        self._move(switch, closed=True)
        return True

    def release(self, switch: Switch) -> None:
        """Open `switch`, at the earliest once it was down for a short press."""
        press = self._held.get(switch)
        if press is None:
            return
        left = press.at + PRESS_S - self._clock.monotonic()
        if left > 0:
            self._clock.call_later(left, partial(self._open, switch, press.number))
        else:
            self._open(switch, press.number)

    def tap(self, switch: Switch, hold_s: float = PRESS_S) -> None:
        """Press `switch` and let go `hold_s` seconds later (on the virtual clock)."""
        if self.press(switch):
            self._clock.call_later(hold_s, partial(self._open, switch, self._presses))

    def lift(self) -> None:
        """Touch nothing more (the table is closing); idempotent."""
        self._lifted = True

    def _open(self, switch: Switch, number: int) -> None:
        press = self._held.get(switch)
        if press is not None and press.number == number and not self._lifted:
            del self._held[switch]
            self._move(switch, closed=False)

    def _move(self, switch: Switch, *, closed: bool) -> None:
        circuit, encoder = self._table.circuit, self._table.encoder
        if isinstance(switch, Coord):
            (circuit.press_pad if closed else circuit.release_pad)(switch)
        elif isinstance(switch, ConsoleButton):
            (circuit.press_button if closed else circuit.release_button)(switch)
        else:
            (encoder.press if closed else encoder.release)()
