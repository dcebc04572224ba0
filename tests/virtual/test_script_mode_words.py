"""Headless scripts: the `mode` line of the first game, the words of each dump, `--words`."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from board_rules.codenames import ALL_COORDS, Mode
from firmware.table.config import TableConfig
from firmware.table.screens import seconds_text
from firmware.table.settings import TableSettings
from firmware.table.words import language_words
from firmware.virtual.script import ScriptError, parse_script

from ..conftest import Cli
from ..paths import DEVELOPERS_GUIDE
from ..table_scripts import KEY_LINE, play

NEW_GAME = "button new 2.5\n"
"""Hold NEW past its hold time: the next game."""


def test_a_mode_line_before_the_first_step_sets_the_mode_of_the_first_game() -> None:
    assert parse_script(f"mode coop\n{KEY_LINE}\ndump\n").mode is Mode.COOP
    assert parse_script(f"{KEY_LINE}\n# a note\nMode Standard\ndump\n").mode is Mode.STANDARD
    assert parse_script("dump\n").mode is None  # the menu's mode applies


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("push\nmode coop\n", 2, "mode must come before the first step"),
        ("push\n" + KEY_LINE + "\n", 2, "key must come before the first step"),
        ("mode coop\nmode standard\n", 2, "the mode is given twice"),
        (f"{KEY_LINE}\n{KEY_LINE}\n", 2, "the key is given twice"),
        ("mode solo\n", 1, "unknown mode: expected standard or coop"),
    ],
)
def test_a_misplaced_repeated_or_unknown_mode_is_refused_with_its_line(
    text: str, line: int, message: str
) -> None:
    with pytest.raises(ScriptError) as caught:
        parse_script(text)
    assert (caught.value.line, caught.value.message) == (line, message)


def test_the_mode_applies_to_the_first_game_and_the_next_takes_the_menus(tmp_path: Path) -> None:
    first, second = play(f"mode coop\n{KEY_LINE}\ndump\n{NEW_GAME}dump\n", tmp_path)
    assert first["game"]["mode"] == "coop"
    assert first["game"]["key"] == KEY_LINE.split()[1]
    assert second["game"]["mode"] == "standard"
    assert second["game"]["key"] != first["game"]["key"]


def test_each_dump_has_the_words_on_the_cards_until_a_new_game(tmp_path: Path) -> None:
    before, after_cut, new = play(
        f"{KEY_LINE}\npush\npress A1\ndump\npower-cut\ndump\n{NEW_GAME}dump\n", tmp_path
    )
    assert list(before["words"]) == [str(coord) for coord in ALL_COORDS]
    assert len(set(before["words"].values())) == len(ALL_COORDS)
    assert set(before["words"].values()) <= set(language_words("en"))
    assert after_cut["words"] == before["words"]  # the same game, resumed
    assert new["words"] != before["words"]


def test_a_resumed_game_keeps_its_words_when_the_language_changed(tmp_path: Path) -> None:
    (english,) = play(f"{KEY_LINE}\npush\npress A1\ndump\n", tmp_path)
    resumed, new = play(f"dump\n{NEW_GAME}dump\n", tmp_path, language="es")
    assert resumed["oled"][0] != english["oled"][0]  # the screen speaks Spanish at once
    assert resumed["game"]["covered"] == {"A1": "red"}
    assert resumed["words"] == english["words"]
    assert set(new["words"].values()) <= set(language_words("es"))


def test_words_deals_from_a_custom_list_and_a_short_one_exits_2(tmp_path: Path, cli: Cli) -> None:
    script = tmp_path / "game.txt"
    script.write_text(f"mode coop\n{KEY_LINE}\ndump\n", "utf-8")
    custom = [f"CUSTOM{n}" for n in range(30)]
    words = tmp_path / "words.txt"
    words.write_text("\n".join(custom) + "\n", "utf-8")
    code, out, err = cli("sim", "--headless", "--script", script, "--words", words)
    assert (code, err) == (0, "")
    dump = json.loads(out)
    assert dump["game"]["mode"] == "coop"
    assert set(dump["words"].values()) <= set(custom)
    words.write_text("ONE\nTWO\n", "utf-8")
    assert cli("sim", "--headless", "--script", script, "--words", words) == (
        2,
        "",
        f"codenames-table sim: the word list {words} has 2 distinct words; a game needs 25\n",
    )


def test_the_readme_example_shows_the_words_the_script_deals(tmp_path: Path) -> None:
    readme = DEVELOPERS_GUIDE.read_text(encoding="utf-8")
    script = readme.split("<!-- script -->\n```\n", 1)[1].split("```", 1)[0]
    shown = readme.split("prints two lines; the second, shortened here:\n\n```json\n", 1)[1]
    second = play(script, tmp_path)[1]
    for coord in ("A1", "B1", "C1", "D1"):
        assert f'"{coord}": "{second["words"][coord]}"' in shown


def test_a_dump_carries_the_sand_timer_s_seconds_as_the_screen_shows_them(
    tmp_path: Path,
) -> None:
    script = f"{KEY_LINE}\nbutton timer\nwait 15\ndump\nwait 20\ndump\n"
    timer_s = 60
    config = replace(TableConfig(), settings=TableSettings(timer_s=timer_s))
    first, later = play(script, tmp_path, config=config)
    # The press itself and the scan take a moment: the seconds shown are those left, rounded up.
    assert first["oled"][-1] == seconds_text(timer_s - 15)
    assert later["oled"][-1] == seconds_text(timer_s - 35)
