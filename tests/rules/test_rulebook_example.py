"""The rulebook's worked example of the guess limit: the "river: 3" turn and its extra guess.

Red's first clue (for two words) ends on a bystander; blue guesses two agents and stops; red's
spymaster then gives a clue for 3. The operative finds two river words, then a word left over
from red's first clue, and may still make one more guess (3 + 1), after which the turn is over.
"""

from board_rules.codenames import Game, GameState, Phase, Reason, Team

from ..rules_helpers import new_game, play, rejection


def _to_the_river_clue() -> tuple[Game, GameState]:
    game = new_game()
    play(game, "clue 2", "touch C4")  # tree: 2 — the first guess is a bystander
    play(game, "clue 2", "touch A3", "touch B3", "done")  # blue: two right, then stop
    state = play(game, "clue 3")  # river: 3
    return game, state


def test_river_three_allows_four_guesses_and_the_fourth_ends_the_turn() -> None:
    game, state = _to_the_river_clue()
    assert state.guesses_left == 4
    state = play(game, "touch A1", "touch B1")  # two river words, both red
    assert (state.phase, state.turn, state.guesses_left) == (Phase.GUESS, Team.RED, 2)
    state = play(game, "touch C1")  # a word from the earlier clue, red too
    assert (state.phase, state.guesses_left) == (Phase.GUESS, 1)  # the one extra guess
    state = play(game, "touch D1")  # right again, but that was the last guess
    assert (state.phase, state.turn) == (Phase.CLUE, Team.BLUE)
    assert state.remaining(Team.RED) == 5
    assert rejection(game, "touch E1") is Reason.NO_CLUE_YET


def test_river_three_the_operative_may_stop_after_three() -> None:
    game, _ = _to_the_river_clue()
    state = play(game, "touch A1", "touch B1", "touch C1", "done")
    assert (state.phase, state.turn, state.remaining(Team.RED)) == (Phase.CLUE, Team.BLUE, 6)
