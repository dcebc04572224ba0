"""The console on virtual hardware: matrix buttons and their holds, the encoder's turns and
push, and an idle console that reads no pins and schedules nothing."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from board_rules.codenames.grid import Coord
from firmware.drivers.clock import SystemClock, Timer, VirtualClock
from firmware.drivers.console import Console
from firmware.drivers.events import (
    ButtonHeld,
    ButtonPressed,
    ButtonReleased,
    ConsoleButton,
    EncoderHeld,
    EncoderPushed,
    EncoderTurned,
    InputEvent,
    PadPressed,
)
from firmware.drivers.matrix import HELD_SCAN_MS, RELEASE_DEBOUNCE_MS
from firmware.virtual.encoder import VirtualEncoder
from firmware.virtual.matrix_circuit import CountingPin, SwitchMatrixCircuit

SCAN_S = HELD_SCAN_MS / 1000  # a held switch's scan period: the resolution of its release's time

UNDO = ConsoleButton.UNDO
NEW = ConsoleButton.NEW
DONE = ConsoleButton.DONE
PENALTY = ConsoleButton.PENALTY


@dataclass
class Table:
    """A console on virtual pins: the matrix circuit and the encoder."""

    clock: VirtualClock
    factory: MockFactory
    circuit: SwitchMatrixCircuit
    encoder: VirtualEncoder
    console: Console

    def take(self) -> list[InputEvent]:
        taken: list[InputEvent] = []
        while True:
            try:
                taken.append(self.console.events.get_nowait())
            except queue.Empty:
                return taken

    def wait(self, seconds: float) -> list[InputEvent]:
        self.clock.advance(seconds)
        return self.take()

    def said(self, seconds: float) -> list[str]:
        return [str(event) for event in self.wait(seconds)]

    @property
    def now(self) -> float:
        return self.clock.monotonic()

    @property
    def reads(self) -> int:
        return sum(pin.reads for pin in self.factory.pins.values())


def build_table(
    clock: VirtualClock | None = None, pin_class: type[CountingPin] = CountingPin, **options: Any
) -> Table:
    clock = clock or VirtualClock(start=50.0)
    factory = MockFactory(pin_class=pin_class)
    circuit = SwitchMatrixCircuit(factory)
    encoder = VirtualEncoder(factory)
    console = Console(clock, pin_factory=factory, **options)
    return Table(clock, factory, circuit, encoder, console)


@pytest.fixture
def table() -> Iterator[Table]:
    built = build_table()
    yield built
    built.console.close()


def test_pads_and_buttons_reach_the_queue(table: Table) -> None:
    table.circuit.press_pad(Coord.parse("C3"))
    table.circuit.press_button(DONE)
    assert sorted(table.said(0.1)) == ["done pressed", "pad C3 pressed"]
    table.circuit.release_pad(Coord.parse("C3"))
    table.circuit.release_button(DONE)
    assert sorted(table.said(0.1)) == ["done released", "pad C3 released"]


def test_a_short_press_is_pressed_and_released_without_a_hold(table: Table) -> None:
    table.circuit.press_button(UNDO)
    table.clock.advance(0.5)
    table.circuit.release_button(UNDO)
    assert table.said(2.0) == ["undo pressed", "undo released"]


def test_a_hold_is_reported_while_the_button_is_still_down(table: Table) -> None:
    pressed_at = table.now
    table.circuit.press_button(UNDO)
    assert table.wait(0.99) == [ButtonPressed(UNDO, pressed_at)]
    assert table.wait(0.02) == [ButtonHeld(UNDO, pressed_at + 1.0)]
    assert table.wait(5.0) == []  # once per press, however long
    table.circuit.release_button(UNDO)
    (release,) = table.wait(0.1)
    assert isinstance(release, ButtonReleased)
    assert release.held_s == pytest.approx(6.01, abs=SCAN_S)


@pytest.mark.parametrize(
    ("button", "hold_s"),
    [
        (ConsoleButton.UNDO, 1.0),
        (ConsoleButton.PENALTY, 1.0),
        (ConsoleButton.TIMER, 1.0),
        (ConsoleButton.NEW, 2.0),
    ],
)
def test_each_button_has_its_hold_time(table: Table, button: ConsoleButton, hold_s: float) -> None:
    table.circuit.press_button(button)
    assert table.said(hold_s - 0.01) == [f"{button.value} pressed"]
    assert table.said(0.02) == [f"{button.value} held"]


def test_done_has_no_hold(table: Table) -> None:
    table.circuit.press_button(DONE)
    assert table.said(30.0) == ["done pressed"]


def test_hold_times_are_parameters() -> None:
    table = build_table(holds={DONE: 0.5})
    with table.console:
        table.circuit.press_button(DONE)
        table.circuit.press_button(UNDO)
        assert sorted(table.said(0.6)) == ["done held", "done pressed", "undo pressed"]
        assert table.said(5.0) == []


def test_a_new_press_does_not_inherit_the_hold_of_the_last(table: Table) -> None:
    table.circuit.press_button(UNDO)
    table.clock.advance(0.5)
    table.circuit.release_button(UNDO)
    table.clock.advance(0.2)
    second_at = table.now
    table.circuit.press_button(UNDO)
    assert table.said(0.9) == ["undo pressed", "undo released", "undo pressed"]
    assert table.wait(0.2) == [ButtonHeld(UNDO, second_at + 1.0)]


class TooLate:
    """A timer whose `cancel` comes too late: the call has already started."""

    def __init__(self, due: float) -> None:
        self.due = due

    def cancel(self) -> None:
        pass


class LateCancelClock(VirtualClock):
    """On the Pi a hold timer may already be running on the clock's thread, waiting for the
    console's lock, while a release cancels it; here every cancel comes that late."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        return TooLate(super().call_later(delay, callback).due)


