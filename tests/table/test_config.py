"""The config file: the documented example is the defaults, and every bad key is named."""

from pathlib import Path

import pytest

from board_rules.codenames import Mode, Team
from firmware.drivers.matrix import (
    LONGEST_GLITCH_MS,
    PRESS_CONFIRM_MS,
    RELEASE_DEBOUNCE_MS,
    SWITCH_BOUNCE_MS,
)
from firmware.drivers.matrix_wires import PI_PULL_UP_OHMS, SETTLE_S, settle_time_s
from firmware.table.config import (
    TOUCH_DEBOUNCE_MS,
    ConfigError,
    TableConfig,
    load_config,
    parse_config,
)

from ..paths import REPO

EXAMPLE = REPO / "config.example.toml"


def test_the_example_config_spells_out_exactly_the_defaults() -> None:
    assert load_config(EXAMPLE) == TableConfig()


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
    # Set, the release debounce is the touch chips' debounce as well.
    assert (config.inputs.release_debounce_ms, config.inputs.touch_debounce_ms) == (20, 20)
    assert (config.oled.shift_every_s, config.oled.rotate_180) == (0, True)
    assert config.led_layout.rotation == 90
    assert config.led_style.blue == (0, 0, 255)


@pytest.mark.parametrize("internal", [0, "internal"])
def test_column_pull_ups_set_the_settle_time(internal: int | str) -> None:
    standard = TableConfig().inputs
    assert standard.settle_s == SETTLE_S  # 10 kΩ beside the Pi's own: the BOM's table
    weaker = parse_config({"input": {"column_pullup_ohms": 47_000}}, "t.toml").inputs
    none = parse_config({"input": {"column_pullup_ohms": internal}}, "t.toml").inputs
    assert none.column_pullup_ohms == 0
    assert standard.settle_s < weaker.settle_s < none.settle_s == settle_time_s(PI_PULL_UP_OHMS)


def test_auto_timer_and_the_colour_blind_palette_are_defaults_of_the_menu() -> None:
    plain = parse_config({}, "test.toml").settings
    assert (plain.timer_autostart, plain.colour_blind) == (False, None)
    config = parse_config(
        {
            "table": {"timer_autostart": True},
            "led": {"style": {"colour_blind": True, "colour_blind_team": "red"}},
        },
        "test.toml",
    )
    assert (config.settings.timer_autostart, config.settings.colour_blind) == (True, Team.RED)
    team_only = parse_config({"led": {"style": {"colour_blind_team": "red"}}}, "test.toml")
    assert team_only.settings.colour_blind is None  # the palette stays off


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ({"table": {"timer_s": 45}}, "test.toml: table.timer_s: expected one of"),
        ({"table": {"strict": "yes"}}, "table.strict: expected true or false"),
        ({"table": {"timer_autostart": 1}}, "table.timer_autostart: expected true or false"),
        ({"table": {"brightness": 3.0}}, "table.brightness"),
        ({"input": {"debounce_ms": -1}}, "input.debounce_ms"),
        ({"input": {"press_confirm_ms": 1}}, "input.press_confirm_ms: expected milliseconds"),
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


# --- bounds: every number has a range, named with its key ---


@pytest.mark.parametrize(
    ("section", "key", "value", "bound"),
    [
        ("table", "sleep_after_s", "inf", "seconds from 10 to 86400, got inf"),
        ("table", "sleep_after_s", "1e300", "seconds from 10 to 86400, got 1e+300"),
        ("table", "sleep_after_s", "nan", "seconds from 10 to 86400, got nan"),
        ("table", "sleep_after_s", "0.001", "seconds from 10 to 86400"),
        ("oled", "shift_every_s", "inf", "0 (off) or seconds from 10 to 86400, got inf"),
        ("oled", "shift_every_s", "1e-9", "0 (off) or seconds from 10 to 86400, got 1e-09"),
        ("oled", "shift_every_s", "false", "0 (off) or seconds"),
        ("input", "debounce_ms", "nan", "milliseconds from 0 to 500, got nan"),
        ("input", "press_confirm_ms", "0.5", "milliseconds from 1.5 to 100, got 0.5"),
        ("input", "debounce_ms", "9" * 4000, "milliseconds from 0 to 500, got 9999"),
        ("input", "stuck_after_s", "inf", "seconds from 0.5 to 3600, got inf"),
        ("input", "stuck_after_s", "0.1", "seconds from 0.5 to 3600"),
        ("input", "column_pullup_ohms", "1e300", 'ohms from 2000 to 1000000, or 0 or "internal"'),
        ("input", "column_pullup_ohms", "1999", "own pull-up), got 1999"),
        ("input", "column_pullup_ohms", "nan", "ohms from 2000 to 1000000"),
        ("input", "column_pullup_ohms", "-10000", "ohms from 2000 to 1000000"),
        ("input", "column_pullup_ohms", '"external"', "got 'external'"),
        ("input", "column_pullup_ohms", "false", "ohms from 2000 to 1000000"),
        ("led.layout", "offset", "10000000", "from 0 to 100, got 10000000"),
    ],
)
def test_a_number_out_of_its_range_is_refused_with_the_range(
    tmp_path: Path, section: str, key: str, value: str, bound: str
) -> None:
    path = tmp_path / "c.toml"
    path.write_text(f"[{section}]\n{key} = {value}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: {section}.{key}: ")
    assert bound in message
    assert "\n" not in message and len(message) < len(str(path)) + 200


