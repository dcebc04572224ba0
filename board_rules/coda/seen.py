"""What everyone at the table knows of the tiles and of the attacks: a tile as a player sees
it, and each attack as it was heard, with the rows as everyone saw them just before it.

A record of an attack holds only public facts (who attacked which tile, the value named, right
or wrong, the rows' colours, labels, revealed tiles and misses at that moment), so a state can
keep them and every view can show them: a player reads from them what the attacker's choice
says about the attacker's own tiles (`board_rules.coda.master`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from board_rules.coda.row import RowTile
from board_rules.coda.tiles import Color, Tile, Value


@dataclass(frozen=True)
class SeenTile:
    """A tile as the viewer sees it."""

    color: Color
    value: Value | None
    """None when the viewer cannot see it."""
    revealed: bool = False
    """Face up for everyone (a viewer also sees its own hidden tiles' values)."""
    misses: frozenset[Value] = field(default_factory=frozenset)
    """Values named against it in wrong attacks."""
    owner_named: frozenset[Value] = field(default_factory=frozenset)
    """Values its owner named in wrong attacks on tiles of its colour while holding it hidden
    (see `board_rules.coda.row.RowTile.owner_named`)."""
    label: int = field(default=0, compare=False)
    """Its number in the order its row received its tiles (`RowTile.label`)."""

    @property
    def tile(self) -> Tile | None:
        """The tile, when the viewer knows its value."""
        return None if self.value is None else Tile(self.color, self.value)


Rows = tuple[tuple[SeenTile, ...], ...]
"""Every row as a player sees it, player 0 first."""


@dataclass(frozen=True)
class SeenAttack:
    """One attack as the whole table heard it."""

    attacker: int
    player: int
    index: int
    """The position of the attacked tile in its row at that moment."""
    value: Value
    right: bool
    hits: int
    """Right attacks the attacker had made earlier in the same turn."""
    held: int
    """How many tiles the attacker had then, its drawn tile included: the tiles of its row
    labelled up to this number."""
    rows: Rows
    """The rows as everyone saw them just before the attack."""


def public_rows(rows: Sequence[Sequence[RowTile]]) -> Rows:
    """`rows` as someone who holds none of them sees them."""
    return tuple(
        tuple(
            SeenTile(
                slot.tile.color,
                slot.tile.value if slot.revealed else None,
                revealed=slot.revealed,
                misses=slot.misses,
                owner_named=slot.owner_named,
                label=slot.label,
            )
            for slot in row
        )
        for row in rows
    )
