"""The capacitive pads: the real `adafruit_mpr121` driver over three virtual MPR121s on the
virtual I2C bus, their IRQ lines on gpiozero mock pins, on a virtual clock."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from gpiozero.pins.mock import MockFactory

from board_rules.codenames.grid import SIZE, Coord
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
    TouchChipFault,
)
from firmware.drivers.touch_pads import (
    ADDRESSES,
    DEBOUNCE_REGISTER,
    WATCH_S,
    PadThresholds,
    TouchPads,
    electrode_of,
    switch_of,
)
from firmware.virtual.i2c import Transaction, VirtualI2C
from firmware.virtual.mpr121 import THRESHOLDS, VirtualTouchPanel

IRQ_PINS = (17, 27, 22)
C3, D4 = Coord.parse("C3"), Coord.parse("D4")
A1, E5 = Coord.parse("A1"), Coord.parse("E5")


@dataclass
class Rig:
    clock: VirtualClock
    bus: VirtualI2C
    panel: VirtualTouchPanel
    pads: TouchPads
    events: list[MatrixEvent]

    @property
    def faults(self) -> list[tuple[int, bool]]:
        """(address, silent) of each fault reported so far."""
        return [(e.address, not e.answering) for e in self.events if isinstance(e, TouchChipFault)]

    def inputs(self) -> list[type]:
        return [type(e) for e in self.events if not isinstance(e, TouchChipFault)]

    def wait(self, seconds: float) -> None:
        end = self.clock.monotonic() + seconds
        while (due := self.clock.next_due) is not None and due <= end:
            self.clock.advance(max(due - self.clock.monotonic(), 0.0))
        self.clock.advance(max(end - self.clock.monotonic(), 0.0))

    def tap(self, switch: Coord | ConsoleButton, hold_s: float = 0.1) -> None:
        self.panel.press_switch(switch)
        self.wait(hold_s)
        self.panel.release_switch(switch)
        self.wait(0.1)


FILTERED_DATA_REGISTERS = range(0x04, 0x1E)
"""ELE0–ELE12's filtered data, two bytes each (MPR121 datasheet, register map)."""


class HeldClock:
    """The table's time on a thread held up for `held_s` right after some of its reads of a pad's
    data (`hold` says which): that much time passes at once, for the chips too (they sample on),
    and the timers due meanwhile fire late."""

    def __init__(self, clock: VirtualClock, held_s: float, hold: Callable[[int], bool]) -> None:
        self._clock = clock
        self._held_s = held_s
        self._hold = hold
        self._late = 0.0
        self.data_reads = 0

    def monotonic(self) -> float:
        return self._clock.monotonic() + self._late

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        return self._clock.call_later(delay, callback)

    def transferred(self, transactions: list[Transaction]) -> None:
        """After each transfer on the bus: a read answering a write of a pad's data register is
        a data read (the transactions before the last are dropped)."""
        asked, answer = transactions[-2:] if len(transactions) >= 2 else (None, None)
        del transactions[:-1]
        if asked is None or answer is None or not answer.read or asked.read:
            return
        if asked.data[:1] and asked.data[0] in FILTERED_DATA_REGISTERS:
            self.data_reads += 1
            if self._hold(self.data_reads):
                self._late += self._held_s


def make_rig(
    held: Callable[[VirtualClock], HeldClock] | None = None, **options: object
) -> tuple[Rig, MockFactory]:
    clock = VirtualClock()
    held_clock = None if held is None else held(clock)
    bus = VirtualI2C(record=held_clock is not None)
    if held_clock is not None:
        bus.pace = lambda _: held_clock.transferred(bus.transactions or [])
    time: VirtualClock | HeldClock = clock if held_clock is None else held_clock
    factory = MockFactory()
    factory.ticks = time.monotonic  # IRQ edges' ages on the virtual clock, not real time
    panel = VirtualTouchPanel(time, bus, factory, IRQ_PINS)
    events: list[MatrixEvent] = []
    pads = TouchPads(
        time,
        events.append,
        i2c=bus,
        irq_pins=IRQ_PINS,
        pin_factory=factory,
        **options,  # type: ignore[arg-type]
    )
    rig = Rig(clock, bus, panel, pads, events)
    rig.wait(2.0)  # the baselines settle
    rig.events.clear()
    return rig, factory


