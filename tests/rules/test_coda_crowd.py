"""The expert with three or four players: whom it attacks, what a miss costs it, and which
colour it draws, in positions built tile by tile."""

from __future__ import annotations

import random

from board_rules.coda import (
    Attack,
    Color,
    Draw,
    Level,
    Phase,
    PlayerView,
    SeenTile,
    Tile,
    strategy,
)
from board_rules.coda.crowd import CROWD_MISS, crowded, hit_worths, safest_colour
from board_rules.coda.expert import miss_cost

BLACK, WHITE = Color.BLACK, Color.WHITE
EXPERT = strategy(Level.EXPERT)


def seen(text: str) -> tuple[SeenTile, ...]:
    """A row from `"b3 B? W2"`: lower case face up, upper case hidden, `?` a value the viewer
    cannot see (its own hidden tiles it can)."""
    found = []
    for word in text.split():
        color = BLACK if word[0].lower() == "b" else WHITE
        value = None if word[1:] == "?" else int(word[1:])
        found.append(SeenTile(color, value, revealed=word[0].islower()))
    return tuple(found)


def position(*rows: str, hand: str | None = "b11", phase: Phase = Phase.ATTACK) -> PlayerView:
    """Player 0's view in its turn, after its draw of `hand` (None: nothing left to draw)."""
    drawn = () if hand is None else (SeenTile(Tile.parse(hand).color, Tile.parse(hand).value),)
    return PlayerView(
        viewer=0,
        players=len(rows),
        advanced=False,
        starter=0,
        turn=0,
        phase=phase,
        rows=tuple(seen(row) for row in rows),
        hand=drawn,
        face_up=False,
        hits=0,
        pool_black=3,
        pool_white=3,
        winner=None,
    )


# Player 0 holds w1 w2 w3 hidden. Player 1's hidden black lies between b3 and b6 (b4 or b5),
# player 2's between b7 and b10 (b8 or b9): each is an even chance.
MINE = "W1 W2 W3"
ONE_EACH = (MINE, "b3 B? b6", "b7 B? b10")


def test_of_two_even_chances_the_expert_hits_the_player_who_plays_just_before_it() -> None:
    view = position(*ONE_EACH)
    worths = hit_worths(view)
    assert worths[2] > worths[1]
    for seed in range(5):
        action = EXPERT(view, random.Random(seed))
        assert isinstance(action, Attack) and action.player == 2


def test_a_hit_that_puts_a_player_out_outweighs_one_on_a_longer_row() -> None:
    # Player 2 now hides two more whites, each a wide guess: its b8/b9 is still an even chance.
    view = position(MINE, "b3 B? b6", "W? b7 B? b10 W?")
    worths = hit_worths(view)
    assert worths[1] > worths[2]
    action = EXPERT(view, random.Random(0))
    assert isinstance(action, Attack) and action.player == 1


def test_a_hit_is_worth_less_than_one_own_tile_among_equals() -> None:
    # Four players of three hidden tiles: a hit on the next player helps the two others too.
    view = position("W1 W2 W3", "W? B? W?", "W? B? W?", "W? B? W?")
    assert hit_worths(view)[1] < 1


def test_with_three_players_in_a_miss_costs_more_than_with_two() -> None:
    crowd = position(*ONE_EACH, hand=None)
    assert crowded(crowd) and miss_cost(crowd) == CROWD_MISS
    # Player 2 out: two players left, a miss costs the one own tile it turns.
    duel = position(MINE, "b3 B? b6", "b7 b8 b10", hand=None)
    assert not crowded(duel) and miss_cost(duel) == 1


def test_the_expert_draws_the_colour_that_keeps_its_row_hard_to_read() -> None:
    # Every white but w10 and w11 is face up somewhere: a white drawn now is one of two, a
    # black could be any of ten.
    whites = " ".join(f"w{v}" for v in range(4, 10))
    view = position(MINE, f"b0 {whites}", "b1 B? B?", hand=None, phase=Phase.DRAW)
    assert safest_colour(view) is BLACK
    assert EXPERT(view, random.Random(0)) == Draw(BLACK)
    blacks = " ".join(f"b{v}" for v in range(0, 10))
    view = position(MINE, f"w0 {blacks}", "w4 W? W?", hand=None, phase=Phase.DRAW)
    assert safest_colour(view) is WHITE
