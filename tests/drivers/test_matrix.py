"""The switch matrix scanner on its virtual circuit: mapping, debounce, chatter, two pads, stuck
pads, timestamps for holds, an idle scanner that reads no pins, edges that arrive late or amid a
scan, and the settle time a column needs to rise after each row change."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from gpiozero import DigitalInputDevice, DigitalOutputDevice
from gpiozero.pins.mock import MockFactory, MockPin
from hypothesis import given, settings
from hypothesis import strategies as st

from board_rules.codenames.grid import Coord
from firmware.drivers.clock import Timer, VirtualClock
from firmware.drivers.events import (
    ButtonPressed,
    ButtonReleased,
    ConsoleButton,
    MatrixEvent,
    MultiplePads,
    PadPressed,
    PadReleased,
    PadStuck,
)
from firmware.drivers.matrix import (
    HELD_SCAN_MS,
    MatrixSwitch,
    SwitchMatrix,
    switch_at,
    switch_position,
)
from firmware.drivers.matrix_wires import (
    PI_PULL_UP_OHMS,
    SETTLE_S,
    STANDARD_PULL_UP_OHMS,
    busy_wait,
    settle_time_s,
)
from firmware.virtual.matrix_circuit import CountingPin, SwitchMatrixCircuit, WireTime

ROWS = (5, 6, 13, 19, 26)
COLUMNS = (17, 27, 22, 23, 24, 25)
SCAN_S = HELD_SCAN_MS / 1000  # a held switch's scan period: the resolution of its release's time
DEBOUNCE_S = 0.03

C3 = Coord.parse("C3")
B2 = Coord.parse("B2")
A1 = Coord.parse("A1")


@dataclass
class Rig:
    """A scanner on a virtual matrix whose columns take their RC time to rise, with a clock that
    starts well after zero."""

    clock: VirtualClock
    wire: WireTime
    circuit: SwitchMatrixCircuit
    matrix: SwitchMatrix
    factory: MockFactory
    events: list[MatrixEvent] = field(default_factory=list)

    def take(self) -> list[MatrixEvent]:
        taken, self.events[:] = list(self.events), []
        return taken

    def wait(self, seconds: float) -> list[MatrixEvent]:
        self.clock.advance(seconds)
        return self.take()

    @property
    def now(self) -> float:
        return self.clock.monotonic()

    def row_changes(self) -> list[int]:
        """Level changes of each row pin so far: what the scanner wrote."""
        return [self.factory.pin(pin).changes for pin in ROWS]

    def column_reads(self, column: int) -> int:
        return int(self.factory.pin(COLUMNS[column]).reads)


def build_rig(
    pull_up_ohms: float | None = None,
    sink: Callable[[MatrixEvent], None] | None = None,
    **options: Any,
) -> Rig:
    """A rig; `pull_up_ohms` is what pulls each column up (the standard build's by default);
    the scanner's events go to `sink` as well as to the rig's list.

    Unless told otherwise, the scanner confirms presses and debounces releases alike, for
    `DEBOUNCE_S`: the scheduling tests time each wait on one figure. `part_rig` has the
    switches' own figures."""
    options.setdefault("debounce_ms", DEBOUNCE_S * 1000)
    options.setdefault("press_confirm_ms", DEBOUNCE_S * 1000)
    clock = VirtualClock(start=100.0)
    wire = WireTime(clock)
    factory = MockFactory(pin_class=CountingPin)
    circuit = SwitchMatrixCircuit(
        factory,
        now=wire.now,
        wait=wire.wait,
        pull_up_ohms=pull_up_ohms or STANDARD_PULL_UP_OHMS,
    )
    events: list[MatrixEvent] = []

    def take(event: MatrixEvent) -> None:
        events.append(event)
        if sink is not None:
            sink(event)

    matrix = SwitchMatrix(clock, take, pin_factory=factory, settle_wait=wire.wait, **options)
    return Rig(clock, wire, circuit, matrix, factory, events)


@pytest.fixture
def rig() -> Iterator[Rig]:
    built = build_rig()
    yield built
    built.matrix.close()


EXPECTED_SWITCHES: list[tuple[tuple[int, int], MatrixSwitch]] = [
    # Matrix row r, column c: card column "ABCDE"[c], card row r + 1; column 6 the buttons.
    *[
        ((row, column), Coord.parse(f"{'ABCDE'[column]}{row + 1}"))
        for row in range(5)
        for column in range(5)
    ],
    ((0, 5), ConsoleButton.DONE),
    ((1, 5), ConsoleButton.PENALTY),
    ((2, 5), ConsoleButton.UNDO),
    ((3, 5), ConsoleButton.NEW),
    ((4, 5), ConsoleButton.TIMER),
]


@pytest.mark.parametrize(("position", "switch"), EXPECTED_SWITCHES, ids=str)
def test_each_matrix_position_reports_its_switch(
    rig: Rig, position: tuple[int, int], switch: Coord | ConsoleButton
) -> None:
    pressed_at = rig.now
    rig.circuit.press(*position)
    events = rig.wait(0.1)
    expected_press = (
        ButtonPressed(switch, pressed_at)
        if isinstance(switch, ConsoleButton)
        else PadPressed(switch, pressed_at)
    )
    assert events == [expected_press]

    released_at = rig.now
    rig.circuit.release(*position)
    (release,) = rig.wait(0.1)
    assert isinstance(release, ButtonReleased | PadReleased)
    assert (release.coord if isinstance(release, PadReleased) else release.button) == switch
    assert release.at == pytest.approx(released_at, abs=SCAN_S)
    assert release.held_s == pytest.approx(released_at - pressed_at, abs=SCAN_S)


def test_switch_positions_round_trip() -> None:
    assert [switch_at(*position) for position, _ in EXPECTED_SWITCHES] == [
        switch for _, switch in EXPECTED_SWITCHES
    ]
    assert [switch_position(switch) for _, switch in EXPECTED_SWITCHES] == [
        position for position, _ in EXPECTED_SWITCHES
    ]
    with pytest.raises(ValueError, match="no switch"):
        switch_at(5, 0)


def test_a_press_counts_once_stable_for_the_debounce_time(rig: Rig) -> None:
    pressed_at = rig.now
    rig.circuit.press_pad(C3)
    assert rig.wait(0.025) == []
    assert rig.wait(0.006) == [PadPressed(C3, pressed_at)]


def test_a_release_counts_once_stable_for_the_debounce_time(rig: Rig) -> None:
    rig.circuit.press_pad(C3)
    rig.wait(0.1)
    rig.circuit.release_pad(C3)
    # Seen open by the next scan of the held pad, then open for the whole debounce time.
    assert rig.wait(DEBOUNCE_S - 0.001) == []
    assert [type(event) for event in rig.wait(SCAN_S + 0.002)] == [PadReleased]


def test_the_confirmation_and_the_release_debounce_are_parameters() -> None:
    rig = build_rig(press_confirm_ms=100, debounce_ms=60)
    rig.circuit.press_pad(C3)
    assert rig.wait(0.09) == []
    assert rig.wait(0.011) == [PadPressed(C3, 100.0)]
    rig.circuit.release_pad(C3)
    assert rig.wait(0.059) == []
    assert [type(event) for event in rig.wait(SCAN_S + 0.002)] == [PadReleased]


def test_a_contact_shorter_than_the_debounce_time_is_no_press(rig: Rig) -> None:
    rig.circuit.press_pad(C3)
    rig.wait(0.02)
    rig.circuit.release_pad(C3)
    assert rig.wait(1.0) == []
    assert not rig.matrix.scanning


def bounce(rig: Rig, coord: Coord, gaps_ms: list[float], *, end_closed: bool) -> None:
    """Toggle the pad after each gap, then leave it closed or open."""
    closed = not end_closed if len(gaps_ms) % 2 else end_closed
    for gap in gaps_ms:
        closed = not closed
        if closed:
            rig.circuit.press_pad(coord)
        else:
            rig.circuit.release_pad(coord)
        rig.clock.advance(gap / 1000)
    if end_closed:
        rig.circuit.press_pad(coord)
    else:
        rig.circuit.release_pad(coord)


def test_chatter_on_press_and_release_gives_one_press_and_one_release(rig: Rig) -> None:
    # Bounces slower than the scan, so the scanner sees each one; the last closes at +30 ms.
    bounce(rig, C3, [7, 8, 6, 9, 12], end_closed=True)
    (event,) = rig.wait(0.5)
    assert isinstance(event, PadPressed)
    assert event.coord == C3
    assert event.at == pytest.approx(100.030, abs=SCAN_S)  # the press began with the last bounce
    bounce(rig, C3, [3, 2, 6, 1, 2], end_closed=False)
    assert [type(event) for event in rig.wait(0.5)] == [PadReleased]


# A bounce burst: up to five toggles at most 5 ms apart, so it is over within 25 ms. A burst as
# long as the debounce time could hold a real 30 ms closure, which is a press, not chatter.
BURST = st.lists(st.floats(min_value=0.1, max_value=5.0), max_size=5)


# Held from 50 ms (past the debounce time) to a second: a pad has no behaviour of its own between
# that and the stuck time (10 s, tested below), and each held second costs 200 scans to simulate.
@settings(max_examples=100, deadline=None)
@given(press_gaps=BURST, release_gaps=BURST, held_s=st.floats(min_value=0.05, max_value=1.0))
def test_chatter_never_makes_two_presses(
    press_gaps: list[float], release_gaps: list[float], held_s: float
) -> None:
    rig = build_rig()
    with rig.matrix:
        bounce(rig, C3, press_gaps, end_closed=True)
        rig.clock.advance(held_s)
        bounce(rig, C3, release_gaps, end_closed=False)
        rig.clock.advance(0.5)
        assert [type(event) for event in rig.take()] == [PadPressed, PadReleased]
        assert not rig.matrix.scanning


def test_two_pads_pressed_together_neither_counts(rig: Rig) -> None:
    rig.circuit.press_pad(C3)
    rig.clock.advance(0.01)
    b2_at = rig.now
    rig.circuit.press_pad(B2)
    (event,) = rig.wait(0.2)
    assert isinstance(event, MultiplePads)
    assert event.coords == (B2, C3)
    assert event.at == pytest.approx(b2_at + 0.03, abs=SCAN_S)  # when B2 settled
    rig.circuit.release_pad(C3)
    rig.clock.advance(0.01)
    assert rig.wait(0.2) == []  # B2, still down, does not count now that it is alone
    rig.circuit.release_pad(B2)
    assert rig.wait(0.2) == []  # and neither release is reported: no press was
    rig.circuit.press_pad(C3)
    assert [type(event) for event in rig.wait(0.1)] == [PadPressed]


def test_two_pads_in_the_same_instant_give_one_multiple_pads_event(rig: Rig) -> None:
    rig.circuit.press_pad(C3)
    rig.circuit.press_pad(A1)
    events = rig.wait(0.2)
    assert len(events) == 1
    assert isinstance(events[0], MultiplePads)
    assert events[0].coords == (A1, C3)


# A second pad on another row and column, on the held pad's column, on its row: the scan that
# reads the columns at rest and raises the held pad's row alone must see each of them.
SECOND_PADS = [B2, Coord.parse("C1"), Coord.parse("A3")]


@pytest.mark.parametrize("second", SECOND_PADS, ids=str)
def test_a_pad_joining_a_counted_pad_does_not_count(rig: Rig, second: Coord) -> None:
    rig.circuit.press_pad(C3)
    assert [type(event) for event in rig.wait(0.5)] == [PadPressed]
    rig.circuit.press_pad(second)
    (event,) = rig.wait(0.1)
    assert isinstance(event, MultiplePads)
    assert event.coords == tuple(sorted((second, C3)))
    rig.circuit.press_pad(A1)
    (event,) = rig.wait(0.1)
    assert isinstance(event, MultiplePads)
    assert event.coords == tuple(sorted((A1, second, C3)))
    rig.circuit.release_pad(second)
    rig.circuit.release_pad(A1)
    assert rig.wait(0.1) == []
    rig.circuit.release_pad(C3)
    assert [type(event) for event in rig.wait(0.1)] == [PadReleased]


def test_a_brush_of_another_pad_does_not_spoil_a_press(rig: Rig) -> None:
    pressed_at = rig.now
    rig.circuit.press_pad(C3)
    rig.clock.advance(0.02)
    rig.circuit.press_pad(B2)
    rig.clock.advance(0.015)
    rig.circuit.release_pad(B2)
    assert rig.wait(0.2) == [PadPressed(C3, pressed_at)]


@pytest.mark.parametrize("second", SECOND_PADS, ids=str)
def test_a_pad_let_go_as_another_is_pressed_is_not_two_at_once(rig: Rig, second: Coord) -> None:
    rig.circuit.press_pad(C3)
    rig.wait(0.5)
    released_at = rig.now
    rig.circuit.release_pad(C3)
    rig.circuit.press_pad(second)
    released, pressed = rig.wait(0.2)
    assert isinstance(released, PadReleased) and isinstance(pressed, PadPressed)
    assert (released.coord, pressed.coord) == (C3, second)
    assert released.at == pytest.approx(released_at, abs=SCAN_S)
    assert pressed.at == pytest.approx(released_at, abs=SCAN_S)


def test_buttons_and_pads_pressed_together_all_count(rig: Rig) -> None:
    at = rig.now
    rig.circuit.press_pad(C3)
    rig.circuit.press_button(ConsoleButton.DONE)
    rig.circuit.press_button(ConsoleButton.UNDO)
    events = rig.wait(0.1)
    assert sorted(map(str, events)) == ["done pressed", "pad C3 pressed", "undo pressed"]
    # The buttons share a column, and its single fall cannot say when each of them closed:
    # they are timed from the scan that finds them, one confirmation later.
    assert [event.at for event in events if isinstance(event, PadPressed)] == [at]
    buttons = [event.at for event in events if isinstance(event, ButtonPressed)]
    assert buttons == [pytest.approx(at + DEBOUNCE_S)] * 2


def test_a_pad_held_too_long_is_reported_stuck_once_then_ignored(rig: Rig) -> None:
    pressed_at = rig.now
    rig.circuit.press_pad(C3)
    assert rig.wait(9.9) == [PadPressed(C3, pressed_at)]
    (stuck,) = rig.wait(0.2)
    assert isinstance(stuck, PadStuck)
    assert stuck.coord == C3
    assert stuck.at == pytest.approx(pressed_at + 10, abs=SCAN_S)
    assert rig.wait(120) == []
    # Another pad counts as if C3 were not there.
    rig.circuit.press_pad(B2)
    assert [type(event) for event in rig.wait(0.1)] == [PadPressed]
    rig.circuit.release_pad(B2)
    assert [type(event) for event in rig.wait(0.1)] == [PadReleased]
    released_at = rig.now
    rig.circuit.release_pad(C3)
    (release,) = rig.wait(0.2)
    assert isinstance(release, PadReleased)
    assert release.held_s == pytest.approx(released_at - pressed_at, abs=0.06)
    # Once released, it counts again.
    rig.circuit.press_pad(C3)
    assert [type(event) for event in rig.wait(0.1)] == [PadPressed]


def test_the_stuck_limit_is_a_parameter() -> None:
    rig = build_rig(stuck_after_s=2)
    rig.circuit.press_pad(C3)
    assert [type(event) for event in rig.wait(1.9)] == [PadPressed]
    assert [type(event) for event in rig.wait(0.2)] == [PadStuck]


def test_pads_stuck_together_report_their_release(rig: Rig) -> None:
    # Neither press counted, but the table was told they are stuck, so it hears them let go.
    rig.circuit.press_pad(C3)
    rig.circuit.press_pad(B2)
    rig.wait(11)
    rig.circuit.release_pad(C3)
    rig.circuit.release_pad(B2)
    events = rig.wait(0.2)
    assert sorted(str(event) for event in events) == ["pad B2 released", "pad C3 released"]


def test_only_stuck_pads_down_slows_the_scan(rig: Rig) -> None:
    # Every scan reads the held pad's column at rest, with its row raised, and at rest again
    # once the scanner waits.
    rig.circuit.press_pad(C3)
    rig.wait(1)
    before = rig.column_reads(C3.column)
    rig.wait(1)
    scans_while_held = (rig.column_reads(C3.column) - before) / 3
    rig.wait(10)
    before = rig.column_reads(C3.column)
    rig.wait(1)
    scans_while_stuck = (rig.column_reads(C3.column) - before) / 3
    assert scans_while_held >= round(1 / SCAN_S)  # every 20 ms
    assert scans_while_stuck <= 21  # every 50 ms
    # Slower, but a new press still counts.
    rig.circuit.press_pad(B2)
    assert [type(event) for event in rig.wait(0.1)] == [PadPressed]


# What a touch costs: the bounds come from the scan's design, not from a clock.
FULL_SCAN_ROW_WRITES = [2, 4, 4, 4, 2]
"""Each row's writes in a full scan: selecting row 0 raises the others, each next selection
raises the row before and lowers its own, and the end lowers them all: the first and last rows
change twice, the others four times."""


@pytest.mark.parametrize("switch", [C3, A1, Coord.parse("E5"), ConsoleButton.NEW], ids=str)
def test_a_touch_makes_one_full_scan(rig: Rig, switch: MatrixSwitch) -> None:
    row = switch_position(switch)[0]
    before = rig.row_changes()
    rig.circuit.press_switch(switch)
    assert len(rig.wait(0.1)) == 1
    rig.circuit.release_switch(switch)
    assert len(rig.wait(0.1)) == 1
    assert not rig.matrix.scanning
    # The scan at the end of the confirmation selects every row in turn, finds the switch and
    # counts it; each later scan, every `SCAN_S` while the switch is down, raises its row alone
    # and lowers it again; once it is open, the columns at rest say so.
    scans_while_down = int((0.1 - DEBOUNCE_S) / SCAN_S + 1e-9)
    quick = [2 * scans_while_down if other == row else 0 for other in range(5)]
    expected = [full + more for full, more in zip(FULL_SCAN_ROW_WRITES, quick, strict=True)]
    assert [after - was for after, was in zip(rig.row_changes(), before, strict=True)] == expected


def test_a_full_scan_reads_only_the_columns_low_at_rest(rig: Rig) -> None:
    # The scan that finds C3 reads every column at rest (all rows low), then C3's column alone
    # with each row selected in turn, and every column once more when it goes back to waiting.
    before = [rig.column_reads(column) for column in range(6)]
    rig.circuit.press_pad(C3)
    assert rig.wait(DEBOUNCE_S) == [PadPressed(C3, rig.now - DEBOUNCE_S)]
    reads = [rig.column_reads(column) - was for column, was in enumerate(before)]
    assert reads == [2 + (5 if column == C3.column else 0) for column in range(6)]


@pytest.mark.parametrize("switch", [C3, ConsoleButton.NEW], ids=str)
def test_no_scan_runs_while_a_press_or_a_release_waits_out_its_debounce_time(
    rig: Rig, switch: MatrixSwitch
) -> None:
    # Column 0 holds neither switch: every scan reads it at rest.
    at = rig.now
    reads = rig.column_reads(0)
    rig.circuit.press_switch(switch)  # its column's fall sets a scan for its confirmation's end
    assert rig.wait(DEBOUNCE_S - 0.001) == []
    assert rig.column_reads(0) == reads
    assert rig.matrix.scanning  # busy, though asleep
    assert [event.at for event in rig.wait(0.001)] == [at]
    rig.wait(0.1)
    released_at = rig.now
    rig.circuit.release_switch(switch)
    rig.clock.advance(SCAN_S)  # its next scan finds it open, dated from its column's rise
    reads = rig.column_reads(0)
    left_s = released_at + DEBOUNCE_S - rig.now
    assert rig.wait(left_s - 0.001) == []
    assert rig.column_reads(0) == reads
    (released,) = rig.wait(0.001)
    assert released.at == pytest.approx(released_at, abs=1e-9)
    assert not rig.matrix.scanning


def press_bouncing(rig: Rig) -> float:
    """Press C3, open it after 10 ms and close it again 2 ms later (no scan sees it open: it
    closes again before the next one); return when it closed again."""
    rig.circuit.press_pad(C3)
    rig.clock.advance(0.010)
    rig.circuit.release_pad(C3)
    rig.clock.advance(0.002)
    closed_again_at = rig.now
    rig.circuit.press_pad(C3)
    return closed_again_at


def test_a_bounce_while_waiting_restarts_the_debounce_time_from_its_fall(rig: Rig) -> None:
    closed_again_at = press_bouncing(rig)
    assert rig.wait(DEBOUNCE_S - 0.001) == []
    assert rig.wait(0.001) == [PadPressed(C3, closed_again_at)]


def test_a_press_still_bouncing_when_its_first_scan_falls_due_is_read_once(rig: Rig) -> None:
    # The first fall sets a scan for the end of its confirmation; the bounce's later fall means
    # nothing on that column can be counted then, so that scan reads no pin, and one full scan at
    # the end of the confirmation counted from the last fall finds the pad and counts it.
    bounced_at = press_bouncing(rig)
    reads, writes = rig.circuit.reads, rig.row_changes()
    assert rig.wait(DEBOUNCE_S - 0.012 + 0.001) == []  # past the first fall's scan
    assert (rig.circuit.reads, rig.row_changes()) == (reads, writes)
    assert rig.matrix.scanning
    assert rig.wait(bounced_at + DEBOUNCE_S - rig.now) == [PadPressed(C3, bounced_at)]
    full_scan_writes = [was + full for was, full in zip(writes, FULL_SCAN_ROW_WRITES, strict=True)]
    assert rig.row_changes() == full_scan_writes


def test_a_bounce_of_a_switch_waiting_or_held_wakes_no_scan(rig: Rig) -> None:
    rig.circuit.press_pad(C3)  # its fall sets a scan for the end of its confirmation
    reads = rig.circuit.reads
    rig.clock.advance(0.010)
    rig.circuit.release_pad(C3)
    rig.clock.advance(0.001)  # time enough for the column to rise
    bounced_at = rig.now
    rig.circuit.press_pad(C3)  # its column falls again
    rig.clock.advance(0.001)
    assert rig.circuit.reads == reads  # noted, not scanned
    # The scan due at the end of the confirmation restarts it from the fall.
    assert rig.wait(bounced_at + DEBOUNCE_S - rig.now - 0.001) == []
    assert rig.wait(0.002) == [PadPressed(C3, bounced_at)]
    rig.clock.advance(0.001)  # past the scan that reported it
    reads = rig.circuit.reads
    rig.circuit.release_pad(C3)
    rig.clock.advance(0.001)
    rig.circuit.press_pad(C3)  # held, and bouncing open for a moment
    rig.clock.advance(0.001)
    assert rig.circuit.reads == reads
    assert rig.wait(0.2) == []  # still held


def scans_due(rig: Rig, seconds: float) -> list[float]:
    """Let `seconds` pass, one delayed call at a time, and return when each call ran (the
    scanner's scans)."""
    end, times = rig.now + seconds, []
    while (due := rig.clock.next_due) is not None and due <= end:
        rig.clock.advance(due - rig.now)
        times.append(rig.now)
    rig.clock.advance(end - rig.now)
    return times


@pytest.mark.parametrize(("held_s", "release_scans"), [(0.005, 1), (0.015, 2)])
def test_a_touch_costs_a_scan_to_press_and_one_or_two_to_release(
    held_s: float, release_scans: int
) -> None:
    # The press: one scan, when its confirmation is over. The release: the held switch's next scan
    # finds it open and times it from its column's rise, so when the release debounce (10 ms here,
    # as for the real switch) has passed by then, that scan counts it; otherwise one more scan does,
    # when it has.
    rig = build_rig(debounce_ms=10)
    with rig.matrix:
        at = rig.now
        rig.circuit.press_pad(C3)
        assert scans_due(rig, DEBOUNCE_S + held_s) == [pytest.approx(at + DEBOUNCE_S)]
        assert rig.take() == [PadPressed(C3, at)]
        released_at = rig.now
        rig.circuit.release_pad(C3)
        held_scan = at + DEBOUNCE_S + SCAN_S
        expected = [held_scan, released_at + 0.010][:release_scans]
        assert scans_due(rig, 0.2) == [pytest.approx(t) for t in expected]
        (released,) = rig.take()
        assert isinstance(released, PadReleased)
        assert released.at == pytest.approx(released_at)
        assert released.held_s == pytest.approx(DEBOUNCE_S + held_s)
        assert not rig.matrix.scanning


def test_a_scans_events_are_handed_on_once_the_scanner_waits_again() -> None:
    # The game loop that takes an event then finds the scan over: the next scan already set (a
    # held pad's), or the scanner back to waiting for an edge; and while the events are being
    # handed on, the scanner still says it is scanning.
    seen: list[tuple[str, float | None, bool]] = []

    def sink(event: MatrixEvent) -> None:
        seen.append((type(event).__name__, rig.clock.next_due, rig.matrix.scanning))

    rig = build_rig(sink=sink, debounce_ms=10)
    with rig.matrix:
        rig.circuit.press_pad(C3)
        rig.clock.advance(DEBOUNCE_S)
        pressed_at = rig.now
        rig.circuit.release_pad(C3)
        rig.clock.advance(0.2)
    assert seen == [
        ("PadPressed", pytest.approx(pressed_at + SCAN_S), True),
        ("PadReleased", None, True),
    ]
    assert not rig.matrix.scanning


def test_a_second_pad_on_the_column_of_a_pad_waiting_is_found_when_it_is_due(rig: Rig) -> None:
    # No edge tells of it (the column is low already): the scan at the end of the debounce
    # time raises C3's row alone and sees C1 still holding the column.
    rig.circuit.press_pad(C3)
    rig.clock.advance(0.010)
    rig.circuit.press_pad(Coord.parse("C1"))
    (event,) = rig.wait(0.2)
    assert isinstance(event, MultiplePads)
    assert event.coords == (Coord.parse("C1"), C3)


def test_a_held_pad_costs_two_row_writes_and_thirteen_reads_a_scan(rig: Rig) -> None:
    rig.circuit.press_pad(C3)
    rig.wait(0.5)
    writes, reads = rig.row_changes(), rig.circuit.reads
    rig.wait(1)
    scans = round(1 / SCAN_S)
    assert [after - was for after, was in zip(rig.row_changes(), writes, strict=True)] == [
        0,
        0,
        2 * scans,
        0,
        0,
    ]
    # Six columns at rest, then C3's own with its row raised: not every switch of the matrix;
    # then six at rest again once the scanner waits, for a fall it would have missed.
    assert rig.circuit.reads - reads == 13 * scans


def test_press_and_release_times_measure_holds(rig: Rig) -> None:
    rig.clock.advance(2.0)
    pressed_at = rig.now
    rig.circuit.press_button(ConsoleButton.NEW)
    assert rig.wait(2.5) == [ButtonPressed(ConsoleButton.NEW, pressed_at)]
    rig.circuit.release_button(ConsoleButton.NEW)
    (release,) = rig.wait(0.1)
    assert isinstance(release, ButtonReleased)
    assert release.button is ConsoleButton.NEW
    assert release.held_s == pytest.approx(2.5, abs=SCAN_S)
    assert release.at == pytest.approx(pressed_at + 2.5, abs=SCAN_S)


def test_idle_reads_no_pins_and_schedules_nothing(rig: Rig) -> None:
    before = rig.circuit.reads
    rig.clock.advance(600)
    assert rig.circuit.reads == before
    assert rig.clock.pending == 0
    assert not rig.matrix.scanning


def test_after_a_press_the_scanner_goes_idle_again(rig: Rig) -> None:
    rig.circuit.press_button(ConsoleButton.TIMER)
    rig.wait(0.3)
    assert rig.matrix.scanning
    rig.circuit.release_button(ConsoleButton.TIMER)
    rig.wait(0.1)
    assert not rig.matrix.scanning
    assert rig.clock.pending == 0
    before = rig.circuit.reads
    rig.clock.advance(600)
    assert rig.circuit.reads == before
    # And a falling edge still wakes it.
    rig.circuit.press_pad(A1)
    assert rig.wait(0.1) == [PadPressed(A1, rig.now - 0.1)]


def test_a_switch_closed_before_start_is_seen() -> None:
    clock = VirtualClock()
    factory = MockFactory(pin_class=CountingPin)
    circuit = SwitchMatrixCircuit(factory)
    circuit.press_pad(C3)
    events: list[MatrixEvent] = []
    with SwitchMatrix(clock, events.append, pin_factory=factory):
        clock.advance(0.1)
    assert events == [PadPressed(C3, 0.0)]


def test_idle_rows_are_all_driven_low_after_a_scan(rig: Rig) -> None:
    rig.circuit.press_pad(C3)
    rig.wait(0.1)
    rig.circuit.release_pad(C3)
    rig.wait(0.1)
    # A switch on any row wakes the scanner: only a row driven low can pull its column.
    for row in range(5):
        rig.circuit.press(row, 0)
        assert rig.matrix.scanning
        rig.circuit.release(row, 0)
        rig.wait(0.1)
        assert not rig.matrix.scanning


def test_close_is_idempotent_and_frees_the_pins() -> None:
    clock = VirtualClock()
    factory = MockFactory(pin_class=CountingPin)
    circuit = SwitchMatrixCircuit(factory)
    events: list[MatrixEvent] = []
    matrix = SwitchMatrix(clock, events.append, pin_factory=factory)
    circuit.press_pad(C3)
    matrix.close()
    matrix.close()
    assert matrix.closed
    assert clock.pending == 0
    clock.advance(1)
    assert events == []
    with SwitchMatrix(clock, events.append, pin_factory=factory) as again:
        clock.advance(0.1)
        assert [type(event) for event in events] == [PadPressed]
    assert again.closed


def test_wrong_pin_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="5 rows and 6 columns"):
        SwitchMatrix(VirtualClock(), lambda event: None, rows=ROWS[:4], pin_factory=MockFactory())


