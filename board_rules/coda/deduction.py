"""What a player can deduce: for each hidden tile of the others, the values it can still have
and the probability of each, exactly, over every deal consistent with what the player knows.

A deal is consistent when every hidden tile gets a distinct unseen tile of its colour, the
numbers of each row ascend with its revealed numbers, no tile has a value someone named against
it in a wrong attack, and a dash sits only where its colour matches. All consistent deals are
taken as equally likely. The tiles that are in no row (the pool, another player's drawn tile)
only ever fill in what is left of each colour, in the same number of ways whatever the rows
hold, so counting deals is counting assignments of the rows' hidden tiles.

How they are counted: every numbered tile has a rank (0–23), and within a row the hidden
numbers take ascending ranks. So the unseen tiles are swept once in rank order, each either
going to the next unfilled hidden tile of one row or staying out of the rows; the state of the
sweep is how far each row is filled, plus which dashes are used (a dash fills a hidden tile as
soon as the sweep reaches it, since a dash has no rank). Counting paths forward and backward
through these states gives the number of deals and, for every (tile, value), the number of
deals that put that value there: exact, with no deal listed. The states number at most
(h₁+1)·(h₂+1)·(h₃+1)·4 for rows with h₁, h₂, h₃ hidden tiles: a few thousand at worst with
four players, a few dozen with two.

>>> from board_rules.coda.tiles import Color
>>> hidden, shown = SeenTile(Color.BLACK, None), SeenTile(Color.WHITE, 2, revealed=True)
>>> unseen = [Tile.parse(t) for t in ("b0", "b1", "b5")]
>>> found = deduce_rows({1: (hidden, shown)}, unseen)
>>> sorted(found.possible(1, 0)), found.probability(1, 0, 0)
([0, 1], Fraction(1, 2))
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from board_rules.coda.errors import InconsistentViewError
from board_rules.coda.seen import SeenTile
from board_rules.coda.tiles import DASH, RANKS, Color, Tile, Value, game_tiles, value_order
from board_rules.coda.view import PlayerView

TileKey = tuple[int, int]
"""A tile in a row: (player, position)."""


@dataclass(frozen=True)
class Deduction:
    """How many consistent deals there are, and how many put each value on each hidden tile."""

    total: int
    counts: Mapping[TileKey, Mapping[Value, int]]
    """For each hidden tile deduced, the deals per value it can have (only values with some)."""

    def possible(self, player: int, index: int) -> frozenset[Value]:
        """The values the hidden tile can still have; the true one is always among them."""
        return frozenset(self.counts[(player, index)])

    def probability(self, player: int, index: int, value: Value) -> Fraction:
        """The share of consistent deals that give the tile `value`."""
        return Fraction(self.counts[(player, index)].get(value, 0), self.total)

    def distribution(self, player: int, index: int) -> dict[Value, Fraction]:
        """Each possible value of the tile with its probability, in value order."""
        counts = self.counts[(player, index)]
        return {v: Fraction(counts[v], self.total) for v in sorted(counts, key=value_order)}

    def guesses(self) -> list[tuple[Fraction, TileKey, Value]]:
        """Every possible (tile, value) with its probability, the most likely first."""
        found = [
            (Fraction(count, self.total), key, value)
            for key, counts in self.counts.items()
            for value, count in counts.items()
        ]
        found.sort(key=lambda guess: (-guess[0], guess[1], value_order(guess[2])))
        return found


def deduce(view: PlayerView) -> Deduction:
    """What `view.viewer` can deduce about the other players' hidden tiles."""
    unseen = frozenset(game_tiles(view.advanced)) - view.seen_tiles()
    rows = {p: row for p, row in enumerate(view.rows) if p != view.viewer}
    return deduce_rows(rows, unseen)


def _sweep_of(
    rows: Mapping[int, Sequence[SeenTile]], unseen: Collection[Tile]
) -> tuple[list[list[TileKey]], _Sweep]:
    """The sweep over the hidden slots of `rows`, and each slot's key by row and place."""
    keys: list[list[TileKey]] = []
    slots: list[list[_Slot]] = []
    remaining = frozenset(unseen)
    for player, row in rows.items():
        row_slots = _hidden_slots(row, remaining)
        if row_slots:
            keys.append([(player, index) for index, _ in row_slots])
            slots.append([slot for _, slot in row_slots])
    return keys, _Sweep(tuple(tuple(row) for row in slots), remaining)


