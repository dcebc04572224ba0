"""`codenames-table history` and `export`: the saved games listed, one written as a transcript
that `replay` plays back to the saved state; where the staff commands find the games."""

import json
import os
import pwd
from datetime import datetime
from pathlib import Path

import pytest

from board_rules.codenames import Game, Mode, parse_action
from firmware.cli.state_folder import default_state_dir, staff_state_dir
from firmware.table.store import GameStore, TimedAction

from ..conftest import Cli, CliResult
from ..rules_helpers import KEY
from ..table_scripts import KEY_LINE, clue, play

START = 1_700_000_000.0
# Undo and a penalty, then red meets the assassin: blue wins.
FINISHED = [
    *("clue 1", "touch C4", "undo", "touch A1", "done"),
    *("clue 2", "penalty", "clue 1", "touch E5"),
]


def save_game(store: GameStore, mode: Mode, lines: list[str], start: float = START) -> int:
    game, log = Game(KEY, mode), []
    game_id = store.start_game(KEY, mode, started_at=start)
    for n, line in enumerate(lines):
        action = parse_action(line)
        game.play(action)
        log.append(TimedAction(action, start + 30.0 * (n + 1)))
    store.save(game_id, game, log)
    return game_id


def test_history_lists_the_games_newest_first_with_their_state(tmp_path: Path, cli: Cli) -> None:
    with GameStore(tmp_path) as store:
        first = save_game(store, Mode.STANDARD, FINISHED)
        second = save_game(store, Mode.COOP, ["clue 1"], start=START + 3600)
    result = cli("history", "--state-dir", tmp_path, "--json")
    assert result.returncode == 0, result.stderr
    games = json.loads(result.stdout)
    assert [game["id"] for game in games] == [second, first]
    newest, oldest = games
    assert (newest["mode"], newest["phase"], newest["winner"], newest["actions"]) == (
        "coop",
        "guess",
        None,
        1,
    )
    assert (oldest["phase"], oldest["winner"], oldest["reason"]) == ("over", "blue", "assassin")
    assert oldest["actions"] == len(FINISHED)
    # From the first clue (30 s after the start) to the last action: the table waiting for the
    # first clue is not the game.
    assert oldest["seconds"] == 30 * (len(FINISHED) - 1)
    assert newest["match"] == oldest["match"] == 1
    # ISO 8601 in local time, with its offset.
    assert datetime.fromisoformat(oldest["started_at"]).timestamp() == START
    assert (
        json.loads(cli("history", "--state-dir", tmp_path, "--json", "--limit", "1").stdout)[0][
            "id"
        ]
        == second
    )


def test_history_for_people_says_who_won_and_what_is_in_play(tmp_path: Path, cli: Cli) -> None:
    with GameStore(tmp_path) as store:
        save_game(store, Mode.STANDARD, FINISHED)
        save_game(store, Mode.COOP, ["clue 1"])
    lines = cli("history", "--state-dir", tmp_path).stdout.splitlines()
    assert lines[0].split() == ["ID", "Started", "Mode", "State", "Actions", "Length", "Match"]
    assert "co-op" in lines[1] and "in play" in lines[1]
    assert "blue won (assassin)" in lines[2] and "4:00" in lines[2]
    assert lines[1].split()[-1] == lines[2].split()[-1] == "1"  # both in the first match


def test_no_saved_games_is_an_empty_record_and_exit_0(tmp_path: Path, cli: Cli) -> None:
    folder = tmp_path / "none"
    assert json.loads(cli("history", "--state-dir", folder, "--json").stdout) == []
    assert "No saved games" in cli("history", "--state-dir", folder).stdout
    stats = cli("stats", "--state-dir", folder, "--json")
    assert stats.returncode == 0, stats.stderr
    assert json.loads(stats.stdout)["games"] == {"standard": 0, "coop": 0}
    assert not folder.exists()  # nothing created


