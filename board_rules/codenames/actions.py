"""The actions of a Codenames game, and their one-line text form used by transcripts and logs.

>>> parse_action("clue 2")
GiveClue(number=2)
>>> str(parse_action("TOUCH c3"))
'touch C3'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from board_rules.codenames.errors import InvalidActionError, InvalidCoordError
from board_rules.codenames.grid import Coord

UNLIMITED: Final = "unlimited"
"""The expert clue that lifts the guess limit without naming a number."""

ClueNumber = int | Literal["unlimited"]
MAX_CLUE = 9


@dataclass(frozen=True)
class GiveClue:
    """The spymaster announces a clue: a number 0–9 or `unlimited`."""

    number: ClueNumber

    def __post_init__(self) -> None:
        if self.number != UNLIMITED and (
            not isinstance(self.number, int) or not 0 <= self.number <= MAX_CLUE
        ):
            raise InvalidActionError(
                f"a clue is a number from 0 to 9 or unlimited, not {self.number!r}"
            )

    def __str__(self) -> str:
        return f"clue {self.number}"


@dataclass(frozen=True)
class Touch:
    """An operative touches a word card: the team's guess."""

    coord: Coord

    def __str__(self) -> str:
        return f"touch {self.coord}"


@dataclass(frozen=True)
class Done:
    """The operatives stop guessing."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True)
class Penalty:
    """The other side calls the current clue invalid."""

    def __str__(self) -> str:
        return "penalty"


@dataclass(frozen=True)
class Cover:
    """A spymaster covers a word without a guess: the penalty cover, or the co-op opponent's."""

    coord: Coord

    def __str__(self) -> str:
        return f"cover {self.coord}"


@dataclass(frozen=True)
class Timeout:
    """The sand timer ran out while the team was guessing (strict timer): the turn ends."""

    def __str__(self) -> str:
        return "timeout"


@dataclass(frozen=True)
class Undo:
    """Take back the last action that still stands."""

    def __str__(self) -> str:
        return "undo"


PlayAction = GiveClue | Touch | Done | Penalty | Cover | Timeout
"""The actions the rules of play decide on."""

Action = PlayAction | Undo
"""Every action a game accepts."""

_NO_ARGUMENT: dict[str, Action] = {
    "done": Done(),
    "penalty": Penalty(),
    "timeout": Timeout(),
    "undo": Undo(),
}
VERBS: tuple[str, ...] = ("clue", "touch", "cover", *_NO_ARGUMENT)


def parse_clue_number(text: str) -> ClueNumber:
    """Read `0`–`9` or `unlimited` (any case)."""
    cleaned = text.strip().lower()
    if cleaned == UNLIMITED:
        return UNLIMITED
    if cleaned.isdigit() and cleaned.isascii() and int(cleaned) <= MAX_CLUE:
        return int(cleaned)
    # The text is not quoted: a file read by mistake must not be shown (`replay` under sudo).
    raise InvalidActionError("a clue is a number from 0 to 9 or unlimited")


def parse_action(text: str) -> Action:
    """Read one action in its text form (`clue 2`, `touch C3`, `done`, …); verbs in any case."""
    words = text.split()
    if not words:
        raise InvalidActionError("empty action")
    verb, args = words[0].lower(), words[1:]
    if verb not in VERBS:
        raise InvalidActionError(f"unknown action: expected one of {', '.join(VERBS)}")
    if verb in _NO_ARGUMENT:
        if args:
            raise InvalidActionError(f"{verb} takes no argument")
        return _NO_ARGUMENT[verb]
    if len(args) != 1:
        raise InvalidActionError(f"{verb} takes one argument")
    if verb == "clue":
        return GiveClue(parse_clue_number(args[0]))
    try:
        coord = Coord.parse(args[0])
    except InvalidCoordError as error:
        raise InvalidActionError(str(error)) from error
    return Touch(coord) if verb == "touch" else Cover(coord)
