"""Deduction: the values each hidden tile can still have and their exact probabilities,
checked by hand on small cases, against brute-force enumeration of every deal, and for
soundness on random play (hypothesis)."""

from __future__ import annotations

import itertools
import random
import time
from collections import defaultdict
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from board_rules.coda import (
    DASH,
    Color,
    InconsistentViewError,
    SeenTile,
    Tile,
    Value,
    deduce,
    deduce_rows,
    every_deal,
    game_tiles,
    is_ordered,
    view_of,
)
from board_rules.coda.deduction import deduce_with_deals, sample_rows

from ..coda_helpers import random_play, tiles

BLACK, WHITE = Color.BLACK, Color.WHITE


def hidden(color: Color, *misses: Value) -> SeenTile:
    return SeenTile(color, None, misses=frozenset(misses))


def shown(text: str) -> SeenTile:
    tile = Tile.parse(text)
    return SeenTile(tile.color, tile.value, revealed=True)


def unseen(text: str) -> frozenset[Tile]:
    return frozenset(tiles(text))


def test_a_hidden_tile_takes_an_unseen_value_of_its_colour() -> None:
    found = deduce_rows({1: (hidden(BLACK),)}, unseen("b2 b7 w3"))
    assert found.possible(1, 0) == {2, 7}
    assert found.probability(1, 0, 2) == Fraction(1, 2)


def test_revealed_neighbours_bound_a_hidden_tile() -> None:
    row = (shown("w2"), hidden(BLACK), shown("b6"))
    found = deduce_rows({1: row}, unseen("b0 b2 b3 b5 b9"))
    # Black 2 ranks below white 2, so it cannot lie right of it.
    assert found.possible(1, 1) == {3, 5}


def test_of_equal_numbers_black_comes_first_in_deduction_too() -> None:
    found = deduce_rows({1: (hidden(WHITE), shown("b4"))}, unseen("w4 w3 w1"))
    assert found.possible(1, 0) == {1, 3}
    found = deduce_rows({1: (shown("b4"), hidden(WHITE))}, unseen("w4 w3 w1"))
    assert found.possible(1, 1) == {4}


def test_hidden_tiles_of_a_row_ascend() -> None:
    found = deduce_rows({1: (hidden(BLACK), hidden(BLACK))}, unseen("b1 b2 b3"))
    assert found.total == 3  # (1, 2), (1, 3), (2, 3)
    assert found.distribution(1, 0) == {1: Fraction(2, 3), 2: Fraction(1, 3)}
    assert found.distribution(1, 1) == {2: Fraction(1, 3), 3: Fraction(2, 3)}


def test_a_tile_is_in_one_row_only() -> None:
    found = deduce_rows({1: (hidden(BLACK),), 2: (hidden(BLACK),)}, unseen("b1 b2"))
    assert found.total == 2
    assert found.probability(1, 0, 1) == found.probability(2, 0, 1) == Fraction(1, 2)


def test_a_miss_rules_its_value_out() -> None:
    found = deduce_rows({1: (hidden(BLACK, 5),)}, unseen("b5 b6"))
    assert found.possible(1, 0) == {6}
    found = deduce_rows({1: (hidden(BLACK, DASH),)}, unseen("b- b6"))
    assert found.possible(1, 0) == {6}


def test_a_hidden_tile_may_be_the_dash_of_its_colour_anywhere_in_the_advanced_game() -> None:
    row = (shown("b3"), hidden(BLACK), shown("b8"))
    found = deduce_rows({1: row}, unseen("b1 b5 b- w-"))
    assert found.distribution(1, 1) == {5: Fraction(1, 2), DASH: Fraction(1, 2)}
    before_zero = deduce_rows({1: (hidden(WHITE), shown("b0"))}, unseen("w- w4"))
    assert before_zero.possible(1, 0) == {DASH}


def test_each_dash_fills_one_hidden_tile_at_most() -> None:
    found = deduce_rows({1: (hidden(BLACK), hidden(BLACK))}, unseen("b- b4"))
    assert found.total == 2  # (-, 4) or (4, -)
    assert found.distribution(1, 0) == {4: Fraction(1, 2), DASH: Fraction(1, 2)}


