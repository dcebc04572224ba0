"""Draw hardware/touch.svg, the capacitive table's electrodes and chips, from the firmware's own
wiring (`firmware.drivers.touch_pads`) and the card sizes of mechanics.toml.

Run from the repository root after changing either:

    .venv/bin/python hardware/make_touch_svg.py          # rewrite hardware/touch.svg
    .venv/bin/python hardware/make_touch_svg.py --check  # exit 1 if it is stale

Each electrode is drawn at scale in its pocket, in its chip's colour, with the chip's address and
the electrode's number; the three chips below say how their ADDR pin is strapped and which GPIO
their IRQ line goes to; a section through one pad shows the stack a finger senses through
(`[touch]` of mechanics.toml), its layers' thicknesses to one scale, with their permittivities
from the physical model (`firmware.virtual.mpr121_physics`).
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from svg_drawing import Drawing, write_or_check

from board_rules.codenames.grid import SIZE, Coord
from firmware.drivers.events import ConsoleButton
from firmware.drivers.pinout import HEADER_PINS
from firmware.drivers.touch_pads import ADDRESSES, TouchPadsConfig, electrode_of
from firmware.virtual.mpr121_physics import PERMITTIVITY, SUPPORTED_STACKS

HERE = Path(__file__).resolve().parent
DEFAULT_OUTPUT = HERE / "touch.svg"
MECHANICS = HERE / "mechanics.toml"

ELECTRODE_MARGIN_MM = 6.5
"""From the pocket's edge to its electrode on every side (hardware/README.md)."""
BUTTON_MM = 20
SCALE = 2.2
"""Pixels per millimetre."""
CHIP_COLOURS = ("#1971c2", "#2b8a3e", "#d9480f")
STRAPS = ("GND", "3.3 V", "SDA")
"""What each chip's ADDR pin is tied to, for 0x5A, 0x5B and 0x5C."""
STACK_SCALE = 40.0
"""Pixels per millimetre in the section through a pad: its layers are a millimetre or less."""
STACK_HEIGHT = 220
LAYER_COLOURS = {"card": "#e9d3a6", "top": "#9ccbe8", "air": "#e9ecef", "copper": "#c87533"}


def draw_stack(
    drawing: Drawing, left: float, top: float, touch: dict[str, Any], card: float
) -> None:
    """A section through one pad: finger, card, top, air gap, electrode, to one scale."""
    drawing.text(left, top, "Section through a pad: what the finger senses through", "heading")
    material, thickness = touch["top"], float(touch["top_thickness"])
    layers = [
        ("card", f"card {card:g} mm (εr {PERMITTIVITY['card']:g})", card),
        ("top", f"top: {material} {thickness:g} mm (εr {PERMITTIVITY[material]:g})", thickness),
    ]
    if touch.get("air_gap", 0):
        layers.append(("air", f"air gap {touch['air_gap']:g} mm (εr 1)", float(touch["air_gap"])))
    size = f"{touch['pad_width']:g} × {touch['pad_depth']:g} mm"
    layers.append(("copper", f"electrode: copper tape, {size}, on the top's underside", 0.1))
    y = top + 40
    drawing.box(left + 40, y, 60, 18, "#e8b89a")
    drawing.text(left + 110, y + 14, "fingertip (an 8 mm disc, as touch design guides model it)")
    y += 22
    label_y = y
    for kind, label, mm in layers:
        height = max(mm * STACK_SCALE, 4.0)
        drawing.box(left, y, 420, height, LAYER_COLOURS[kind])
        # Labels one under the other, each led to the middle of its layer.
        label_y = max(label_y + 18, y + height / 2 + 4)
        drawing.line((left + 420, y + height / 2), (left + 470, label_y - 4), "#868e96", 1)
        drawing.text(left + 476, label_y, label, "small")
        y += height
    drawing.line((left + 200, y), (left + 200, y + 40), "#c87533", 2)
    drawing.text(
        left + 210,
        y + 30,
        f"28 AWG wire, {touch['wire_cm']:g} cm, to the MPR121's E pin: most of the pad's 20 pF",
        "small",
    )
    works = ", ".join(SUPPORTED_STACKS)
    drawing.text(left, y + 60, f"Tops that work: {works}, under a card of 0.3–0.4 mm.", "small")