# The virtual circuit itself, driven by plain gpiozero devices rather than the scanner.


@pytest.fixture
def wired() -> Iterator[
    tuple[SwitchMatrixCircuit, list[DigitalOutputDevice], list[DigitalInputDevice]]
]:
    factory = MockFactory(pin_class=CountingPin)
    circuit = SwitchMatrixCircuit(factory)
    # Rows start high (deselected): on = high here.
    rows = [DigitalOutputDevice(pin, initial_value=True, pin_factory=factory) for pin in ROWS]
    columns = [DigitalInputDevice(pin, pull_up=True, pin_factory=factory) for pin in COLUMNS]
    yield circuit, rows, columns
    for device in (*rows, *columns):
        device.close()


def low_columns(columns: list[DigitalInputDevice]) -> list[int]:
    return [index for index, column in enumerate(columns) if column.is_active]


def test_a_column_is_low_exactly_when_a_closed_switch_joins_it_to_a_low_row(
    wired: tuple[SwitchMatrixCircuit, list[DigitalOutputDevice], list[DigitalInputDevice]],
) -> None:
    circuit, rows, columns = wired
    circuit.press(2, 3)
    assert low_columns(columns) == []  # every row high: the diode blocks
    rows[2].off()
    assert low_columns(columns) == [3]
    rows[2].on()
    rows[1].off()
    assert low_columns(columns) == []  # a low row pulls only its own switches' columns
    circuit.press(1, 5)
    assert low_columns(columns) == [5]
    circuit.press(1, 3)
    assert low_columns(columns) == [3, 5]
    circuit.release(1, 3)
    circuit.release(1, 5)
    assert low_columns(columns) == []