@pytest.fixture
def rig() -> Iterator[Rig]:
    made, factory = make_rig()
    yield made
    made.pads.close()
    factory.reset()


def test_every_pad_and_button_has_its_own_electrode() -> None:
    switches = [Coord(row=r, column=c) for r in range(SIZE) for c in range(SIZE)]
    switches += list(ConsoleButton)
    places = [electrode_of(switch) for switch in switches]
    assert len(set(places)) == len(switches)
    assert all(switch_of(*place) == switch for place, switch in zip(places, switches, strict=True))
    assert all(chip < len(ADDRESSES) for chip, _ in places)


def test_a_touch_counts_once_and_its_release_tells_how_long(rig: Rig) -> None:
    rig.tap(C3, hold_s=0.5)
    assert [type(e) for e in rig.events] == [PadPressed, PadReleased]
    pressed, released = rig.events
    assert isinstance(pressed, PadPressed) and pressed.coord == C3
    assert isinstance(released, PadReleased) and released.held_s == pytest.approx(0.5, abs=0.04)


def test_the_status_is_read_only_when_a_chip_signals_a_change(rig: Rig) -> None:
    reads = [chip.reads_of_status for chip in rig.panel.chips]
    rig.wait(60.0)
    assert [chip.reads_of_status for chip in rig.panel.chips] == reads
    assert rig.clock.pending == 0
    rig.tap(A1)
    # Each change (touch, release) wakes the table once; it reads every chip then.
    assert [c.reads_of_status - r for c, r in zip(rig.panel.chips, reads, strict=True)] == [2] * 3


def test_console_buttons_are_pressed_and_released(rig: Rig) -> None:
    rig.tap(ConsoleButton.UNDO, hold_s=1.2)
    assert [type(e) for e in rig.events] == [ButtonPressed, ButtonReleased]
    assert all(getattr(e, "button", None) is ConsoleButton.UNDO for e in rig.events)


def test_two_cards_touched_at_once_are_refused_on_any_chips(rig: Rig) -> None:
    assert electrode_of(A1)[0] != electrode_of(E5)[0]
    rig.panel.press_switch(A1)
    rig.panel.press_switch(E5)
    rig.wait(0.2)
    rig.panel.release_switch(A1)
    rig.panel.release_switch(E5)
    rig.wait(0.2)
    assert rig.events == [MultiplePads((A1, E5), rig.events[0].at)]


def test_a_card_joined_by_another_is_refused_and_the_first_stays_counted(rig: Rig) -> None:
    rig.panel.press_switch(C3)
    rig.wait(0.2)
    rig.panel.press_switch(D4)
    rig.wait(0.2)
    rig.panel.release_switch(D4)
    rig.panel.release_switch(C3)
    rig.wait(0.2)
    kinds = [type(e) for e in rig.events]
    assert kinds == [PadPressed, MultiplePads, PadReleased]
    assert rig.events[1] == MultiplePads((C3, D4), rig.events[1].at)


def test_a_hand_resting_on_a_card_is_stuck_after_the_limit(rig: Rig) -> None:
    rig.panel.press_switch(C3)
    rig.wait(9.9)
    assert [type(e) for e in rig.events] == [PadPressed]
    rig.wait(0.2)
    assert [type(e) for e in rig.events] == [PadPressed, PadStuck]
    rig.panel.press_switch(D4)
    rig.wait(0.2)
    assert isinstance(rig.events[-1], PadPressed)  # a stuck pad does not spoil another
    assert rig.events[-1].coord == D4


def test_a_chip_that_stops_answering_is_a_fault_and_the_others_go_on(rig: Rig) -> None:
    second = ADDRESSES[1]
    on_second = Coord(row=3, column=0)  # pad 15: E3 of the second chip
    assert electrode_of(on_second) == (1, 3)
    rig.bus.unplug(second)
    rig.tap(on_second)
    assert rig.faults == [(second, True)]
    assert rig.pads.faulty == (second,)
    assert rig.inputs() == []
    rig.tap(A1)  # on the first chip
    assert rig.inputs() == [PadPressed, PadReleased]
    rig.wait(20.0)
    assert rig.faults == [(second, True)]  # told once, however often it is retried
    rig.events.clear()
    rig.bus.replug(second)
    rig.wait(30.0)  # the back-off reaches it
    assert rig.faults == [(second, False)]
    assert not rig.pads.faulty
    rig.wait(2.0)
    rig.events.clear()
    rig.tap(on_second)
    assert rig.inputs() == [PadPressed, PadReleased]


