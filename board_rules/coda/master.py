"""The `master` computer player: `expert`'s play, with each opponent's hand weighed by what its
attacks and its go-on and stop choices say about it.

Reading. A computer names the (tile, value) it thinks likeliest, and what it thinks depends on
the tiles it holds. The master takes the deals of the opponents' hidden tiles that fit the rows
(`expert.informed_rows`): every one of them when they are few, or a sample drawn at random among
them, both from the sweep that counts them (`deduction.deduce_with_deals`), and weighs each by
how likely its holders were to make the attacks they were heard to make (`PlayerView.attacks`,
with the rows as they were then), right or wrong: the latest ones, as far back as their
deductions fit in a budget (`READING`, by the number of players in, or `ADVANCED_FOUR` with four
players in the advanced game; each deduction costed by the size of its sweep,
`_deduction_cost`), so the cheaper they are the further back it reads; if the latest attack
alone does not fit, it is read over the deals that do. For each attack and each deal, the
attacker's own odds are counted as `expert` counts them: the rows of the others as everyone saw
them then, less the tiles the attacker held in that deal (`deduction.deduce_rows`; an attack
heard never changes, so these odds are kept for later decisions). Its attacks are scored as
`expert` scores them, chance times what a hit on each player was worth to it
(`expert.worths_by_hidden`; with three or four players in, the race share and the seats after
the attacker, all public), and the one it named is taken as chosen by a softmax of those scores
at temperature `COMPUTER_TEMPERATURE`, or `PERSON_TEMPERATURE` for a person: the expert names
its best attack, so a deal in which another attack scored clearly better weighs next to nothing,
without being ruled out. Naming a tile it held weighs `OWN_TILE`.

It weighs each deal, too, by how likely its holders were to make the go-on and stop choices they
made after a right attack (`choices_heard`: an attacker went on when its next attack came in the
same turn). For each choice and deal, the attacker's best attack once the hit tile was face up is
counted and scored as `expert` does, holding that deal's tiles, and what a miss would have cost it
is costed with that deal's drawn tile and row (`expert.drawn_tile_gain`: the table's gain is the
attacker's cost). These two give the expert's margin for going on (`expert.go_on_margin`). The
choice made is taken as chosen by a logistic of that margin at temperature `CHOICE_TEMPERATURE`, or
`PERSON_CHOICE_TEMPERATURE` for a person. The latest choices are read first, as far back as their
work fits in `Reading.choice_budget` (`_choice_cost`).

Each (tile, value) gets its exact chance plus the weighed share of the deals that give it less
their plain share: with every deal listed that is the weighed share itself, and with a sample the
luck of the draw cancels out.

Deciding. With those chances in place of the exact counts, the master attacks, goes on or stops as
`expert` does (`expert.choose_attack`), except that with four players in the advanced game it always
stops after a right attack (`_advanced_four`). With `reading` off it plays as `expert`; with no
attack heard it uses the exact chances, as `expert` does. It does not hide its own attacks any
better than the expert.

The figures in the rest of this docstring were measured with the go-on and stop choices not read (a
`choice_budget` of 0). A variant that picks at random among the attacks scoring within 0.1 of the
best, so that its attacks tell a reading opponent less, was measured with two players in: it won
51.4 % of 6,500 games against the master (seeds 812 to 814; 95 % interval 50.2–52.6), but only
69.8 % of 2,000 against the expert on seed 812 (67.8–71.8), where the master won 72.4 % (70.3–74.3);
the master therefore does not use it.

Four-player advanced games against three experts, 1,000 games each with `--rotate`: with
`READING[4]` and the expert's go-on choice the master won 29.9 % on seed 801 (95 % interval
27.1–32.8); with `ADVANCED_FOUR` and a stop after every right attack, 35.4 % (32.5–38.4) on seed 801
and 32.7 % (29.9–35.7) on seed 802. Alone, neither change clearly did better on seed 801:
`ADVANCED_FOUR` won 31.5 % (decisions of 76 ms at the 99th percentile), and stopping after every
right attack with three or more players in won 32.6 %. Other alternatives to `READING[4]` that did
not clearly do better (seed 801): the attacks beyond the budget read roughly, each row deduced alone
and the attacker's tiles struck from its values (22.6 % at temperature `COMPUTER_TEMPERATURE`,
27.1 % at 0.03, 30.2 % at 0.1); with three or more players in, a miss cost 0.6 to 3 times the
expert's (`expert.miss_cost`; 26.4 to 32.8 %; the best of them, 3 times, won 29.4 % when run again
with seed 802); and with four players in, a temperature of 0.0005 or 0.02 (29.9 and 31.3 %).
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Final

from board_rules.coda.actions import Action, Stop
from board_rules.coda.crowd import CROWD_MISS, players_in
from board_rules.coda.deduction import Deduction, TileKey, deduce_rows, deduce_with_deals
from board_rules.coda.errors import InconsistentViewError
from board_rules.coda.expert import (
    choose_attack,
    drawn_tile_gain,
    go_on_margin,
    informed_deduction,
    informed_rows,
    play_expert,
    worths_by_hidden,
)
from board_rules.coda.exposure import revealed_outside
from board_rules.coda.players import Strategy
from board_rules.coda.row import RowTile
from board_rules.coda.seen import Rows, SeenAttack, SeenTile
from board_rules.coda.state import Phase
from board_rules.coda.tiles import DASH, RANKS, Tile, Value, game_tiles
from board_rules.coda.view import PlayerView


@dataclass(frozen=True)
class Reading:
    """How much the master reads, by the number of players still in."""

    exact_deals: int
    """With at most this many consistent deals, every one is weighed, not a sample."""
    samples: int
    """The deals drawn when there are more."""
    budget: int
    """The deductions of the attackers' odds one decision may make, in `_deduction_cost`'s
    units (about 24 microseconds of processor time each on the machine of docs/coda.md's
    table): the cheaper each, the further back the master reads."""
    choice_budget: int = 800
    """The budget, in the same units, for reading the go-on and stop choices (`_read_choices`),
    separate from the attacks' `budget`."""


