"""A pixel strip with `rpi_ws281x.PixelStrip`'s API, for tests and the desktop simulation.

The LED backend drives it with the same calls as the real strip (`open_virtual_strip` opens it
through `firmware.drivers.led_strip.open_pixel_strip`, as the `ws281x` backend opens the real
one), so everything above the wire runs unchanged. It records what was shown and how
often, and can be told to fail, as a strip does when the SPI transfer or DMA goes wrong.

It is stricter than the real strip where the real one would corrupt memory: a pixel outside the
strip, or any pixel access before `begin()`, raises instead.

>>> strip = VirtualPixelStrip(3, 10)
>>> strip.begin()
>>> strip.setPixelColor(1, Color(255, 128, 0))
>>> strip.show()
>>> strip.shows, strip.shown_rgb()[1]
(1, RGB(r=255, g=128, b=0))
"""

from __future__ import annotations

from typing import NamedTuple

from firmware.drivers.led_strip import Ws281xStrip, open_pixel_strip


def Color(red: int, green: int, blue: int, white: int = 0) -> int:  # noqa: N802  # rpi_ws281x's name
    """Pack a colour as `rpi_ws281x.Color` does: 0xWWRRGGBB."""
    return (white << 24) | (red << 16) | (green << 8) | blue


class RGB(NamedTuple):
    """A colour unpacked, with the `r`, `g`, `b` attributes of `getPixelColorRGB`'s answer."""

    r: int
    g: int
    b: int


def unpack(color: int) -> RGB:
    """The red, green and blue of a packed colour (white ignored)."""
    return RGB((color >> 16) & 0xFF, (color >> 8) & 0xFF, color & 0xFF)


