"""The watchdog is fed only while every thread the table needs is alive and getting on.

Real threads throughout: the `SystemClock`'s scheduler, the `DisplayWorker` over the real OLED
driver on a fake I2C bus, the switch matrix on gpiozero's mock pins, and a real notify socket on
systemd's side. Faults are made at the lowest boundary: a bus transfer or a pin read that hangs
or raises, a delayed call that hangs or ends its thread. The stuck bound is measured on an
injected clock, so no test waits for it; real waits only ever wait for something that was made
to happen, with a generous timeout as a safety net.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from firmware.drivers.clock import SystemClock
from firmware.drivers.liveness import Liveness, Progress
from firmware.drivers.matrix import SwitchMatrix
from firmware.drivers.oled import Oled
from firmware.drivers.pinout import DEFAULT_PIN_MAP
from firmware.service.sd_notify import SystemdNotifier, WatchdogFeeder
from firmware.service.serve import serve
from firmware.table.config import TableConfig
from firmware.table.display_worker import DisplayWorker
from firmware.table.screens import OledScreen
from firmware.virtual.i2c import VirtualI2C
from firmware.virtual.ssd1306 import VirtualSSD1306
from firmware.virtual.table import VirtualTable

from ..notify_socket import NotifySocket, path_notify_socket

SAFETY_S = 10.0
"""Longest wait for something that was made to happen; it happens at once."""
STUCK_S = 5.0
HEARTBEAT = b"WATCHDOG=1"


class FakeTime:
    """The monotonic clock that the watchdog's side reads; it moves only when told to."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class BusGate:
    """The fake I2C bus's pacing hook, as a fault: a transfer goes through, hangs at the gate
    until it opens, or raises `error`."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.open.set()
        self.reached = threading.Event()
        self.error: BaseException | None = None

    def __call__(self, seconds: float) -> None:
        if self.error is not None:
            raise self.error
        if not self.open.is_set():
            self.reached.set()
            self.open.wait(SAFETY_S)


class GatedPin(MockPin):  # type: ignore[misc]  # gpiozero ships no type hints
    """A mock pin whose level reads hang while its factory's gate is closed."""

    gate = threading.Event()
    reached = threading.Event()

    def _get_state(self) -> Any:
        if not GatedPin.gate.is_set():
            GatedPin.reached.set()
            GatedPin.gate.wait(SAFETY_S)
        return super()._get_state()


@dataclass
class Rig:
    """The clock and display threads as on the Pi, and the game loop's heartbeat."""

    clock: SystemClock
    display: DisplayWorker
    bus: BusGate
    receiver: NotifySocket
    feed: WatchdogFeeder
    time: FakeTime
    releases: list[threading.Event] = field(default_factory=list)

    def beat(self, after_s: float = 1.0) -> list[bytes]:
        """Let `after_s` pass for the watchdog's side, call the loop's heartbeat, and return
        what systemd received (a datagram is in its queue as soon as it is sent)."""
        self.time.now += after_s
        self.feed()
        return self.receiver.pending()

    def hold(self) -> threading.Event:
        """An event that a hanging piece of work waits for; set when the test ends."""
        event = threading.Event()
        self.releases.append(event)
        return event

    def draw(self, title: str) -> None:
        self.display.show(OledScreen(title=title))
        assert self.display.wait_idle(SAFETY_S)


@pytest.fixture
def rig() -> Iterator[Rig]:
    gate = BusGate()
    bus = VirtualI2C(pace=gate)
    bus.attach(0x3C, VirtualSSD1306())
    fake = FakeTime()
    with (
        path_notify_socket() as receiver,
        SystemdNotifier(receiver.env_value) as notifier,
        SystemClock() as clock,
        # Its burn-in shift is a timer: the clock's thread starts and waits for it.
        Oled(clock, i2c=bus) as oled,
        DisplayWorker(oled) as display,
    ):
        oled.defer = display.run_soon
        liveness = Liveness(
            [clock.progress, display.progress], stuck_after_s=STUCK_S, monotonic=fake
        )
        feed = WatchdogFeeder(notifier, heartbeat_s=1.0, monotonic=fake, fault=liveness.fault)
        test_rig = Rig(clock, display, gate, receiver, feed, fake)
        try:
            yield test_rig
        finally:
            # Let every hung thread go, so that closing can join it, and the OLED power off.
            gate.error = None
            gate.open.set()
            for event in test_rig.releases:
                event.set()


