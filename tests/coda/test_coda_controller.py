"""The on-screen Coda game without a screen: whole games played through the controller's inputs,
the person's choices, the computers' pacing, and what the scene lets reach the screen.

The tests play the person's side with the full state in hand (an X-ray the person does not
have), so that they can aim for a right or a wrong attack, a long game or a short one.
"""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Any

import pytest

from board_rules.coda import (
    DASH,
    Color,
    GameState,
    Level,
    Phase,
    Tile,
    deduce,
    strategy,
)
from firmware.coda.controller import HUMAN, CodaController
from firmware.coda.scene import scene
from firmware.coda.texts import ENGLISH
from tests.coda_helpers import row, stacked
from tests.coda_person_helpers import act, aim, disguised, hidden_value, wrong_value

BLACK, WHITE = Color.BLACK, Color.WHITE


def make_game(*levels: Level, **options: Any) -> CodaController:
    settings: dict[str, Any] = {"rng": random.Random(3), "delay_s": 0}
    settings.update(options)
    return CodaController(levels or (Level.EASY,), ENGLISH, **settings)


# Whole games


def take_by_colours(game: CodaController) -> None:
    """The opening: the colour inputs choose how many of each, take takes them."""
    assert scene(game).status.startswith("Take your 4 tiles")
    game.colour(BLACK)
    assert "(3 black, 1 white)" in scene(game).status
    game.colour(WHITE)
    game.colour(WHITE)
    assert "(1 black, 3 white)" in scene(game).status
    assert game.take()
    assert game.history[0] == "You: opening tiles, 1 black and 3 white"
    assert len(game.state.rows[1]) == 4  # the computer took its tiles at once


def play_the_plan(game: CodaController) -> None:
    """The person's plan: two right attacks and a stop, then a wrong attack, then keep the game
    going (a right attack and a stop while the computer has three hidden tiles or more, a
    wrong one otherwise) until the pool is empty; there, one wrong attack, then win."""
    turn, revealed_own, double, wrong = 0, False, False, False
    while not game.state.is_over:
        state, logged = game.state, len(game.history)
        target, by_keys = (1, state.hidden(1)[0]), turn % 2 == 1
        if state.phase is Phase.DRAW:
            turn += 1
            color = max(Color, key=state.pool.count)
            assert game.colour(color)
            assert game.history[-1] == f"You: drawn tile, {color.value}"
        elif not state.pool and not revealed_own:
            aim(game, target, wrong_value(state, *target), by_keys=by_keys)
            assert (game.state.phase, scene(game).status[:5]) == (Phase.REVEAL, "Wrong")
            hidden = game.state.hidden(HUMAN)
            game.move(1)
            assert scene(game).rows[HUMAN][hidden[1]].selected
            assert game.reveal() and game.state.rows[HUMAN][hidden[1]].revealed
            label = game.tile_label(HUMAN, hidden[1])
            assert game.history[logged + 1].startswith(f"You: own tile {label} face up")
            revealed_own = True
        elif not state.pool or (turn == 1 and state.hits < 2):
            aim(game, target, hidden_value(state, *target), by_keys=by_keys)
            double = double or (turn == 1 and game.state.hits == 2)
            if not game.state.is_over:
                assert game.history[-1].endswith("? right")
                assert scene(game).rows[1][target[1]].value == hidden_value(state, *target)
                assert scene(game).status.startswith("Right! Attack again")
        elif state.hits:
            drawn = state.hand[0]
            assert game.stop() and game.history[logged] == "You: stop, end of turn"
            assert drawn in [slot.tile for slot in game.state.rows[HUMAN]]
        elif turn == 2 or len(state.hidden(1)) < 3:
            drawn = state.hand[0]
            aim(game, target, wrong_value(state, *target), by_keys=by_keys)
            assert game.history[logged].endswith("? wrong")
            name = f"{drawn.color.value} {drawn.value}"
            assert game.history[logged + 1] == f"You: {name} face up into the row"
            wrong = True
        else:
            aim(game, target, hidden_value(state, *target), by_keys=by_keys)
    assert double and wrong and revealed_own


