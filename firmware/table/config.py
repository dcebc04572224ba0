"""The table's configuration file (TOML): pins, LED key, OLED, inputs, defaults of the menu.

`/etc/codenames-table/config.toml` on the Pi, or `--config PATH`. Every key is optional and has
the default that `config.example.toml` documents. An unknown key, a wrong type, a value out of its
range or a pin clash raises `ConfigError` naming the key (and the range), and the command exits 2:
the table never starts half-configured. Every number is bounded here, where it is read, so that
no value (`inf`, `1e300`, `1e-9`) reaches a timer or a loop that it would break or hang. The file
is read as `firmware.text_input` reads every text: at most 1 MiB, UTF-8 with or without a
byte-order mark.
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from board_rules.codenames import Mode
from board_rules.text import clip
from firmware.drivers.led_layout import LedConfigError, LedLayout
from firmware.drivers.matrix import LONGEST_GLITCH_MS, PRESS_CONFIRM_MS, RELEASE_DEBOUNCE_MS
from firmware.drivers.matrix_wires import COLUMN_PULL_UP_OHMS, settle_for_pull_up
from firmware.drivers.oled import SECOND_ADDRESS, OledConfig, SecondOled
from firmware.drivers.pinout import (
    RESERVED_PINS,
    PinMap,
    PinMapError,
    default_pin_table,
    load_pin_map,
    parse_pin_map,
)
from firmware.drivers.ssd1306_protocol import Controller
from firmware.drivers.touch_pads import PadThresholds, TouchPadsConfig, parse_switch
from firmware.errors import FirmwareError
from firmware.table.i18n import LANGUAGES
from firmware.table.led_pattern import LedStyle
from firmware.table.settings import BRIGHTNESS_LEVELS, TIMER_CHOICES, TableSettings
from firmware.text_input import TextInputError, read_text

DEFAULT_PATH: Final = Path("/etc/codenames-table/config.toml")
DEFAULT_STATE_DIR: Final = Path("/var/lib/codenames-table")


class ConfigError(FirmwareError, ValueError):
    """A config file that cannot be used; the message is one line naming the file and the key."""


def _error(source: str, detail: str) -> ConfigError:
    # The source is a path given by the user and shown whole; the rest may quote the file.
    return ConfigError(f"{source}: {clip(detail)}")


TOUCH_DEBOUNCE_MS = 30.0
"""The touch chips' debounce unless `[input] debounce_ms` is set: 7 extra samples of 4 ms, the
most the chips' DEBOUNCE register holds."""


@dataclass(frozen=True)
class InputConfig:
    """How the switches are read: the switch matrix, or the capacitive pads (`mpr121`)."""

    debounce_ms: float | None = None
    """How long a switch must be open to be released (the matrix, the encoder's push), and the
    touch chips' debounce; unset, `release_debounce_ms` and `touch_debounce_ms` apply."""
    press_confirm_ms: float = PRESS_CONFIRM_MS
    """How long a matrix switch must be closed without a break to be a press."""
    stuck_after_s: float = 10.0
    column_pullup_ohms: float = COLUMN_PULL_UP_OHMS
    """The matrix columns' external pull-up resistors; 0: none, the Pi's own alone. The scanner's
    settle time after each row change follows from it (`settle_s`)."""
    backend: str = "matrix"
    mpr121: TouchPadsConfig = field(default_factory=TouchPadsConfig)

    @property
    def release_debounce_ms(self) -> float:
        """The switches' release debounce: `debounce_ms`, or twice the switches' rated bounce."""
        return RELEASE_DEBOUNCE_MS if self.debounce_ms is None else self.debounce_ms

    @property
    def touch_debounce_ms(self) -> float:
        """What the touch chips are given to debounce with: `debounce_ms`, or
        `TOUCH_DEBOUNCE_MS`."""
        return TOUCH_DEBOUNCE_MS if self.debounce_ms is None else self.debounce_ms

    @property
    def settle_s(self) -> float:
        """How long the matrix scanner waits after each row change, from the column pull-ups."""
        return settle_for_pull_up(self.column_pullup_ohms)


@dataclass(frozen=True)
class FleetConfig:
    """`[fleet]`: the MQTT broker the table reports to (`firmware.fleet`); absent, it reports
    to none and opens no network."""

    broker: str
    """`mqtt://host:port` or `mqtts://host:port` (TLS)."""
    table: str
    """This table's id, the second level of its topics."""
    ca_file: Path | None = None
    username: str | None = None
    password_file: Path | None = None
    """Read when connecting (systemd's `LoadCredential=`): a password never sits in the config."""
    keepalive_s: int = 15


