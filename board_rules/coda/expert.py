"""The `expert` computer player: `hard`'s opening, draws and placements, with a sharper reading
of the table and attacks weighed by what they do to the race rather than by the hit alone.

Reading (`informed_deduction`). The plain deduction already uses everything the rows show:
the colour of every draw, the place every stop or placement gives a tile, the revealed tiles,
the misses. The expert adds what each player's own wrong attacks say about its row: a player
who sees its own tiles never names one of them, so when it named v against a tile of colour c
and missed, none of the hidden tiles of colour c it held then is v (`SeenTile.owner_named`).
Those values are added to the tiles' misses and the deals are counted exactly as before, each
deal that fits equally likely: the only unequal weighting is that a deal in which an opponent
named one of its own tiles weighs nothing. A player who does so anyway (`random` may) leaves
no deal that fits; the expert then falls back on the plain deduction.

Attacking. Each (tile, value) is scored by its chance times what a hit is worth. With two
players in: one tile in general, `FINISHING_HIT` when it turns the opponent's last hidden tile,
which wins. With three or more, `board_rules.coda.crowd` weighs each opponent by what the hit
does to the viewer's share of the race and by where that opponent sits in the order of play.
The best score wins, ties at random.

Going on or stopping. After a right attack, another attack risks the drawn tile: a miss puts it
face up, a stop hides it in the row. The expert reckons what the table would gain from seeing
it: the chance the table would not have guessed it anyway, plus how much surer the table's
reading of the rest of the row gets (`board_rules.coda.exposure`). It goes on when the chance
times the hit's worth is at least the miss's chance times that cost: a drawn tile the table can
all but read costs little to risk, a well hidden one is kept. With nothing drawn a miss turns
one of its own tiles instead, counted as one tile; with its last hidden tile at stake it goes on
only on a certainty. With three or more players in, a miss costs more (`crowd.CROWD_MISS`).

Drawing. At a table of two it draws as `hard`; of three or four, the colour that keeps its row
hardest to read (`board_rules.coda.crowd.safest_colour`).

Measured alternatives that did no better in two-player games (within two points over 800 to
2,000 seeded games against `hard`): a miss cost scaled by 1/2 to 3, a finishing hit worth 1 to
10, hits weighed by how many hidden tiles their player has left, and drawing the colour whose
tile would leave the row hardest to read (which does help with more players).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Final

from board_rules.coda.actions import Action, Attack, Draw, Stop
from board_rules.coda.crowd import CROWD_MISS, crowded, players_in, safest_colour
from board_rules.coda.crowd import worths_by_hidden as crowd_worths_by_hidden
from board_rules.coda.deduction import Deduction, TileKey, deduce, deduce_rows
from board_rules.coda.errors import InconsistentViewError
from board_rules.coda.exposure import exposure, public_tiles
from board_rules.coda.players import own_row, play_hard
from board_rules.coda.row import RowTile, legal_slots
from board_rules.coda.seen import SeenTile
from board_rules.coda.state import Phase
from board_rules.coda.tiles import Tile, Value, game_tiles
from board_rules.coda.view import PlayerView

FINISHING_HIT: Final = Fraction(3)
"""What a hit on an opponent's last hidden tile is worth, in tiles: it ends that player's
game, and with two players the whole game, where any other hit only narrows a row."""


def play_expert(view: PlayerView, rng: random.Random) -> Action:
    """The `expert` player."""
    if view.phase is Phase.ATTACK:
        return _attack(view, rng)
    if view.phase is Phase.DRAW and view.players >= 3 and view.pool_black and view.pool_white:
        return Draw(safest_colour(view))
    return play_hard(view, rng)


def informed_deduction(view: PlayerView) -> Deduction:
    """The exact deduction of `view`, each player's own wrong attacks counted as misses on its
    hidden tiles of the attacked colour (see the module docstring)."""
    rows, unseen = informed_rows(view)
    try:
        return deduce_rows(rows, unseen)
    except InconsistentViewError:
        return deduce(view)


def informed_rows(view: PlayerView) -> tuple[dict[int, tuple[SeenTile, ...]], frozenset[Tile]]:
    """The others' rows with each player's own wrong attacks counted as misses on its hidden
    tiles of the attacked colour, and the tiles the viewer has not seen."""
    rows = {
        player: tuple(_informed(seen) for seen in row)
        for player, row in enumerate(view.rows)
        if player != view.viewer
    }
    return rows, frozenset(game_tiles(view.advanced)) - view.seen_tiles()


def _informed(seen: SeenTile) -> SeenTile:
    if seen.revealed or not seen.owner_named:
        return seen
    return replace(seen, misses=seen.misses | seen.owner_named)


def _attack(view: PlayerView, rng: random.Random) -> Action:
    found = informed_deduction(view)
    return choose_attack(view, rng, found.guesses(), found)


def choose_attack(
    view: PlayerView,
    rng: random.Random,
    guesses: Sequence[tuple[Fraction | float, TileKey, Value]],
    exact: Deduction,
) -> Action:
    """The expert's attack, or its stop, given every possible (tile, value) with its chance:
    the best chance times worth, ties at random; with its last hidden tile at stake, go on only
    when `exact` makes the guess a certainty."""
    worths = hit_worths(view)
    scored = [
        (chance * worths[player], chance, (player, index), value)
        for chance, (player, index), value in guesses
    ]
    best = max(score for score, *_ in scored)
    tied = [guess for guess in scored if guess[0] == best]
    _, chance, (player, index), value = rng.choice(tied)
    if view.hits:
        last_tile = not view.hand and len(view.hidden(view.viewer)) == 1
        if last_tile and exact.probability(player, index, value) < 1:
            return Stop()
        if go_on_margin(best, chance, miss_cost(view)) < 0:
            return Stop()
    return Attack(player, index, value)


def go_on_margin(
    best: Fraction | float, chance: Fraction | float, cost: Fraction | float
) -> Fraction | float:
    """How far `best`, the best attack's score, clears the chance of a miss (1 - `chance`) times
    `cost`, what a miss would cost in tiles: after a right attack the expert goes on when this is
    0 or above."""
    return best - (1 - chance) * cost


def hit_worths(view: PlayerView) -> dict[int, Fraction | float]:
    """What a hit on each opponent still in is worth, in tiles: with two players in, one, or
    `FINISHING_HIT` for the last hidden tile; with more, `board_rules.coda.crowd`'s share."""
    hidden = {player: len(view.hidden(player)) for player in players_in(view)}
    hidden[view.viewer] += len(view.hand)
    return worths_by_hidden(hidden, view.viewer, view.players)


