"""Computer players: legal play at every level, the hard player's choices, and the measured
strength: hard against random over 200 seeded two-player games."""

from __future__ import annotations

import random

import pytest

from board_rules.coda import (
    Arrange,
    Attack,
    Color,
    Draw,
    GameState,
    Level,
    Phase,
    Place,
    Reveal,
    RowTile,
    Stop,
    TakeTiles,
    Tile,
    deduce,
    play_game,
    play_match,
    strategy,
    view_of,
)
from board_rules.coda.exposure import exposure, public_tiles
from board_rules.coda.players import KEEP_ATTACKING

from ..coda_helpers import play, random_play, start

BLACK, WHITE = Color.BLACK, Color.WHITE
HARD, EASY, RANDOM = (strategy(level) for level in (Level.HARD, Level.EASY, Level.RANDOM))


def hard(state: GameState, seed: int = 0) -> object:
    return HARD(view_of(state, state.turn), random.Random(seed))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("advanced", [False, True])
def test_every_level_plays_only_legal_actions(players: int, advanced: bool) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        levels = [rng.choice([HARD, EASY, RANDOM]) for _ in range(players)]
        final = play_game(levels, rng, advanced=advanced, starter=seed % players)
        assert final.is_over


@pytest.mark.parametrize("advanced", [False, True])
def test_hard_beats_random_in_at_least_90_percent_of_200_seeded_two_player_games(
    advanced: bool,
) -> None:
    wins = play_match([HARD, RANDOM], 200, random.Random(2024), advanced=advanced)
    assert wins[0] >= 180, wins


def test_hard_beats_easy_most_of_the_time() -> None:
    wins = play_match([EASY, HARD], 100, random.Random(7))
    assert wins[1] >= 75, wins


def test_players_are_deterministic_given_their_randomness() -> None:
    games = [play_game([HARD, EASY, RANDOM], random.Random(5), advanced=True) for _ in range(2)]
    assert games[0] == games[1]


def test_the_winner_of_each_game_of_a_match_starts_the_next() -> None:
    players = [RANDOM, HARD]
    rng = random.Random(3)
    first = play_game(players, random.Random(rng.getrandbits(64)))
    second = play_game(players, random.Random(rng.getrandbits(64)), starter=first.winner or 0)
    assert (first.starter, first.winner, second.starter) == (0, 1, 1)
    wins = [0, 0]
    for final in (first, second):
        wins[final.winner or 0] += 1
    assert play_match(players, 2, random.Random(3)) == wins


def attack_states(seed: int, players: int, advanced: bool) -> list[GameState]:
    return [s for s in random_play(seed, players, advanced) if s.phase is Phase.ATTACK]


@pytest.mark.parametrize(("seed", "players", "advanced"), [(1, 2, False), (2, 3, True)])
def test_hard_attacks_the_most_probable_tile_and_value(
    seed: int, players: int, advanced: bool
) -> None:
    for state in attack_states(seed, players, advanced)[::3]:
        action = hard(state)
        guesses = deduce(view_of(state, state.turn)).guesses()
        if isinstance(action, Attack):
            found = deduce(view_of(state, state.turn))
            assert found.probability(action.player, action.index, action.value) == guesses[0][0]
        else:
            assert isinstance(action, Stop) and state.hits


# Player 0 opens with b1 b5 w3 w8; player 1 takes four black tiles: b0 b2 b3 b4.
FOUR_BLACK = {"black": "b1 b5 b0 b2 b3 b4 b9", "white": "w3 w8"}


def test_hard_goes_on_attacking_when_it_is_sure() -> None:
    state = play(start(**FOUR_BLACK), TakeTiles(2, 2), TakeTiles(4, 0), Draw(WHITE))
    state = play(state, Attack(1, 0, 0), Attack(1, 1, 2), Attack(1, 3, 4))
    # Between the shown b2 and b4 only a black 3 fits.
    assert hard(state) == Attack(1, 2, 3)