def test_a_bad_limit_exits_2(tmp_path: Path, cli: Cli) -> None:
    result = cli("history", "--state-dir", tmp_path, "--limit", "0")
    assert result.returncode == 2
    assert "--limit" in result.stderr


def test_export_of_a_finished_game_replays_to_its_saved_state(tmp_path: Path, cli: Cli) -> None:
    with GameStore(tmp_path) as store:
        game_id = save_game(store, Mode.STANDARD, FINISHED)
        saved = store.game(game_id).replay().state
        # A game is played after it: UNDO can no longer bring it back.
        save_game(store, Mode.STANDARD, ["clue 1"])
    exported = cli("export", str(game_id), "--state-dir", tmp_path)
    assert exported.returncode == 0, exported.stderr
    assert f"key {KEY}" in exported.stdout.splitlines()
    lines = [line for line in exported.stdout.splitlines() if "#" in line and line[0] != "#"]
    assert [line.split("#")[0].strip() for line in lines] == FINISHED
    assert all(line.split("# ")[1].count(":") == 2 for line in lines)  # the time of each
    replayed = cli("replay", "-", stdin=exported.stdout.encode())
    assert json.loads(replayed.stdout) == {**saved.to_dict(), "rejected": []}


def test_a_game_in_play_is_exported_only_with_its_key_asked_for(tmp_path: Path, cli: Cli) -> None:
    with GameStore(tmp_path) as store:
        game_id = save_game(store, Mode.COOP, ["clue 2", "touch A1"])
    refused = cli("export", str(game_id), "--state-dir", tmp_path)
    assert refused.returncode == 2 and refused.stdout == ""
    assert "still in play" in refused.stderr and "--with-key" in refused.stderr
    exported = cli("export", str(game_id), "--state-dir", tmp_path, "--with-key")
    assert exported.returncode == 0
    replayed = json.loads(cli("replay", "-", stdin=exported.stdout.encode()).stdout)
    assert (replayed["mode"], replayed["phase"], replayed["covered"]) == (
        "coop",
        "guess",
        {"A1": "red"},
    )


def test_a_finished_game_that_undo_can_bring_back_keeps_its_key(tmp_path: Path, cli: Cli) -> None:
    def export() -> CliResult:
        return cli("export", str(finished), "--state-dir", tmp_path)

    with GameStore(tmp_path) as store:
        finished = save_game(store, Mode.STANDARD, FINISHED)
        # The latest game: UNDO takes back its last touch.
        assert export().returncode == 2
        assert "UNDO" in export().stderr and f"key {KEY}" not in export().stdout
        # NEW dealt a game and nothing stands in it: UNDO takes back the NEW.
        dealt = save_game(store, Mode.STANDARD, [])
        assert export().returncode == 2
        # Or an action was played in it and taken back.
        store.discard_game(dealt)
        dealt = save_game(store, Mode.STANDARD, ["clue 1", "undo"])
        assert export().returncode == 2
        store.discard_game(dealt)
        # Once an action stands in the next game, the finished game is history.
        save_game(store, Mode.STANDARD, ["clue 1"])
    exported = export()
    assert exported.returncode == 0 and f"key {KEY}" in exported.stdout


def test_the_finished_game_export_refuses_is_the_one_undo_brings_back(
    tmp_path: Path, cli: Cli
) -> None:
    lost = play(f"{KEY_LINE}\n{clue(1)}press E5\ndump\n", tmp_path)  # red meets the assassin
    assert lost[-1]["game"]["phase"] == "over"
    refused = cli("export", "1", "--state-dir", tmp_path)
    assert refused.returncode == 2 and refused.stdout == ""
    back = play("button undo 1.1\ndump\n", tmp_path)
    assert back[-1]["game"]["phase"] == "guess"


def test_export_of_a_game_not_saved_exits_2(tmp_path: Path, cli: Cli) -> None:
    with GameStore(tmp_path) as store:
        save_game(store, Mode.STANDARD, FINISHED)
    for folder in (tmp_path, tmp_path / "none"):
        result = cli("export", "7", "--state-dir", folder)
        assert result.returncode == 2
        assert "no saved game 7" in result.stderr