@dataclass(frozen=True)
class TableConfig:
    """Everything the config file sets."""

    pins: PinMap = field(default_factory=load_pin_map)
    led_layout: LedLayout = field(default_factory=LedLayout)
    led_style: LedStyle = field(default_factory=LedStyle)
    oled: OledConfig = field(default_factory=OledConfig)
    inputs: InputConfig = field(default_factory=InputConfig)
    settings: TableSettings = field(default_factory=TableSettings)
    """Defaults of the menu's settings; values saved from the menu win over them."""
    sleep_after_s: float = 600.0
    state_dir: Path = DEFAULT_STATE_DIR
    fleet: FleetConfig | None = None


def installed_config() -> Path | None:
    """The Pi's config file if there is one; without it, every default applies."""
    return DEFAULT_PATH if DEFAULT_PATH.exists() else None


def load_config(path: Path | None) -> TableConfig:
    """Read `path` (None: no file, every default)."""
    if path is None:
        return TableConfig()
    try:
        text = read_text(path)
    except TextInputError as error:
        raise ConfigError(error.located(str(path))) from error
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise _error(str(path), "not valid TOML: nested too deeply") from None
    except tomllib.TOMLDecodeError as error:
        raise _error(str(path), f"not valid TOML: {error}") from error
    except ValueError as error:  # Python's limit on converting decimal digits to an integer
        limit = sys.get_int_max_str_digits()
        raise _error(str(path), f"not valid TOML: a number of more than {limit} digits") from error
    return parse_config(data, str(path))


_Check = Callable[[Any], bool]


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _within(low: float, high: float) -> _Check:
    # Written as one chained comparison, so that nan (never in range) is refused too.
    return lambda value: _number(value) and low <= value <= high


MAX_PATH = 4096
"""Longest state_dir, in characters (Linux's PATH_MAX)."""

SLEEP_AFTER_S = (10, 86_400)
SHIFT_EVERY_S = (10, 86_400)
DEBOUNCE_MS = (0, 500)
PRESS_CONFIRM_RANGE_MS = (LONGEST_GLITCH_MS + 0.5, 100)
"""A confirmation no longer than the longest glitch would let a glitch press a pad."""
STUCK_AFTER_S = (0.5, 3_600)
# Below 2 kΩ a row holding six closed switches sinks over 10 mA, and the 1N4148's drop at that
# current nears the Pi's 0.8 V low threshold; above 1 MΩ the Pi's own ~65 kΩ does all the pulling.
COLUMN_PULLUP_OHMS = (2_000, 1_000_000)


