"""The config file's keys, each declared once on the dataclass field it sets: what the key
accepts (its range), its default (the field's) and the help `config.example.toml` shows beside it;
and the one reader that checks a TOML table against them.

A key is a field made with `setting`:

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Screen:
...     contrast: int = setting(127, whole(0, 255), "0-255 while in use")
>>> read(Screen, {"contrast": 16}, "oled")
Screen(contrast=16)
>>> read(Screen, {"contrast": 300}, "oled")
Traceback (most recent call last):
...
firmware.config_keys.SettingError: oled.contrast: expected a whole number 0–255, got 300

A new key is one such field on the type its section builds and one line `key = default  # help`
in `config.example.toml` (`tests/table/test_config_example.py` holds the two together); a key
whose name differs from its field says so with `key=` (the pin map's `key="led.data"`).

Every value is checked here, where it is read, so that the types it builds (and the drivers they
are handed to) trust their fields: no value (`inf`, `1e300`, `nan`) reaches a timer or a loop that
it would break or hang. An error is one line naming the key and what it accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from typing import Any, TypeVar

from board_rules.text import clip
from firmware.errors import FirmwareError

T = TypeVar("T")

_SETTING = "config_key"


class SettingError(FirmwareError, ValueError):
    """A config value that is not accepted; the message is one line, `key: what is wrong`."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(clip(f"{key}: {problem}"))
        self.key = key
        self.problem = problem


def _same(value: Any) -> Any:
    return value


def shown(value: object) -> str:
    """`value` as a message quotes it (`clip` then cuts it to fit one line)."""
    try:
        return repr(value)
    except (RecursionError, ValueError):  # nested too deep, an integer too long to print
        return "a value too large to show"


@dataclass(frozen=True)
class Kind:
    """What a key accepts (`accepts`, worded as `expected`), how its TOML value becomes the
    field's value (`read`) and how a refused value is quoted (`got`)."""

    accepts: Callable[[Any], bool]
    expected: str
    read: Callable[[Any], Any] = _same
    got: Callable[[Any], str] = shown


@dataclass(frozen=True)
class Setting:
    """One key: its kind, its help and, when it differs from the field's name, its name."""

    kind: Kind
    help: str
    key: str | None = None


def setting(default: Any, kind: Kind, help: str, *, key: str | None = None) -> Any:
    """A dataclass field that a config key sets; `default` is the key's default."""
    return field(default=default, metadata={_SETTING: Setting(kind, " ".join(help.split()), key)})


def required(kind: Kind, help: str, *, key: str | None = None) -> Any:
    """A dataclass field that a config key must set when its section is there."""
    return field(metadata={_SETTING: Setting(kind, " ".join(help.split()), key)})


@dataclass(frozen=True)
class Declared:
    """A declared key as the reader and the example's test see it."""

    key: str
    field: str
    setting: Setting
    default: Any
    """The field's default, or `MISSING` for a required key."""


def declared(cls: type) -> tuple[Declared, ...]:
    """The keys declared on the dataclass `cls`, in field order."""
    if not is_dataclass(cls):
        raise TypeError(f"{cls.__name__} is not a dataclass")
    found = []
    for item in fields(cls):
        info = item.metadata.get(_SETTING)
        if isinstance(info, Setting):
            default = item.default
            if default is MISSING and item.default_factory is not MISSING:
                default = item.default_factory()
            found.append(Declared(info.key or item.name, item.name, info, default))
    return tuple(found)


def read_values(
    table: object,
    section: str,
    keys: Collection[Declared],
    *,
    tables: Collection[str] = (),
) -> dict[str, Any]:
    """The values `table` (the TOML table at `section`) sets, by field name, each checked and
    read; `tables` are the names of its sub-tables, returned as they are (checked to be tables)."""
    if not isinstance(table, Mapping):
        raise SettingError(section, "expected a table")
    by_key = {item.key: item for item in keys}
    values: dict[str, Any] = {}
    for name, value in table.items():
        key = f"{section}.{name}"
        if name in tables:
            if not isinstance(value, Mapping):
                raise SettingError(key, f"expected a table: [{key}]")
            values[name] = value
            continue
        item = by_key.get(name)
        if item is None:
            raise SettingError(key, f"unknown key (known: {', '.join([*by_key, *tables])})")
        kind = item.setting.kind
        if not kind.accepts(value):
            raise SettingError(key, f"expected {kind.expected}, got {kind.got(value)}")
        values[item.field] = kind.read(value)
    for item in keys:
        if item.default is MISSING and item.field not in values:
            raise SettingError(f"{section}.{item.key}", f"required when [{section}] is set")
    return values


def read(cls: type[T], table: object, section: str, **given: Any) -> T:
    """The `cls` that `table` (at `section`) describes: its declared keys read, the others from
    `given` or their defaults."""
    return cls(**given, **read_values(table, section, declared(cls)))


# --- kinds ---


def is_number(value: object) -> bool:
    """An integer or a float, not a boolean (`true` is no number in a config)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def _figure(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def within(low: float, high: float) -> Callable[[Any], bool]:
    """A number from `low` to `high`; one chained comparison, so that nan (never in range) is
    refused too."""
    return lambda value: is_number(value) and low <= value <= high


def number(low: float, high: float, unit: str, *, off: bool = False) -> Kind:
    """A number of `unit` from `low` to `high`, read as a float; `off`: 0 too (the feature off)."""
    span = f"{unit} from {_figure(low)} to {_figure(high)}"
    inside = within(low, high)
    if off:
        return Kind(lambda v: (is_number(v) and v == 0) or inside(v), f"0 (off) or {span}", float)
    return Kind(inside, span, float)


def whole(low: int, high: int, expected: str | None = None) -> Kind:
    """A whole number from `low` to `high`."""
    return Kind(
        lambda v: type(v) is int and low <= v <= high,
        expected or f"a whole number {low}–{high}",
    )


def one_of(values: Collection[Any], expected: str, read: Callable[[Any], Any] = _same) -> Kind:
    """One of `values` (of their own type: `true` is not 1)."""
    return Kind(lambda v: any(type(v) is type(x) and v == x for x in values), expected, read)


FLAG = Kind(lambda v: isinstance(v, bool), "true or false")
"""`true` or `false`."""

GPIO = whole(0, 27, "a BCM GPIO number 0–27")
"""A BCM GPIO on the header."""


def printable(most: int, expected: str, read: Callable[[Any], Any] = _same) -> Kind:
    """A text of 1 to `most` printable characters (NUL cannot be in a path, and a control
    character in a name is always a typo)."""
    return Kind(
        lambda v: isinstance(v, str) and 0 < len(v) <= most and v.isprintable(), expected, read
    )


def distinct(count: int, item: Callable[[Any], bool], expected: str) -> Kind:
    """`count` different values, each accepted by `item`, read as a tuple."""
    return Kind(
        lambda v: (
            isinstance(v, list)
            and len(v) == count
            and all(item(x) for x in v)
            and len(set(v)) == count
        ),
        expected,
        tuple,
    )
