"""`codenames-table stats`: figures from the saved games, undone actions left out."""

import json
from pathlib import Path

from board_rules.codenames import Game, Mode, parse_action
from firmware.table.store import GameStore, TimedAction

from ..conftest import Cli, CliResult
from ..rules_helpers import KEY

RED = ["A1", "B1", "C1", "D1", "E1", "A2", "B2", "C2", "D2"]


def save_game(store: GameStore, mode: Mode, lines: list[str], minutes: float) -> None:
    game, log = Game(KEY, mode), []
    game_id = store.start_game(KEY, mode)
    for n, line in enumerate(lines):
        action = parse_action(line)
        game.play(action)
        log.append(TimedAction(action, 1000.0 + minutes * 60 * n / max(len(lines) - 1, 1)))
    store.save(game_id, game, log)


def stats(cli: Cli, state_dir: Path, *options: str) -> CliResult:
    return cli("stats", "--state-dir", state_dir, *options)


def test_stats_count_games_wins_endings_lengths_and_scores(tmp_path: Path, cli: Cli) -> None:
    with GameStore(tmp_path) as store:
        # Red wins with one clue and nine guesses, one of them undone and made again.
        save_game(
            store,
            Mode.STANDARD,
            ["clue unlimited", "touch A1", "undo", "touch A1"] + [f"touch {w}" for w in RED[1:]],
            minutes=12,
        )
        # Three clues, then red meets the assassin: blue wins.
        lines = ["clue 1", "touch C4", "clue 2", "touch A3", "done", "clue 1", "touch E5"]
        save_game(store, Mode.STANDARD, lines, minutes=4)
        # Co-op: a win with 7 enemy agents left, then a game still in progress.
        save_game(
            store,
            Mode.COOP,
            ["clue 2", "touch A1", "touch B1", "touch C1", "cover E2", "clue unlimited"]
            + [f"touch {w}" for w in RED[3:]],
            minutes=8,
        )
        save_game(store, Mode.COOP, ["clue 1"], minutes=0)
    result = stats(cli, tmp_path, "--json")
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["games"] == {"standard": 2, "coop": 2}
    assert figures["finished"] == {"standard": 2, "coop": 1}
    assert figures["wins"] == {"red": 1, "blue": 1}
    assert figures["assassin_endings"] == 1
    assert figures["average_minutes"] == 8.0  # 12, 4 and 8 minutes
    assert figures["average_turns"] == round((1 + 3 + 2) / 3, 1)
    # Clues 1 + 3 + 2 + 1 = 7; touches that stand 9 + 3 + 9 = 21.
    assert figures["guesses_per_clue"] == round(21 / 7, 2)
    assert figures["coop"] == {"wins": 1, "losses": 0, "average_score": 7.0, "scores": {"7": 1}}
    # One match, the first: both standard games were won in it.
    (match,) = figures["matches"]
    assert (match["id"], match["games"], match["wins"]) == (1, 2, {"red": 1, "blue": 1})


def test_stats_for_people_name_each_figure(tmp_path: Path, cli: Cli) -> None:
    with GameStore(tmp_path) as store:
        save_game(store, Mode.STANDARD, ["clue 1", "touch E5"], minutes=1)
    result = stats(cli, tmp_path)
    assert result.returncode == 0
    assert "Wins:             red 0, blue 1" in result.stdout
    assert "Assassin endings: 1" in result.stdout
    assert "Matches:          1; the latest, since " in result.stdout
    assert result.stdout.rstrip().endswith("red 0, blue 1")


def test_stats_count_a_damaged_game_as_unreadable_and_go_on(tmp_path: Path, cli: Cli) -> None:
    with GameStore(tmp_path) as store:
        save_game(store, Mode.STANDARD, ["clue 1", "touch E5"], minutes=1)
        save_game(store, Mode.STANDARD, ["clue 1", "touch A1"], minutes=1)
        conn = store._conn
        assert conn is not None
        conn.execute("UPDATE actions SET action = 'touch Z9' WHERE game_id = 2 AND seq = 1")
    result = stats(cli, tmp_path, "--json")
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["unreadable"] == 1
    assert figures["games"]["standard"] == 1


def test_stats_without_saved_games_print_zeros_exit_0_and_create_nothing(
    tmp_path: Path, cli: Cli
) -> None:
    result = stats(cli, tmp_path / "none")
    assert result.returncode == 0, result.stderr
    assert f"Saved games in:   {tmp_path / 'none'}\n" in result.stdout
    assert "Games:            0 (0 standard, 0 co-op), 0 of them finished" in result.stdout
    assert not (tmp_path / "none").exists()


def test_history_and_stats_give_a_game_one_length_from_its_first_clue(
    tmp_path: Path, cli: Cli
) -> None:
    # Started at 0, first clue after 100 s, last action 200 s later: 200 s of play in both.
    with GameStore(tmp_path, wall_clock=lambda: 0.0) as store:
        game = Game(KEY, Mode.STANDARD)
        game_id = store.start_game(KEY, Mode.STANDARD, started_at=1_700_000_000.0)
        log = []
        for at, line in ((100.0, "clue 1"), (150.0, "touch E5"), (300.0, "undo")):
            action = parse_action(line)
            game.play(action)
            log.append(TimedAction(action, 1_700_000_000.0 + at))
        game.play(parse_action("touch E5"))
        log.append(TimedAction(parse_action("touch E5"), 1_700_000_000.0 + 300.0))
        store.save(game_id, game, log)
    [listed] = json.loads(cli("history", "--state-dir", tmp_path, "--json").stdout)
    figures = json.loads(stats(cli, tmp_path, "--json").stdout)
    assert listed["seconds"] == 200
    assert figures["average_minutes"] == round(200 / 60, 1)
    assert figures["state_dir"] == str(tmp_path)
