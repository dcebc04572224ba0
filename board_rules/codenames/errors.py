"""The exceptions of the Codenames rules core, under one root.

Malformed input (a coordinate, key or action that cannot be read) is told apart from illegal play
(a well-formed action the rules do not allow now); all of them are `ValueError`s.
"""

from __future__ import annotations

from board_rules import errors
from board_rules.codenames.reasons import Reason


class CodenamesError(Exception):
    """Root of every error raised by the Codenames rules core."""


class InvalidCoordError(CodenamesError, ValueError):
    """A coordinate that is not a column A–E followed by a row 1–5."""


class InvalidKeyError(CodenamesError, ValueError):
    """A key that is malformed or does not hold 9 + 8 agents, 7 bystanders and 1 assassin."""


class InvalidActionError(CodenamesError, ValueError):
    """An action that cannot be read (unknown verb, bad argument)."""


class InvalidStateError(CodenamesError, ValueError):
    """A serialised game state that is malformed, of another version, or inconsistent."""


class IllegalActionError(errors.IllegalActionError[Reason], CodenamesError):
    """A well-formed action that the rules reject in the current state."""