_TABLE_KEYS: dict[str, tuple[_Check, str]] = {
    "language": (lambda v: v in LANGUAGES, f"one of {', '.join(LANGUAGES)}"),
    "mode": (lambda v: v in ("standard", "coop"), "standard or coop"),
    "brightness": (
        lambda v: type(v) is int and v in BRIGHTNESS_LEVELS,
        "a whole number from 1 to 5",
    ),
    "timer_s": (
        lambda v: type(v) is int and v in TIMER_CHOICES,
        f"one of {', '.join(map(str, TIMER_CHOICES))} (0 is off)",
    ),
    "strict": (lambda v: isinstance(v, bool), "true or false"),
    "timer_autostart": (lambda v: isinstance(v, bool), "true or false"),
    "sleep_after_s": (_within(*SLEEP_AFTER_S), "seconds from {} to {}".format(*SLEEP_AFTER_S)),
    "state_dir": (
        # NUL cannot be in a path, and a control character in one is always a typo.
        lambda v: isinstance(v, str) and 0 < len(v) <= MAX_PATH and v.isprintable(),
        f"a directory path of 1 to {MAX_PATH} printable characters",
    ),
}
_INPUT_KEYS: dict[str, tuple[_Check, str]] = {
    "debounce_ms": (_within(*DEBOUNCE_MS), "milliseconds from {} to {}".format(*DEBOUNCE_MS)),
    "press_confirm_ms": (
        _within(*PRESS_CONFIRM_RANGE_MS),
        "milliseconds from {} to {}".format(*PRESS_CONFIRM_RANGE_MS),
    ),
    "stuck_after_s": (_within(*STUCK_AFTER_S), "seconds from {} to {}".format(*STUCK_AFTER_S)),
    "column_pullup_ohms": (
        lambda v: v == "internal" or (_number(v) and v == 0) or _within(*COLUMN_PULLUP_OHMS)(v),
        'ohms from {} to {}, or 0 or "internal" (none: the Pi\'s own pull-up)'.format(
            *COLUMN_PULLUP_OHMS
        ),
    ),
    "backend": (lambda v: v in ("matrix", "mpr121"), '"matrix" or "mpr121"'),
    "mpr121": (lambda v: isinstance(v, Mapping), "a table: [input.mpr121]"),
}
_MPR121_KEYS: dict[str, tuple[_Check, str]] = {
    "addresses": (
        lambda v: (
            isinstance(v, list)
            and len(v) == 3
            and len(set(v)) == 3
            and all(type(a) is int and 0x5A <= a <= 0x5D for a in v)
        ),
        "three different addresses from 0x5A to 0x5D",
    ),
    "irq_pins": (
        lambda v: (
            isinstance(v, list)
            and len(v) == 3
            and len(set(v)) == 3
            and all(type(p) is int and 0 <= p <= 27 for p in v)
        ),
        "three different BCM GPIO numbers 0–27",
    ),
    "touch_threshold": (lambda v: type(v) is int and 2 <= v <= 255, "a whole number 2–255"),
    "release_threshold": (lambda v: type(v) is int and 1 <= v <= 254, "a whole number 1–254"),
    "pads": (lambda v: isinstance(v, Mapping), "a table of pad = [touch, release]"),
}
_OLED_KEYS: dict[str, tuple[_Check, str]] = {
    "contrast": (lambda v: type(v) is int and 0 <= v <= 255, "a whole number 0–255"),
    "dim_contrast": (lambda v: type(v) is int and 0 <= v <= 255, "a whole number 0–255"),
    "shift_every_s": (
        lambda v: (_number(v) and v == 0) or _within(*SHIFT_EVERY_S)(v),
        "0 (off) or seconds from {} to {}".format(*SHIFT_EVERY_S),
    ),
    "rotate_180": (lambda v: isinstance(v, bool), "true or false"),
    "controller": (lambda v: v in ("ssd1306", "ssd1309"), '"ssd1306" or "ssd1309"'),
    "reset_pin": (lambda v: type(v) is int and 0 <= v <= 27, "a BCM GPIO number 0–27"),
    "second": (lambda v: isinstance(v, Mapping), "a table: [oled.second]"),
}
_SECOND_OLED_KEYS: dict[str, tuple[_Check, str]] = {
    "address": (lambda v: type(v) is int and 0x08 <= v <= 0x77, "a 7-bit I2C address, as 0x3D"),
    "rotate_180": (lambda v: isinstance(v, bool), "true or false"),
    "reset_pin": (lambda v: type(v) is int and 0 <= v <= 27, "a BCM GPIO number 0–27"),
}
_FLEET_KEYS: dict[str, tuple[_Check, str]] = {
    # Only its type here: the address itself is checked by the fleet (`BrokerAddress.parse`),
    # the one validation of `run`, `run --check-config`, `selftest --fleet` and the café.
    "broker": (lambda v: isinstance(v, str), 'a text, as "mqtt://host:1883"'),
    "table": (
        # The id is a topic level: no wildcard, no separator, nothing a view would misread.
        lambda v: isinstance(v, str) and bool(re.fullmatch(r"[A-Za-z0-9_-]{1,64}", v)),
        "1 to 64 letters, digits, - or _",
    ),
    "ca_file": (
        lambda v: isinstance(v, str) and 0 < len(v) <= MAX_PATH and v.isprintable(),
        "a file path",
    ),
    "username": (
        lambda v: isinstance(v, str) and 0 < len(v) <= 256 and v.isprintable(),
        "1 to 256 printable characters",
    ),
    "password_file": (
        lambda v: isinstance(v, str) and 0 < len(v) <= MAX_PATH and v.isprintable(),
        "a file path",
    ),
    "keepalive_s": (lambda v: type(v) is int and 2 <= v <= 3600, "seconds from 2 to 3600"),
}
_SECTIONS = ("table", "input", "pins", "led", "oled", "fleet")