def test_column_edges_reach_gpiozero_callbacks(
    wired: tuple[SwitchMatrixCircuit, list[DigitalOutputDevice], list[DigitalInputDevice]],
) -> None:
    circuit, rows, columns = wired
    seen: list[str] = []
    columns[4].when_activated = lambda: seen.append("fell")
    columns[4].when_deactivated = lambda: seen.append("rose")
    rows[0].off()
    circuit.press(0, 4)
    circuit.release(0, 4)
    circuit.press(0, 4)
    rows[0].on()  # the row, not the switch, lets the column go
    assert seen == ["fell", "rose", "fell", "rose"]


def test_a_row_that_is_not_an_output_pulls_nothing() -> None:
    factory = MockFactory(pin_class=CountingPin)
    circuit = SwitchMatrixCircuit(factory)
    with DigitalInputDevice(COLUMNS[0], pull_up=True, pin_factory=factory) as column:
        circuit.press(0, 0)
        assert not column.is_active


def test_the_circuit_counts_level_reads(
    wired: tuple[SwitchMatrixCircuit, list[DigitalOutputDevice], list[DigitalInputDevice]],
) -> None:
    circuit, _, columns = wired
    before = circuit.reads
    circuit.press(0, 0)
    assert circuit.reads == before  # edges are pushed, not read
    _ = columns[0].value
    _ = columns[1].value
    assert circuit.reads == before + 2