def assert_heartbeats_stopped(rig: Rig, why: str, after_s: float = 1.0) -> None:
    """The heartbeat `after_s` from now is a status naming the fault, and none comes after."""
    assert rig.beat(after_s) == [
        f"STATUS=failing, waiting for the watchdog to restart it: {why}".encode()
    ]
    for _ in range(5):
        assert rig.beat(after_s=STUCK_S * 2) == []
    assert rig.feed.stopped_for == why


def test_idle_threads_keep_the_heartbeats_coming_however_long_the_table_waits(
    rig: Rig,
) -> None:
    rig.draw("Red spymaster")
    assert rig.clock.progress.thread is not None
    # Ten idle minutes, far past the stuck bound: waiting for work is healthy.
    for _ in range(600):
        assert rig.beat() == [HEARTBEAT]
    assert rig.clock.progress.thread.is_alive()


def test_threads_that_keep_finishing_their_work_are_healthy(rig: Rig) -> None:
    # The clock runs call after call, as while a pad is down; the display draws screen after
    # screen. Every beat may find them at work, for far longer than the bound in all, but each
    # piece of work is short.
    calls = threading.Condition()
    count = [0]
    running = rig.hold()

    def chain() -> None:
        with calls:
            count[0] += 1
            calls.notify_all()
        if not running.is_set():
            rig.clock.call_later(0.0, chain)

    def two_more_calls() -> bool:
        # So that a call begun after the last beat has ended.
        with calls:
            seen = count[0]
            return calls.wait_for(lambda: count[0] >= seen + 2, SAFETY_S)

    rig.clock.call_later(0.0, chain)
    for n in range(4 * int(STUCK_S)):
        assert two_more_calls()
        rig.draw(f"screen {n}")
        assert rig.beat() == [HEARTBEAT]
    running.set()


def test_time_the_loop_did_not_look_is_not_held_against_a_thread(rig: Rig) -> None:
    release, entered = rig.hold(), threading.Event()

    def hang() -> None:
        entered.set()
        release.wait(SAFETY_S)

    rig.clock.call_later(0.0, hang)
    assert entered.wait(SAFETY_S)
    assert rig.beat() == [HEARTBEAT]
    # The loop itself was held up longer than the bound: the clock's thread may have been too.
    assert rig.beat(after_s=STUCK_S + 1) == [HEARTBEAT]
    for _ in range(int(STUCK_S) - 1):
        assert rig.beat() == [HEARTBEAT]
    why = f"the clock thread is stuck: {STUCK_S:.1f} s in {hang.__qualname__}"
    assert_heartbeats_stopped(rig, why)


def test_a_clock_thread_that_dies_stops_the_heartbeats(
    rig: Rig, caplog: pytest.LogCaptureFixture
) -> None:
    assert rig.beat() == [HEARTBEAT]

    def die() -> None:
        raise SystemExit("killed by the test")

    rig.clock.call_later(0.0, die)
    thread = rig.clock.progress.thread
    assert thread is not None
    thread.join(SAFETY_S)
    assert not thread.is_alive()
    why = "the clock thread died: SystemExit: killed by the test"
    assert_heartbeats_stopped(rig, why)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in errors] == [
        "the clock thread died",
        f"no more watchdog heartbeats, so that systemd restarts the table: {why}",
    ]
    assert errors[0].exc_info is not None  # the traceback says where it died


def test_a_clock_thread_stuck_in_a_call_stops_the_heartbeats_past_the_bound(rig: Rig) -> None:
    release, entered = rig.hold(), threading.Event()

    def hang() -> None:
        entered.set()
        release.wait(SAFETY_S)

    rig.clock.call_later(0.0, hang)
    assert entered.wait(SAFETY_S)
    assert rig.beat() == [HEARTBEAT]  # first seen in hand now
    assert rig.beat(after_s=STUCK_S - 0.5) == [HEARTBEAT]
    why = f"the clock thread is stuck: {STUCK_S:.1f} s in {hang.__qualname__}"
    assert_heartbeats_stopped(rig, why, after_s=0.5)
    # Free again, it runs later calls; but a table that lost its inputs that long is restarted.
    release.set()
    later = threading.Event()
    rig.clock.call_later(0.0, later.set)
    assert later.wait(SAFETY_S)
    assert rig.beat() == []


