"""Shared helpers of the rules tests: a known key and a way to play action lines."""

from __future__ import annotations

from board_rules.codenames import Game, GameState, Key, Mode, Reason, parse_action
from board_rules.codenames.errors import IllegalActionError

# Red starts with A1–E1 and A2–D2; blue holds E2, A3–E3, A4, B4;
# bystanders C4–E4 and A5–D5; the assassin is E5.
KEY_TEXT = "RRRRR/RRRRB/BBBBB/BBNNN/NNNNA"
KEY = Key.parse(KEY_TEXT)


def new_game(mode: Mode = Mode.STANDARD, key: Key = KEY) -> Game:
    """A fresh game on the known key."""
    return Game(key, mode)


def play(game: Game, *lines: str) -> GameState:
    """Play each action line; every one must be accepted."""
    state = game.state
    for line in lines:
        state = game.play(parse_action(line))
    return state


def rejection(game: Game, line: str) -> Reason:
    """Play a line that must be rejected, check nothing changed, and return the reason."""
    before, applied = game.state, game.applied
    try:
        game.play(parse_action(line))
    except IllegalActionError as error:
        assert game.state == before
        assert game.applied == applied
        return error.reason
    raise AssertionError(f"{line!r} was accepted")