def test_a_hold_timer_that_outlives_its_press_reports_nothing() -> None:
    table = build_table(LateCancelClock(start=50.0))
    with table.console:
        table.circuit.press_button(UNDO)
        table.circuit.press_button(PENALTY)
        table.encoder.press()
        table.clock.advance(0.5)
        table.circuit.release_button(UNDO)
        table.circuit.release_button(PENALTY)
        table.encoder.release()
        table.clock.advance(0.2)
        table.circuit.press_button(UNDO)  # a new press, before the first one's hold time
        assert sorted(table.said(0.6)) == [
            "encoder pushed",
            "penalty pressed",
            "penalty released",
            "undo pressed",
            "undo pressed",
            "undo released",
        ]
        assert table.said(0.5) == ["undo held"]  # the second press's, 1 s after it


def test_chatter_on_a_button_never_makes_two_presses(table: Table) -> None:
    for _ in range(4):
        table.circuit.press_button(NEW)
        table.clock.advance(0.007)
        table.circuit.release_button(NEW)
        table.clock.advance(0.006)
    table.circuit.press_button(NEW)
    assert table.said(0.5) == ["new pressed"]


def test_one_detent_is_one_step(table: Table) -> None:
    at = table.now
    table.encoder.turn(+1)
    assert table.take() == [EncoderTurned(+1, at)]
    table.encoder.turn(-1)
    assert table.take() == [EncoderTurned(-1, at)]


def test_several_detents_give_as_many_steps(table: Table) -> None:
    table.encoder.turn(3)
    table.clock.advance(0.2)
    table.encoder.turn(-2)
    assert table.said(0) == ["encoder +1"] * 3 + ["encoder -1"] * 2


def test_a_turn_rolled_back_before_the_detent_is_no_step(table: Table) -> None:
    table.encoder.wiggle()
    pin_a = table.factory.pin(16)
    pin_a.drive_low()
    pin_a.drive_high()
    assert table.take() == []


def test_a_short_push_is_reported_when_it_opens(table: Table) -> None:
    table.encoder.press()
    assert table.wait(0.3) == []  # could still become a long push
    released_at = table.now
    table.encoder.release()
    assert table.wait(0.1) == [EncoderPushed(released_at)]


def test_a_long_push_is_held_and_not_pushed(table: Table) -> None:
    pushed_at = table.now
    table.encoder.press()
    assert table.wait(0.99) == []
    assert table.wait(0.02) == [EncoderHeld(pushed_at + 1.0)]
    table.encoder.release()
    assert table.wait(1.0) == []


def test_the_push_hold_time_is_a_parameter() -> None:
    table = build_table(push_hold_s=0.4)
    with table.console:
        table.encoder.press()
        assert table.said(0.45) == ["encoder held"]


