"""The LED strip: its backends behind one small interface (`LedStrip`).

Backends, chosen by name in the pin map (`led.backend`; its default, `auto`, is resolved to one
of these from the Pi's model before a strip is opened, `firmware.service.pi_model`):
- `ws281x`: rpi_ws281x's `PixelStrip` on GPIO 10, the SPI MOSI pin, channel 0 (Pi 3, 4, Zero 2);
- `spi`: adafruit-circuitpython-neopixel-spi on `board.SPI()`, for the Pi 5, where rpi_ws281x
  does not run;
- `virtual`: not opened here. The twin, `firmware.virtual.strip.VirtualPixelStrip`, goes through
  `open_pixel_strip` like the real `PixelStrip` (`firmware.virtual.strip.open_virtual_strip`), so
  only the last layer differs on the desktop; whoever wires the table hands it in.

The hardware libraries are imported inside their backend only, when it is opened.
`firmware.drivers.key_strip` draws pictures of the key on a strip.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from firmware.drivers.key_picture import BLACK, Colour
from firmware.drivers.led_layout import LedConfigError, LedError
from firmware.drivers.pinout import LED_SPI_DATA, LedBackend

log = logging.getLogger(__name__)

BACKENDS = (LedBackend.WS281X.value, LedBackend.SPI.value)
"""The hardware backends, the names `open_strip` accepts."""

SPI_DEVICE = Path("/dev/spidev0.0")
"""The kernel's SPI0 device, CE0: what both backends write the pixels to."""

DATA_PIN = LED_SPI_DATA
"""GPIO 10 (SPI0 MOSI): rpi_ws281x's SPI mode, which needs neither PWM nor audio off."""

STRIP_FAULTS = (RuntimeError, OSError)
"""What a strip raises when a frame does not go out (rpi_ws281x: RuntimeError; SPI: OSError)."""


class LedFault(StrEnum):
    """Why the LED key is dark, in a word: its strip did not open, or its supply is off. The
    OLED's footer, the fleet's `health` and the self-test name it (the journal has the whole
    error and its fix)."""

    UNSUPPORTED = "unsupported"
    """The backend's library does not know this Pi (rpi_ws281x on a Pi 5, Blinka on a new
    board)."""
    SPI_OFF = "spi-off"
    """No /dev/spidev0.0: SPI is not enabled in config.txt."""
    NO_ACCESS = "no-access"
    """The device is there but this user may not open it."""
    NOT_INSTALLED = "not-installed"
    """The backend's library is not installed (the `pi` extra)."""
    FAILED = "failed"
    """Anything else the library raised."""
    NO_SUPPLY = "no-supply"
    """The strip's 5 V is not there, as its sense input reads it (`firmware.drivers.led_supply`):
    a supply off or dead, its fuse blown, its lead pulled. It clears when the supply returns."""


class LedBackendError(LedError, RuntimeError):
    """A strip backend that cannot be opened: its library is missing or the hardware refused;
    `fault` says which, the message how to fix it."""

    def __init__(self, message: str, fault: LedFault) -> None:
        super().__init__(message)
        self.fault = fault


class LedStrip(Protocol):
    """A chain of RGB pixels, as `KeyStrip` uses it."""

    @property
    def count(self) -> int:
        """Pixels on the chain."""

    def set_pixel(self, index: int, colour: Colour) -> None:
        """Set one pixel in the buffer; nothing goes out before `show()`."""

    def show(self) -> None:
        """Send the buffer to the pixels; raises RuntimeError or OSError when that fails."""

    def close(self) -> None:
        """Turn every pixel off and let the hardware go. Idempotent."""


class PixelStripLike(Protocol):
    """The part of `rpi_ws281x.PixelStrip`'s API that the `ws281x` backend calls."""

    def begin(self) -> None: ...
    def show(self) -> None: ...
    def setPixelColor(self, n: int, color: int) -> None: ...  # noqa: N802
    def numPixels(self) -> int: ...  # noqa: N802


# Covariant, so that a strip over a subclass of `VirtualPixelStrip` is a strip over the class.
S_co = TypeVar("S_co", bound=PixelStripLike, covariant=True)


