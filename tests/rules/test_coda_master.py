"""The `master` player: the random deals it weighs are drawn fairly, the table's memory of the
attacks holds only public facts with tiles named by labels that stay, and master plays whole
games of two to four players by the rules."""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from dataclasses import replace

import pytest

from board_rules.coda import Attack, Color, Draw, Game, Level, Stop, TakeTiles, strategy, view_of
from board_rules.coda.crowd import players_in
from board_rules.coda.deduction import deduce, every_deal, sample_rows
from board_rules.coda.expert import hit_worths, informed_deduction, informed_rows, play_expert
from board_rules.coda.master import (
    CHOICE_TEMPERATURE,
    DEDUCTION_OVERHEAD,
    OWN_TILE,
    READING,
    _choice_log_chance,
    _deduction_cost,
    _hands_at,
    _log_likelihood,
    _read_choices,
    _within_budget,
    _worths,
    choices_heard,
    play_master,
    play_unread,
    weighed_guesses,
)
from board_rules.coda.match import play_match
from board_rules.coda.rules import apply
from board_rules.coda.state import GameState, Phase
from board_rules.coda.tiles import Tile, game_tiles


def opened(seed: int = 5) -> Game:
    game = Game.new(2, random.Random(seed))
    for action in (TakeTiles(2, 2), TakeTiles(1, 3), Draw(Color.WHITE)):
        game.play(action)
    return game


def test_random_deals_follow_the_exact_counts() -> None:
    view = view_of(opened().state, 0)
    found = deduce(view)
    unseen = frozenset(game_tiles(False)) - view.seen_tiles()
    deals = sample_rows({1: view.rows[1]}, unseen, random.Random(1), 4000)
    drawn = Counter((key, tile.value) for deal in deals for key, tile in deal.items())
    assert all(len(deal) == len(view.hidden(1)) for deal in deals)
    for key, counts in found.counts.items():
        for value, count in counts.items():
            # 4,000 draws: a share's standard error is at most 0.8 point.
            assert abs(drawn[(key, value)] / 4000 - count / found.total) < 0.03


def test_the_table_remembers_each_attack_with_the_rows_as_everyone_saw_them() -> None:
    game = opened()
    state = game.state
    target = state.hidden(1)[0]
    right = state.rows[1][target].tile.value
    wrong = next(
        v for v in range(12) if v != right and v not in {t.tile.value for t in state.rows[0]}
    )
    game.play(Attack(1, target, right))
    after = game.play(Attack(1, state.hidden(1)[1], wrong))
    first, second = view_of(after, 1).attacks
    assert (first.attacker, first.player, first.index, first.value, first.right) == (
        0,
        1,
        target,
        right,
        True,
    )
    assert second.right is False and second.hits == 1 and second.held == 5
    # Only what everyone saw: before the first attack no value of a hidden tile shows.
    assert all(seen.value is None for row in first.rows for seen in row if not seen.revealed)
    assert second.rows[1][target].revealed and view_of(after, 0).attacks == (first, second)


def test_a_drawn_tile_gets_the_next_label_wherever_it_goes() -> None:
    game = opened()
    before = [slot.label for slot in game.state.rows[0]]
    drawn = game.state.hand[0]
    target = game.state.hidden(1)[0]
    value = next(v for v in range(12) if v != game.state.rows[1][target].tile.value)
    after = game.play(Attack(1, target, value))
    row = after.rows[0]
    slot = [s.tile for s in row].index(drawn)
    assert before == [1, 2, 3, 4]
    assert [s.label for s in row] == [*before[:slot], 5, *before[slot:]]


def test_without_attacks_heard_master_reads_the_plain_counts() -> None:
    view = view_of(opened().state, 0)
    exact, guesses = weighed_guesses(view, random.Random(2))
    plain = {(key, value): prob for prob, key, value in deduce(view).guesses()}
    assert {(key, value): chance for chance, key, value in guesses} == {
        guess: prob for guess, prob in plain.items()
    }
    assert exact.total == deduce(view).total


def test_weighed_chances_stay_on_possible_values_and_add_up_per_tile() -> None:
    game = opened(7)
    players = [strategy(Level.EXPERT), strategy(Level.EXPERT)]
    rngs = [random.Random(3), random.Random(4)]
    checked = 0
    while not game.state.is_over and checked < 6:
        state = game.state
        view = view_of(state, state.turn)
        if state.phase.value == "attack" and any(a.attacker != state.turn for a in view.attacks):
            exact, guesses = weighed_guesses(view, random.Random(checked))
            per_tile: dict[tuple[int, int], float] = defaultdict(float)
            for chance, key, value in guesses:
                assert value in exact.possible(*key) and chance >= 0
                per_tile[key] += chance
            assert all(abs(total - 1) < 1e-9 for total in per_tile.values())
            checked += 1
        game.play(players[state.turn](view, rngs[state.turn]))
    assert checked == 6


