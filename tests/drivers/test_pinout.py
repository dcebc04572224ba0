"""The pin map: the shipped default, and every way a hand-edited map can be wrong."""

from __future__ import annotations

import copy
import doctest
import tomllib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hypothesis import given
from hypothesis import strategies as st

from board_rules.codenames.grid import Coord
from firmware.drivers import led_strip, pinout
from firmware.drivers.clock import VirtualClock
from firmware.drivers.console import Console
from firmware.drivers.oled import OledConfig
from firmware.drivers.pinout import (
    HEADER_PINS,
    RESERVED_PINS,
    LedBackend,
    PinMapError,
    PinMapFileError,
    PinoutError,
    load_pin_map,
    parse_pin_map,
)
from firmware.virtual.encoder import VirtualEncoder
from firmware.virtual.matrix_circuit import SwitchMatrixCircuit

from ..paths import REPO

HARDWARE_PINOUT = REPO / "hardware" / "pinout.toml"

Table = dict[str, Any]


def default_table() -> Table:
    """The default map as `tomllib` reads it, fresh for each test to edit."""
    with HARDWARE_PINOUT.open("rb") as file:
        return tomllib.load(file)


def test_default_map_has_the_documented_pins() -> None:
    pins = load_pin_map()
    assert pins.matrix_rows == (5, 6, 13, 19, 26)
    assert pins.matrix_columns == (17, 27, 22, 23, 24, 25)
    assert (pins.encoder_a, pins.encoder_b, pins.encoder_push) == (16, 20, 21)
    assert pins.buzzer == 12
    assert (pins.i2c_bus, pins.oled_address) == (1, 0x3C)
    assert pins.led_data == 10
    assert pins.led_backend is LedBackend.AUTO
    assert pins.led_sense == 18


def test_packaged_default_is_the_hardware_file() -> None:
    # One file to edit: the package's copy is a relative symlink to hardware/pinout.toml.
    packaged = REPO / "firmware" / "drivers" / "pinout.toml"
    assert packaged.is_symlink()
    assert packaged.readlink() == Path("../../hardware/pinout.toml")
    assert load_pin_map() == load_pin_map(HARDWARE_PINOUT)


def test_the_drivers_defaults_are_the_default_map() -> None:
    # Drivers and twins handed no pins (tests, the simulation) are wired as the shipped map, as
    # the table is.
    pins = load_pin_map()
    alone = MockFactory(pin_class=MockPWMPin)
    Console(VirtualClock(), pin_factory=alone).close()
    wired = {int(pin.info.name.removeprefix("GPIO")) for pin in alone.pins.values()}
    encoder = {pins.encoder_a, pins.encoder_b, pins.encoder_push}
    assert wired == {*pins.matrix_rows, *pins.matrix_columns} | encoder
    # The default twins drive those pins: what they close reaches the default console.
    factory, clock = MockFactory(pin_class=MockPWMPin), VirtualClock()
    circuit, knob = SwitchMatrixCircuit(factory), VirtualEncoder(factory)
    console = Console(clock, pin_factory=factory)
    try:
        circuit.press_pad(Coord.parse("C3"))
        knob.turn(1)
        clock.advance(0.1)
        said = {str(console.events.get_nowait()) for _ in range(2)}
        assert said == {"encoder +1", "pad C3 pressed"}
    finally:
        console.close()
    assert OledConfig().address == pins.oled_address
    assert pins.led_data == led_strip.DATA_PIN


def test_default_map_uses_no_pin_twice() -> None:
    gpios = [use.gpio for use in load_pin_map().uses()]
    assert len(gpios) == len(set(gpios)) == 19


def test_default_map_leaves_the_bus_pins_to_their_buses() -> None:
    owners = {use.gpio: use.label for use in load_pin_map().uses() if use.gpio in RESERVED_PINS}
    assert owners == {2: "OLED SDA", 3: "OLED SCL", 10: "LED data"}


