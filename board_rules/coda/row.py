"""A player's row, the "code": its tiles left to right, and the order rule.

The order rule: the numbered tiles of a row ascend from left to right by rank (by number, the
black one first of two equal numbers). A dash is not ordered: it goes wherever its owner puts it,
before 0 included. Tiles only ever enter a row by insertion, so a tile, a dash included, never
moves relative to the others once placed; a revealed tile stays where it was.

>>> row = [Tile.parse(t) for t in ("b1", "b-", "w4")]
>>> legal_slots(row, Tile.parse("b3"))
(1, 2)
>>> legal_slots(row, Tile.parse("w-"))
(0, 1, 2, 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from board_rules.coda.tiles import Tile, Value


@dataclass(frozen=True)
class RowTile:
    """A tile in a row, with what the table knows of it."""

    tile: Tile
    revealed: bool = False
    """Face up for everyone: turned by a right attack, or placed face up. Never hidden again."""
    misses: frozenset[Value] = field(default_factory=frozenset)
    """Values named against it in wrong attacks: everyone heard that it is none of them."""
    owner_named: frozenset[Value] = field(default_factory=frozenset)
    """Values its owner named in wrong attacks on other players' tiles of its colour while it
    lay hidden in the row. A player who knows its own tiles never names one of them, so these
    are values it almost surely is not; the rules keep the record, players judge it."""
    label: int = field(default=0, compare=False)
    """Its number in the order its row received its tiles, from 1: the opening's tiles left to
    right, then each drawn tile. Unlike its position it never changes, so a screen's log and a
    player's memory of the attacks can name the tile by it (0: a row built outside a game)."""


def is_ordered(tiles: Iterable[Tile]) -> bool:
    """True when the numbered tiles ascend by rank (the dashes may sit anywhere)."""
    ranks = [tile.rank for tile in tiles if tile.rank is not None]
    return all(left < right for left, right in pairwise(ranks))


def legal_slots(tiles: Sequence[Tile], new: Tile) -> tuple[int, ...]:
    """Where `new` may be inserted in an ordered row: each slot is an index 0–len(tiles), the
    number of tiles that end up to its left.

    A dash may go anywhere. A numbered tile goes after every lower-ranked tile and before every
    higher one; more than one slot is possible only when dashes lie between those two.
    """
    rank = new.rank
    if rank is None:
        return tuple(range(len(tiles) + 1))
    low = 0
    high = len(tiles)
    for index, tile in enumerate(tiles):
        if tile.rank is None:
            continue
        if tile.rank < rank:
            low = index + 1
        elif high == len(tiles):
            high = index
    return tuple(range(low, high + 1))
