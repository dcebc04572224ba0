"""Draw hardware/layout.svg, the table's mechanical layout, from mechanics.toml and the pin map.

Run from the repository root after changing hardware/mechanics.toml or hardware/pinout.toml:

    .venv/bin/python hardware/make_layout_svg.py          # rewrite hardware/layout.svg
    .venv/bin/python hardware/make_layout_svg.py --check  # exit 1 if it is stale

Three views: the top seen from above (to scale), a section through one card pad, and the LED key
seen from the side. The card grid has as many rows and card columns as the matrix has, and the
key as many pixels as the firmware drives, so the drawing cannot promise a table the firmware
does not read.
"""

from __future__ import annotations

import argparse
import math
import sys
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from make_wiring_svg import COLOURS
from svg_drawing import Drawing, Point, write_or_check

from firmware.drivers.led_layout import CELLS, EDGES
from firmware.drivers.pinout import PinMap, load_pin_map

HERE = Path(__file__).resolve().parent
DEFAULT_MECHANICS = HERE / "mechanics.toml"
DEFAULT_OUTPUT = HERE / "layout.svg"

WIDTH, HEIGHT = 1500, 980
TOP_SCALE = 1.45
"""Pixels per millimetre in the top view."""
SECTION_SCALE = 4.2
KEY_SCALE = 2.2

INK, WOOD, PLATE, OVERLAY = "#212529", "#e9d8a6", "#ced4da", "#74c0fc"


class MechanicsError(ValueError):
    """mechanics.toml lacks a key or holds a value that is not a positive number."""


@dataclass(frozen=True)
class Mechanics:
    """The numbers of mechanics.toml, and the sizes that follow from them."""

    table: Mapping[str, Mapping[str, object]]
    source: str

    def mm(self, section: str, key: str) -> float:
        value = self.table.get(section, {}).get(key)
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise MechanicsError(f"{self.source}: [{section}] {key} must be a positive number")
        return float(value)

    def text(self, section: str, key: str) -> str:
        value = self.table.get(section, {}).get(key)
        if not isinstance(value, str):
            raise MechanicsError(f"{self.source}: [{section}] {key} must be a string")
        return value

    @property
    def pocket(self) -> tuple[float, float]:
        """Width and depth of the pocket a card lies in."""
        play = 2 * self.mm("grid", "clearance")
        return self.mm("card", "width") + play, self.mm("card", "depth") + play

    @property
    def pitch(self) -> tuple[float, float]:
        """Centre-to-centre distance between pockets, left to right and top to bottom."""
        rib = self.mm("grid", "rib")
        width, depth = self.pocket
        return width + rib, depth + rib

    def grid(self, columns: int, rows: int) -> tuple[float, float]:
        """The outer size of the pockets and the ribs between them."""
        (width, depth), rib = self.pocket, self.mm("grid", "rib")
        return columns * width + (columns - 1) * rib, rows * depth + (rows - 1) * rib

    def top(self, columns: int, rows: int) -> tuple[float, float]:
        """The table top: grid, border, and the console strip at the spymasters' edge."""
        width, depth = self.grid(columns, rows)
        border = 2 * self.mm("grid", "border")
        return width + border, depth + border + self.mm("console", "depth")

    @property
    def spacer(self) -> float:
        """Height of the spacers under the top plate, so the pressure plate sits flush with it."""
        stack = self.mm("pad", "board_thickness") + self.mm("pad", "switch_height")
        stack += self.mm("pad", "bump_thickness")
        return stack + self.mm("pad", "plate_thickness") - self.mm("pad", "top_thickness")


def load_mechanics(path: Path = DEFAULT_MECHANICS) -> Mechanics:
    with path.open("rb") as file:
        return Mechanics(tomllib.load(file), path.name)


def card_columns(pins: PinMap) -> int:
    """The matrix columns that hold cards: all but the console's."""
    return len(pins.matrix_columns) - 1


def _mm(value: float) -> str:
    return f"{value:g} mm"


