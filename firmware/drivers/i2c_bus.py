"""The Pi's I2C1 bus (GPIO 2 and 3), which the OLEDs and the touch chips share, and what the
drivers need of a bus: `busio.I2C` on the Pi, `firmware.virtual.i2c.VirtualI2C` elsewhere."""

from __future__ import annotations

from typing import Protocol


class I2CBus(Protocol):
    """What `adafruit_bus_device` needs from a bus: `busio.I2C` or a `VirtualI2C`."""

    def try_lock(self) -> bool: ...

    def unlock(self) -> None: ...

    def writeto(
        self,
        address: int,
        buffer: bytes | bytearray | memoryview,
        *,
        start: int = 0,
        end: int | None = None,
    ) -> None: ...

    def readfrom_into(
        self,
        address: int,
        buffer: bytearray | memoryview,
        *,
        start: int = 0,
        end: int | None = None,
    ) -> None: ...


def open_board_i2c() -> I2CBus:
    """Open the Pi's I2C1 (its speed is set in the Pi's config.txt, 400 kHz wanted)."""
    # Imported here: Blinka's board detection fails off the Pi, where a bus is always injected.
    import board
    import busio

    bus: I2CBus = busio.I2C(board.SCL, board.SDA)
    return bus