@pytest.mark.parametrize(("players", "advanced"), [(2, False), (2, True), (3, False), (4, True)])
def test_master_plays_whole_games_by_the_rules(players: int, advanced: bool) -> None:
    line_up = [strategy(Level.MASTER), *[strategy(Level.EXPERT)] * (players - 1)]
    wins = play_match(line_up, 2, random.Random(players), advanced=advanced)
    assert sum(wins) == 2


def states_of(players: int, seed: int, advanced: bool = False) -> list[GameState]:
    """Every state of a game of `master` against `expert` players."""
    rng = random.Random(seed)
    line_up = [strategy(Level.MASTER), *[strategy(Level.EXPERT)] * (players - 1)]
    state = GameState.new(players, rng, advanced=advanced)
    states = []
    while not state.is_over:
        states.append(state)
        state = apply(state, line_up[state.turn](view_of(state, state.turn), rng))
    return states


@pytest.mark.parametrize(("players", "advanced"), [(2, False), (2, True), (3, False)])
def test_master_without_its_reading_chooses_exactly_as_expert(players: int, advanced: bool) -> None:
    compared = 0
    states = [*states_of(players, 11, advanced), *states_of(players, 12, advanced)]
    for number, state in enumerate(states):
        view = view_of(state, state.turn)
        unread = play_unread(view, random.Random(number))
        assert unread == play_expert(view, random.Random(number))
        compared += state.phase is Phase.ATTACK
    assert compared >= 10


def with_hand(state: GameState, player: int, deal: dict[tuple[int, int], Tile]) -> GameState:
    """`state` with `player`'s hidden tiles replaced by those of `deal`."""
    row = tuple(
        replace(slot, tile=deal[(player, index)]) if (player, index) in deal else slot
        for index, slot in enumerate(state.rows[player])
    )
    rows = tuple(row if p == player else r for p, r in enumerate(state.rows))
    return replace(state, rows=rows)


def test_a_deal_in_which_expert_would_have_named_another_attack_weighs_next_to_nothing() -> None:
    """For each first right attack of an expert, each random deal of its hand is replayed: an
    expert holding that hand, seeing the same table, either names the attack heard among its
    best (the deal keeps a real weight) or scores it far below its best (next to none)."""
    kept = dropped = 0
    for seed in (21, 22, 23):
        for state in states_of(2, seed):
            if state.phase is not Phase.ATTACK or state.turn != 1 or state.hits or not state.hand:
                continue
            action = play_expert(view_of(state, 1), random.Random(0))
            after = apply(state, action)
            if not isinstance(action, Attack) or not after.attacks[-1].right:
                continue
            view = view_of(after, 0)
            rows, unseen = informed_rows(view)
            heard = [view.attacks[-1]]
            for deal in sample_rows(rows, unseen, random.Random(seed), 30):
                # The drawn tile, unknown to the reader, is left out of the replayed hand.
                other = view_of(replace(with_hand(state, 1, deal), hand=()), 1)
                worths = hit_worths(other)
                scores = {
                    (key, value): float(chance * worths[key[0]])
                    for chance, key, value in informed_deduction(other).guesses()
                }
                best = max(scores.values())
                named = ((action.player, action.index), action.value)
                weight = math.exp(_log_likelihood(view, deal, heard, frozenset()))
                if scores.get(named, 0.0) < best - 0.2:
                    assert weight < OWN_TILE
                    dropped += 1
                elif scores.get(named) == best:
                    assert weight > 0.05
                    kept += 1
    assert kept >= 5 and dropped >= 5


@pytest.mark.parametrize("players", [3, 4])
def test_with_three_or_four_players_in_master_reads_the_attacks(players: int) -> None:
    moved = 0
    states = [state for seed in (13, 14, 15) for state in states_of(players, seed)]
    for number, state in enumerate(states):
        view = view_of(state, state.turn)
        if state.phase is not Phase.ATTACK or len(players_in(view)) != players:
            continue
        if state.turn != 0 or not any(a.attacker != 0 for a in view.attacks):
            continue
        exact, guesses = weighed_guesses(view, random.Random(number))
        plain = {(key, value): float(chance) for chance, key, value in exact.guesses()}
        weighed = {(key, value): float(chance) for chance, key, value in guesses}
        moved += any(
            abs(weighed.get(guess, 0.0) - chance) > 1e-9 for guess, chance in plain.items()
        )
    assert moved >= 3