def test_a_whole_game_against_the_easy_opponent_to_the_winner_and_the_next_game() -> None:
    game = make_game()
    take_by_colours(game)
    play_the_plan(game)

    # The end: the winner is shown, and every row with its numbers.
    shown = scene(game)
    assert game.state.winner == HUMAN and game.wins == [1, 0]
    assert game.history[-2:] == ["Computer A: out of the game", "Winner: You"]
    assert shown.status == ENGLISH["status_you_win"]
    assert "Wins: You 1 · Computer A 0" in shown.title and "winner" in shown.labels[0].text
    assert [face.value for face in shown.rows[1]] == [s.tile.value for s in game.state.rows[1]]
    assert game.allows("new_game")

    # A new game, which the winner starts.
    assert game.new_game() and game.games == 2
    assert game.history == ["New game; first to play: You"]
    assert (game.state.starter, game.state.turn, game.state.phase) == (0, 0, Phase.TAKE)
    assert game.wins == [1, 0]


def test_a_computer_that_wins_starts_the_next_game() -> None:
    game = make_game()
    assert game.take()
    while not game.state.is_over:
        state = game.state
        if state.phase is Phase.DRAW:
            assert game.colour(BLACK if state.pool.count(BLACK) else WHITE)
        elif state.phase is Phase.REVEAL:
            assert game.reveal()
        else:
            target = (1, state.hidden(1)[0])
            aim(game, target, wrong_value(state, *target), by_keys=False)
    assert game.state.winner == 1 and game.wins == [0, 1]
    assert game.history[-2:] == ["You: out of the game", "Winner: Computer A"]
    assert not game.allows("take") and game.allows("new_game") and game.new_game()
    # The computer took its tiles first; now the person takes theirs.
    assert game.state.starter == 1 and game.history[0] == "New game; first to play: Computer A"
    assert game.history[1].startswith("Computer A: opening tiles")
    assert (game.state.turn, game.state.phase) == (HUMAN, Phase.TAKE)


def test_no_computer_hidden_number_reaches_the_scene_before_the_end() -> None:
    """A whole advanced game against two computers, the person playing like the easy player;
    after every single action, the person's and each computer's, the scene shows only backs of
    the computers' hidden tiles and stays the same when every secret of the game is changed."""
    game = make_game(Level.EASY, Level.HARD, advanced=True, delay_s=3600)
    person, person_rng, checks = strategy(Level.EASY), random.Random(7), 0
    while not game.state.is_over:
        if game.state.turn == HUMAN:
            act(game, person(game.view, person_rng))
        else:
            assert game.computer_to_play and game.computer_step()
        if game.state.is_over:
            break
        state, shown = game.state, scene(game)
        for player in range(1, state.players):
            assert all(shown.rows[player][i].value is None for i in state.hidden(player))
            hand = shown.hands[player]
            assert hand is None or hand.value is None or state.face_up
        game.state = disguised(state)
        assert scene(game) == shown
        game.state = state
        checks += 1
    assert checks > 40
    # At the end, every tile is shown with its number.
    for player in (1, 2):
        values = [face.value for face in scene(game).rows[player]]
        assert values == [slot.tile.value for slot in game.state.rows[player]]


# The person's choices


def test_the_choices_are_one_frozen_value_kept_among_the_legal_ones() -> None:
    game = make_game(Level.EASY, Level.HARD, Level.HARD)  # four players: three tiles each
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.choices.value = 3  # type: ignore[misc]
    assert game.choices.take_black == 1
    for _ in range(5):
        game.colour(BLACK)
    assert game.choices.take_black == 3  # no more than the opening takes
    for _ in range(5):
        game.colour(WHITE)
    assert game.choices.take_black == 0
    assert game.take() and [len(r) for r in game.state.rows] == [3, 3, 3, 3]
    assert game.colour(WHITE) and game.state.phase is Phase.ATTACK
    assert game.choices.target == game.view.targets()[0]
    game.move(-1)
    assert game.choices.target == game.view.targets()[-1]  # round the end


def test_values_by_digits_steps_pointing_and_the_dash() -> None:
    game = make_game(advanced=True)
    assert game.take() and game.colour(BLACK)
    for digits, value in (([1, 0], 10), ([1, 1], 11), ([1, 5], 5), ([7], 7)):
        for digit in digits:
            game.digit(digit)
        assert game.choices.value == value
    game.step_value(1)
    assert game.choices.value == 8
    game.digit(1)
    game.digit(1)
    game.step_value(1)
    assert game.choices.value == DASH  # the advanced game names the dash after 11
    game.step_value(1)
    assert game.choices.value == 0
    game.dash()
    game.choose_value(4)
    assert game.choices.value == 4 and scene(game).target.endswith("Value: 4?")


