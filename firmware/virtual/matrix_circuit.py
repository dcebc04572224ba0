"""The switch matrix as a circuit over gpiozero's `MockFactory` pins: the scanner's virtual twin.

Each switch has a diode, cathode toward its row: a column is pulled low exactly when a closed
switch joins it to a row that is an output driven low; a row driven high, or one that is not an
output, pulls nothing. Otherwise a column sits at its pull resistor's level. The model re-settles
the columns whenever a switch moves, a row pin changes level or function, or a column's pull
changes, and moves a column with `MockPin.drive_low`/`drive_high`, so the scanner hears it
through the same gpiozero edge callbacks as on the Pi.

Handed a time source (`now`, for instance a `WireTime`), the model also has the column's RC time
constant: a column that nothing pulls low any more rises through its pull-up into the wire's
capacitance, and reads low until it has crossed the input's high threshold, as it does under a
table. A fall is immediate: a row driven low pulls the column hard through its diode. A rise
that a row change starts completes when something next looks at the column (a read or another
change), which is when it matters: a column that rose unseen and is pulled low again still makes
its falling edge. A rise started by a switch opening or a glitch ending is what the scanner
dates a release from, so when handed `wait` (which lets the wires' time pass), the circuit waits
out the rise and delivers the column's rising edge as the wires would. Without a time source,
every column follows at once: the ideal circuit.

The pins also count reads of their level (`CountingPin.reads`) and changes of it
(`CountingPin.changes`): that is how the tests see that an idle scanner reads no pins at all, and
what a touch or a held pad costs the scanner.

The contacts move as the switch's datasheet says they do (`move_bouncing`): a press and a release
each chatter for up to the rated bounce, 5 ms (Omron B3F: "Bounce time 5 ms max."), with a few
breaks and re-makes drawn from a seeded RNG. A column can also be pulled low by no switch at all
(`glitch`): ESD on a card or a spike from the mains reaches the wires as a pulse of 1 µs to 1 ms.

Every pin here can do PWM, like every GPIO under lgpio: `MockFactory` refuses to mix PWM and
plain mock pins, so a factory whose pins are all `CountingPin`s can also host the buzzer.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable, Sequence
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

from board_rules.codenames.grid import Coord
from firmware.drivers.clock import Clock
from firmware.drivers.events import ConsoleButton
from firmware.drivers.matrix import (
    LONGEST_GLITCH_MS,
    SWITCH_BOUNCE_MS,
    MatrixSwitch,
    switch_position,
)
from firmware.drivers.matrix_wires import (
    COLUMN_COUNT,
    ROW_COUNT,
    STANDARD_PULL_UP_OHMS,
    WIRE_CAPACITANCE_F,
)
from firmware.drivers.pinout import DEFAULT_PIN_MAP

STATE_HISTORY = 64
"""Level changes a pin keeps for inspection; gpiozero's mock keeps every one otherwise."""
INPUT_HIGH_FRACTION = 2.0 / 3.3
"""The share of 3.3 V at which a Pi input is sure to read high (its V_IH, 2 V)."""
BOUNCE_S = SWITCH_BOUNCE_MS / 1000
"""How long a moving contact chatters at most: the switch's rated bounce."""
MOST_BREAKS = 4
"""Breaks (or re-makes) a moving contact makes at most while it bounces."""
SHORTEST_GLITCH_S = 1e-6
LONGEST_GLITCH_S = LONGEST_GLITCH_MS / 1000


def bounce_toggles(rng: random.Random, bounce_s: float = BOUNCE_S) -> list[float]:
    """When a moving contact toggles after it first touches (or breaks), in seconds from then:
    1 to `MOST_BREAKS` breaks and re-makes, the last within `bounce_s`, so an even number and it
    ends where it moved to.

    >>> toggles = bounce_toggles(random.Random(1))
    >>> len(toggles) % 2, all(0 <= t <= BOUNCE_S for t in toggles), toggles == sorted(toggles)
    (0, True, True)
    """
    span = rng.uniform(0.2, 1.0) * bounce_s
    return sorted(rng.uniform(0, span) for _ in range(2 * rng.randint(1, MOST_BREAKS)))


def glitch_width(rng: random.Random) -> float:
    """A glitch's length in seconds, from 1 µs to 1 ms, as likely in each decade."""
    return float(SHORTEST_GLITCH_S * (LONGEST_GLITCH_S / SHORTEST_GLITCH_S) ** rng.random())


class WireTime:
    """Time on the wires: a clock's time plus the microseconds the scanner spent waiting.

    Hand `now` to the circuit and `wait` to the scanner (`SwitchMatrix(settle_wait=)`): a settle
    wait then moves the circuit's time and nothing else, with no real time passing.
    """

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self.waited_s = 0.0
        """Every wait so far, added up."""

    def now(self) -> float:
        """The clock's time plus every wait so far."""
        return self._clock.monotonic() + self.waited_s

    def wait(self, seconds: float) -> None:
        """Let `seconds` pass on the wires only."""
        self.waited_s += seconds