def render_svg(mech: Mechanics, pins: PinMap) -> str:
    """The three views as SVG text."""
    columns, rows = card_columns(pins), len(pins.matrix_rows)
    drawing = Drawing(WIDTH, HEIGHT)
    drawing.text(20, 36, "Codenames game table — mechanical layout (millimetres)", "title")
    drawing.text(
        20,
        58,
        "Generated from hardware/mechanics.toml and hardware/pinout.toml by "
        "hardware/make_layout_svg.py; do not edit by hand.",
        "small",
    )
    _draw_top_view(drawing, mech, columns, rows, (95, 110))
    _draw_pad_section(drawing, mech, (800, 90))
    _draw_key_side(drawing, mech, (800, 560))
    return drawing.serialise()


def _dimension(drawing: Drawing, start: Point, end: Point, label: str, offset: Point) -> None:
    """A dimension line with end ticks, drawn `offset` away from the measured edge."""
    (x1, y1), (x2, y2), (dx, dy) = start, end, offset
    a, b = (x1 + dx, y1 + dy), (x2 + dx, y2 + dy)
    drawing.line(a, b, INK, 1)
    for x, y in (a, b):
        if dy:
            drawing.line((x, y - 5), (x, y + 5), INK, 1)
        else:
            drawing.line((x - 5, y), (x + 5, y), INK, 1)
    middle_x, middle_y = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    if dy:
        drawing.text(middle_x, middle_y - 5, label, "small", anchor="middle")
    else:
        drawing.text(middle_x - 8, middle_y + 4, label, "small", anchor="end")


def _draw_top_view(
    drawing: Drawing, mech: Mechanics, columns: int, rows: int, origin: Point
) -> None:
    x0, y0 = origin
    s = TOP_SCALE
    top_w, top_d = mech.top(columns, rows)
    border, rib = mech.mm("grid", "border"), mech.mm("grid", "rib")
    (pocket_w, pocket_d), (pitch_w, pitch_d) = mech.pocket, mech.pitch
    card_w, card_d = mech.mm("card", "width"), mech.mm("card", "depth")
    grid_w, grid_d = mech.grid(columns, rows)
    drawing.text(20, y0 - 34, "Top view, to scale", "heading")
    drawing.text(x0, y0 - 8, "far edge: the operatives", "small")
    drawing.rect(x0, y0, top_w * s, top_d * s, "box")
    grid_x, grid_y = x0 + border * s, y0 + border * s
    for row in range(rows):
        for column in range(columns):
            px = grid_x + column * pitch_w * s
            py = grid_y + row * pitch_d * s
            drawing.rect(px, py, pocket_w * s, pocket_d * s, "pocket")
            inset_x, inset_y = (pocket_w - card_w) / 2 * s, (pocket_d - card_d) / 2 * s
            drawing.rect(px + inset_x, py + inset_y, card_w * s, card_d * s, "card")
            centre = (px + pocket_w * s / 2, py + pocket_d * s / 2)
            size = mech.mm("pad", "switch_size") * s
            drawing.rect(centre[0] - size / 2, centre[1] - size / 2, size, size, "switch")
            name = f"{'ABCDEFGH'[column]}{row + 1}"
            drawing.text(px + 5, py + 13, name, "cell")
    for column in range(columns):
        drawing.text(
            grid_x + (column * pitch_w + pocket_w / 2) * s,
            grid_y - 6,
            "ABCDEFGH"[column],
            "cell",
            anchor="middle",
        )
    # Dimensions: pocket and pitch on the first row and column, the grid and the whole top.
    _dimension(
        drawing,
        (grid_x, grid_y),
        (grid_x + pocket_w * s, grid_y),
        f"pocket {_mm(pocket_w)}",
        (0, -22),
    )
    _dimension(
        drawing,
        (grid_x, grid_y + grid_d * s),
        (grid_x + pitch_w * s, grid_y + grid_d * s),
        f"pitch {_mm(pitch_w)}",
        (0, 16),
    )
    _dimension(
        drawing,
        (grid_x, grid_y + grid_d * s),
        (grid_x + grid_w * s, grid_y + grid_d * s),
        f"grid {_mm(grid_w)}",
        (0, 34),
    )
    _dimension(
        drawing,
        (x0, y0 + top_d * s),
        (x0 + top_w * s, y0 + top_d * s),
        f"top {_mm(top_w)} × {_mm(top_d)}",
        (0, 40),
    )
    _dimension(
        drawing,
        (grid_x, grid_y),
        (grid_x, grid_y + pocket_d * s),
        f"pocket {_mm(pocket_d)}",
        (-6, 0),
    )
    _dimension(
        drawing,
        (grid_x, grid_y + pitch_d * s),
        (grid_x, grid_y + 2 * pitch_d * s),
        f"pitch {_mm(pitch_d)}",
        (-6, 0),
    )
    drawing.text(
        grid_x + grid_w * s + 4,
        grid_y + pocket_d * s + rib * s / 2 + 4,
        f"rib {_mm(rib)}",
        "small",
    )
    _draw_console_strip(drawing, mech, (x0, grid_y + grid_d * s + border * s), top_w)
    if mech.table.get("console", {}).get("second_oled") is True:
        window_w, window_d = _pair(mech, "console", "oled_window")
        far_x, far_y = x0 + (top_w - window_w) / 2 * s, y0 + 3 * s
        drawing.rect(far_x, far_y, window_w * s, window_d * s, "oled")
        drawing.text(
            far_x + window_w * s + 8,
            far_y + window_d * s / 2 + 4,
            "second OLED (optional), facing the operatives",
            "small",
        )
    legend_y = y0 + top_d * s + 66
    legend = (
        f"Grey: pocket ({_mm(pocket_w)} × {_mm(pocket_d)}); white: a {_mm(card_w)} × "
        f"{_mm(card_d)} card; dark square: its {mech.text('pad', 'switch')}.",
        "Row 1 is far from the spymasters, column A on their left, as everywhere in the firmware.",
    )
    for line, text in enumerate(legend):
        drawing.text(x0, legend_y + line * 16, text, "small")