def test_the_advanced_opening_shows_each_dash_where_it_would_go() -> None:
    first = GameState.start(stacked("b- b3", "w- w5", advanced=True), players=2, starter=HUMAN)
    game = make_game(advanced=True, first_game=first)
    assert game.take() and game.state.phase is Phase.ARRANGE

    def shown() -> list[object]:
        return [face.value for face in scene(game).rows[HUMAN]]

    # The dash being laid out starts on the left, the other waits at the right end.
    assert shown() == [DASH, 3, 5, DASH] and scene(game).rows[HUMAN][0].placing
    game.choose_tile(HUMAN, 2)
    assert game.arrange_positions() == (2, 3) and shown() == [3, 5, DASH, DASH]
    game.move(-1)
    assert game.lay_out() and game.choices.dash_positions == (1,)
    assert scene(game).status.startswith("Lay out your row: ← → move your white dash")
    assert game.choices.dash_cursor == 0  # the first place the black dash left free
    game.move(1)
    assert game.choices.dash_cursor == 2 and game.lay_out()
    assert row(game.state, HUMAN) == "b3 b- w- w5" and game.state.phase is Phase.DRAW


def test_inputs_mean_something_only_in_their_phase_and_a_refused_move_changes_nothing() -> None:
    game = make_game()
    assert not game.allows("attack") and not game.allows("stop") and game.allows("help")
    assert game.take() and game.allows("colour", "black")
    logged, state = len(game.history), game.state
    assert not game.stop() and not game.place()  # the rules refuse both before a draw
    assert (len(game.history), game.state) == (logged, state)
    assert game.colour(BLACK)
    assert game.allows("attack") and not game.allows("dash") and not game.allows("stop")


# The computers' pace


def test_with_a_pause_each_computer_action_waits_for_computer_step() -> None:
    game = make_game(delay_s=3600)
    assert game.take() and game.computer_to_play
    assert game.state.turn == 1 and len(game.history) == 1
    assert not game.allows("colour", "black")  # the person waits too
    assert game.computer_step() and game.history[-1].startswith("Computer A: opening tiles")
    assert not game.computer_to_play and not game.computer_step()
    assert game.colour(BLACK)
    target = (1, game.state.hidden(1)[0])
    aim(game, target, wrong_value(game.state, *target), by_keys=True)
    # Each computer action is a step of its own: draw, then attack.
    assert game.computer_step() and game.history[-1].startswith("Computer A: drawn tile")
    logged = len(game.history)
    assert game.computer_step() and game.history[logged].startswith("Computer A → You")


def test_without_a_pause_the_computers_play_inside_the_persons_move() -> None:
    game = make_game(Level.HARD, Level.EASY)
    assert game.take()
    assert [len(r) for r in game.state.rows] == [4, 4, 4] and not game.computer_to_play
    assert (game.state.turn, game.state.phase) == (HUMAN, Phase.DRAW)


def test_a_bad_number_or_level_of_opponents_is_refused() -> None:
    with pytest.raises(ValueError, match="1 to 3"):
        CodaController([Level.EASY] * 4, ENGLISH)
    with pytest.raises(ValueError, match="easy, hard, expert or master"):
        CodaController([Level.RANDOM], ENGLISH)


def test_with_rotate_the_next_player_in_order_starts_the_next_game_whoever_won() -> None:
    game = make_game(rotate=True)
    take_by_colours(game)
    play_the_plan(game)
    assert game.state.winner == HUMAN and game.next_starter == 1
    assert scene(game).status == "Winner: You. n starts a new game; first to play: Computer A"
    assert game.new_game() and game.state.starter == 1
    assert game.history[0] == "New game; first to play: Computer A"


def test_before_the_first_move_the_person_chooses_a_seat_and_the_computers_before_play() -> None:
    game = make_game(Level.EASY, Level.HARD, Level.EASY)
    assert game.seat_open and game.state.starter == HUMAN
    assert [game.seat_order(seat) for seat in (1, 2, 4)] == [
        (0, 1, 2, 3),
        (3, 0, 1, 2),
        (1, 2, 3, 0),
    ]
    assert not game.choose_seat(5) and not game.choose_seat(0)
    assert game.choose_seat(3)
    # Computers 2 and 3 took their tiles at once; the person's turn comes third.
    assert game.state.starter == 2 and game.state.turn == HUMAN
    assert [len(r) for r in game.state.rows] == [0, 0, 3, 3]
    assert game.history[0] == "New game; first to play: Computer B"
    assert game.take() and not game.seat_open
    assert not game.choose_seat(1) and game.state.starter == 2


