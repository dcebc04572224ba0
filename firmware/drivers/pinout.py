"""The pin map: which BCM GPIO drives what, loaded from TOML and checked before anything is wired.

The default lives in `hardware/pinout.toml` and ships inside the package as
`firmware/drivers/pinout.toml` (a symlink, so there is one file to edit). A config file can embed a
complete `[pins]` table of the same layout and get the same checks through `parse_pin_map`:

>>> pins = load_pin_map()
>>> pins.matrix_rows, pins.led_data
((5, 6, 13, 19, 26), 10)
>>> DEFAULT_PIN_MAP == pins
True
>>> parse_pin_map({"matrix": {}}, "config.toml", key_prefix="pins.")
Traceback (most recent call last):
...
firmware.drivers.pinout.PinMapError: config.toml: pins.matrix.rows: missing
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import MISSING, dataclass, replace
from enum import StrEnum
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from firmware.config_keys import (
    Declared,
    Kind,
    SettingError,
    declared,
    read_values,
    required,
    setting,
)
from firmware.errors import FirmwareError

MATRIX_ROW_COUNT = 5
"""Switch-matrix rows: the card rows 1–5, top to bottom."""

MATRIX_COLUMN_COUNT = 6
"""Switch-matrix columns: the card columns A–E, then the console buttons."""

BCM_GPIO_RANGE = range(28)
"""GPIO numbers that reach the 40-pin header of every Pi the table supports."""

LED_SPI_DATA = 10
"""SPI0 MOSI, the only pin an SPI-driven WS2812 chain can use on every Pi model."""

OLED_I2C_BUS = 1
"""I2C1 on GPIO 2 and 3: the bus `firmware.drivers.oled` opens (Blinka's `board.SCL`,
`board.SDA`)."""

RESERVED_PINS: Mapping[int, str] = MappingProxyType(
    {
        0: "ID_SD, the HAT ID EEPROM bus",
        1: "ID_SC, the HAT ID EEPROM bus",
        2: "I2C1 SDA, the OLED bus",
        3: "I2C1 SCL, the OLED bus",
        7: "SPI0 CE1, claimed by the SPI driver",
        8: "SPI0 CE0, claimed by the SPI driver",
        9: "SPI0 MISO, claimed by the SPI driver",
        10: "SPI0 MOSI, the LED data line",
        11: "SPI0 SCLK, claimed by the SPI driver",
        14: "UART TXD, the serial console",
        15: "UART RXD, the serial console",
    }
)
"""Pins that belong to a bus; none may be used as a plain GPIO (MOSI only as the LED data)."""

HEADER_PINS: Mapping[int, int] = MappingProxyType(
    {
        0: 27,
        1: 28,
        2: 3,
        3: 5,
        4: 7,
        5: 29,
        6: 31,
        7: 26,
        8: 24,
        9: 21,
        10: 19,
        11: 23,
        12: 32,
        13: 33,
        14: 8,
        15: 10,
        16: 36,
        17: 11,
        18: 12,
        19: 35,
        20: 38,
        21: 40,
        22: 15,
        23: 16,
        24: 18,
        25: 22,
        26: 37,
        27: 13,
    }
)
"""Physical 40-pin header position of each BCM GPIO, for wiring by hand."""

_DEFAULT_RESOURCE = "pinout.toml"
_OLED_ADDRESSES = range(0x08, 0x78)  # 7-bit addresses outside the I2C reserved blocks


class PinoutError(FirmwareError):
    """Root of every error raised while reading a pin map."""


class PinMapError(PinoutError, ValueError):
    """A pin map that is malformed or wires the table impossibly; names the offending key."""

    def __init__(self, key: str, problem: str, source: str = "") -> None:
        self.key = key
        self.problem = problem
        self.source = source
        where = ": ".join(part for part in (source, key) if part)
        super().__init__(f"{where}: {problem}" if where else problem)

    def located(self, source: str, key_prefix: str = "") -> PinMapError:
        """The same error, told where it came from: a file and the table it sits in."""
        key = f"{key_prefix}{self.key}" if self.key else key_prefix.rstrip(".")
        return PinMapError(key, self.problem, source)


class PinMapFileError(PinoutError, OSError):
    """A pin-map file that cannot be read."""


class LedBackend(StrEnum):
    """How the firmware puts pixel data on the LED data line."""

    AUTO = "auto"
    """The default: the backend this Pi's model needs (`firmware.service.pi_model.led_backend_for`:
    `ws281x` on a Pi 3, 4 or Zero 2 W, `spi` on a Pi 5 and on any model not known)."""

    WS281X = "ws281x"
    """rpi_ws281x in SPI mode on GPIO 10: Pi Zero 2 W, 3 and 4; not the Pi 5."""

    SPI = "spi"
    """adafruit-circuitpython-neopixel-spi over spidev on GPIO 10: the Pi 5 (works on all)."""

    VIRTUAL = "virtual"
    """No hardware: the desktop twin. The data pin is not driven."""

    @property
    def needs_spi(self) -> bool:
        """Whether this backend drives the data line from SPI0 MOSI."""
        return self is not LedBackend.VIRTUAL


@dataclass(frozen=True)
class PinUse:
    """One GPIO and what it is wired to."""

    key: str
    """The pin-map key that sets it, e.g. `matrix.rows`."""

    label: str
    """What the pin does, as the wiring table names it, e.g. `Matrix row 1`."""

    gpio: int
    """BCM GPIO number."""

    @property
    def header_pin(self) -> int:
        """Position on the 40-pin header."""
        return HEADER_PINS[self.gpio]


def _kind(value: object) -> str:
    """A value's TOML type, for messages that talk the file's language."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, Mapping):
        return "a table"
    return f"a {type(value).__name__}"


