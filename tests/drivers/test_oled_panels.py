"""The larger SSD1309 panel and a second display: init bytes, reset line, both sides drawn, and
one display's fault leaving the other drawing.

Below the `Oled` everything is real but the bus and the pins: Adafruit's driver on a
`VirtualI2C` with `VirtualSSD1306` chips, RES lines on gpiozero's `MockFactory`.
"""

from __future__ import annotations

import pytest
from gpiozero import DigitalOutputDevice
from gpiozero.pins.mock import MockFactory

from firmware.drivers.clock import VirtualClock
from firmware.drivers.oled import Oled, OledConfig, SecondOled
from firmware.drivers.oled_group import open_oleds
from firmware.drivers.ssd1306_link import DECODER_FLUSH, SSD1309_UNLOCK, ssd1309_setup
from firmware.drivers.ssd1306_protocol import (
    SSD1309_PRECHARGE,
    SSD1309_VCOMH,
    Command,
    Controller,
)
from firmware.virtual.i2c import VirtualI2C
from firmware.virtual.ssd1306 import VirtualSSD1306
from tests.oled_helpers import ADDRESS, STILL, shows, with_pixels

SSD1309 = OledConfig(shift_every_s=0, controller=Controller.SSD1309)
SECOND = 0x3D


def writes_to(bus: VirtualI2C, address: int) -> list[bytes]:
    assert bus.transactions is not None
    return [t.data for t in bus.transactions if t.address == address and not t.read]


def test_an_ssd1309_is_unlocked_before_the_init_and_given_its_drive_levels_after() -> None:
    bus = VirtualI2C(record=True)
    chip = VirtualSSD1306(controller=Controller.SSD1309)
    bus.attach(ADDRESS, chip)
    with Oled(VirtualClock(), i2c=bus, config=SSD1309) as oled:
        oled.show(with_pixels((5, 5)))
        writes = writes_to(bus, ADDRESS)
        assert (
            writes[:2]
            == [DECODER_FLUSH, bytes((0x00, 0xFD, 0x12))]
            == [
                DECODER_FLUSH,
                SSD1309_UNLOCK,
            ]
        )
        assert ssd1309_setup() == bytes((0x00, 0xD9, 0x22, 0xDB, 0x34))
        assert ssd1309_setup() in writes
        # Adafruit's init asks for the pump off (external VCC); the SSD1309 has none anyway.
        assert bytes((0x80, Command.CHARGE_PUMP_SETTING)) in writes
        assert writes.index(ssd1309_setup()) < len(writes) - 2  # before the frame
        assert (chip.precharge, chip.vcomh) == (SSD1309_PRECHARGE, SSD1309_VCOMH)
        assert not chip.charge_pump and chip.display_on
        assert shows(chip, with_pixels((5, 5)))
        assert chip.visible_image().getpixel((5, 5))  # lit without a charge pump


def test_an_ssd1306_gets_no_ssd1309_bytes_and_lights_by_its_pump() -> None:
    bus = VirtualI2C(record=True)
    chip = VirtualSSD1306()
    bus.attach(ADDRESS, chip)
    with Oled(VirtualClock(), i2c=bus, config=STILL) as oled:
        oled.show(with_pixels((5, 5)))
        writes = writes_to(bus, ADDRESS)
        assert SSD1309_UNLOCK not in writes and ssd1309_setup() not in writes
        assert chip.charge_pump and chip.precharge == 0xF1


def test_a_locked_ssd1309_is_unlocked_and_drawn() -> None:
    bus = VirtualI2C()
    chip = VirtualSSD1306(controller=Controller.SSD1309)
    chip.write(bytes((0x00, 0xFD, 0x16)))  # left locked by whatever ran before
    assert chip.locked
    bus.attach(ADDRESS, chip)
    with Oled(VirtualClock(), i2c=bus, config=SSD1309) as oled:
        oled.show(with_pixels((7, 7)))
        assert not chip.locked and chip.display_on
        assert shows(chip, with_pixels((7, 7)))


def test_an_ssd1309_twin_ignores_commands_while_locked() -> None:
    chip = VirtualSSD1306(controller=Controller.SSD1309)
    chip.write(bytes((0x00, 0xFD, 0x16, 0xAF)))
    assert not chip.display_on
    chip.write(bytes((0x00, 0xFD, 0x12, 0xAF)))
    assert chip.display_on