def parse_config(data: Mapping[str, Any], source: str) -> TableConfig:
    """Check a config table as `tomllib` reads it and build the `TableConfig`."""
    for name in data:
        if name not in _SECTIONS:
            raise _error(source, f"{name}: unknown section (known: {', '.join(_SECTIONS)})")
    config = TableConfig()
    table = _checked(data, "table", _TABLE_KEYS, source)
    settings = config.settings
    for name in ("language", "brightness", "timer_s", "strict", "timer_autostart"):
        if name in table:
            settings = replace(settings, **{name: table[name]})
    if "mode" in table:
        settings = replace(settings, mode=Mode(table["mode"]))
    inputs = _checked(data, "input", _INPUT_KEYS, source)
    oled = _checked(data, "oled", _OLED_KEYS, source)
    if "pins" in data:
        try:
            pins = parse_pin_map(_over_default_pins(data["pins"]), source, key_prefix="pins.")
        except PinMapError as error:
            detail = ": ".join(part for part in (error.key, error.problem) if part)
            raise _error(source, detail) from error
        config = replace(config, pins=pins)
    layout, style = _led(data.get("led", {}), source)
    # The palette is a menu setting too; [led.style] gives its default with the other colours.
    settings = replace(
        settings, colour_blind=style.colour_blind_team if style.colour_blind else None
    )
    shift = oled.pop("shift_every_s", OledConfig.shift_every)
    oled = _oled_panels(oled, config.pins, source)
    return replace(
        config,
        settings=settings,
        led_layout=layout,
        led_style=style,
        inputs=_inputs(inputs, config.pins, oled, source),
        oled=replace(
            config.oled, **oled, shift_every=shift or None, address=config.pins.oled_address
        ),
        sleep_after_s=float(table.get("sleep_after_s", config.sleep_after_s)),
        state_dir=Path(table.get("state_dir", config.state_dir)),
        fleet=_fleet(data, source),
    )


def _fleet(data: Mapping[str, Any], source: str) -> FleetConfig | None:
    """`[fleet]`, or None without it; `broker` and `table` are required there."""
    if "fleet" not in data:
        return None
    fleet = _checked(data, "fleet", _FLEET_KEYS, source)
    for required in ("broker", "table"):
        if required not in fleet:
            raise _error(source, f"fleet.{required}: required when [fleet] is set")
    for name in ("ca_file", "password_file"):
        if name in fleet:
            fleet[name] = Path(fleet[name])
    return FleetConfig(**fleet)


def _inputs(
    inputs: dict[str, Any], pins: PinMap, oled: Mapping[str, Any], source: str
) -> InputConfig:
    """`[input]` with its `[input.mpr121]`: thresholds with their hysteresis, and IRQ pins that
    no other device uses (the matrix's pins are free on a capacitive table)."""
    touch = _checked(inputs, "mpr121", _MPR121_KEYS, source)
    inputs.pop("mpr121", None)
    if inputs.get("column_pullup_ohms") == "internal":
        inputs["column_pullup_ohms"] = 0
    key = "input.mpr121"

    def thresholds(name: str, pair: tuple[Any, Any]) -> PadThresholds:
        try:
            return PadThresholds(*pair)
        except (TypeError, ValueError):
            raise _error(
                source,
                f"{key}.{name}: expected touch and release thresholds, release below touch "
                f"(1–255), got {_shown(list(pair))}",
            ) from None

    default = thresholds(
        "release_threshold",
        (touch.get("touch_threshold", 12), touch.get("release_threshold", 6)),
    )
    pads = []
    for name, pair in touch.get("pads", {}).items():
        try:
            switch = parse_switch(name)
        except ValueError as error:
            raise _error(source, f"{key}.pads.{name}: {error}") from None
        if not (isinstance(pair, list) and len(pair) == 2 and all(type(v) is int for v in pair)):
            raise _error(
                source, f"{key}.pads.{name}: expected [touch, release], got {_shown(pair)}"
            )
        pads.append((switch, thresholds(f"pads.{name}", (pair[0], pair[1]))))
    irq_pins = tuple(touch.get("irq_pins", pins.matrix_columns[:3]))
    if inputs.get("backend") == "mpr121":
        taken = {use.gpio: use.key for use in pins.uses() if not use.key.startswith("matrix")}
        second = oled.get("second")
        for name, pin in (
            ("oled.reset_pin", oled.get("reset_pin")),
            ("oled.second.reset_pin", getattr(second, "reset_pin", None)),
        ):
            if pin is not None:
                taken[pin] = name
        for pin in irq_pins:
            if pin in RESERVED_PINS:
                raise _error(
                    source, f"{key}.irq_pins: GPIO {pin} is reserved ({RESERVED_PINS[pin]})"
                )
            if pin in taken:
                raise _error(source, f"{key}.irq_pins: GPIO {pin} is already {taken[pin]}")
    mpr121 = TouchPadsConfig(
        addresses=tuple(touch.get("addresses", TouchPadsConfig.addresses)),
        irq_pins=irq_pins,
        default=default,
        pads=tuple(pads),
    )
    return InputConfig(**inputs, mpr121=mpr121)


