"""The LED supply's twin: a switchable source through the sense divider onto a mock pin, and
the pixels it feeds."""

import doctest

import pytest
from gpiozero.pins.mock import MockFactory

from firmware.virtual import led_supply
from firmware.virtual.led_supply import VirtualLedSupply
from firmware.virtual.strip import VirtualPixelStrip


@pytest.mark.parametrize(
    ("volts", "level"),
    [(5.0, True), (3.5, True), (0.0, False), (1.3, False)],  # 3.5 V: 2.06 V; 1.3 V: 0.76 V
)
def test_the_pin_follows_the_divider_against_the_pi_s_thresholds(volts: float, level: bool) -> None:
    factory = MockFactory()
    factory.pin(18).drive_low() if level else factory.pin(18).drive_high()
    VirtualLedSupply(factory, 18, volts)
    assert factory.pin(18).state is level


def test_in_the_undefined_band_the_pin_keeps_its_last_level() -> None:
    factory = MockFactory()
    supply = VirtualLedSupply(factory, 18)
    supply.set_volts(2.5)  # 1.47 V on the pin: between 0.8 V and 2.0 V
    assert factory.pin(18).state is True
    supply.cut()
    supply.set_volts(2.5)
    assert factory.pin(18).state is False


def test_the_pixels_go_dark_with_the_supply_and_wake_dark() -> None:
    pixels = VirtualPixelStrip(3, 10)
    pixels.begin()
    supply = VirtualLedSupply(MockFactory(), 18)
    supply.pixels = pixels
    pixels.setPixelColor(0, 0xFF0000)
    pixels.show()
    assert pixels.lit()[0].r > 0
    supply.cut()
    assert not supply.on and not any(pixels.lit()[0])
    pixels.show()  # the frame goes nowhere
    assert not any(pixels.lit()[0])
    supply.restore()
    assert not any(pixels.lit()[0])  # dark until the next frame
    pixels.show()
    assert pixels.lit()[0].r > 0


def test_docstring_examples_hold() -> None:
    assert doctest.testmod(led_supply).failed == 0
