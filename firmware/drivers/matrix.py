"""The switch matrix scanner: 25 card pads and 5 console buttons on 11 GPIO pins.

The matrix is 5 rows × 6 columns with a diode per switch, cathodes toward the rows. Rows are
outputs, columns inputs with pull-ups; a column reads low when a closed switch joins it to a row
driven low. Columns 1–5 are the card columns A–E (matrix row r is card row r + 1), column 6 holds
the console buttons (`BUTTONS_BY_ROW`).

While nothing is pressed the scanner costs nothing: all rows are held low, so any switch pulls
its column low, and the falling edge (a gpiozero edge callback) sets a scan. It debounces every
switch in software (gpiozero's mock ignores `bounce_time`, and the Pi's kernel debounce cannot
tell chatter from a press) on the injected clock, and goes back to waiting for an edge as soon
as every switch is open and settled.

A press and a release are not judged alike. A press is believed once the contact has been closed
without a break for `PRESS_CONFIRM_MS`, longer than the longest electrical glitch that can pull
a column low (an ESD discharge or a mains spike, up to `LONGEST_GLITCH_MS`): a glitch is over
before the confirming read, so it never covers a card, and a false guess can be the assassin.
Any break restarts the confirmation, so the switch's bounce only delays the press. A release is
believed once the contact has been open for `debounce_ms` (`RELEASE_DEBOUNCE_MS` by default,
twice the switch's rated bounce), so a bounce never ends a press early and never makes a second.

Between scans the scanner always waits with all rows low, noting each column's edges with their
time: a fall means a switch on that column closed, a rise that every switch on it is open. A
scan dates the changes it finds from those edges, so it need not run when a switch moves. A fall
does not say which switch closed, so when two or more switches on one column read closed (or a
glitch holds it low, which makes every switch there read closed), a switch newly found closed
there is timed from the scan itself. A fall on a column that no touched switch holds low sets a
scan `PRESS_CONFIRM_MS` later, when a switch that closed at the fall can first be confirmed; no
earlier scan could count it. While a switch is held down it is scanned every `HELD_SCAN_MS`. A
rise sets no scan and might never come (another switch on the column may hold it low). The scan
that finds the switch open dates the opening from the column's rise, and counts the release at
once if the release debounce has already passed since then. While every touched switch is only
waiting out its confirmation or debounce time, the scanner sleeps until the first one is due.

Of the edges, only the first fall on a column that no touched switch holds low sets a scan. A fall
on the column of a switch held or waiting is taken for that switch bouncing (closing again after a
break), and a rise for a switch opening or a glitch ending. The scan that falls due restarts that
switch's time from the last edge, so chatter is seen whether or not a scan caught it, and costs no
wake-up of its own. A scan that falls due while nothing is touched and no column's last fall is yet
a confirmation old (a press still bouncing) reads no pin: it waits until the earliest of those last
falls is a confirmation old, when the press can be counted. A scan with falls to account for, no
rise and no switch due reads only the columns at rest (unless a column fell that no closed switch
explains, which needs a full scan to place), so that it writes no row unless it must. The edges
made by a scan's own row writes are told apart by their time stamps, even those that reach the
callback after the scan.

The pins are driven and read by `firmware.drivers.matrix_wires`: the settle time after each row
change, and every switch's level read with few pin operations (a touch of one pad costs one full
scan, the one that finds it; a held pad two row writes and thirteen reads a scan, six of them
the columns read again once it waits).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TypeAlias

from gpiozero import DigitalInputDevice, DigitalOutputDevice
from gpiozero.pins import Factory

from board_rules.codenames.grid import SIZE, Coord
from firmware.drivers.clock import Clock, Timer
from firmware.drivers.events import (
    ButtonPressed,
    ConsoleButton,
    MatrixEvent,
    MultiplePads,
    PadOrButton,
    PadPressed,
    PadStuck,
    pad_of,
    released,
)
from firmware.drivers.matrix_wires import (
    COLUMN_COUNT,
    ROW_COUNT,
    SETTLE_S,
    MatrixWires,
    busy_wait,
)
from firmware.drivers.pinout import DEFAULT_PIN_MAP

BUTTON_COLUMN = SIZE
"""The matrix column (from 0) of the console buttons; the columns before it are cards."""
BUTTONS_BY_ROW: tuple[ConsoleButton, ...] = (
    ConsoleButton.DONE,
    ConsoleButton.PENALTY,
    ConsoleButton.UNDO,
    ConsoleButton.NEW,
    ConsoleButton.TIMER,
)
"""The console button on each matrix row, top to bottom."""

MatrixSwitch: TypeAlias = PadOrButton
"""What sits at a matrix position: a card pad or a console button."""

SWITCH_BOUNCE_MS = 5.0
"""The card pads' and console buttons' rated bounce: the BOM's 12 × 12 mm, 7.3 mm, 250 gf
tactile switch is Omron's B3F-4055, and the B3F (like the B3FS and B3S) datasheet gives
"Bounce time 5 ms max."."""
LONGEST_GLITCH_MS = 1.0
"""The longest electrical glitch a column is expected to see: ESD on a card and spikes from the
mains reach the wires as pulses of 1 µs to 1 ms."""
PRESS_CONFIRM_MS = LONGEST_GLITCH_MS + 2.0
"""How long a contact must stay closed to be a press: past the longest glitch, with 2 ms to
spare for a scan that runs late or a glitch caught as it began."""
RELEASE_DEBOUNCE_MS = 2 * SWITCH_BOUNCE_MS
"""How long a contact must stay open to be released: twice the rated bounce."""
HELD_SCAN_MS = 20.0
"""How often a switch held down (its press believed) is scanned: only a scan sees it open (its
column's rise, when one comes, only dates the opening), and each scan is a wake-up of the
clock's thread (on the 2-core VM about 75 µs idle and 110–130 µs loaded, more than the scan). A
release is then believed at the held switch's next scan (at most this much after the contact
opened), or once the release debounce has passed since its column rose, if that is later; with
no rise seen, up to this much plus the debounce (30 ms by default). A pad's release changes
nothing a player sees; a button's tap acts up to this much late; and a first fall on any other
column still sets a scan for the end of that press's confirmation."""