def test_thresholds_and_debounce_are_written_to_the_chips() -> None:
    made, factory = make_rig(thresholds={C3: PadThresholds(touch=20, release=9)}, debounce_ms=20.0)
    try:
        chip, electrode = electrode_of(C3)
        virtual = made.panel.chips[chip]
        # The chip wakes the table at a third of the signal a guess needs on that pad.
        assert virtual.register(THRESHOLDS + 2 * electrode) == 6
        assert virtual.register(THRESHOLDS + 2 * electrode + 1) == 5
        assert virtual.register(THRESHOLDS + 2 * (electrode + 1)) == 4  # the default's third
        # 7 samples of 2 ms (the most DR holds) to release; a touch is the finger's rule's.
        assert virtual.register(DEBOUNCE_REGISTER) == 0x70
    finally:
        made.pads.close()
        factory.reset()


def test_thresholds_need_hysteresis() -> None:
    with pytest.raises(ValueError, match="hysteresis"):
        PadThresholds(touch=8, release=8)


def test_a_chip_missing_at_start_is_a_fault_and_the_table_opens() -> None:
    clock = VirtualClock()
    bus = VirtualI2C()
    factory = MockFactory()
    factory.ticks = clock.monotonic  # IRQ edges' ages on the virtual clock, not real time
    panel = VirtualTouchPanel(clock, bus, factory, IRQ_PINS)
    bus.unplug(ADDRESSES[2])
    events: list[MatrixEvent] = []
    with TouchPads(clock, events.append, i2c=bus, irq_pins=IRQ_PINS, pin_factory=factory) as pads:
        assert events == [TouchChipFault(ADDRESSES[2], False, 0.0)]
        assert pads.faulty == (ADDRESSES[2],)
        clock.advance(2.0)  # the baselines settle (a finger there at power-up is the baseline)
        panel.press_switch(A1)
        clock.advance(0.1)
        assert isinstance(events[-1], PadPressed)
    factory.reset()


@pytest.mark.parametrize(("held_s", "every", "counted"), [(0.003, 1, False), (0.0015, 5, True)])
def test_a_read_held_up_before_its_time_was_taken_is_not_judged(
    held_s: float, every: int, counted: bool
) -> None:
    # Held 3 ms after every read of the pad's data, the table cannot tell when any reading was
    # taken: the finger is lost (tap again) rather than judged on readings dated late. Held
    # 1.5 ms after one read in five, the reads around each one left out still see it.
    clocks: list[HeldClock] = []

    def held(clock: VirtualClock) -> HeldClock:
        clocks.append(HeldClock(clock, held_s, lambda read: read % every == 0))
        return clocks[0]

    made, factory = make_rig(held)
    try:
        made.tap(C3, hold_s=0.3)
        assert clocks[0].data_reads > 0
        assert (PadPressed in made.inputs()) is counted
    finally:
        made.pads.close()
        factory.reset()


def test_a_hand_held_near_a_pad_is_read_for_a_while_then_left_alone(rig: Rig) -> None:
    chip, electrode = electrode_of(C3)
    rig.panel.chips[chip].touch(electrode, 0.25)  # near (over 0.12 pF), never a finger's jump
    rig.wait(0.1)
    assert rig.panel.chips[chip].register(0x00) & 1 << electrode  # the chip says "near"
    writes = rig.bus.writes
    rig.wait(0.1)
    assert rig.bus.writes - writes >= 2 * 40  # data and baseline read every 2 ms sample
    rig.wait(WATCH_S)
    writes = rig.bus.writes
    rig.wait(1.0)
    assert rig.bus.writes == writes  # no more reads: a hand held there
    assert rig.events == []
    rig.panel.release_switch(C3)
    rig.wait(0.2)
    rig.tap(C3)  # gone and back: a finger now counts
    assert [type(e) for e in rig.events] == [PadPressed, PadReleased]
