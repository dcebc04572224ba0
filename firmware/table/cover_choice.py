"""The cover phases as the table plays them: a touch only chooses a card, DONE covers it.

During a penalty cover or the co-op enemy cover the card to cover is the spymaster's choice, and
only the spymaster sees the key. So the public side never says whether a card may be covered: a
touch on any uncovered card shows the same "Cover C3? Press DONE", and a refused DONE leaves the
screen exactly as the choice left it. The LED key, which faces the spymasters, marks the chosen
card (`CoverMark`): its cell blinks when it may be covered, the four edge lights blink when it
may not.

What stays public is a DONE that covers nothing. It is bounded: the second refused DONE of a
cover ends the choosing. A penalty cover is then lost (the team gives its clue); the co-op enemy
covers one of its agents at random, as a simulated opponent would.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from board_rules.codenames import (
    ALL_COORDS,
    Coord,
    Cover,
    GameState,
    IllegalActionError,
    Phase,
    apply,
)

COVERING = (Phase.PENALTY_COVER, Phase.ENEMY_COVER)
"""Phases in which a pad chooses a card to cover instead of guessing it."""
REFUSED_CONFIRMS = 2
"""The refused DONE presses that end a cover's choosing: one slip (DONE pressed over a card
someone else touched) is forgiven, and at most two cards are ever told apart in public."""


@dataclass(frozen=True)
class CoverMark:
    """What the LED key shows of a choice: the card, and whether it may be covered."""

    card: Coord
    allowed: bool


@dataclass(frozen=True)
class CoverChoice:
    """The choosing of one cover: valid while the game stays in the state it began in (an
    undo that comes back to that very state finds it again, refusals and all)."""

    state: GameState
    card: Coord | None = None
    refused: int = 0

    @property
    def lost(self) -> bool:
        """True once DONE was refused `REFUSED_CONFIRMS` times: no more choosing."""
        return self.refused >= REFUSED_CONFIRMS

    @property
    def mark(self) -> CoverMark | None:
        """The chosen card as the LED key marks it, if one is chosen."""
        if self.card is None or self.lost:
            return None
        return CoverMark(self.card, may_cover(self.state, self.card))

    def chosen(self, card: Coord) -> CoverChoice:
        """The choice once `card` is touched."""
        return self if self.lost else replace(self, card=card)

    def refused_once(self) -> CoverChoice:
        """The choice once DONE covered nothing."""
        return replace(self, refused=self.refused + 1)


def choosing(choice: CoverChoice | None, state: GameState) -> CoverChoice | None:
    """The choice that holds in `state`: `choice` if it was made in this very state, a fresh one
    in another cover phase, None outside the cover phases."""
    if state.phase not in COVERING:
        return None
    if choice is not None and choice.state == state:
        return choice
    return CoverChoice(state)


def may_cover(state: GameState, card: Coord) -> bool:
    """True when the rules let `card` be covered in `state` (asked of the rules core)."""
    try:
        apply(state, Cover(card))
    except IllegalActionError:
        return False
    return True


def enemy_pick(state: GameState, rng: random.Random) -> Coord:
    """The enemy agent the co-op opponent covers itself once its cover's choosing is over."""
    return rng.choice([card for card in ALL_COORDS if may_cover(state, card)])
