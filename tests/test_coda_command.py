"""`codenames-table coda`: the headless mode plays computer-only games and prints the wins;
the on-screen game and bad options exit 2 with a message naming what is wrong."""

from __future__ import annotations

import json

import pytest

from firmware.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["coda", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_headless_prints_the_games_and_the_wins_of_each_player(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(
        capsys, "--headless", "--players", "hard,random", "--games", "20", "--seed", "1"
    )
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert list(result) == ["games", "wins"]
    assert result["games"] == 20 and len(result["wins"]) == 2 and sum(result["wins"]) == 20
    assert result["wins"][0] >= 18


def test_the_same_seed_plays_the_same_games(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("--headless", "--players", "easy,random,hard", "--games", "4", "--seed", "9")
    assert run(capsys, *argv) == run(capsys, *argv)


@pytest.mark.parametrize("players", ["easy,hard,random", "random,random,easy,hard"])
def test_headless_takes_two_to_four_players_of_any_level(
    capsys: pytest.CaptureFixture[str], players: str
) -> None:
    code, out, _ = run(capsys, "--headless", "--players", players, "--games", "3", "--seed", "2")
    wins = json.loads(out)["wins"]
    assert code == 0 and len(wins) == players.count(",") + 1 and sum(wins) == 3


def test_headless_plays_the_advanced_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "--headless", "--advanced", "--players", "hard,easy", "--games", "2", "--seed", "3"
    )
    assert code == 0 and sum(json.loads(out)["wins"]) == 2


def test_without_headless_the_on_screen_game_is_not_built_yet(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys)
    assert (code, out) == (2, "")
    assert "not built yet" in err and "--headless" in err


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--players", "hard,expert"], "--players"),
        (["--players", "hard"], "--players"),
        (["--players", "hard,easy,random,easy,hard"], "--players"),
        ([], "--players"),
        (["--players", "hard,random", "--games", "0"], "--games"),
        (["--players", "hard,random", "--games", "-3"], "--games"),
    ],
)
def test_bad_options_exit_2_naming_the_option(
    capsys: pytest.CaptureFixture[str], argv: list[str], named: str
) -> None:
    code, out, err = run(capsys, "--headless", *argv)
    assert (code, out) == (2, "")
    assert named in err
