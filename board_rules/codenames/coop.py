"""Scoring of the two-player (co-op) variant against the simulated opponent.

When the players win, their score is the number of enemy agents still uncovered: the cards left
in the enemy's stack. Each score has a rank code; the table's translated texts are keyed by it.
"""

from __future__ import annotations

from typing import Final

RANKS: Final[dict[int, str]] = {
    1: "narrow-escape",
    2: "steady-hands",
    3: "well-drilled",
    4: "sharp-minds",
    5: "field-experts",
    6: "elite-unit",
    7: "master-spies",
    8: "flawless",
}
"""Rank code per winning score. The enemy has 8 agents and the players cannot win once all of
them are covered, so a winning score runs from 1 to 8."""


def rank_of(score: int) -> str:
    """The rank code of a winning co-op score (1–8)."""
    try:
        return RANKS[score]
    except KeyError:
        raise ValueError(f"a winning co-op score is 1 to 8, not {score}") from None