READING: Final = {
    2: Reading(exact_deals=150, samples=32, budget=3200),
    3: Reading(exact_deals=48, samples=12, budget=2000),
    4: Reading(exact_deals=16, samples=8, budget=2000),
}
"""About 50 to 80 ms of reading on that machine at most, the deals' sweep aside."""
ADVANCED_FOUR: Final = Reading(exact_deals=16, samples=16, budget=5000)
"""The reading with four players in the advanced game, where the deals are many and each
attacker's odds cost the most: twice the sample and two and a half times the budget of
`READING[4]`, for decisions of about 75 ms at the 99th percentile on the idle machine
(docs/coda.md)."""
DEDUCTION_OVERHEAD: Final = 10
"""What any deduction costs besides its sweep, in `_deduction_cost`'s units."""
ODDS_KEPT: Final = 20_000
"""The most attackers' odds kept between decisions."""
COMPUTER_TEMPERATURE: Final = 0.003
PERSON_TEMPERATURE: Final = 0.15
"""The softmax temperatures, in units of an attack's score (chance times worth)."""
OWN_TILE: Final = 1e-3
"""The weight of a deal in which an attacker named a tile it held."""
CHOICE_TEMPERATURE: Final = 0.02
PERSON_CHOICE_TEMPERATURE: Final = 0.3
"""The temperatures of the go-on or stop choice read after a right attack (a logistic of the
expert's margin for going on, `expert.go_on_margin`), for a computer and for a person."""


def play_master(view: PlayerView, rng: random.Random) -> Action:
    """The `master` player, taking every opponent for a computer."""
    return _play(view, rng, frozenset(), reading=True)


def play_unread(view: PlayerView, rng: random.Random) -> Action:
    """The `master` player with its reading of the attacks switched off: `expert`'s play."""
    return _play(view, rng, frozenset(), reading=False)