def test_the_weighing_moves_belief_towards_the_opponents_true_tiles() -> None:
    """Over the master's attack decisions in games against `expert`, the chance it gives the
    value each hidden tile of the expert really has is higher, on average, once the deals are
    weighed by the expert's attacks than by the plain count."""
    plain_total = weighed_total = 0.0
    decisions = 0
    for seed in (31, 32, 33, 34, 35, 36):
        for number, state in enumerate(states_of(2, seed)):
            view = view_of(state, 0)
            if state.phase is not Phase.ATTACK or state.turn != 0:
                continue
            if not any(a.attacker == 1 for a in view.attacks):
                continue
            exact, guesses = weighed_guesses(view, random.Random(number))
            weighed = {(key, value): float(chance) for chance, key, value in guesses}
            for key in exact.counts:
                truth = state.rows[key[0]][key[1]].tile.value
                plain_total += float(exact.probability(*key, truth))
                weighed_total += weighed.get((key, truth), 0.0)
            decisions += 1
    assert decisions >= 25
    # The plain count is right on average; the reading must add to it, by a clear margin.
    assert weighed_total > 1.05 * plain_total


def test_with_few_deals_every_one_is_weighed_and_the_chances_are_its_weighed_shares() -> None:
    """When the consistent deals are few the master lists them all: its chances are then the
    exact posterior, the same whatever the random stream."""
    checked = 0
    for state in states_of(2, 41):
        view = view_of(state, state.turn)
        if state.phase is not Phase.ATTACK or state.turn != 0:
            continue
        if not any(a.attacker == 1 for a in view.attacks):
            continue
        exact, first = weighed_guesses(view, random.Random(1))
        if exact.total > READING[2].exact_deals:
            continue
        _, second = weighed_guesses(view, random.Random(2))
        assert first == second
        rows, unseen = informed_rows(view)
        deals = every_deal(rows, unseen)
        assert len(deals) == exact.total
        checked += 1
    assert checked >= 3


def test_the_master_decides_the_same_for_the_same_seed() -> None:
    line_up = [strategy(Level.MASTER), strategy(Level.EXPERT)]
    for number, state in enumerate(states_of(2, 51, advanced=True)):
        view = view_of(state, state.turn)
        if state.phase is Phase.ATTACK and state.turn == 0:
            assert play_master(view, random.Random(number)) == play_master(
                view, random.Random(number)
            )
    assert play_match(line_up, 4, random.Random(52)) == play_match(line_up, 4, random.Random(52))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_attack_heard_is_scored_with_the_hit_worths_its_expert_attacker_used(
    players: int,
) -> None:
    """The worth of a hit on each player, as the master rebuilds it from the attack's public
    record, is the one the expert attacker used (seat and race share with three or four in)."""
    compared = 0
    rng = random.Random(players)
    line_up = [strategy(Level.EXPERT)] * players
    for _ in range(2):
        state = GameState.new(players, rng)
        while not state.is_over:
            view = view_of(state, state.turn)
            action = line_up[state.turn](view, rng)
            after = apply(state, action)
            if isinstance(action, Attack):
                expected = {p: float(w) for p, w in hit_worths(view).items()}
                assert _worths(after.attacks[-1]) == pytest.approx(expected)
                compared += 1
            state = after
    assert compared >= 20


@pytest.mark.parametrize(("players", "advanced"), [(2, True), (3, False), (4, False), (4, True)])
def test_the_attacks_read_are_the_latest_and_their_deductions_fit_the_budget(
    players: int, advanced: bool
) -> None:
    checked = cut = 0
    for number, state in enumerate(states_of(players, 61, advanced)):
        view = view_of(state, state.turn)
        heard = [a for a in view.attacks if a.attacker != view.viewer]
        if state.phase is not Phase.ATTACK or not heard:
            continue
        rows, unseen = informed_rows(view)
        deals = sample_rows(rows, unseen, random.Random(number), 12)
        budget = READING[len(players_in(view))].budget
        kept, read = _within_budget(view, deals, heard, budget)
        assert [attack for attack, _ in read] == heard[len(heard) - len(read) :]
        assert all(len(tellings) == len(kept) for _, tellings in read)
        assert kept and all(deal in deals for deal in kept)
        costs = [
            _deduction_cost(attack, advanced) * len({t for t in tellings if t is not None})
            for attack, tellings in read
        ]
        if len(kept) < len(deals):
            # The latest attack alone was over the budget: read over the deals that fit.
            assert len(read) == 1 and costs[0] <= max(budget, _deduction_cost(heard[-1], advanced))
            cut += 1
        else:
            assert sum(costs) <= budget
        checked += 1
    assert checked >= 5
    if (players, advanced) == (4, True):
        assert cut >= 1


