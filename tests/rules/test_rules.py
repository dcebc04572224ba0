"""Every rule of play, one test each, named after the rule it pins down.

Key used throughout (rules_helpers.KEY): red A1–E1 and A2–D2 (9, red starts); blue E2, A3–E3,
A4, B4 (8); bystanders C4–E4 and A5–D5; the assassin E5.
"""

import pytest

from board_rules.codenames import UNLIMITED, EndReason, Mode, Phase, Reason, Team

from ..rules_helpers import new_game, play, rejection

RED_WORDS = ["A1", "B1", "C1", "D1", "E1", "A2", "B2", "C2", "D2"]
BLUE_WORDS = ["E2", "A3", "B3", "C3", "D3", "E3", "A4", "B4"]


# The start of a game


def test_the_starting_team_gives_the_first_clue() -> None:
    state = new_game().state
    assert (state.phase, state.turn) == (Phase.CLUE, Team.RED)
    assert state.remaining(Team.RED) == 9
    assert state.remaining(Team.BLUE) == 8


def test_a_clue_moves_the_team_to_guessing() -> None:
    state = play(new_game(), "clue 2")
    assert (state.phase, state.turn, state.clue, state.guesses_made) == (
        Phase.GUESS,
        Team.RED,
        2,
        0,
    )


@pytest.mark.parametrize("line", ["touch A1", "done", "penalty", "timeout"])
def test_nothing_but_a_clue_before_the_clue(line: str) -> None:
    assert rejection(new_game(), line) is Reason.NO_CLUE_YET


def test_a_second_clue_while_guessing_is_rejected() -> None:
    game = new_game()
    play(game, "clue 2")
    assert rejection(game, "clue 3") is Reason.CLUE_ALREADY_GIVEN


# Touching cards


def test_touching_an_own_agent_covers_it_and_the_team_goes_on() -> None:
    state = play(new_game(), "clue 2", "touch A1")
    assert state.to_dict()["covered"] == {"A1": "red"}
    assert (state.phase, state.turn, state.guesses_made) == (Phase.GUESS, Team.RED, 1)
    assert state.remaining(Team.RED) == 8


def test_touching_a_bystander_ends_the_turn() -> None:
    state = play(new_game(), "clue 2", "touch C4")
    assert (state.phase, state.turn, state.clue) == (Phase.CLUE, Team.BLUE, None)
    assert state.to_dict()["covered"] == {"C4": "bystander"}


def test_touching_an_enemy_agent_covers_it_for_them_and_ends_the_turn() -> None:
    state = play(new_game(), "clue 2", "touch E2")
    assert (state.phase, state.turn) == (Phase.CLUE, Team.BLUE)
    assert state.remaining(Team.BLUE) == 7
    assert state.to_dict()["covered"] == {"E2": "blue"}


def test_touching_the_assassin_loses_the_game_for_the_touching_team() -> None:
    state = play(new_game(), "clue 2", "touch E5")
    assert (state.phase, state.winner, state.reason) == (Phase.OVER, Team.BLUE, EndReason.ASSASSIN)


def test_touching_a_covered_card_is_rejected() -> None:
    game = new_game()
    play(game, "clue 2", "touch A1")
    assert rejection(game, "touch a1") is Reason.ALREADY_COVERED


def test_covering_the_last_own_agent_wins() -> None:
    game = new_game()
    play(game, "clue unlimited", *(f"touch {w}" for w in RED_WORDS))
    state = game.state
    assert (state.phase, state.winner, state.reason) == (Phase.OVER, Team.RED, EndReason.AGENTS)
    assert state.remaining(Team.RED) == 0


def test_touching_the_other_teams_last_agent_makes_them_win_at_once_on_this_turn() -> None:
    game = new_game()
    # Blue covers 7 of its 8 agents over its turns, then red touches blue's last one.
    play(game, "clue 1", "touch C4", "clue unlimited", *(f"touch {w}" for w in BLUE_WORDS[:7]))
    play(game, "done", "clue 1")
    state = play(game, "touch B4")
    assert state.turn is Team.RED  # it was red's turn
    assert (state.phase, state.winner, state.reason) == (Phase.OVER, Team.BLUE, EndReason.AGENTS)


# The number of guesses


@pytest.mark.parametrize("number", [1, 2, 3, 7])
def test_a_clue_of_n_allows_n_plus_one_guesses_then_ends_the_turn(number: int) -> None:
    game = new_game()
    state = play(game, f"clue {number}")
    assert state.guesses_left == number + 1
    for word in RED_WORDS[:number]:
        state = play(game, f"touch {word}")
    assert state.phase is Phase.GUESS
    assert state.guesses_left == 1  # the one extra guess
    state = play(game, f"touch {RED_WORDS[number]}")
    assert (state.phase, state.turn) == (Phase.CLUE, Team.BLUE)


