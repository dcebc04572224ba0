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

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import Enum

from board_rules.codenames.grid import SIZE, Coord
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
    """The wiring of the key's pixel chain; the default is the reference build."""

    serpentine: bool = True
    rotation: int = 0
    mirror: bool = False
    offset: int = 0

    def __post_init__(self) -> None:
        # TOML hands over whatever was typed: `rotation = "90"` or `mirror = "yes"` must be
        # refused here, with the setting named, not misread later as a silent wrong map.
        for name in ("serpentine", "mirror"):
            if not isinstance(getattr(self, name), bool):
                raise LedConfigError(name, f"must be true or false, not {getattr(self, name)!r}")
        if not _is_int(self.rotation) or self.rotation not in ROTATIONS:
            raise LedConfigError(
                "rotation", f"must be 0, 90, 180 or 270 (degrees clockwise), not {self.rotation!r}"
            )
        if not _is_int(self.offset) or not 0 <= self.offset <= MAX_OFFSET:
            raise LedConfigError(
                "offset", f"must be a whole number from 0 to {MAX_OFFSET}, not {self.offset!r}"
            )

    @classmethod
    def from_mapping(cls, settings: Mapping[str, object]) -> LedLayout:
        """Read the layout from a config table; unknown settings are refused by name."""
        known = {f.name for f in fields(cls)}
        for name in settings:
            if name not in known:
                raise LedConfigError(
                    name, f"unknown layout setting; known are {', '.join(sorted(known))}"
                )
        return cls(**settings)  # type: ignore[arg-type]  # every value is checked in __post_init__

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


def _is_int(value: object) -> bool:
    # bool is an int subclass, but `rotation = true` is a typo, not a rotation.
    return isinstance(value, int) and not isinstance(value, bool)


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
