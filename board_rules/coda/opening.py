"""The opening's two choices, written once for the rules, the computer players and any screen.

- Taking: each player takes its opening tiles face down, choosing how many are black; the rest
  are white, and neither colour can give more tiles than its stack holds (`take_range`).
- Laying out (advanced game): the numbered tiles line up in ascending order, and each dash held
  goes to a position its owner chooses, the black dash's first (`opening_row`). `Arrange` names
  those positions.

>>> from board_rules.coda.tiles import Tile
>>> hand = [Tile.parse(t) for t in "w5 b- b0 w1".split()]
>>> " ".join(map(str, opening_row(hand, (2,))))
'b0 w1 b- w5'
>>> take_range(4, black_left=10, white_left=1)
(3, 4)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from board_rules.coda.tiles import Color, Tile


def take_range(size: int, black_left: int, white_left: int) -> tuple[int, int]:
    """The fewest and the most black tiles an opening of `size` tiles may take when the pool
    has `black_left` black and `white_left` white tiles."""
    return max(0, size - white_left), min(size, black_left)


def dashes_in_order(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    """The dashes among `tiles` in the order a layout places them: the black one first."""
    return tuple(sorted((t for t in tiles if t.is_dash), key=lambda t: t.color is Color.WHITE))


def is_layout(tiles: Sequence[Tile], positions: Sequence[int]) -> bool:
    """True when `positions` gives each dash among `tiles` a place of its own in their row."""
    return (
        len(positions) == len(dashes_in_order(tiles))
        and len(set(positions)) == len(positions)
        and all(0 <= position < len(tiles) for position in positions)
    )


def opening_row(tiles: Sequence[Tile], positions: Sequence[int]) -> tuple[Tile, ...]:
    """The row that `tiles` make with each dash at its position in `positions` (black dash
    first) and the numbers in ascending order in the other places; raises `ValueError` unless
    `is_layout(tiles, positions)`."""
    if not is_layout(tiles, positions):
        raise ValueError(f"{list(positions)} does not place each dash of {len(tiles)} tiles once")
    at = dict(zip(positions, dashes_in_order(tiles), strict=True))
    numbers = iter(sorted((t for t in tiles if not t.is_dash), key=_rank))
    return tuple(at[i] if i in at else next(numbers) for i in range(len(tiles)))


def _rank(tile: Tile) -> int:
    return tile.rank if tile.rank is not None else -1
