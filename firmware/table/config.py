"""The table's configuration file (TOML): pins, LED key, OLED, inputs, defaults of the menu.

`/etc/codenames-table/config.toml` on the Pi, or `--config PATH`. Every key is optional and has
the default that `config.example.toml` documents. An unknown key, a wrong type, a value out of its
range or a pin clash raises `ConfigError` naming the key (and the range), and the command exits 2:
the table never starts half-configured. Each key is declared once, on the field it sets, with its
range and help (`firmware.config_keys`); this module reads the sections into their types and
checks what spans keys (pins used twice, the touch thresholds' hysteresis). The file is read as
`firmware.text_input` reads every text: at most 1 MiB, UTF-8 with or without a byte-order mark.
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from board_rules.text import clip
from firmware.config_keys import (
    GPIO,
    Kind,
    SettingError,
    declared,
    distinct,
    is_number,
    number,
    one_of,
    printable,
    read,
    read_values,
    required,
    setting,
    shown,
    whole,
    within,
)
from firmware.drivers.led_layout import LedLayout
from firmware.drivers.matrix import LONGEST_GLITCH_MS, PRESS_CONFIRM_MS, RELEASE_DEBOUNCE_MS
from firmware.drivers.matrix_wires import COLUMN_PULL_UP_OHMS, settle_for_pull_up
from firmware.drivers.oled import OledConfig, SecondOled
from firmware.drivers.pinout import (
    RESERVED_PINS,
    PinMap,
    PinMapError,
    default_pin_table,
    load_pin_map,
    parse_pin_map,
)
from firmware.drivers.touch_pads import PadThresholds, TouchPadsConfig, parse_switch
from firmware.errors import FirmwareError
from firmware.table.led_pattern import LedStyle
from firmware.table.settings import TableSettings
from firmware.text_input import TextInputError, read_text

DEFAULT_PATH: Final = Path("/etc/codenames-table/config.toml")
DEFAULT_STATE_DIR: Final = Path("/var/lib/codenames-table")


class ConfigError(FirmwareError, ValueError):
    """A config file that cannot be used; the message is one line naming the file and the key."""


def _error(source: str, detail: str) -> ConfigError:
    # The source is a path given by the user and shown whole; the rest may quote the file.
    return ConfigError(f"{source}: {clip(detail)}")


MAX_PATH = 4096
"""Longest state_dir, in characters (Linux's PATH_MAX)."""

SLEEP_AFTER_S = (10, 86_400)
DEBOUNCE_MS = (0, 500)
PRESS_CONFIRM_RANGE_MS = (LONGEST_GLITCH_MS + 0.5, 100)
"""A confirmation no longer than the longest glitch would let a glitch press a pad."""
STUCK_AFTER_S = (0.5, 3_600)
# Below 2 kΩ a row holding six closed switches sinks over 10 mA, and the 1N4148's drop at that
# current nears the Pi's 0.8 V low threshold; above 1 MΩ the Pi's own ~65 kΩ does all the pulling.
COLUMN_PULLUP_OHMS = (2_000, 1_000_000)


TOUCH_DEBOUNCE_MS = 30.0
"""The touch chips' debounce unless `[input] debounce_ms` is set: 7 extra samples of 4 ms, the
most the chips' DEBOUNCE register holds."""


@dataclass(frozen=True)
class InputConfig:
    """How the switches are read: the switch matrix, or the capacitive pads (`mpr121`)."""

    debounce_ms: float | None = setting(
        None,
        number(*DEBOUNCE_MS, "milliseconds"),
        """0-500: a switch (and the encoder's push) is let go once open this long; left out:
        10, twice the switches' 5 ms rated bounce. Set, it is also the touch chips' debounce
        (backend = "mpr121"; left out: 30)""",
    )
    """How long a switch must be open to be released (the matrix, the encoder's push), and the
    touch chips' debounce; unset, `release_debounce_ms` and `touch_debounce_ms` apply."""
    press_confirm_ms: float = setting(
        PRESS_CONFIRM_MS,
        number(*PRESS_CONFIRM_RANGE_MS, "milliseconds"),
        """1.5-100: a switch is pressed once closed this long without a break; longer than a
        1 ms electrical glitch (ESD, mains), so none covers a card""",
    )
    """How long a matrix switch must be closed without a break to be a press."""
    stuck_after_s: float = setting(
        10.0,
        number(*STUCK_AFTER_S, "seconds"),
        "0.5-3600: a pad held longer is reported as stuck, ignored until released",
    )
    column_pullup_ohms: float = setting(
        COLUMN_PULL_UP_OHMS,
        Kind(
            lambda v: (
                v == "internal" or (is_number(v) and v == 0) or within(*COLUMN_PULLUP_OHMS)(v)
            ),
            'ohms from {} to {}, or 0 or "internal" (none: the Pi\'s own pull-up)'.format(
                *COLUMN_PULLUP_OHMS
            ),
            lambda v: 0.0 if v == "internal" else float(v),
        ),
        """the matrix columns' resistors to 3.3 V, 2000-1000000 ohms; 0 or "internal" when they
        were left out (the Pi's own pull-up alone, taken as 65 kOhm, its weakest). Sets the wait
        after each row change (5 RC): too short a wait shows a held pad on row 1 of its column
        as well""",
    )
    """The matrix columns' external pull-up resistors; 0: none, the Pi's own alone. The scanner's
    settle time after each row change follows from it (`settle_s`)."""
    backend: str = setting(
        "matrix",
        one_of(("matrix", "mpr121"), '"matrix" or "mpr121"'),
        '"mpr121": capacitive pads under the cards (hardware/README.md), buttons too',
    )
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

    broker: str = required(
        # Only its type here: the address itself is checked by the fleet (`BrokerAddress.parse`),
        # the one validation of `run`, `run --check-config`, `selftest --fleet` and the café.
        Kind(lambda v: isinstance(v, str), 'a text, as "mqtt://host:1883"'),
        'or "mqtts://host:8883" (TLS)',
    )
    """`mqtt://host:port` or `mqtts://host:port` (TLS)."""
    table: str = required(
        # The id is a topic level: no wildcard, no separator, nothing a view would misread.
        Kind(
            lambda v: isinstance(v, str) and bool(re.fullmatch(r"[A-Za-z0-9_-]{1,64}", v)),
            "1 to 64 letters, digits, - or _",
        ),
        "this table's id in its topics: 1-64 letters, digits, - or _",
    )
    """This table's id, the second level of its topics."""
    ca_file: Path | None = setting(
        None,
        printable(MAX_PATH, "a file path", Path),
        "TLS: the CA to trust (the system's without it)",
    )
    username: str | None = setting(
        None, printable(256, "1 to 256 printable characters"), "its name at the broker"
    )
    password_file: Path | None = setting(
        None,
        printable(MAX_PATH, "a file path", Path),
        "LoadCredential=, never here",
    )
    """Read when connecting (systemd's `LoadCredential=`): a password never sits in the config."""
    keepalive_s: int = setting(
        15,
        whole(2, 3600, "seconds from 2 to 3600"),
        "2-3600: a table that dies shows offline within 1.5 times this",
    )


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
    sleep_after_s: float = setting(
        600.0,
        number(*SLEEP_AFTER_S, "seconds"),
        "without input this long (10-86400 s), the OLED and the LED key dim",
    )
    state_dir: Path = setting(
        DEFAULT_STATE_DIR,
        printable(MAX_PATH, f"a directory path of 1 to {MAX_PATH} printable characters", Path),
        """where games and settings are saved: for `run`, an absolute path that survives a
        reboot (not under /tmp, /var/tmp, /run or /dev/shm)""",
    )
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


_SECTIONS = ("table", "input", "pins", "led", "oled", "fleet")


def parse_config(data: Mapping[str, Any], source: str) -> TableConfig:
    """Check a config table as `tomllib` reads it and build the `TableConfig`."""
    try:
        return _parse(data)
    except SettingError as error:
        raise _error(source, str(error)) from None
    except PinMapError as error:
        detail = ": ".join(part for part in (error.key, error.problem) if part)
        raise _error(source, detail) from error


def _parse(data: Mapping[str, Any]) -> TableConfig:
    for name in data:
        if name not in _SECTIONS:
            raise SettingError(name, f"unknown section (known: {', '.join(_SECTIONS)})")
    table = read_values(
        data.get("table", {}), "table", (*declared(TableSettings), *declared(TableConfig))
    )
    pins = load_pin_map()
    if "pins" in data:
        pins = parse_pin_map(_over_default_pins(data["pins"]), "", key_prefix="pins.")
    layout, style = _led(data.get("led", {}))
    # The palette is a menu setting too; [led.style] gives its default with the other colours.
    colour_blind = style.colour_blind_team if style.colour_blind else None
    settings_names = {item.field for item in declared(TableSettings)}
    settings = TableSettings(
        **{name: value for name, value in table.items() if name in settings_names},
        colour_blind=colour_blind,
    )
    oled = _oled(data.get("oled", {}), pins)
    return TableConfig(
        pins=pins,
        led_layout=layout,
        led_style=style,
        oled=oled,
        inputs=_inputs(data.get("input", {}), pins, oled),
        settings=settings,
        fleet=read(FleetConfig, data["fleet"], "fleet") if "fleet" in data else None,
        **{name: value for name, value in table.items() if name not in settings_names},
    )


_ADDRESSES = "three different addresses from 0x5A to 0x5D"


@dataclass(frozen=True)
class TouchPadsKeys:
    """`[input.mpr121]`: the keys that make the `TouchPadsConfig` of a capacitive table."""

    addresses: tuple[int, ...] = setting(
        TouchPadsConfig.addresses,
        distinct(3, lambda a: type(a) is int and 0x5A <= a <= 0x5D, _ADDRESSES),
        "ADDR to GND, 3.3 V, SDA",
    )
    irq_pins: tuple[int, ...] = setting(
        TouchPadsConfig.irq_pins,
        distinct(3, GPIO.accepts, "three different BCM GPIO numbers 0–27"),
        "each chip's IRQ line; default: the matrix's columns A-C, free without it",
    )
    touch_threshold: int = setting(
        PadThresholds.touch,
        whole(2, 255, "a whole number 2–255"),
        """2-255 counts below the baseline, for pads not calibrated: the chips say "something is
        near" at a third of it, and the pad is then read for a finger's signal (a jump of 0.25 pF
        that stops at once: not a hand's)""",
    )
    release_threshold: int = setting(
        PadThresholds.release,
        whole(1, 254, "a whole number 1–254"),
        "1-254, under touch_threshold: under this drop (and under the third) a pad is let go",
    )
    pads: Mapping[str, Any] | None = setting(
        None,
        Kind(lambda v: isinstance(v, Mapping), "a table of pad = [touch, release]"),
        """a pad's or button's own [touch, release] in counts, as `codenames-table selftest
        --calibrate` measures and writes them: the finger's jump the pad needs, and its
        release""",
    )


def _inputs(table: object, pins: PinMap, oled: OledConfig) -> InputConfig:
    """`[input]` with its `[input.mpr121]`: thresholds with their hysteresis, and IRQ pins that
    no other device uses (the matrix's pins are free on a capacitive table)."""
    values = read_values(table, "input", declared(InputConfig), tables=("mpr121",))
    key = "input.mpr121"
    touch = read_values(values.pop("mpr121", {}), key, declared(TouchPadsKeys))

    def thresholds(name: str, pair: tuple[int, int]) -> PadThresholds:
        try:
            return PadThresholds(*pair)
        except ValueError:
            raise SettingError(
                f"{key}.{name}",
                "expected touch and release thresholds, release below touch "
                f"(1–255), got {shown(list(pair))}",
            ) from None

    default = thresholds(
        "release_threshold",
        (
            touch.get("touch_threshold", PadThresholds.touch),
            touch.get("release_threshold", PadThresholds.release),
        ),
    )
    pads = []
    for name, pair in touch.get("pads", {}).items():
        try:
            switch = parse_switch(name)
        except ValueError as error:
            raise SettingError(f"{key}.pads.{name}", str(error)) from None
        if not (isinstance(pair, list) and len(pair) == 2 and all(type(v) is int for v in pair)):
            raise SettingError(
                f"{key}.pads.{name}", f"expected [touch, release], got {shown(pair)}"
            )
        pads.append((switch, thresholds(f"pads.{name}", (pair[0], pair[1]))))
    irq_pins = touch.get("irq_pins", pins.matrix_columns[:3])
    if values.get("backend") == "mpr121":
        taken = {use.gpio: use.key for use in pins.uses() if not use.key.startswith("matrix")}
        for name, pin in _reset_pins(oled):
            taken[pin] = name
        for pin in irq_pins:
            if pin in RESERVED_PINS:
                raise SettingError(
                    f"{key}.irq_pins", f"GPIO {pin} is reserved ({RESERVED_PINS[pin]})"
                )
            if pin in taken:
                raise SettingError(f"{key}.irq_pins", f"GPIO {pin} is already {taken[pin]}")
    mpr121 = TouchPadsConfig(
        addresses=touch.get("addresses", TouchPadsConfig.addresses),
        irq_pins=irq_pins,
        default=default,
        pads=tuple(pads),
    )
    return InputConfig(**values, mpr121=mpr121)


def _reset_pins(oled: OledConfig) -> list[tuple[str, int]]:
    """The displays' RES lines that are set, by key."""
    pins = [("oled.reset_pin", oled.reset_pin)]
    if oled.second is not None:
        pins.append(("oled.second.reset_pin", oled.second.reset_pin))
    return [(key, pin) for key, pin in pins if pin is not None]


def _oled(table: object, pins: PinMap) -> OledConfig:
    """`[oled]` and its `[oled.second]`, their addresses and reset lines checked against each
    other and the pin map."""
    values = read_values(table, "oled", declared(OledConfig), tables=("second",))
    if "second" in values:
        second = read(SecondOled, values["second"], "oled.second")
        if second.address == pins.oled_address:
            raise SettingError(
                "oled.second.address", f"0x{second.address:02X} is the first OLED's too"
            )
        values["second"] = second
    oled = OledConfig(**values, address=pins.oled_address)
    taken = {use.gpio: use.key for use in pins.uses()}
    for key, pin in _reset_pins(oled):
        if pin in taken:
            raise SettingError(key, f"GPIO {pin} is already {taken[pin]}")
        if pin in RESERVED_PINS:
            raise SettingError(key, f"GPIO {pin} is reserved ({RESERVED_PINS[pin]})")
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


def _led(table: object) -> tuple[LedLayout, LedStyle]:
    parts = read_values(table, "led", (), tables=("layout", "style"))
    style = parts.get("style", {})
    if "brightness" in style:
        raise SettingError("led.style.brightness", "set [table] brightness (1-5) instead")
    return read(LedLayout, parts.get("layout", {}), "led.layout"), read(
        LedStyle, style, "led.style"
    )
