"""The switch matrix's wires as the scanner drives and reads them: the settle time a column
needs after a row change, worked out from the circuit, and every switch's level read with as few
pin operations as will do (the CPU a touch costs).

Rows are outputs, driven low to select them; columns are inputs with pull-ups, and a column reads
low when a closed switch joins it to a row driven low (a diode per switch, cathode toward its
row, so a raised row pulls nothing). Between scans every row is low, so a column reads low when
any switch on it is closed.

Each row change is given the time the columns need to follow it before they are read
(`SETTLE_S` on a standard table, `settle_for_pull_up` of the resistors a table has): a column
that a held switch pulled low rises only through its pull-up into the wire's capacitance, so read
at once it can still be low and show a phantom switch on the newly selected row.

Every row is selected in turn only when nothing cheaper tells the levels, and then only the columns
low at rest are read (a column high with every row low has no switch closed). The columns are read
first with every row low: no low column means every switch is open, and when the only switch closed
at the last scan is on the only low column, raising that switch's row alone (one settle time) shows
whether anything else holds the column. Both give the levels a full scan would. Pins are driven and
read at gpiozero's pin level: the device layers cost more than the pin itself.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet

from gpiozero.pins import Pin

from board_rules.codenames.grid import SIZE

ROW_COUNT = SIZE
COLUMN_COUNT = SIZE + 1

PI_PULL_UP_OHMS = 65_000.0
"""The Pi's internal pull-up at its weakest: the BCM2835's datasheet gives 50–65 kΩ, and the
weakest is the slowest rise, the worst case a settle time must cover."""
COLUMN_PULL_UP_OHMS = 10_000.0
"""The external pull-up each column has as standard (`hardware/README.md`), beside the Pi's."""
WIRE_CAPACITANCE_F = 200e-12
"""A column's wire under a table with its pads and diodes: 100–200 pF, the worst taken."""
SETTLE_TIME_CONSTANTS = 5
"""Time constants to wait: after 5 τ a rising column is within 1 % of 3.3 V, far above the
input's high threshold (about 2 V, reached after about 1 τ), so a pull-up or a wire a few times
worse than its nominal value still reads right."""


def parallel_ohms(*resistors: float) -> float:
    """The resistance of `resistors` in parallel.

    >>> round(parallel_ohms(COLUMN_PULL_UP_OHMS, PI_PULL_UP_OHMS))
    8667
    """
    return 1 / sum(1 / ohms for ohms in resistors)


def settle_time_s(pull_up_ohms: float, capacitance_f: float = WIRE_CAPACITANCE_F) -> float:
    """How long a column pulled up through `pull_up_ohms` into `capacitance_f` needs to rise.

    >>> f"{settle_time_s(PI_PULL_UP_OHMS) * 1e6:.0f} µs"
    '65 µs'
    """
    return SETTLE_TIME_CONSTANTS * pull_up_ohms * capacitance_f


def column_pull_up_ohms(external_ohms: float) -> float:
    """What pulls a column up: the external resistor of `external_ohms` beside the Pi's own
    pull-up (which the scanner always turns on), or the Pi's alone when `external_ohms` is 0 (a
    table built without the resistors: `[input] column_pullup_ohms`).

    >>> column_pull_up_ohms(0) == PI_PULL_UP_OHMS
    True
    """
    if external_ohms == 0:
        return PI_PULL_UP_OHMS
    return parallel_ohms(external_ohms, PI_PULL_UP_OHMS)


def settle_for_pull_up(external_ohms: float) -> float:
    """The settle time of a table whose columns have `external_ohms` resistors (0: none).

    >>> f"{settle_for_pull_up(0) * 1e6:.0f} µs"
    '65 µs'
    """
    return settle_time_s(column_pull_up_ohms(external_ohms))


STANDARD_PULL_UP_OHMS = column_pull_up_ohms(COLUMN_PULL_UP_OHMS)
"""What pulls a column up on a table built to the BOM: τ = 8.7 kΩ × 200 pF ≈ 1.7 µs."""
SETTLE_S = settle_time_s(STANDARD_PULL_UP_OHMS)
"""The wait after each row change on a standard table: about 9 µs, so 45 µs a full scan. A table
without the external pull-ups needs `settle_for_pull_up(0)` (65 µs)."""


