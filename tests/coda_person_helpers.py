"""Helpers of the on-screen Coda tests: the person's moves made through the controller's inputs,
the test's X-ray of the game (the true values the person cannot see), and the same game with
every secret changed, for the secrecy checks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from board_rules.coda import (
    DASH,
    Action,
    Arrange,
    Attack,
    Color,
    Draw,
    GameState,
    Phase,
    Place,
    Pool,
    Reveal,
    Stop,
    TakeTiles,
    Tile,
    Value,
    view_of,
)
from firmware.coda.controller import HUMAN, CodaController


def hidden_value(state: GameState, player: int, index: int) -> Value:
    """The true value of a tile: the test's X-ray."""
    return state.rows[player][index].tile.value


def wrong_value(state: GameState, player: int, index: int) -> Value:
    """A number that tile does not have, and that nobody named against it yet."""
    slot = state.rows[player][index]
    return next(v for v in range(12) if v != slot.tile.value and v not in slot.misses)


def disguised(state: GameState) -> GameState:
    """The same game as the person knows it, every secret changed: the computers' hidden
    values, their drawn tile and the order of the pool."""

    def other(tile: Tile) -> Tile:
        return Tile(tile.color, 5 if tile.is_dash else (int(tile.value) + 5) % 12)

    rows = tuple(
        row
        if player == HUMAN
        else tuple(slot if slot.revealed else replace(slot, tile=other(slot.tile)) for slot in row)
        for player, row in enumerate(state.rows)
    )
    public_hand = state.turn == HUMAN or (state.phase is Phase.PLACE and state.face_up)
    hand = state.hand if public_hand else tuple(other(t) for t in state.hand)
    pool = Pool(black=state.pool.black[::-1], white=state.pool.white[::-1])
    forged = replace(state, rows=rows, hand=hand, pool=pool)
    assert view_of(forged, HUMAN) == view_of(state, HUMAN)  # the disguise touches secrets only
    return forged


def move_until(game: CodaController, done: Callable[[], bool]) -> None:
    """Step the choice of the phase round until `done()`; a choice never reached fails."""
    for _ in range(30):
        if done():
            return
        assert game.move(1)
    assert done()


def aim(game: CodaController, target: tuple[int, int], value: Value, *, by_keys: bool) -> None:
    """Choose `target` and `value` (stepping and typing digits, or pointing), then attack."""
    if by_keys:
        move_until(game, lambda: game.choices.target == target)
        if value == DASH:
            game.dash()
        else:
            for digit in [1, int(value) - 10] if int(value) >= 10 else [int(value)]:
                game.digit(digit)
    else:
        game.choose_tile(*target)
        game.choose_value(value)
    assert (game.choices.target, game.choices.value) == (target, value)
    assert game.attack()


def act(game: CodaController, action: Action) -> None:
    """Play any of the person's actions through the inputs."""
    if isinstance(action, TakeTiles):
        for _ in range(8):
            game.colour(Color.BLACK if game.choices.take_black < action.black else Color.WHITE)
        assert game.choices.take_black == action.black and game.take()
    elif isinstance(action, Arrange):
        for position in action.dashes:
            move_until(game, lambda p=position: game.choices.dash_cursor == p)  # type: ignore[misc]
            assert game.lay_out()
    elif isinstance(action, Draw):
        assert game.colour(action.color)
    elif isinstance(action, Attack):
        aim(game, (action.player, action.index), action.value, by_keys=action.index % 2 == 0)
    elif isinstance(action, Stop):
        assert game.stop()
    elif isinstance(action, Place):
        move_until(game, lambda: game.choices.slot == action.index)
        assert game.place()
    elif isinstance(action, Reveal):
        move_until(game, lambda: game.choices.reveal_index == action.index)
        assert game.reveal()
    else:  # pragma: no cover - the person has no other action
        raise AssertionError(action)