def test_uses_name_every_pin_with_its_header_position() -> None:
    uses = {use.label: (use.gpio, use.header_pin) for use in load_pin_map().uses()}
    assert uses["Matrix row 1"] == (5, 29)
    assert uses["Matrix column 1 (A)"] == (17, 11)
    assert uses["Matrix column 6 (console)"] == (25, 22)
    assert uses["OLED SDA"] == (2, 3)
    assert uses["LED data"] == (10, 19)


def test_header_table_is_a_one_to_one_map_onto_gpio_positions() -> None:
    assert sorted(HEADER_PINS) == list(range(28))
    assert len(set(HEADER_PINS.values())) == 28
    # Header positions 1, 2, 4, 6, 9, 14, 17, 20, 25, 30, 34, 39 are power and ground.
    power = {1, 2, 4, 6, 9, 14, 17, 20, 25, 30, 34, 39}
    assert set(HEADER_PINS.values()) == set(range(1, 41)) - power


def test_map_without_buzzer_section_has_no_buzzer() -> None:
    table = default_table()
    del table["buzzer"]
    pins = parse_pin_map(table, "test")
    assert pins.buzzer is None
    assert "Buzzer" not in {use.label for use in pins.uses()}


def test_map_without_led_sense_leaves_the_supply_unwatched() -> None:
    table = default_table()
    del table["led"]["sense"]
    pins = parse_pin_map(table, "test")
    assert pins.led_sense is None
    assert "led.sense" not in {use.key for use in pins.uses()}


def test_led_sense_false_says_no_divider_is_fitted() -> None:
    table = default_table()
    table["led"]["sense"] = False
    assert parse_pin_map(table, "test").led_sense is None


def test_led_sense_is_a_plain_input_named_in_the_wiring_table() -> None:
    [use] = [use for use in load_pin_map().uses() if use.key == "led.sense"]
    assert (use.label, use.gpio, use.header_pin) == ("LED supply sense", 18, 12)


def test_led_backend_defaults_to_auto_and_accepts_ws281x_spi_and_virtual() -> None:
    table = default_table()
    del table["led"]["backend"]
    assert parse_pin_map(table, "test").led_backend is LedBackend.AUTO
    for backend in LedBackend:
        table["led"]["backend"] = backend.value
        assert parse_pin_map(table, "test").led_backend is backend


def test_virtual_backend_may_put_led_data_elsewhere() -> None:
    table = default_table()
    table["led"] = {"data": 4, "backend": "virtual"}
    assert parse_pin_map(table, "test").led_data == 4


def test_config_table_prefix_and_source_go_into_the_message() -> None:
    table = default_table()
    table["matrix"]["rows"] = [5, 6, 13, 19]
    with pytest.raises(PinMapError) as caught:
        parse_pin_map(table, "/etc/codenames/config.toml", key_prefix="pins.")
    assert caught.value.key == "pins.matrix.rows"
    assert caught.value.source == "/etc/codenames/config.toml"
    assert str(caught.value) == (
        "/etc/codenames/config.toml: pins.matrix.rows: expected 5 pins, got 4"
    )


def _set(section: str, key: str, value: object) -> Callable[[Table], None]:
    def edit(table: Table) -> None:
        table[section][key] = value

    return edit


def _add_section(table: Table) -> None:
    table["lights"] = {"pin": 4}


def _drop_section(table: Table) -> None:
    del table["encoder"]


def _drop_key(table: Table) -> None:
    del table["oled"]["address"]


def _section_not_table(table: Table) -> None:
    table["buzzer"] = 12


def _drop_buzzer_pin(table: Table) -> None:
    del table["buzzer"]["pin"]


