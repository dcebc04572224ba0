"""The actions of a game of Coda. Players and positions count from 0, left to right.

Each action is checked for form when it is built (`InvalidActionError`); whether the rules allow
it now is `board_rules.coda.rules.apply`'s business (`IllegalActionError`).

>>> Attack(player=1, index=2, value=5)
Attack(player=1, index=2, value=5)
>>> Attack(player=1, index=0, value=12)
Traceback (most recent call last):
...
board_rules.coda.errors.InvalidActionError: a tile shows a number from 0 to 11 or a dash, not 12
"""

from __future__ import annotations

from dataclasses import dataclass

from board_rules.coda.errors import InvalidActionError, InvalidTileError
from board_rules.coda.tiles import Color, Value, check_value


def _count(name: str, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InvalidActionError(f"{name} must be a whole number of 0 or more, not {value!r}")


def _color(value: object) -> None:
    if not isinstance(value, Color):
        raise InvalidActionError(f"a colour is black or white, not {value!r}")


@dataclass(frozen=True)
class TakeTiles:
    """The opening: the player in turn takes its tiles face down, this many of each colour
    (its choice), each one at random among those of its colour."""

    black: int
    white: int

    def __post_init__(self) -> None:
        _count("black", self.black)
        _count("white", self.white)


@dataclass(frozen=True)
class Arrange:
    """The advanced game's opening: with its opening tiles in hand, the player lays out its row.
    `dashes` gives, for each dash it holds (black first), its position in the row; the numbers
    fill the other positions in order. Asked for in every advanced opening, dash or not, so that
    nobody learns who holds one."""

    dashes: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.dashes, tuple):
            raise InvalidActionError(f"the dash positions are a tuple, not {self.dashes!r}")
        for position in self.dashes:
            _count("a dash position", position)


@dataclass(frozen=True)
class Draw:
    """The start of a turn: draw a tile of the chosen colour, at random among those left."""

    color: Color

    def __post_init__(self) -> None:
        _color(self.color)


@dataclass(frozen=True)
class Attack:
    """Point at a hidden tile of an opponent (`player`, `index` in its row) and name its value:
    a number, or the dash (the colour is the tile's own, seen on its back)."""

    player: int
    index: int
    value: Value

    def __post_init__(self) -> None:
        _count("player", self.player)
        _count("index", self.index)
        try:
            check_value(self.value)
        except InvalidTileError as error:
            raise InvalidActionError(str(error)) from error


@dataclass(frozen=True)
class Stop:
    """After a right attack: end the turn; the drawn tile goes hidden into the row."""


@dataclass(frozen=True)
class Place:
    """Put the tile in hand into the row at `index` (the number of tiles to its left).

    Asked for at every tile that enters a row in the advanced game, where a dash may give a
    choice, even when it gives none: so nobody learns where there was one. Never asked for in
    the basic game, where every tile has exactly one place."""

    index: int

    def __post_init__(self) -> None:
        _count("index", self.index)


@dataclass(frozen=True)
class Reveal:
    """After a wrong attack with nothing drawn: turn one of one's own hidden tiles face up."""

    index: int

    def __post_init__(self) -> None:
        _count("index", self.index)


@dataclass(frozen=True)
class Timeout:
    """The optional time rule: the caller's clock says the attacker's time is up (one minute,
    then 20 seconds more). The core has no clock; the caller applies this when its clock says so.
    """


Action = TakeTiles | Arrange | Draw | Attack | Stop | Place | Reveal | Timeout
"""Every action of play."""
