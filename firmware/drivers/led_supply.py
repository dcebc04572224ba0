"""The LED supply's sense input: whether the strip's 5 V is there, read on a GPIO.

A divider from the LEDs' 5 V (after the fuse and the protection) to a free GPIO, `led.sense` in
the pin map: 5 V gives 2.9 V on the pin, a high; a dead supply, a blown fuse or a pulled lead
gives 0 V, a low (the 47 kΩ holds it there, so the Pi's own pulls stay off). A change is
reported once it has held for `SETTLE_S`, as a `LedSupplyChanged` event: the table shows the
dark key's reason on the OLED while the game goes on.

>>> from gpiozero.pins.mock import MockFactory
>>> from firmware.drivers.clock import VirtualClock
>>> clock, factory, seen = VirtualClock(), MockFactory(), []
>>> factory.pin(18).drive_high()
>>> sense = LedSupplySense(clock, 18, seen.append, pin_factory=factory)
>>> sense.present
True
>>> factory.pin(18).drive_low(); clock.advance(SETTLE_S)
>>> [str(event) for event in seen], sense.present
(['LED supply off'], False)
>>> sense.close()
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from gpiozero import DigitalInputDevice
from gpiozero.pins import Factory

from firmware.drivers.clock import Clock, Timer
from firmware.drivers.events import LedSupplyChanged

DIVIDER_OHMS = (33_000, 47_000)
"""The sense divider, top (from the LEDs' 5 V) and bottom (to GND): 5.0 V × 47 / 80 = 2.94 V,
above the Pi's 2.0 V input high and below its 3.3 V; the schematic places these values and
`hardware/analog.py` simulates them."""

SETTLE_S = 0.2
"""A change must hold this long to be reported: a supply switched off sags through the Pi's
undefined input band (0.8–2.0 V) for as long as its output capacitors take to drain, and a
wobbling lead must not flash the fault on and off."""


def sense_volts(supply_v: float) -> float:
    """The level on the sense pin for a supply of `supply_v` volts (the divider unloaded: a
    GPIO input draws a leakage of microamps at most)."""
    top, bottom = DIVIDER_OHMS
    return supply_v * bottom / (top + bottom)


class LedSupplySense:
    """Watches the sense pin `gpio`, reporting each lasting change to `report` (from the
    clock's thread); `present` is the level last reported (at first, the level read)."""

    def __init__(
        self,
        clock: Clock,
        gpio: int,
        report: Callable[[LedSupplyChanged], None],
        *,
        pin_factory: Factory | None = None,
    ) -> None:
        self._clock = clock
        self._report = report
        self._lock = threading.Lock()
        self._settle: Timer | None = None
        self._closed = False
        # No pull: the divider sets the level, and a pull-up would hold a dead supply high.
        self._input = DigitalInputDevice(
            gpio, pull_up=None, active_state=True, pin_factory=pin_factory
        )
        self._present = bool(self._input.value)
        self._input.when_activated = self._edge
        self._input.when_deactivated = self._edge

    @property
    def present(self) -> bool:
        """Whether the LED supply is there, as last reported."""
        return self._present

    def _edge(self) -> None:
        # gpiozero's callback thread on the Pi: read again once the level has held still.
        with self._lock:
            if self._closed:
                return
            if self._settle is not None:
                self._settle.cancel()
            self._settle = self._clock.call_later(SETTLE_S, self._settled)

    def _settled(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._settle = None
            present = bool(self._input.value)
            if present == self._present:
                return
            self._present = present
            self._report(LedSupplyChanged(present, self._clock.monotonic()))

    def close(self) -> None:
        """Stop watching and release the pin. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._settle is not None:
                self._settle.cancel()
        self._input.close()
