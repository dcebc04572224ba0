"""The config file: the documented example is the defaults, and every bad key is named."""

import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

from board_rules.codenames import Mode
from firmware.config import ConfigError, TableConfig, load_config, parse_config
from firmware.led_layout import LedLayout
from firmware.led_pattern import LedStyle

EXAMPLE = Path(__file__).parents[1] / "config.example.toml"


def test_the_example_config_spells_out_exactly_the_defaults() -> None:
    assert load_config(EXAMPLE) == TableConfig()


def test_the_example_config_names_every_key() -> None:
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert set(data["led"]["layout"]) == {f.name for f in fields(LedLayout)}
    assert set(data["led"]["style"]) == {f.name for f in fields(LedStyle)} - {"brightness"}
    assert set(data["table"]) == {
        "language",
        "mode",
        "brightness",
        "timer_s",
        "strict",
        "sleep_after_s",
        "state_dir",
    }
    assert set(data["input"]) == {"debounce_ms", "stuck_after_s"}
    assert set(data["oled"]) == {"contrast", "dim_contrast", "shift_every_s", "rotate_180"}


def test_values_are_read_into_their_places(tmp_path: Path) -> None:
    config = parse_config(
        {
            "table": {"language": "it", "mode": "coop", "timer_s": 90, "state_dir": "/tmp/x"},
            "input": {"debounce_ms": 20},
            "oled": {"shift_every_s": 0, "rotate_180": True},
            "led": {"layout": {"rotation": 90}, "style": {"blue": "#0000ff"}},
        },
        "test.toml",
    )
    assert (config.settings.language, config.settings.mode, config.settings.timer_s) == (
        "it",
        Mode.COOP,
        90,
    )
    assert config.state_dir == Path("/tmp/x")
    assert config.inputs.debounce_ms == 20
    assert (config.oled.shift_every, config.oled.rotate_180) == (None, True)
    assert config.led_layout.rotation == 90
    assert config.led_style.blue == (0, 0, 255)


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ({"table": {"timer_s": 45}}, "test.toml: table.timer_s: expected one of"),
        ({"table": {"strict": "yes"}}, "table.strict: expected true or false"),
        ({"table": {"brightness": 3.0}}, "table.brightness"),
        ({"input": {"debounce_ms": -1}}, "input.debounce_ms"),
        ({"input": {"speed": 1}}, "input.speed: unknown key"),
        ({"oled": {"dim_contrast": 300}}, "oled.dim_contrast"),
        ({"led": {"layout": {"twist": 1}}}, "led.layout.twist"),
        ({"led": {"style": {"red": "#ff00"}}}, "led.style.red"),
        ({"led": {"style": {"brightness": 200}}}, "led.style.brightness: set [table]"),
        ({"led": {"colours": {}}}, "led.colours: unknown key"),
        ({"table": []}, "table: expected a table"),
        ({"pins": {"matrix": {"rows": [5, 6]}}}, "pins.matrix"),
    ],
)
def test_a_bad_value_is_named(data: dict[str, object], named: str) -> None:
    with pytest.raises(ConfigError, match=named.replace("[", r"\[")):
        parse_config(data, "test.toml")


def test_unreadable_files_are_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[table\n")
    with pytest.raises(ConfigError, match=r"broken\.toml: not valid TOML"):
        load_config(broken)


def test_a_pins_table_changes_only_the_keys_it_names() -> None:
    config = parse_config({"pins": {"led": {"backend": "spi"}}}, "test.toml")
    default = TableConfig().pins
    assert config.pins.led_backend.value == "spi"
    assert config.pins.matrix_rows == default.matrix_rows
    assert config.pins.encoder_a == default.encoder_a


def test_a_partial_pins_table_is_checked_as_a_whole() -> None:
    with pytest.raises(ConfigError, match=r"pins\.encoder\.a.*17|17.*pins\.encoder\.a"):
        parse_config({"pins": {"encoder": {"a": 17}}}, "test.toml")  # 17 is a matrix column