@pytest.mark.parametrize("clue", ["0", "unlimited"])
def test_zero_and_unlimited_clues_lift_the_guess_limit(clue: str) -> None:
    game = new_game()
    state = play(game, f"clue {clue}")
    assert state.guesses_left == UNLIMITED
    for word in RED_WORDS[:8]:
        state = play(game, f"touch {word}")
        assert (state.phase, state.guesses_left) == (Phase.GUESS, UNLIMITED)
    assert state.guesses_made == 8


@pytest.mark.parametrize("clue", ["0", "1", "5", "unlimited"])
def test_the_team_must_guess_once_before_stopping(clue: str) -> None:
    game = new_game()
    play(game, f"clue {clue}")
    assert rejection(game, "done") is Reason.MUST_GUESS_FIRST
    state = play(game, "touch A1", "done")
    assert (state.phase, state.turn) == (Phase.CLUE, Team.BLUE)


def test_guesses_left_is_none_outside_guessing() -> None:
    assert new_game().state.guesses_left is None


# The sand timer (strict mode)


def test_a_timeout_while_guessing_ends_the_turn_even_before_a_guess() -> None:
    state = play(new_game(), "clue 2", "timeout")
    assert (state.phase, state.turn) == (Phase.CLUE, Team.BLUE)


# The invalid-clue penalty


def test_a_penalty_ends_the_turn_at_once_and_the_other_team_may_cover() -> None:
    state = play(new_game(), "clue 2", "touch A1", "penalty")
    assert (state.phase, state.turn, state.clue, state.guesses_left) == (
        Phase.PENALTY_COVER,
        Team.BLUE,
        None,
        None,
    )


def test_the_penalty_cover_takes_one_own_word_then_the_team_gives_its_clue() -> None:
    state = play(new_game(), "clue 2", "penalty", "cover E2")
    assert (state.phase, state.turn) == (Phase.CLUE, Team.BLUE)
    assert state.remaining(Team.BLUE) == 7


@pytest.mark.parametrize("word", ["A1", "C4", "E5"])
def test_the_penalty_cover_must_be_an_own_word(word: str) -> None:
    game = new_game()
    play(game, "clue 2", "penalty")
    assert rejection(game, f"cover {word}") is Reason.NOT_YOUR_WORD


def test_the_penalty_cover_of_a_covered_word_is_rejected() -> None:
    game = new_game()
    play(game, "clue 1", "touch E2", "clue 1", "touch A3", "penalty")
    assert rejection(game, "cover A3") is Reason.ALREADY_COVERED


def test_the_penalty_cover_may_be_skipped_by_giving_the_clue() -> None:
    state = play(new_game(), "clue 2", "penalty", "clue 3")
    assert (state.phase, state.turn, state.clue) == (Phase.GUESS, Team.BLUE, 3)
    assert state.remaining(Team.BLUE) == 8


@pytest.mark.parametrize("line", ["touch E2", "done", "penalty"])
def test_during_the_penalty_cover_nothing_but_a_cover_or_a_clue(line: str) -> None:
    game = new_game()
    play(game, "clue 2", "penalty")
    assert rejection(game, line) is Reason.NO_CLUE_YET


def test_covering_the_last_word_in_the_penalty_cover_wins() -> None:
    game = new_game()
    play(game, "clue 1", "touch C4", "clue unlimited", *(f"touch {w}" for w in BLUE_WORDS[:7]))
    play(game, "done", "clue 1", "penalty")
    state = play(game, "cover B4")
    assert (state.phase, state.winner, state.reason) == (Phase.OVER, Team.BLUE, EndReason.AGENTS)


def test_a_cover_outside_a_cover_phase_is_rejected() -> None:
    game = new_game()
    assert rejection(game, "cover A1") is Reason.NOT_COVERING
    play(game, "clue 1")
    assert rejection(game, "cover A1") is Reason.NOT_COVERING


# The two-player variant


def test_coop_players_are_the_starting_team_and_the_opponent_covers_after_each_turn() -> None:
    game = new_game(Mode.COOP)
    state = play(game, "clue 1", "touch A1", "done")
    assert (state.phase, state.turn) == (Phase.ENEMY_COVER, Team.BLUE)
    state = play(game, "cover A3")
    assert (state.phase, state.turn) == (Phase.CLUE, Team.RED)
    assert state.remaining(Team.BLUE) == 7


@pytest.mark.parametrize("ending", [["touch C4"], ["touch E2"], ["touch A1", "touch B1"]])
def test_coop_every_end_of_turn_brings_the_enemy_cover(ending: list[str]) -> None:
    state = play(new_game(Mode.COOP), "clue 1", *ending)
    assert (state.phase, state.turn) == (Phase.ENEMY_COVER, Team.BLUE)


