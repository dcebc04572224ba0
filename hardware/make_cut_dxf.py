"""Write the cut files, hardware/cut/*.dxf: every sheet part at 1:1 in millimetres.

Run from the repository root after changing hardware/mechanics.toml:

    .venv/bin/python hardware/make_cut_dxf.py          # rewrite hardware/cut/
    .venv/bin/python hardware/make_cut_dxf.py --check  # exit 1 if a file is stale

One file per part, drawn from the same sizes as layout.svg (make_layout_svg.Mechanics): layer
CUT is cut through, layer MARK is engraved or drawn (not cut). Origin at the lower left corner;
the spymasters' edge is at the bottom, as in the top view. The key's pixel marks follow the LED
strip's own pitch, centred on each row of cells, so the strip is checked against the cells.
"""

from __future__ import annotations

import argparse
import io
import math
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import ezdxf
from make_layout_svg import Mechanics, _key_outer, _pair, card_columns, load_mechanics

from firmware.drivers.led_layout import CELLS
from firmware.drivers.pinout import load_pin_map

HERE = Path(__file__).resolve().parent
OUTPUT = HERE / "cut"

CORNER_HOLE = 4.5
"""M4 clearance, for the spacers between base and top and the frame's screws."""
DRAIN_HOLE = 8.0
ENCODER_HOLE = 7.5
"""M7 bushing (Bourns PEC11 drawings); check the encoder you buy."""
BUTTON_HOLE = 16.0
"""The 16 mm sealed push buttons of the BOM."""
FRAME_SCREW_INSET = 8.0
"""The frame's screws sit this far in from its edge, outside the overlay, which stops
OVERLAY_MARGIN short of them: no hole pierces the sealed sheet."""
OVERLAY_MARGIN = 6.0
DRAIN_NOTCH = 4.0
STRIP_LED_SIZE = 5.0
"""A WS2812B's 5 × 5 mm package."""


@dataclass
class Part:
    """One cut part: outline, holes and marks, and how many to cut."""

    name: str
    size: tuple[float, float]
    quantity: int
    material: str
    cuts: list[tuple[str, tuple[float, ...]]] = field(default_factory=list)
    marks: list[tuple[str, tuple[float, ...]]] = field(default_factory=list)

    def rect(self, x: float, y: float, w: float, h: float, layer: str = "CUT") -> None:
        (self.cuts if layer == "CUT" else self.marks).append(("rect", (x, y, w, h)))

    def hole(self, x: float, y: float, diameter: float) -> None:
        self.cuts.append(("circle", (x, y, diameter / 2)))


def strip_pitch(mech: Mechanics) -> float:
    """The LED strip's pixel pitch: 1000 mm over its LEDs per metre."""
    return 1000 / mech.mm("key", "strip_leds_per_m")


def pixel_offsets(mech: Mechanics) -> list[float]:
    """How far each pixel of a row lies from its cell's centre, the row's strip centred."""
    side = math.isqrt(CELLS)
    cell, pitch = mech.mm("key", "cell_pitch"), strip_pitch(mech)
    middle = (side - 1) / 2
    return [(index - middle) * (pitch - cell) for index in range(side)]


def parts(mech: Mechanics, columns: int, rows: int) -> Iterator[Part]:
    """Every part to cut, in build order: base, top, plates, frame, overlay, then the key."""
    yield from _base_and_top(mech, columns, rows)
    yield from _pads_and_cover(mech, columns, rows)
    yield from _key(mech)


def _pockets(mech: Mechanics, columns: int, rows: int) -> Iterator[tuple[float, float]]:
    """The lower left corner of each pocket, row 1 farthest from the spymasters' edge.

    In these files y runs up from the spymasters' edge: the grid starts above the console.
    """
    (pitch_w, pitch_d), border = mech.pitch, mech.mm("grid", "border")
    grid_y = mech.mm("console", "depth") + border
    for row in range(rows):
        for column in range(columns):
            yield border + column * pitch_w, grid_y + (rows - 1 - row) * pitch_d


