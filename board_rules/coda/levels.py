"""Which computer player plays at each level.

>>> import random
>>> from board_rules.coda.match import play_match
>>> play_match([strategy(Level.HARD), strategy(Level.RANDOM)], 3, random.Random(1))
[3, 0]
"""

from __future__ import annotations

from board_rules.coda.expert import play_expert
from board_rules.coda.master import play_master
from board_rules.coda.players import Level, Strategy, play_easy, play_hard, play_random

_STRATEGIES: dict[Level, Strategy] = {
    Level.EASY: play_easy,
    Level.HARD: play_hard,
    Level.EXPERT: play_expert,
    Level.MASTER: play_master,
    Level.RANDOM: play_random,
}


def strategy(level: Level) -> Strategy:
    """The player of `level`."""
    return _STRATEGIES[level]
