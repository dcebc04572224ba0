"""Where each light of the LED key sits on the pixel chain: card coordinate → pixel index.

The key has 29 WS2812 pixels on one data line: the 25 cells, then four edge lights that show the
starting team as the four lights of a key card do. How the chain snakes through the board, and
how the board is turned on the table, differs between builds, so the map is configuration:

- `serpentine`: rows alternate direction (A1…E1, E2…A2, …), as a strip laid in one piece runs;
  otherwise every row starts at the same side (A1…E1, A2…E2, …).
- `mirror`: the board is wired from the right: pixel 0 sits at the top right corner.
- `rotation`: the board is turned clockwise by 0, 90, 180 or 270 degrees on the table.
- `offset`: pixels on the chain before the key (a level-shifting "sacrificial" pixel, say);
  they are held dark.

Mirror comes first, then the rotation. The edge lights follow the last cell in the order top,
right, bottom, left of the board, and turn with it.

>>> from board_rules.codenames import Coord
>>> layout = LedLayout()
>>> [layout.index(Coord.parse(name)) for name in ("A1", "E1", "E2", "A2", "A3")]
[0, 4, 5, 9, 10]
>>> layout.edge_index(Side.TOP), layout.edge_index(Side.LEFT)
(25, 28)
>>> LedLayout(rotation=90).index(Coord.parse("E1"))
0
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from board_rules.codenames.grid import SIZE, Coord
from firmware.config_keys import FLAG, one_of, setting, whole
from firmware.errors import FirmwareError

CELLS = SIZE * SIZE
"""Pixels of the 25 cells."""

EDGES = 4
"""Pixels of the edge lights, one per side."""

ROTATIONS = (0, 90, 180, 270)
"""The rotations a board can be mounted at, clockwise, in degrees."""

MAX_OFFSET = 100
"""Most dark pixels before the key: a level shifter needs one; a chain of millions would only
stall every frame."""


class LedError(FirmwareError):
    """Root of every error raised by the LED key."""


class LedConfigError(LedError, ValueError):
    """An LED setting that is not allowed; `key` names the setting."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


class Side(Enum):
    """One edge of the key; the edge lights sit in the middle of each."""

    TOP = "top"
    """The edge at row 1."""
    RIGHT = "right"
    """The edge at column E."""
    BOTTOM = "bottom"
    """The edge at row 5."""
    LEFT = "left"
    """The edge at column A."""

    @property
    def clockwise(self) -> Side:
        """The side a quarter turn clockwise from this one."""
        return _CLOCKWISE[self]

    @property
    def mirrored(self) -> Side:
        """This side seen in a left–right mirror."""
        return {Side.LEFT: Side.RIGHT, Side.RIGHT: Side.LEFT}.get(self, self)


_CLOCKWISE = {
    Side.TOP: Side.RIGHT,
    Side.RIGHT: Side.BOTTOM,
    Side.BOTTOM: Side.LEFT,
    Side.LEFT: Side.TOP,
}

Light = Coord | Side
"""One light of the key: a cell or an edge light."""


@dataclass(frozen=True)
class LedLayout:
    """The wiring of the key's pixel chain (`[led.layout]` of the config, its keys declared
    here); the default is the reference build."""

    serpentine: bool = setting(
        True, FLAG, "rows run A1..E1, E2..A2, A3..E3 (false: every row from A)"
    )
    rotation: int = setting(
        0,
        one_of(ROTATIONS, "0, 90, 180 or 270 (degrees clockwise)"),
        "0, 90, 180 or 270: the strip's first cell turned clockwise from A1",
    )
    mirror: bool = setting(False, FLAG, "true: columns mirrored (applied before the rotation)")
    offset: int = setting(
        0,
        whole(0, MAX_OFFSET, f"a whole number from 0 to {MAX_OFFSET}"),
        "dark pixels on the chain before A1, 0-100",
    )

    @property
    def pixel_count(self) -> int:
        """Pixels on the chain up to the last edge light, the offset included."""
        return self.offset + CELLS + EDGES

    def wire_order(self) -> tuple[Light | None, ...]:
        """The light of each pixel along the chain; None for the dark offset pixels."""
        cells = tuple(self._to_table(*self._board_position(p)) for p in range(CELLS))
        edges = tuple(self._turn_side(side) for side in Side)
        return (None,) * self.offset + cells + edges

    def index(self, coord: Coord) -> int:
        """The pixel index of the cell at `coord`."""
        return self._indices()[coord]

    def edge_index(self, side: Side) -> int:
        """The pixel index of the edge light on `side` of the table."""
        return self._indices()[side]

    def _indices(self) -> dict[Light, int]:
        # 29 entries: rebuilding beats caching state on a frozen value type.
        return {light: i for i, light in enumerate(self.wire_order()) if light is not None}

    def _board_position(self, pixel: int) -> tuple[int, int]:
        """Row and column, on the board itself, of the `pixel`-th cell of the chain."""
        row, column = divmod(pixel, SIZE)
        if self.serpentine and row % 2 == 1:
            column = SIZE - 1 - column
        return row, column

    def _to_table(self, row: int, column: int) -> Coord:
        """Where a board position lands once the board is mirrored and turned."""
        if self.mirror:
            column = SIZE - 1 - column
        for _ in range(self.rotation // 90):
            # A quarter turn clockwise: the top row becomes the right-hand column.
            row, column = column, SIZE - 1 - row
        return Coord(row, column)

    def _turn_side(self, side: Side) -> Side:
        if self.mirror:
            side = side.mirrored
        for _ in range(self.rotation // 90):
            side = side.clockwise
        return side


__all__ = [
    "CELLS",
    "EDGES",
    "MAX_OFFSET",
    "ROTATIONS",
    "LedConfigError",
    "LedError",
    "LedLayout",
    "Light",
    "Side",
]