def render_svg(mechanics: dict[str, dict[str, Any]]) -> str:
    """The drawing as SVG text."""
    card, grid = mechanics["card"], mechanics["grid"]
    pocket_w = card["width"] + 2 * grid["clearance"]
    pocket_d = card["depth"] + 2 * grid["clearance"]
    pitch_x, pitch_y = (pocket_w + grid["rib"]) * SCALE, (pocket_d + grid["rib"]) * SCALE
    left, top = 40.0, 80.0
    width = int(left * 2 + SIZE * pitch_x)
    height = int(top + SIZE * pitch_y + 300 + STACK_HEIGHT)
    drawing = Drawing(width, height)
    drawing.text(left, 36, "Capacitive table: electrodes and MPR121 chips", "title")
    electrode_w = (pocket_w - 2 * ELECTRODE_MARGIN_MM) * SCALE
    electrode_d = (pocket_d - 2 * ELECTRODE_MARGIN_MM) * SCALE
    drawing.text(
        left,
        58,
        f"Electrodes {pocket_w - 2 * ELECTRODE_MARGIN_MM:g} × "
        f"{pocket_d - 2 * ELECTRODE_MARGIN_MM:g} mm under each {card['width']:g} × "
        f"{card['depth']:g} mm card, {ELECTRODE_MARGIN_MM:g} mm inside the pocket; at scale.",
        "small",
    )
    for row in range(SIZE):
        for column in range(SIZE):
            coord = Coord(row=row, column=column)
            x, y = left + column * pitch_x, top + row * pitch_y
            drawing.rect(x, y, pocket_w * SCALE, pocket_d * SCALE, "pocket")
            chip, electrode = electrode_of(coord)
            ex, ey = x + ELECTRODE_MARGIN_MM * SCALE, y + ELECTRODE_MARGIN_MM * SCALE
            drawing.box(ex, ey, electrode_w, electrode_d, CHIP_COLOURS[chip])
            drawing.text(ex + 6, ey + 16, str(coord), "cell", colour="#ffffff")
            drawing.text(
                ex + 6,
                ey + electrode_d - 6,
                f"0x{ADDRESSES[chip]:02X} E{electrode}",
                "small",
                colour="#ffffff",
            )
    y = top + SIZE * pitch_y + 10
    drawing.text(left, y + 14, "Console (labels on the panel):", "heading")
    for index, button in enumerate(ConsoleButton):
        chip, electrode = electrode_of(button)
        x = left + 250 + index * (BUTTON_MM * SCALE + 70)
        drawing.box(x, y, BUTTON_MM * SCALE, BUTTON_MM * SCALE, CHIP_COLOURS[chip])
        drawing.text(x + BUTTON_MM * SCALE + 4, y + 14, button.value.upper(), "small")
        drawing.text(x + BUTTON_MM * SCALE + 4, y + 28, f"E{electrode}", "small")
    irq_pins = TouchPadsConfig().irq_pins
    y += BUTTON_MM * SCALE + 30
    for chip, address in enumerate(ADDRESSES):
        box_w = (width - 2 * left) / len(ADDRESSES) - 12
        x = left + chip * (box_w + 12)
        drawing.rect(x, y, box_w, 110)
        drawing.box(x, y, 8, 110, CHIP_COLOURS[chip])
        drawing.text(x + 16, y + 22, f"MPR121 #{chip + 1} at 0x{address:02X}", "heading")
        drawing.text(x + 16, y + 42, f"ADDR to {STRAPS[chip]}")
        gpio = irq_pins[chip]
        drawing.text(x + 16, y + 60, f"IRQ to GPIO {gpio} (header pin {HEADER_PINS[gpio]})")
        drawing.text(x + 16, y + 78, "SDA pin 3, SCL pin 5, 3.3 V, GND")
        drawing.text(x + 16, y + 96, "pull-ups: cut on two of three boards", "small")
    drawing.text(
        left,
        y + 140,
        "The OLED shares SDA, SCL, 3.3 V and GND. "
        "Chip 3's spare electrodes (E6–E11) stay unconnected.",
        "small",
    )
    draw_stack(drawing, left, y + 180, dict(mechanics["touch"]), float(card["thickness"]))
    return drawing.serialise()


def load_mechanics(path: Path = MECHANICS) -> dict[str, dict[str, Any]]:
    with path.open("rb") as file:
        return tomllib.load(file)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Draw the capacitive table's electrodes.")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="SVG file to write")
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    args = parser.parse_args(argv)
    svg = render_svg(load_mechanics())
    return write_or_check(svg, args.output, args.check, Path(__file__).name)


if __name__ == "__main__":
    sys.exit(main())
