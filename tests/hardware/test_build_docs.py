"""The builder's documents agree: the BOM, the cost table, the build sizes, both drawings and the
pin map, and the drawings are current with their generators."""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest

from firmware.drivers.pinout import RESERVED_PINS, load_pin_map

from .test_hardware_docs import HARDWARE, README, svg_texts

LAYOUT = HARDWARE / "layout.svg"
WIRING = HARDWARE / "wiring.svg"
MECHANICS = HARDWARE / "mechanics.toml"


@pytest.fixture(scope="module")
def layout() -> Iterator[ModuleType]:
    """hardware/make_layout_svg.py, a script that imports its sibling make_wiring_svg.py."""
    sys.path.insert(0, str(HARDWARE))
    try:
        spec = importlib.util.spec_from_file_location(
            "make_layout_svg", HARDWARE / "make_layout_svg.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # its dataclass looks itself up there
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.path.remove(str(HARDWARE))
        sys.modules.pop("make_layout_svg", None)
        sys.modules.pop("make_wiring_svg", None)
        sys.modules.pop("svg_drawing", None)


def marked_table(readme: str, name: str) -> list[list[str]]:
    match = re.search(rf"<!-- {name}:start -->\n(.*?)<!-- {name}:end -->", readme, re.S)
    assert match is not None, f"README.md has no {name} markers"
    rows = [line for line in match.group(1).splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


def generated_bom() -> str:
    """hardware/generated/bom.md, which make_hardware.py writes from the schematic."""
    return (HARDWARE / "generated" / "bom.md").read_text("utf-8")


def test_readme_links_the_generated_bom_and_keeps_no_table_of_its_own() -> None:
    readme = README.read_text("utf-8")
    section = readme.split("## Bill of materials", 1)[1].split("\n## ", 1)[0]
    assert "(generated/bom.md)" in section and "(generated/connectors.md)" in section
    assert not any(line.startswith("| Qty") for line in section.splitlines())


def test_column_pull_ups_one_per_column_in_the_diagram() -> None:
    columns = len(load_pin_map().matrix_columns)
    assert svg_texts(WIRING.read_text("utf-8")).count("10 kΩ") == columns


@pytest.mark.parametrize(
    "part", ["1000 µF", "100 nF", "330 Ω", "47 kΩ", "10 Ω", "74AHCT125", "1N4148", "BC337-40"]
)
def test_parts_in_the_diagram_are_in_the_bom(part: str) -> None:
    assert f"| {part} |" in generated_bom() or part in generated_bom(), part
    assert any(part in text for text in svg_texts(WIRING.read_text("utf-8"))), part


def test_bom_has_the_resettable_fuse_and_the_microsd_card() -> None:
    bom = generated_bom()
    assert "RXEF160" in bom and "microSD card" in bom
    assert any("PTC 1.6 A" in text for text in svg_texts(WIRING.read_text("utf-8")))


def test_build_sizes_agree_with_mechanics(layout: ModuleType) -> None:
    mech, pins = layout.load_mechanics(), load_pin_map()
    columns, rows = layout.card_columns(pins), len(pins.matrix_rows)

    def pair(size: tuple[float, float]) -> str:
        return f"{size[0]:g} × {size[1]:g}"

    expected = [
        pair((mech.mm("card", "width"), mech.mm("card", "depth"))),
        pair(mech.pocket),
        f"{mech.mm('grid', 'rib'):g}",
        pair(mech.pitch),
        pair(mech.grid(columns, rows)),
        pair(mech.top(columns, rows)),
        f"{round(mech.spacer, 1):g}",
        pair((layout._key_outer(mech), layout._key_outer(mech))),
    ]
    documented = [size for _, size in marked_table(README.read_text("utf-8"), "build-sizes")]
    assert documented == expected


def test_layout_svg_is_drawn_from_the_current_sources(layout: ModuleType) -> None:
    assert LAYOUT.read_text("utf-8") == layout.render_svg(
        layout.load_mechanics(), load_pin_map()
    ), "hardware/layout.svg is stale: run .venv/bin/python hardware/make_layout_svg.py"


def test_wiring_svg_is_current_by_its_check_mode(layout: ModuleType) -> None:
    wiring = sys.modules["make_wiring_svg"]
    assert wiring.main(["--check"]) == 0


def test_layout_draws_a_pocket_per_card_cell_of_the_matrix(layout: ModuleType) -> None:
    mech, pins = layout.load_mechanics(), load_pin_map()
    texts = svg_texts(layout.render_svg(mech, pins))
    cells = {text for text in texts if re.fullmatch(r"[A-H][1-9]", text)}
    assert len(cells) == len(pins.matrix_rows) * (len(pins.matrix_columns) - 1)


def test_layout_follows_mechanics(layout: ModuleType, tmp_path: Path) -> None:
    changed = tmp_path / "mechanics.toml"
    changed.write_text(MECHANICS.read_text("utf-8").replace("rib = 6", "rib = 10"), "utf-8")
    texts = svg_texts(layout.render_svg(layout.load_mechanics(changed), load_pin_map()))
    assert "pitch 83 mm" in texts and "rib 10 mm" in texts


def test_layout_check_mode_and_bad_mechanics(
    layout: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "layout.svg"
    assert layout.main(["--output", str(output), "--check"]) == 1
    assert layout.main(["--output", str(output)]) == 0
    assert layout.main(["--output", str(output), "--check"]) == 0
    broken = tmp_path / "mechanics.toml"
    broken.write_text(MECHANICS.read_text("utf-8").replace("rib = 6", "rib = -1"), "utf-8")
    capsys.readouterr()
    assert layout.main(["--mechanics", str(broken), "--output", str(output)]) == 2
    assert capsys.readouterr().err == (
        "error: mechanics.toml: [grid] rib must be a positive number\n"
    )


def test_shutdown_button_uses_a_free_gpio_and_the_readme_names_it(layout: ModuleType) -> None:
    wiring, pins = sys.modules["make_wiring_svg"], load_pin_map()
    gpio = wiring.SHUTDOWN_GPIO
    assert gpio not in {use.gpio for use in pins.uses()} and gpio not in RESERVED_PINS
    readme = README.read_text("utf-8")
    assert f"dtoverlay=gpio-shutdown,gpio_pin={gpio}" in readme
    assert "Shutdown button (optional)" in svg_texts(wiring.render_svg(pins))
    taken = svg_texts(wiring.render_svg(replace(pins, encoder_push=gpio)))
    assert "Shutdown button (optional)" not in taken


def test_readme_warns_against_audremap_on_the_buzzer_pin() -> None:
    # audremap's default pins are GPIO 12 and 13: both are ours in the reference map.
    pins, readme = load_pin_map(), README.read_text("utf-8")
    assert {12, 13} <= {use.gpio for use in pins.uses()}
    assert "`dtoverlay=audremap`" in readme
    assert "GPIO 12 and 13" in readme