class Ws281xStrip(Generic[S_co]):
    """An `LedStrip` over anything with `PixelStrip`'s API: the real strip or its virtual twin.

    It calls `begin()` on the strip it is handed; `pixel_strip` gives the strip back, so the
    simulation can read a `VirtualPixelStrip`.
    """

    def __init__(self, pixel_strip: S_co) -> None:
        pixel_strip.begin()
        self._pixel_strip = pixel_strip
        self._count = pixel_strip.numPixels()
        self._closed = False

    @property
    def pixel_strip(self) -> S_co:
        """The strip this one drives."""
        return self._pixel_strip

    @property
    def count(self) -> int:
        return self._count

    def set_pixel(self, index: int, colour: Colour) -> None:
        r, g, b = colour
        # rpi_ws281x.Color's packing; the library itself may not be importable here.
        self._pixel_strip.setPixelColor(index, (r << 16) | (g << 8) | b)

    def show(self) -> None:
        self._pixel_strip.show()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        # PixelStrip has no public close: its memory and DMA go at exit. Dark pixels are what
        # matters, or the last key would stay lit on the table after the firmware stopped.
        _blank(self)

    def __enter__(self) -> Ws281xStrip[S_co]:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class NeoPixelSpiStrip:
    """An `LedStrip` over `neopixel_spi.NeoPixel_SPI` (with `auto_write=False`), and its bus."""

    def __init__(self, pixels: Any, bus: Any = None) -> None:
        self.pixels = pixels
        self._bus = bus
        self._count = len(pixels)
        self._closed = False

    @property
    def count(self) -> int:
        return self._count

    def set_pixel(self, index: int, colour: Colour) -> None:
        if not 0 <= index < self._count:
            raise IndexError(f"pixel {index} is not on a strip of {self._count}")
        self.pixels[index] = colour

    def show(self) -> None:
        self.pixels.show()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        _blank(self)
        if self._bus is not None:
            try:
                self._bus.deinit()
            except STRIP_FAULTS as error:
                log.warning("LED strip: SPI bus did not close: %s", error)

    def __enter__(self) -> NeoPixelSpiStrip:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _blank(strip: LedStrip) -> None:
    try:
        for index in range(strip.count):
            strip.set_pixel(index, BLACK)
        strip.show()
    except STRIP_FAULTS as error:
        log.warning("LED strip: could not turn the pixels off on close: %s", error)


def open_pixel_strip(
    factory: Callable[..., S_co], count: int, brightness: int = 255
) -> Ws281xStrip[S_co]:
    """Build a `PixelStrip`-like strip with `factory` (the class) for GPIO 10, and start it.

    The real and the virtual strip go through this same call, so its arguments are tested on the
    desktop.
    """
    _check_strip_settings(count, brightness)
    return Ws281xStrip(factory(count, DATA_PIN, 800000, 10, False, brightness, 0))


def open_strip(
    backend: str, count: int, brightness: int = 255, *, spi_device: Path = SPI_DEVICE
) -> LedStrip:
    """Open the strip of `count` pixels on `backend` (one of `BACKENDS`).

    `brightness` (0–255) is the driver's own scaling. Leave it at 255 and set `LedStyle.brightness`
    instead: the driver's scaling comes after the colour curve and can round a dim, lit pixel
    (the assassin at the low of its blink) to off. `spi_device` is looked at only to tell a
    disabled SPI from a refused one when rpi_ws281x cannot say which.

    Raises `LedConfigError` for a bad name or value, `LedBackendError` when the backend's library
    is missing or the hardware cannot be started, its message fitting the backend and the error.
    """
    _check_strip_settings(count, brightness)
    if backend == "ws281x":
        return _open_ws281x(count, brightness, spi_device)
    if backend == "spi":
        return _open_spi(count, brightness)
    raise LedConfigError("backend", f"must be one of {', '.join(BACKENDS)}, not {backend!r}")


_WS2811_CODE = re.compile(r"code (-?\d+)")
"""The return code in rpi_ws281x's `ws2811_init failed with code -3 (…)`."""
_WS2811_HW_NOT_SUPPORTED = -3
"""ws2811.h: the board's revision is not in the library's table (every Pi 5, a newer board)."""
_WS2811_SPI_SETUP = -13
"""ws2811.h: /dev/spidev0.0 (or /dev/gpiomem, for GPIO 10's function) did not open or take the
settings."""
_FIX_BACKEND = 'set [pins.led] backend = "auto" or "spi"'
_FIX_SPI_OFF = "enable SPI: dtparam=spi=on in /boot/firmware/config.txt, then reboot"


