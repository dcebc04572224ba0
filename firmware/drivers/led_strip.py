"""The LED strip: its backends behind one small interface (`LedStrip`).

Backends, chosen by name in the pin map (`led.backend`):
- `ws281x` (default): rpi_ws281x's `PixelStrip` on GPIO 10, the SPI MOSI pin, channel 0;
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
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from firmware.drivers.key_picture import BLACK, Colour
from firmware.drivers.led_layout import LedConfigError, LedError
from firmware.drivers.pinout import LED_SPI_DATA, LedBackend

log = logging.getLogger(__name__)

BACKENDS = (LedBackend.WS281X.value, LedBackend.SPI.value)
"""The hardware backends, the names `open_strip` accepts; the first is the default."""

DATA_PIN = LED_SPI_DATA
"""GPIO 10 (SPI0 MOSI): rpi_ws281x's SPI mode, which needs neither PWM nor audio off."""

STRIP_FAULTS = (RuntimeError, OSError)
"""What a strip raises when a frame does not go out (rpi_ws281x: RuntimeError; SPI: OSError)."""


class LedBackendError(LedError, RuntimeError):
    """A strip backend that cannot be opened: its library is missing or the hardware refused."""


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


def open_strip(backend: str, count: int, brightness: int = 255) -> LedStrip:
    """Open the strip of `count` pixels on `backend` (one of `BACKENDS`).

    `brightness` (0–255) is the driver's own scaling. Leave it at 255 and set `LedStyle.brightness`
    instead: the driver's scaling comes after the colour curve and can round a dim, lit pixel
    (the assassin at the low of its blink) to off.

    Raises `LedConfigError` for a bad name or value, `LedBackendError` when the backend's library
    is missing or the hardware cannot be started.
    """
    _check_strip_settings(count, brightness)
    if backend == "ws281x":
        return _open_ws281x(count, brightness)
    if backend == "spi":
        return _open_spi(count, brightness)
    raise LedConfigError("backend", f"must be one of {', '.join(BACKENDS)}, not {backend!r}")


def _open_ws281x(count: int, brightness: int) -> LedStrip:
    try:
        import rpi_ws281x
    except ImportError as error:
        raise LedBackendError(_missing("ws281x", "rpi-ws281x", error)) from error
    try:
        return open_pixel_strip(rpi_ws281x.PixelStrip, count, brightness)
    except RuntimeError as error:  # ws2811_init failed: SPI off, or no access to /dev/spidev0.0
        raise LedBackendError(
            f"the ws281x LED backend cannot start on GPIO {DATA_PIN}: {error}; is SPI enabled"
            " (dtparam=spi=on) and may this user open /dev/spidev0.0?"
        ) from error


def _open_spi(count: int, brightness: int) -> LedStrip:
    try:
        import board
        import neopixel_spi
    except (ImportError, NotImplementedError) as error:
        # Blinka's `board` raises NotImplementedError on a machine it does not know.
        raise LedBackendError(
            _missing("spi", "adafruit-circuitpython-neopixel-spi", error)
        ) from error
    try:
        bus = board.SPI()
        pixels = neopixel_spi.NeoPixel_SPI(
            bus,
            count,
            pixel_order=neopixel_spi.GRB,
            auto_write=False,
            brightness=brightness / 255,
        )
    except (RuntimeError, OSError, ValueError) as error:
        raise LedBackendError(
            f"the spi LED backend cannot open the SPI bus: {error}; is SPI enabled"
            " (dtparam=spi=on)?"
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
    "STRIP_FAULTS",
    "LedBackendError",
    "LedStrip",
    "NeoPixelSpiStrip",
    "PixelStripLike",
    "Ws281xStrip",
    "open_pixel_strip",
    "open_strip",
]
