"""`codenames-table coda`: the headless mode plays computer-only games and prints the wins;
the on-screen game opens with the options given; bad options exit 2 with a message naming
what is wrong."""

from __future__ import annotations

import gc
import json
import random
from collections.abc import Iterator

import pytest
from textual.app import App

import firmware.cli.coda as coda_command
from board_rules.coda import Level, Stop
from firmware.cli.coda import COLLECT_AFTER, Timed, build_app, settle_garbage_collector
from firmware.cli.main import build_parser
from firmware.cli.rate_interval import rate_interval
from firmware.coda.app import CodaApp
from firmware.coda.texts import ITALIAN

from ..conftest import Cli, CliResult


@pytest.fixture(autouse=True)
def _unfrozen() -> Iterator[None]:
    # A headless run freezes what lives after each game (`settle_garbage_collector`); this
    # fixture undoes that, so that later tests' garbage is collected as usual.
    yield
    gc.unfreeze()


def run(cli: Cli, *argv: str) -> CliResult:
    return cli("coda", *argv)


def test_headless_prints_the_games_and_the_wins_of_each_player(
    cli: Cli,
) -> None:
    code, out, err = run(
        cli, "--headless", "--players", "hard,random", "--games", "20", "--seed", "1"
    )
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert list(result) == ["games", "seed", "wins", "seats", "rates"]
    assert result["games"] == 20 and len(result["wins"]) == 2 and sum(result["wins"]) == 20
    assert result["wins"][0] >= 18 and sum(result["seats"]) == 20
    rate, low, high = result["rates"][0]
    assert rate == 100 * result["wins"][0] / 20 and low < rate <= high <= 100


def test_win_rates_carry_the_95_percent_wilson_interval() -> None:
    # Worked figures: 634 of 2,000 (31.70 %, 29.70–33.77 by the Wilson score formula), and the
    # ends, where the interval stays inside 0–100 and still has a width.
    assert rate_interval(634, 2000) == [31.7, 29.7, 33.8]
    assert rate_interval(0, 20) == [0.0, 0.0, 16.1]
    assert rate_interval(20, 20) == [100.0, 83.9, 100.0]


def test_a_run_without_a_seed_prints_the_seed_that_repeats_it(cli: Cli) -> None:
    argv = ("--headless", "--players", "hard,easy", "--games", "3")
    code, out, _ = run(cli, *argv)
    first = json.loads(out)
    assert code == 0 and isinstance(first["seed"], int)
    _, again, _ = run(cli, *argv, "--seed", str(first["seed"]))
    assert json.loads(again) == first


def test_rotate_lets_each_player_start_in_turn_and_seats_count_wins_by_place(cli: Cli) -> None:
    # Four random players, the starter rotating: each seat is played by each player as often.
    argv = ("--headless", "--players", "random,random,random,hard", "--seed", "4")
    code, out, _ = run(cli, *argv, "--games", "8", "--rotate")
    rotated = json.loads(out)
    assert code == 0 and sum(rotated["seats"]) == 8 and rotated["seats"][0] < 6
    # Without --rotate the winner starts the next game: hard, which wins nearly every game,
    # is then the starter, so the starter's seat takes the wins.
    _, out, _ = run(cli, *argv, "--games", "8")
    assert json.loads(out)["seats"][0] >= 6


def test_timing_reports_each_players_slowest_decision(cli: Cli) -> None:
    code, out, _ = run(
        cli, "--headless", "--players", "expert,hard,easy", "--games", "2", "--timing"
    )
    result = json.loads(out)
    slowest, p99 = result["slowest_ms"], result["p99_ms"]
    assert code == 0 and len(slowest) == len(p99) == 3
    assert all(isinstance(ms, float) and ms > 0 for ms in slowest)
    assert all(0 < fast <= slow for fast, slow in zip(p99, slowest, strict=True))


def test_coda_collects_garbage_after_more_allocations_than_python_s_default(cli: Cli) -> None:
    before = gc.get_threshold()
    try:
        gc.set_threshold(700)
        code, _, err = run(cli, "--headless", "--players", "hard,hard", "--games", "1")
        assert (code, err) == (0, "")
        assert gc.get_threshold() == (COLLECT_AFTER, *before[1:])
    finally:
        gc.set_threshold(*before)