def test_a_scan_hanging_on_a_pin_read_stops_the_heartbeats(rig: Rig) -> None:
    # The scanner has no thread of its own: a scan that hangs holds up the clock's thread.
    factory = MockFactory(pin_class=GatedPin)
    GatedPin.gate.set()
    GatedPin.reached.clear()
    rig.releases.append(GatedPin.gate)
    events: list[object] = []
    with SwitchMatrix(rig.clock, events.append, pin_factory=factory):
        assert rig.beat() == [HEARTBEAT]
        GatedPin.gate.clear()
        # A pad closes: the scanner wakes.
        factory.pin(DEFAULT_PIN_MAP.matrix_columns[0]).drive_low()
        assert GatedPin.reached.wait(SAFETY_S)
        assert rig.beat() == [HEARTBEAT]
        why = f"the clock thread is stuck: {STUCK_S:.1f} s in SwitchMatrix._scan"
        assert_heartbeats_stopped(rig, why, after_s=STUCK_S)
        GatedPin.gate.set()


def test_a_display_worker_that_dies_stops_the_heartbeats(rig: Rig) -> None:
    rig.draw("Blue spymaster")
    assert rig.beat() == [HEARTBEAT]
    rig.bus.error = SystemExit("killed by the test")
    rig.display.show(OledScreen(title="Red spymaster"))
    thread = rig.display.progress.thread
    assert thread is not None
    thread.join(SAFETY_S)
    assert not thread.is_alive()
    assert_heartbeats_stopped(rig, "the display thread died: SystemExit: killed by the test")


def test_a_display_worker_stuck_on_the_bus_stops_the_heartbeats(rig: Rig) -> None:
    rig.draw("Blue spymaster")
    rig.bus.open.clear()
    rig.display.show(OledScreen(title="Red spymaster"))
    assert rig.bus.reached.wait(SAFETY_S)
    assert rig.beat() == [HEARTBEAT]
    assert rig.beat(after_s=STUCK_S - 1) == [HEARTBEAT]
    why = f"the display thread is stuck: {STUCK_S:.1f} s in DisplayWorker._draw"
    assert_heartbeats_stopped(rig, why)


def test_a_thread_that_stopped_while_the_table_runs_stops_the_heartbeats(rig: Rig) -> None:
    rig.display.close()
    assert_heartbeats_stopped(rig, "the display thread has stopped")


def test_a_thread_started_on_first_use_is_healthy_before_it_starts() -> None:
    mark = Progress("clock")
    assert mark.thread is None
    assert mark.ended() is None
    assert Liveness([mark]).fault() is None


def test_the_stuck_bound_must_be_positive() -> None:
    with pytest.raises(ValueError, match="stuck_after_s must be more than 0, not 0"):
        Liveness([], stuck_after_s=0)


# The service as `codenames-table run` wires it


def test_serve_feeds_the_watchdog_while_the_table_idles_and_stops_when_the_clock_dies(
    tmp_path: Path,
) -> None:
    stop = threading.Event()
    with (
        path_notify_socket() as receiver,
        SystemdNotifier(receiver.env_value, watchdog_interval=0.04) as notifier,
        SystemClock() as clock,
        VirtualTable(
            TableConfig(), tmp_path, rng=random.Random(1), clock=clock, threaded_display=True
        ) as vt,
    ):
        assert isinstance(vt.display, DisplayWorker)
        liveness = Liveness([clock.progress, vt.display.progress])
        loop = threading.Thread(target=serve, args=(vt.table, stop, notifier, liveness))
        loop.start()
        try:
            assert receiver.receive().startswith(b"READY=1")
            # Nothing happens on the table: the heartbeats go on.
            assert [receiver.receive() for _ in range(5)] == [HEARTBEAT] * 5

            def die() -> None:
                raise SystemExit("killed by the test")

            clock.call_later(0.0, die)
            after: list[bytes] = []
            while not after or after[-1] == HEARTBEAT:
                after.append(receiver.receive())
        finally:
            stop.set()
            loop.join(SAFETY_S)
        assert not loop.is_alive()
        assert set(after[:-1]) <= {HEARTBEAT}
        assert after[-1] == (
            b"STATUS=failing, waiting for the watchdog to restart it: "
            b"the clock thread died: SystemExit: killed by the test"
        )
        # The loop went on until it was stopped, and sent nothing more.
        assert receiver.pending() == []
