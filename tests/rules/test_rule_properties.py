"""Invariants of the rules over random action sequences (hypothesis), in both modes."""

import contextlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from board_rules.codenames import (
    ALL_COORDS,
    UNLIMITED,
    Action,
    Cover,
    Done,
    Game,
    GameState,
    GiveClue,
    Identity,
    IllegalActionError,
    Mode,
    Penalty,
    Phase,
    Reason,
    Team,
    Timeout,
    Touch,
    Undo,
    generate_key,
)

coords = st.sampled_from(ALL_COORDS)
actions: st.SearchStrategy[Action] = st.one_of(
    st.sampled_from([0, 1, 2, 3, 9, UNLIMITED]).map(GiveClue),
    coords.map(Touch),
    coords.map(Touch),  # touches are the heart of the game: draw them more often
    coords.map(Cover),
    st.sampled_from([Done(), Penalty(), Timeout(), Undo()]),
)
games = st.builds(
    lambda seed, mode: Game(generate_key(random.Random(seed)), mode),
    st.integers(min_value=0, max_value=2**32),
    st.sampled_from(Mode),
)


def check_invariants(state: GameState) -> None:
    covered = [state.key[c] for c in state.covered]
    for team in Team:
        agents = len(state.key.agents_of(team))
        assert state.remaining(team) == agents - covered.count(Identity.of_team(team))
        assert state.remaining(team) >= 0
    # At most one winner, and only at the end, with its reason.
    assert (state.winner is not None) == state.is_over == (state.reason is not None)
    assert (state.guesses_left is None) == (state.phase is not Phase.GUESS)
    if isinstance(state.guesses_left, int):
        assert state.guesses_left >= 1
    if state.score is not None:
        assert 1 <= state.score <= 8
        assert state.score == state.remaining(state.key.starting_team.other)
    if state.mode is Mode.COOP and state.phase in (Phase.CLUE, Phase.GUESS):
        assert state.turn is state.key.starting_team
    assert state.phase is not Phase.PENALTY_COVER or state.mode is Mode.STANDARD
    assert state.phase is not Phase.ENEMY_COVER or state.mode is Mode.COOP


@settings(max_examples=300, deadline=None)
@given(game=games, sequence=st.lists(actions, max_size=60))
def test_random_play_keeps_every_invariant(game: Game, sequence: list[Action]) -> None:
    for action in sequence:
        before = game.state
        history = [*game.applied]
        try:
            after = game.play(action)
        except IllegalActionError as error:
            # Rejected actions are never half-applied.
            assert game.state == before
            assert list(game.applied) == history
            if before.is_over and not isinstance(action, Undo):
                assert error.reason is Reason.GAME_OVER
            continue
        assert not (before.is_over and not isinstance(action, Undo))
        check_invariants(after)
        assert GameState.from_json(after.to_json()) == after
        if not isinstance(action, Undo):
            # Undo after any action restores the state before it.
            assert game.play(Undo()) == before
            assert game.play(action) == after


@settings(max_examples=100, deadline=None)
@given(game=games, sequence=st.lists(actions, max_size=60))
def test_replaying_the_applied_actions_rebuilds_the_same_game(
    game: Game, sequence: list[Action]
) -> None:
    for action in sequence:
        with contextlib.suppress(IllegalActionError):
            game.play(action)
    again = Game.replay(game.key, game.mode, game.applied)
    assert again.state == game.state
    assert again.state.to_json() == game.state.to_json()
    # Without the undos and what they took back, the same game.
    assert Game.replay(game.key, game.mode, game.standing).state == game.state