def reading_persons(persons: Collection[int]) -> Strategy:
    """The `master` player, taking the players in `persons` for people and the others for
    computers."""
    seats = frozenset(persons)

    def play(view: PlayerView, rng: random.Random) -> Action:
        return _play(view, rng, seats, reading=True)

    return play


def _play(
    view: PlayerView, rng: random.Random, persons: frozenset[int], *, reading: bool
) -> Action:
    if view.phase is not Phase.ATTACK:
        return play_expert(view, rng)
    if reading and view.hits and _advanced_four(view):
        # With four in the advanced game, a miss shows a tile to three opponents at once, and a
        # hit banked is worth more than the chance of another: the master stops after a hit.
        return Stop()
    exact, guesses = weighed_guesses(view, rng, persons, reading=reading)
    return choose_attack(view, rng, guesses, exact)


def _advanced_four(view: PlayerView) -> bool:
    """Whether four players are still in an advanced game."""
    return view.advanced and len(players_in(view)) == 4


def weighed_guesses(
    view: PlayerView,
    rng: random.Random,
    persons: frozenset[int] = frozenset(),
    *,
    reading: bool = True,
) -> tuple[Deduction, list[tuple[Fraction | float, TileKey, Value]]]:
    """The exact deduction of the rows, and every possible (tile, value) with its chance once
    the deals are weighed by the opponents' attacks (see the module docstring), likeliest
    first; without `reading` or any attack heard, the exact chances."""
    rows, unseen = informed_rows(view)
    heard = [a for a in view.attacks if a.attacker != view.viewer]
    if not reading or not heard:
        exact = informed_deduction(view)
        return exact, list(exact.guesses())
    reading_of = ADVANCED_FOUR if _advanced_four(view) else READING[len(players_in(view))]
    try:
        exact, deals = deduce_with_deals(
            rows, unseen, rng, reading_of.exact_deals, reading_of.samples
        )
    except InconsistentViewError:
        rows = {p: row for p, row in enumerate(view.rows) if p != view.viewer}
        exact, deals = deduce_with_deals(
            rows, unseen, rng, reading_of.exact_deals, reading_of.samples
        )
    deals, read = _within_budget(view, deals, heard, reading_of.budget)
    logs = _weigh(read, persons, view.advanced) or [0.0] * len(deals)
    choices = _read_choices(view, deals, reading_of.choice_budget)
    for log_index, log in enumerate(_weigh_choices(choices, persons, view.advanced)):
        logs[log_index] += log
    top = max(logs)
    weights = [math.exp(log - top) for log in logs]
    total = math.fsum(weights)
    # The weighed share of the deals giving each (tile, value), less their plain share, added
    # to the exact chance: the deals drawn by chance cancel out, and with every deal weighing
    # alike the chances are the exact ones. With every deal listed, the plain share is the
    # exact chance and the result the weighed share itself.
    shift: dict[tuple[TileKey, Value], float] = defaultdict(float)
    for deal, weight in zip(deals, weights, strict=True):
        for key, tile in deal.items():
            shift[(key, tile.value)] += weight / total - 1 / len(deals)
    chances = {
        (key, value): max(0.0, count / exact.total + shift.get((key, value), 0.0))
        for key, counts in exact.counts.items()
        for value, count in counts.items()
    }
    sums: dict[TileKey, float] = defaultdict(float)
    for (key, _), chance in chances.items():
        sums[key] += chance
    found: list[tuple[Fraction | float, TileKey, Value]] = [
        (chance / sums[key], key, value) for (key, value), chance in chances.items() if chance > 0
    ]
    found.sort(key=lambda guess: (-guess[0], guess[1], str(guess[2])))
    return exact, found


