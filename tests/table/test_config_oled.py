"""The config's OLED panels: the controller, RES lines and a second display, and their errors."""

from pathlib import Path

import pytest

from firmware.drivers.oled import SecondOled
from firmware.drivers.ssd1306_protocol import Controller
from firmware.table.config import ConfigError, load_config, parse_config


def test_one_ssd1306_by_default() -> None:
    oled = parse_config({}, "test.toml").oled
    assert oled.controller is Controller.SSD1306
    assert oled.second is None and oled.reset_pin is None


def test_an_ssd1309_with_a_second_display_and_reset_lines(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        '[oled]\ncontroller = "ssd1309"\nreset_pin = 18\n'
        "[oled.second]\naddress = 0x3D\nreset_pin = 4\n"
        # GPIO 18 is the LED supply's sense on the default map: this table has no divider.
        "[pins.led]\nsense = false\n",
        encoding="utf-8",
    )
    oled = load_config(path).oled
    assert oled.controller is Controller.SSD1309 and oled.reset_pin == 18
    assert oled.second == SecondOled(address=0x3D, rotate_180=True, reset_pin=4)
    assert [panel.address for panel in oled.panels] == [0x3C, 0x3D]
    assert [panel.rotate_180 for panel in oled.panels] == [False, True]


def test_a_second_display_upright_when_asked() -> None:
    oled = parse_config({"oled": {"second": {"rotate_180": False}}}, "t.toml").oled
    assert oled.second == SecondOled(address=0x3D, rotate_180=False)


@pytest.mark.parametrize(
    ("oled", "message"),
    [
        ({"controller": "sh1106"}, 'oled.controller: expected "ssd1306" or "ssd1309"'),
        ({"second": 0x3D}, "oled.second: expected a table"),
        ({"second": {"address": 0x3C}}, "oled.second.address: 0x3C is the first OLED's too"),
        ({"second": {"address": 0x80}}, "oled.second.address: expected a 7-bit I2C address"),
        ({"second": {"colour": "blue"}}, "oled.second.colour: unknown key"),
        ({"reset_pin": 2}, "oled.reset_pin: GPIO 2 is already oled.bus"),
        (
            {"reset_pin": 4, "second": {"reset_pin": 4}},
            "oled.second.reset_pin: GPIO 4 is already oled.reset_pin",
        ),
        ({"reset_pin": 30}, "oled.reset_pin: expected a BCM GPIO number 0–27"),
        ({"second": {"reset_pin": 14}}, "oled.second.reset_pin: GPIO 14 is reserved"),
    ],
)
def test_bad_panel_settings_name_their_key(oled: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as error:
        parse_config({"oled": oled}, "t.toml")
    assert str(error.value).startswith("t.toml: ")
    assert message in str(error.value)