# Scan times accumulate from float steps; a settle due at exactly 30 ms must not wait a scan more.
_EPSILON = 1e-9


def level_since(closed: bool, fell: float | None, rose: float | None) -> float | None:
    """When a switch found closed (`closed`) or open became so, judged from its
    column's last fall and rise since the last scan (while the scanner waited, every row low):
    if closed, the fall, when it came last (a break and a new closing would have made a later
    fall; this assumes the switch is the only one closed on its column); if open, the rise, when
    it came last (a column rises only once every switch on it is open, and a switch closing
    again would have made a later fall). None when no edge tells.

    >>> level_since(True, fell=1.0, rose=None), level_since(False, fell=1.0, rose=2.0)
    (1.0, 2.0)
    >>> level_since(True, fell=1.0, rose=2.0) is None
    True
    """
    first, then = (rose, fell) if closed else (fell, rose)
    if then is None or (first is not None and first >= then):
        return None
    return then


def switch_at(row: int, column: int) -> MatrixSwitch:
    """The switch wired at matrix `row` and `column` (both from 0).

    >>> switch_at(2, 2)
    Coord.parse('C3')
    >>> switch_at(2, 5)
    <ConsoleButton.UNDO: 'undo'>
    """
    if not (0 <= row < ROW_COUNT and 0 <= column < COLUMN_COUNT):
        raise ValueError(f"no switch at matrix row {row}, column {column}")
    if column == BUTTON_COLUMN:
        return BUTTONS_BY_ROW[row]
    return Coord(row=row, column=column)


def switch_position(switch: MatrixSwitch) -> tuple[int, int]:
    """The matrix `(row, column)` (from 0) where `switch` is wired.

    >>> switch_position(ConsoleButton.NEW)
    (3, 5)
    """
    if isinstance(switch, ConsoleButton):
        return BUTTONS_BY_ROW.index(switch), BUTTON_COLUMN
    return switch.row, switch.column


