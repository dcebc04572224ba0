"""Coda's tiles: the numbers 0–11 in black and in white, and the advanced game's two dashes.

A tile's colour shows on its back, so everyone sees it; its value shows only when it is turned
face up. Numbered tiles have a total order, the *rank*: by number, and of two equal numbers the
black one first. Dashes have no rank: their owner puts them anywhere in the row.

>>> Tile.parse("b5"), str(Tile(Color.WHITE, DASH))
(Tile(color=<Color.BLACK: 'black'>, value=5), 'w-')
>>> Tile.parse("b5").rank < Tile.parse("w5").rank < Tile.parse("b6").rank
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Final, Literal

from board_rules.coda.errors import InvalidTileError

DASH: Final = "-"
"""The value of a dash tile, as it is named in an attack ("black dash", "white dash")."""

Value = int | Literal["-"]
"""What a tile shows face up: a number 0–11, or the dash."""

HIGHEST: Final = 11
"""The highest number on a tile; the lowest is 0."""

NUMBERS: Final = tuple(range(HIGHEST + 1))

RANKS: Final = 2 * len(NUMBERS)
"""How many numbered tiles there are: ranks run from 0 to RANKS - 1."""


class Color(Enum):
    """The colour of a tile, seen by everyone on its back."""

    BLACK = "black"
    """Black: of two tiles with the same number, the black one lies to the left."""
    WHITE = "white"
    """White: of two tiles with the same number, the white one lies to the right."""

    @property
    def letter(self) -> str:
        """The first letter of the tile's text form: `b` or `w`."""
        return self.value[0]


def check_value(value: object) -> Value:
    """`value` itself if it is a number 0–11 or the dash; raises `InvalidTileError` otherwise."""
    if value == DASH and isinstance(value, str):
        return DASH
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= HIGHEST:
        return value
    raise InvalidTileError(f"a tile shows a number from 0 to {HIGHEST} or a dash, not {value!r}")


def value_order(value: Value) -> int:
    """A sort key for values: the numbers in order, then the dash (for stable listings)."""
    return HIGHEST + 1 if value == DASH else int(value)


@dataclass(frozen=True)
class Tile:
    """One tile: its colour and its value."""

    color: Color
    value: Value
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.color, Color):
            raise InvalidTileError(f"a tile is black or white, not {self.color!r}")
        check_value(self.value)
        # The deductions hash tiles by the million: one small number, worked out once, in
        # place of hashing the colour (an Enum's hash runs in Python) and the value each time.
        white = self.color is Color.WHITE
        key = 2 * self.value + white if isinstance(self.value, int) else RANKS + white
        object.__setattr__(self, "_hash", key)

    def __hash__(self) -> int:
        return self._hash

    @property
    def is_dash(self) -> bool:
        """True for the two dashes of the advanced game."""
        return self.value == DASH

    @property
    def rank(self) -> int | None:
        """The place of a numbered tile in the order of all 24 (0 = black 0, 23 = white 11);
        None for a dash, which has no place of its own."""
        if isinstance(self.value, int):
            return 2 * self.value + (self.color is Color.WHITE)
        return None

    @classmethod
    def from_rank(cls, rank: int) -> Tile:
        """The numbered tile of `rank` (see `rank`)."""
        if not 0 <= rank < RANKS:
            raise InvalidTileError(f"a rank runs from 0 to {RANKS - 1}, not {rank}")
        return _NUMBERED[rank]

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read the text form: `b` or `w`, then a number 0–11 or `-` (`b0`, `w11`, `b-`)."""
        cleaned = text.strip().lower()
        colors = {color.letter: color for color in Color}
        head, tail = cleaned[:1], cleaned[1:]
        if head not in colors or not (tail == DASH or (tail.isdigit() and tail.isascii())):
            raise InvalidTileError(f"a tile is b or w then 0–11 or -, not {text!r}")
        return cls(colors[head], DASH if tail == DASH else int(tail))

    def __str__(self) -> str:
        return f"{self.color.letter}{self.value}"


_NUMBERED: Final = tuple(Tile(Color.WHITE if r % 2 else Color.BLACK, r // 2) for r in range(RANKS))
"""The numbered tiles by rank, built once: the deductions look them up by the thousand."""


def game_tiles(advanced: bool) -> tuple[Tile, ...]:
    """Every tile in play: the 24 numbered tiles in rank order, then, in the advanced game,
    the black and the white dash."""
    numbered = tuple(Tile.from_rank(rank) for rank in range(RANKS))
    if not advanced:
        return numbered
    return (*numbered, Tile(Color.BLACK, DASH), Tile(Color.WHITE, DASH))