def _is_int(value: object) -> bool:
    # bool is an int subclass in Python; `true` in the file is still a mistake.
    return isinstance(value, int) and not isinstance(value, bool)


def _ints_got(value: object) -> str:
    if isinstance(value, list):
        return next(_kind(item) for item in value if not _is_int(item))
    return _kind(value)


# Only the type here: which pins a table may use is a question of the whole map (`PinMap`).
_INTEGER = Kind(_is_int, "an integer", got=_kind)
_PIN = _INTEGER
_SENSE = Kind(
    lambda v: v is False or _is_int(v),
    "a GPIO number, or false for none",
    lambda v: None if v is False else v,
    _kind,
)
_PINS = Kind(
    lambda v: isinstance(v, list) and all(_is_int(item) for item in v),
    "an array of integers",
    tuple,
    _ints_got,
)


@dataclass(frozen=True)
class PinMap:
    """Every pin the table uses, BCM numbering; construction checks it (`PinMapError`)."""

    matrix_rows: tuple[int, ...] = required(
        _PINS, "rows 1-5, top to bottom: outputs, driven low one at a time", key="matrix.rows"
    )
    """Rows 1–5, top to bottom: outputs, driven low one at a time."""

    matrix_columns: tuple[int, ...] = required(
        _PINS,
        "columns A-E, then the console buttons' column: inputs with pull-ups",
        key="matrix.columns",
    )
    """Columns A–E, then the console column: inputs with pull-ups."""

    encoder_a: int = required(_PIN, "the rotary encoder's A", key="encoder.a")
    encoder_b: int = required(_PIN, "the rotary encoder's B", key="encoder.b")
    encoder_push: int = required(_PIN, "the rotary encoder's push switch", key="encoder.push")
    buzzer: int | None = required(
        _PIN, "the passive buzzer's transistor (no [buzzer]: no buzzer)", key="buzzer.pin"
    )
    """The passive buzzer's transistor, or None when the table has no buzzer."""

    i2c_bus: int = required(_INTEGER, "always 1: I2C1 on GPIO 2 and 3", key="oled.bus")
    """Linux I2C bus number of the OLED: always `OLED_I2C_BUS`, written out so the file says so."""

    oled_address: int = required(_INTEGER, "the first display's 7-bit address", key="oled.address")
    """7-bit I2C address of the SSD1306."""

    led_data: int = required(_PIN, "the LED key's data: GPIO 10, SPI0 MOSI", key="led.data")
    led_backend: LedBackend = setting(
        LedBackend.AUTO,
        Kind(
            lambda v: isinstance(v, str) and v in {b.value for b in LedBackend},
            "one of " + ", ".join(f'"{backend.value}"' for backend in LedBackend),
            LedBackend,
            lambda v: repr(v) if isinstance(v, str) else _kind(v),
        ),
        """what drives the LED key: "auto" picks by the Pi's model, "ws281x" on a Pi 3, 4,
        400, Zero 2 W, CM3 or CM4, "spi" on a Pi 5, 500, CM5 or any other; "ws281x" (not on a
        Pi 5), "spi" (every Pi) or "virtual" (none)""",
        key="led.backend",
    )
    led_sense: int | None = setting(
        None,
        _SENSE,
        """the LED supply's sense input: a divider from the LEDs' 5 V, high while the supply is
        there; false: no divider fitted, the supply goes unwatched""",
        key="led.sense",
    )
    """The LED supply's sense input (a divider from the LEDs' 5 V, high while it is there), or
    None when the table has none and the supply goes unwatched."""

    def __post_init__(self) -> None:
        _check_counts(self)
        uses = list(self._gpio_uses())
        for use in uses:
            _check_pin(use)
        _check_unique(uses)
        if self.led_backend.needs_spi and self.led_data != LED_SPI_DATA:
            drives = (
                "either hardware backend, which auto picks, drives"
                if self.led_backend is LedBackend.AUTO
                else f"the {self.led_backend.value} backend drives"
            )
            raise PinMapError(
                "led.data",
                f"{drives} SPI0 MOSI, so the LED data pin must be GPIO {LED_SPI_DATA}, "
                f"not {self.led_data}",
            )
        if self.i2c_bus != OLED_I2C_BUS:
            # The driver opens I2C1 and nothing else: another number would be ignored silently.
            raise PinMapError(
                "oled.bus",
                f"the OLED driver uses I2C bus {OLED_I2C_BUS} (GPIO 2 and 3), not {self.i2c_bus}",
            )
        if self.oled_address not in _OLED_ADDRESSES:
            raise PinMapError(
                "oled.address",
                f"must be a 7-bit I2C address 0x08–0x77, not {self.oled_address:#04x}",
            )

    def _gpio_uses(self) -> Iterator[PinUse]:
        """The pins this map sets itself, in file order (the bus pins are implied)."""
        for row, gpio in enumerate(self.matrix_rows, start=1):
            yield PinUse("matrix.rows", f"Matrix row {row}", gpio)
        for column, gpio in enumerate(self.matrix_columns, start=1):
            yield PinUse("matrix.columns", f"Matrix column {_column_name(column)}", gpio)
        yield PinUse("encoder.a", "Encoder A", self.encoder_a)
        yield PinUse("encoder.b", "Encoder B", self.encoder_b)
        yield PinUse("encoder.push", "Encoder push", self.encoder_push)
        if self.buzzer is not None:
            yield PinUse("buzzer.pin", "Buzzer", self.buzzer)
        yield PinUse("led.data", "LED data", self.led_data)
        if self.led_sense is not None:
            yield PinUse("led.sense", "LED supply sense", self.led_sense)

    def uses(self) -> tuple[PinUse, ...]:
        """Every header GPIO the table is wired to, the OLED's I2C pins included."""
        uses = list(self._gpio_uses())
        data = next(i for i, use in enumerate(uses) if use.key == "led.data")
        uses[data:data] = [PinUse("oled.bus", "OLED SDA", 2), PinUse("oled.bus", "OLED SCL", 3)]
        return tuple(uses)


