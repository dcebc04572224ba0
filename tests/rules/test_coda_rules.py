"""Every rule of Coda, one test each, named after the rule it pins down, then invariants of
random play (hypothesis).

Most tests stack the pool so that every draw is known: `start(black=..., white=...)` puts the
given tiles on top of each colour's stack. Rows print hidden tiles in lower case, revealed ones
in upper case.
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from board_rules.coda import (
    DASH,
    Arrange,
    Attack,
    CodaError,
    Color,
    Draw,
    Game,
    GameState,
    InvalidActionError,
    InvalidSetupError,
    InvalidStateError,
    InvalidTileError,
    Phase,
    Place,
    Reason,
    Reveal,
    Stop,
    TakeTiles,
    Tile,
    Timeout,
    game_tiles,
    is_ordered,
    legal_slots,
    shuffle_pool,
    state_from_json,
    state_to_json,
    view_of,
)
from board_rules.coda.opening import is_layout, opening_row, take_range

from ..coda_helpers import play, random_play, rejection, row, start, tiles

BLACK, WHITE = Color.BLACK, Color.WHITE

# Two players, basic game: player 0 opens with b1 w3 b5 w8, player 1 with b0 w2 b7 w9; the next
# draws are b4, b9 … and w6, w11 ….
BASIC = {"black": "b1 b5 b0 b7 b4 b9", "white": "w3 w8 w2 w9 w6 w11"}


def opened(**kwargs: object) -> GameState:
    return play(start(**BASIC, **kwargs), TakeTiles(2, 2), TakeTiles(2, 2))  # type: ignore[arg-type]


def wrong_value(state: GameState, player: int, index: int) -> int:
    true = state.rows[player][index].tile.value
    return 0 if true != 0 else 1


def exhaust_pool(state: GameState) -> GameState:
    """Each turn draws and attacks the next player's first hidden tile wrongly, until the pool
    is empty: every drawn tile goes face up, no hidden tile changes."""
    while len(state.pool):
        color = BLACK if state.pool.count(BLACK) else WHITE
        state = play(state, Draw(color))
        target = (state.turn + 1) % state.players
        index = state.hidden(target)[0]
        state = play(state, Attack(target, index, wrong_value(state, target, index)))
        if state.phase is Phase.PLACE:
            state = play(state, Place(view_of(state, state.turn).place_slots()[0]))
    return state


def reveal_all(state: GameState, player: int) -> GameState:
    """The player in turn attacks every hidden tile of `player` rightly."""
    for index in state.hidden(player):
        state = play(state, Attack(player, index, state.rows[player][index].tile.value))
    return state


# The tiles


def test_the_basic_game_has_24_numbered_tiles_0_to_11_in_black_and_white() -> None:
    basic = game_tiles(advanced=False)
    assert len(basic) == 24 and not any(t.is_dash for t in basic)
    assert {t.value for t in basic} == set(range(12))
    assert sum(t.color is BLACK for t in basic) == 12


def test_the_advanced_game_adds_one_dash_of_each_colour() -> None:
    extra = set(game_tiles(advanced=True)) - set(game_tiles(advanced=False))
    assert extra == {Tile(BLACK, DASH), Tile(WHITE, DASH)}
    assert start(advanced=True).advanced and not start().advanced


@pytest.mark.parametrize("text", ["b12", "x3", "w", "b-1", "", "b 3"])
def test_a_tile_that_does_not_exist_cannot_be_read(text: str) -> None:
    with pytest.raises(InvalidTileError):
        Tile.parse(text)


# The setup


@pytest.mark.parametrize("players", [1, 5, 0])
def test_coda_is_played_by_two_to_four_players(players: int) -> None:
    with pytest.raises(InvalidSetupError, match="2 to 4"):
        GameState.new(players, random.Random(1))


def test_the_starter_must_be_a_player_and_the_pool_every_tile_once() -> None:
    with pytest.raises(InvalidSetupError):
        GameState.new(2, random.Random(1), starter=2)
    pool = shuffle_pool(random.Random(1))
    with pytest.raises(InvalidSetupError):
        GameState.start(replace(pool, black=pool.black[1:]), 2)
    with pytest.raises(InvalidSetupError):
        GameState.start(replace(pool, black=pool.white, white=pool.black), 2)


def test_the_shuffle_is_injected_randomness() -> None:
    assert shuffle_pool(random.Random(4)) == shuffle_pool(random.Random(4))
    assert shuffle_pool(random.Random(4)) != shuffle_pool(random.Random(5))
    pool = shuffle_pool(random.Random(4), advanced=True)
    assert sorted(map(str, (*pool.black, *pool.white))) == sorted(
        map(str, game_tiles(advanced=True))
    )


def test_each_player_takes_four_tiles() -> None:
    state = opened()
    assert (row(state, 0), row(state, 1)) == ("b1 w3 b5 w8", "b0 w2 b7 w9")


def test_with_four_players_each_takes_three_tiles() -> None:
    state = start(players=4)
    assert rejection(state, TakeTiles(2, 2)) is Reason.WRONG_COUNT
    state = play(state, TakeTiles(2, 1), TakeTiles(1, 2), TakeTiles(3, 0), TakeTiles(0, 3))
    assert [len(r) for r in state.rows] == [3, 3, 3, 3]
    assert len(state.pool) == 12


def test_the_player_chooses_the_colours_of_its_opening_tiles() -> None:
    state = play(start(**BASIC), TakeTiles(4, 0), TakeTiles(0, 4))
    assert row(state, 0) == "b0 b1 b5 b7"
    assert row(state, 1) == "w2 w3 w8 w9"


@pytest.mark.parametrize(("black", "white"), [(3, 0), (3, 2), (0, 0)])
def test_opening_tiles_other_than_four_are_rejected(black: int, white: int) -> None:
    assert rejection(start(), TakeTiles(black, white)) is Reason.WRONG_COUNT


def test_a_row_is_sorted_ascending_from_left_to_right() -> None:
    state = play(start(black="b10 b1", white="w7 w4"), TakeTiles(2, 2))
    assert row(state, 0) == "b1 w4 w7 b10"
    assert is_ordered(slot.tile for slot in state.rows[0])


def test_of_two_equal_numbers_the_black_one_lies_left_of_the_white_one() -> None:
    state = play(start(black="b5 b2", white="w5 w1"), TakeTiles(2, 2))
    assert row(state, 0) == "w1 b2 b5 w5"


def test_the_starter_takes_its_tiles_first_and_plays_first() -> None:
    state = start(**BASIC, starter=1)
    assert (state.phase, state.turn) == (Phase.TAKE, 1)
    state = play(state, TakeTiles(2, 2))
    assert row(state, 1) == "b1 w3 b5 w8" and state.turn == 0
    state = play(state, TakeTiles(2, 2))
    assert (state.phase, state.turn) == (Phase.DRAW, 1)


def test_anything_but_taking_tiles_is_rejected_in_the_opening() -> None:
    assert rejection(start(), Draw(BLACK)) is Reason.MUST_TAKE


# The turn


def test_a_turn_starts_with_drawing_a_tile_of_the_chosen_colour() -> None:
    state = opened()
    assert rejection(state, Attack(1, 0, 0)) is Reason.MUST_DRAW
    drawn = play(state, Draw(WHITE))
    assert (drawn.phase, drawn.hand) == (Phase.ATTACK, (Tile(WHITE, 6),))
    assert rejection(drawn, Draw(BLACK)) is Reason.ALREADY_DRAWN


def test_the_drawn_tile_is_kept_apart_and_seen_only_by_its_owner() -> None:
    drawn = play(opened(), Draw(BLACK))
    assert row(drawn, 0) == "b1 w3 b5 w8"
    assert view_of(drawn, 0).hand[0].value == 4
    assert view_of(drawn, 1).hand[0].value is None
    assert view_of(drawn, 1).hand[0].color is BLACK


def test_a_colour_with_no_tile_left_cannot_be_drawn() -> None:
    state = play(start(), TakeTiles(4, 0), TakeTiles(4, 0))
    for _ in range(4):  # the four black tiles left
        state = play(state, Draw(BLACK))
        state = play(state, Attack(1 - state.turn, state.hidden(1 - state.turn)[0], 11))
    assert state.pool.count(BLACK) == 0
    assert rejection(state, Draw(BLACK)) is Reason.COLOUR_USED_UP
    assert play(state, Draw(WHITE)).phase is Phase.ATTACK


def test_a_right_attack_turns_the_tile_face_up_where_it_lies() -> None:
    state = play(opened(), Draw(BLACK), Attack(1, 2, 7))
    assert row(state, 1) == "b0 w2 B7 w9"
    assert (state.phase, state.turn, state.hits) == (Phase.ATTACK, 0, 1)


def test_after_a_right_attack_the_attacker_may_attack_again() -> None:
    state = play(opened(), Draw(BLACK), Attack(1, 2, 7), Attack(1, 0, 0))
    assert row(state, 1) == "B0 w2 B7 w9"
    assert state.hits == 2 and state.turn == 0


def test_on_stopping_the_drawn_tile_goes_hidden_into_its_place_in_the_row() -> None:
    state = play(opened(), Draw(BLACK), Attack(1, 2, 7), Stop())
    assert row(state, 0) == "b1 w3 b4 b5 w8"
    assert (state.phase, state.turn, state.hand) == (Phase.DRAW, 1, ())


def test_stopping_before_a_right_attack_is_rejected() -> None:
    assert rejection(play(opened(), Draw(BLACK)), Stop()) is Reason.MUST_ATTACK_FIRST


def test_a_wrong_attack_puts_the_drawn_tile_face_up_into_the_row_and_ends_the_turn() -> None:
    state = play(opened(), Draw(BLACK), Attack(1, 2, 7), Attack(1, 1, 5))
    assert row(state, 0) == "b1 w3 B4 b5 w8"
    assert row(state, 1) == "b0 w2 B7 w9"
    assert (state.phase, state.turn) == (Phase.DRAW, 1)


def test_everyone_hears_a_wrong_attack_the_miss_stays_on_the_tile() -> None:
    state = play(opened(), Draw(BLACK), Attack(1, 1, 5))
    assert state.rows[1][1].misses == {5}
    assert view_of(state, 0).rows[1][1].misses == {5}


def test_turns_pass_in_the_order_of_play() -> None:
    state = play(start(players=3), TakeTiles(2, 2), TakeTiles(2, 2), TakeTiles(2, 2))
    turns = []
    for _ in range(4):
        turns.append(state.turn)
        target = (state.turn + 1) % 3
        state = play(state, Draw(BLACK), Attack(target, 0, wrong_value(state, target, 0)))
    assert turns == [0, 1, 2, 0]


@pytest.mark.parametrize("target", [1, 2])
def test_any_opponent_may_be_attacked(target: int) -> None:
    state = play(start(players=3), TakeTiles(2, 2), TakeTiles(2, 2), TakeTiles(2, 2), Draw(WHITE))
    value = state.rows[target][0].tile.value
    assert play(state, Attack(target, 0, value)).rows[target][0].revealed


def test_attacks_on_no_tile_of_an_opponent_are_rejected() -> None:
    state = play(opened(), Draw(BLACK), Attack(1, 2, 7))
    assert rejection(state, Attack(0, 0, 1)) is Reason.OWN_ROW
    assert rejection(state, Attack(2, 0, 1)) is Reason.NO_SUCH_PLAYER
    assert rejection(state, Attack(1, 4, 1)) is Reason.NO_SUCH_TILE
    assert rejection(state, Attack(1, 2, 7)) is Reason.ALREADY_REVEALED


@pytest.mark.parametrize(
    "action",
    [
        lambda: TakeTiles(-1, 5),
        lambda: Draw("black"),  # type: ignore[arg-type]
        lambda: Attack(1, 0, 12),
        lambda: Attack(1, -1, 3),
        lambda: Attack(True, 0, 3),
        lambda: Place(-1),
        lambda: Arrange((0, -2)),
    ],
)
def test_malformed_actions_are_told_apart_from_illegal_play(action: object) -> None:
    with pytest.raises(InvalidActionError) as caught:
        action()  # type: ignore[operator]
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, CodaError)


# The empty pool


def test_with_the_pool_empty_a_turn_starts_with_the_attack() -> None:
    state = exhaust_pool(opened())
    assert len(state.pool) == 0 and state.phase is Phase.ATTACK
    assert rejection(state, Draw(BLACK)) is Reason.POOL_EMPTY


def test_with_the_pool_empty_a_wrong_attack_reveals_an_own_tile_of_the_attackers_choice() -> None:
    state = exhaust_pool(opened())
    attacker, target = state.turn, 1 - state.turn
    index = state.hidden(target)[0]
    state = play(state, Attack(target, index, wrong_value(state, target, index)))
    assert (state.phase, state.turn) == (Phase.REVEAL, attacker)
    assert rejection(state, Stop()) is Reason.MUST_REVEAL
    chosen = state.hidden(attacker)[-1]
    after = play(state, Reveal(chosen))
    assert after.rows[attacker][chosen].revealed
    assert len(after.hidden(attacker)) == len(state.hidden(attacker)) - 1
    assert after.turn == target


def test_an_own_reveal_must_be_of_a_hidden_tile_in_the_row() -> None:
    state = exhaust_pool(opened())
    target = 1 - state.turn
    index = state.hidden(target)[0]
    state = play(state, Attack(target, index, wrong_value(state, target, index)))
    revealed = next(i for i, slot in enumerate(state.rows[state.turn]) if slot.revealed)
    assert rejection(state, Reveal(revealed)) is Reason.ALREADY_REVEALED
    assert rejection(state, Reveal(99)) is Reason.NO_SUCH_TILE


def test_with_the_pool_empty_stopping_places_nothing() -> None:
    state = exhaust_pool(opened())
    target = 1 - state.turn
    index = state.hidden(target)[0]
    before = len(state.rows[state.turn])
    state = play(state, Attack(target, index, state.rows[target][index].tile.value), Stop())
    assert len(state.rows[1 - state.turn]) == before and state.turn == target


# Elimination and the end


def test_a_player_whose_tiles_are_all_revealed_is_out_and_cannot_be_attacked() -> None:
    state = play(start(players=3), TakeTiles(2, 2), TakeTiles(2, 2), TakeTiles(2, 2), Draw(BLACK))
    state = reveal_all(state, 1)
    assert state.is_out(1) and state.in_game() == (0, 2)
    assert rejection(state, Attack(1, 0, 0)) is Reason.PLAYER_OUT


def test_a_player_who_is_out_no_longer_plays() -> None:
    state = play(start(players=3), TakeTiles(2, 2), TakeTiles(2, 2), TakeTiles(2, 2), Draw(BLACK))
    state = play(reveal_all(state, 1), Stop())
    assert state.turn == 2  # player 1 is skipped: it can no longer attack
    state = play(state, Draw(BLACK), Attack(0, 0, wrong_value(state, 0, 0)))
    assert state.turn == 0


def test_the_last_player_with_a_hidden_tile_wins_at_once() -> None:
    state = reveal_all(play(opened(), Draw(BLACK)), 1)
    assert (state.phase, state.winner) == (Phase.OVER, 0)
    assert state.hand == (Tile(BLACK, 4),)  # the drawn tile stays in hand
    assert rejection(state, Stop()) is Reason.GAME_OVER


def test_a_wrong_attack_with_the_pool_empty_can_put_the_attacker_out() -> None:
    state = exhaust_pool(opened())
    assert state.turn == 0 and len(state.hidden(0)) == 4
    miss = Attack(1, state.hidden(1)[0], wrong_value(state, 1, state.hidden(1)[0]))
    state = play(state, miss, Reveal(state.hidden(0)[0]))
    state = reveal_all_but_one(state, 0)
    state = play(state, Stop())
    (last,) = state.hidden(0)
    state = play(state, miss, Reveal(last))
    assert state.is_out(0)
    assert (state.phase, state.winner) == (Phase.OVER, 1)


def reveal_all_but_one(state: GameState, player: int) -> GameState:
    for index in state.hidden(player)[:-1]:
        state = play(state, Attack(player, index, state.rows[player][index].tile.value))
    return state


def test_the_winner_starts_the_next_game() -> None:
    state = reveal_all(play(opened(), Draw(BLACK)), 1)
    assert state.next_starter == 0
    assert opened().next_starter is None
    following = GameState.new(2, random.Random(2), starter=state.next_starter)
    assert following.turn == 0


# Four players


def test_four_players_play_in_order_and_may_attack_any_of_three_opponents() -> None:
    state = play(
        start(players=4), TakeTiles(2, 1), TakeTiles(1, 2), TakeTiles(2, 1), TakeTiles(1, 2)
    )
    assert (state.phase, state.turn) == (Phase.DRAW, 0)
    state = play(state, Draw(WHITE))
    for target in (1, 2, 3):
        value = state.rows[target][0].tile.value
        state = play(state, Attack(target, 0, value))
    assert state.hits == 3
    state = play(state, Stop())
    assert state.turn == 1


def test_with_four_players_the_game_goes_on_until_one_is_left() -> None:
    state = play(
        start(players=4), TakeTiles(2, 1), TakeTiles(1, 2), TakeTiles(2, 1), TakeTiles(1, 2)
    )
    state = play(state, Draw(WHITE))
    state = reveal_all(reveal_all(state, 1), 2)
    assert state.in_game() == (0, 3) and not state.is_over
    state = reveal_all(state, 3)
    assert state.winner == 0


# The advanced game: dashes

ADVANCED = {"black": "b- b3 b0 b8", "white": "w5 w- w2 w9", "advanced": True}


def test_every_advanced_opening_is_laid_out_by_its_owner_even_without_a_dash() -> None:
    state = play(start(**ADVANCED), TakeTiles(2, 2))  # type: ignore[arg-type]
    assert state.phase is Phase.ARRANGE and state.rows[0] == ()
    assert view_of(state, 1).hand[0].value is None  # the others see four backs, nothing more
    state = play(state, Arrange((0, 2)), TakeTiles(2, 2))
    assert state.phase is Phase.ARRANGE and state.turn == 1
    assert rejection(state, Draw(BLACK)) is Reason.MUST_ARRANGE
    state = play(state, Arrange())
    assert row(state, 1) == "b0 w2 b8 w9" and state.phase is Phase.DRAW


def test_an_opening_dash_goes_wherever_its_owner_puts_it_before_0_included() -> None:
    state = play(start(black="b- b0", white="w5 w1", advanced=True), TakeTiles(2, 2))
    assert row(play(state, Arrange((0,))), 0) == "b- b0 w1 w5"
    assert row(play(state, Arrange((3,))), 0) == "b0 w1 w5 b-"
    both = play(start(**ADVANCED), TakeTiles(2, 2))  # type: ignore[arg-type]
    assert row(play(both, Arrange((3, 0))), 0) == "w- b3 w5 b-"


@pytest.mark.parametrize("dashes", [(), (0,), (0, 0), (0, 4)])
def test_an_opening_layout_gives_each_dash_held_one_place(dashes: tuple[int, ...]) -> None:
    state = play(start(**ADVANCED), TakeTiles(2, 2))  # type: ignore[arg-type]
    assert rejection(state, Arrange(dashes)) is Reason.BAD_ARRANGEMENT


def test_an_opening_takes_no_more_of_a_colour_than_its_stack_holds() -> None:
    assert take_range(4, black_left=12, white_left=12) == (0, 4)
    assert take_range(4, black_left=1, white_left=12) == (0, 1)
    assert take_range(3, black_left=12, white_left=1) == (2, 3)
    short = replace(start(), pool=replace(start().pool, black=(Tile(BLACK, 5),)))
    assert view_of(short, 0).take_range() == (0, 1)
    assert rejection(short, TakeTiles(2, 2)) is Reason.COLOUR_USED_UP
    assert row(play(short, TakeTiles(1, 3)), 0) == "w0 w1 w2 b5"


def test_an_opening_layout_puts_each_dash_at_its_place_and_the_numbers_in_order() -> None:
    hand = tiles("w5 w- b3 b-")
    assert opening_row(hand, (3, 0)) == tuple(tiles("w- b3 w5 b-"))  # the black dash first
    assert opening_row(tiles("w5 b3"), ()) == tuple(tiles("b3 w5"))
    for positions in [(3,), (1, 1), (0, 4), (-1, 2)]:
        assert not is_layout(hand, positions)
        with pytest.raises(ValueError, match="each dash"):
            opening_row(hand, positions)


def test_a_view_lays_out_its_own_hand_as_the_rules_do() -> None:
    state = play(start(**ADVANCED), TakeTiles(2, 2))  # type: ignore[arg-type]
    mine = view_of(state, 0)
    assert mine.held_dashes() == (Tile(BLACK, DASH), Tile(WHITE, DASH))
    for positions in [(3, 0), (0, 1), (2, 3)]:
        laid = play(state, Arrange(positions))
        assert mine.opening_row(positions) == tuple(slot.tile for slot in laid.rows[0])
    with pytest.raises(ValueError, match="owner"):
        view_of(state, 1).held_dashes()


def advanced_opened() -> GameState:
    """Player 0: b1 b- w5 w7 (the dash between 1 and 5); player 1: b0 w2 b8 w9; next draws are
    b3 then b4, and w-."""
    state = start(black="b1 b- b0 b8 b3 b4", white="w5 w7 w2 w9 w-", advanced=True)
    return play(state, TakeTiles(2, 2), Arrange((1,)), TakeTiles(2, 2), Arrange())


def test_naming_a_dash_is_an_attack_of_the_advanced_game_only() -> None:
    assert rejection(play(opened(), Draw(BLACK)), Attack(1, 0, DASH)) is Reason.NO_DASHES
    state = play(advanced_opened(), Draw(BLACK), Attack(1, 0, 0), Stop(), Place(1), Draw(WHITE))
    assert row(state, 0) == "b1 b3 b- w5 w7"
    assert row(play(state, Attack(0, 2, DASH)), 0) == "b1 b3 B- w5 w7"
    missed = play(state, Attack(0, 1, DASH))
    assert missed.rows[0][1].misses == {DASH}


def test_every_tile_entering_an_advanced_row_waits_for_its_owner_to_place_it() -> None:
    state = play(advanced_opened(), Draw(BLACK), Attack(1, 0, 0), Stop())
    assert (state.phase, state.face_up) == (Phase.PLACE, False)
    assert view_of(state, 0).place_slots() == (1, 2)  # either side of the dash
    assert view_of(state, 1).hand[0].value is None
    assert rejection(state, Stop()) is Reason.MUST_PLACE
    state = play(state, Place(2))
    assert row(state, 0) == "b1 b- b3 w5 w7" and state.turn == 1
    # A single possible place is asked for all the same, so the phase tells nothing.
    state = play(state, Draw(BLACK), Attack(0, 4, 7), Stop())
    assert state.hand == (Tile(BLACK, 4),) and row(state, 1) == "B0 w2 b8 w9"
    assert state.phase is Phase.PLACE and view_of(state, 1).place_slots() == (2,)


def test_a_number_goes_either_side_of_a_dash_but_never_out_of_order() -> None:
    state = play(advanced_opened(), Draw(BLACK), Attack(1, 0, 0), Stop())
    assert rejection(state, Place(0)) is Reason.OUT_OF_ORDER
    assert rejection(state, Place(3)) is Reason.OUT_OF_ORDER
    assert rejection(state, Place(5)) is Reason.NO_SUCH_SLOT
    assert row(play(state, Place(1)), 0) == "b1 b3 b- w5 w7"


def test_a_wrong_attack_in_the_advanced_game_places_the_tile_face_up_where_chosen() -> None:
    state = play(advanced_opened(), Draw(BLACK), Attack(1, 0, 5))
    assert (state.phase, state.face_up) == (Phase.PLACE, True)
    assert view_of(state, 1).hand[0].value == 3  # turned over for everyone to see
    assert row(play(state, Place(1)), 0) == "b1 B3 b- w5 w7"


def test_a_drawn_dash_goes_wherever_its_owner_places_it() -> None:
    state = play(advanced_opened(), Draw(BLACK), Attack(1, 0, 5))
    state = play(state, Place(1), Draw(WHITE), Attack(0, 0, 1), Stop())
    assert state.hand == (Tile(WHITE, DASH),)
    assert view_of(state, 1).place_slots() == (0, 1, 2, 3, 4)
    assert row(play(state, Place(0)), 1) == "w- b0 w2 b8 w9"


def test_a_dash_never_moves_once_in_the_row() -> None:
    state = play(advanced_opened(), Draw(BLACK), Attack(1, 0, 0), Stop(), Place(2))
    state = play(state, Draw(WHITE), Attack(0, 0, 1), Stop(), Place(4))
    state = play(state, Draw(BLACK), Attack(1, 1, 2), Stop())
    state = play(state, Place(view_of(state, 0).place_slots()[0]))
    tiles_now = [str(slot.tile) for slot in state.rows[0]]
    assert tiles_now == ["b1", "b-", "b3", "b4", "w5", "w7"]


def test_legal_places_are_where_the_order_rule_allows() -> None:
    assert legal_slots(tiles("b1 w4"), Tile.parse("b3")) == (1,)
    assert legal_slots(tiles("b- b1 w- w4"), Tile.parse("b0")) == (0, 1)
    assert legal_slots(tiles("b1 w4"), Tile.parse("w-")) == (0, 1, 2)
    assert legal_slots([], Tile.parse("w3")) == (0,)


# The time rule


def test_a_timeout_before_any_right_attack_puts_the_drawn_tile_face_up_into_the_row() -> None:
    state = play(opened(), Draw(BLACK), Timeout())
    assert row(state, 0) == "b1 w3 B4 b5 w8"
    assert (state.turn, state.rows[1]) == (1, opened().rows[1])  # no miss is recorded


def test_a_timeout_after_a_right_attack_is_a_stop() -> None:
    state = play(opened(), Draw(BLACK), Attack(1, 2, 7), Timeout())
    assert row(state, 0) == "b1 w3 b4 b5 w8" and state.turn == 1


def test_a_timeout_with_the_pool_empty_makes_the_attacker_reveal_an_own_tile() -> None:
    state = play(exhaust_pool(opened()), Timeout())
    assert state.phase is Phase.REVEAL


def test_a_timeout_is_only_for_the_attacks() -> None:
    assert rejection(opened(), Timeout()) is Reason.MUST_DRAW
    assert rejection(start(), Timeout()) is Reason.MUST_TAKE


def test_only_attacks_stops_and_timeouts_are_taken_during_the_attacks() -> None:
    state = play(opened(), Draw(BLACK))
    for action in (TakeTiles(2, 2), Place(0), Reveal(0), Arrange()):
        assert rejection(state, action) is Reason.ATTACKING


# Views, the fold and JSON


def test_a_view_holds_own_values_revealed_values_and_colours_only() -> None:
    state = play(opened(), Draw(BLACK), Attack(1, 2, 7))
    view = view_of(state, 1)
    assert [s.value for s in view.rows[1]] == [0, 2, 7, 9]
    assert [s.value for s in view.rows[0]] == [None] * 4
    assert [s.color for s in view.rows[0]] == [BLACK, WHITE, BLACK, WHITE]
    assert view_of(state, 0).rows[1][2].value == 7 and view_of(state, 0).rows[1][0].value is None
    assert (view.pool_black, view.pool_white) == (7, 8)


def test_a_game_is_the_fold_of_its_actions() -> None:
    game = Game.new(2, random.Random(9))
    actions = [
        TakeTiles(2, 2),
        TakeTiles(3, 1),
        Draw(WHITE),
        Attack(1, 0, 3),
        Draw(BLACK),
        Timeout(),
    ]
    for action in actions:
        game.play(action)
    assert game.applied == tuple(actions)
    assert Game.replay(game.start, game.applied).state == game.state
    assert game.start == GameState.new(2, random.Random(9))


def test_json_round_trip_is_exact_and_versioned() -> None:
    for state in (opened(), play(opened(), Draw(BLACK), Attack(1, 1, 5)), advanced_opened()):
        text = state_to_json(state)
        assert state_from_json(text) == state
        assert state_to_json(state_from_json(text)) == text
    assert '"version": 2' in state_to_json(opened())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=1), "version 1"),
        (lambda d: d.update(phase="napping"), "malformed"),
        (lambda d: d.update(extra=1), "fields"),
        (lambda d: d.update(hits="1"), "malformed"),
        (lambda d: d["pool"]["black"].pop(), "every tile"),
        (lambda d: d["pool"]["black"].append("w11"), "malformed|every tile"),
        (lambda d: d["rows"][0].reverse(), "order"),
        (lambda d: d.update(winner=0), "winner"),
        (lambda d: d.update(turn=7), "player in turn"),
        (lambda d: d["rows"][1][1].update(misses=[2]), "miss"),
        (lambda d: d["rows"][1][1].update(owner_named=[3, 3]), "malformed"),
        (lambda d: d["rows"][1][1].pop("owner_named"), "malformed"),
        (lambda d: d.update(advanced=True), "every tile"),
    ],
)
def test_malformed_or_inconsistent_json_is_rejected(change: object, message: str) -> None:
    import json

    data = json.loads(state_to_json(play(opened(), Draw(BLACK))))
    change(data)  # type: ignore[operator]
    with pytest.raises(InvalidStateError, match=message):
        state_from_json(json.dumps(data))


def test_json_that_is_no_state_is_rejected() -> None:
    with pytest.raises(InvalidStateError, match="not JSON"):
        state_from_json("{")
    with pytest.raises(InvalidStateError, match="object"):
        state_from_json("[]")


# Invariants of random play

seeds = st.integers(min_value=0, max_value=2**32)
player_counts = st.integers(min_value=2, max_value=4)


@settings(max_examples=40, deadline=None)
@given(seeds, player_counts, st.booleans())
def test_random_play_keeps_rows_ordered_and_never_hides_a_revealed_tile(
    seed: int, players: int, advanced: bool
) -> None:
    states = random_play(seed, players, advanced)
    for before, after in pairwise(states):
        for old, new in zip(before.rows, after.rows, strict=True):
            assert is_ordered(slot.tile for slot in new)
            # Tiles only ever join a row: the old row is the new one less the newcomers.
            kept = [slot.tile for slot in new if slot.tile in {s.tile for s in old}]
            assert kept == [slot.tile for slot in old]
            revealed = {slot.tile for slot in old if slot.revealed}
            assert revealed <= {slot.tile for slot in new if slot.revealed}
    final = states[-1]
    assert final.is_over and final.in_game() == (final.winner,)


@settings(max_examples=40, deadline=None)
@given(seeds, player_counts, st.booleans(), st.data())
def test_views_never_leak_what_the_viewer_cannot_see(
    seed: int, players: int, advanced: bool, data: st.DataObject
) -> None:
    states = random_play(seed, players, advanced)
    state = data.draw(st.sampled_from(states))
    viewer = data.draw(st.integers(min_value=0, max_value=players - 1))
    other = _reshuffle_unseen(state, viewer, random.Random(data.draw(seeds)))
    assert view_of(other, viewer) == view_of(state, viewer)


Spot = tuple[str, int, int]
"""Where a tile lies: ("row", player, position), ("hand", 0, i) or ("pool", colour, i)."""


def _reshuffle_unseen(state: GameState, viewer: int, rng: random.Random) -> GameState:
    """`state` with every tile `viewer` may not see dealt again at random within its colour:
    the others' hidden tiles, another player's tile in hand (unless going face up), and the
    pool, its order and its content. Decided from the rules, not from the view under test."""
    places: list[Spot] = [
        ("row", player, i)
        for player, r in enumerate(state.rows)
        if player != viewer
        for i, slot in enumerate(r)
        if not slot.revealed
    ]
    if state.turn != viewer and not (state.phase is Phase.PLACE and state.face_up):
        places += [("hand", 0, i) for i in range(len(state.hand))]
    for c, color in enumerate((BLACK, WHITE)):
        places += [("pool", c, i) for i in range(state.pool.count(color))]

    def get(place: Spot) -> Tile:
        kind, a, i = place
        if kind == "row":
            return state.rows[a][i].tile
        if kind == "hand":
            return state.hand[i]
        return state.pool.of((BLACK, WHITE)[a])[i]

    dealt: dict[Spot, Tile] = {}
    for color in (BLACK, WHITE):
        mine = [p for p in places if get(p).color is color]
        shuffled = [get(p) for p in mine]
        rng.shuffle(shuffled)
        dealt.update(zip(mine, shuffled, strict=True))
    rows = tuple(
        tuple(replace(slot, tile=dealt.get(("row", p, i), slot.tile)) for i, slot in enumerate(r))
        for p, r in enumerate(state.rows)
    )
    hand = tuple(dealt.get(("hand", 0, i), t) for i, t in enumerate(state.hand))
    pool = replace(
        state.pool,
        black=tuple(dealt[("pool", 0, i)] for i in range(len(state.pool.black))),
        white=tuple(dealt[("pool", 1, i)] for i in range(len(state.pool.white))),
    )
    return replace(state, rows=rows, hand=hand, pool=pool)


@settings(max_examples=40, deadline=None)
@given(seeds, player_counts, st.booleans(), st.data())
def test_json_round_trip_is_exact_for_any_state_of_play(
    seed: int, players: int, advanced: bool, data: st.DataObject
) -> None:
    state = data.draw(st.sampled_from(random_play(seed, players, advanced)))
    text = state_to_json(state)
    assert state_from_json(text) == state
    assert state_to_json(state_from_json(text)) == text