# Each bad map: the edit that breaks it, the key the error must name, and words of its message.
BAD_MAPS = {
    "unknown section": (_add_section, "lights", "unknown section"),
    "unknown key": (_set("encoder", "button", 4), "encoder.button", "unknown key"),
    "missing section": (_drop_section, "encoder", "missing section"),
    "missing key": (_drop_key, "oled.address", "missing"),
    "buzzer section without pin": (_drop_buzzer_pin, "buzzer.pin", "missing"),
    "section not a table": (_section_not_table, "buzzer", "expected a table, got an integer"),
    "pin as string": (_set("encoder", "a", "16"), "encoder.a", "expected an integer, got a string"),
    "pin as boolean": (_set("encoder", "push", True), "encoder.push", "got a boolean"),
    "pin as float": (_set("encoder", "b", 20.0), "encoder.b", "got a float"),
    "rows not an array": (_set("matrix", "rows", 5), "matrix.rows", "expected an array"),
    "row not an integer": (_set("matrix", "rows", [5, 6, "13", 19, 26]), "matrix.rows", "string"),
    "too few rows": (_set("matrix", "rows", [5, 6, 13, 19]), "matrix.rows", "expected 5 pins"),
    "too many columns": (
        _set("matrix", "columns", [17, 27, 22, 23, 24, 25, 4]),
        "matrix.columns",
        "expected 6 pins, got 7",
    ),
    "pin above 27": (_set("encoder", "a", 28), "encoder.a", "GPIO 28 is not on the header"),
    "negative pin": (_set("buzzer", "pin", -1), "buzzer.pin", "GPIO -1 is not on the header"),
    "pin used twice": (
        _set("encoder", "push", 13),
        "encoder.push",
        "GPIO 13 is used twice: Matrix row 3 and Encoder push",
    ),
    "I2C SDA reused": (_set("encoder", "a", 2), "encoder.a", "GPIO 2 is reserved (I2C1 SDA"),
    "I2C SCL reused": (_set("buzzer", "pin", 3), "buzzer.pin", "GPIO 3 is reserved (I2C1 SCL"),
    "SPI MOSI reused": (
        _set("matrix", "columns", [17, 27, 22, 23, 24, 10]),
        "matrix.columns",
        "GPIO 10 is reserved (SPI0 MOSI",
    ),
    "SPI MISO reused": (_set("encoder", "b", 9), "encoder.b", "GPIO 9 is reserved (SPI0 MISO"),
    "SPI SCLK reused": (_set("encoder", "b", 11), "encoder.b", "(SPI0 SCLK"),
    "SPI CE0 reused": (_set("encoder", "b", 8), "encoder.b", "(SPI0 CE0"),
    "SPI CE1 reused": (_set("encoder", "b", 7), "encoder.b", "(SPI0 CE1"),
    "UART TX reused": (_set("matrix", "rows", [5, 6, 14, 19, 26]), "matrix.rows", "(UART TXD"),
    "UART RX reused": (_set("encoder", "push", 15), "encoder.push", "(UART RXD"),
    "LED data off MOSI": (
        _set("led", "data", 4),
        "led.data",
        "either hardware backend, which auto picks, drives SPI0 MOSI, so the LED data pin must"
        " be GPIO 10, not 4",
    ),
    "LED sense on a matrix row": (
        _set("led", "sense", 26),
        "led.sense",
        "GPIO 26 is used twice: Matrix row 5 and LED supply sense",
    ),
    "LED sense on the I2C bus": (_set("led", "sense", 3), "led.sense", "(I2C1 SCL"),
    "LED sense as a string": (_set("led", "sense", "18"), "led.sense", "got a string"),
    "LED sense as true": (_set("led", "sense", True), "led.sense", "got a boolean"),
    "LED data on MISO": (_set("led", "data", 9), "led.data", "(SPI0 MISO"),
    "unknown backend": (_set("led", "backend", "pwm"), "led.backend", "got 'pwm'"),
    "backend not a string": (_set("led", "backend", 1), "led.backend", "got an integer"),
    "I2C bus the driver does not open": (_set("oled", "bus", 0), "oled.bus", "bus 1 (GPIO 2"),
    "OLED address too high": (_set("oled", "address", 0x78), "oled.address", "not 0x78"),
    "OLED address reserved": (_set("oled", "address", 0x03), "oled.address", "not 0x03"),
}


