"""The LED supply's sense input on gpiozero's mock pins: read with no pull, a lasting change
reported once, a flicker not at all; and through the console, on its queue."""

import doctest
import queue

import pytest
from gpiozero.pins.mock import MockFactory

from firmware.drivers import led_supply
from firmware.drivers.clock import VirtualClock
from firmware.drivers.console import Console
from firmware.drivers.events import InputEvent, LedSupplyChanged
from firmware.drivers.led_supply import DIVIDER_OHMS, SETTLE_S, LedSupplySense, sense_volts

GPIO = 18


def test_the_pin_is_read_with_its_pulls_off_and_its_level_at_start() -> None:
    clock, factory = VirtualClock(), MockFactory()
    factory.pin(GPIO).drive_low()
    sense = LedSupplySense(clock, GPIO, lambda event: None, pin_factory=factory)
    try:
        assert factory.pin(GPIO).pull == "floating"
        assert sense.present is False
    finally:
        sense.close()


@pytest.mark.parametrize("start_high", [True, False])
def test_a_lasting_change_is_reported_once_after_the_settle_time(start_high: bool) -> None:
    clock, factory, seen = VirtualClock(), MockFactory(), []
    pin = factory.pin(GPIO)
    pin.drive_high() if start_high else pin.drive_low()
    sense = LedSupplySense(clock, GPIO, seen.append, pin_factory=factory)
    try:
        pin.drive_low() if start_high else pin.drive_high()
        clock.advance(SETTLE_S * 0.9)
        assert seen == [] and sense.present is start_high
        clock.advance(SETTLE_S * 0.2)
        assert seen == [LedSupplyChanged(not start_high, at=clock.monotonic() - SETTLE_S * 0.1)]
        assert sense.present is (not start_high)
        clock.advance(10 * SETTLE_S)
        assert len(seen) == 1
    finally:
        sense.close()


def test_a_flicker_shorter_than_the_settle_time_is_not_reported() -> None:
    clock, factory, seen = VirtualClock(), MockFactory(), []
    pin = factory.pin(GPIO)
    pin.drive_high()
    sense = LedSupplySense(clock, GPIO, seen.append, pin_factory=factory)
    try:
        for _ in range(5):  # a wobbling lead
            pin.drive_low()
            clock.advance(SETTLE_S / 4)
            pin.drive_high()
            clock.advance(SETTLE_S / 4)
        clock.advance(2 * SETTLE_S)
        assert seen == [] and sense.present
    finally:
        sense.close()


def test_the_divider_reads_high_from_the_pixels_minimum_and_stays_within_3v3() -> None:
    # The Pi's input high is 2.0 V (BCM2835 ARM Peripherals); a WS2812B works from 3.5 V.
    assert sense_volts(3.5) >= 2.0
    assert sense_volts(5.0) == pytest.approx(5.0 * 47 / 80)
    assert sense_volts(5.5) <= 3.3
    assert DIVIDER_OHMS == (33_000, 47_000)


def test_the_console_puts_the_supply_s_changes_on_its_queue_and_releases_the_pin() -> None:
    clock, factory = VirtualClock(), MockFactory()
    factory.pin(GPIO).drive_high()
    events: queue.Queue[InputEvent] = queue.Queue()
    console = Console(clock, pin_factory=factory, events=events, led_sense=GPIO)
    assert console.led_supply is True
    factory.pin(GPIO).drive_low()
    clock.advance(SETTLE_S)
    assert events.get_nowait() == LedSupplyChanged(False, clock.monotonic())
    assert console.led_supply is False
    console.close()
    factory.pin(GPIO).drive_high()
    clock.advance(SETTLE_S)
    assert events.empty()  # closed: nothing more
    # The pin is free again.
    LedSupplySense(clock, GPIO, lambda event: None, pin_factory=factory).close()


def test_a_console_without_the_sense_does_not_watch_the_supply() -> None:
    console = Console(VirtualClock(), pin_factory=MockFactory())
    try:
        assert console.led_supply is None
    finally:
        console.close()


def test_docstring_examples_hold() -> None:
    assert doctest.testmod(led_supply).failed == 0
