"""Lay out the interface board on perfboard from the netlist: every part's holes, every wire.

Called by make_hardware.py for each variant. The board is 0.1" perfboard (plain pads, no
strips, so there is nothing to cut): each part gets a place on the hole grid, and each net is
wired on the underside as a chain of links from pin to pin, nearest first. `problems` checks the
result against the netlist: every pin of every net on the board reached, no hole used twice.
Written as generated/interface-board-<variant>.md (the tables) and .svg (the drawing).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from svg_drawing import Drawing

BOARD_COLUMNS = 62
"""160 mm of 0.1" perfboard; rows as many as the parts need (a 100 mm board has 39)."""
BOARD_ROWS = 39

OFF_BOARD = re.compile(r"^(P1|PS1|J10|F10|R20|R_PI\d|DS\d|LED\d+|SW.*|D_.*|E_.*|U2\d|J[2-4]\d)$")
"""Parts elsewhere: the Pi and its pull-ups, mains, the key, displays, switches and their
diodes, electrodes, touch modules, and the far ends of the cables (J20 and above)."""

Hole = tuple[int, int]
"""(column, row) on the perfboard, from the top left corner."""


def pin_offsets(kind: str, pins: int) -> list[Hole]:
    """Where each pin of a part of `kind` sits, relative to its first pin, in holes."""
    if kind in {"resistor", "resistor_half_watt", "diode"}:
        return [(0, 0), (4, 0)]
    if kind == "tvs":
        return [(0, 0), (5, 0)]
    if kind in {"ceramic_100n", "ceramic_1u", "bulk_capacitor", "ptc_led", "ptc_pi"}:
        return [(0, 0), (2, 0)]
    if kind == "buzzer":
        return [(0, 0), (3, 0)]
    if kind == "header_2x20":
        return [((n - 1) // 2, (n - 1) % 2) for n in range(1, pins + 1)]
    if kind in {"level_shifter", "esd_array"}:
        half = pins // 2  # DIP numbering: down one side, back up the other
        return [(i, 0) for i in range(half)] + [(half - 1 - i, 3) for i in range(half)]
    if kind == "power_connector":
        return [(0, 0), (2, 0)]
    return [(i, 0) for i in range(pins)]


BODY_EXTRA: dict[str, Hole] = {"bulk_capacitor": (2, 3), "buzzer": (2, 4), "ptc_led": (1, 1)}
"""Bodies larger than their pins' span (the 10 mm capacitor, the 12 mm transducer)."""


@dataclass(frozen=True)
class Placed:
    ref: str
    kind: str
    value: str
    origin: Hole
    pins: dict[str, Hole]
    """Pin number → hole."""
    size: Hole


@dataclass(frozen=True)
class Board:
    variant: str
    parts: tuple[Placed, ...]
    links: tuple[tuple[str, Hole, Hole], ...]
    """(net, from hole, to hole): one wire on the underside."""
    rows: int

    def hole_of(self, ref: str, pin: str) -> Hole:
        return next(part.pins[pin] for part in self.parts if part.ref == ref)


ORDER = (
    r"J1",  # the ribbon from the Pi, at the left edge
    r"U1\d",  # the ESD arrays beside it
    r"R[34]\d",  # the 100 Ω series resistors
    r"R2\d",  # the column pull-ups
    r"J1\d",  # the pad rows and the console
    r"J\d",  # the supply, LED and display connectors
    r"F\d|Q[123]|U2|R[1-6]|D1|C1",  # the LED supply entry
    r"U1|C2|R9",  # the level shifter
    r"R[78]|C4",  # the supply sense
    r"R1\d|C3|Q4|BZ\d|D2|W\d",  # displays' reset, the buzzer, the Pi's lead
)
"""Groups of parts in the order they sit on the board, so that each group's wires stay short."""


def _order(ref: str) -> tuple[int, tuple[object, ...]]:
    rank = next((i for i, group in enumerate(ORDER) if re.fullmatch(group, ref)), len(ORDER))
    return rank, tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", ref))


def place(nodes: dict[str, tuple[str, str, int]]) -> tuple[Placed, ...]:
    """Shelf-pack the board's parts: (ref → (kind, value, pins)), left to right, top down."""
    placed = []
    column, row, shelf = 1, 1, 0
    for ref in sorted(nodes, key=_order):
        kind, value, count = nodes[ref]
        offsets = pin_offsets(kind, count)
        extra = BODY_EXTRA.get(kind, (0, 0))
        width = max(dx for dx, _ in offsets) + 1 + extra[0]
        height = max(dy for _, dy in offsets) + 1 + extra[1]
        if column + width > BOARD_COLUMNS - 1:
            column, row, shelf = 1, row + shelf + 1, 0
        origin = (column, row)
        pins = {str(n): (column + dx, row + dy) for n, (dx, dy) in enumerate(offsets, start=1)}
        placed.append(Placed(ref, kind, value, origin, pins, (width, height)))
        column += width + 1
        shelf = max(shelf, height)
    return tuple(placed)


def build(
    variant: str,
    nets: dict[str, frozenset[tuple[str, str]]],
    parts: dict[str, tuple[str, str, int]],
) -> Board:
    """The board for `variant` from its netlist's nets and parts (ref → kind, value, pins)."""
    on_board = {ref: info for ref, info in parts.items() if not OFF_BOARD.match(ref)}
    placed = place(on_board)
    where = {(part.ref, pin): hole for part in placed for pin, hole in part.pins.items()}
    links = []
    for net, nodes in sorted(nets.items()):
        holes = sorted(where[node] for node in nodes if node in where)
        if len(holes) < 2:
            continue
        # Nearest first from the top left pin: a short chain, one wire per step.
        chain, rest = [holes[0]], set(holes[1:])
        while rest:
            last = chain[-1]
            nearest = min(
                rest, key=lambda hole: (abs(hole[0] - last[0]) + abs(hole[1] - last[1]), hole)
            )
            rest.remove(nearest)
            links.append((net, last, nearest))
            chain.append(nearest)
    rows = max(part.origin[1] + part.size[1] for part in placed) + 1
    return Board(variant, placed, tuple(links), rows)


def problems(board: Board, nets: dict[str, frozenset[tuple[str, str]]]) -> list[str]:
    """Where the board disagrees with the netlist: a pin not wired to its net, or a hole that
    two pins share, or a part off the board."""
    found = []
    owner: dict[Hole, str] = {}
    for part in board.parts:
        for pin, hole in part.pins.items():
            if hole in owner:
                found.append(f"{part.ref} pin {pin} and {owner[hole]} share hole {hole}")
            owner[hole] = f"{part.ref} pin {pin}"
            if not (0 <= hole[0] < BOARD_COLUMNS and 0 <= hole[1] < BOARD_ROWS):
                found.append(f"{part.ref} pin {pin} is off the board at {hole}")
    parent: dict[Hole, Hole] = {}

    def root(hole: Hole) -> Hole:
        while parent.get(hole, hole) != hole:
            hole = parent[hole]
        return hole

    for _, start, end in board.links:
        parent[root(start)] = root(end)
    where = {(part.ref, pin): hole for part in board.parts for pin, hole in part.pins.items()}
    for net, nodes in nets.items():
        holes = [where[node] for node in nodes if node in where]
        if len({root(hole) for hole in holes}) > 1:
            found.append(f"net {net} is not joined on the board")
    # A link must not join two nets.
    members: dict[Hole, str] = {}
    for net, nodes in nets.items():
        for node in nodes:
            if node in where:
                members[where[node]] = net
    for net, start, end in board.links:
        if members.get(start) != net or members.get(end) != net:
            found.append(f"a link of {net} ends on another net ({start} → {end})")
    return found


def _hole_name(hole: Hole) -> str:
    """Column letters and row number as printed on most perfboards: A1 is the top left."""
    column, row = hole
    letters = ""
    column += 1
    while column:
        column, remainder = divmod(column - 1, 26)
        letters = chr(65 + remainder) + letters
    return f"{letters}{row + 1}"


def markdown(board: Board, title: str) -> str:
    out = [
        f"# Interface board, {title}",
        "",
        "Generated by `hardware/make_hardware.py` from the netlist "
        f'(`table-{board.variant}.net`): 0.1" perfboard, {BOARD_COLUMNS} × {board.rows} holes, '
        "seen from the parts' side; columns A, B, … left to right, rows 1, 2, … top down "
        f"(drawing: `interface-board-{board.variant}.svg`). Place each part with its pin 1 on "
        "the hole given, then solder the links on the underside, net by net, with "
        "insulated wire (bare tinned wire where a link runs along one row or column "
        "without crossing another). Nothing is cut: perfboard has no strips.",
        "",
        "## Parts",
        "",
        "| Ref | Part | Pins: hole |",
        "| --- | --- | --- |",
    ]
    for part in board.parts:
        holes = ", ".join(f"{pin}: {_hole_name(hole)}" for pin, hole in part.pins.items())
        out.append(f"| {part.ref} | {part.value} | {holes} |")
    out += ["", f"## Links ({len(board.links)})", "", "| Net | From | To |", "| --- | --- | --- |"]
    for net, start, end in board.links:
        out.append(f"| {net} | {_hole_name(start)} | {_hole_name(end)} |")
    return "\n".join(out) + "\n"


PITCH = 14
MARGIN = 40


def svg(board: Board, title: str) -> str:
    width = BOARD_COLUMNS * PITCH + 2 * MARGIN
    height = board.rows * PITCH + 2 * MARGIN + 20
    drawing = Drawing(width, height)
    drawing.text(MARGIN, 24, f"Interface board, {title}: parts side, links underneath", "heading")

    def at(hole: Hole) -> tuple[float, float]:
        return MARGIN + hole[0] * PITCH + PITCH / 2, MARGIN + hole[1] * PITCH + PITCH / 2

    drawing.rect(MARGIN, MARGIN, BOARD_COLUMNS * PITCH, board.rows * PITCH, "box")
    for net, start, end in board.links:
        drawing.line(at(start), at(end), _colour(net), 1.4)
    for part in board.parts:
        x, y = MARGIN + part.origin[0] * PITCH, MARGIN + part.origin[1] * PITCH
        drawing.rect(x + 1, y + 1, part.size[0] * PITCH - 2, part.size[1] * PITCH - 2, "pocket")
        for pin, hole in part.pins.items():
            cx, cy = at(hole)
            drawing.circle(cx, cy, 3.2 if pin == "1" else 2.2, "#212529", f"{part.ref} pin {pin}")
        drawing.text(x + 2, y - 2, part.ref, "tiny")
    return drawing.serialise()


def _colour(net: str) -> str:
    if net in {"GND"}:
        return "#343a40"
    if "5V" in net:
        return "#e03131"
    if net == "3V3":
        return "#f08c00"
    return "#1971c2"


def files(
    boards: Sequence[tuple[Board, str]],
) -> Iterator[tuple[str, str]]:
    """(file name, text) of each board's table and drawing."""
    for board, title in boards:
        yield f"interface-board-{board.variant}.md", markdown(board, title)
        yield f"interface-board-{board.variant}.svg", svg(board, title)