class CountingPin(MockPWMPin):  # type: ignore[misc]  # gpiozero ships no type hints
    """A mock pin that counts how often its level is read; use it as `MockFactory(pin_class=)`.

    It keeps only the last `STATE_HISTORY` level changes: the scanner drives the rows every few
    milliseconds while a pad is down, and a simulation left running for an evening would
    otherwise hold every change it ever made.
    """

    def __init__(self, factory: MockFactory, info: Any) -> None:
        self.reads = 0
        self.changes = 0
        """Level changes since the pin was made: for a row, the scanner's writes."""
        super().__init__(factory, info)

    def _get_state(self) -> Any:
        self.reads += 1
        return super()._get_state()

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        self.changes += changed
        if len(self.states) > 2 * STATE_HISTORY:
            del self.states[:-STATE_HISTORY]
        return changed


class _MatrixPin(CountingPin):
    """A matrix wire: tells the circuit whenever it may have changed what the columns see."""

    def __init__(self, factory: MockFactory, info: Any, circuit: SwitchMatrixCircuit) -> None:
        self._circuit: SwitchMatrixCircuit | None = None
        super().__init__(factory, info)
        self._circuit = circuit

    def _changed(self) -> None:
        if self._circuit is not None:
            self._circuit.settle()

    def _set_function(self, value: str) -> None:
        super()._set_function(value)
        self._changed()


class _RowPin(_MatrixPin):
    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        if changed:
            self._changed()
        return changed

    @property
    def driven_low(self) -> bool:
        """Sinking current: an output at low level. Reading it here is not a GPIO read."""
        return bool(self._function == "output" and not self._state)


class _ColumnPin(_MatrixPin):
    def __init__(self, factory: MockFactory, info: Any, circuit: SwitchMatrixCircuit) -> None:
        self.rising_since: float | None = None
        """When the column began to rise towards its pull-up, while it still reads low."""
        super().__init__(factory, info, circuit)

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        self._changed()

    def _get_state(self) -> Any:
        if self._circuit is not None and self.rising_since is not None:
            self._circuit.settle()
        return super()._get_state()

    def settle(self, pulled_low: bool, now: float | None, rise_s: float) -> None:
        """Take the level the switches and the pull resistor give this column by `now`."""
        if self._function != "input":
            self.rising_since = None
            return  # an output column drives itself; nothing to model
        if pulled_low or self._pull == "down":
            if (
                self.rising_since is not None
                and now is not None
                and now - self.rising_since >= rise_s
            ):
                # It rose meanwhile, unseen: it falls now, and the fall is an edge like any.
                self.drive_high()
            self.rising_since = None
            self.drive_low()
        elif self._pull == "up":
            if now is None or self._state:
                self.rising_since = None
                self.drive_high()
                return
            if self.rising_since is None:
                self.rising_since = now
            if now - self.rising_since >= rise_s:
                self.rising_since = None
                self.drive_high()
        # A floating column with nothing pulling it keeps its last level, like a real one.


