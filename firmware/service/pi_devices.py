"""The table's devices opened from the config: the console (on the Pi or on mock pins), and
the Pi's own OLED and LED key.

`codenames-table run` and `codenames-table selftest` share this. A device that fails to open is
reported and replaced by its virtual twin, so that the table can still be played (or tested)
without it: a hardware fault never keeps the table down.
"""

from __future__ import annotations

import logging
import queue
from dataclasses import dataclass
from typing import Any

from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory, MockPWMPin

from firmware.drivers.clock import Clock
from firmware.drivers.console import Console
from firmware.drivers.led_strip import LedBackendError, LedStrip, open_strip
from firmware.drivers.oled_group import OledGroup, open_oleds
from firmware.drivers.pinout import LedBackend
from firmware.table.config import TableConfig
from firmware.table.devices import led_key, open_console
from firmware.table.led_key import LedKey
from firmware.virtual.i2c import VirtualI2C
from firmware.virtual.mpr121 import VirtualTouchPanel
from firmware.virtual.strip import open_virtual_strip

log = logging.getLogger(__name__)


@dataclass
class PiDevices:
    """The devices of one table; `close` them (or use `with`)."""

    console: Console
    oled: OledGroup
    """The OLED, or both when the config has a second."""
    lights: LedKey

    def close(self) -> None:
        """Close every device; idempotent."""
        self.console.close()
        self.oled.close()
        self.lights.close()

    def __enter__(self) -> PiDevices:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _open_strip(config: TableConfig) -> LedStrip:
    count = config.led_layout.pixel_count
    backend = config.pins.led_backend
    if backend is LedBackend.VIRTUAL:
        return open_virtual_strip(count)
    try:
        return open_strip(backend.value, count)
    except LedBackendError as error:
        log.error("LED key not available, going on without it: %s", error)
        return open_virtual_strip(count)


def open_pi_console(
    config: TableConfig, clock: Clock, events: queue.Queue[Any], pin_factory: Factory | None = None
) -> Console:
    """The console on the Pi's GPIO (or on `pin_factory`), or its virtual twin on mock pins
    when that fails to open: the game on the table goes on, shown on the OLED and the LED key,
    though no switch can be pressed until the fault is fixed and the table restarted."""
    try:
        return open_console(config, clock, events, pin_factory)
    except Exception as error:
        # Each pin library fails its own way (gpiozero's errors, lgpio's, an OSError of the
        # GPIO chip): whatever it is, the console is the device that failed to open.
        log.error(
            "console not available, going on with a virtual one that nothing can press: %s: %s",
            type(error).__name__,
            error,
        )
        # PWM-capable mock pins, so that a configured buzzer opens on them too.
        twin = MockFactory(pin_class=MockPWMPin)
        # Touch chips that nothing touches, on a bus of their own, for a capacitive table.
        bus = VirtualI2C()
        if config.inputs.backend == "mpr121":
            touch = config.inputs.mpr121
            VirtualTouchPanel(clock, bus, twin, touch.irq_pins, touch.addresses)
        return open_console(config, clock, events, pin_factory=twin, i2c=bus)


def open_pi_devices(config: TableConfig, clock: Clock, events: queue.Queue[Any]) -> PiDevices:
    """Open the console (input events go to `events`), the OLED and the LED key."""
    console = open_pi_console(config, clock, events)
    try:
        oled = open_oleds(clock, config.oled)
        lights = led_key(config, _open_strip(config))
    except BaseException:
        console.close()
        raise
    return PiDevices(console=console, oled=oled, lights=lights)
