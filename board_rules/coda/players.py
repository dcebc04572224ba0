"""Computer players: each gets its own view and an injected `random.Random`, and returns its
next action. They never see more than the view, so they cannot cheat.

- `random` acts at random among legal actions: any colour left, any hidden tile of an opponent
  with any value the game has, and after a right attack a coin decides whether to go on.
- `easy` knows which values each hidden tile can still have, but not how likely each is: it
  attacks the tile with the fewest possibilities, naming one of them at random, and stops after
  one right attack; everything else it does at random.
- `hard` attacks the most probable (tile, value) of the exact deduction; after a right attack it
  goes on while that chance is at least `KEEP_ATTACKING`, and only on a certainty when a miss
  would put it out. It draws from the colour with more tiles left, which keeps both colours in
  play longer; it places each tile, its dashes above all, where its row is hardest to read (see
  `board_rules.coda.exposure`), and when it must reveal one of its own tiles it gives away the
  one whose reveal tells least about the others.
- `expert` is in `board_rules.coda.expert`; `board_rules.coda.levels` maps a level to its player.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from enum import Enum
from fractions import Fraction
from typing import Final

from board_rules.coda.actions import (
    Action,
    Arrange,
    Attack,
    Draw,
    Place,
    Reveal,
    Stop,
    TakeTiles,
)
from board_rules.coda.deduction import deduce
from board_rules.coda.exposure import exposure, public_tiles
from board_rules.coda.row import RowTile
from board_rules.coda.state import Phase, opening_size
from board_rules.coda.tiles import Color, Tile, value_order
from board_rules.coda.view import PlayerView

Strategy = Callable[[PlayerView, random.Random], Action]
"""A computer player: its next action, from its view, using only the randomness it is given."""

KEEP_ATTACKING: Final = Fraction(1, 2)
"""The hard player attacks again after a right attack when its best guess is at least this
likely: a miss costs about what a hit gains (one tile of a row face up). Measured over 600
seeded games against itself at 1/2: thresholds from 0 to 2/5 do no better, 3/5 and above lose
two games in three, since stopping early hands the tempo to a player who reads as well."""


class Level(Enum):
    """How well a computer player plays."""

    EASY = "easy"
    """Knows the possible values, not their odds; one right attack a turn."""
    HARD = "hard"
    """Plays the odds of the exact deduction, and hides its own tiles well."""
    RANDOM = "random"
    """Acts at random among legal actions."""
    EXPERT = "expert"
    """Plays like `hard`, reading more of the table and weighing its attacks by the race (see
    `board_rules.coda.expert`)."""
    MASTER = "master"
    """Plays like `expert`, reading the opponents' hands from the attacks they choose (see
    `board_rules.coda.master`)."""


def play_random(view: PlayerView, rng: random.Random) -> Action:
    """The `random` player."""
    if view.phase is Phase.ATTACK:
        if view.hits and rng.random() < 0.5:
            return Stop()
        player, index = rng.choice(view.targets())
        return Attack(player, index, rng.choice(view.nameable()))
    return _at_random(view, rng)


def play_easy(view: PlayerView, rng: random.Random) -> Action:
    """The `easy` player."""
    if view.phase is not Phase.ATTACK:
        return _at_random(view, rng)
    if view.hits:
        return Stop()
    found = deduce(view)
    fewest = min(len(values) for values in found.counts.values())
    keys = sorted(key for key, values in found.counts.items() if len(values) == fewest)
    player, index = rng.choice(keys)
    value = rng.choice(sorted(found.possible(player, index), key=value_order))
    return Attack(player, index, value)


def play_hard(view: PlayerView, rng: random.Random) -> Action:
    """The `hard` player."""
    phase = view.phase
    if phase is Phase.TAKE:
        return _balanced_opening(view, rng)
    if phase is Phase.DRAW:
        return Draw(_fuller_colour(view, rng))
    if phase is Phase.ATTACK:
        return _hard_attack(view, rng)
    if phase is Phase.ARRANGE:
        return _safest_arrangement(view)
    if phase is Phase.PLACE:
        return Place(_safest_place(view))
    if phase is Phase.REVEAL:
        return Reveal(_most_exposed(view))
    raise ValueError(f"nothing to do in phase {phase.value}")


def _hard_attack(view: PlayerView, rng: random.Random) -> Action:
    guesses = deduce(view).guesses()
    best = guesses[0][0]
    if view.hits:
        # With nothing drawn a miss reveals one of our own tiles: with one left, we would be out.
        last_tile = not view.hand and len(view.hidden(view.viewer)) == 1
        if best < (1 if last_tile else KEEP_ATTACKING):
            return Stop()
    tied = [(key, value) for chance, key, value in guesses if chance == best]
    (player, index), value = rng.choice(tied)
    return Attack(player, index, value)


def _balanced_opening(view: PlayerView, rng: random.Random) -> TakeTiles:
    """Both colours, as evenly as possible: a one-colour row narrows what each tile can be."""
    size = opening_size(view.players)
    black = size // 2 + (1 if size % 2 and rng.random() < 0.5 else 0)
    fewest, most = view.take_range()
    black = max(fewest, min(black, most))
    return TakeTiles(black, size - black)


def _fuller_colour(view: PlayerView, rng: random.Random) -> Color:
    counts = {color: view.pool_count(color) for color in Color}
    most = max(counts.values())
    return rng.choice([color for color in Color if counts[color] == most])


def own_row(view: PlayerView) -> list[RowTile]:
    """The viewer's row as the viewer knows it, every value filled in."""
    return [
        RowTile(Tile(seen.color, value), seen.revealed, seen.misses)
        for seen in view.rows[view.viewer]
        if (value := seen.value) is not None
    ]


