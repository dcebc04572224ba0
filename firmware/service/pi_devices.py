"""The table's devices opened from the config: the buzzer, the console (on the Pi or on mock
pins), and the Pi's own OLED and LED key.

`codenames-table run` and `codenames-table selftest` share this. A device that fails to open is
reported and replaced by its virtual twin, so that the table can still be played (or tested)
without it: a hardware fault never keeps the table down. An LED strip that fails to open is also
kept as a fault (`PiDevices.led_fault`) for the OLED, systemd's status, the fleet and the
self-test to name.
"""

from __future__ import annotations

import logging
import queue
from dataclasses import dataclass
from typing import Any

from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory, MockPWMPin

from firmware.drivers.buzzer import Buzzer
from firmware.drivers.clock import Clock
from firmware.drivers.console import Console
from firmware.drivers.led_strip import LedBackendError, LedFault, LedStrip, open_strip
from firmware.drivers.oled_group import OledGroup, open_oleds
from firmware.drivers.pinout import LedBackend
from firmware.table.config import TableConfig
from firmware.table.devices import led_key, open_buzzer, open_console
from firmware.table.led_key import LedKey
from firmware.virtual.i2c import VirtualI2C
from firmware.virtual.led_supply import VirtualLedSupply
from firmware.virtual.mpr121 import VirtualTouchPanel
from firmware.virtual.strip import open_virtual_strip

log = logging.getLogger(__name__)


@dataclass
class PiDevices:
    """The devices of one table; `close` them (or use `with`)."""

    console: Console
    buzzer: Buzzer | None
    """The buzzer; None when the table has none, or when it failed to open (the game goes on
    silent)."""
    oled: OledGroup
    """The OLED, or both when the config has a second."""
    lights: LedKey
    led_backend: LedBackend
    """The backend that drives the key, or that failed to."""
    led_error: LedBackendError | None = None
    """Why the key's strip did not open, and the fix (the key is then on a virtual strip); None
    when it did."""

    @property
    def led_fault(self) -> LedFault | None:
        """Why the key's strip did not open, in a word; None when it did."""
        return None if self.led_error is None else self.led_error.fault

    @property
    def led_status(self) -> str | None:
        """A short line for systemd's status when the key is off; None when it is on."""
        if self.led_error is None:
            return None
        return (
            f"LED key off ({self.led_backend.value} backend: {self.led_error.fault.value});"
            " the journal says why"
        )

    def close(self) -> None:
        """Close every device; idempotent."""
        self.console.close()
        if self.buzzer is not None:
            self.buzzer.close()
        self.oled.close()
        self.lights.close()

    def __enter__(self) -> PiDevices:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def open_key_strip(
    backend: LedBackend, count: int, *, auto: bool = False
) -> tuple[LedStrip, LedBackend, LedBackendError | None]:
    """The key's strip of `count` pixels on `backend` (as `choose_led_backend` gave it), the
    backend it is on, and the error that left it virtual (None when it opened).

    With `auto`, a board that rpi_ws281x does not know (a Pi 3 or 4 revision newer than the
    library) gets the `spi` backend instead, which needs no table of boards.
    """
    if backend is LedBackend.VIRTUAL:
        return open_virtual_strip(count), backend, None
    try:
        return open_strip(backend.value, count), backend, None
    except LedBackendError as error:
        if not (auto and backend is LedBackend.WS281X and error.fault is LedFault.UNSUPPORTED):
            log.error("LED key off, the game goes on without it: %s", error)
            return open_virtual_strip(count), backend, error
        log.warning(
            "LED key: rpi-ws281x does not know this board (%s); trying the spi backend",
            error.__cause__,
        )
    return open_key_strip(LedBackend.SPI, count)


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
        twin = MockFactory(pin_class=MockPWMPin)
        # The supply's sense cannot be read without the GPIO either: the twin's supply is on,
        # so that the console's fault is the one named.
        if config.pins.led_sense is not None:
            VirtualLedSupply(twin, config.pins.led_sense)
        # Touch chips that nothing touches, on a bus of their own, for a capacitive table.
        bus = VirtualI2C()
        if config.inputs.backend == "mpr121":
            touch = config.inputs.mpr121
            VirtualTouchPanel(clock, bus, twin, touch.irq_pins, touch.addresses)
        return open_console(config, clock, events, pin_factory=twin, i2c=bus)


def open_pi_buzzer(
    config: TableConfig, clock: Clock, pin_factory: Factory | None = None
) -> Buzzer | None:
    """The buzzer on the Pi's GPIO (or on `pin_factory`), or None when the table has none or it
    fails to open: a silent table still plays (the sand timer shows on the OLED)."""
    try:
        return open_buzzer(config, clock, pin_factory)
    except Exception as error:
        log.error("buzzer not available, going on without it: %s: %s", type(error).__name__, error)
        return None


def open_pi_devices(
    config: TableConfig, clock: Clock, events: queue.Queue[Any], led_backend: LedBackend
) -> PiDevices:
    """Open the buzzer, the console (input events go to `events`), the OLED and the LED key on
    `led_backend` (`choose_led_backend`'s choice for this Pi)."""
    # The buzzer first: a pin left high by a run that was killed mid-tone is driven low even
    # when a later device fails to open.
    buzzer = open_pi_buzzer(config, clock)
    try:
        console = open_pi_console(config, clock, events)
    except BaseException:
        if buzzer is not None:
            buzzer.close()
        raise
    try:
        oled = open_oleds(clock, config.oled)
        strip, backend, error = open_key_strip(
            led_backend,
            config.led_layout.pixel_count,
            auto=config.pins.led_backend is LedBackend.AUTO,
        )
        lights = led_key(config, strip)
    except BaseException:
        console.close()
        if buzzer is not None:
            buzzer.close()
        raise
    return PiDevices(
        console=console,
        buzzer=buzzer,
        oled=oled,
        lights=lights,
        led_backend=backend,
        led_error=error,
    )