def test_push_chatter_gives_one_push(table: Table) -> None:
    for _ in range(5):
        table.encoder.press()
        table.clock.advance(0.002)
        table.encoder.release()
        table.clock.advance(0.003)
    table.encoder.press()
    table.clock.advance(0.2)
    for _ in range(3):
        table.encoder.release()
        table.clock.advance(0.004)
        table.encoder.press()
        table.clock.advance(0.002)
    table.encoder.release()
    assert table.said(0.5) == ["encoder pushed"]


def test_a_push_shorter_than_the_debounce_time_is_nothing(table: Table) -> None:
    table.encoder.press()
    table.clock.advance(RELEASE_DEBOUNCE_MS / 1000 / 2)
    table.encoder.release()
    assert table.wait(2.0) == []


def test_an_idle_console_reads_no_pins_and_schedules_nothing(table: Table) -> None:
    table.circuit.press_button(UNDO)
    table.encoder.turn(1)
    table.encoder.press()
    table.clock.advance(1.5)
    table.circuit.release_button(UNDO)
    table.encoder.release()
    table.clock.advance(0.2)
    table.take()
    before = table.reads
    table.clock.advance(600)
    assert table.reads == before
    assert table.clock.pending == 0
    assert table.take() == []


def test_the_console_starts_no_threads() -> None:
    # Nothing may poll in the background: a gpiozero Button's hold thread wakes every 100 ms.
    before = threading.active_count()
    table = build_table()
    with table.console:
        assert threading.active_count() == before


def test_events_go_to_an_injected_queue() -> None:
    # The application's loop may carry its own messages on the same queue.
    events: queue.Queue[InputEvent | str] = queue.Queue()
    events.put_nowait("tick")
    table = build_table(events=events)
    with table.console as console:
        table.encoder.turn(1)
        with pytest.raises(RuntimeError, match="queue it was given"):
            _ = console.events
    assert [str(events.get_nowait()) for _ in range(2)] == ["tick", "encoder +1"]


def test_close_is_idempotent_and_frees_the_pins(table: Table) -> None:
    table.circuit.press_button(UNDO)
    table.encoder.press()
    table.console.close()
    table.console.close()
    assert table.clock.pending == 0
    table.encoder.turn(1)
    table.clock.advance(5)
    assert table.take() == []
    # The pins are free for a new console.
    with Console(table.clock, pin_factory=table.factory) as again:
        table.clock.advance(0.1)
        assert [type(event) for event in _drain(again)] == [ButtonPressed]


def _drain(console: Console) -> list[InputEvent]:
    taken: list[InputEvent] = []
    while not console.events.empty():
        taken.append(console.events.get_nowait())
    return taken


def test_the_console_runs_on_the_real_clock_threads() -> None:
    # No sleeping: the scheduler thread scans, and the test waits on the queue for the events.
    factory = MockFactory(pin_class=CountingPin)
    circuit = SwitchMatrixCircuit(factory)
    encoder = VirtualEncoder(factory)
    with SystemClock() as clock, Console(clock, pin_factory=factory) as console:
        circuit.press_pad(Coord.parse("E5"))
        event = console.events.get(timeout=5)
        assert isinstance(event, PadPressed)
        assert event.coord == Coord.parse("E5")
        circuit.release_pad(Coord.parse("E5"))
        assert str(console.events.get(timeout=5)) == "pad E5 released"
        encoder.press()
        assert str(console.events.get(timeout=5)) == "encoder held"
        encoder.release()
        encoder.turn(-1)
        assert str(console.events.get(timeout=5)) == "encoder -1"


def test_the_switches_are_busy_from_a_touch_until_its_release_is_settled(table: Table) -> None:
    assert not table.console.switches_busy
    table.circuit.press_button(UNDO)
    table.clock.advance(0)
    assert table.console.switches_busy
    table.clock.advance(0.1)
    table.circuit.release_button(UNDO)
    table.clock.advance(0)
    assert table.console.switches_busy  # waiting out the release debounce
    table.clock.advance(RELEASE_DEBOUNCE_MS / 1000 + 0.01)
    assert not table.console.switches_busy


def test_the_push_is_busy_until_its_debounce_is_waited_out(table: Table) -> None:
    table.encoder.press()
    assert table.console.switches_busy  # the push read only once it has been still
    table.clock.advance(0.1)
    assert not table.console.switches_busy
    released_at = table.now
    table.encoder.release()
    assert table.console.switches_busy
    assert table.wait(0.1) == [EncoderPushed(released_at)]
    assert not table.console.switches_busy
