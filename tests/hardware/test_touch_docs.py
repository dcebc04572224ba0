"""hardware/README.md's capacitive table agrees with the firmware: each chip's address, its
electrodes in order and its IRQ pin are the ones `firmware.drivers.touch_pads` uses, and the
tops it lists as working are the physical model's."""

from __future__ import annotations

import importlib.util
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

from board_rules.codenames.grid import SIZE, Coord
from firmware.drivers.touch_pads import ADDRESSES, TouchPadsConfig, electrode_of, parse_switch
from firmware.virtual.mpr121_physics import (
    SUPPORTED_STACKS,
    UNSUPPORTED_STACKS,
    build_from_mechanics,
)

from ..paths import REPO

README = (REPO / "hardware" / "README.md").read_text(encoding="utf-8")


def chip_rows() -> list[list[str]]:
    section = README.split("## The capacitive table (MPR121)", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if re.match(r"\| [123] \| 0x5", line)]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]


def test_the_readme_names_each_chips_address_electrodes_and_irq_pin() -> None:
    rows = chip_rows()
    assert len(rows) == len(ADDRESSES)
    pins = TouchPadsConfig().irq_pins
    named = 0
    for chip, (number, address, electrodes, irq) in enumerate(rows):
        assert number == str(chip + 1)
        assert address.startswith(f"0x{ADDRESSES[chip]:02X}")
        assert irq.startswith(f"GPIO {pins[chip]} ")
        wired = []
        for part in electrodes.split(";"):
            match = re.match(r"\s*E(\d+)(?:–E(\d+))?: ([A-Z0-9 ]+)$", part)
            if match and "spare" not in part:
                first = int(match.group(1))
                names = match.group(3).split()
                wired += [(first + i, name) for i, name in enumerate(names)]
        assert wired, electrodes
        for electrode, name in wired:
            assert electrode_of(parse_switch(name)) == (chip, electrode), name
        named += len(wired)
    assert named == 25 + 5  # every card pad and console button


def load_touch_generator() -> ModuleType:
    """hardware/make_touch_svg.py, a script beside its svg_drawing.py."""
    spec = importlib.util.spec_from_file_location(
        "make_touch_svg", REPO / "hardware" / "make_touch_svg.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(REPO / "hardware"))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(REPO / "hardware"))
    return module


def test_touch_svg_is_drawn_from_the_current_wiring_and_names_every_electrode() -> None:
    generator = load_touch_generator()
    assert generator.main(["--check"]) == 0, "hardware/touch.svg is stale: run make_touch_svg.py"
    texts = [t.text for t in ET.parse(REPO / "hardware" / "touch.svg").iter() if t.text]
    for row in range(SIZE):
        for column in range(SIZE):
            coord = Coord(row=row, column=column)
            chip, electrode = electrode_of(coord)
            assert str(coord) in texts
            assert f"0x{ADDRESSES[chip]:02X} E{electrode}" in texts


def test_touch_svg_check_mode_reports_a_stale_file(tmp_path: Path) -> None:
    stale = tmp_path / "touch.svg"
    stale.write_text("<svg/>", encoding="utf-8")
    assert load_touch_generator().main(["--check", "--output", str(stale)]) == 1


def test_the_readme_lists_the_stacks_the_model_holds_to_working_and_not() -> None:
    section = README.split("## The capacitive table (MPR121)", 1)[1].split("\n## ", 1)[0]
    table = section.split("| Top under the cards", 1)[1].split("\n\n", 1)[0]
    rows = [line.strip("|").split("|") for line in table.splitlines()[2:]]
    verdicts = {name.strip(): verdict.strip() for name, verdict in rows}
    works = {name for name, verdict in verdicts.items() if verdict.startswith("Yes")}
    fails = {name for name, verdict in verdicts.items() if verdict.startswith("No")}
    assert works == set(SUPPORTED_STACKS)
    assert fails == set(UNSUPPORTED_STACKS)
    stack, _ = build_from_mechanics(REPO / "hardware" / "mechanics.toml")
    assert "reference build" in verdicts[f"{stack.top} {stack.top_mm:g} mm"]
