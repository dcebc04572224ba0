"""Feedback: saved before the LED key, the LED key before the OLED, and a slow OLED holds up
nothing; hardware events get their message."""

import sqlite3
import threading
from pathlib import Path

from board_rules.codenames import Coord
from firmware.drivers.clock import VirtualClock
from firmware.drivers.oled import Oled, OledConfig
from firmware.table.config import TableConfig
from firmware.table.display_worker import DisplayWorker
from firmware.table.screens import OledScreen
from firmware.table.store import DATABASE_NAME
from firmware.virtual.i2c import VirtualI2C
from firmware.virtual.ssd1306 import VirtualSSD1306

from ..conftest import TableFactory


def saved_actions(state_dir: Path) -> int:
    with sqlite3.connect(state_dir / DATABASE_NAME) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0])


def test_each_action_is_saved_before_the_led_key_which_comes_before_the_oled(
    tmp_path: Path,
    virtual_table: TableFactory,
) -> None:
    with virtual_table(config=TableConfig(), seed=1) as vt:
        vt.turn(1)
        vt.push()
        seen: list[tuple[str, int, int]] = []
        real_show = vt.pixel_strip.show

        def show() -> None:
            seen.append(("led", saved_actions(tmp_path), vt.bus.bytes_written))
            real_show()

        vt.pixel_strip.show = show  # type: ignore[method-assign]
        oled_bytes = vt.bus.bytes_written
        vt.press_pad(Coord.parse("A1"))
        first_led = seen[0]
        assert first_led[1] == 2  # the clue and the touch were saved before the key lit
        assert first_led[2] == oled_bytes  # and the OLED had not been written yet
        assert vt.bus.bytes_written > oled_bytes


def test_a_slow_oled_never_holds_up_the_caller_and_ends_on_the_latest_screen() -> None:
    gate = threading.Event()
    bus = VirtualI2C(pace=lambda seconds: gate.wait(10.0))
    chip = VirtualSSD1306()
    bus.attach(0x3C, chip)
    gate.set()  # let the initialisation through
    oled = Oled(VirtualClock(), i2c=bus)
    gate.clear()  # from now on every transfer hangs until released
    worker = DisplayWorker(oled)
    try:
        screens = [OledScreen(title=f"screen {n}") for n in range(20)]
        for screen in screens:
            worker.show(screen)  # returns at once although the bus is stuck
        assert worker.screen == screens[-1]
        gate.set()
        assert worker.wait_idle(10.0)
    finally:
        gate.set()
        worker.close()
        oled.close()
    from firmware.table.oled_render import render_screen

    assert chip.to_image().tobytes() == render_screen(screens[-1]).tobytes()


def test_two_pads_at_once_are_refused_with_a_message(virtual_table: TableFactory) -> None:
    with virtual_table(config=TableConfig(), seed=1) as vt:
        vt.turn(1)
        vt.push()
        vt.circuit.press_pad(Coord.parse("A1"))
        vt.circuit.press_pad(Coord.parse("B1"))
        vt.wait(0.2)
        vt.circuit.release_pad(Coord.parse("A1"))
        vt.circuit.release_pad(Coord.parse("B1"))
        vt.wait(0.1)
        assert vt.table.state.covered == frozenset()
        screen = vt.display.screen
        assert screen is not None
        assert screen.lines[:2] == ("Two cards at once", "Press one card only")


def test_a_stuck_pad_is_named_and_the_others_still_work(virtual_table: TableFactory) -> None:
    with virtual_table(config=TableConfig(), seed=1) as vt:
        vt.turn(1)
        vt.push()
        vt.circuit.press_pad(Coord.parse("C2"))
        vt.wait(10.5)
        screen = vt.display.screen
        assert screen is not None and screen.lines[0] == "Card C2 is stuck"
        assert vt.table.state.guesses_made == 1  # the press itself counted, once
        vt.press_pad(Coord.parse("A1"))
        assert vt.table.state.to_dict()["covered"] == {"A1": "red", "C2": "red"}