def test_the_first_seat_keeps_the_game_as_dealt() -> None:
    game, dealt = make_game(), make_game()
    assert game.choose_seat(1) and game.state == dealt.state and game.history == []
    # A staged first game is not dealt again.
    staged = make_game(first_game=dealt.state)
    assert not staged.seat_open and not staged.choose_seat(2)


def test_the_value_to_name_starts_on_the_likeliest_value_of_the_tile_aimed_at() -> None:
    game = make_game(Level.EASY, Level.HARD)
    assert game.take() and game.colour(BLACK)
    for step in (0, 1, 1, -1):
        if step:
            game.move(step)
        odds = deduce(game.view).distribution(*(game.choices.target or (0, 0)))
        assert odds[game.choices.value] == max(odds.values())
    player, index = game.view.targets()[-1]
    game.choose_tile(player, index)
    odds = deduce(game.view).distribution(player, index)
    assert game.choices.value == max(odds, key=lambda value: odds[value])


def test_a_value_missed_on_a_tile_is_never_where_the_value_cursor_starts() -> None:
    game = make_game()
    assert game.take()
    while not game.state.is_over and game.games == 1:
        state = game.state
        if state.phase is Phase.DRAW:
            assert game.colour(BLACK if state.pool.count(BLACK) else WHITE)
        elif state.phase is Phase.REVEAL:
            assert game.reveal()
        elif state.phase is Phase.ATTACK:
            player, index = game.choices.target or (1, 0)
            assert game.choices.value not in game.view.rows[player][index].misses
            aim(game, (player, index), wrong_value(state, player, index), by_keys=False)
        else:
            break
    assert any(seen.misses for seen in game.view.rows[1])


def test_a_log_line_names_the_tile_attacked_by_a_label_that_stays_with_it_as_rows_grow() -> None:
    game = make_game(Level.HARD, Level.EASY, delay_s=3600)
    person, person_rng = strategy(Level.EASY), random.Random(2)
    named: dict[int, tuple[str, int, Tile]] = {}  # log line → its text, the tile attacked
    seats = {name: seat for seat, name in enumerate(game.names)}
    logged = 0
    while not game.state.is_over:
        state = game.state  # each step below plays at most one attack, on this state
        if state.turn == HUMAN:
            act(game, person(game.view, person_rng))
        else:
            assert game.computer_step()
        for number in range(logged, len(game.history)):
            line = game.history[number]
            found = re.search(r"→ (.+), tile (\d+) ", line)
            if found:
                player, label = seats[found[1]], int(found[2])
                labels = [game.tile_label(player, i) for i in range(len(state.rows[player]))]
                named[number] = (line, player, state.rows[player][labels.index(label)].tile)
        logged = len(game.history)
    moved = 0
    faces = scene(game).rows
    for number, (line, player, tile) in named.items():
        assert game.history[number] == line  # the line never changed
        index = [slot.tile for slot in game.state.rows[player]].index(tile)
        label = int(re.findall(r"tile (\d+) ", line)[0])
        assert game.tile_label(player, index) == label == faces[player][index].label
        moved += index + 1 != label
    assert len(named) > 10 and moved > 3


def test_a_drawn_tile_gets_the_next_label_wherever_it_goes_and_the_frames_show_it() -> None:
    game = make_game(Level.HARD, delay_s=3600)
    assert game.take()
    while game.state.turn != HUMAN:
        assert game.computer_step()
    before = [game.tile_label(HUMAN, i) for i in range(len(game.state.rows[HUMAN]))]
    assert before == list(range(1, len(before) + 1))
    assert game.colour(BLACK if game.state.pool.count(BLACK) else WHITE)
    drawn = game.state.hand[0]
    player, index = game.view.targets()[0]
    aim(game, (player, index), wrong_value(game.state, player, index), by_keys=False)
    row = [slot.tile for slot in game.state.rows[HUMAN]]
    slot = row.index(drawn)
    labels = [game.tile_label(HUMAN, i) for i in range(len(row))]
    assert labels == [*before[:slot], len(before) + 1, *before[slot:]]
    assert [face.label for face in scene(game).rows[HUMAN]] == labels


def test_an_expert_opponent_plays_and_is_named_by_its_level() -> None:
    game = make_game(Level.EXPERT, Level.HARD)
    assert "expert" in scene(game).labels[1].text and "hard" in scene(game).labels[2].text
    assert game.take() and game.colour(BLACK)
    assert game.state.rows[1] and game.state.rows[2]  # both computers took their tiles