def test_the_circuit_must_own_its_pins() -> None:
    factory = MockFactory(pin_class=CountingPin)
    with (
        DigitalInputDevice(COLUMNS[2], pull_up=True, pin_factory=factory),
        pytest.raises(ValueError, match="build the circuit before"),
    ):
        SwitchMatrixCircuit(factory)


def test_a_pin_keeps_a_bounded_history_of_its_levels() -> None:
    from firmware.virtual.matrix_circuit import STATE_HISTORY

    factory = MockFactory(pin_class=CountingPin)
    pin = factory.pin(5)
    pin.function = "output"
    for n in range(10 * STATE_HISTORY):
        pin.state = n % 2
    assert STATE_HISTORY <= len(pin.states) <= 2 * STATE_HISTORY
    assert pin.states[-1].state == (10 * STATE_HISTORY - 1) % 2


# The settle time: a column that a held pad pulled low must rise through its pull-up before the
# next row is read, or the pad shows on the row read first as well.

C1 = Coord.parse("C1")
C5 = Coord.parse("C5")


def test_without_the_settle_time_a_held_pad_shows_a_phantom_on_the_first_row() -> None:
    rig = build_rig(settle_s=0)
    with rig.matrix:
        rig.circuit.press_pad(C5)
        (event,) = rig.wait(0.2)
    assert isinstance(event, MultiplePads)
    assert {C1, C5} <= set(event.coords)