def test_with_four_in_the_advanced_game_the_master_stops_after_a_hit() -> None:
    after_hit = 0
    for seed in (21, 22, 23):
        for number, state in enumerate(states_of(4, seed, advanced=True)):
            view = view_of(state, state.turn)
            if state.turn != 0 or state.phase is not Phase.ATTACK or not view.hits:
                continue
            if len(players_in(view)) != 4:
                continue
            assert play_master(view, random.Random(number)) == Stop()
            after_hit += 1
    assert after_hit >= 3


def test_with_four_in_the_basic_game_the_master_may_go_on_after_a_hit() -> None:
    went_on = 0
    for seed in (21, 22, 23, 24):
        for number, state in enumerate(states_of(4, seed)):
            view = view_of(state, state.turn)
            if state.turn != 0 or state.phase is not Phase.ATTACK or not view.hits:
                continue
            went_on += isinstance(play_master(view, random.Random(number)), Attack)
    assert went_on >= 1


@pytest.mark.parametrize(("players", "advanced"), [(2, False), (2, True), (3, False), (4, True)])
def test_each_choice_after_a_hit_is_read_as_made_and_the_expert_model_makes_it(
    players: int, advanced: bool
) -> None:
    """At every turn, the go-on and stop choices the others made after their right attacks are
    read from the table's memory exactly as they were made; and the expert's go-on rule, given
    the hand the attacker really held, gives each choice made better than even odds (so a deal
    in which the attacker would have chosen otherwise weighs less)."""
    rng = random.Random(100 * players + advanced)
    line_up = [strategy(Level.EXPERT)] * players
    checked = 0
    for _ in range(3):
        state = GameState.new(players, rng, advanced=advanced)
        # Each choice made: the index of the attack that hit, and whether its attacker went on.
        made: list[tuple[int, bool]] = []
        while not state.is_over:
            view = view_of(state, state.turn)
            action = line_up[state.turn](view, rng)
            if state.phase is Phase.ATTACK and state.hits:
                made.append((len(state.attacks) - 1, isinstance(action, Attack)))
            after = apply(state, action)
            if after.turn != state.turn and not after.is_over:
                reader = view_of(after, after.turn)
                expected = [
                    (reader.attacks[index], went_on)
                    for index, went_on in made
                    if reader.attacks[index].attacker != reader.viewer
                ]
                read = choices_heard(reader)
                assert [(choice.attack, choice.went_on) for choice in read] == expected
                truth = {
                    (player, index): slot.tile
                    for player, row in enumerate(after.rows)
                    if player != reader.viewer
                    for index, slot in enumerate(row)
                    if not slot.revealed
                }
                for choice in read:
                    (hand,) = _hands_at(reader, [truth], choice.attack)
                    assert hand is not None
                    chance = math.exp(
                        _choice_log_chance(choice, hand, advanced, CHOICE_TEMPERATURE)
                    )
                    assert chance > 0.5
                    checked += 1
            state = after
    assert checked >= 20


@pytest.mark.parametrize(("players", "advanced"), [(2, False), (4, True)])
def test_the_choices_read_are_the_latest_and_their_deductions_fit_their_budget(
    players: int, advanced: bool
) -> None:
    checked = 0
    for number, state in enumerate(states_of(players, 71, advanced)):
        view = view_of(state, state.turn)
        heard = choices_heard(view)
        if state.phase is not Phase.ATTACK or not heard:
            continue
        rows, unseen = informed_rows(view)
        deals = sample_rows(rows, unseen, random.Random(number), 12)
        budget = READING[len(players_in(view))].choice_budget
        read = _read_choices(view, deals, budget)
        assert [choice for choice, _ in read] == heard[::-1][: len(read)]
        assert all(len(hands) == len(deals) for _, hands in read)
        spent = sum(
            _deduction_cost(choice.attack, advanced)
            * len({hand[0] for hand in hands if hand is not None})
            + DEDUCTION_OVERHEAD
            * len({hand[1:] for hand in hands if hand is not None and hand[2] is not None})
            for choice, hands in read
        )
        assert spent <= budget
        checked += 1
    assert checked >= 5