def test_the_oleds_timed_redraws_run_on_the_display_worker_not_the_clock() -> None:
    writers: set[str] = set()
    bus = VirtualI2C(pace=lambda seconds: writers.add(threading.current_thread().name))
    bus.attach(0x3C, VirtualSSD1306())
    clock = VirtualClock()
    oled = Oled(clock, i2c=bus, config=OledConfig(shift_every_s=60.0))
    worker = DisplayWorker(oled)
    oled.defer = worker.run_soon
    try:
        worker.show(OledScreen(title="still"))
        assert worker.wait_idle(10.0)
        writers.clear()
        clock.advance(61.0)  # the burn-in shift falls due on this (the clock's) thread
        assert worker.wait_idle(10.0)
        assert oled.shift != (0, 0)
        assert writers == {"display"}
    finally:
        worker.close()
        oled.close()


def test_the_display_worker_alone_talks_to_the_oled_dimming_included() -> None:
    writers: set[str] = set()
    bus = VirtualI2C(pace=lambda seconds: writers.add(threading.current_thread().name))
    chip = VirtualSSD1306()
    bus.attach(0x3C, chip)
    oled = Oled(VirtualClock(), i2c=bus, config=OledConfig(shift_every_s=0))
    worker = DisplayWorker(oled)
    try:
        worker.show(OledScreen(title="sleepy"))
        assert worker.wait_idle(10.0)
        bright = chip.contrast
        writers.clear()
        worker.set_dimmed(True)  # from the game thread, which must never wait for the bus
        assert worker.wait_idle(10.0)
        assert chip.contrast < bright
        assert writers == {"display"}
    finally:
        worker.close()
        oled.close()


class _BuggyBus(VirtualI2C):
    """A bus that fails once with an error that is no bus fault: a bug somewhere below."""

    armed = False

    def writeto(
        self,
        address: int,
        buffer: bytes | bytearray | memoryview,
        *,
        start: int = 0,
        end: int | None = None,
    ) -> None:
        if self.armed:
            self.armed = False
            raise RuntimeError("a bug below the OLED driver")
        super().writeto(address, buffer, start=start, end=end)


def test_the_display_worker_survives_a_failed_drawing_and_draws_the_next_screen() -> None:
    from firmware.table.oled_render import render_screen

    bus = _BuggyBus()
    chip = VirtualSSD1306()
    bus.attach(0x3C, chip)
    oled = Oled(VirtualClock(), i2c=bus, config=OledConfig(shift_every_s=0))
    worker = DisplayWorker(oled)
    try:
        bus.armed = True
        worker.show(OledScreen(title="lost"))
        assert worker.wait_idle(10.0)
        worker.show(OledScreen(title="drawn"))
        assert worker.wait_idle(10.0)
    finally:
        worker.close()
        oled.close()
    assert chip.to_image().tobytes() == render_screen(OledScreen(title="drawn")).tobytes()


def test_a_screen_shown_again_does_not_wake_the_display_worker() -> None:
    """Most events leave the screen as it was: handing it over again must not wake the worker
    (on the Pi a wake-up costs more than the comparison)."""
    bus = VirtualI2C()
    bus.attach(0x3C, VirtualSSD1306())
    oled = Oled(VirtualClock(), i2c=bus, config=OledConfig(shift_every_s=0))
    worker = DisplayWorker(oled)
    try:
        worker.show(OledScreen(title="still"))
        assert worker.wait_idle(10.0)
        wake = worker._wake  # the condition the worker sleeps on
        notified = 0
        real_notify = wake.notify

        def notify(n: int = 1) -> None:
            nonlocal notified
            notified += 1
            real_notify(n)

        wake.notify = notify  # type: ignore[method-assign]
        for _ in range(5):
            worker.show(OledScreen(title="still"))  # equal, not the same object
        assert notified == 0
        worker.show(OledScreen(title="moved on"))
        assert notified == 1
        assert worker.wait_idle(10.0)
        assert worker.screen == OledScreen(title="moved on")
    finally:
        worker.close()
        oled.close()