def test_the_chances_of_each_hidden_tile_add_up_to_one() -> None:
    rows = {1: (hidden(BLACK), hidden(WHITE), shown("b9")), 2: (hidden(WHITE), hidden(BLACK))}
    found = deduce_rows(rows, frozenset(game_tiles(advanced=True)) - unseen("b9"))
    for key in found.counts:
        assert sum(found.distribution(*key).values()) == 1
    guesses = found.guesses()
    assert guesses == sorted(guesses, key=lambda g: -g[0])


def test_a_view_that_no_deal_explains_is_rejected() -> None:
    with pytest.raises(InconsistentViewError):
        deduce_rows({1: (hidden(BLACK), hidden(BLACK))}, unseen("b1 w2"))


def test_a_players_view_rules_out_its_own_tiles_and_every_revealed_one() -> None:
    states = random_play(3, 2, advanced=False)
    state = next(s for s in states if s.phase.value == "attack" and s.hand)
    view = view_of(state, state.turn)
    found = deduce(view)
    mine = {slot.tile for slot in state.rows[state.turn]} | set(state.hand)
    for key in found.counts:
        for value in found.possible(*key):
            assert Tile(state.rows[key[0]][key[1]].tile.color, value) not in mine


def test_deduction_is_fast_enough_for_every_turn_with_four_players() -> None:
    # The worst shape with four players: three rows of eight hidden tiles, both dashes unseen.
    rng = random.Random(1)
    deal = list(game_tiles(advanced=True))
    rng.shuffle(deal)
    rows = {}
    for player in (1, 2, 3):
        mine = deal[8 * (player - 1) : 8 * player]
        ordered = sorted((t for t in mine if t.rank is not None), key=lambda t: t.rank or 0)
        for dash in (t for t in mine if t.is_dash):
            ordered.insert(rng.randint(0, len(ordered)), dash)
        rows[player] = tuple(hidden(t.color) for t in ordered)
    # The processor time this thread spent, which a loaded machine does not stretch as it
    # stretches the time on the wall.
    began = time.thread_time()
    deduce_rows(rows, frozenset(deal))
    assert time.thread_time() - began < 5  # about 0.2 s on a desktop


# Against brute force: every deal listed


def brute_force(
    rows: dict[int, tuple[SeenTile, ...]], pool: frozenset[Tile]
) -> tuple[int, dict[tuple[int, int], dict[Value, int]]]:
    slots = [(p, i, s) for p, row in rows.items() for i, s in enumerate(row) if s.value is None]
    total = 0
    counts: dict[tuple[int, int], dict[Value, int]] = defaultdict(lambda: defaultdict(int))
    for deal in itertools.permutations(sorted(pool, key=str), len(slots)):
        if any(
            t.color is not s.color or t.value in s.misses
            for (_, _, s), t in zip(slots, deal, strict=True)
        ):
            continue
        given_ = {(p, i): t for (p, i, _), t in zip(slots, deal, strict=True)}
        if not all(
            is_ordered(given_.get((p, i)) or s.tile for i, s in enumerate(row))  # type: ignore[misc]
            for p, row in rows.items()
        ):
            continue
        total += 1
        for key, tile in given_.items():
            counts[key][tile.value] += 1
    return total, {key: dict(values) for key, values in counts.items()}


