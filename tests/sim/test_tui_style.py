"""The terminal apps' look lives in `firmware/tui/styles/*.tcss` over one palette
(`firmware.tui.style.PALETTE`): no colour of the palette is written anywhere else, every
variable a style sheet uses is defined, and the sheets ship with the package."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from firmware.coda.app import CodaApp
from firmware.sim.app import SimApp
from firmware.tui.style import PALETTE, STYLES

from ..paths import REPO

ROOT = REPO
FIRMWARE = ROOT / "firmware"
SHEETS = sorted(STYLES.glob("*.tcss"))


def test_every_app_reads_existing_sheets_the_shared_one_first() -> None:
    for app in (CodaApp, SimApp):
        paths = [Path(path) for path in app.CSS_PATH]  # type: ignore[union-attr]
        assert paths[0] == STYLES / "console.tcss" and len(paths) == 2, app
        assert all(path.is_file() for path in paths), app


def test_no_colour_of_the_palette_is_written_outside_it() -> None:
    colours = {colour.lower() for colour in PALETTE.values()}
    assert len(colours) == len(PALETTE)  # one name per colour
    for path in [*FIRMWARE.rglob("*.py"), *SHEETS]:
        if path == FIRMWARE / "tui" / "style.py":
            continue
        written = {c.lower() for c in re.findall(r"#[0-9a-fA-F]{6}\b", path.read_text())}
        assert not written & colours, path


def test_no_python_module_of_the_apps_holds_a_style_sheet() -> None:
    for path in FIRMWARE.rglob("*.py"):
        source = path.read_text()
        assert "DEFAULT_CSS" not in source and "\n    CSS = " not in source, path


def test_every_variable_a_sheet_uses_is_defined_and_every_colour_is_used() -> None:
    textual_variables = {"text-muted", "error"}
    app_numbers = set(CodaApp.style_numbers())
    used: set[str] = set()
    for sheet in SHEETS:
        text = re.sub(r"/\*.*?\*/", "", sheet.read_text(), flags=re.S)
        local = set(re.findall(r"^\$([\w-]+):", text, flags=re.M))
        names = set(re.findall(r"\$([\w-]+)", text)) - local
        assert names <= set(PALETTE) | app_numbers | textual_variables, sheet
        used |= names
    assert set(PALETTE) <= used


def test_the_sheets_ship_with_the_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["firmware.tui"]
    assert SHEETS
    for sheet in SHEETS:
        relative = sheet.relative_to(FIRMWARE / "tui")
        assert any(relative.match(pattern) for pattern in patterns), relative