def _draw_console_strip(drawing: Drawing, mech: Mechanics, corner: Point, top_w: float) -> None:
    """The spymasters' strip: console buttons and encoder, the hooded key, the OLED."""
    x0, y0 = corner
    s = TOP_SCALE
    depth = mech.mm("console", "depth")
    drawing.line((x0, y0), (x0 + top_w * s, y0), INK, 0.8)
    middle_y = y0 + depth * s / 2
    # The key in the middle, under its hood (seen from above, the hood hides most of it).
    key_w = _key_outer(mech)
    hood = mech.mm("key", "hood_depth")
    key_x = x0 + (top_w - key_w) / 2 * s
    drawing.rect(key_x, y0 + 4, key_w * s, hood * s, "hood")
    drawing.text(
        key_x + key_w * s / 2,
        y0 + 4 + hood * s / 2 - 4,
        "LED key under",
        "small",
        anchor="middle",
        colour="#ffffff",
    )
    drawing.text(
        key_x + key_w * s / 2,
        y0 + 4 + hood * s / 2 + 10,
        "its hood",
        "small",
        anchor="middle",
        colour="#ffffff",
    )
    # Encoder and the five console buttons on the left.
    pitch = mech.mm("console", "button_pitch")
    encoder_x = x0 + 24 * s
    drawing.circle(encoder_x, middle_y, 9 * s, PLATE)
    drawing.circle(encoder_x, middle_y, 4 * s, INK)
    drawing.text(encoder_x, middle_y + 14 * s, "encoder", "small", anchor="middle")
    for index, name in enumerate(("DONE", "PENALTY", "UNDO", "NEW", "TIMER")):
        bx = encoder_x + (26 + index * pitch) * s
        drawing.circle(bx, middle_y, 6 * s, COLOURS["matrix.columns"])
        drawing.text(bx, middle_y + (12 if index % 2 else -9) * s, name, "tiny", anchor="middle")
    # The OLED on the right, tilted toward everyone at the spymasters' end.
    window_w, window_d = (float(v) for v in _pair(mech, "console", "oled_window"))
    oled_x = x0 + (top_w - 40) * s - window_w * s / 2
    drawing.rect(oled_x, middle_y - window_d * s / 2, window_w * s, window_d * s, "oled")
    drawing.text(
        oled_x + window_w * s / 2,
        middle_y + window_d * s / 2 + 14,
        "OLED",
        "small",
        anchor="middle",
    )
    drawing.text(
        x0 + top_w * s / 2,
        y0 + depth * s + 14,
        "near edge: the spymasters",
        "small",
        anchor="middle",
    )


def _pair(mech: Mechanics, section: str, key: str) -> tuple[float, float]:
    value = mech.table.get(section, {}).get(key)
    if not isinstance(value, list) or len(value) != 2:
        raise MechanicsError(f"{mech.source}: [{section}] {key} must be [width, height]")
    return float(value[0]), float(value[1])


