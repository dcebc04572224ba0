"""The LEDs' 5 V supply as a switchable source, seen through the sense divider on a mock pin.

The twin of what `firmware.drivers.led_supply` reads: the supply's voltage, divided as the
schematic's 33 kΩ / 47 kΩ divides it (`led_supply.sense_volts`), drives the sense GPIO high above
the Pi's input high threshold and low below its input low one. Between the two the Pi's reading
is undefined; the twin keeps the last level, as a slowly sagging input mostly does.

>>> from typing import Protocol

from gpiozero.pins.mock import MockFactory
>>> factory = MockFactory()
>>> supply = VirtualLedSupply(factory, 18)
>>> factory.pin(18).state, supply.volts
(True, 5.0)
>>> supply.cut(); factory.pin(18).state
False
"""

from __future__ import annotations

from typing import Protocol

from gpiozero.pins.mock import MockFactory

from firmware.drivers.led_supply import sense_volts

NOMINAL_V = 5.0
"""The LED supply's output when it works."""

PIXEL_MIN_V = 3.5
"""The lowest supply a WS2812B works on (WS2812B datasheet, VDD 3.5–5.3 V)."""

INPUT_LOW_V = 0.8
INPUT_HIGH_V = 2.0
"""The Pi's GPIO input thresholds at 3.3 V: a low below 0.8 V, a high above 2.0 V (BCM2835 ARM
Peripherals, the Raspberry Pi GPIO documentation; the same figures `hardware/analog.py` checks
the divider against)."""


class Powered(Protocol):
    """What the supply feeds: the virtual pixels (`firmware.virtual.strip`)."""

    def set_powered(self, on: bool) -> None: ...


class VirtualLedSupply:
    """The supply on `gpio`'s divider; switched on at `volts` (0 for a dead one). `pixels`, once
    set, are the pixels it feeds: they go dark with it."""

    def __init__(self, factory: MockFactory, gpio: int, volts: float = NOMINAL_V) -> None:
        self._pin = factory.pin(gpio)
        self.pixels: Powered | None = None
        self.volts = 0.0
        self.set_volts(volts)

    def set_volts(self, volts: float) -> None:
        """The supply's output is now `volts`: the pin follows where the Pi's reading is sure,
        the pixels run down to their minimum supply (3.5 V, WS2812B datasheet)."""
        was_on = self.volts >= PIXEL_MIN_V
        self.volts = volts
        if self.pixels is not None and (volts >= PIXEL_MIN_V) != was_on:
            self.pixels.set_powered(volts >= PIXEL_MIN_V)
        level = sense_volts(volts)
        if level >= INPUT_HIGH_V:
            self._pin.drive_high()
        elif level <= INPUT_LOW_V:
            self._pin.drive_low()

    @property
    def on(self) -> bool:
        """Whether the supply gives its output."""
        return self.volts > 0

    def cut(self) -> None:
        """The supply dies (switched off, its fuse blown, its lead pulled)."""
        self.set_volts(0.0)

    def restore(self) -> None:
        """The supply is back at its output."""
        self.set_volts(NOMINAL_V)