def _within_budget(
    view: PlayerView,
    deals: list[dict[TileKey, Tile]],
    heard: Sequence[SeenAttack],
    budget: int,
) -> tuple[list[dict[TileKey, Tile]], list[tuple[SeenAttack, list[frozenset[Tile] | None]]]]:
    """The deals to weigh, and the attacks to weigh them by with each deal's telling tiles
    (`_telling`): the latest attacks first, as long as their deductions, each distinct one
    costed by `_deduction_cost`, fit in `budget`. If the latest one alone does not fit, it is
    read over only the deals whose deductions fit, the first ones drawn."""
    spent = 0
    read: list[tuple[SeenAttack, list[frozenset[Tile] | None]]] = []
    for attack in reversed(heard):
        cost = _deduction_cost(attack, view.advanced)
        tellings = [_telling(view, deal, attack) for deal in deals]
        distinct = list(dict.fromkeys(t for t in tellings if t is not None))
        if spent + cost * len(distinct) <= budget:
            spent += cost * len(distinct)
            read.append((attack, tellings))
            continue
        if not read:
            affordable = set(distinct[: max(1, budget // cost)])
            kept = [
                index
                for index, telling in enumerate(tellings)
                if telling is None or telling in affordable
            ]
            deals = [deals[index] for index in kept]
            read.append((attack, [tellings[index] for index in kept]))
        break
    return deals, read[::-1]


def _telling(
    view: PlayerView, deal: Mapping[TileKey, Tile], attack: SeenAttack
) -> frozenset[Tile] | None:
    """The tiles of the attacker's hand in `deal` that change its count for `attack` (those that
    could sit in a row it could attack: the deals that differ in the others share one
    deduction), or None when it named a tile it held."""
    attacker = attack.attacker
    held = frozenset(
        tile
        for index, seen in enumerate(view.rows[attacker])
        if seen.label <= attack.held
        and (tile := seen.tile if seen.tile is not None else deal.get((attacker, index)))
        is not None
    )
    if Tile(attack.rows[attack.player][attack.index].color, attack.value) in held:
        return None
    return held & _could_be_attacked(attack, view.advanced)


def _deduction_cost(attack: SeenAttack, advanced: bool) -> int:
    """What one deduction of the attacker's odds costs, in the units of `Reading.budget`: the
    sweep's states (each row's hidden tiles plus one, multiplied, four times over for the
    dashes) times the rows plus one, and `DEDUCTION_OVERHEAD`."""
    states, rows = 1, 0
    for player, row in enumerate(attack.rows):
        hidden = sum(1 for seen in row if not seen.revealed)
        if player != attack.attacker and hidden:
            states *= hidden + 1
            rows += 1
    return states * (4 if advanced else 1) * (rows + 1) + DEDUCTION_OVERHEAD


def _log_likelihood(
    view: PlayerView,
    deal: Mapping[TileKey, Tile],
    heard: Sequence[SeenAttack],
    persons: frozenset[int],
) -> float:
    """The log of the chance that the holders of `deal` made the attacks `heard`."""
    return _weigh(
        [(attack, [_telling(view, deal, attack)]) for attack in heard], persons, view.advanced
    )[0]


def _weigh(
    read: Sequence[tuple[SeenAttack, Sequence[frozenset[Tile] | None]]],
    persons: frozenset[int],
    advanced: bool,
) -> list[float]:
    """For each deal, the log of the chance its holders made the attacks `read`, given each
    deal's telling tiles for each attack."""
    logs: list[float] = []
    for attack, tellings in read:
        heat = PERSON_TEMPERATURE if attack.attacker in persons else COMPUTER_TEMPERATURE
        if not logs:
            logs = [0.0] * len(tellings)
        for index, telling in enumerate(tellings):
            if telling is None:
                logs[index] += math.log(OWN_TILE)
            else:
                logs[index] += _attack_log_chance(attack, telling, advanced, heat)
    return logs


def _worths(attack: SeenAttack) -> dict[int, Fraction | float]:
    """What a hit on each other player still in was worth to the attacker, as `expert` counts
    it (`expert.hit_worths`) from what everyone saw."""
    return _worths_of(attack.rows, attack.attacker, attack.held)


def _worths_of(rows: Rows, attacker: int, held: int) -> dict[int, Fraction | float]:
    """`_worths` with the table's `rows`, for `attacker` holding `held` tiles."""
    hidden = {
        player: count
        for player, row in enumerate(rows)
        if (count := sum(1 for seen in row if not seen.revealed))
    }
    hidden[attacker] = hidden.get(attacker, 0) + held - len(rows[attacker])
    return worths_by_hidden(hidden, attacker, len(rows))


def _odds_of(rows: Rows, attacker: int, held: frozenset[Tile], advanced: bool) -> Deduction | None:
    """The others' rows as `attacker`, holding `held`, counted them when the table showed `rows`
    (each player's own wrong attacks read as `expert` reads them); None when no deal fits."""
    others = {
        player: tuple(_informed(seen) for seen in row)
        for player, row in enumerate(rows)
        if player != attacker
    }
    shown = frozenset(seen.tile for row in rows for seen in row if seen.tile is not None)
    try:
        return deduce_rows(others, frozenset(game_tiles(advanced)) - shown - held)
    except InconsistentViewError:
        return None


# An attack heard never changes, so its odds for a hand hold for every later decision.
@lru_cache(maxsize=ODDS_KEPT)
def _attack_log_chance(
    attack: SeenAttack, held: frozenset[Tile], advanced: bool, heat: float
) -> float:
    """The log of the chance that an `expert` holding `held` makes `attack`: a softmax of its
    attacks' scores as it counted them then, at temperature `heat`."""
    found = _odds_of(attack.rows, attack.attacker, held, advanced)
    if found is None:
        return math.log(OWN_TILE)
    # As floats: a float times a Fraction is worked out as two floats, more slowly.
    worths = {player: float(worth) for player, worth in _worths(attack).items()}
    scores = {
        (key, value): count / found.total * worths[key[0]]
        for key, counts in found.counts.items()
        for value, count in counts.items()
    }
    chosen = scores.get(((attack.player, attack.index), attack.value))
    if chosen is None:
        return math.log(OWN_TILE)
    best = max(scores.values())
    spread = math.fsum(math.exp((score - best) / heat) for score in scores.values())
    return (chosen - best) / heat - math.log(spread)


@dataclass(frozen=True)
class _Choice:
    """What the attacker of a right attack did next: went on attacking, or stopped."""

    attack: SeenAttack
    went_on: bool


_Hand = tuple[frozenset[Tile], tuple[Tile, ...], Tile | None]
"""The parts of an attacker's hand that a go-on or stop choice depends on: its telling tiles
(`_telling`), its row's tiles as they lay then, and its drawn tile (None when it drew none)."""


def choices_heard(view: PlayerView) -> list[_Choice]:
    """Every go-on or stop choice the others made after a right attack, earliest first: the attacker
    went on when its next attack came in the same turn with one more hit counted, and stopped
    otherwise. A hit that left nobody else with a hidden tile gives no choice and is skipped."""
    found = []
    attacks = view.attacks
    for number, attack in enumerate(attacks):
        if attack.attacker == view.viewer or not attack.right:
            continue
        if all(player == attack.attacker for player in _in_after_hit(attack)):
            continue
        following = attacks[number + 1] if number + 1 < len(attacks) else None
        went_on = (
            following is not None
            and following.attacker == attack.attacker
            and following.hits == attack.hits + 1
        )
        found.append(_Choice(attack, went_on))
    return found


def _read_choices(
    view: PlayerView, deals: Sequence[Mapping[TileKey, Tile]], budget: int
) -> list[tuple[_Choice, list[_Hand | None]]]:
    """The choices to weigh the deals by, the latest first as far back as their costs
    (`_choice_cost`) fit in `budget`, with each deal's hand of the attacker then
    (`_hands_at`)."""
    spent = 0
    read: list[tuple[_Choice, list[_Hand | None]]] = []
    for choice in reversed(choices_heard(view)):
        hands = _hands_at(view, deals, choice.attack)
        cost = _choice_cost(choice, hands, view.advanced)
        if spent + cost > budget:
            break
        spent += cost
        read.append((choice, hands))
    return read


def _choice_cost(choice: _Choice, hands: Sequence[_Hand | None], advanced: bool) -> int:
    """What reading `choice` over `hands` costs, in `_deduction_cost`'s units: a deduction for each
    distinct telling hand, and `DEDUCTION_OVERHEAD` for each distinct row and drawn tile whose miss
    would be costed (`expert.drawn_tile_gain`, whose public deductions rows of the same shape
    share)."""
    present = [hand for hand in hands if hand is not None]
    tellings = {hand[0] for hand in present}
    drawn = {hand[1:] for hand in present if hand[2] is not None}
    return _deduction_cost(choice.attack, advanced) * len(tellings) + DEDUCTION_OVERHEAD * len(
        drawn
    )


def _hands_at(
    view: PlayerView, deals: Sequence[Mapping[TileKey, Tile]], attack: SeenAttack
) -> list[_Hand | None]:
    """The attacker's hand in each of `deals` when it made `attack`: None for a deal in which
    it named a tile it held (which weighs next to nothing already), and for every deal when a
    tile it held then is no longer in its row (the game ended before its drawn tile was
    placed)."""
    attacker = attack.attacker
    by_label = {seen.label: (index, seen.tile) for index, seen in enumerate(view.rows[attacker])}
    then = attack.rows[attacker]
    labels = [seen.label for seen in then]
    if attack.held > len(then):
        labels.append(attack.held)
    if any(label not in by_label for label in labels):
        return [None] * len(deals)
    places = [by_label[label] for label in labels]
    hands: list[_Hand | None] = []
    for deal in deals:
        telling = _telling(view, deal, attack)
        tiles = [
            known if known is not None else deal.get((attacker, index)) for index, known in places
        ]
        if telling is None or None in tiles:
            hands.append(None)
            continue
        held = tuple(tile for tile in tiles if tile is not None)
        drawn = held[-1] if len(held) > len(then) else None
        hands.append((telling, held[: len(then)], drawn))
    return hands


def _weigh_choices(
    read: Sequence[tuple[_Choice, Sequence[_Hand | None]]],
    persons: frozenset[int],
    advanced: bool,
) -> list[float]:
    """For each deal, the log of the chance its holders made the choices `read`."""
    logs: list[float] = []
    for choice, hands in read:
        heat = (
            PERSON_CHOICE_TEMPERATURE if choice.attack.attacker in persons else CHOICE_TEMPERATURE
        )
        if not logs:
            logs = [0.0] * len(hands)
        # Many deals give the attacker the same hand: each is worked out once.
        known: dict[_Hand, float] = {}
        for index, hand in enumerate(hands):
            if hand is None:
                continue
            if hand not in known:
                known[hand] = _choice_log_chance(choice, hand, advanced, heat)
            logs[index] += known[hand]
    return logs


def _choice_log_chance(choice: _Choice, hand: _Hand, advanced: bool, heat: float) -> float:
    """The log of the chance that an `expert` holding `hand` made `choice`: a logistic, at
    temperature `heat`, of how far its best attack after the hit cleared what a miss would cost it
    (`expert.go_on_margin`); with its last hidden tile at stake and nothing drawn, it goes on only
    when its best attack is certain."""
    attack = choice.attack
    telling, tiles, drawn = hand
    after = _best_after_hit(attack, telling, advanced)
    if after is None:
        return 0.0
    best, chance = after
    then = attack.rows[attack.attacker]
    if drawn is None and sum(1 for seen in then if not seen.revealed) == 1:
        margin = 1.0 if chance >= 1 else -1.0
    else:
        cost = 1.0
        if drawn is not None:
            row = tuple(
                RowTile(tile, seen.revealed, seen.misses)
                for tile, seen in zip(tiles, then, strict=True)
            )
            public = revealed_outside(_rows_after_hit(attack), attack.attacker)
            cost = _drawn_cost(row, drawn, public, advanced)
        if len(_in_after_hit(attack)) >= 3:
            cost *= float(CROWD_MISS)
        margin = float(go_on_margin(best, chance, cost))
    return _log_logistic(margin / heat if choice.went_on else -margin / heat)


def _log_logistic(x: float) -> float:
    """log(1 / (1 + e^-x)), without overflow."""
    return -math.log1p(math.exp(-x)) if x >= 0 else x - math.log1p(math.exp(x))


@lru_cache(maxsize=1024)
def _rows_after_hit(attack: SeenAttack) -> Rows:
    """The rows as everyone saw them once the right `attack` had turned its tile face up."""
    rows = list(attack.rows)
    row = list(rows[attack.player])
    hit = row[attack.index]
    row[attack.index] = SeenTile(
        hit.color,
        attack.value,
        revealed=True,
        misses=hit.misses,
        owner_named=hit.owner_named,
        label=hit.label,
    )
    rows[attack.player] = tuple(row)
    return tuple(rows)


def _in_after_hit(attack: SeenAttack) -> list[int]:
    """The players with a hidden tile left once `attack` hit."""
    return [
        player
        for player, row in enumerate(_rows_after_hit(attack))
        if any(not seen.revealed for seen in row)
    ]


@lru_cache(maxsize=ODDS_KEPT)
def _best_after_hit(
    attack: SeenAttack, held: frozenset[Tile], advanced: bool
) -> tuple[float, float] | None:
    """The best score and its chance, as an `expert` holding `held` counted them once `attack`
    hit (the highest chance among equal scores); None when no deal fits."""
    after = _rows_after_hit(attack)
    found = _odds_of(after, attack.attacker, held, advanced)
    if found is None:
        return None
    worths = {
        player: float(worth)
        for player, worth in _worths_of(after, attack.attacker, attack.held).items()
    }
    return max(
        (
            (count / found.total * worths[key[0]], count / found.total)
            for key, counts in found.counts.items()
            if key[0] in worths
            for count in counts.values()
        ),
        default=None,
    )


@lru_cache(maxsize=1024)
def _drawn_cost(
    row: tuple[RowTile, ...], drawn: Tile, public: frozenset[Tile], advanced: bool
) -> float:
    """`expert.drawn_tile_gain`, kept: a hand recurs from one decision to the next. Fewer are kept
    than attackers' odds (`ODDS_KEPT`), since each key is a row of tiles, many objects for the
    garbage collector."""
    return float(drawn_tile_gain(row, drawn, public, advanced=advanced))


@lru_cache(maxsize=1024)
def _could_be_attacked(attack: SeenAttack, advanced: bool) -> frozenset[Tile]:
    """Every tile that could sit in a hidden tile of a row other than the attacker's, as the
    table saw the rows before `attack`: by colour and between the revealed numbers around it."""
    found: set[Tile] = set()
    for player, row in enumerate(attack.rows):
        if player == attack.attacker:
            continue
        ranks = [seen.tile.rank if seen.revealed and seen.tile else None for seen in row]
        for index, seen in enumerate(row):
            if seen.revealed:
                continue
            low = max((r for r in ranks[:index] if r is not None), default=-1)
            high = min((r for r in ranks[index + 1 :] if r is not None), default=RANKS)
            found.update(
                tile
                for rank in range(low + 1, high)
                if (tile := Tile.from_rank(rank)).color is seen.color
            )
            if advanced:
                found.add(Tile(seen.color, DASH))
    return frozenset(found)


def _informed(seen: SeenTile) -> SeenTile:
    if seen.revealed or not seen.owner_named:
        return seen
    return SeenTile(
        seen.color, seen.value, seen.revealed, seen.misses | seen.owner_named, label=seen.label
    )