def deduce_rows(rows: Mapping[int, Sequence[SeenTile]], unseen: Collection[Tile]) -> Deduction:
    """Deduce the hidden tiles (value None) of `rows`, given the tiles nobody in them shows
    that are still `unseen`; raises `InconsistentViewError` if no deal fits."""
    keys, sweep = _sweep_of(rows, unseen)
    return _deduction(keys, *sweep.count())


def _deduction(keys: list[list[TileKey]], total: int, labels: Mapping[Label, int]) -> Deduction:
    """The deduction a sweep's count gives, its slots named by `keys`."""
    if total == 0:
        raise InconsistentViewError("no deal of the tiles fits what this player has seen")
    counts: dict[TileKey, dict[Value, int]] = defaultdict(dict)
    for (row_index, slot_index, tile), count in labels.items():
        counts[keys[row_index][slot_index]][tile.value] = count
    return Deduction(total=total, counts=dict(counts))


def sample_rows(
    rows: Mapping[int, Sequence[SeenTile]],
    unseen: Collection[Tile],
    rng: random.Random,
    count: int,
) -> list[dict[TileKey, Tile]]:
    """`count` deals of the hidden tiles of `rows` drawn at random, each consistent deal as
    likely as any other (the deals `deduce_rows` counts); raises `InconsistentViewError` if
    none fits."""
    keys, sweep = _sweep_of(rows, unseen)
    deals = sweep.sample(rng, count)
    return [{keys[row][slot]: tile for row, slot, tile in deal} for deal in deals]


def every_deal(
    rows: Mapping[int, Sequence[SeenTile]], unseen: Collection[Tile]
) -> list[dict[TileKey, Tile]]:
    """Every consistent deal of the hidden tiles of `rows` (the deals `deduce_rows` counts),
    each once; raises `InconsistentViewError` if none fits. Their number is `deduce_rows`'s
    total: list them only when that is small."""
    keys, sweep = _sweep_of(rows, unseen)
    deals = sweep.every()
    return [{keys[row][slot]: tile for row, slot, tile in deal} for deal in deals]


def deduce_with_deals(
    rows: Mapping[int, Sequence[SeenTile]],
    unseen: Collection[Tile],
    rng: random.Random,
    every_up_to: int,
    samples: int,
) -> tuple[Deduction, list[dict[TileKey, Tile]]]:
    """`deduce_rows`'s deduction and, from the same sweep, the deals: `every_deal`'s when they
    number at most `every_up_to`, else `samples` drawn as `sample_rows` draws them."""
    keys, sweep = _sweep_of(rows, unseen)
    found = _deduction(keys, *sweep.tally())
    deals = sweep.every() if found.total <= every_up_to else sweep.sample(rng, samples)
    return found, [{keys[row][slot]: tile for row, slot, tile in deal} for deal in deals]


@dataclass(frozen=True)
class _Slot:
    """A hidden tile: the ranks it can take alone (colour, neighbours, misses), and the dash
    of its colour if that one can sit there."""

    ranks: frozenset[int]
    dash: Tile | None


def _hidden_slots(row: Sequence[SeenTile], unseen: frozenset[Tile]) -> list[tuple[int, _Slot]]:
    known = [(i, seen.tile.rank) for i, seen in enumerate(row) if seen.tile is not None]
    found = []
    for index, seen in enumerate(row):
        if seen.value is not None:
            continue
        low = max((r for i, r in known if i < index and r is not None), default=-1)
        high = min((r for i, r in known if i > index and r is not None), default=RANKS)
        ranks = frozenset(
            rank
            for rank in range(low + 1, high)
            if (tile := Tile.from_rank(rank)).color is seen.color
            and tile in unseen
            and tile.value not in seen.misses
        )
        dash = Tile(seen.color, DASH)
        usable = dash in unseen and DASH not in seen.misses
        found.append((index, _Slot(ranks, dash if usable else None)))
    return found


_DASH_BIT = {Color.BLACK: 1, Color.WHITE: 2}

Label = tuple[int, int, Tile]
"""(row, hidden slot, tile): one hidden tile given one value."""
State = tuple[int, ...]
"""How many hidden tiles of each row are filled, then the bits of the dashes used."""
Edge = tuple[State, tuple[Label, ...]]