def _open_ws281x(count: int, brightness: int, spi_device: Path) -> LedStrip:
    try:
        import rpi_ws281x
    except ImportError as error:
        raise LedBackendError(
            _missing("ws281x", "rpi-ws281x", error), LedFault.NOT_INSTALLED
        ) from error
    try:
        return open_pixel_strip(rpi_ws281x.PixelStrip, count, brightness)
    except RuntimeError as error:
        fault, fix = _ws281x_fault(error, spi_device)
        raise LedBackendError(
            f"the ws281x LED backend cannot start on GPIO {DATA_PIN}: {error}; {fix}", fault
        ) from error


def _ws281x_fault(error: RuntimeError, spi_device: Path) -> tuple[LedFault, str]:
    """What rpi_ws281x's `ws2811_init` error means in SPI mode, and its fix."""
    found = _WS2811_CODE.search(str(error))
    code = int(found.group(1)) if found else None
    if code == _WS2811_HW_NOT_SUPPORTED:
        return (
            LedFault.UNSUPPORTED,
            f"rpi-ws281x does not know this board (a Pi 5, or a revision newer than the library):"
            f" {_FIX_BACKEND}",
        )
    if code == _WS2811_SPI_SETUP and not spi_device.exists():
        return LedFault.SPI_OFF, f"there is no {spi_device}: {_FIX_SPI_OFF}"
    if code == _WS2811_SPI_SETUP:
        return (
            LedFault.NO_ACCESS,
            f"may this user open {spi_device} (group spi) and /dev/gpiomem (group gpio)?",
        )
    return (
        LedFault.FAILED,
        'the spi backend may work where this one does not: set [pins.led] backend = "spi"',
    )


def _open_spi(count: int, brightness: int) -> LedStrip:
    try:
        import neopixel_spi
    except ImportError as error:
        raise LedBackendError(
            _missing("spi", "adafruit-circuitpython-neopixel-spi", error), LedFault.NOT_INSTALLED
        ) from error
    try:
        import board
    except ImportError as error:
        raise LedBackendError(
            _missing("spi", "Adafruit-Blinka", error), LedFault.NOT_INSTALLED
        ) from error
    except NotImplementedError as error:
        # Blinka's `board` raises this on a board its PlatformDetect does not know.
        raise LedBackendError(
            f"the spi LED backend cannot tell this board's pins: {error}; a newer"
            " Adafruit-Blinka and Adafruit-PlatformDetect may know it",
            LedFault.UNSUPPORTED,
        ) from error
    try:
        # Adafruit_PureIO opens /dev/spidev0.0 here: FileNotFoundError without SPI enabled,
        # PermissionError for a user outside the spi group.
        bus = board.SPI()
        pixels = neopixel_spi.NeoPixel_SPI(
            bus,
            count,
            pixel_order=neopixel_spi.GRB,
            auto_write=False,
            brightness=brightness / 255,
        )
    except FileNotFoundError as error:
        raise LedBackendError(
            f"the spi LED backend cannot open the SPI bus: {error}; {_FIX_SPI_OFF}",
            LedFault.SPI_OFF,
        ) from error
    except PermissionError as error:
        raise LedBackendError(
            f"the spi LED backend may not open the SPI bus: {error}; add this user to the spi"
            f" group (the service's unit has SupplementaryGroups=spi)",
            LedFault.NO_ACCESS,
        ) from error
    except (RuntimeError, OSError, ValueError) as error:
        raise LedBackendError(
            f"the spi LED backend cannot open the SPI bus: {error}", LedFault.FAILED
        ) from error
    return NeoPixelSpiStrip(pixels, bus)


def _missing(backend: str, package: str, error: BaseException) -> str:
    return (
        f"the {backend} LED backend needs {package}, a Pi-only package ({error}); install the"
        " 'pi' extra (pip install 'codenames-table[pi]') or use the virtual backend"
    )


def _check_strip_settings(count: int, brightness: int) -> None:
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise LedConfigError("count", f"must be a whole number ≥ 1, not {count!r}")
    if (
        isinstance(brightness, bool)
        or not isinstance(brightness, int)
        or not 0 <= brightness <= 255
    ):
        raise LedConfigError(
            "strip_brightness", f"must be a whole number 0–255, not {brightness!r}"
        )


__all__ = [
    "BACKENDS",
    "DATA_PIN",
    "SPI_DEVICE",
    "STRIP_FAULTS",
    "LedBackendError",
    "LedFault",
    "LedStrip",
    "NeoPixelSpiStrip",
    "PixelStripLike",
    "Ws281xStrip",
    "open_pixel_strip",
    "open_strip",
]
