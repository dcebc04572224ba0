"""`codenames-table update`: the switch waits while a game is in play (read from the table's
store as the table writes it), goes back to the previous version, and switches back when a
version does not start; bad input is one line, exit 2, nothing changed. The whole update under a
real systemd is `make provision-test`'s."""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import pytest

from board_rules.codenames import Game, Key, Mode
from board_rules.codenames.actions import parse_action
from firmware.cli import update
from firmware.cli.main import main
from firmware.errors import UsageError
from firmware.table.store import GameStore, TimedAction

from ..fake_pi_root import run_script
from ..paths import REPO

KEY = Key.parse("RRRRR/RRRRB/BBBBB/BBNNN/NNNNA")  # red starts; the assassin in E5


class Players:
    """A table's store and its clock: the game goes on as the update waits."""

    def __init__(self, state_dir: Path) -> None:
        self.now = 1_000_000.0
        self.store = GameStore(state_dir, wall_clock=lambda: self.now)
        self.game = Game(KEY, Mode.STANDARD)
        self.game_id = self.store.start_game(KEY, Mode.STANDARD)
        self.actions: list[TimedAction] = []
        self.slept: list[float] = []
        self.ended_at: float | None = None

    def play(self, text: str) -> None:
        action = parse_action(text)
        self.game.play(action)
        self.actions.append(TimedAction(action, self.now))
        self.store.save(self.game_id, self.game, self.actions)

    def sleep(self, seconds: float) -> None:
        """The update's poll: time passes; on the third, the assassin ends the game."""
        self.slept.append(seconds)
        self.now += seconds
        if len(self.slept) == 3:
            self.play("touch E5")
            self.ended_at = self.now


def test_the_switch_waits_for_the_game_and_the_minute_undo_keeps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    players = Players(tmp_path)
    players.play("clue 2")
    update.wait_until_quiet(tmp_path, 900.0, clock=lambda: players.now, sleep=players.sleep)
    assert players.ended_at is not None
    assert players.now >= players.ended_at + update.FINISHED_GRACE_S
    assert players.now < players.ended_at + update.FINISHED_GRACE_S + update.POLL_S
    said = capsys.readouterr().out.splitlines()
    assert said[0] == (
        f"codenames-table update: waiting: game {players.game_id} is in play "
        "(its last action 0 s ago)"
    )
    assert said[1].startswith(f"codenames-table update: waiting: game {players.game_id} ended")
    assert said[-1] == "codenames-table update: no game in play"
    assert len(said) == 3


def test_a_game_left_unfinished_stops_holding_the_switch(tmp_path: Path) -> None:
    players = Players(tmp_path)
    players.play("clue 2")
    players.now += 899.0
    assert update.busy_with(update.latest_game(tmp_path), players.now, 900.0) is not None
    players.now += 1.0
    assert update.busy_with(update.latest_game(tmp_path), players.now, 900.0) is None


def test_a_table_without_games_is_quiet(tmp_path: Path) -> None:
    assert update.latest_game(tmp_path) is None

    def no_wait(seconds: float) -> None:
        pytest.fail(f"waited {seconds} s at a table without games")

    update.wait_until_quiet(tmp_path, 900.0, sleep=no_wait)


@pytest.fixture
def versions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """Two installed versions, the newer in service, and systemctl recorded."""
    folders = tmp_path / "opt/codenames-table-versions"
    old, new = folders / "0.1.0-20260101T000000", folders / "0.2.0-20260201T000000"
    for folder in (old, new):
        (folder / "share/codenames-table").mkdir(parents=True)
        unit = folder / "share/codenames-table/codenames-table.service"
        unit.write_text(f"[Service]\n# {folder.name}\n")
    installed_unit = tmp_path / "etc/systemd/system/codenames-table.service"
    installed_unit.parent.mkdir(parents=True)
    shutil.copyfile(new / "share/codenames-table/codenames-table.service", installed_unit)
    monkeypatch.setattr(update, "UNIT", installed_unit)
    current = tmp_path / "opt/codenames-table"
    current.symlink_to(new)
    (folders / "previous").symlink_to(old)
    monkeypatch.setattr(update, "CURRENT", current)
    monkeypatch.setattr(update, "VERSIONS", folders)
    monkeypatch.setattr(update, "PREVIOUS", folders / "previous")
    monkeypatch.setattr("firmware.cli.update.os.geteuid", lambda: 0)
    state = tmp_path / "state"
    state.mkdir()
    monkeypatch.setattr("firmware.cli.state_folder.staff_state_dir", lambda *_: state)
    return {
        "old": old,
        "new": new,
        "current": current,
        "previous": folders / "previous",
        "unit": installed_unit,
    }


def shipped_unit(version: Path) -> str:
    return (version / "share/codenames-table/codenames-table.service").read_text()


def systemctl(monkeypatch: pytest.MonkeyPatch, fails_with: Path | None = None) -> list[Any]:
    """Record systemctl's calls; a restart fails while `fails_with` is in service."""
    calls: list[Any] = []

    def run(command: list[str], check: bool = False) -> subprocess.CompletedProcess[str]:
        in_service = update.CURRENT.resolve()
        calls.append((command, in_service.name))
        failed = command[1] == "restart" and in_service == fails_with
        return subprocess.CompletedProcess(command, 1 if failed else 0)

    monkeypatch.setattr("firmware.cli.update.subprocess.run", run)
    return calls


