"""Stand-ins for the LED libraries that only install on a Pi, put where `import` finds them:
`rpi_ws281x` (its `PixelStrip`: the virtual strip, `firmware.virtual.strip`), and Blinka's
`board` with `neopixel_spi` (a bus and a pixel buffer). The firmware's own classes above them
are the real ones."""

from __future__ import annotations

import sys
import types
from typing import Any, ClassVar

import pytest

from firmware.virtual.strip import VirtualPixelStrip


def module(name: str, **attributes: object) -> types.ModuleType:
    made = types.ModuleType(name)
    for attribute, value in attributes.items():
        setattr(made, attribute, value)
    return made


class FakeSpiBus:
    """`busio.SPI` as far as the backend goes."""

    def __init__(self) -> None:
        self.closed = 0

    def deinit(self) -> None:
        self.closed += 1


class FakeNeoPixelSpi:
    """`neopixel_spi.NeoPixel_SPI` with `auto_write=False`: a buffer of tuples and `show()`."""

    made: ClassVar[list[FakeNeoPixelSpi]] = []

    def __init__(self, spi: FakeSpiBus, n: int, **options: Any) -> None:
        self.spi, self.options = spi, options
        self.buffer: list[tuple[int, int, int]] = [(0, 0, 0)] * n
        self.shown: list[tuple[int, int, int]] = []
        self.fault: Exception | None = None
        FakeNeoPixelSpi.made.append(self)

    def __len__(self) -> int:
        return len(self.buffer)

    def __setitem__(self, index: int, colour: tuple[int, int, int]) -> None:
        self.buffer[index] = colour

    def show(self) -> None:
        if self.fault:
            raise self.fault
        self.shown = list(self.buffer)

    def deinit(self) -> None:
        self.buffer = [(0, 0, 0)] * len(self.buffer)
        self.show()


def fake_spi_libraries(monkeypatch: pytest.MonkeyPatch) -> FakeSpiBus:
    """`board.SPI()` and `neopixel_spi.NeoPixel_SPI` for this test; the bus `board.SPI()` gives."""
    bus = FakeSpiBus()
    FakeNeoPixelSpi.made.clear()
    monkeypatch.setitem(sys.modules, "board", module("board", SPI=lambda: bus))
    monkeypatch.setitem(
        sys.modules, "neopixel_spi", module("neopixel_spi", NeoPixel_SPI=FakeNeoPixelSpi, GRB="GRB")
    )
    return bus


def fake_rpi_ws281x(
    monkeypatch: pytest.MonkeyPatch, pixel_strip: type[VirtualPixelStrip] = VirtualPixelStrip
) -> None:
    """`rpi_ws281x.PixelStrip` for this test: `pixel_strip`, the virtual strip by default."""
    monkeypatch.setitem(sys.modules, "rpi_ws281x", module("rpi_ws281x", PixelStrip=pixel_strip))
