"""The table's OLEDs together: one, or two on the same bus facing both sides of the table.

Every display shows the same picture (the second's chip turns it when it is mounted the other way
round); each is its own `firmware.drivers.oled.Oled`, with its own outage and back-off, so a
display that stops answering never holds up the other. A panel whose module needs its RES line
pulsed gets a `ResetLine` on its GPIO.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from gpiozero import DigitalOutputDevice
from gpiozero.pins import Factory
from PIL import Image

from firmware.drivers.clock import Clock
from firmware.drivers.i2c_bus import I2CBus
from firmware.drivers.oled import Oled, OledConfig

log = logging.getLogger(__name__)


class ResetLine:
    """A module's RES input on a GPIO: held high, pulsed low before each initialisation.

    The low pulse lasts as long as two GPIO writes take from Python, tens of microseconds on a
    Pi: the SSD1306 and SSD1309 need 3 µs, and a write that follows at once is taken.
    """

    def __init__(self, pin: int, pin_factory: Factory | None = None) -> None:
        self._device = DigitalOutputDevice(pin, initial_value=True, pin_factory=pin_factory)

    def pulse(self) -> None:
        """Reset the chip: RES low, then high again."""
        self._device.off()
        self._device.on()

    def close(self) -> None:
        """Release the GPIO. Idempotent."""
        self._device.close()


class OledGroup:
    """The displays as one `show()`/`set_dimmed()`; never raises for the bus (as an `Oled`)."""

    def __init__(self, oleds: Sequence[Oled], resets: Sequence[ResetLine] = ()) -> None:
        if not oleds:
            raise ValueError("an OLED group needs a display")
        self.oleds = tuple(oleds)
        """The displays, the first (the config's address) first."""
        self._resets = tuple(resets)

    def show(self, image: Image.Image) -> None:
        """Show `image` on every display (each sends what changed on its own chip)."""
        for oled in self.oleds:
            oled.show(image)

    def set_dimmed(self, dimmed: bool) -> None:
        for oled in self.oleds:
            oled.set_dimmed(dimmed)

    @property
    def defer(self) -> Callable[[Callable[[], None]], None] | None:
        """Where the displays' timed I2C work runs (`Oled.defer`), the same for all."""
        return self.oleds[0].defer

    @defer.setter
    def defer(self, defer: Callable[[Callable[[], None]], None] | None) -> None:
        for oled in self.oleds:
            oled.defer = defer

    @property
    def is_up(self) -> bool:
        """Whether every display is initialised and answering."""
        return all(oled.is_up for oled in self.oleds)

    def close(self) -> None:
        """Switch every display off and release the reset lines. Idempotent."""
        for oled in self.oleds:
            oled.close()
        for line in self._resets:
            line.close()

    def __enter__(self) -> OledGroup:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _reset_line(panel: OledConfig, pin_factory: Factory | None) -> ResetLine | None:
    assert panel.reset_pin is not None  # only called for a panel with one
    try:
        return ResetLine(panel.reset_pin, pin_factory)
    except Exception as error:
        # Each pin library fails its own way; a display without its reset line may still
        # answer (or be an outage like any other): never a table that fails to start.
        log.error(
            "OLED at 0x%02x: reset line GPIO %d not available, going on without it: %s: %s",
            panel.address,
            panel.reset_pin,
            type(error).__name__,
            error,
        )
        return None


def open_oleds(
    clock: Clock,
    config: OledConfig,
    *,
    i2c: I2CBus | None = None,
    pin_factory: Factory | None = None,
) -> OledGroup:
    """The displays `config` lists (`OledConfig.panels`) on `i2c` (None: each opens the Pi's
    I2C1 when it first initialises), their reset lines on `pin_factory`'s GPIOs."""
    oleds: list[Oled] = []
    resets: list[ResetLine] = []
    try:
        for panel in config.panels:
            line = None if panel.reset_pin is None else _reset_line(panel, pin_factory)
            if line is not None:
                resets.append(line)
            oleds.append(
                Oled(clock, i2c=i2c, config=panel, reset=None if line is None else line.pulse)
            )
    except BaseException:
        for oled in oleds:
            oled.close()
        for line in resets:
            line.close()
        raise
    return OledGroup(oleds, resets)