class VirtualPixelStrip:
    """A WS281x strip of `num` pixels that keeps its frames in memory.

    The constructor takes `rpi_ws281x.PixelStrip`'s arguments and keeps them for inspection.
    """

    def __init__(  # noqa: PLR0917  # PixelStrip's own positional signature
        self,
        num: int,
        pin: int,
        freq_hz: int = 800000,
        dma: int = 10,
        invert: bool = False,
        brightness: int = 255,
        channel: int = 0,
        strip_type: int | None = None,
        gamma: list[int] | None = None,
    ) -> None:
        if num < 0:
            raise ValueError(f"a strip has 0 or more pixels, not {num}")
        _check_byte("brightness", brightness)
        self.pin = pin
        self.freq_hz = freq_hz
        self.dma = dma
        self.invert = invert
        self.channel = channel
        self.strip_type = strip_type
        self.gamma = gamma
        self._buffer = [0] * num
        self._brightness = brightness
        self.begun = False
        self.shows = 0
        """How many frames went out."""
        self.pixel_writes = 0
        """How many times a pixel was set in the buffer."""
        self.shown: tuple[int, ...] = (0,) * num
        """The packed colours of the last frame that went out (all 0 before the first)."""
        self.shown_brightness = brightness
        """The brightness the last frame went out at."""
        self._faults: list[BaseException] = []
        self.powered = True
        """Whether the pixels have their 5 V (`firmware.virtual.led_supply` switches it)."""

    # --- rpi_ws281x.PixelStrip's API -------------------------------------------------------

    def begin(self) -> None:
        """Start the strip; the real one claims the SPI or PWM hardware here."""
        self.begun = True

    def show(self) -> None:
        """Send the buffer to the pixels, or raise the next injected fault."""
        self._require_begun()
        if self._faults:
            raise self._faults.pop(0)
        # Unpowered pixels take no data: the frame goes out on the wire and nothing lights.
        self.shown = tuple(self._buffer) if self.powered else (0,) * len(self._buffer)
        self.shown_brightness = self._brightness
        self.shows += 1

    def setPixelColor(self, n: int, color: int) -> None:  # noqa: N802
        """Set pixel `n` in the buffer to a packed colour; shown at the next `show()`."""
        self._require_begun()
        self._check_pixel(n)
        if not 0 <= color <= 0xFFFFFFFF:
            raise ValueError(f"a packed colour is 0–0xFFFFFFFF, not {color:#x}")
        self._buffer[n] = color
        self.pixel_writes += 1

    def setPixelColorRGB(self, n: int, red: int, green: int, blue: int, white: int = 0) -> None:  # noqa: N802
        """Set pixel `n` from its channels."""
        self.setPixelColor(n, Color(red, green, blue, white))

    def setGamma(self, gamma: list[int] | None) -> None:  # noqa: N802
        """Keep the driver's gamma table (the virtual strip shows values as sent)."""
        self.gamma = gamma

    def __len__(self) -> int:
        return len(self._buffer)

    def __getitem__(self, pos: int) -> int:
        return self.getPixelColor(pos)

    def __setitem__(self, pos: int, value: int) -> None:
        self.setPixelColor(pos, value)

    def getBrightness(self) -> int:  # noqa: N802
        """The brightness the next frame goes out at, 0–255."""
        return self._brightness

    def setBrightness(self, brightness: int) -> None:  # noqa: N802
        """Scale every pixel at the next `show()`, as the driver does: 0 dark, 255 as set."""
        _check_byte("brightness", brightness)
        self._brightness = brightness

    def getPixels(self) -> list[int]:  # noqa: N802
        """The buffer itself, as the real strip hands out its live pixel data."""
        self._require_begun()
        return self._buffer

    def numPixels(self) -> int:  # noqa: N802
        """The number of pixels on the strip."""
        return len(self._buffer)

    def getPixelColor(self, n: int) -> int:  # noqa: N802
        """The packed colour of pixel `n` in the buffer (not necessarily shown yet)."""
        self._require_begun()
        self._check_pixel(n)
        return self._buffer[n]

    def getPixelColorRGB(self, n: int) -> RGB:  # noqa: N802
        """The colour of pixel `n` in the buffer, unpacked."""
        return unpack(self.getPixelColor(n))

    # --- for tests and the simulation ------------------------------------------------------

    def set_powered(self, on: bool) -> None:
        """Switch the pixels' supply. Off, they go dark; back on, they stay dark until the next
        frame: a WS2812B holds its colour in a latch its own supply feeds (WS2812B datasheet,
        Worldsemi: the data latch), so a power cut loses it."""
        self.powered = on
        self.shown = (0,) * len(self._buffer)

    def fail_next_show(self, error: BaseException | None = None, times: int = 1) -> None:
        """Make the next `times` calls of `show()` raise `error` (by default the RuntimeError
        the real strip raises when rendering fails); the buffer is kept, as on the real one."""
        fault = error or RuntimeError("ws2811_render failed with code -13 (Failed SPI transfer)")
        self._faults.extend([fault] * times)

    def shown_rgb(self) -> tuple[RGB, ...]:
        """The colours of the last frame that went out, as sent (before the driver's brightness)."""
        return tuple(unpack(color) for color in self.shown)

    def lit(self) -> tuple[RGB, ...]:
        """What the pixels emit after the last frame: the driver's brightness scaling applied,
        the way ws2811 render does it (`value * (brightness + 1) >> 8`)."""
        scale = self.shown_brightness + 1
        return tuple(
            RGB(*(channel * scale >> 8 for channel in unpack(color))) for color in self.shown
        )

    def _require_begun(self) -> None:
        if not self.begun:
            raise RuntimeError("the strip is used before begin(); the real one would crash")

    def _check_pixel(self, n: int) -> None:
        if not 0 <= n < len(self._buffer):
            raise IndexError(f"pixel {n} is not on a strip of {len(self._buffer)}")


def open_virtual_strip(count: int, brightness: int = 255) -> Ws281xStrip[VirtualPixelStrip]:
    """The LED strip of the pin map's `virtual` backend; `.pixel_strip` is the
    `VirtualPixelStrip` to read."""
    return open_pixel_strip(VirtualPixelStrip, count, brightness)


def _check_byte(name: str, value: int) -> None:
    if not 0 <= value <= 255:
        raise ValueError(f"{name} is 0–255, not {value}")