@pytest.mark.parametrize(
    ("section", "key", "value"),
    [
        ("table", "sleep_after_s", "10"),
        ("table", "sleep_after_s", "86400"),
        ("oled", "shift_every_s", "0"),
        ("oled", "shift_every_s", "10.0"),
        ("input", "stuck_after_s", "0.5"),
        ("input", "column_pullup_ohms", "2000"),
        ("input", "column_pullup_ohms", "1000000"),
        ("input", "column_pullup_ohms", "0"),
        ("input", "column_pullup_ohms", '"internal"'),
        ("led.layout", "offset", "100"),
    ],
)
def test_the_ends_of_each_range_are_accepted(
    tmp_path: Path, section: str, key: str, value: str
) -> None:
    path = tmp_path / "c.toml"
    path.write_text(f"[{section}]\n{key} = {value}\n", encoding="utf-8")
    load_config(path)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ('"a\\u0000b"', r"got 'a\x00b'"),
        ('"a\\nb"', r"got 'a\nb'"),
        ('""', "got ''"),
        (f'"/{"d" * 5000}"', "…"),
    ],
)
def test_a_state_dir_that_is_no_path_is_refused(tmp_path: Path, value: str, shown: str) -> None:
    path = tmp_path / "c.toml"
    path.write_text(f"[table]\nstate_dir = {value}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"table\.state_dir: expected a directory path") as caught:
        load_config(path)
    assert shown in str(caught.value)
    assert str(caught.value).isprintable()


# --- the file itself: size, encoding, depth ---


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"\xff", ":1: not UTF-8 text (byte 0xff)"),
        (b"[table]\r\nlanguage = 'it'\n# \xe9t\xe9\n", ":3: not UTF-8 text (byte 0xe9)"),
        (b"[table]\nsleep_after_s = " + b"9" * 5000, ": not valid TOML: a number of more than"),
        (b"a = " + b"[" * 20_000 + b"]" * 20_000, ": not valid TOML: nested too deeply"),
        (b"[table]\nmode = '" + b"x" * 5_000_000 + b"'\n", ": larger than 1 MiB, the most read"),
    ],
)
def test_a_file_that_cannot_be_read_exits_with_one_line(
    tmp_path: Path, content: bytes, problem: str
) -> None:
    path = tmp_path / "c.toml"
    path.write_bytes(content)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(f"{path}{problem}")
    assert "\n" not in str(caught.value)


def test_an_endless_config_is_read_no_further_than_the_limit() -> None:
    with pytest.raises(ConfigError, match=r"^/dev/zero: larger than 1 MiB, the most read$"):
        load_config(Path("/dev/zero"))


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_bytes(b"\xef\xbb\xbf[table]\nlanguage = 'pt'\n")
    assert load_config(path).settings.language == "pt"


def test_a_long_unknown_key_is_cut_in_the_message() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config({"table": {"k" * 100_000: 1}}, "test.toml")
    assert str(caught.value).startswith("test.toml: table." + "k" * 20)
    assert len(str(caught.value)) < 200


def test_left_out_the_switches_take_their_parts_figures_and_the_touch_chips_their_own() -> None:
    inputs = parse_config({}, "test.toml").inputs
    assert inputs.debounce_ms is None
    assert (inputs.press_confirm_ms, inputs.release_debounce_ms) == (
        PRESS_CONFIRM_MS,
        RELEASE_DEBOUNCE_MS,
    )
    assert inputs.touch_debounce_ms == TOUCH_DEBOUNCE_MS == 30
    # Longer than the longest glitch, so that none can press a pad; at least the rated bounce.
    assert PRESS_CONFIRM_MS > LONGEST_GLITCH_MS
    assert RELEASE_DEBOUNCE_MS >= SWITCH_BOUNCE_MS
