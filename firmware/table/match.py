"""The match a café group plays: games won per team since the match began, shown between games.

Only standard games that ended count (a co-op game has no team beaten by the other), and only
those that still stand: an undo that takes back the winning touch takes back the win. The store
keeps which match each game was played in (`GameStore.matches`); the table keeps the tally of
the match under way in memory, so that it stays right while the disk refuses writes.
"""

from __future__ import annotations

from dataclasses import dataclass

from board_rules.codenames import GameState, Mode, Team
from firmware.table.store import GameStore, StoreError


@dataclass(frozen=True)
class MatchTally:
    """The match under way: the wins of its games other than the one in play."""

    red: int = 0
    blue: int = 0
    counts_current: bool = True
    """Whether the game in play is one of the match's games: not when the match was begun
    after something had been played in it (the match starts with the next game)."""

    def score(self, state: GameState) -> tuple[int, int]:
        """Wins (red, blue), the game in play, `state`, included if it counts and is won."""
        red, blue = self.red, self.blue
        if self.counts_current and state.mode is Mode.STANDARD and state.winner is not None:
            red, blue = (red + 1, blue) if state.winner is Team.RED else (red, blue + 1)
        return red, blue

    def next_game(self, left: GameState) -> MatchTally:
        """The tally once NEW replaced the game in play, `left`: the new game counts."""
        red, blue = self.score(left)
        return MatchTally(red, blue)


def saved_tally(store: GameStore, game_id: int | None) -> MatchTally:
    """The tally of the latest match in `store`, the game in play being `game_id` (not saved
    yet: None); an empty tally when the store has no matches to tell."""
    try:
        matches = store.matches(leaving_out=game_id)
        if not matches:
            return MatchTally()
        latest = matches[-1]
        counts = game_id is None or store.match_of(game_id) == latest.match_id
    except StoreError:
        return MatchTally()
    return MatchTally(latest.red, latest.blue, counts)
