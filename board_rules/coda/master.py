"""The `master` computer player: `expert`'s play, with each opponent's hand weighed by what its
attacks say about it, and its own attacks chosen so as not to say the same.

Reading. A player who attacks names what it thinks likeliest, and what it thinks depends on
the tiles it holds: a value it holds is one it cannot name, so the one it names instead hints
at the tiles it skipped. The master draws deals of the opponents' hidden tiles at random among
those that fit the rows (`deduction.sample_rows`, over `expert.informed_deduction`'s rows) and
weighs each by how likely its holders were to make each attack they were heard to make
(`PlayerView.attacks`, with the rows as they were then). The likelihood of an attack is read
from the odds of the table at that moment as someone holding no tile saw them: of the values
the attacker did not hold then, each (tile, value) is chosen in proportion to its chance to
the power `COMPUTER_SHARPNESS` (a computer names its likeliest) or `PERSON_SHARPNESS` (a
person usually names a likely value); naming a tile it held weighs `OWN_TILE`. The weighed
deals give each (tile, value) its chance, blended with the plain counts by `PLAIN_SHARE`. With
three or more players in it reads only the latest `CROWD_HEARD` attacks over `CROWD_SAMPLES`
deals, to keep its decisions quick.

Attacking. As `expert` scores its attacks (chance times what a hit is worth), but among those
within `NEAR` of the best it names the one the table, holding none of the master's tiles, would
think likeliest: that choice tells the others nothing of the master's own row. Going on or
stopping is `expert`'s rule over these chances; with its last hidden tile at stake it goes on
only on a certainty of the exact deduction.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Final

from board_rules.coda.actions import Action, Attack, Stop
from board_rules.coda.crowd import crowded
from board_rules.coda.deduction import Deduction, TileKey, deduce_rows, sample_rows
from board_rules.coda.errors import InconsistentViewError
from board_rules.coda.expert import hit_worths, informed_rows, miss_cost, play_expert
from board_rules.coda.players import Strategy
from board_rules.coda.seen import Rows, SeenAttack
from board_rules.coda.state import Phase
from board_rules.coda.tiles import Tile, Value, game_tiles
from board_rules.coda.view import PlayerView

SAMPLES: Final = 150
"""Deals drawn for each attack decision."""
CROWD_SAMPLES: Final = 60
CROWD_HEARD: Final = 6
"""With three or more players in, the deals drawn and the latest attacks read: each attack read
costs a deduction over every row but its attacker's, which the 100 ms a decision may take cannot
afford for all of them."""
COMPUTER_SHARPNESS: Final = 6.0
PERSON_SHARPNESS: Final = 2.0
OWN_TILE: Final = 1e-3
"""The weight of a deal in which an attacker named a tile it held."""
TOP_SHARE: Final = 0.2
"""A (tile, value) less likely than this share of the likeliest is left out of an attack's
alternatives: to a power of 6 it weighs nothing."""
PLAIN_SHARE: Final = 0.1
NEAR: Final = 0.9
"""Attacks scored at least this share of the best count as near-equal."""


def play_master(view: PlayerView, rng: random.Random) -> Action:
    """The `master` player, taking every opponent for a computer."""
    return _play(view, rng, frozenset())


def reading_persons(persons: Collection[int]) -> Strategy:
    """The `master` player, taking the players in `persons` for people and the others for
    computers."""
    seats = frozenset(persons)

    def play(view: PlayerView, rng: random.Random) -> Action:
        return _play(view, rng, seats)

    return play


def _play(view: PlayerView, rng: random.Random, persons: frozenset[int]) -> Action:
    if view.phase is not Phase.ATTACK:
        return play_expert(view, rng)
    exact, guesses = weighed_guesses(view, rng, persons)
    worths = hit_worths(view)
    scored = [
        (chance * float(worths[key[0]]), chance, key, value) for chance, key, value in guesses
    ]
    best = max(score for score, *_ in scored)
    near = [guess for guess in scored if guess[0] >= NEAR * best]
    public = _public_odds(view)
    quiet = max(public.get((key, value), 0.0) for _, _, key, value in near)
    least = [guess for guess in near if public.get((guess[2], guess[3]), 0.0) == quiet]
    score, chance, (player, index), value = rng.choice(least)
    if view.hits:
        last_tile = not view.hand and len(view.hidden(view.viewer)) == 1
        if last_tile and exact.probability(player, index, value) < 1:
            return Stop()
        if score < (1 - chance) * float(miss_cost(view)):
            return Stop()
    return Attack(player, index, value)


def weighed_guesses(
    view: PlayerView, rng: random.Random, persons: frozenset[int] = frozenset()
) -> tuple[Deduction, list[tuple[float, TileKey, Value]]]:
    """The exact deduction of the rows, and every possible (tile, value) with its chance once
    the deals are weighed by the opponents' attacks (see the module docstring), likeliest
    first."""
    rows, unseen = informed_rows(view)
    try:
        exact = deduce_rows(rows, unseen)
    except InconsistentViewError:
        rows = {p: row for p, row in enumerate(view.rows) if p != view.viewer}
        exact = deduce_rows(rows, unseen)
    heard = [a for a in view.attacks if a.attacker != view.viewer]
    samples = SAMPLES
    if crowded(view):
        heard, samples = heard[-CROWD_HEARD:], CROWD_SAMPLES
    plain = {
        (key, value): count / exact.total
        for key, counts in exact.counts.items()
        for value, count in counts.items()
    }
    chances = plain
    if heard:
        deals = sample_rows(rows, unseen, rng, samples)
        logs = [_log_likelihood(view, deal, heard, persons) for deal in deals]
        top = max(logs)
        weights = [math.exp(log - top) for log in logs]
        total = math.fsum(weights)
        weighed: dict[tuple[TileKey, Value], float] = defaultdict(float)
        for deal, weight in zip(deals, weights, strict=True):
            for key, tile in deal.items():
                weighed[(key, tile.value)] += weight / total
        chances = {
            guess: (1 - PLAIN_SHARE) * weighed.get(guess, 0.0) + PLAIN_SHARE * chance
            for guess, chance in plain.items()
        }
    found = [(chance, key, value) for (key, value), chance in chances.items()]
    found.sort(key=lambda guess: (-guess[0], guess[1], str(guess[2])))
    return exact, found


def _log_likelihood(
    view: PlayerView,
    deal: Mapping[TileKey, Tile],
    heard: Sequence[SeenAttack],
    persons: frozenset[int],
) -> float:
    total = 0.0
    for attack in heard:
        attacker = attack.attacker
        held = {
            seen.tile if seen.tile is not None else deal.get((attacker, index))
            for index, seen in enumerate(view.rows[attacker])
            if seen.label <= attack.held
        }
        named = Tile(attack.rows[attack.player][attack.index].color, attack.value)
        if named in held:
            total += math.log(OWN_TILE)
            continue
        sharp = PERSON_SHARPNESS if attacker in persons else COMPUTER_SHARPNESS
        choices, chosen = _table_odds(attack, view.advanced)
        chosen_weight = max(chosen, 1e-6) ** sharp
        others = math.fsum(chance**sharp for chance, tile in choices if tile not in held)
        total += math.log(chosen_weight / max(others, chosen_weight))
    return total


@lru_cache(maxsize=512)
def _table_odds(attack: SeenAttack, advanced: bool) -> tuple[tuple[tuple[float, Tile], ...], float]:
    """What someone holding no tile thought of every (tile, value) the attacker could name just
    before `attack`: the likeliest ones with their chances, and the chance of the one named."""
    odds = _outsider_odds(attack.rows, attack.attacker, advanced)
    if not odds:
        return (), 0.0
    colours = {key: attack.rows[key[0]][key[1]].color for key, _ in odds}
    likeliest = max(odds.values())
    choices = tuple(
        (chance, Tile(colours[key], value))
        for (key, value), chance in odds.items()
        if chance >= TOP_SHARE * likeliest
    )
    return choices, odds.get(((attack.player, attack.index), attack.value), 0.0)


def _outsider_odds(rows: Rows, besides: int, advanced: bool) -> dict[tuple[TileKey, Value], float]:
    """The chances of every hidden tile outside `besides`'s row to someone who sees only the
    face-up tiles and the misses."""
    shown = frozenset(seen.tile for row in rows for seen in row if seen.tile is not None)
    others = {player: row for player, row in enumerate(rows) if player != besides}
    try:
        found = deduce_rows(others, frozenset(game_tiles(advanced)) - shown)
    except InconsistentViewError:
        return {}
    return {
        (key, value): count / found.total
        for key, counts in found.counts.items()
        for value, count in counts.items()
    }


def _public_odds(view: PlayerView) -> dict[tuple[TileKey, Value], float]:
    """The chances the table, holding none of the viewer's tiles, gives each (tile, value)
    of the others' rows now."""
    rows = tuple(
        tuple(seen if seen.revealed else replace(seen, value=None) for seen in row)
        for row in view.rows
    )
    return _outsider_odds(rows, view.viewer, view.advanced)