def worths_by_hidden(hidden: dict[int, int], me: int, players: int) -> dict[int, Fraction | float]:
    """`hit_worths` from the hidden tiles of every player in (`me`'s drawn tiles counted), `me`
    the attacker at a table of `players`: what any player can work out for any attacker."""
    if len(hidden) >= 3:
        return dict(crowd_worths_by_hidden(hidden, me, players))
    return {
        player: FINISHING_HIT if count == 1 else Fraction(1)
        for player, count in hidden.items()
        if player != me
    }


def miss_cost(view: PlayerView) -> Fraction:
    """What a miss now would give the table, in tiles (see the module docstring): 0 for a
    drawn tile the table can already read, about 1 for one it could not guess at all; with
    three or more players in, `CROWD_MISS` times that."""
    return _table_gain(view) * (CROWD_MISS if crowded(view) else 1)


def _table_gain(view: PlayerView) -> Fraction:
    if not view.hand:
        return Fraction(1)  # a miss turns one of our own tiles, whichever tells least
    drawn = view.hand[0].tile
    if drawn is None:
        raise ValueError("only the player in turn decides whether to go on")
    return drawn_tile_gain(
        own_row(view), drawn, public_tiles(view, besides=view.viewer), advanced=view.advanced
    )


def drawn_tile_gain(
    row: Sequence[RowTile], drawn: Tile, public: frozenset[Tile], *, advanced: bool
) -> Fraction:
    """What the table would gain from seeing `drawn` placed face up in `row` rather than hidden,
    in tiles (see the module docstring), `public` being the tiles revealed in the other rows."""
    costs = []
    for slot in legal_slots([tile.tile for tile in row], drawn):
        hidden = [*row[:slot], RowTile(drawn), *row[slot:]]
        shown = [*row[:slot], RowTile(drawn, revealed=True), *row[slot:]]
        # The drawn tile's own chance counts in `hidden`'s total and not in `shown`'s: the
        # difference is what the table gains on the rest, less what it knew of the drawn tile.
        before = exposure(hidden, public, advanced=advanced)[1]
        after = exposure(shown, public, advanced=advanced)[1]
        costs.append(1 + after - before)
    # In the advanced game the tile goes where its row is hardest to read: the cheapest risk.
    return min(costs)