class SwitchMatrixCircuit:
    """The 5 × 6 diode matrix on a `MockFactory`, with switches to press by hand.

    Build it before the scanner, so that the factory hands the scanner this circuit's pins.
    `pull_up_ohms` is all that pulls a column up, the Pi's own pull-up included: for a table's
    `[input] column_pullup_ohms`, `matrix_wires.column_pull_up_ohms` of it (the scanner's settle
    time comes from the same figure).

    >>> from gpiozero.pins.mock import MockFactory
    >>> circuit = SwitchMatrixCircuit(MockFactory())
    >>> circuit.press_pad(Coord.parse("C3"))
    >>> circuit.pressed
    frozenset({(2, 2)})
    """

    def __init__(
        self,
        factory: MockFactory,
        *,
        rows: Sequence[int] = DEFAULT_PIN_MAP.matrix_rows,
        columns: Sequence[int] = DEFAULT_PIN_MAP.matrix_columns,
        now: Callable[[], float] | None = None,
        wait: Callable[[float], None] | None = None,
        pull_up_ohms: float = STANDARD_PULL_UP_OHMS,
        capacitance_f: float = WIRE_CAPACITANCE_F,
    ) -> None:
        if len(rows) != ROW_COUNT or len(columns) != COLUMN_COUNT:
            raise ValueError(
                f"the switch matrix has {ROW_COUNT} rows and {COLUMN_COUNT} columns, "
                f"got {len(rows)} row pins and {len(columns)} column pins"
            )
        self._now = now
        self._wait = wait
        # A rising column reads high once it crosses V_IH: V = 3.3 V × (1 − e^(−t/τ)).
        self.rise_s = pull_up_ohms * capacitance_f * math.log(1 / (1 - INPUT_HIGH_FRACTION))
        """How long a released column still reads low (with a time source)."""
        # Re-entrant: a column edge may reach code that writes a row, on the same thread.
        self._lock = threading.RLock()
        self._pressed: set[tuple[int, int]] = set()
        self._glitches = [0] * COLUMN_COUNT
        """Glitches pulling each column low now (they may overlap)."""
        self._rows: list[_RowPin] = []
        self._columns: list[_ColumnPin] = []
        for pin in rows:
            self._rows.append(self._pin(factory, pin, _RowPin))
        for pin in columns:
            self._columns.append(self._pin(factory, pin, _ColumnPin))
        self.settle()

    def _pin(self, factory: MockFactory, number: int, pin_class: type[_MatrixPin]) -> Any:
        pin = factory.pin(number, pin_class=pin_class, circuit=self)
        if not isinstance(pin, pin_class) or pin._circuit is not self:
            raise ValueError(
                f"GPIO{number} already exists on this factory: build the circuit before the "
                "devices that use its pins"
            )
        return pin

    @property
    def pressed(self) -> frozenset[tuple[int, int]]:
        """The closed switches, as matrix `(row, column)` from 0."""
        with self._lock:
            return frozenset(self._pressed)

    @property
    def reads(self) -> int:
        """Reads of any row or column level since the circuit was built."""
        return sum(pin.reads for pin in (*self._rows, *self._columns))

    def press(self, row: int, column: int) -> None:
        """Close the switch at matrix `row`, `column` (from 0)."""
        self._move(row, column, closed=True)

    def release(self, row: int, column: int) -> None:
        """Open the switch at matrix `row`, `column` (from 0)."""
        self._move(row, column, closed=False)

    def press_pad(self, coord: Coord) -> None:
        """Press the card pad at `coord`."""
        self.press(*switch_position(coord))

    def release_pad(self, coord: Coord) -> None:
        """Let go of the card pad at `coord`."""
        self.release(*switch_position(coord))

    def press_button(self, button: ConsoleButton) -> None:
        """Press a console button."""
        self.press(*switch_position(button))

    def release_button(self, button: ConsoleButton) -> None:
        """Let go of a console button."""
        self.release(*switch_position(button))

    def press_switch(self, switch: MatrixSwitch) -> None:
        """Press a pad or a button."""
        self.press(*switch_position(switch))

    def release_switch(self, switch: MatrixSwitch) -> None:
        """Let go of a pad or a button."""
        self.release(*switch_position(switch))

    def _move(self, row: int, column: int, *, closed: bool) -> None:
        if not (0 <= row < ROW_COUNT and 0 <= column < COLUMN_COUNT):
            raise ValueError(f"no switch at matrix row {row}, column {column}")
        with self._lock:
            if closed:
                self._pressed.add((row, column))
            else:
                self._pressed.discard((row, column))
            self.settle()
            if not closed:
                self._finish_rises()

    def pull_column(self, column: int, *, low: bool) -> None:
        """Start (`low`) or end a glitch holding `column` (from 0) low, whatever the rows do."""
        if not 0 <= column < COLUMN_COUNT:
            raise ValueError(f"no matrix column {column}")
        with self._lock:
            self._glitches[column] += 1 if low else -1
            if self._glitches[column] < 0:
                self._glitches[column] = 0
                raise ValueError(f"no glitch on matrix column {column} to end")
            self.settle()
            if not low:
                self._finish_rises()

    def _finish_rises(self) -> None:
        """Wait out (with `wait`) the rise of any column a switch or a glitch has just let go,
        so that its rising edge is delivered."""
        if self._wait is not None and any(c.rising_since is not None for c in self._columns):
            # Twice the rise time: the wires' time is a sum of floats, and a wait of exactly the
            # rise time can leave it just short of it.
            self._wait(2 * self.rise_s)
            self.settle()

    def settle(self) -> None:
        """Give every column the level the switches and rows make; called on every change."""
        with self._lock:
            if len(self._columns) != COLUMN_COUNT:
                return  # still being built
            now = None if self._now is None else self._now()
            for index, column in enumerate(self._columns):
                pulled_low = self._glitches[index] > 0 or any(
                    self._rows[row].driven_low for row, col in self._pressed if col == index
                )
                column.settle(pulled_low, now, self.rise_s)


def move_bouncing(
    circuit: SwitchMatrixCircuit,
    switch: MatrixSwitch,
    *,
    closed: bool,
    toggles: Sequence[float],
    wait: Callable[[float], None],
) -> None:
    """Close (or open) `switch` as its contact does: it touches (or breaks), then toggles at each
    of `toggles` (seconds from the first touch, as `bounce_toggles` gives them), `wait` letting
    the time between pass (a virtual clock's `advance`, or a sleep). An even number of toggles
    leaves it `closed`; an odd one is completed by a last move."""
    elapsed = 0.0
    state = closed
    for toggle in (0.0, *toggles):
        if toggle > elapsed:
            wait(toggle - elapsed)
            elapsed = toggle
        if toggle > 0.0:
            state = not state
        (circuit.press_switch if state else circuit.release_switch)(switch)
    if state != closed:
        (circuit.press_switch if closed else circuit.release_switch)(switch)


def glitch(
    circuit: SwitchMatrixCircuit, column: int, width_s: float, wait: Callable[[float], None]
) -> None:
    """Pull `column` low for `width_s` seconds (`wait` lets them pass), as a glitch does."""
    circuit.pull_column(column, low=True)
    try:
        wait(width_s)
    finally:
        circuit.pull_column(column, low=False)
