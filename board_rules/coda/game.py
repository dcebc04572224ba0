"""A game as the fold of its actions, so that saving and replaying are one mechanism.

A game is its starting state (the shuffled pool, the players, the starter) and the actions
applied to it; `Game.replay` rebuilds the identical game from them. There is no undo: an attack
taken back would still have been seen.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from board_rules.coda.actions import Action
from board_rules.coda.rules import apply
from board_rules.coda.state import GameState


class Game:
    """One game of Coda: its start and the actions applied so far.

    >>> from board_rules.coda.actions import TakeTiles
    >>> game = Game.new(2, random.Random(3))
    >>> game.play(TakeTiles(black=2, white=2)).turn
    1
    >>> len(game.applied)
    1
    """

    def __init__(self, start: GameState) -> None:
        self._start = start
        self._state = start
        self._applied: list[Action] = []

    @classmethod
    def new(
        cls, players: int, rng: random.Random, *, advanced: bool = False, starter: int = 0
    ) -> Game:
        """A new game with the tiles shuffled by `rng` (see `GameState.new`)."""
        return cls(GameState.new(players, rng, advanced=advanced, starter=starter))

    @classmethod
    def replay(cls, start: GameState, actions: Iterable[Action]) -> Game:
        """Rebuild a game from its start and actions; raises `IllegalActionError` on one that
        the rules reject, which a faithful record never holds."""
        game = cls(start)
        for action in actions:
            game.play(action)
        return game

    @property
    def start(self) -> GameState:
        """The state before the first action."""
        return self._start

    @property
    def state(self) -> GameState:
        """The state after every action applied."""
        return self._state

    @property
    def applied(self) -> tuple[Action, ...]:
        """Every action accepted so far, in order: what a save file holds."""
        return tuple(self._applied)

    def play(self, action: Action) -> GameState:
        """Apply `action` and return the new state, or raise `IllegalActionError` and change
        nothing."""
        self._state = apply(self._state, action)
        self._applied.append(action)
        return self._state
