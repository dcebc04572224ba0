"""The table application played end to end through headless scripts on virtual hardware."""

import json
from pathlib import Path

from board_rules.codenames import Mode
from firmware.table.config import TableConfig
from firmware.table.settings import TableSettings

from ..paths import DEVELOPERS_GUIDE
from ..table_scripts import KEY_LINE, clue, play

RED = ["A1", "B1", "C1", "D1", "E1", "A2", "B2", "C2", "D2"]


def presses(*cards: str) -> str:
    return "".join(f"press {card}\n" for card in cards)


def test_a_clue_is_dialled_and_announced_and_the_pads_guess(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\ndump\nturn +2\ndump\npush\n{presses('A1')}dump\n"
    start, dialled, guessing = play(script, tmp_path)
    assert start["oled"][2] == "« 1 »"  # the selector starts at 1
    assert dialled["oled"][2] == "« 3 »"
    assert guessing["game"]["clue"] == 3
    assert guessing["game"]["covered"] == {"A1": "red"}
    assert guessing["oled"][1:3] == ["Red agent", "Guess again"]


def test_the_selector_stops_at_zero_and_at_unlimited(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\nturn -5\ndump\nturn +30\ndump\npush\ndump\n"
    low, high, announced = play(script, tmp_path)
    assert low["oled"][2] == "« 0 »"
    assert high["oled"][2] == "« ∞ »"
    assert announced["game"]["clue"] == "unlimited"


def test_the_guess_limit_and_the_extra_guess(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\n{clue(2)}{presses('A1', 'B1')}dump\n{presses('C1')}dump\n"
    extra, over = play(script, tmp_path)
    assert extra["oled"][:3] == ["Red team guesses", "Red agent", "Guess again"]
    assert extra["game"]["guesses_left"] == 1
    assert over["game"]["turn"] == "blue"
    assert over["game"]["phase"] == "clue"
    assert over["oled"][1:3] == ["Red agent", "Turn over"]


def test_the_guesses_left_line_names_the_extra_guess(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\n{clue(1)}{presses('A1')}wait 3\ndump\n"
    (state,) = play(script, tmp_path)
    assert state["oled"][1:3] == ["Clue: 1", "Extra guess"]


def test_zero_and_unlimited_clues_have_no_limit(tmp_path: Path) -> None:
    for number in (0, "unlimited"):
        script = f"{KEY_LINE}\n{clue(number)}{presses(*RED[:6])}wait 3\ndump\n"
        (state,) = play(script, tmp_path / str(number))
        assert state["game"]["guesses_made"] == 6
        assert state["oled"][2] == "No limit"


def test_done_stops_guessing_but_only_after_a_guess(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\n{clue(2)}button done\ndump\n{presses('A1')}button done\ndump\n"
    refused, stopped = play(script, tmp_path)
    rejected = {"line": 4, "action": "done", "reason": "must-guess-first"}
    assert refused["game"]["rejected"] == [rejected]
    assert refused["oled"][1] == "Guess once first"
    assert stopped["game"]["turn"] == "blue"


def test_a_pad_before_the_clue_tells_the_team_to_wait(tmp_path: Path) -> None:
    (state,) = play(f"{KEY_LINE}\n{presses('A1')}dump\n", tmp_path)
    assert state["game"]["covered"] == {}
    assert state["oled"][1] == "Wait for the clue"


def test_the_penalty_and_its_cover(tmp_path: Path) -> None:
    script = (
        f"{KEY_LINE}\n{clue(2)}{presses('A1')}button penalty 0.3\ndump\n"  # too short: no call
        "button penalty 1.2\ndump\n"
        f"{presses('B1')}button done\ndump\n{presses('E2')}button done\ndump\n"
    )
    short, called, wrong, covered = play(script, tmp_path)
    assert short["game"]["phase"] == "guess"
    assert (called["game"]["phase"], called["game"]["turn"]) == ("penalty_cover", "blue")
    assert called["oled"][0] == "Penalty: blue covers"
    assert wrong["game"]["rejected"][-1]["reason"] == "not-your-word"
    assert covered["game"]["covered"] == {"A1": "red", "E2": "blue"}
    assert (covered["game"]["phase"], covered["game"]["turn"]) == ("clue", "blue")


def test_the_penalty_cover_can_be_skipped_by_announcing_the_clue(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\n{clue(2)}button penalty 1.2\nturn +1\npush\ndump\n"
    (state,) = play(script, tmp_path)
    assert (state["game"]["phase"], state["game"]["turn"], state["game"]["clue"]) == (
        "guess",
        "blue",
        2,
    )


def test_undo_across_a_turn(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\n{clue(2)}{presses('A1', 'C4')}dump\nbutton undo 1.1\ndump\n"
    after_turn, undone = play(script, tmp_path)
    assert after_turn["game"]["turn"] == "blue"
    assert (undone["game"]["turn"], undone["game"]["phase"]) == ("red", "guess")
    assert undone["game"]["covered"] == {"A1": "red"}
    assert undone["oled"][1:3] == ["Undone: C4", "Lift its cover"]


def test_a_short_press_of_a_button_that_must_be_held_only_says_so(tmp_path: Path) -> None:
    script = (
        f"{KEY_LINE}\n{clue(2)}{presses('A1')}button undo 0.5\ndump\n"
        "button new 1.5\ndump\nbutton penalty\ndump\n"
    )
    undo, new, penalty = play(script, tmp_path)
    assert undo["game"]["covered"] == {"A1": "red"}
    assert undo["oled"][1] == "Hold UNDO down"
    assert new["game"] == undo["game"]
    assert new["oled"][1] == "Hold NEW down"
    assert penalty["game"]["phase"] == "guess"
    (spanish,) = play(f"{KEY_LINE}\nbutton penalty\ndump\n", tmp_path / "es", language="es")
    assert spanish["oled"][1] == "Deja PENALTY pulsado"


def test_a_whole_standard_game_to_the_assassin_and_a_new_game(tmp_path: Path) -> None:
    script = (
        f"{KEY_LINE}\n{clue(1)}{presses('E5')}dump\n"
        f"{presses('A1')}dump\nbutton new 1.0\ndump\nbutton new 2.2\ndump\n"
    )
    over, still_over, held_too_short, new = play(script, tmp_path)
    assert (over["game"]["winner"], over["game"]["reason"]) == ("blue", "assassin")
    assert over["oled"][:3] == ["Blue team wins", "Red met the assassin", "Hold NEW: new game"]
    assert still_over["game"]["rejected"][-1]["reason"] == "game-over"
    assert held_too_short["game"]["phase"] == "over"
    assert new["game"]["phase"] == "clue"
    assert new["game"]["key"] != over["game"]["key"]
    assert new["game"]["rejected"] == []


def test_winning_by_covering_all_agents(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\n{clue('unlimited')}{presses(*RED)}dump\n"
    (state,) = play(script, tmp_path)
    assert (state["game"]["winner"], state["game"]["reason"]) == ("red", "agents")
    assert state["oled"][:2] == ["Red team wins", "All agents found"]


def test_a_whole_coop_game_with_covers_and_a_score(tmp_path: Path) -> None:
    config = TableConfig(settings=TableSettings(mode=Mode.COOP))
    script = (
        f"{KEY_LINE}\n{clue(2)}{presses('A1', 'B1', 'C1')}dump\n"
        # C4 is no enemy word; E2 is.
        f"{presses('C4')}button done\ndump\n{presses('E2')}button done\ndump\n"
        f"{clue('unlimited')}{presses(*RED[3:])}dump\n"
    )
    opponent, refused, covered, won = play(script, tmp_path, config=config)
    assert (opponent["game"]["phase"], opponent["game"]["turn"]) == ("enemy_cover", "blue")
    assert opponent["oled"][0] == "Opponent's turn"
    assert refused["game"]["rejected"][-1]["reason"] == "not-enemy-word"
    assert covered["game"]["covered"]["E2"] == "blue"
    assert (won["game"]["winner"], won["game"]["score"]) == ("red", 7)
    assert won["oled"][:3] == ["Mission accomplished", "Score: 7", "Master spies"]


def test_the_readme_script_example_prints_what_the_readme_shows(tmp_path: Path) -> None:
    readme = DEVELOPERS_GUIDE.read_text(encoding="utf-8")
    script = readme.split("<!-- script -->\n```\n", 1)[1].split("```", 1)[0]
    shown = readme.split("prints two lines; the second, shortened here:\n\n```json\n", 1)[1]
    first, second = play(script, tmp_path)
    assert first["game"]["covered"] == {"A1": "red"}
    assert json.dumps(second["oled"], ensure_ascii=False) in shown
    assert json.dumps(second["game"]["covered"]) in shown
    for coord in ("A1", "B1", "C4", "E5", "edge"):
        assert f'"{coord}": "{second["leds"][coord]}"' in shown


def test_turning_the_encoder_shows_the_selector_at_once_over_a_notice(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\n{clue(1)}{presses('C4')}dump\nturn +1\ndump\n"
    notice, dialling = play(script, tmp_path)
    assert notice["oled"][1:3] == ["Bystander", "Turn over"]
    assert dialling["oled"][1:3] == ["Turn, then push", "« 2 »"]