def test_with_the_settle_time_a_held_pad_is_the_only_one(rig: Rig) -> None:
    pressed_at = rig.now
    rig.circuit.press_pad(C5)
    assert rig.wait(0.2) == [PadPressed(C5, pressed_at)]


def test_the_scanner_waits_the_settle_time_after_each_row_change(rig: Rig) -> None:
    rig.circuit.press_pad(C5)
    assert rig.wire.waited_s == 0.0  # no scan yet: the first one is at the confirmation's end
    rig.clock.advance(DEBOUNCE_S)  # that scan, and no other
    assert rig.wire.waited_s == pytest.approx(5 * SETTLE_S)
    assert rig.circuit.rise_s < SETTLE_S  # the standard wait outlasts the standard rise


def test_without_the_external_pull_ups_the_standard_settle_time_is_too_short() -> None:
    # The Pi's own pull-up alone: τ = 65 kΩ × 200 pF = 13 µs, far past the standard 9 µs wait.
    rig = build_rig(PI_PULL_UP_OHMS)
    with rig.matrix:
        rig.circuit.press_pad(C5)
        assert [type(event) for event in rig.wait(0.2)] == [MultiplePads]


def test_a_settle_time_for_the_internal_pull_ups_alone_reads_them_right() -> None:
    rig = build_rig(PI_PULL_UP_OHMS, settle_s=settle_time_s(PI_PULL_UP_OHMS))
    with rig.matrix:
        pressed_at = rig.now
        rig.circuit.press_pad(C5)
        assert rig.wait(0.2) == [PadPressed(C5, pressed_at)]