def busy_wait(seconds: float, counter: Callable[[], float] = time.perf_counter) -> None:
    """Wait `seconds` on this thread without sleeping.

    A settle time is a few microseconds; `time.sleep` gives the CPU away for 50 µs or more, and
    the scan runs only while a switch is touched, so spinning costs nothing while idle.
    """
    end = counter() + seconds
    while counter() < end:
        pass


class MatrixWires:
    """The row and column pins of a scanner, every row low between reads.

    After each row change it waits `settle_s` with `settle_wait` (see `SwitchMatrix`). A switch
    is named by its index in row-major order (`ROW_COUNT` rows of `COLUMN_COUNT`).
    """

    def __init__(
        self,
        rows: Sequence[Pin],
        columns: Sequence[Pin],
        settle_s: float,
        settle_wait: Callable[[float], None],
    ) -> None:
        self._row_pins = list(rows)
        self._column_pins = list(columns)
        self._settle_s = settle_s
        self._settle_wait = settle_wait
        # The row levels set (all low to begin with), so that a scan writes only those that change.
        self._row_low = [True] * len(rows)

    def columns_low(self) -> list[bool]:
        """Each column's level as it rests: low (True) when a switch on it is closed."""
        return [not pin.state for pin in self._column_pins]

    def rest(self) -> None:
        """Drive every row low: any switch closing then pulls its column down."""
        self._select(None)

    def levels(self, closed: AbstractSet[int], *, at_rest: bool = False) -> set[int]:
        """The switches closed now, as indices in row-major order; leaves all rows low.

        The same switches as `_scan_rows` finds, with fewer pin operations when the columns at
        rest (all rows low) leave one answer: nothing closed, or the one switch closed at the
        last scan (`closed`) still closed and alone (see the module's docstring). `at_rest`
        writes no row unless a column fell that no switch closed at the last scan explains: a
        switch on a column that rose is open, the others keep their last level."""
        low = self.columns_low()
        if not any(low):
            return set()
        if at_rest:
            closed_columns = {index % COLUMN_COUNT for index in closed}
            if all(not fell or column in closed_columns for column, fell in enumerate(low)):
                return {index for index in closed if low[index % COLUMN_COUNT]}
        if len(closed) == 1 and low.count(True) == 1:
            (only,) = closed
            row, column = divmod(only, COLUMN_COUNT)
            if low[column] and self._alone_on_column(row, column):
                return {only}
        return self._scan_rows([column for column, fell in enumerate(low) if fell])

    def _alone_on_column(self, row: int, column: int) -> bool:
        """Whether `column`, low at rest, rises once `row` alone is raised: then the switch at
        `row`, `column` is what holds it low, and no switch on another row (the diodes keep a
        raised row from pulling anything)."""
        pin = self._row_pins[row]
        pin.state = True
        self._row_low[row] = False
        # The column rises through its pull-up only: give it the settle time, as a scan does.
        if self._settle_s > 0:
            self._settle_wait(self._settle_s)
        risen = bool(self._column_pins[column].state)
        pin.state = False
        self._row_low[row] = True
        return risen

    def _scan_rows(self, low: Sequence[int]) -> set[int]:
        """The switches closed on the columns `low` (those low at rest: a column high with every
        row low has no switch closed), each row selected in turn; leaves all rows low."""
        closed: set[int] = set()
        pins = [(column, self._column_pins[column]) for column in low]
        for row in range(ROW_COUNT):
            self._select(row)
            # Only a rising column is slow (a falling one is pulled by a driven row); every
            # selection but the first's own row raises a row, so every one waits.
            if self._settle_s > 0:
                self._settle_wait(self._settle_s)
            first = row * COLUMN_COUNT
            for column, pin in pins:
                if not pin.state:
                    closed.add(first + column)
        self._select(None)
        return closed

    def _select(self, selected: int | None) -> None:
        """Drive row `selected` low and the others high; `None` drives all of them low."""
        # Raise the old row before lowering the new one: a column the old row held low rises
        # only through its pull-up (the diode cannot drive it high), and the write that lowers
        # the new row gives it that much longer; `settle_s` gives it the rest.
        for low in (False, True):
            for row, pin in enumerate(self._row_pins):
                want_low = selected is None or row == selected
                if want_low == low and self._row_low[row] != want_low:
                    pin.state = not want_low
                    self._row_low[row] = want_low
