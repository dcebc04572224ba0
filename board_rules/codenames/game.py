"""A game as the fold of its applied actions, so that undo, saving and replay are one mechanism.

The table saves `Game.applied` (undos included); `Game.replay` rebuilds the identical game from it.
"""

from __future__ import annotations

from collections.abc import Iterable

from board_rules.codenames.actions import Action, PlayAction, Undo
from board_rules.codenames.errors import IllegalActionError
from board_rules.codenames.key import Key
from board_rules.codenames.reasons import Reason
from board_rules.codenames.rules import apply
from board_rules.codenames.state import GameState, Mode


class Game:
    """One game: a key, a mode and the actions applied so far.

    >>> game = Game(Key.parse("RRRRR/RRRRB/BBBBB/BBNNN/NNNNA"))
    >>> from board_rules.codenames.actions import parse_action
    >>> game.play(parse_action("clue 1")).phase
    <Phase.GUESS: 'guess'>
    >>> game.play(Undo()).phase
    <Phase.CLUE: 'clue'>
    """

    def __init__(self, key: Key, mode: Mode = Mode.STANDARD) -> None:
        # One state per action still standing: undo pops, so it never re-runs the rules.
        self._states: list[GameState] = [GameState.start(key, mode)]
        self._standing: list[PlayAction] = []
        self._applied: list[Action] = []

    @classmethod
    def replay(cls, key: Key, mode: Mode, actions: Iterable[Action]) -> Game:
        """Rebuild a game from its applied actions; raises `IllegalActionError` on one that the
        rules reject, which a faithful record never holds."""
        game = cls(key, mode)
        for action in actions:
            game.play(action)
        return game

    @property
    def key(self) -> Key:
        """The secret key of this game."""
        return self._states[0].key

    @property
    def mode(self) -> Mode:
        """The variant played."""
        return self._states[0].mode

    @property
    def state(self) -> GameState:
        """The state after the actions that still stand."""
        return self._states[-1]

    @property
    def applied(self) -> tuple[Action, ...]:
        """Every action accepted so far, undos included, in order: what a save file holds."""
        return tuple(self._applied)

    @property
    def standing(self) -> tuple[PlayAction, ...]:
        """The actions that still stand: those applied, less those taken back by undo."""
        return tuple(self._standing)

    def play(self, action: Action) -> GameState:
        """Apply `action` and return the new state, or raise `IllegalActionError` and change
        nothing.

        Undo takes back the last action that still stands, of any kind, as often as asked, back
        to the start of the game, and also after the game is over.
        """
        if isinstance(action, Undo):
            if len(self._states) == 1:
                raise IllegalActionError(Reason.NOTHING_TO_UNDO)
            self._states.pop()
            self._standing.pop()
        else:
            self._states.append(apply(self.state, action))
            self._standing.append(action)
        self._applied.append(action)
        return self.state