def _key_outer(mech: Mechanics) -> float:
    """Side of the key panel: the 5 × 5 cells and an edge light beyond each side."""
    cells = math.isqrt(CELLS) * mech.mm("key", "cell_pitch")
    return cells + 2 * (mech.mm("key", "edge_gap") + mech.mm("key", "cell_pitch") / 2)


def _draw_pad_section(drawing: Drawing, mech: Mechanics, origin: Point) -> None:
    """A cut through one pocket, left to right: how a pad mounts under a card."""
    x0, y0 = origin
    s = SECTION_SCALE
    drawing.text(x0, y0, "Section through one card pad, enlarged", "heading")
    pocket_w, _ = mech.pocket
    rib, play = mech.mm("grid", "rib"), mech.mm("pad", "plate_play")
    base, board = mech.mm("pad", "base_thickness"), mech.mm("pad", "board_thickness")
    switch_h, plate = mech.mm("pad", "switch_height"), mech.mm("pad", "plate_thickness")
    top, overlay = mech.mm("pad", "top_thickness"), mech.mm("pad", "overlay_thickness")
    frame, card = mech.mm("pad", "frame_thickness"), mech.mm("card", "thickness")
    switch = mech.mm("pad", "switch_size")
    span = pocket_w + 2 * rib
    left = x0 + 40
    bottom = y0 + 300

    def layer(x_mm: float, z_mm: float, w_mm: float, h_mm: float, fill: str) -> None:
        drawing.box(left + x_mm * s, bottom - (z_mm + h_mm) * s, w_mm * s, h_mm * s, fill)

    layer(0, 0, span, base, WOOD)
    layer(rib, base, pocket_w, board, "#2f9e44")
    layer(span / 2 - switch / 2, base + board, switch, switch_h, INK)
    bump = mech.mm("pad", "bump_thickness")
    layer(span / 2 - 5, base + board + switch_h, 10, bump, "#f783ac")
    plate_z = base + board + switch_h + bump
    layer(rib + play, plate_z, pocket_w - 2 * play, plate, PLATE)
    top_z = base + mech.spacer
    layer(0, top_z, rib, top, WOOD)
    layer(rib + pocket_w, top_z, rib, top, WOOD)
    layer(0, base, 4, mech.spacer, "#adb5bd")
    layer(span - 4, base, 4, mech.spacer, "#adb5bd")
    overlay_z = top_z + top
    layer(0, overlay_z, span, overlay, OVERLAY)
    layer(0, overlay_z + overlay, rib, frame, "#495057")
    layer(rib + pocket_w, overlay_z + overlay, rib, frame, "#495057")
    layer(
        rib + mech.mm("grid", "clearance"),
        overlay_z + overlay,
        mech.mm("card", "width"),
        card,
        "#fff3bf",
    )
    # (where the leader points: across the section and up the stack, in mm; the label)
    card_x = rib + mech.mm("grid", "clearance") + mech.mm("card", "width") * 0.8
    labels = (
        (card_x, overlay_z + overlay + card / 2, "word card, loose in its pocket"),
        (span - rib / 2, overlay_z + overlay + frame / 2, f"grid frame, {_mm(frame)}: the ribs"),
        (span - rib - 4, overlay_z + overlay / 2, f"overlay, {_mm(overlay)} polycarbonate"),
        (span - rib / 2, top_z + top / 2, f"top plate, {_mm(top)}, a hole per pocket"),
        (span - rib - 10, plate_z + plate / 2, f"pressure plate, {_mm(plate)}, {_mm(play)} play"),
        (
            span / 2 + switch / 4,
            base + board + switch_h / 2,
            f"tactile switch, {_mm(switch)} square, {_mm(switch_h)} high",
        ),
        (span / 2 + 4, plate_z - bump / 2, f"silicone bump, {_mm(bump)}: takes up the stack"),
        (span - rib - 10, base + board / 2, f"perfboard, {_mm(board)}: switch and diode"),
        (span - 2, base + mech.spacer / 2, f"spacer, {_mm(round(mech.spacer, 1))}"),
        (span - 14, base / 2, f"base, {_mm(base)}"),
    )
    label_x = left + span * s + 24
    for index, (x, z, text) in enumerate(labels):
        text_y = y0 + 36 + index * 26
        drawing.line((left + x * s, bottom - z * s), (label_x - 4, text_y - 4), "#868e96", 0.8)
        drawing.circle(left + x * s, bottom - z * s, 1.6, "#495057")
        drawing.text(label_x, text_y, text, "small")
    drawing.text(
        x0,
        bottom + 24,
        "A press anywhere on the card bends the overlay and pushes the plate onto the switch;",
        "small",
    )
    drawing.text(
        x0, bottom + 40, "spills stay above the overlay, which the frame clamps all round.", "small"
    )