def _column_name(column: int) -> str:
    """`1 (A)` … `5 (E)` for the card columns, `6 (console)` for the buttons."""
    return (
        f"{column} (console)"
        if column == MATRIX_COLUMN_COUNT
        else f"{column} ({'ABCDE'[column - 1]})"
    )


def _check_counts(pins: PinMap) -> None:
    for key, values, count in (
        ("matrix.rows", pins.matrix_rows, MATRIX_ROW_COUNT),
        ("matrix.columns", pins.matrix_columns, MATRIX_COLUMN_COUNT),
    ):
        if len(values) != count:
            raise PinMapError(key, f"expected {count} pins, got {len(values)}")


def _check_pin(use: PinUse) -> None:
    if use.gpio not in BCM_GPIO_RANGE:
        raise PinMapError(
            use.key, f"GPIO {use.gpio} is not on the header (BCM 0–{BCM_GPIO_RANGE[-1]})"
        )
    reserved = RESERVED_PINS.get(use.gpio)
    # MOSI is reserved for exactly one use: the LED data line.
    if reserved is not None and not (use.key == "led.data" and use.gpio == LED_SPI_DATA):
        raise PinMapError(use.key, f"GPIO {use.gpio} is reserved ({reserved})")


def _check_unique(uses: list[PinUse]) -> None:
    seen: dict[int, PinUse] = {}
    for use in uses:
        first = seen.setdefault(use.gpio, use)
        if first is not use:
            raise PinMapError(
                use.key, f"GPIO {use.gpio} is used twice: {first.label} and {use.label}"
            )