def _base_and_top(mech: Mechanics, columns: int, rows: int) -> Iterator[Part]:
    top_w, top_d = mech.top(columns, rows)
    border, console = mech.mm("grid", "border"), mech.mm("console", "depth")
    pocket_w, pocket_d = mech.pocket
    grid_w, grid_d = mech.grid(columns, rows)
    grid_x, grid_y = border, console + border

    def pockets() -> Iterator[tuple[float, float]]:
        return _pockets(mech, columns, rows)

    def corners(part: Part, inset: float) -> None:
        for x in (inset, top_w - inset):
            for y in (inset, top_d - inset):
                part.hole(x, y, CORNER_HOLE)

    base = Part("base", (top_w, top_d), 1, f"{mech.mm('pad', 'base_thickness'):g} mm plywood")
    base.rect(0, 0, top_w, top_d)
    corners(base, 12)
    # Drain holes at the grid's corners: what gets past the overlay leaves through the floor,
    # well away from the electronics box under the far edge.
    for x in (grid_x + 10, grid_x + grid_w - 10):
        for y in (grid_y + 10, grid_y + grid_d - 10):
            base.hole(x, y, DRAIN_HOLE)
    for px, py in pockets():  # where each switch sits, to place the pad strips
        size = mech.mm("pad", "switch_size")
        base.rect(px + (pocket_w - size) / 2, py + (pocket_d - size) / 2, size, size, "MARK")
    yield base

    top = Part("top", (top_w, top_d), 1, f"{mech.mm('pad', 'top_thickness'):g} mm plywood")
    top.rect(0, 0, top_w, top_d)
    corners(top, 12)
    for px, py in pockets():
        top.rect(px, py, pocket_w, pocket_d)
    middle = console / 2
    top.hole(24, middle, ENCODER_HOLE)
    pitch = mech.mm("console", "button_pitch")
    for index in range(5):
        top.hole(24 + 26 + index * pitch, middle, BUTTON_HOLE)
    window_w, window_d = _pair(mech, "console", "oled_window")
    top.rect(top_w - 40 - window_w / 2, middle - window_d / 2, window_w, window_d)
    key = _key_outer(mech)
    top.rect((top_w - key) / 2, 4, key, console - 8)
    if mech.table.get("console", {}).get("second_oled") is True:
        top.rect((top_w - window_w) / 2, top_d - 3 - window_d, window_w, window_d)
    yield top


def _pads_and_cover(mech: Mechanics, columns: int, rows: int) -> Iterator[Part]:
    top_w, _ = mech.top(columns, rows)
    border, console = mech.mm("grid", "border"), mech.mm("console", "depth")
    (pocket_w, pocket_d), (pitch_w, _) = mech.pocket, mech.pitch
    _, grid_d = mech.grid(columns, rows)
    play = mech.mm("pad", "plate_play")
    plate = Part(
        "pressure_plate",
        (pocket_w - 2 * play, pocket_d - 2 * play),
        rows * columns,
        f"{mech.mm('pad', 'plate_thickness'):g} mm acrylic",
    )
    plate.rect(0, 0, *plate.size)
    # The switch's place on the plate's underside: the silicone bump goes here.
    size = mech.mm("pad", "switch_size")
    plate.rect((plate.size[0] - size) / 2, (plate.size[1] - size) / 2, size, size, "MARK")
    yield plate

    frame_h = grid_d + 2 * border
    frame = Part(
        "frame", (top_w, frame_h), 1, f"{mech.mm('pad', 'frame_thickness'):g} mm clear acrylic"
    )
    frame.rect(0, 0, top_w, frame_h)
    for px, py in _pockets(mech, columns, rows):
        frame.rect(px, py - console, pocket_w, pocket_d)
    # Corners and quarter points: the middle of the far edge is the second display's window.
    for x in (FRAME_SCREW_INSET, top_w / 4, 3 * top_w / 4, top_w - FRAME_SCREW_INSET):
        for y in (FRAME_SCREW_INSET, frame_h - FRAME_SCREW_INSET):
            frame.hole(x, y, CORNER_HOLE)
    # A notch at the end of each rib through the border: a spill runs off the pockets' edge.
    for column in range(1, columns):
        x = border + column * pitch_w - mech.mm("grid", "rib") / 2 - DRAIN_NOTCH / 2
        frame.rect(x, 0, DRAIN_NOTCH, border, "MARK")
    yield frame

    inset = FRAME_SCREW_INSET + CORNER_HOLE / 2 + OVERLAY_MARGIN
    overlay = Part(
        "overlay",
        (top_w - 2 * inset, frame_h - 2 * inset),
        1,
        f"{mech.mm('pad', 'overlay_thickness'):g} mm polycarbonate",
    )
    overlay.rect(0, 0, *overlay.size)
    yield overlay