def small_case(rng: random.Random) -> tuple[dict[int, tuple[SeenTile, ...]], frozenset[Tile]]:
    """Up to three rows of up to three tiles, some revealed, some with misses, and a few more
    unseen tiles than hidden ones."""
    deal = list(game_tiles(advanced=rng.random() < 0.5))
    rng.shuffle(deal)
    rows = {}
    for player in range(1, rng.randint(2, 4)):
        size = rng.randint(1, 3)
        mine, deal = deal[:size], deal[size:]
        ordered = sorted((t for t in mine if t.rank is not None), key=lambda t: t.rank or 0)
        for dash in (t for t in mine if t.is_dash):
            ordered.insert(rng.randint(0, len(ordered)), dash)
        row = []
        for tile in ordered:
            if rng.random() < 0.3:
                row.append(SeenTile(tile.color, tile.value, revealed=True))
            else:
                named = rng.choice([*range(12), DASH, DASH, DASH])
                misses = {named} if named != tile.value and rng.random() < 0.4 else set()
                row.append(hidden(tile.color, *misses))
        rows[player] = (row, ordered)
    views = {p: tuple(row) for p, (row, _) in rows.items()}
    hidden_tiles = {
        t
        for row, ordered in rows.values()
        for s, t in zip(row, ordered, strict=True)
        if s.value is None
    }
    return views, frozenset(hidden_tiles | set(deal[: rng.randint(0, 4)]))


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_deduction_counts_exactly_what_brute_force_enumeration_counts(seed: int) -> None:
    rows, pool = small_case(random.Random(seed))
    total, counts = brute_force(rows, pool)
    found = deduce_rows(rows, pool)
    assert (found.total, {k: dict(v) for k, v in found.counts.items()}) == (total, counts)


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_every_deal_lists_each_deal_brute_force_finds_once(seed: int) -> None:
    rows, pool = small_case(random.Random(seed))
    slots = [(p, i) for p, row in rows.items() for i, s in enumerate(row) if s.value is None]
    expected = {
        tuple(deal)
        for deal in itertools.permutations(sorted(pool, key=str), len(slots))
        if _fits(rows, dict(zip(slots, deal, strict=True)))
    }
    if not expected:
        with pytest.raises(InconsistentViewError):
            every_deal(rows, pool)
        return
    listed = [tuple(deal[key] for key in slots) for deal in every_deal(rows, pool)]
    assert sorted(listed, key=str) == sorted(expected, key=str)


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_one_sweep_gives_the_same_deduction_and_deals_as_the_separate_calls(seed: int) -> None:
    rows, pool = small_case(random.Random(seed))
    try:
        expected = deduce_rows(rows, pool)
    except InconsistentViewError:
        with pytest.raises(InconsistentViewError):
            deduce_with_deals(rows, pool, random.Random(1), 4, 3)
        return
    every_up_to = seed % 8
    found, deals = deduce_with_deals(rows, pool, random.Random(1), every_up_to, 3)
    assert found == expected
    if expected.total <= every_up_to:
        assert deals == every_deal(rows, pool)
    else:
        assert deals == sample_rows(rows, pool, random.Random(1), 3)


def _fits(rows: dict[int, tuple[SeenTile, ...]], given_: dict[tuple[int, int], Tile]) -> bool:
    return all(
        t.color is rows[p][i].color and t.value not in rows[p][i].misses
        for (p, i), t in given_.items()
    ) and all(
        is_ordered(given_.get((p, i)) or s.tile for i, s in enumerate(row))  # type: ignore[misc]
        for p, row in rows.items()
    )


def test_equal_tiles_hash_alike_and_the_26_tiles_all_differently() -> None:
    every = game_tiles(advanced=True)
    assert len({hash(tile) for tile in every}) == 26
    assert all(hash(Tile.parse(str(tile))) == hash(tile) for tile in every)
    assert len({*every, *(Tile.parse(str(tile)) for tile in every)}) == 26


# Soundness on real play


@settings(max_examples=25, deadline=None)
@given(
    st.integers(min_value=0, max_value=2**32),
    st.integers(min_value=2, max_value=4),
    st.booleans(),
    st.data(),
)
def test_deduction_is_sound_the_true_value_is_always_possible(
    seed: int, players: int, advanced: bool, data: st.DataObject
) -> None:
    states = random_play(seed, players, advanced)
    for state in data.draw(st.lists(st.sampled_from(states), min_size=1, max_size=4)):
        viewer = data.draw(st.integers(min_value=0, max_value=players - 1))
        found = deduce(view_of(state, viewer))
        for player, row in enumerate(state.rows):
            for index, slot in enumerate(row):
                if player != viewer and not slot.revealed:
                    assert found.probability(player, index, slot.tile.value) > 0
