"""What every game's rules core raises for illegal play: a well-formed action the rules reject in
the current state, with the game's reason.

Each game derives its own `IllegalActionError` from this one and from its own root error, so that
a caller catches either one game's errors or illegal play in any game.
"""

from __future__ import annotations

from enum import Enum
from typing import Generic, TypeVar

ReasonT = TypeVar("ReasonT", bound=Enum)


class IllegalActionError(ValueError, Generic[ReasonT]):
    """A well-formed action that the rules reject in the current state; `reason` says why."""

    def __init__(self, reason: ReasonT) -> None:
        super().__init__(reason.value)
        self.reason = reason