@pytest.mark.parametrize(("edit", "key", "words"), BAD_MAPS.values(), ids=BAD_MAPS.keys())
def test_each_mistake_is_reported_with_its_key(
    edit: Callable[[Table], None], key: str, words: str
) -> None:
    table = default_table()
    parse_pin_map(table, "test")  # the unedited map is fine, so the edit is what breaks it
    edit(table)
    with pytest.raises(PinMapError) as caught:
        parse_pin_map(table, "my.toml", key_prefix="pins.")
    assert caught.value.key == f"pins.{key}"
    assert str(caught.value).startswith(f"my.toml: pins.{key}: ")
    assert words in str(caught.value)


def test_pin_map_errors_are_value_errors_under_the_module_root() -> None:
    assert issubclass(PinMapError, ValueError)
    assert issubclass(PinMapError, PinoutError)
    assert issubclass(PinMapFileError, OSError)
    assert issubclass(PinMapFileError, PinoutError)


def test_constructing_a_bad_map_directly_is_refused_too() -> None:
    good = load_pin_map()
    with pytest.raises(PinMapError, match=r"^matrix\.columns: GPIO 5 is used twice"):
        replace(good, matrix_columns=(5, 27, 22, 23, 24, 25))


def test_load_reads_a_file_and_names_it_in_errors(tmp_path: Path) -> None:
    path = tmp_path / "pinout.toml"
    text = HARDWARE_PINOUT.read_text("utf-8")
    path.write_text(text.replace("push = 21", "push = 4"), "utf-8")
    assert load_pin_map(path).encoder_push == 4

    path.write_text(text.replace("push = 21", "push = 20"), "utf-8")
    with pytest.raises(PinMapError, match=rf"^{path}: encoder\.push: GPIO 20 is used twice"):
        load_pin_map(path)


def test_load_reports_broken_toml_with_the_file_name(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("[matrix\nrows = [5]\n", "utf-8")
    with pytest.raises(PinMapError, match=rf"^{path}: not valid TOML: .*line 1"):
        load_pin_map(path)


def test_load_reports_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with pytest.raises(PinMapFileError, match=rf"^{path}: cannot read the pin map"):
        load_pin_map(path)


def test_parse_does_not_change_the_table() -> None:
    table = default_table()
    before = copy.deepcopy(table)
    parse_pin_map(table, "test")
    assert table == before


def test_docstring_examples_hold() -> None:
    assert doctest.testmod(pinout).failed == 0


@given(st.lists(st.integers(min_value=-2, max_value=30), min_size=15, max_size=15))
def test_any_map_that_parses_is_wired_possibly(gpios: list[int]) -> None:
    # Fill every pin of the map from the drawn numbers: most draws collide or hit a bus pin,
    # and those must be refused; the rest must come out clean.
    table = default_table()
    table["matrix"]["rows"] = gpios[0:5]
    table["matrix"]["columns"] = gpios[5:11]
    table["encoder"] = {"a": gpios[11], "b": gpios[12], "push": gpios[13]}
    table["buzzer"]["pin"] = gpios[14]
    del table["led"]["sense"]  # the drawn pins alone
    try:
        pins = parse_pin_map(table, "drawn")
    except PinMapError:
        plain = [gpio for gpio in gpios if 0 <= gpio <= 27 and gpio not in RESERVED_PINS]
        assert len(set(plain)) < len(gpios)
        return
    used = [use.gpio for use in pins.uses()]
    assert len(used) == len(set(used))
    assert all(0 <= gpio <= 27 for gpio in used)
    assert {gpio for gpio in used if gpio in RESERVED_PINS} == {2, 3, 10}