def test_busy_wait_returns_once_its_counter_has_passed_the_time() -> None:
    ticks = iter(n * 2e-6 for n in range(100))
    seen: list[float] = []

    def counter() -> float:
        seen.append(next(ticks))
        return seen[-1]

    busy_wait(9e-6, counter)
    assert seen[-1] >= 9e-6
    assert seen[-2] < 9e-6


def test_a_released_column_reads_low_until_it_has_risen() -> None:
    clock = VirtualClock()
    wire = WireTime(clock)
    factory = MockFactory(pin_class=CountingPin)
    circuit = SwitchMatrixCircuit(factory, now=wire.now)
    with (
        DigitalOutputDevice(ROWS[4], initial_value=False, pin_factory=factory) as row,
        DigitalInputDevice(COLUMNS[2], pull_up=True, pin_factory=factory) as column,
    ):
        circuit.press(4, 2)
        assert column.is_active  # a fall is at once
        row.on()
        wire.wait(circuit.rise_s * 0.9)
        assert column.is_active  # still on its way up
        wire.wait(circuit.rise_s * 0.2)
        assert not column.is_active
        row.off()
        assert column.is_active
        circuit.release(4, 2)
        clock.advance(0.001)  # time on the clock counts as well
        assert not column.is_active


def test_a_column_that_rose_unseen_falls_with_an_edge_when_pulled_low_again() -> None:
    clock = VirtualClock()
    factory = MockFactory(pin_class=CountingPin)
    circuit = SwitchMatrixCircuit(factory, now=WireTime(clock).now)
    falls: list[int] = []
    with (
        DigitalOutputDevice(ROWS[4], initial_value=False, pin_factory=factory),
        DigitalInputDevice(COLUMNS[2], pull_up=True, pin_factory=factory) as column,
    ):
        column.when_activated = lambda: falls.append(1)
        circuit.press(4, 2)
        circuit.release(4, 2)
        clock.advance(0.002)  # nothing reads the column while it rises
        circuit.press(4, 2)  # a bounce closes it again
        assert len(falls) == 2
        circuit.release(4, 2)
        circuit.press(4, 2)  # too soon to have risen: no new edge
        assert len(falls) == 2