def test_on_a_desktop_the_staff_commands_read_the_simulations_folder(
    tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with GameStore(default_state_dir()) as store:
        save_game(store, Mode.STANDARD, FINISHED)
    assert staff_state_dir(None, None) == tmp_path / "codenames-table"
    assert len(json.loads(cli("history", "--json").stdout)) == 1
    assert json.loads(cli("stats", "--json").stdout)["wins"]["blue"] == 1
    # --state-dir always wins.
    assert json.loads(cli("history", "--json", "--state-dir", tmp_path / "other").stdout) == []


def test_on_a_pi_the_staff_commands_read_the_services_folder(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_text("Raspberry Pi 4 Model B Rev 1.5\0", encoding="ascii")
    config = tmp_path / "config.toml"
    config.write_text(f'[table]\nstate_dir = "{tmp_path / "games"}"\n', encoding="utf-8")
    assert staff_state_dir(None, None, model) == Path("/var/lib/codenames-table")
    assert staff_state_dir(None, config, model) == tmp_path / "games"
    assert staff_state_dir(tmp_path / "mine", config, model) == tmp_path / "mine"
    # A config named on the command line is read on any machine.
    assert staff_state_dir(None, config) == tmp_path / "games"


def as_staff(tmp_path: Path, cli: Cli, *argv: str | Path) -> CliResult:
    """The command as a staff login runs it: when the tests run as root (who reads any folder),
    with the effective user and group of the unprivileged user nobody for its length."""
    if os.geteuid() != 0:
        return cli(*argv)
    tmp_path.chmod(0o755)  # for nobody, on the way to the folder
    nobody = pwd.getpwnam("nobody")
    os.setegid(nobody.pw_gid)
    os.seteuid(nobody.pw_uid)
    try:
        return cli(*argv)
    finally:
        os.seteuid(0)
        os.setegid(0)


def test_the_services_folder_read_by_a_staff_login_says_to_use_sudo(
    tmp_path: Path, cli: Cli
) -> None:
    with GameStore(tmp_path / "games") as store:
        save_game(store, Mode.STANDARD, FINISHED)
    (tmp_path / "games").chmod(0o700)  # as StateDirectoryMode= makes it
    result = as_staff(tmp_path, cli, "history", "--state-dir", tmp_path / "games")
    assert result.returncode == 2
    assert result.stderr.startswith("codenames-table history: cannot read the saved games in ")
    assert "run it with sudo" in result.stderr and result.stdout == ""
    # A folder open to all, the database still private (mode 0600): the same.
    (tmp_path / "games").chmod(0o755)
    result = as_staff(tmp_path, cli, "stats", "--state-dir", tmp_path / "games")
    assert result.returncode == 2
    assert "run it with sudo" in result.stderr and result.stdout == ""


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give the folder to another user")
def test_a_read_with_sudo_leaves_every_file_to_the_service_user(tmp_path: Path, cli: Cli) -> None:
    folder = tmp_path / "games"
    with GameStore(folder) as store:
        save_game(store, Mode.STANDARD, FINISHED)
        save_game(store, Mode.STANDARD, ["clue 1"])
    nobody = pwd.getpwnam("nobody")
    for path in (folder, *folder.iterdir()):
        os.chown(path, nobody.pw_uid, nobody.pw_gid)
    assert cli("history", "--state-dir", folder).returncode == 0
    assert cli("export", "1", "--state-dir", folder).returncode == 0
    # SQLite gives the -shm and -wal it makes to the database's owner: the service can go on.
    assert {path.stat().st_uid for path in folder.iterdir()} == {nobody.pw_uid}


def test_version(cli: Cli) -> None:
    result = cli("--version")
    assert result.returncode == 0
    assert result.stdout.startswith("codenames-table ") and result.stdout.strip()[-1].isdigit()