def test_a_module_that_needs_its_reset_pulse_answers_only_with_a_reset_line() -> None:
    factory = MockFactory()
    pin = factory.pin(24)
    bus = VirtualI2C()
    chip = VirtualSSD1306(controller=Controller.SSD1309, reset_line=pin, needs_reset=True)
    bus.attach(ADDRESS, chip)
    clock = VirtualClock()
    with Oled(clock, i2c=bus, config=SSD1309) as without:
        without.show(with_pixels((1, 1)))
        assert not without.is_up
    config = OledConfig(shift_every_s=0, controller=Controller.SSD1309, reset_pin=24)
    with open_oleds(clock, config, i2c=bus, pin_factory=factory) as oleds:
        oleds.show(with_pixels((2, 2)))
        assert oleds.is_up and chip.resets == 1
        assert shows(chip, with_pixels((2, 2)))
        assert [state.state for state in pin.states][-2:] == [False, True]


def two_displays() -> tuple[VirtualI2C, VirtualSSD1306, VirtualSSD1306]:
    bus = VirtualI2C(record=True)
    first, other = VirtualSSD1306(), VirtualSSD1306()
    bus.attach(ADDRESS, first)
    bus.attach(SECOND, other)
    return bus, first, other


def test_both_displays_receive_every_frame_the_second_turned_by_its_chip() -> None:
    bus, first, other = two_displays()
    config = OledConfig(shift_every_s=0, second=SecondOled())
    with open_oleds(VirtualClock(), config, i2c=bus) as oleds:
        assert [oled.config.address for oled in oleds.oleds] == [ADDRESS, SECOND]
        for point in ((3, 4), (100, 60)):
            oleds.show(with_pixels(point))
            assert shows(first, with_pixels(point)) and shows(other, with_pixels(point))
        # The same RAM, shown upright on one and turned by 180° on the other.
        assert first.visible_image().getpixel((100, 60))
        assert other.visible_image().getpixel((127 - 100, 63 - 60))
        oleds.set_dimmed(True)
        assert first.contrast == other.contrast == config.dim_contrast


def test_one_display_failing_leaves_the_other_drawing_and_comes_back_alone() -> None:
    bus, first, other = two_displays()
    clock = VirtualClock()
    config = OledConfig(shift_every_s=0, second=SecondOled())
    with open_oleds(clock, config, i2c=bus) as oleds:
        oleds.show(with_pixels((1, 1)))
        bus.unplug(SECOND)
        oleds.show(with_pixels((2, 2)))
        oleds.show(with_pixels((3, 3)))
        assert oleds.oleds[0].is_up and not oleds.oleds[1].is_up and not oleds.is_up
        assert shows(first, with_pixels((3, 3)))
        bus.replug(SECOND)
        clock.advance(5.0)  # its own back-off brings it back with the latest screen
        assert oleds.is_up
        assert shows(other, with_pixels((3, 3)))


def test_a_missing_first_display_does_not_stop_the_second() -> None:
    bus = VirtualI2C()
    other = VirtualSSD1306()
    bus.attach(SECOND, other)
    config = OledConfig(shift_every_s=0, second=SecondOled())
    with open_oleds(VirtualClock(), config, i2c=bus) as oleds:
        oleds.show(with_pixels((9, 9)))
        assert not oleds.oleds[0].is_up
        assert shows(other, with_pixels((9, 9)))


def test_the_second_display_shares_every_setting_but_address_turn_and_reset() -> None:
    config = OledConfig(
        contrast=200,
        controller=Controller.SSD1309,
        reset_pin=24,
        second=SecondOled(rotate_180=False, reset_pin=25),
    )
    first, second = config.panels
    assert (first.address, first.rotate_180, first.reset_pin) == (ADDRESS, False, 24)
    assert (second.address, second.rotate_180, second.reset_pin) == (SECOND, False, 25)
    assert second.contrast == 200 and second.controller is Controller.SSD1309
    assert first.second is None and second.second is None
    assert len(OledConfig().panels) == 1


def test_a_reset_line_that_cannot_be_opened_is_logged_and_the_display_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    factory = MockFactory()
    with DigitalOutputDevice(4, pin_factory=factory):  # the GPIO is taken
        bus = VirtualI2C()
        chip = VirtualSSD1306()
        bus.attach(ADDRESS, chip)
        config = OledConfig(shift_every_s=0, reset_pin=4)
        with open_oleds(VirtualClock(), config, i2c=bus, pin_factory=factory) as oleds:
            oleds.show(with_pixels((6, 6)))
            assert shows(chip, with_pixels((6, 6)))
    assert "reset line GPIO 4 not available" in caplog.text