def _oled_panels(oled: dict[str, Any], pins: PinMap, source: str) -> dict[str, Any]:
    """`[oled]`'s controller, reset lines and `[oled.second]` as `OledConfig` takes them,
    checked against each other and the pin map."""
    if "controller" in oled:
        oled["controller"] = Controller(oled["controller"])
    if "second" in oled:
        second = _checked({"oled.second": oled["second"]}, "oled.second", _SECOND_OLED_KEYS, source)
        address = second.get("address", SECOND_ADDRESS)
        if address == pins.oled_address:
            raise _error(source, f"oled.second.address: 0x{address:02X} is the first OLED's too")
        oled["second"] = SecondOled(**second)
    taken = {use.gpio: use.key for use in pins.uses()}
    for key, pin in (
        ("oled.reset_pin", oled.get("reset_pin")),
        ("oled.second.reset_pin", oled["second"].reset_pin if "second" in oled else None),
    ):
        if pin is not None and pin in taken:
            raise _error(source, f"{key}: GPIO {pin} is already {taken[pin]}")
        if pin is not None and pin in RESERVED_PINS:
            raise _error(source, f"{key}: GPIO {pin} is reserved ({RESERVED_PINS[pin]})")
        if pin is not None:
            taken[pin] = key
    return oled


def _over_default_pins(tables: Any) -> Any:
    """The default pin map with the config's `[pins.*]` tables laid over it, key by key: a
    table that differs in one pin (or a Pi 5's `[pins.led] backend`) says only that."""
    if not isinstance(tables, Mapping):
        return tables  # parse_pin_map names the problem
    merged: dict[str, Any] = default_pin_table()
    for section, table in tables.items():
        base = merged.get(section)
        if isinstance(base, dict) and isinstance(table, Mapping):
            merged[section] = {**base, **table}
        else:
            merged[section] = table
    return merged


def _checked(
    data: Mapping[str, Any], section: str, keys: Mapping[str, tuple[_Check, str]], source: str
) -> dict[str, Any]:
    table = data.get(section, {})
    if not isinstance(table, Mapping):
        raise _error(source, f"{section}: expected a table")
    for name, value in table.items():
        if name not in keys:
            known = ", ".join(keys)
            raise _error(source, f"{section}.{name}: unknown key (known: {known})")
        check, expected = keys[name]
        if not check(value):
            raise _error(source, f"{section}.{name}: expected {expected}, got {_shown(value)}")
    return dict(table)


def _shown(value: Any) -> str:
    """`value` as a message quotes it (`clip` then cuts it to fit one line)."""
    try:
        return repr(value)
    except (RecursionError, ValueError):  # nested too deep, an integer too long to print
        return "a value too large to show"


def _led(data: Any, source: str) -> tuple[LedLayout, LedStyle]:
    if not isinstance(data, Mapping):
        raise _error(source, "led: expected a table")
    for name in data:
        if name not in ("layout", "style"):
            raise _error(source, f"led.{name}: unknown key (known: layout, style)")
    if isinstance(data.get("style"), Mapping) and "brightness" in data["style"]:
        raise _error(source, "led.style.brightness: set [table] brightness (1-5) instead")
    parts: dict[str, Any] = {}
    for part, reader in (("layout", LedLayout.from_mapping), ("style", LedStyle.from_mapping)):
        table = data.get(part, {})
        if not isinstance(table, Mapping):
            raise _error(source, f"led.{part}: expected a table")
        try:
            parts[part] = reader(table)
        except LedConfigError as error:
            raise _error(source, f"led.{part}.{error}") from error
    return parts["layout"], parts["style"]
