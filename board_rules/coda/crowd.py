"""How the expert plays with three or four players still in: what a hit on each opponent is
worth, how much a miss costs, and which colour to draw.

With two players a hit narrows the only rival's row and a finishing hit wins, so one tile is
one tile (`board_rules.coda.expert`). With more, a hit on one opponent helps the others as
much as us, and how many hidden tiles each holds says little about who wins; what shows in
games of `hard` players is that the rows that are easy to read draw the attacks. So:

- A player's chance to be the last is taken as proportional to the square root of its hidden
  tiles (`RACE_POWER`), our drawn tile counted as hidden since a stop hides it. A hit on a
  player is worth what it adds to our share, in units of what one more hidden tile of ours
  adds: less than a tile (about a half with four players of three tiles each), and more when
  it puts a player out, since a share that ends counts in full.
- That worth grows by `LATER_SEAT` for each seat its player sits after us in the order of play:
  the players in between see the tile our hit turned and aim at that row, rather than ours,
  before its owner plays again. A hit on the player who plays just before us is so worth the
  most.
- A miss costs `CROWD_MISS` times what it costs with two players: what it shows of our row is
  read by every opponent.
- At a table of three or four, of the two colours (while both are left), the expert draws the
  one whose tile, hidden in its row, would leave the row hardest to read on average over the
  tiles of that colour it has not seen (the yardstick of `hard`'s placements,
  `board_rules.coda.exposure`): with three attackers, a readable row is the one they aim at.

Measured over 3,000 games against `hard` (seed 31, starters rotating): with four players the
expert won 32.1 % without these four, 36.2 % with them, 35.0 % with all but the colour, 35.7 %
with the plain share (hidden tiles to the power 1) and the two-player miss; a weight of 1.7 a
seat lost about a point. With three: 44.7 % without, 46.3 % with, 44.9 % without the weight by
seat.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Final

from board_rules.coda.exposure import exposure, public_tiles
from board_rules.coda.players import own_row
from board_rules.coda.row import RowTile, legal_slots
from board_rules.coda.tiles import Color, game_tiles
from board_rules.coda.view import PlayerView

RACE_POWER: Final = 0.5
"""A player's chance to be the last, up to a common factor: its hidden tiles to this power."""
LATER_SEAT: Final = Fraction(13, 10)
"""What a hit's worth is multiplied by for each seat its player sits after ours."""
CROWD_MISS: Final = Fraction(3, 2)
"""What a miss's cost is multiplied by with three or more players in."""
TOTAL_WEIGHT: Final = 0.1
"""In comparing colours, a row's readability is its highest chance plus this much of the sum
of its chances (`board_rules.coda.exposure`)."""


def players_in(view: PlayerView) -> list[int]:
    """The players with a hidden tile left."""
    return [player for player in range(view.players) if not view.is_out(player)]


def crowded(view: PlayerView) -> bool:
    """True when three or more players are still in."""
    return len(players_in(view)) >= 3


def hit_worths(view: PlayerView) -> dict[int, float]:
    """What a hit on each opponent still in is worth to the viewer, in its own hidden tiles
    (see the module docstring); for three or more players in."""
    hidden = {player: len(view.hidden(player)) for player in players_in(view)}
    hidden[view.viewer] += len(view.hand)
    return worths_by_hidden(hidden, view.viewer, view.players)


def worths_by_hidden(hidden: dict[int, int], me: int, players: int) -> dict[int, float]:
    """`hit_worths` from the hidden tiles of every player in (`me`'s drawn tile counted), `me`
    the attacker at a table of `players`: what any player can work out for any attacker."""
    base = _share(hidden, me)
    one_more = _share({**hidden, me: hidden[me] + 1}, me) - base
    worths = {}
    for player, count in hidden.items():
        if player != me:
            gain = _share({**hidden, player: count - 1}, me) - base
            seats_after = (player - me) % players
            worths[player] = gain / one_more * float(LATER_SEAT**seats_after)
    return worths


def _share(hidden: dict[int, int], me: int) -> float:
    """`me`'s chance to be the last, by the hidden tiles of everyone in."""
    weights = {player: math.pow(count, RACE_POWER) for player, count in hidden.items() if count}
    if me not in weights:
        return 0.0
    return weights[me] / math.fsum(weights.values())


def safest_colour(view: PlayerView) -> Color:
    """The colour whose drawn tile leaves the viewer's row hardest to read, on average over
    the unseen tiles of that colour (black of equals); both colours must be left to draw."""
    row = own_row(view)
    public = public_tiles(view, besides=view.viewer)
    unseen = frozenset(game_tiles(view.advanced)) - view.seen_tiles()
    readability = {}
    for color in Color:
        tiles = [tile for tile in unseen if tile.color is color]
        total = 0.0
        for tile in tiles:
            rows = [
                [*row[:slot], RowTile(tile), *row[slot:]]
                for slot in legal_slots([slot.tile for slot in row], tile)
            ]
            # Placed where its row is hardest to read, as `hard` places it.
            total += min(_readability(exposure(r, public, advanced=view.advanced)) for r in rows)
        readability[color] = total / len(tiles)
    return min(Color, key=lambda color: readability[color])


def _readability(found: tuple[Fraction, Fraction]) -> float:
    highest, total = found
    return float(highest) + TOTAL_WEIGHT * float(total)
