"""A player's view: the projection of a game state onto what that player may know.

A view holds every tile's colour and position, the values of the viewer's own tiles, of its own
drawn tile and of every revealed tile, the misses everyone heard, how many tiles of each colour
are left to draw, and whose turn it is. It holds nothing else: not the other players' hidden
values, not their drawn tile's value, not the order of the pool. Two states that differ only in
those give equal views, which is what makes a view safe to hand to a computer opponent.

A view remembers every miss, which the rulebook's etiquette leaves to the players' memories (no
notes at the table): a screen shows what was said aloud, so every player gets the same memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from board_rules.coda.opening import dashes_in_order, opening_row, take_range
from board_rules.coda.row import legal_slots
from board_rules.coda.seen import SeenAttack, SeenTile
from board_rules.coda.state import GameState, Phase, opening_size
from board_rules.coda.tiles import DASH, NUMBERS, Color, Tile, Value


@dataclass(frozen=True)
class PlayerView:
    """What `viewer` may know of a game."""

    viewer: int
    players: int
    advanced: bool
    starter: int
    turn: int
    phase: Phase
    rows: tuple[tuple[SeenTile, ...], ...]
    hand: tuple[SeenTile, ...]
    """The tiles the player in turn holds apart: their colours always, their values only for
    their owner, or for everyone when the tile is about to go into the row face up."""
    face_up: bool
    hits: int
    pool_black: int
    pool_white: int
    winner: int | None
    attacks: tuple[SeenAttack, ...] = ()
    """Every attack of the game so far, as the table heard it, the first first."""

    def pool_count(self, color: Color) -> int:
        """How many tiles of `color` are left to draw."""
        return self.pool_black if color is Color.BLACK else self.pool_white

    def hidden(self, player: int) -> tuple[int, ...]:
        """The positions of `player`'s tiles that are not face up."""
        return tuple(i for i, seen in enumerate(self.rows[player]) if not seen.revealed)

    def is_out(self, player: int) -> bool:
        """True when `player` has a row and all of it is revealed."""
        return bool(self.rows[player]) and not self.hidden(player)

    def targets(self) -> tuple[tuple[int, int], ...]:
        """Every (player, position) the viewer may attack: the hidden tiles of the others."""
        return tuple(
            (player, index)
            for player in range(self.players)
            if player != self.viewer
            for index in self.hidden(player)
        )

    def nameable(self) -> tuple[Value, ...]:
        """The values an attack may name: the numbers, and the dash in the advanced game."""
        return (*NUMBERS, DASH) if self.advanced else NUMBERS

    def own_tiles(self) -> tuple[Tile, ...]:
        """The viewer's row, left to right."""
        return tuple(Tile(seen.color, _known(seen.value)) for seen in self.rows[self.viewer])

    def place_slots(self) -> tuple[int, ...]:
        """In the place phase, where the viewer's first tile in hand may go."""
        tile = self.hand[0].tile
        if tile is None:
            raise ValueError("only the owner of the tile in hand chooses its place")
        return legal_slots(self.own_tiles(), tile)

    def take_range(self) -> tuple[int, int]:
        """In the opening, the fewest and the most black tiles the viewer may take (see
        `board_rules.coda.opening.take_range`)."""
        return take_range(opening_size(self.players), self.pool_black, self.pool_white)

    def held_dashes(self) -> tuple[Tile, ...]:
        """The dashes among the viewer's tiles in hand, in the order `Arrange` places them."""
        return dashes_in_order(self._own_hand())

    def opening_row(self, positions: Sequence[int]) -> tuple[Tile, ...]:
        """In the advanced opening, the row that `Arrange(positions)` would lay out from the
        viewer's hand (see `board_rules.coda.opening.opening_row`)."""
        return opening_row(self._own_hand(), positions)

    def _own_hand(self) -> tuple[Tile, ...]:
        tiles = tuple(seen.tile for seen in self.hand)
        if any(tile is None for tile in tiles):
            raise ValueError("only the owner of the tiles in hand knows their values")
        return tuple(tile for tile in tiles if tile is not None)

    def seen_tiles(self) -> frozenset[Tile]:
        """Every tile whose value the viewer knows."""
        every = (seen for row in self.rows for seen in row)
        return frozenset(s.tile for s in (*every, *self.hand) if s.tile is not None)


def _known(value: Value | None) -> Value:
    if value is None:
        raise ValueError("a viewer knows the values of its own row")
    return value


def view_of(state: GameState, viewer: int) -> PlayerView:
    """The projection of `state` onto what `viewer` may know."""
    if not 0 <= viewer < state.players:
        raise ValueError(f"no player {viewer} in a game of {state.players}")
    rows = tuple(
        tuple(
            SeenTile(
                color=slot.tile.color,
                value=slot.tile.value if slot.revealed or player == viewer else None,
                revealed=slot.revealed,
                misses=slot.misses,
                owner_named=slot.owner_named,
                label=slot.label,
            )
            for slot in row
        )
        for player, row in enumerate(state.rows)
    )
    shown = state.turn == viewer or (state.phase is Phase.PLACE and state.face_up)
    hand = tuple(SeenTile(t.color, t.value if shown else None) for t in state.hand)
    return PlayerView(
        viewer=viewer,
        players=state.players,
        advanced=state.advanced,
        starter=state.starter,
        turn=state.turn,
        phase=state.phase,
        rows=rows,
        hand=hand,
        face_up=state.face_up,
        hits=state.hits,
        pool_black=state.pool.count(Color.BLACK),
        pool_white=state.pool.count(Color.WHITE),
        winner=state.winner,
        attacks=state.attacks,
    )
