"""One SSD1306 (or SSD1309) on an I2C bus, set up and sent only what changed; no threads, no
retries.

Adafruit's `SSD1306_I2C` initialises the chip and sets contrast, orientation and power; frames go
out here instead, because its `show()` always sends the whole 1 KB (about 92 ms at the Pi's
default 100 kHz, 23 ms at 400 kHz). A `Ssd1306Link` remembers what the chip holds and sends
the windows `firmware.drivers.framebuffer_diff` plans. Every bus error comes out as `OSError`; after
one, what the chip holds is unknown and the link is dropped (`firmware.drivers.oled` opens a new
one).

An SSD1309 is set up by the same init and then given what it does otherwise
(`firmware.drivers.ssd1306_protocol.Controller`): its command lock opened first, its charge pump
left alone (it has none), its own precharge and VCOMH levels. Panels that need their RES line
pulsed before they answer are handed a `reset` that does it.
"""

from __future__ import annotations

import errno
from collections.abc import Callable
from typing import Any

from firmware.drivers.framebuffer_diff import plan_windows, window_commands, window_data
from firmware.drivers.i2c_bus import I2CBus
from firmware.drivers.ssd1306_protocol import (
    COMMAND_UNLOCK,
    CONTROL_COMMANDS,
    HEIGHT,
    LONGEST_ARGUMENTS,
    SSD1309_SETUP,
    WIDTH,
    Command,
    Controller,
)

DECODER_FLUSH = bytes((CONTROL_COMMANDS,)) + bytes(LONGEST_ARGUMENTS)
"""Control byte 0x00 (commands follow) and six 0x00 commands or arguments."""

SSD1309_UNLOCK = bytes((CONTROL_COMMANDS, Command.SET_COMMAND_LOCK, COMMAND_UNLOCK))
"""Sent to an SSD1309 before its init: a chip left locked would ignore the init."""


def ssd1309_setup() -> bytes:
    """The write that gives an SSD1309, after the SSD1306's init, its own drive levels."""
    return bytes((CONTROL_COMMANDS, *(byte for pair in SSD1309_SETUP for byte in pair)))


class Ssd1306Link:
    """An initialised SSD1306 at `address` on `bus`, with the RAM and contrast it holds.

    Creating one initialises the chip afresh (a chip that lost power forgets its settings), so
    its RAM is unknown and the first `draw` sends it whole. `reset`, when given, pulses the
    panel's RES line first. Raises `OSError` for the bus.
    """

    def __init__(
        self,
        bus: I2CBus,
        address: int,
        *,
        rotate_180: bool = False,
        controller: Controller = Controller.SSD1306,
        reset: Callable[[], None] | None = None,
    ) -> None:
        import adafruit_ssd1306
        from adafruit_bus_device.i2c_device import I2CDevice

        self._ram: bytes | None = None  # a fresh chip's RAM is garbage: redraw in full
        self._contrast: int | None = None
        # The chip's decoder keeps a command waiting for its arguments across writes, so a lost
        # write (or a restart of ours mid-command) can make it read the init as arguments.
        # Adafruit's init happens to open with two commands it can spare; six zero bytes do not
        # rely on that: they complete the longest command (scroll set-up), 0x00 as a command
        # only sets the page mode start column, and whatever the zeros set, the init sets again.
        if reset is not None:
            reset()
        ssd1309 = controller is Controller.SSD1309
        flush = I2CDevice(bus, address, probe=False)
        with flush:
            flush.write(DECODER_FLUSH)
        if ssd1309:
            with flush:
                flush.write(SSD1309_UNLOCK)
        try:
            # external_vcc for the SSD1309: it asks for the pump off (a byte the SSD1309 does
            # not take as a command) and the precharge of a panel on external VCC.
            driver = adafruit_ssd1306.SSD1306_I2C(
                WIDTH, HEIGHT, bus, addr=address, external_vcc=ssd1309
            )
        except ValueError as error:
            # Adafruit's probe reports a silent bus as ValueError; any other one is a bug.
            if not str(error).startswith("No I2C device"):
                raise
            raise OSError(errno.ENXIO, str(error)) from error
        if ssd1309:
            with flush:
                flush.write(ssd1309_setup())
        if rotate_180:
            # Adafruit's init sets 0xA1/0xC8, which is upright; its rotate(False) sends
            # 0xA0/0xC0, the half turn. The remap applies to data written next: full redraw.
            driver.rotate(False)
        self._driver: Any = driver

    def set_contrast(self, contrast: int) -> None:
        """Set the contrast (0–255), unless the chip has it already."""
        if contrast != self._contrast:
            self._driver.contrast(contrast)
            self._contrast = contrast

    def draw(self, ram: bytes) -> None:
        """Make the chip's RAM `ram` (`firmware.drivers.framebuffer_diff.image_to_ram`'s layout)."""
        if ram == self._ram:
            return
        windows = plan_windows(self._ram, ram)
        self._ram = None  # unknown until every window is through
        device = self._driver.i2c_device
        for window in windows:
            with device:
                device.write(window_commands(window))
            with device:
                device.write(window_data(ram, window))
        self._ram = ram

    def poweroff(self) -> None:
        """Switch the glass off."""
        self._driver.poweroff()