def test_coda_settles_the_garbage_collector_after_each_game_outside_the_decisions(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    settled: list[int] = []
    monkeypatch.setattr(coda_command, "settle_garbage_collector", lambda: settled.append(1))
    code, _, err = run(cli, "--headless", "--players", "hard,hard", "--games", "3")
    assert (code, err) == (0, "") and len(settled) == 3


def test_settling_leaves_what_lives_out_of_later_collections() -> None:
    try:
        settle_garbage_collector()
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_timed_keeps_the_slowest_decision_by_its_clock() -> None:
    ticks = iter([0.0, 0.5, 1.0, 1.2, 2.0, 4.0])
    timed = Timed(lambda view, rng: Stop(), lambda: next(ticks))
    for _ in range(3):
        timed(None, random.Random(0))  # type: ignore[arg-type]
    assert timed.slowest == 2.0 and timed.times == pytest.approx([0.5, 0.2, 2.0])
    assert timed.percentile(50) == pytest.approx(0.5)


def test_the_same_seed_plays_the_same_games(cli: Cli) -> None:
    argv = ("--headless", "--players", "easy,random,hard", "--games", "4", "--seed", "9")
    assert run(cli, *argv) == run(cli, *argv)


@pytest.mark.parametrize("players", ["easy,hard,random", "random,random,easy,hard"])
def test_headless_takes_two_to_four_players_of_any_level(cli: Cli, players: str) -> None:
    code, out, _ = run(cli, "--headless", "--players", players, "--games", "3", "--seed", "2")
    wins = json.loads(out)["wins"]
    assert code == 0 and len(wins) == players.count(",") + 1 and sum(wins) == 3


def test_headless_plays_the_advanced_game(cli: Cli) -> None:
    code, out, _ = run(
        cli, "--headless", "--advanced", "--players", "hard,easy", "--games", "2", "--seed", "3"
    )
    assert code == 0 and sum(json.loads(out)["wins"]) == 2


def test_without_headless_the_on_screen_game_runs_with_the_options_given(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Textual's own `run` would take the terminal: the test only records what it was given.
    ran: list[CodaApp] = []
    monkeypatch.setattr(App, "run", lambda self, *a, **k: ran.append(self))
    argv = ("--opponents", "easy, HARD", "--advanced", "--lang", "it", "--seed", "4")
    code, out, err = run(cli, *argv)
    assert (code, out, err) == (0, "", "")
    (app,) = ran
    assert app.game.levels == (Level.EASY, Level.HARD) and app.game.players == 3
    assert app.game.advanced and app.game.state.advanced
    assert app.texts is ITALIAN and app.game.delay_s > 0
    # The seed deals: the same seed, the same game.
    again = build_app(build_parser().parse_args(["coda", *argv]))
    assert again.game.state == app.game.state


def test_the_on_screen_game_offers_the_expert_opponent() -> None:
    app = build_app(build_parser().parse_args(["coda", "--opponents", "expert,hard"]))
    assert app.game.levels == (Level.EXPERT, Level.HARD) and not app.game.rotate


def test_the_on_screen_game_rotates_the_starter_with_rotate() -> None:
    assert build_app(build_parser().parse_args(["coda", "--rotate"])).game.rotate


def test_the_on_screen_game_asks_the_person_for_a_seat() -> None:
    assert build_app(build_parser().parse_args(["coda"])).asks_seat


def test_the_on_screen_game_plays_the_time_rule_with_timer(cli: Cli) -> None:
    assert build_app(build_parser().parse_args(["coda", "--timer"])).game.time_rule
    assert not build_app(build_parser().parse_args(["coda"])).game.time_rule
    code, _, err = run(cli, "--headless", "--players", "hard,easy", "--timer")
    assert code == 2 and "--timer is for the on-screen game" in err


def test_the_on_screen_game_defaults_to_one_easy_opponent_in_the_basic_game() -> None:
    app = build_app(build_parser().parse_args(["coda"]))
    assert app.game.levels == (Level.EASY,) and not app.game.advanced
    assert app.texts["you"] == "You"


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--opponents", "easy,wizard"], "--opponents: unknown level 'wizard'"),
        (["--opponents", "random"], "--opponents: unknown level 'random'"),
        (["--opponents", ""], "--opponents: 1 to 3 opponents, not 0"),
        (["--opponents", "easy,easy,hard,hard"], "--opponents: 1 to 3 opponents, not 4"),
        (["--players", "hard,easy"], "--players, --games and --timing need --headless"),
        (["--games", "3"], "--players, --games and --timing need --headless"),
        (["--timing"], "--players, --games and --timing need --headless"),
    ],
)
def test_bad_on_screen_options_exit_2_naming_the_option(
    cli: Cli, argv: list[str], named: str
) -> None:
    code, out, err = run(cli, *argv)
    assert (code, out) == (2, "")
    assert err.startswith(f"codenames-table coda: {named}")


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--players", "hard,wizard"], "--players"),
        (["--players", "hard"], "--players"),
        (["--players", "hard,easy,random,easy,hard"], "--players"),
        ([], "--players"),
        (["--players", "hard,random", "--games", "0"], "--games"),
        (["--players", "hard,random", "--games", "-3"], "--games"),
        # A run that would never end is refused before the first game.
        (["--players", "hard,random", "--games", "10001"], "--games must be 1 to 10000"),
        (["--players", "hard,random", "--games", "9" * 40], "--games must be 1 to 10000"),
    ],
)
def test_bad_options_exit_2_naming_the_option(cli: Cli, argv: list[str], named: str) -> None:
    code, out, err = run(cli, "--headless", *argv)
    assert (code, out) == (2, "")
    assert named in err