class _Sweep:
    """The rank-ordered sweep described in the module docstring."""

    def __init__(self, rows: tuple[tuple[_Slot, ...], ...], unseen: frozenset[Tile]) -> None:
        self.rows = rows
        self.ranks = [r for r in range(RANKS) if Tile.from_rank(r) in unseen]
        self.end = tuple(len(row) for row in rows)
        # Memoised in a dict of its own rather than `functools.cache` on a bound method, which
        # would tie the sweep to itself in a cycle: only the garbage collector frees those, and
        # its full passes over the sweeps' layers then stall a decision.
        self._arrived: dict[tuple[int, int, int], tuple[tuple[int, int, tuple[Label, ...]], ...]]
        self._arrived = {}
        self._laid: (
            tuple[list[Edge], list[dict[State, list[Edge]]], list[dict[State, int]]] | None
        ) = None

    def arrive(
        self, row: int, slot: int, dashes: int
    ) -> tuple[tuple[int, int, tuple[Label, ...]], ...]:
        """The ways the sweep may stand at `slot` of `row` once the slot before it is filled:
        waiting there for a number, or past it with the slot holding a free dash (and so on)."""
        known = self._arrived.get((row, slot, dashes))
        if known is None:
            known = self._arrived[(row, slot, dashes)] = self._arrive(row, slot, dashes)
        return known

    def _arrive(
        self, row: int, slot: int, dashes: int
    ) -> tuple[tuple[int, int, tuple[Label, ...]], ...]:
        ways: list[tuple[int, int, tuple[Label, ...]]] = [(slot, dashes, ())]
        if slot < self.end[row]:
            dash = self.rows[row][slot].dash
            if dash is not None and not dashes & _DASH_BIT[dash.color]:
                label = (row, slot, dash)
                for after, used, labels in self.arrive(
                    row, slot + 1, dashes | _DASH_BIT[dash.color]
                ):
                    ways.append((after, used, (label, *labels)))
        return tuple(ways)

    def _starts(self) -> list[Edge]:
        partial: list[tuple[tuple[int, ...], int, tuple[Label, ...]]] = [((), 0, ())]
        for row in range(len(self.rows)):
            partial = [
                ((*filled, slot), used, (*labels, *more))
                for filled, dashes, labels in partial
                for slot, used, more in self.arrive(row, 0, dashes)
            ]
        return [((*filled, dashes), labels) for filled, dashes, labels in partial]

    def _edges(self, state: State, rank: int) -> list[Edge]:
        tile = Tile.from_rank(rank)
        edges: list[Edge] = [(state, ())]
        dashes = state[-1]
        for row, slot in enumerate(state[:-1]):
            if slot < self.end[row] and rank in self.rows[row][slot].ranks:
                for after, used, more in self.arrive(row, slot + 1, dashes):
                    moved = (*state[:row], after, *state[row + 1 : -1], used)
                    edges.append((moved, ((row, slot, tile), *more)))
        return edges

    def count(self) -> tuple[int, dict[Label, int]]:
        """The number of complete fillings, and the number through each label."""
        # Forward: how many partial fillings reach each state, rank after rank.
        starts = self._starts()
        layer: dict[State, int] = defaultdict(int)
        for state, _ in starts:
            layer[state] += 1
        layers: list[dict[State, int]] = []
        edges: list[dict[State, list[Edge]]] = []
        for rank in self.ranks:
            layers.append(layer)
            out = {state: self._edges(state, rank) for state in layer}
            edges.append(out)
            layer = defaultdict(int)
            for state, ways in layers[-1].items():
                for after, _ in out[state]:
                    layer[after] += ways
        # Backward: how many ways each state completes; an edge is on forward × backward of the
        # complete fillings, and so is each label it carries.
        back = {state: 1 for state in layer if state[:-1] == self.end}
        through: dict[Label, int] = defaultdict(int)
        for ways_in, out in zip(reversed(layers), reversed(edges), strict=True):
            before: dict[State, int] = {}
            for state, ways in ways_in.items():
                reaching = 0
                for after, labels in out[state]:
                    ways_out = back.get(after, 0)
                    if ways_out:
                        reaching += ways_out
                        for label in labels:
                            through[label] += ways * ways_out
                if reaching:
                    before[state] = reaching
            back = before
        total = 0
        for state, labels in starts:
            ways_out = back.get(state, 0)
            total += ways_out
            for label in labels if ways_out else ():
                through[label] += ways_out
        return total, dict(through)

    def tally(self) -> tuple[int, dict[Label, int]]:
        """`count`'s figures from `_layers`, which `every` and `sample` then reuse: the paths
        reaching each state forward, times the ways each edge's end completes."""
        starts, edges, backs = self._layers()
        through: dict[Label, int] = defaultdict(int)
        layer: dict[State, int] = defaultdict(int)
        total = 0
        for state, labels in starts:
            ways_out = backs[0].get(state, 0)
            if ways_out:
                layer[state] += 1
                total += ways_out
                for label in labels:
                    through[label] += ways_out
        for step, out in enumerate(edges):
            back = backs[step + 1]
            after_layer: dict[State, int] = defaultdict(int)
            for state, ways in layer.items():
                for after, labels in out[state]:
                    ways_out = back.get(after, 0)
                    if ways_out:
                        after_layer[after] += ways
                        for label in labels:
                            through[label] += ways * ways_out
            layer = after_layer
        return total, dict(through)

    def every(self) -> list[list[Label]]:
        """Every complete filling, each once: the paths through the states that can still
        complete, walked depth first."""
        starts, edges, backs = self._layers()
        found: list[list[Label]] = []
        for state, labels in starts:
            if backs[0].get(state, 0):
                _walk(edges, backs, 0, state, list(labels), found=found)
        if not found:
            raise InconsistentViewError("no deal of the tiles fits what this player has seen")
        return found

    def _layers(
        self,
    ) -> tuple[list[Edge], list[dict[State, list[Edge]]], list[dict[State, int]]]:
        """The starts, each rank's edges out of the states it reaches, and for each step the
        number of ways each state completes (worked out once per sweep)."""
        if self._laid is None:
            self._laid = self._lay()
        return self._laid

    def _lay(
        self,
    ) -> tuple[list[Edge], list[dict[State, list[Edge]]], list[dict[State, int]]]:
        starts = self._starts()
        edges: list[dict[State, list[Edge]]] = []
        layer = {state for state, _ in starts}
        for rank in self.ranks:
            out = {state: self._edges(state, rank) for state in layer}
            edges.append(out)
            layer = {after for ways in out.values() for after, _ in ways}
        back = {state: 1 for state in layer if state[:-1] == self.end}
        backs = [back]
        for out in reversed(edges):
            back = {
                state: reaching
                for state, ways in out.items()
                if (reaching := sum(back.get(after, 0) for after, _ in ways))
            }
            backs.append(back)
        backs.reverse()
        return starts, edges, backs

    def sample(self, rng: random.Random, count: int) -> list[list[Label]]:
        """`count` complete fillings at random, each as likely as any other: the ways to
        complete each state are counted backward, then each sample walks forward choosing
        every step in proportion to the ways it leaves."""
        starts, edges, backs = self._layers()
        first = [backs[0].get(state, 0) for state, _ in starts]
        if not sum(first):
            raise InconsistentViewError("no deal of the tiles fits what this player has seen")
        steps: dict[tuple[int, State], tuple[list[Edge], list[int]]] = {}
        found = []
        start_sums = list(itertools.accumulate(first))
        for _ in range(count):
            state, labels = starts[bisect.bisect(start_sums, rng.random() * start_sums[-1])]
            deal = list(labels)
            for step, out in enumerate(edges):
                key = (step, state)
                if key not in steps:
                    ways = [edge for edge in out[state] if backs[step + 1].get(edge[0], 0)]
                    sums = list(itertools.accumulate(backs[step + 1][after] for after, _ in ways))
                    steps[key] = (ways, sums)
                ways, sums = steps[key]
                if len(ways) == 1:
                    state, more = ways[0]
                else:
                    state, more = ways[bisect.bisect(sums, rng.random() * sums[-1])]
                deal.extend(more)
            found.append(deal)
        return found


def _walk(
    edges: list[dict[State, list[Edge]]],
    backs: list[dict[State, int]],
    step: int,
    state: State,
    deal: list[Label],
    *,
    found: list[list[Label]],
) -> None:
    """Add to `found` every complete filling that follows `deal` from `state` at `step` of a
    sweep's `edges` (a function of the module, not a closure calling itself, which would be a
    cycle for the collector)."""
    if step == len(edges):
        found.append(list(deal))
        return
    for after, more in edges[step][state]:
        if backs[step + 1].get(after, 0):
            deal.extend(more)
            _walk(edges, backs, step + 1, after, deal, found=found)
            del deal[len(deal) - len(more) :]