_REQUIRED_SECTIONS = ("matrix", "encoder", "oled", "led")


def _sections() -> dict[str, list[Declared]]:
    """The pin map's keys by the table they sit in, each named as in its table."""
    sections: dict[str, list[Declared]] = {}
    for item in declared(PinMap):
        section, _, key = item.key.partition(".")
        sections.setdefault(section, []).append(replace(item, key=key))
    return sections


def parse_pin_map(data: Mapping[str, object], source: str, *, key_prefix: str = "") -> PinMap:
    """Check a pin-map table (as `tomllib` reads it) and build the `PinMap`.

    `source` names where the table came from (a file path) and `key_prefix` where it sits in
    that file (`"pins."` for a config file's `[pins]` table); both only go into error messages.
    The table must be complete; only `[buzzer]` and the keys declared with a default
    (`led.backend`, `led.sense`: then, as with `sense = false`, the LED supply goes unwatched)
    may be left out.
    """
    try:
        return _parse(data)
    except SettingError as error:
        raise PinMapError(error.key, error.problem).located(source, key_prefix) from None
    except PinMapError as error:
        raise error.located(source, key_prefix) from None


def _parse(data: Mapping[str, object]) -> PinMap:
    if not isinstance(data, Mapping):
        raise PinMapError("", f"expected a table, got {_kind(data)}")
    sections = _sections()
    for section in data:
        if section not in sections:
            raise PinMapError(section, f"unknown section (known: {', '.join(sections)})")
    values: dict[str, Any] = {"buzzer": None}
    for section, keys in sections.items():
        if section not in data:
            if section in _REQUIRED_SECTIONS:
                raise PinMapError(section, "missing section")
            continue
        table = data[section]
        if not isinstance(table, Mapping):
            raise PinMapError(section, f"expected a table, got {_kind(table)}")
        for item in keys:
            # A key with a default (`setting`) may be left out; one without (`required`) not.
            if item.key not in table and item.default is MISSING:
                raise PinMapError(f"{section}.{item.key}", "missing")
        values.update(read_values(table, section, keys))
    return PinMap(**values)


def default_pin_table() -> dict[str, Any]:
    """The default pin map as TOML tables, for a config that changes only part of it."""
    return tomllib.loads(
        resources.files("firmware.drivers").joinpath(_DEFAULT_RESOURCE).read_text("utf-8")
    )


def load_pin_map(path: Path | None = None) -> PinMap:
    """Read and check a pin-map TOML file; None reads the default that ships with the package."""
    if path is None:
        source = f"firmware/drivers/{_DEFAULT_RESOURCE} (the default pin map)"
        text = resources.files("firmware.drivers").joinpath(_DEFAULT_RESOURCE).read_text("utf-8")
    else:
        source = str(path)
        try:
            text = path.read_text("utf-8")
        except OSError as error:
            raise PinMapFileError(
                f"{source}: cannot read the pin map: {error.strerror or error}"
            ) from error
        except UnicodeDecodeError as error:
            raise PinMapError("", f"not UTF-8 text ({error.reason})", source) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PinMapError("", f"not valid TOML: {error}", source) from None
    return parse_pin_map(data, source)


DEFAULT_PIN_MAP = load_pin_map()
"""The default that ships with the package: what a driver handed no pins is wired to."""
