"""Games between computer players, from the deal to the winner, and matches of many games in
which the winner of each game starts the next, as the rulebook says, or the starter rotates
(fair to every seat, for measuring players).

>>> import random
>>> from board_rules.coda.levels import Level, strategy
>>> play_match([strategy(Level.HARD), strategy(Level.RANDOM)], 3, random.Random(1))
[3, 0]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from board_rules.coda.players import Strategy
from board_rules.coda.rules import apply
from board_rules.coda.state import GameState
from board_rules.coda.view import view_of


def play_game(
    players: Sequence[Strategy],
    rng: random.Random,
    *,
    advanced: bool = False,
    starter: int = 0,
) -> GameState:
    """Play one game to its end: `rng` shuffles the tiles, then each player decides with its
    own stream drawn from it. Returns the final state."""
    state = GameState.new(len(players), rng, advanced=advanced, starter=starter)
    streams = [random.Random(rng.getrandbits(64)) for _ in players]
    while not state.is_over:
        player = state.turn
        state = apply(state, players[player](view_of(state, player), streams[player]))
    return state


@dataclass(frozen=True)
class Tally:
    """The outcome of a match."""

    wins: list[int]
    """Wins of each player."""
    seats: list[int]
    """Wins by seat in the order of play: the starter's first, then the next player's..."""


def play_match(
    players: Sequence[Strategy],
    games: int,
    rng: random.Random,
    *,
    advanced: bool = False,
    starter: int = 0,
) -> list[int]:
    """Play `games` games, `starter` starting the first and each winner the next; returns the
    wins of each player (see `tally_match`)."""
    return tally_match(players, games, rng, advanced=advanced, starter=starter).wins


def tally_match(
    players: Sequence[Strategy],
    games: int,
    rng: random.Random,
    *,
    advanced: bool = False,
    starter: int = 0,
    rotate: bool = False,
    between_games: Callable[[], None] | None = None,
) -> Tally:
    """Play `games` games, `starter` starting the first and each winner the next, or with `rotate`
    the next player in order, so every seat is played as often by everyone. Each game gets its own
    stream from `rng`, so the deals do not depend on how much randomness the players used.
    `between_games`, when given, is called after each game (the command line settles the garbage
    collector there, outside any decision)."""
    wins = [0] * len(players)
    seats = [0] * len(players)
    for _ in range(games):
        game_rng = random.Random(rng.getrandbits(64))
        final = play_game(players, game_rng, advanced=advanced, starter=starter)
        if final.winner is None:  # pragma: no cover - play_game returns only finished games
            raise RuntimeError("a game ended without a winner")
        wins[final.winner] += 1
        seats[(final.winner - starter) % len(players)] += 1
        starter = (starter + 1) % len(players) if rotate else final.winner
        if between_games is not None:
            between_games()
    return Tally(wins, seats)
