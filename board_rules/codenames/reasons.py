"""Why the rules reject an action: stable codes that transcripts, screens and logs share.

The values never change once released: saved games, replay output and the translated messages of
the table are keyed by them.
"""

from enum import Enum


class Reason(Enum):
    """A stable code for a rejected action."""

    NO_CLUE_YET = "no-clue-yet"
    """Guessing, stopping or calling a penalty before the spymaster has given a clue."""
    CLUE_ALREADY_GIVEN = "clue-already-given"
    """A second clue while the team is still guessing."""
    ALREADY_COVERED = "already-covered"
    """Touching or covering a card that is already covered."""
    MUST_GUESS_FIRST = "must-guess-first"
    """Stopping before the team has made the one guess every clue requires."""
    NOT_YOUR_WORD = "not-your-word"
    """A penalty cover of a card that is not one of the covering team's agents."""
    NOT_ENEMY_WORD = "not-enemy-word"
    """A co-op cover of a card that is not an enemy agent."""
    NOT_IN_COOP = "not-in-coop"
    """The invalid-clue penalty: the two-player variant has no opposing spymaster to call it."""
    NOT_COVERING = "not-covering"
    """A cover outside a penalty cover or the simulated opponent's turn."""
    ENEMY_MUST_COVER = "enemy-must-cover"
    """Co-op: the simulated opponent's cover must come before anything else."""
    GAME_OVER = "game-over"
    """Anything but undo once the game is over."""
    NOTHING_TO_UNDO = "nothing-to-undo"
    """Undo at the start of the game."""