def _safest(view: PlayerView, rows: Sequence[list[RowTile]]) -> int:
    """The index of the candidate row that is hardest to read (the first of equals)."""
    public = public_tiles(view, besides=view.viewer)
    scores = [exposure(row, public, advanced=view.advanced) for row in rows]
    return scores.index(min(scores))


def _safest_place(view: PlayerView) -> int:
    slots = view.place_slots()
    if len(slots) == 1:
        return slots[0]
    tile = view.hand[0].tile
    if tile is None:
        raise ValueError("only the owner of the tile in hand places it")
    row = own_row(view)
    candidates = [[*row[:s], RowTile(tile, view.face_up), *row[s:]] for s in slots]
    return slots[_safest(view, candidates)]


def _safest_arrangement(view: PlayerView) -> Arrange:
    dashes = view.held_dashes()
    if not dashes:
        return Arrange()
    layouts = list(itertools.permutations(range(len(view.hand)), len(dashes)))
    candidates = [[RowTile(tile) for tile in view.opening_row(layout)] for layout in layouts]
    return Arrange(layouts[_safest(view, candidates)])


def _most_exposed(view: PlayerView) -> int:
    """The own hidden tile whose reveal leaves the rest of the row hardest to read."""
    row = own_row(view)
    hidden = view.hidden(view.viewer)
    public = public_tiles(view, besides=view.viewer)
    scores = []
    for index in hidden:
        others = [*row[:index], RowTile(row[index].tile, True), *row[index + 1 :]]
        scores.append(exposure(others, public, advanced=view.advanced))
    return hidden[scores.index(min(scores))]


def _at_random(view: PlayerView, rng: random.Random) -> Action:
    """Every phase but the attacks, at random among legal actions."""
    phase = view.phase
    if phase is Phase.TAKE:
        size = opening_size(view.players)
        black = rng.randint(*view.take_range())
        return TakeTiles(black, size - black)
    if phase is Phase.ARRANGE:
        count = len(view.held_dashes())
        return Arrange(tuple(rng.sample(range(len(view.hand)), count)))
    if phase is Phase.DRAW:
        return Draw(rng.choice([c for c in Color if view.pool_count(c)]))
    if phase is Phase.PLACE:
        return Place(rng.choice(view.place_slots()))
    if phase is Phase.REVEAL:
        return Reveal(rng.choice(view.hidden(view.viewer)))
    raise ValueError(f"nothing to do at random in phase {phase.value}")