def test_hard_stops_when_its_best_guess_is_less_likely_than_not() -> None:
    state = play(start(**FOUR_BLACK), TakeTiles(2, 2), TakeTiles(4, 0), Draw(WHITE))
    state = play(state, Attack(1, 0, 0))
    best = deduce(view_of(state, 0)).guesses()[0][0]
    assert best < KEEP_ATTACKING
    assert hard(state) == Stop()


def test_hard_does_not_risk_its_last_hidden_tile_on_a_guess() -> None:
    states = random_play(11, 2, advanced=False)
    risky = [
        s
        for s in states
        if s.phase is Phase.ATTACK and s.hits and not s.hand and len(s.hidden(s.turn)) == 1
    ]
    for state in risky:
        best = deduce(view_of(state, state.turn)).guesses()[0][0]
        assert (hard(state) == Stop()) == (best < 1)


def test_hard_draws_from_the_colour_with_more_tiles_left() -> None:
    state = play(start(), TakeTiles(3, 1), TakeTiles(3, 1))
    assert hard(state) == Draw(WHITE)
    state = play(start(), TakeTiles(1, 3), TakeTiles(2, 2))
    assert hard(state) == Draw(BLACK)


def test_hard_opens_with_both_colours() -> None:
    assert hard(start()) == TakeTiles(2, 2)
    opening = hard(start(players=4))
    assert isinstance(opening, TakeTiles) and {opening.black, opening.white} == {1, 2}


def test_hard_lays_out_its_dashes_where_its_row_is_hardest_to_read() -> None:
    state = play(start(black="b- b6", white="w- w2", advanced=True), TakeTiles(2, 2))
    action = hard(state)
    assert isinstance(action, Arrange) and len(action.dashes) == 2
    layouts = {}
    for first in range(4):
        for second in range(4):
            if first != second:
                arranged = play(state, Arrange((first, second)))
                layouts[(first, second)] = exposure(arranged.rows[0], frozenset(), advanced=True)
    assert layouts[action.dashes] == min(layouts.values())


def test_hard_places_a_drawn_dash_where_its_row_is_hardest_to_read() -> None:
    state = start(black="b3 b9 b1 b2 b-", white="w5 w7 w1 w2", advanced=True)
    state = play(state, TakeTiles(2, 2), Arrange(), TakeTiles(2, 2), Arrange())
    state = play(state, Draw(BLACK), Attack(1, 0, 1), Stop())
    assert state.hand == (Tile(BLACK, "-"),)
    action = hard(state)
    assert isinstance(action, Place)
    view = view_of(state, 0)
    public = public_tiles(view, besides=0)
    row = list(state.rows[0])
    scores = {
        slot: exposure([*row[:slot], RowTile(state.hand[0]), *row[slot:]], public, advanced=True)
        for slot in view.place_slots()
    }
    assert scores[action.index] == min(scores.values())


def test_hard_reveals_the_own_tile_whose_loss_tells_least() -> None:
    states = random_play(4, 2, advanced=False)
    revealing = [s for s in states if s.phase is Phase.REVEAL]
    assert revealing
    for state in revealing:
        action = hard(state)
        assert isinstance(action, Reveal) and action.index in state.hidden(state.turn)


def test_easy_names_only_possible_values_and_stops_after_one_right_attack() -> None:
    for state in attack_states(6, 3, True):
        action = EASY(view_of(state, state.turn), random.Random(1))
        if state.hits:
            assert action == Stop()
        else:
            assert isinstance(action, Attack)
            found = deduce(view_of(state, state.turn))
            assert action.value in found.possible(action.player, action.index)


def test_random_names_values_the_deduction_rules_out() -> None:
    impossible = 0
    for state in attack_states(8, 2, False):
        action = RANDOM(view_of(state, state.turn), random.Random(2))
        if isinstance(action, Attack):
            found = deduce(view_of(state, state.turn))
            impossible += action.value not in found.possible(action.player, action.index)
    assert impossible > 0
