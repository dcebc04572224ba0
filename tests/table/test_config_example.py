"""`config.example.toml` and the declared keys agree: every key declared on the types the config
builds is in the example with its default and its help, and the example has no other key."""

from __future__ import annotations

import re
import tomllib
from dataclasses import MISSING, dataclass

import pytest

from firmware.config_keys import Declared, declared, read_values
from firmware.drivers.led_layout import LedLayout
from firmware.drivers.oled import OledConfig, SecondOled
from firmware.drivers.pinout import PinMap
from firmware.table.config import FleetConfig, InputConfig, TableConfig, TouchPadsKeys
from firmware.table.led_pattern import LedStyle
from firmware.table.settings import TableSettings

from ..paths import REPO

EXAMPLE = REPO / "config.example.toml"

SECTIONS: dict[str, tuple[Declared, ...]] = {
    "table": (*declared(TableSettings), *declared(TableConfig)),
    "input": declared(InputConfig),
    "input.mpr121": declared(TouchPadsKeys),
    "oled": declared(OledConfig),
    "oled.second": declared(SecondOled),
    "led.layout": declared(LedLayout),
    "led.style": declared(LedStyle),
    "fleet": declared(FleetConfig),
    **{
        f"pins.{section}": tuple(
            item for item in declared(PinMap) if item.key.startswith(f"{section}.")
        )
        for section in ("matrix", "encoder", "buzzer", "oled", "led")
    },
}
"""Every section of the config by its name in the file, and the keys declared for it."""

_SECTION = re.compile(r"^(?:# )?\[(?P<name>[a-z0-9_.]+)\]")
_KEY = re.compile(r"^(?P<commented># )?(?P<key>[a-z0-9_]+) = (?P<rest>.*)$")
_MORE_HELP = re.compile(r"^#?\s+# (?P<text>.*)$")


@dataclass
class ExampleKey:
    """A key as the example writes it: its value, whether it is commented out, and its help."""

    section: str
    key: str
    value: object
    commented: bool
    help: list[str]


def example_keys() -> list[ExampleKey]:
    """The keys of the example, commented-out ones included, each with its help comment and the
    aligned comment lines that carry it on."""
    found: list[ExampleKey] = []
    section = ""
    current: ExampleKey | None = None
    for line in EXAMPLE.read_text(encoding="utf-8").splitlines():
        if heading := _SECTION.match(line):
            section, current = heading["name"], None
        elif key := _KEY.match(line):
            parts = re.split(r"\s+# ", key["rest"], maxsplit=1)
            value = tomllib.loads(f"v = {parts[0]}")["v"]
            current = ExampleKey(
                section, key["key"], value, bool(key["commented"]), parts[1:] or []
            )
            found.append(current)
        elif (more := _MORE_HELP.match(line)) and current is not None:
            current.help.append(more["text"])
        else:
            current = None
    return found


EXAMPLE_KEYS = example_keys()


def test_the_example_names_exactly_the_declared_keys() -> None:
    written = {(item.section, item.key) for item in EXAMPLE_KEYS}
    keys = {
        (section, item.key.rpartition(".")[2])
        for section, items in SECTIONS.items()
        for item in items
    }
    assert written == keys
    assert len(written) == len(EXAMPLE_KEYS), "a key written twice"


@pytest.mark.parametrize("item", EXAMPLE_KEYS, ids=lambda item: f"{item.section}.{item.key}")
def test_each_key_has_its_declared_help_and_default(item: ExampleKey) -> None:
    by_key = {declared.key.rpartition(".")[2]: declared for declared in SECTIONS[item.section]}
    key = by_key[item.key]
    assert " ".join(" ".join(item.help).split()) == key.setting.help
    # The value written is accepted; uncommented, it is the default.
    value = read_values({key.key.rpartition(".")[2]: item.value}, item.section, [_alone(key)])
    if item.commented:
        return
    assert key.default is not MISSING and key.default is not None, "only a set default is written"
    assert value[key.field] == key.default


def _alone(key: Declared) -> Declared:
    """The key as its own section's key (the pin map's keys are named with their table)."""
    return Declared(key.key.rpartition(".")[2], key.field, key.setting, key.default)


def test_a_key_without_a_default_is_written_commented_out() -> None:
    commented = {(item.section, item.key) for item in EXAMPLE_KEYS if item.commented}
    for section, items in SECTIONS.items():
        for item in items:
            if item.default is MISSING or item.default is None:
                assert (section, item.key.rpartition(".")[2]) in commented