def _key(mech: Mechanics) -> Iterator[Part]:
    """The key's egg-crate strips, its panel with the strip's pixels marked, the diffusers."""
    key = _key_outer(mech)
    side = math.isqrt(CELLS)
    cell, wall = mech.mm("key", "cell_pitch"), mech.mm("key", "wall")
    depth = mech.mm("key", "crate_depth")
    length = side * cell + wall
    crate = Part("crate_strip", (length, depth), 2 * (side + 1), f"{wall:g} mm black acrylic")
    crate.rect(0, 0, length, depth)
    for index in range(side + 1):  # half-depth slots where the crossing strips interlock
        crate.rect(index * cell, depth / 2, wall, depth / 2)
    yield crate

    panel = Part("key_panel", (key, key), 1, "3 mm plywood, the strip glued on")
    panel.rect(0, 0, key, key)
    start = (key - side * cell) / 2
    for row in range(side):
        centre_y = start + (side - 1 - row) * cell + cell / 2
        for column, offset in enumerate(pixel_offsets(mech)):
            centre_x = start + column * cell + cell / 2 + offset
            half = STRIP_LED_SIZE / 2
            panel.rect(centre_x - half, centre_y - half, STRIP_LED_SIZE, STRIP_LED_SIZE, "MARK")
    yield panel

    diffuser = Part("diffuser", (cell - wall, cell - wall), CELLS, mech.text("key", "diffuser"))
    diffuser.rect(0, 0, *diffuser.size)
    yield diffuser


def render(part: Part) -> str:
    """The part as DXF text; its drawing (`drawn`) is the same for the same part."""
    doc = ezdxf.new("R2010", setup=False)
    doc.units = ezdxf.units.MM
    doc.layers.add("CUT", color=1)
    doc.layers.add("MARK", color=5)
    space = doc.modelspace()
    for layer, shapes in (("CUT", part.cuts), ("MARK", part.marks)):
        for shape, values in shapes:
            if shape == "rect":
                x, y, w, h = values
                points = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
                space.add_lwpolyline(points, close=True, dxfattribs={"layer": layer})
            else:
                x, y, radius = values
                space.add_circle((x, y), radius, dxfattribs={"layer": layer})
    space.add_text(
        f"{part.name} x{part.quantity}, {part.material}",
        height=4,
        dxfattribs={"layer": "MARK", "insert": (2, -8)},
    )
    buffer = io.StringIO()
    doc.write(buffer)
    text = re.sub(r"(\$(?:VERSION|FINGERPRINT)GUID\n\s*2\n)\{[^}]*\}", r"\1{0}", buffer.getvalue())
    return re.sub(r"(\$TDU?(?:CREATE|UPDATE)\n\s*40\n)[0-9.]+", r"\g<1>2458532.0", text)


def drawn(dxf: str) -> str:
    """The ENTITIES section of a DXF file: what is cut and marked. ezdxf orders some of its
    bookkeeping objects differently from run to run; the drawing itself does not change."""
    match = re.search(r"\nENTITIES\n(.*?)\n\s*0\nENDSEC", dxf, flags=re.S)
    return match.group(1) if match else ""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write the cut files.")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--check", action="store_true", help="exit 1 if a file is stale")
    args = parser.parse_args(argv)
    pins = load_pin_map()
    mech = load_mechanics()
    status = 0
    for part in parts(mech, card_columns(pins), len(pins.matrix_rows)):
        path = args.output / f"{part.name}.dxf"
        text = render(part)
        current = path.read_text("utf-8") if path.exists() else ""
        if drawn(current) == drawn(text):
            continue
        if args.check:
            print(f"{path} is stale: run make hardware", file=sys.stderr)
            status = 1
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, "utf-8")
    return status


if __name__ == "__main__":
    sys.exit(main())