@dataclass
class _Contact:
    """What the scanner knows of one switch: its last raw level and its debounced state."""

    switch: MatrixSwitch
    raw: bool = False
    raw_since: float = 0.0
    down: bool = False
    down_since: float = 0.0
    reported: bool = False
    """Its press (or, for a pad, its stuck state) was reported, so its release will be."""
    spoiled: bool = False
    """A pad that was down together with another: it does not count until it opens."""
    stuck: bool = False
    is_pad: bool = field(init=False)

    def __post_init__(self) -> None:
        self.is_pad = isinstance(self.switch, Coord)

    @property
    def touched(self) -> bool:
        """In contact now, or debounced down and perhaps only bouncing open."""
        return self.raw or self.down


class SwitchMatrix:
    """Scans the diode switch matrix and reports debounced pad and button events to `sink`.

    `sink` is called on the clock's thread (the scheduler thread of a `SystemClock`, inside
    `advance` of a `VirtualClock`), never while the scanner holds its locks.

    A switch counts once it has been closed without a break for `press_confirm_ms`, and opens
    once it has been open for `debounce_ms`, so neither chatter nor a glitch shorter than the
    confirmation makes a press, and chatter never makes two. A card pad counts only while no
    other pad is touched: pads pressed together (a palm, two fingers) give one `MultiplePads` per
    joining pad and none of them counts until opened again; a pad already reported stays
    reported. A pad down longer than `stuck_after_s` is reported once as `PadStuck` and ignored
    until it opens; while only stuck pads are down the scan slows to `stuck_scan_interval_ms`,
    since an object left on a card would otherwise keep the scan at full rate for the rest of
    the game.

    After each row change the scanner waits `settle_s` (`SETTLE_S` by default: the standard
    build; the config's is `settle_for_pull_up` of `[input] column_pullup_ohms`) with
    `settle_wait`, a busy wait unless another is injected (the virtual circuit's
    `WireTime.wait` in tests, so that no test depends on real time).
    """

    def __init__(
        self,
        clock: Clock,
        sink: Callable[[MatrixEvent], None],
        *,
        rows: Sequence[int] = DEFAULT_PIN_MAP.matrix_rows,
        columns: Sequence[int] = DEFAULT_PIN_MAP.matrix_columns,
        pin_factory: Factory | None = None,
        debounce_ms: float = RELEASE_DEBOUNCE_MS,
        press_confirm_ms: float = PRESS_CONFIRM_MS,
        scan_interval_ms: float = HELD_SCAN_MS,
        stuck_after_s: float = 10.0,
        stuck_scan_interval_ms: float = 50.0,
        settle_s: float = SETTLE_S,
        settle_wait: Callable[[float], None] = busy_wait,
    ) -> None:
        if len(rows) != ROW_COUNT or len(columns) != COLUMN_COUNT:
            raise ValueError(
                f"the switch matrix has {ROW_COUNT} rows and {COLUMN_COUNT} columns, "
                f"got {len(rows)} row pins and {len(columns)} column pins"
            )
        # The config's times (debounce, confirmation, stuck, settle) are checked where they are
        # read (`firmware.config_keys`): the scanner takes them as given.
        self._clock = clock
        self._sink = sink
        self._debounce_s = debounce_ms / 1000
        self._confirm_s = press_confirm_ms / 1000
        self._scan_interval_s = scan_interval_ms / 1000
        self._stuck_after_s = stuck_after_s
        self._stuck_scan_interval_s = stuck_scan_interval_ms / 1000
        self._contacts = [
            _Contact(switch_at(row, column))
            for row in range(ROW_COUNT)
            for column in range(COLUMN_COUNT)
        ]
        self._touched: list[int] = []
        """The indices of the contacts touched (closed, or down and perhaps bouncing open), in
        row-major order: the only ones a scan has to look at, the others being open and
        settled."""
        # Two locks, so that an edge callback never waits for a scan: `_state_lock` guards only
        # the wake-up flag and the timer, and is never held during pin I/O (on the virtual
        # circuit a pin write calls the edge callback on the same thread). `_scan_lock` keeps a
        # scan and `close` apart.
        self._state_lock = threading.Lock()
        self._scan_lock = threading.Lock()
        self._handing_over = False
        """Set from the end of a scan that settled events until they are all handed on."""
        self._armed = False
        """Set while the scanner waits (idle, or until a scan falls due): edges are noted, and a
        first fall sets a scan."""
        self._closed = False
        self._timer: Timer | None = None
        self._falls: dict[int, float] = {}
        """Columns that fell while armed, and when (the clock's time): closings to time."""
        self._rises: dict[int, float] = {}
        """Columns that rose while armed, and when: every switch on one was open then."""
        self._quiet_columns: frozenset[int] = frozenset()
        """Columns of switches held down or waiting out a confirmation or a release debounce,
        and columns whose first fall has already set a scan: a fall there is only noted, for the
        scan that falls due, and sets no scan of its own (a bounce only restarts a wait, and
        that scan reads every level it needs)."""
        self._armed_at: float | None = None
        """The pin factory's ticks when the scanner last armed: earlier falls are its own."""
        self._rows: list[DigitalOutputDevice] = []
        self._columns: list[DigitalInputDevice] = []
        # Kept here: a pin holds its callback by a weak reference only.
        self._edge_callbacks: list[Callable[[int, bool], None]] = []
        try:
            for pin in rows:
                # active_high=False: "on" drives the row low, which is what selects it.
                self._rows.append(
                    DigitalOutputDevice(
                        pin, active_high=False, initial_value=True, pin_factory=pin_factory
                    )
                )
            for pin in columns:
                column = DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory)
                # Told by the pin itself, without the device's event layers: a fall times a
                # closing and a rise an opening.
                column.pin.edges = "both"
                self._edge_callbacks.append(partial(self._column_moved, len(self._columns)))
                column.pin.when_changed = self._edge_callbacks[-1]
                self._columns.append(column)
        except BaseException:
            self.close()
            raise
        self._wires = MatrixWires(
            [device.pin for device in self._rows],
            [device.pin for device in self._columns],
            settle_s,
            settle_wait,
        )
        self._factory = self._columns[0].pin_factory
        with self._scan_lock:
            self._rearm()

    @property
    def scanning(self) -> bool:
        """True while a switch is touched or settling, or a scan's events are being handed on;
        False when idle, waiting for an edge."""
        with self._state_lock:
            return not self._closed and (
                self._handing_over or not self._armed or self._timer is not None
            )

    @property
    def closed(self) -> bool:
        """True once `close` has run."""
        return self._closed

    def close(self) -> None:
        """Stop scanning and release the pins. Idempotent."""
        with self._state_lock:
            if self._closed:
                return
            self._closed = True
            self._armed = False
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        with self._scan_lock:
            for device in (*self._columns, *self._rows):
                device.close()

    def __enter__(self) -> SwitchMatrix:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _column_moved(self, column: int, ticks: float, state: bool) -> None:
        # A gpiozero pin's edge callback: on the Pi it runs on the pin library's thread, so it
        # only notes the edge and hands the work to the clock. Edges while not armed are the
        # scan's own row changes, and so are those delivered late but stamped before it armed.
        # The stamps compare with the factory's ticks: gpiozero's lgpio pins stamp edges with
        # the kernel's CLOCK_MONOTONIC (lgpio asks for CLOCK_REALTIME only if told to, and
        # gpiozero does not), the clock its ticks() reads.
        with self._state_lock:
            if not self._armed or self._closed:
                return
            if self._armed_at is not None and self._factory.ticks_diff(ticks, self._armed_at) < 0:
                return
            now = self._clock.monotonic()
            if state:
                # An opening (or a glitch's end): the scan that falls due dates a release from
                # it. No scan need come sooner, since a release may be seen up to `HELD_SCAN_MS`
                # late.
                self._rises[column] = now
                return
            self._falls[column] = now
            if column not in self._quiet_columns:
                self._first_fall(column, now)

    def _first_fall(self, column: int, now: float) -> None:
        """Note a fall at `now` on a column that no touched switch holds low, and set a scan for
        when a switch that closed then can first be confirmed: none can be counted sooner, and a
        glitch is over by then. Later falls there (bounces) are only noted. Call with
        `_state_lock` held."""
        self._quiet_columns = self._quiet_columns | {column}
        due = now + self._confirm_s
        if self._timer is not None and self._timer.due <= due:
            return  # the earlier scan finds the switch and times it from this fall
        self._scan_after(due - now)

    def _scan_after(self, delay: float) -> None:
        """Set the next scan `delay` seconds from now, in place of any pending one. Call with
        `_state_lock` held."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self._clock.call_later(delay, self._scan)

    def _scan(self) -> None:
        events: list[MatrixEvent] = []
        with self._scan_lock:
            with self._state_lock:
                if self._closed or self._confirmation_restarted():
                    return
                self._armed = False
                falls, self._falls = self._falls, {}
                rises, self._rises = self._rises, {}
                # This scan schedules the next: a call still pending is one a fall asked for
                # after this one's timer fired (on the Pi, from the pin library's thread), and
                # run as well it would start a second chain of scans beside this one's.
                if self._timer is not None:
                    self._timer.cancel()
                    self._timer = None
            now = self._clock.monotonic()
            contacts = self._contacts
            due = any(self._due(contacts[index], now) for index in self._touched)
            # Set by a fall, with no switch due: the columns at rest are enough, unless a column
            # rose too (after a rise, a low column no longer shows that the switch found there
            # before still holds it).
            closed = {index for index in self._touched if contacts[index].raw}
            found = self._wires.levels(closed, at_rest=bool(falls) and not due and not rises)
            self._settle(now, found, falls, rises, events)
            # Handed on once the scanner waits again, so that the thread taking them (the game
            # loop) does not wake only to wait for this thread to let go of the interpreter (the
            # GIL); until then `scanning` stays true, so whoever sees the scanner idle finds them
            # queued.
            self._handing_over = bool(events)
            try:
                self._wait_for_next(now)
            finally:
                for event in events:
                    self._sink(event)
                self._handing_over = False

    def _wait_for_next(self, now: float) -> None:
        """After a scan at `now`, wait again: idle when nothing is touched, else until the
        first touched switch's time falls due (a held one's next scan at the latest)."""
        contacts = self._contacts
        busy = [contacts[index] for index in self._touched]
        if not busy:
            self._rearm()
            return
        # Waiting out a time: a scan when the first falls due.
        delays = [
            contact.raw_since + self._wait_s(contact) - now
            for contact in busy
            if contact.raw != contact.down
        ]
        if any(contact.raw and contact.down for contact in busy):
            # Held down: only a scan sees it let go.
            quiet = all(contact.stuck and contact.raw and contact.down for contact in busy)
            delays.append(self._stuck_scan_interval_s if quiet else self._scan_interval_s)
        self._arm(max(min(delays), 0.0))

    def _confirmation_restarted(self) -> bool:
        """With no switch touched, whether a column fell and no column's last fall is yet a
        confirmation old (a bounce, or another glitch), so that no switch can be confirmed yet:
        then this scan reads nothing, stays armed with the edges noted, and sets the next scan
        for when the earliest of those last falls is a confirmation old. Call with `_state_lock`
        held."""
        if self._touched or not self._falls:
            return False
        delay = min(self._falls.values()) + self._confirm_s - self._clock.monotonic()
        if delay <= _EPSILON:
            return False
        self._scan_after(delay)
        return True

    def _wait_s(self, contact: _Contact) -> float:
        """How long `contact`'s level must last to count: a closing one the press confirmation,
        an opening one the release debounce."""
        return self._confirm_s if contact.raw else self._debounce_s

    def _due(self, contact: _Contact, now: float) -> bool:
        """Whether `contact`'s level has lasted long enough to count and is not counted yet."""
        return (
            contact.raw != contact.down
            and now - contact.raw_since >= self._wait_s(contact) - _EPSILON
        )

    def _rearm(self) -> None:
        """Go idle: all rows low, until a column's fall sets a scan."""
        self._arm(None)

    def _arm(self, delay: float | None) -> None:
        """Wait with all rows low, noting edges (a fall on a column not quiet sets a scan), with
        a scan after `delay` unless it is None."""
        self._wires.rest()
        contacts = self._contacts
        # A fall on the column of a switch held down can only be that switch bouncing open and
        # closed again (its column was low already); on that of a switch waiting, a bounce that
        # restarts its wait. Either is read by the scan that falls due.
        quiet = frozenset(
            index % COLUMN_COUNT
            for index in self._touched
            if contacts[index].raw or contacts[index].down
        )
        with self._state_lock:
            if self._closed:
                return
            self._armed = True
            self._armed_at = self._factory.ticks()
            self._quiet_columns = quiet
            self._timer = None if delay is None else self._clock.call_later(delay, self._scan)
        # A switch that closed after the scan read its column but before we armed made its edge
        # while nobody listened; these reads happen once per wait, never while idle.
        closed_columns = {index % COLUMN_COUNT for index in self._touched if contacts[index].raw}
        fell = [
            column
            for column, low in enumerate(self._wires.columns_low())
            if low and column not in closed_columns
        ]
        if not fell:
            return
        with self._state_lock:
            if not self._armed or self._closed:
                return
            now = self._clock.monotonic()
            for column in fell:
                self._falls[column] = now
                # On a quiet column, a bounce of a switch waiting: its scan reads it when due.
                if column not in self._quiet_columns:
                    self._first_fall(column, now)

    def _settle(
        self,
        now: float,
        found: set[int],
        falls: dict[int, float],
        rises: dict[int, float],
        events: list[MatrixEvent],
    ) -> None:
        """Debounce the switches found closed at `now` (the others are open), knowing when each
        column last fell and rose since the last scan (`falls`, `rises`), and append the events
        they settle into."""
        contacts = self._contacts
        # A switch neither touched before nor closed now is open and settled: nothing to do.
        indices = sorted(found.union(self._touched))
        # A fall says that a switch on its column closed, not which: when two or more switches
        # there read closed (or a glitch holds the column low, which makes every switch on it
        # read closed), a switch newly found closed is timed from this scan.
        crowded = {
            column
            for column, count in Counter(index % COLUMN_COUNT for index in found).items()
            if count > 1
        }
        for index in indices:
            contact = contacts[index]
            level = index in found
            column = index % COLUMN_COUNT
            since = level_since(level, falls.get(column), rises.get(column))
            if level != contact.raw:
                contact.raw = level
                new_closing = level and column in crowded
                contact.raw_since = now if since is None or new_closing else since
            elif contact.raw != contact.down and (column in falls or column in rises):
                # Still waiting, and its column moved: it bounced, and its time starts again
                # from the edge that left it as it is (from now, when no edge tells).
                contact.raw_since = now if since is None else max(contact.raw_since, since)
        settled = [contacts[index] for index in indices if self._due(contacts[index], now)]
        # Releases first, so that a scan reports a switch let go before one pressed. Pads are
        # counted only after both loops: a pad let go as another is pressed is not two at once.
        for contact in settled:
            if not contact.raw:
                self._open(contact, events)
        for contact in settled:
            if contact.raw:
                self._close(contact, events)
        self._touched = [index for index in indices if contacts[index].touched]
        # Only a touched pad can be down, be stuck or spoil another's press.
        pads = [contacts[index] for index in self._touched if contacts[index].is_pad]
        for pad in pads:
            if pad.down and not pad.stuck and now - pad.down_since >= self._stuck_after_s:
                pad.stuck = True
                pad.reported = True
                events.append(PadStuck(pad_of(pad.switch), now))
        for pad in pads:
            if pad.down and not (pad.reported or pad.spoiled or pad.stuck):
                self._count_pad(pad, pads, now, events)

    def _open(self, contact: _Contact, events: list[MatrixEvent]) -> None:
        contact.down = False
        held_s = contact.raw_since - contact.down_since
        if contact.reported:
            events.append(released(contact.switch, contact.raw_since, held_s))
        contact.reported = contact.spoiled = contact.stuck = False

    def _close(self, contact: _Contact, events: list[MatrixEvent]) -> None:
        contact.down = True
        contact.down_since = contact.raw_since
        if isinstance(contact.switch, ConsoleButton):
            contact.reported = True
            events.append(ButtonPressed(contact.switch, contact.down_since))
        # A pad waits for `_count_pad`, which looks at every pad at once.

    def _count_pad(
        self, pad: _Contact, pads: list[_Contact], now: float, events: list[MatrixEvent]
    ) -> None:
        others = [other for other in pads if other is not pad and other.touched and not other.stuck]
        if not others:
            pad.reported = True
            events.append(PadPressed(pad_of(pad.switch), pad.down_since))
            return
        together = [other for other in others if other.down]
        if not together:
            # The others are only in contact, not yet settled: wait, a brush is not a press.
            return
        for contact in (pad, *together):
            contact.spoiled = True
        coords = sorted(pad_of(contact.switch) for contact in (pad, *together))
        events.append(MultiplePads(tuple(coords), now))