class _FallBeforeScan(VirtualClock):
    """A virtual clock that, when a delayed call falls due, first runs `before_due` (once): on
    the Pi an edge can reach the scanner after a timer has fired but before its scan begins."""

    def __init__(self, start: float) -> None:
        super().__init__(start)
        self.before_due: Callable[[], None] | None = None

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        def fire() -> None:
            hook, self.before_due = self.before_due, None
            if hook is not None and delay > 0:
                hook()
            callback()

        return super().call_later(delay, fire)


def test_a_fall_as_a_due_scan_begins_leaves_one_scan_pending() -> None:
    clock = _FallBeforeScan(start=100.0)
    wire = WireTime(clock)
    factory = MockFactory(pin_class=CountingPin)
    circuit = SwitchMatrixCircuit(factory, now=wire.now)
    events: list[MatrixEvent] = []
    with SwitchMatrix(clock, events.append, pin_factory=factory, settle_wait=wire.wait):
        circuit.press_pad(C3)
        clock.advance(0)  # C3 found: the scanner sleeps out its debounce time
        clock.before_due = lambda: circuit.press_button(ConsoleButton.NEW)
        clock.advance(DEBOUNCE_S)
        # The scan that was due takes the fall with it; the one the fall asked for is not run
        # as well, which would start a second chain of scans beside the first.
        assert clock.pending == 1
        clock.advance(0.2)
        assert clock.pending == 1
        assert [type(event) for event in events] == [PadPressed, ButtonPressed]


def deliver_fall(rig: Rig, column: int, ticks: float) -> None:
    """A column's fall as a pin library delivers it, stamped `ticks` (lgpio's: when it fell)."""
    pin = rig.factory.pin(COLUMNS[column])
    super(MockPin, pin)._call_when_changed(ticks, False)  # as PiPin delivers an edge


def test_a_fall_stamped_before_the_scanner_armed_wakes_nothing(rig: Rig) -> None:
    # On the Pi the falls a scan's own row writes make can arrive once it has gone idle.
    deliver_fall(rig, 2, rig.factory.ticks() - 1.0)
    assert not rig.matrix.scanning
    assert rig.clock.pending == 0
    deliver_fall(rig, 2, rig.factory.ticks())
    assert rig.matrix.scanning
