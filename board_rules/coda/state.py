"""A read-only snapshot of a game of Coda: rows, pool, whose turn, and what it waits for.

The pool is kept as one face-down stack per colour, shuffled once at the start
(`shuffle_pool`, with an injected `random.Random`). Taking the top tile of the chosen colour is
the same as picking one of that colour at random, since nobody can see the order; keeping the
order in the state makes a game the pure fold of its actions.

A state knows nothing of what is made of it: a player's view (`view_of` in
`board_rules.coda.view`) and the JSON form (`board_rules.coda.codec`) depend on it, never the
reverse.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Final

from board_rules.coda.errors import InvalidSetupError
from board_rules.coda.row import RowTile
from board_rules.coda.seen import SeenAttack
from board_rules.coda.tiles import Color, Tile, game_tiles

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4


def opening_size(players: int) -> int:
    """How many tiles each player takes at the start: 4, or 3 with four players."""
    return 3 if players == 4 else 4


class Phase(Enum):
    """What the game waits for from the player in `turn`."""

    TAKE = "take"
    """The opening: take the opening tiles, choosing how many of each colour."""
    ARRANGE = "arrange"
    """The advanced game's opening: lay out the opening tiles in hand, dashes where wished."""
    DRAW = "draw"
    """The start of a turn: draw a tile of a chosen colour."""
    ATTACK = "attack"
    """Attack a hidden tile of an opponent; after a right attack, stopping is allowed too."""
    PLACE = "place"
    """The advanced game: choose where the tile in hand goes in the row."""
    REVEAL = "reveal"
    """A wrong attack with nothing drawn: turn one of one's own hidden tiles face up."""
    OVER = "over"
    """One player alone has hidden tiles left: the winner."""


@dataclass(frozen=True)
class Pool:
    """The face-down tiles left to draw, one stack per colour, the next draw first."""

    black: tuple[Tile, ...]
    white: tuple[Tile, ...]

    def of(self, color: Color) -> tuple[Tile, ...]:
        """The stack of `color`."""
        return self.black if color is Color.BLACK else self.white

    def count(self, color: Color) -> int:
        """How many tiles of `color` are left."""
        return len(self.of(color))

    def __len__(self) -> int:
        return len(self.black) + len(self.white)

    def take(self, color: Color, count: int) -> tuple[tuple[Tile, ...], Pool]:
        """The next `count` tiles of `color`, and the pool without them."""
        stack = self.of(color)
        taken, left = stack[:count], stack[count:]
        if color is Color.BLACK:
            return taken, replace(self, black=left)
        return taken, replace(self, white=left)


def shuffle_pool(rng: random.Random, advanced: bool = False) -> Pool:
    """All the game's tiles face down and mixed: each colour's stack in a random order.

    In the advanced game the dashes are mixed in with the numbers of their colour before the
    opening, so they are drawn like any other tile.
    """
    stacks: dict[Color, list[Tile]] = {color: [] for color in Color}
    for tile in game_tiles(advanced):
        stacks[tile.color].append(tile)
    for stack in stacks.values():
        rng.shuffle(stack)
    return Pool(black=tuple(stacks[Color.BLACK]), white=tuple(stacks[Color.WHITE]))


@dataclass(frozen=True)
class GameState:
    """The state of a game after the actions played so far; build it with `start` or `new`."""

    players: int
    advanced: bool
    starter: int
    """Who plays first (and took its opening tiles first)."""
    rows: tuple[tuple[RowTile, ...], ...]
    pool: Pool
    turn: int
    """The player to act; players play in the order of their numbers, 0 after the last."""
    phase: Phase
    hand: tuple[Tile, ...] = ()
    """Tiles the player in turn holds apart from its row: the drawn tile, or, in the advanced
    game's opening, all its opening tiles, black ones first."""
    face_up: bool = False
    """In the place phase: the tile in hand enters the row revealed (after a wrong attack or a
    timeout) rather than hidden."""
    hits: int = 0
    """Right attacks so far this turn."""
    winner: int | None = None
    attacks: tuple[SeenAttack, ...] = field(default=(), compare=False)
    """Every attack so far as the table heard it: public, so every view carries it. Not part
    of a state's identity (nor of its JSON form): two states that differ only here play on
    alike."""

    @classmethod
    def start(cls, pool: Pool, players: int, starter: int = 0) -> GameState:
        """A new game over a shuffled `pool`: `starter` takes its tiles first, then plays first.

        The rulebook lets the youngest player start the first game and the winner the next;
        the core cannot know ages, so the caller names the starter.
        """
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise InvalidSetupError(f"Coda is played by 2 to 4 players, not {players!r}")
        if not isinstance(starter, int) or not 0 <= starter < players:
            raise InvalidSetupError(f"the starter is a player 0–{players - 1}, not {starter!r}")
        tiles = sorted((*pool.black, *pool.white), key=_tile_order)
        advanced = any(tile.is_dash for tile in tiles)
        if tuple(tiles) != game_tiles(advanced) or any(
            tile.color is not color for color in Color for tile in pool.of(color)
        ):
            raise InvalidSetupError("the pool must hold every tile of the game once, by colour")
        return cls(
            players=players,
            advanced=advanced,
            starter=starter,
            rows=((),) * players,
            pool=pool,
            turn=starter,
            phase=Phase.TAKE,
        )

    @classmethod
    def new(
        cls, players: int, rng: random.Random, *, advanced: bool = False, starter: int = 0
    ) -> GameState:
        """A new game with the tiles shuffled by `rng` (see `shuffle_pool` and `start`)."""
        return cls.start(shuffle_pool(rng, advanced), players, starter)

    @property
    def is_over(self) -> bool:
        """True once a player has won."""
        return self.phase is Phase.OVER

    @property
    def opening_size(self) -> int:
        """How many tiles each player takes at the start."""
        return opening_size(self.players)

    def hidden(self, player: int) -> tuple[int, ...]:
        """The positions of `player`'s hidden tiles."""
        return tuple(i for i, slot in enumerate(self.rows[player]) if not slot.revealed)

    def is_out(self, player: int) -> bool:
        """True when `player` has a row and every tile of it is revealed: it is out of the game,
        may no longer attack, and has nothing left to attack."""
        return bool(self.rows[player]) and not self.hidden(player)

    def in_game(self) -> tuple[int, ...]:
        """The players still in the game, in the order of play from player 0."""
        return tuple(p for p in range(self.players) if not self.is_out(p))

    @property
    def next_starter(self) -> int | None:
        """Who starts the next game: the winner of this one (None while it goes on)."""
        return self.winner


def _tile_order(tile: Tile) -> tuple[int, int]:
    rank = tile.rank
    return (0, rank) if rank is not None else (1, tile.color is Color.WHITE)
