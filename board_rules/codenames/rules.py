"""The rules of play: how one action changes a game state, or why it is rejected.

`apply` is a pure function of (state, action); undo is not a rule of play but the fold over the
actions that still stand, in `board_rules.codenames.game`.
"""

from __future__ import annotations

from dataclasses import replace

from board_rules.codenames.actions import Cover, Done, GiveClue, Penalty, PlayAction, Timeout, Touch
from board_rules.codenames.errors import IllegalActionError
from board_rules.codenames.grid import Coord
from board_rules.codenames.key import Identity, Team
from board_rules.codenames.reasons import Reason
from board_rules.codenames.state import EndReason, GameState, Mode, Phase


def apply(state: GameState, action: PlayAction) -> GameState:
    """The state after `action`; raises `IllegalActionError` with a `Reason` and changes nothing.

    >>> from board_rules.codenames.key import Key
    >>> start = GameState.start(Key.parse("RRRRR/RRRRB/BBBBB/BBNNN/NNNNA"))
    >>> apply(start, GiveClue(2)).guesses_left
    3
    """
    if state.phase is Phase.OVER:
        raise IllegalActionError(Reason.GAME_OVER)
    if isinstance(action, Penalty) and state.mode is Mode.COOP:
        raise IllegalActionError(Reason.NOT_IN_COOP)
    if state.phase is Phase.ENEMY_COVER and not isinstance(action, Cover):
        raise IllegalActionError(Reason.ENEMY_MUST_COVER)
    if isinstance(action, GiveClue):
        return _give_clue(state, action)
    if isinstance(action, Touch):
        return _touch(state, action.coord)
    if isinstance(action, Cover):
        return _cover(state, action.coord)
    if state.phase is not Phase.GUESS:
        raise IllegalActionError(Reason.NO_CLUE_YET)
    if isinstance(action, Done):
        return _stop_guessing(state)
    if isinstance(action, Penalty):
        return _invalid_clue(state)
    if isinstance(action, Timeout):
        return _end_turn(state)
    raise TypeError(f"not an action of play: {action!r}")


def _give_clue(state: GameState, action: GiveClue) -> GameState:
    """A clue opens the team's guessing; given during a penalty cover, it skips the cover."""
    if state.phase is Phase.GUESS:
        raise IllegalActionError(Reason.CLUE_ALREADY_GIVEN)
    return replace(state, phase=Phase.GUESS, clue=action.number, guesses_made=0)


def _touch(state: GameState, coord: Coord) -> GameState:
    """An operative's guess: the touched card is covered with its identity.

    Own agent: guessing goes on while guesses are left. Bystander or enemy agent: the turn ends.
    Covering a team's last agent makes that team win at once, even on the other team's turn.
    The assassin ends the game: the touching team loses.
    """
    if state.phase is not Phase.GUESS:
        raise IllegalActionError(Reason.NO_CLUE_YET)
    if coord in state.covered:
        raise IllegalActionError(Reason.ALREADY_COVERED)
    after = replace(state.cover(coord), guesses_made=state.guesses_made + 1)
    identity = state.key[coord]
    if identity is Identity.ASSASSIN:
        return _end_game(after, winner=state.turn.other, reason=EndReason.ASSASSIN)
    owner = identity.team
    if owner is not None and after.remaining(owner) == 0:
        return _end_game(after, winner=owner, reason=EndReason.AGENTS)
    if owner is state.turn and after.guesses_left != 0:
        return after
    return _end_turn(after)


def _stop_guessing(state: GameState) -> GameState:
    """The operatives may stop at any time, but only after the one guess every clue requires."""
    if state.guesses_made == 0:
        raise IllegalActionError(Reason.MUST_GUESS_FIRST)
    return _end_turn(state)


def _invalid_clue(state: GameState) -> GameState:
    """An invalid clue ends the turn at once; the other team may then cover one of its words."""
    return replace(
        state, phase=Phase.PENALTY_COVER, turn=state.turn.other, clue=None, guesses_made=0
    )


def _cover(state: GameState, coord: Coord) -> GameState:
    """A spymaster covers a word of the team in `turn` without a guess.

    After a penalty: one of the team's own agents, then it gives its clue. In co-op, on the
    simulated opponent's turn: one enemy agent, then the players give their next clue. Either
    way, covering a team's last agent makes it win.
    """
    if state.phase is Phase.PENALTY_COVER:
        not_allowed = Reason.NOT_YOUR_WORD
        next_turn = state.turn
    elif state.phase is Phase.ENEMY_COVER:
        not_allowed = Reason.NOT_ENEMY_WORD
        next_turn = state.turn.other
    else:
        raise IllegalActionError(Reason.NOT_COVERING)
    if coord in state.covered:
        raise IllegalActionError(Reason.ALREADY_COVERED)
    if state.key[coord] is not Identity.of_team(state.turn):
        raise IllegalActionError(not_allowed)
    after = state.cover(coord)
    if after.remaining(state.turn) == 0:
        return _end_game(after, winner=state.turn, reason=EndReason.AGENTS)
    return replace(after, phase=Phase.CLUE, turn=next_turn, clue=None, guesses_made=0)


def _end_turn(state: GameState) -> GameState:
    """The guessing team's turn is over; in co-op the simulated opponent covers before the next
    clue."""
    next_phase = Phase.ENEMY_COVER if state.mode is Mode.COOP else Phase.CLUE
    return replace(state, phase=next_phase, turn=state.turn.other, clue=None, guesses_made=0)


def _end_game(state: GameState, winner: Team, reason: EndReason) -> GameState:
    return replace(state, phase=Phase.OVER, winner=winner, reason=reason)
