"""The hardware docs agree with the pin map: the README's wiring table and the wiring diagram."""

from __future__ import annotations

import importlib.util
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest

from firmware.drivers.pinout import PinMap, load_pin_map

from ..paths import REPO

HARDWARE = REPO / "hardware"
README = HARDWARE / "README.md"
SVG = HARDWARE / "wiring.svg"
SVG_NS = "{http://www.w3.org/2000/svg}"

# Power and ground on the 40-pin header, written out here rather than taken from the code
# under test.
POWER_HEADER_PINS = {
    "3V3": {1, 17},
    "5V": {2, 4},
    "GND": {6, 9, 14, 20, 25, 30, 34, 39},
}


def wiring_table(readme: str) -> list[list[str]]:
    """The cells of each body row of the table between the wiring-table markers."""
    match = re.search(r"<!-- wiring-table:start -->\n(.*?)<!-- wiring-table:end -->", readme, re.S)
    if match is None:
        raise AssertionError("README.md has no wiring-table markers")
    rows = [line for line in match.group(1).splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


def wiring_table_problems(readme: str, pins: PinMap) -> list[str]:
    """How the README's wiring table disagrees with `pins`; empty when they agree."""
    problems = []
    documented: Counter[tuple[str, int, int]] = Counter()
    for function, gpio, header, *_ in wiring_table(readme):
        if gpio == "—":
            if int(header) not in POWER_HEADER_PINS.get(function, set()):
                problems.append(f"{function} on header pin {header} is not a {function} pin")
            continue
        documented[(function, int(gpio), int(header))] += 1
    expected = Counter((use.label, use.gpio, use.header_pin) for use in pins.uses())
    problems += [f"in README, not in the pin map: {row}" for row in documented - expected]
    problems += [f"in the pin map, not in README: {row}" for row in expected - documented]
    return problems


def test_readme_wiring_table_agrees_with_the_pin_map() -> None:
    assert wiring_table_problems(README.read_text("utf-8"), load_pin_map()) == []


def test_readme_wiring_table_covers_every_pin() -> None:
    gpios = {int(row[1]) for row in wiring_table(README.read_text("utf-8")) if row[1] != "—"}
    assert gpios == {use.gpio for use in load_pin_map().uses()}


@pytest.mark.parametrize(
    ("old", "new", "complaint"),
    [
        (
            "| Encoder push | 21 | 40 |",
            "| Encoder push | 4 | 7 |",
            "in README, not in the pin map: ('Encoder push', 4, 7)",
        ),
        (
            "| Matrix row 3 | 13 | 33 |",
            "| Matrix row 3 | 13 | 31 |",
            "in the pin map, not in README: ('Matrix row 3', 13, 33)",
        ),
        (
            "| Buzzer | 12 | 32 | output | 1 kΩ to the transistor's base, 10 kΩ base to GND "
            "(both required) |\n",
            "",
            "in the pin map, not in README: ('Buzzer', 12, 32)",
        ),
        ("| GND | — | 34 |", "| GND | — | 32 |", "GND on header pin 32 is not a GND pin"),
        (
            "| LED data | 10 | 19 |",
            "| LED data | 10 | 19 | x |\n| LED data | 10 | 19 |",
            "in README, not in the pin map: ('LED data', 10, 19)",
        ),
    ],
    ids=["wrong gpio", "wrong header pin", "missing row", "bad power pin", "row twice"],
)
def test_wiring_table_check_catches_a_disagreement(old: str, new: str, complaint: str) -> None:
    readme = README.read_text("utf-8")
    assert old in readme
    problems = wiring_table_problems(readme.replace(old, new, 1), load_pin_map())
    assert any(complaint in problem for problem in problems), problems


def test_wiring_table_check_follows_the_pin_map() -> None:
    moved = replace(load_pin_map(), encoder_push=4)
    problems = wiring_table_problems(README.read_text("utf-8"), moved)
    assert "in the pin map, not in README: ('Encoder push', 4, 7)" in problems


def test_readme_gives_the_config_txt_lines() -> None:
    readme = README.read_text("utf-8")
    for line in (
        "dtparam=i2c_arm=on",
        "dtparam=i2c_arm_baudrate=400000",
        "dtparam=spi=on",
        "core_freq=250",
        "core_freq=500",
        "core_freq_min=500",
    ):
        assert re.search(rf"^{re.escape(line)}$", readme, re.M), line


def load_generator() -> ModuleType:
    """hardware/make_wiring_svg.py, which is a script, not part of the package."""
    spec = importlib.util.spec_from_file_location(
        "make_wiring_svg", HARDWARE / "make_wiring_svg.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(HARDWARE))  # for its sibling svg_drawing.py
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(HARDWARE))
    return module


def svg_texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG_NS}svg"
    return ["".join(text.itertext()) for text in root.iter(f"{SVG_NS}text")]


def test_wiring_svg_is_well_formed_svg_a_browser_can_size() -> None:
    root = ET.parse(SVG).getroot()
    assert root.tag == f"{SVG_NS}svg"
    width, height = int(root.attrib["width"]), int(root.attrib["height"])
    assert root.attrib["viewBox"] == f"0 0 {width} {height}"


def test_wiring_svg_names_every_pin_with_what_it_does() -> None:
    texts = svg_texts(SVG.read_text("utf-8"))
    for use in load_pin_map().uses():
        gpio = re.compile(rf"\bGPIO {use.gpio}\b")
        assert any(use.label in text and gpio.search(text) for text in texts), use
        assert any(f"GPIO {use.gpio} · pin {use.header_pin}" in text for text in texts), use


def test_wiring_svg_is_drawn_from_the_current_pin_map() -> None:
    generator = load_generator()
    assert SVG.read_text("utf-8") == generator.render_svg(load_pin_map()), (
        "hardware/wiring.svg is stale: run .venv/bin/python hardware/make_wiring_svg.py"
    )


def test_wiring_svg_follows_a_changed_pin_map() -> None:
    generator = load_generator()
    pins = replace(load_pin_map(), encoder_push=4, buzzer=None)
    texts = svg_texts(generator.render_svg(pins))
    assert "Encoder push · GPIO 4" in texts
    assert "SW (push) → 100 Ω → GPIO 4 · pin 7" in texts
    assert not any("GPIO 21" in text and "Encoder" in text for text in texts)
    assert not any(text.startswith("Buzzer · GPIO") for text in texts)


def test_generator_check_mode_reports_a_stale_file(tmp_path: Path) -> None:
    generator = load_generator()
    output = tmp_path / "wiring.svg"
    output.write_text("<svg/>", "utf-8")
    assert generator.main(["--output", str(output), "--check"]) == 1
    assert generator.main(["--output", str(output)]) == 0
    assert generator.main(["--output", str(output), "--check"]) == 0
    assert output.read_text("utf-8") == SVG.read_text("utf-8")