def _draw_key_side(drawing: Drawing, mech: Mechanics, origin: Point) -> None:
    """The LED key from the side: tilted toward the spymasters, hooded from the far side."""
    x0, y0 = origin
    s = KEY_SCALE
    drawing.text(x0, y0, "LED key, side view: only the spymasters see it", "heading")
    side = _key_outer(mech)
    tilt = math.radians(mech.mm("key", "tilt_degrees"))
    hood = mech.mm("key", "hood_depth")
    crate = mech.mm("key", "crate_depth")
    table_y = y0 + 300
    foot = (x0 + 330, table_y)
    # The panel leans back, away from the spymasters on the left.
    top_end = (foot[0] + side * math.cos(tilt) * s, table_y - side * math.sin(tilt) * s)
    drawing.line((x0, table_y), (x0 + 640, table_y), INK, 2)
    drawing.line(foot, top_end, "#c2255c", 6)
    normal = (-math.sin(tilt), -math.cos(tilt))
    for step in range(6):
        t = step / 5
        bx = foot[0] + (top_end[0] - foot[0]) * t
        by = foot[1] + (top_end[1] - foot[1]) * t
        drawing.line((bx, by), (bx + normal[0] * crate * s, by + normal[1] * crate * s), INK, 1.2)
    # The diffusers close the cells' open ends, in one plane parallel to the panel.
    lift = (normal[0] * crate * s, normal[1] * crate * s)
    drawing.line(
        (foot[0] + lift[0], foot[1] + lift[1]),
        (top_end[0] + lift[0], top_end[1] + lift[1]),
        "#ced4da",
        3,
    )
    # The hood reaches from the top of the panel toward the spymasters.
    hood_end = (top_end[0] - hood * s, top_end[1])
    drawing.line(top_end, hood_end, INK, 3)
    drawing.line(top_end, (top_end[0] + 40, table_y), INK, 3)
    eye = (x0 + 10, table_y - 200)
    centre = ((foot[0] + top_end[0]) / 2, (foot[1] + top_end[1]) / 2)
    drawing.line(eye, centre, "#2b8a3e", 1.5)
    drawing.text(eye[0], eye[1] - 10, "spymasters' eyes", "small", colour="#2b8a3e")
    far_eye = (x0 + 620, table_y - 200)
    drawing.line(far_eye, (top_end[0] + 20, top_end[1] + 20), "#e03131", 1.5)
    drawing.text(
        far_eye[0],
        far_eye[1] - 10,
        "operatives see the back",
        "small",
        anchor="end",
        colour="#e03131",
    )
    notes = (
        f"Panel {_mm(round(side))} square: {CELLS} cells at {_mm(mech.mm('key', 'cell_pitch'))} "
        f"pitch and {EDGES} edge lights,",
        f"tilted {mech.mm('key', 'tilt_degrees'):g}° toward the spymasters under a "
        f"{_mm(hood)} hood.",
        f"Each pixel sits in its own cell of a {_mm(crate)} egg-crate "
        f"({_mm(mech.mm('key', 'wall'))} black walls), under",
        f"{mech.text('key', 'diffuser')}.",
    )
    for line, text in enumerate(notes):
        drawing.text(x0, table_y + 26 + line * 16, text, "small")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Draw the mechanical layout.")
    parser.add_argument("--mechanics", type=Path, default=DEFAULT_MECHANICS)
    parser.add_argument("--pinout", type=Path, help="pin map (default: the shipped one)")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="SVG file to write")
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    args = parser.parse_args(argv)
    try:
        svg = render_svg(load_mechanics(args.mechanics), load_pin_map(args.pinout))
    except (MechanicsError, tomllib.TOMLDecodeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return write_or_check(svg, args.output, args.check, Path(__file__).name)


if __name__ == "__main__":
    sys.exit(main())
