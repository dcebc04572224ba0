"""How readable one's own row is to the table: the yardstick the hard opponent places its
tiles by.

The exposure of a row is what someone who knows only the public facts (the colours, the
revealed tiles anywhere, the misses) could deduce about its hidden tiles: for each hidden
tile, the probability such a player gives its true value; the row's exposure is the highest of
those, then their sum. Lower is safer. The opponents also know their own tiles, which the owner
cannot see, so this is a proxy, but the same one for every choice compared.

>>> from board_rules.coda.tiles import DASH, Color
>>> b1, b9, dash = (RowTile(Tile(Color.BLACK, v)) for v in (1, 9, DASH))
>>> exposure([dash, b1, b9], frozenset(), advanced=True) < exposure(
...     [b1, dash, b9], frozenset(), advanced=True)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from board_rules.coda.deduction import Deduction, deduce_rows
from board_rules.coda.row import RowTile
from board_rules.coda.seen import Rows, SeenTile
from board_rules.coda.tiles import Tile, game_tiles
from board_rules.coda.view import PlayerView


def exposure(
    row: Sequence[RowTile], public: frozenset[Tile], *, advanced: bool
) -> tuple[Fraction, Fraction]:
    """The exposure of `row` (highest chance, then their total) to someone who knows the
    `public` tiles (those revealed outside this row) and this row's colours and revealed tiles.
    """
    seen = tuple(
        SeenTile(slot.tile.color, slot.tile.value if slot.revealed else None, misses=slot.misses)
        for slot in row
    )
    hidden = [(i, slot.tile.value) for i, slot in enumerate(row) if not slot.revealed]
    if not hidden:
        return Fraction(0), Fraction(0)
    shown = {slot.tile for slot in row if slot.revealed}
    unseen = frozenset(game_tiles(advanced)) - public - shown
    found = _public_deduction(seen, unseen)
    chances = [found.probability(0, i, value) for i, value in hidden]
    return max(chances), sum(chances, Fraction(0))


@lru_cache(maxsize=256)
def _public_deduction(seen: tuple[SeenTile, ...], unseen: frozenset[Tile]) -> Deduction:
    """What the public facts alone say of one row: it depends on the row's colours, revealed
    tiles and misses, not on its hidden values, so the rows a player weighs share it. Few are
    kept: a decision reuses its own, and every deduction kept is many objects for the garbage
    collector's full passes to walk (with 4,096 kept, those passes take up to 180 ms)."""
    return deduce_rows({0: seen}, unseen)


def public_tiles(view: PlayerView, *, besides: int) -> frozenset[Tile]:
    """The tiles everyone knows outside `besides`'s row: the revealed ones in the other rows."""
    return revealed_outside(view.rows, besides)


def revealed_outside(rows: Rows, besides: int) -> frozenset[Tile]:
    """`public_tiles` of the table's `rows` (as they are now, or as they were at an attack)."""
    return frozenset(
        seen.tile
        for player, row in enumerate(rows)
        if player != besides
        for seen in row
        if seen.revealed and seen.tile is not None
    )
