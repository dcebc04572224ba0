"""The exceptions of the Coda rules core, under one root.

Malformed input (a tile, value or action that cannot be read, a setup that is not a game of Coda)
is told apart from illegal play (a well-formed action the rules do not allow now); all of them
are `ValueError`s.
"""

from __future__ import annotations

from board_rules import errors
from board_rules.coda.reasons import Reason


class CodaError(Exception):
    """Root of every error raised by the Coda rules core."""


class InvalidTileError(CodaError, ValueError):
    """A tile or a named value that does not exist: numbers run 0–11, plus the dash."""


class InvalidActionError(CodaError, ValueError):
    """An action that is malformed whatever the state (a negative count, index or player)."""


class InvalidSetupError(CodaError, ValueError):
    """A game that cannot be set up: not 2–4 players, a starter out of range, a wrong pool."""


class InvalidStateError(CodaError, ValueError):
    """A serialised game state that is malformed, of another version, or inconsistent."""


class InconsistentViewError(CodaError, ValueError):
    """A player's view that no deal of the tiles can explain (a forged or corrupted view)."""


class IllegalActionError(errors.IllegalActionError[Reason], CodaError):
    """A well-formed action that the rules reject in the current state."""
