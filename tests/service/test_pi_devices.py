"""A console whose GPIO fails to open is replaced by its virtual twin, a buzzer that fails to
open is left out, and the game goes on.

The failures are gpiozero's own, on its mock pins: a pin another device holds, a buzzer on pins
that cannot do PWM.
"""

from __future__ import annotations

import logging
import queue
from dataclasses import replace

import pytest
from gpiozero import DigitalInputDevice
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory, MockPWMPin

from firmware.drivers.clock import VirtualClock
from firmware.drivers.console import Console
from firmware.service.pi_devices import open_pi_buzzer, open_pi_console
from firmware.table.config import TableConfig

CONFIG = TableConfig()


def console_pins(config: TableConfig) -> list[int]:
    pins = config.pins
    wired = [*pins.matrix_rows, *pins.matrix_columns, pins.encoder_a, pins.encoder_b]
    return [*wired, pins.encoder_push]


def assert_all_free(factory: MockFactory, pins: list[int]) -> None:
    """No device of ours holds any of `pins` on `factory`."""
    for pin in pins:
        DigitalInputDevice(pin, pin_factory=factory).close()


def test_a_console_that_opens_is_on_the_pins_it_was_given() -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    with (
        open_pi_console(CONFIG, VirtualClock(), queue.Queue(), factory),
        pytest.raises(GPIOPinInUse),
    ):
        DigitalInputDevice(CONFIG.pins.encoder_push, pin_factory=factory)


def test_a_console_pin_held_by_another_device_gives_a_virtual_console_and_a_log_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    held = CONFIG.pins.matrix_columns[2]
    other = DigitalInputDevice(held, pin_factory=factory)
    events: queue.Queue[object] = queue.Queue()
    with caplog.at_level(logging.ERROR, logger="firmware.service.pi_devices"):
        console = open_pi_console(CONFIG, VirtualClock(), events, factory)
    with console:
        assert isinstance(console, Console)
        # The twin is on pins of its own: every console pin on the Pi's side is free again.
        assert_all_free(factory, [pin for pin in console_pins(CONFIG) if pin != held])
    other.close()
    [record] = caplog.records
    assert record.getMessage().startswith(
        "console not available, going on with a virtual one that nothing can press: GPIOPinInUse:"
    )
    assert events.empty()


def test_a_buzzer_on_pins_without_pwm_is_left_out_with_a_log_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    factory = MockFactory()  # plain mock pins: no PWM for the buzzer
    config = replace(CONFIG, pins=replace(CONFIG.pins, buzzer=12))  # wherever the default is
    with caplog.at_level(logging.ERROR, logger="firmware.service.pi_devices"):
        assert open_pi_buzzer(config, VirtualClock(), factory) is None
    assert "buzzer not available, going on without it: PinPWMUnsupported" in caplog.text
    assert_all_free(factory, [12])


def test_a_buzzer_that_opens_is_on_its_pin() -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    buzzer = open_pi_buzzer(CONFIG, VirtualClock(), factory)
    assert buzzer is not None and CONFIG.pins.buzzer is not None
    with buzzer, pytest.raises(GPIOPinInUse):
        DigitalInputDevice(CONFIG.pins.buzzer, pin_factory=factory)


def test_a_capacitive_console_whose_bus_cannot_open_gives_a_virtual_one_with_its_chips(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Off a Pi, Blinka cannot open I2C1: the chips' bus fails as a missing one would.
    config = replace(CONFIG, inputs=replace(CONFIG.inputs, backend="mpr121"))
    factory = MockFactory(pin_class=MockPWMPin)
    events: queue.Queue[object] = queue.Queue()
    with caplog.at_level(logging.ERROR):
        console = open_pi_console(config, VirtualClock(), events, factory)
    with console:
        assert isinstance(console, Console)
        # The twin is on pins of its own: the IRQ pins on the Pi's side are free again.
        assert_all_free(factory, list(config.inputs.mpr121.irq_pins))
    # One line: the console's; the twin's chips answer on their own bus, none is a fault.
    [record] = caplog.records
    assert record.getMessage().startswith("console not available")
    assert events.empty()