@pytest.mark.parametrize("word", ["A1", "C4", "E5"])
def test_coop_the_enemy_cover_must_be_an_enemy_agent(word: str) -> None:
    game = new_game(Mode.COOP)
    play(game, "clue 1", "touch D4")
    assert rejection(game, f"cover {word}") is Reason.NOT_ENEMY_WORD


@pytest.mark.parametrize("line", ["clue 1", "touch A1", "done", "timeout"])
def test_coop_the_enemy_cover_comes_first(line: str) -> None:
    game = new_game(Mode.COOP)
    play(game, "clue 1", "touch C4")
    assert rejection(game, line) is Reason.ENEMY_MUST_COVER


def test_coop_has_no_invalid_clue_penalty() -> None:
    game = new_game(Mode.COOP)
    play(game, "clue 1")
    assert rejection(game, "penalty") is Reason.NOT_IN_COOP


def test_coop_players_lose_when_every_enemy_agent_is_covered() -> None:
    game = new_game(Mode.COOP)
    # Each turn: a bystander or an enemy agent ends it, then the opponent covers one more.
    for blue in ("E2", "B3", "D3", "A4"):
        play(game, "clue 1", f"touch {blue}")
        neighbour = BLUE_WORDS[BLUE_WORDS.index(blue) + 1]
        play(game, f"cover {neighbour}")
    state = game.state
    assert state.remaining(Team.BLUE) == 0
    assert (state.phase, state.winner, state.reason, state.score) == (
        Phase.OVER,
        Team.BLUE,
        EndReason.AGENTS,
        None,
    )


def test_coop_players_lose_on_the_assassin_without_a_score() -> None:
    state = play(new_game(Mode.COOP), "clue 1", "touch E5")
    assert (state.winner, state.reason, state.score, state.rank) == (
        Team.BLUE,
        EndReason.ASSASSIN,
        None,
        None,
    )


def test_coop_score_is_the_enemy_agents_left_uncovered_with_its_rank() -> None:
    game = new_game(Mode.COOP)
    play(game, "clue 2", "touch A1", "touch B1", "touch C1", "cover E2")  # turn over: 1 cover
    play(game, "clue 1", "touch D3", "cover A3")  # a wrong guess and a cover
    state = play(game, "clue unlimited", *(f"touch {w}" for w in RED_WORDS[3:]))
    assert (state.winner, state.reason) == (Team.RED, EndReason.AGENTS)
    assert state.score == 5
    assert state.rank == "field-experts"
    assert state.to_dict()["score"] == 5


def test_coop_ranks_cover_every_winning_score() -> None:
    from board_rules.codenames.coop import RANKS, rank_of

    assert sorted(RANKS) == list(range(1, 9))
    assert len(set(RANKS.values())) == 8
    with pytest.raises(ValueError, match="1 to 8"):
        rank_of(0)


def test_standard_games_have_no_score() -> None:
    game = new_game()
    state = play(game, "clue unlimited", *(f"touch {w}" for w in RED_WORDS))
    assert (state.winner, state.score, state.rank) == (Team.RED, None, None)


# Undo and the end of the game


def test_undo_takes_back_actions_one_by_one_to_the_start() -> None:
    game = new_game()
    states = [game.state]
    for line in ("clue 2", "touch A1", "touch C4", "clue 1", "penalty", "cover B1"):
        states.append(play(game, line))
    for expected in reversed(states[:-1]):
        assert play(game, "undo") == expected
    assert rejection(game, "undo") is Reason.NOTHING_TO_UNDO


def test_undo_works_after_the_game_is_over() -> None:
    game = new_game()
    before = play(game, "clue 1")
    play(game, "touch E5")
    assert play(game, "undo") == before
    assert play(game, "touch A1").phase is Phase.GUESS


@pytest.mark.parametrize("line", ["clue 1", "touch A1", "done", "penalty", "cover A1", "timeout"])
def test_nothing_but_undo_after_the_game_is_over(line: str) -> None:
    game = new_game()
    play(game, "clue 1", "touch E5")
    assert rejection(game, line) is Reason.GAME_OVER


def test_a_game_is_the_fold_of_its_applied_actions_undos_included() -> None:
    from board_rules.codenames import Game

    game = new_game(Mode.COOP)
    play(game, "clue 2", "touch A1", "undo", "touch C4", "cover E2", "undo", "cover A3")
    again = Game.replay(game.key, game.mode, game.applied)
    assert again.state == game.state
    assert again.applied == game.applied
    assert len(game.applied) == 7
    assert [str(a) for a in game.standing] == ["clue 2", "touch C4", "cover A3"]
    assert Game.replay(game.key, game.mode, game.standing).state == game.state