def test_previous_swaps_the_versions_and_restarts(
    versions: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = systemctl(monkeypatch)
    assert main(["update", "--previous"]) == 0
    assert versions["current"].resolve() == versions["old"]
    assert versions["previous"].resolve() == versions["new"]
    restart = (["systemctl", "restart", "codenames-table"], versions["old"].name)
    assert restart in calls
    assert versions["unit"].read_text() == shipped_unit(versions["old"])
    # And forward again the same way.
    assert main(["update", "--previous"]) == 0
    assert versions["current"].resolve() == versions["new"]
    assert versions["unit"].read_text() == shipped_unit(versions["new"])


def test_a_version_kept_without_its_unit_leaves_the_installed_one(
    versions: dict[str, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    systemctl(monkeypatch)
    (versions["old"] / "share/codenames-table/codenames-table.service").unlink()
    assert main(["update", "--previous"]) == 0
    assert versions["current"].resolve() == versions["old"]
    assert versions["unit"].read_text() == shipped_unit(versions["new"])
    assert f"{versions['old'].name} keeps no unit of its own" in capsys.readouterr().out


def test_a_version_that_does_not_start_is_switched_back(
    versions: dict[str, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = systemctl(monkeypatch, fails_with=versions["old"])
    assert main(["update", "--previous"]) == 1
    assert versions["current"].resolve() == versions["new"]
    assert versions["previous"].resolve() == versions["old"]
    assert calls[-1] == (["systemctl", "restart", "codenames-table"], versions["new"].name)
    assert "did not start" in capsys.readouterr().err
    assert versions["unit"].read_text() == shipped_unit(versions["new"])


def test_previous_without_one_kept_is_refused(
    versions: dict[str, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = systemctl(monkeypatch)
    versions["previous"].unlink()
    assert main(["update", "--previous"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("no previous version is kept in "
                        f"{versions['previous'].parent}: nothing to go back to")  # fmt: skip
    assert len(err.splitlines()) == 1
    assert calls == []
    assert versions["current"].resolve() == versions["new"]


def test_a_source_without_the_install_is_refused(
    versions: dict[str, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = systemctl(monkeypatch)
    monkeypatch.setattr(update, "SOURCE_DIR", versions["current"].parent / "src/codenames-table")
    archive = versions["current"].parent / "other.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        info = tarfile.TarInfo("other/README.md")
        info.size = 2
        tar.addfile(info, io.BytesIO(b"hi"))
    assert main(["update", str(archive)]) == 2
    assert "holds no systemd/install.sh" in capsys.readouterr().err
    assert calls == []
    assert list((versions["current"].parent / "src").iterdir()) == []


def test_update_needs_root(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("firmware.cli.update.os.geteuid", lambda: 1000)
    assert main(["update", "--previous"]) == 2
    assert "run it as root" in capsys.readouterr().err


def test_install_when_idle_needs_its_minutes(tmp_path: Path) -> None:
    bad = run_script(REPO / "systemd/install.sh", "--when-idle", "soon", root=tmp_path)
    assert bad.returncode == 2
    assert bad.stderr.strip().endswith("--when-idle MINUTES")


def test_on_starts_each_tables_update_over_ssh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "codenames-table.tar.gz"
    source.write_bytes(b"not read here")
    calls: list[list[str]] = []

    def run(command: list[str], check: bool = False) -> subprocess.CompletedProcess[str]:
        calls.append(command)
        unreachable = command[0] == "scp" and "table-2.local" in command[-1]
        return subprocess.CompletedProcess(command, 1 if unreachable else 0)

    monkeypatch.setattr("firmware.cli.update.subprocess.run", run)
    hosts = ["--on", "table-1.local", "--on", "table-2.local"]
    assert main(["update", str(source), *hosts]) == 1
    start = "sudo systemd-run --quiet --unit codenames-table-update codenames-table update"
    assert calls == [
        ["scp", "-q", "--", str(source), f"cafe@table-1.local:{update.UPLOADED}"],
        ["ssh", "--", "cafe@table-1.local", f"{start} --idle-minutes 15 {update.UPLOADED}"],
        ["scp", "-q", "--", str(source), f"cafe@table-2.local:{update.UPLOADED}"],
    ]
    out = capsys.readouterr().out
    assert "table-1.local: started" in out and "table-2.local: not started (scp failed)" in out
    calls.clear()
    assert main(["update", "--previous", *hosts[:2]]) == 0
    assert calls == [["ssh", "--", "cafe@table-1.local", f"{start} --idle-minutes 15 --previous"]]


@pytest.mark.parametrize("filters", [True, False], ids=["filters", "python-3.11.2"])
def test_a_source_tar_cannot_write_outside_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, filters: bool
) -> None:
    if not filters:
        monkeypatch.delattr(tarfile, "data_filter")

    def archive(name: str, link: str | None = None) -> Path:
        path = tmp_path / f"{len(list(tmp_path.iterdir()))}.tar.gz"
        with tarfile.open(path, "w:gz") as tar:
            for member in ("src/systemd/install.sh", name):
                info = tarfile.TarInfo(member)
                if member == name and link is not None:
                    info.type, info.linkname = tarfile.SYMTYPE, link
                    tar.addfile(info)
                else:
                    tar.addfile(info, io.BytesIO())
        return path

    into = tmp_path / "into"
    for bad in (archive("../evil"), archive("src/up", "../../etc"), archive("src/abs", "/etc")):
        into.mkdir()
        with pytest.raises(UsageError, match=r"not a source folder or \.tar\.gz"):
            update._unpacked(bad, into)
        assert not (tmp_path / "evil").exists()
        shutil.rmtree(into)
    into.mkdir()
    good = update._unpacked(archive("src/drivers/pinout.toml", "../systemd/install.sh"), into)
    assert good == into / "src"
    assert (good / "drivers/pinout.toml").resolve() == (good / "systemd/install.sh").resolve()
