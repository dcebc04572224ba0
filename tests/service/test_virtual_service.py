"""`codenames-table run --virtual [SCRIPT]`: the service on virtual hardware and the real clock.

The player is tested on a virtual clock (its pauses step it); the command itself once, end to
end, as systemd would run it: a real notify socket, READY=1, the script played, SIGTERM, and a
second start that resumes the game.
"""

from __future__ import annotations

import json
import logging
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from board_rules.codenames import Coord
from firmware.cli.main import main
from firmware.drivers.clock import VirtualClock
from firmware.errors import EXIT_USAGE
from firmware.service.state_dir import StateDirError, check_service_state_dir
from firmware.service.virtual_service import (
    LOOK_AGAIN_S,
    RealTimePlayer,
    game_line,
    read_play_script,
)
from firmware.table.config import TableConfig
from firmware.virtual.script import ScriptError, parse_script
from firmware.virtual.table import VirtualTable

from ..key_traces import key_traces
from ..paths import REPO
from ..rules_helpers import KEY
from ..table_scripts import KEY_LINE

PLAY = f"{KEY_LINE}\nturn +1\npush\npress A1\nbutton done\ndump\n"
"""A clue of 2, a red agent touched, then DONE: three confirmed actions."""
RECEIVE_TIMEOUT_S = 20.0
"""Upper bound of each wait for the command (a Python start, then a script of about a second)."""


class Stepper:
    """The player's time on a virtual table: each pause steps its clock, and is noted."""

    def __init__(self, table: VirtualTable, stop_after: int | None = None) -> None:
        self.table = table
        self.stop_after = stop_after
        self.pauses: list[float] = []

    def pause(self, seconds: float) -> bool:
        self.pauses.append(seconds)
        self.table.wait(seconds)
        return self.stop_after is not None and len(self.pauses) >= self.stop_after


def test_the_player_plays_a_script_as_a_person_would(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    script = parse_script(PLAY)
    with VirtualTable(TableConfig(), tmp_path, rng=random.Random(1), first_key=script.key) as vt:
        time = Stepper(vt)
        with caplog.at_level(logging.INFO, logger="firmware.service.virtual_service"):
            assert RealTimePlayer(vt, time.pause).play(script.steps)
        state = vt.table.state
        assert state.covered == frozenset({Coord.parse("A1")})
        assert state.turn.value == "blue"  # DONE ended red's turn
        assert len(vt.table.game.applied) == 3
        # Each press is held for its time, then the player looks until the game has it.
        assert 0.1 in time.pauses and LOOK_AGAIN_S in time.pauses
        dumped = [r.getMessage() for r in caplog.records if r.getMessage().startswith("dump: ")]
        assert dumped == [f"dump: {game_line(vt)}"]
        logged = "\n".join(r.getMessage() for r in caplog.records)
    assert json.loads(dumped[0].removeprefix("dump: "))["actions"] == 3
    # The dump says what anyone at the table sees: the covered card's identity, never the key.
    assert json.loads(dumped[0].removeprefix("dump: "))["game"]["covered"] == {"A1": "red"}
    assert key_traces(logged, KEY, covered=state.covered) == []


class LateGame(Stepper):
    """A game thread that falls behind: during the first `late` pauses the clock runs (the
    switches are scanned, their events queued) but no event is handled."""

    def __init__(self, table: VirtualTable, late: int) -> None:
        super().__init__(table)
        assert isinstance(table.clock, VirtualClock)
        self.clock = table.clock
        self.late = late

    def pause(self, seconds: float) -> bool:
        if len(self.pauses) >= self.late:
            return super().pause(seconds)
        self.pauses.append(seconds)
        self.clock.advance(seconds)
        return False


def test_the_player_reads_the_game_only_once_the_game_has_taken_every_input(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    script = parse_script(PLAY)
    late = 400  # two seconds of looking: far longer than any fixed pause after a release
    with VirtualTable(TableConfig(), tmp_path, rng=random.Random(1), first_key=script.key) as vt:
        time = LateGame(vt, late)
        with caplog.at_level(logging.INFO, logger="firmware.service.virtual_service"):
            assert RealTimePlayer(vt, time.pause).play(script.steps)
        assert len(time.pauses) > late  # it waited for the game, however long it took
        dumped = [r.getMessage() for r in caplog.records if r.getMessage().startswith("dump: ")]
    assert len(dumped) == 1
    assert json.loads(dumped[0].removeprefix("dump: "))["actions"] == 3


def test_a_player_told_to_stop_lets_go_of_the_pad_it_holds(tmp_path: Path) -> None:
    steps = parse_script("press A1 5\npress B1\n").steps
    with VirtualTable(TableConfig(), tmp_path, rng=random.Random(1)) as vt:
        time = Stepper(vt, stop_after=1)  # told to stop during the first hold
        assert not RealTimePlayer(vt, time.pause).play(steps)
        vt.wait(1)
        assert vt.circuit.pressed == frozenset()
        assert time.pauses == [5.0]  # and B1 was never pressed


def test_a_script_for_the_real_clock_cannot_cut_the_power(tmp_path: Path) -> None:
    script = tmp_path / "play.txt"
    script.write_text("press A1\npower-cut\n", encoding="utf-8")
    with pytest.raises(ScriptError) as error:
        read_play_script(script)
    assert error.value.line == 2
    assert "kill the process" in error.value.message
    # A player handed one anyway (its steps not read by `read_play_script`) names it too.
    steps = parse_script("press A1\npower-cut\n").steps
    with (
        VirtualTable(TableConfig(), tmp_path / "state", rng=random.Random(1)) as vt,
        pytest.raises(ScriptError) as error,
    ):
        RealTimePlayer(vt, Stepper(vt).pause).play(steps)
    assert error.value.located("play.txt") == (
        "play.txt:2: power-cut cannot be played on the real clock"
    )


def _lasting_parent() -> Path:
    """A folder whose games `run` accepts (not under /tmp and the like, which it refuses: their
    games would not outlive a reboot): the checkout's ignored cache, or the user's cache when the
    checkout itself lies in such a folder."""
    for candidate in (REPO / ".cache", Path.home() / ".cache" / "codenames-table-tests"):
        try:
            check_service_state_dir(candidate)
        except StateDirError:
            continue
        candidate.mkdir(parents=True, exist_ok=True)
        return candidate
    pytest.fail("no folder outside /tmp, /var/tmp, /run and /dev/shm to keep test games in")


@pytest.fixture
def state_dir() -> Iterator[Path]:
    """A fresh state folder that `run` accepts, removed after the test."""
    folder = Path(tempfile.mkdtemp(prefix="test-virtual-service-", dir=_lasting_parent()))
    yield folder / "state"
    shutil.rmtree(folder)


def test_run_virtual_with_a_bad_script_exits_2_naming_its_line(
    state_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = state_dir.parent / "play.txt"
    script.write_text("press A1\njump\n", encoding="utf-8")
    code = main(["run", "--virtual", str(script), "--state-dir", str(state_dir)])
    assert code == EXIT_USAGE
    assert f"{script}:2: " in capsys.readouterr().err


def test_run_virtual_with_a_missing_script_exits_2_naming_it(
    state_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = state_dir.parent / "missing.txt"
    code = main(["run", "--virtual", str(script), "--state-dir", str(state_dir)])
    assert code == EXIT_USAGE
    assert f"{script}: cannot read: " in capsys.readouterr().err


def test_run_virtual_serves_plays_stops_and_resumes_under_a_notify_socket(
    state_dir: Path,
) -> None:
    script = state_dir.parent / "play.txt"
    script.write_text(PLAY, encoding="utf-8")
    name = f"codenames-table-test/{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as receiver:
        receiver.bind("\0" + name)
        receiver.settimeout(RECEIVE_TIMEOUT_S)
        env = {**os.environ, "NOTIFY_SOCKET": "@" + name, "WATCHDOG_USEC": "10000000"}

        def run(*args: str) -> tuple[list[bytes], str, int]:
            command = [sys.executable, "-m", "firmware.cli", "run", "--virtual", *args]
            command += ["--state-dir", str(state_dir)]
            with subprocess.Popen(
                command, cwd=REPO, env=env, stderr=subprocess.PIPE, text=True
            ) as process:
                assert process.stderr is not None
                received = [receiver.recv(256)]
                while b"READY=1" not in received[-1]:
                    received.append(receiver.recv(256))
                if args:
                    # The script's last line, then the table plays on.
                    line = process.stderr.readline()
                    while "script played: " not in line:
                        assert line, "the command ended before its script was played"
                        line = process.stderr.readline()
                process.send_signal(signal.SIGTERM)
                while b"STOPPING=1" not in received[-1]:
                    received.append(receiver.recv(256))
                rest = process.stderr.read()
                code = process.wait(RECEIVE_TIMEOUT_S)
            return received, (line if args else "") + rest, code

        played, played_log, played_code = run(str(script))
        resumed, resumed_log, resumed_code = run()
    assert played_code == resumed_code == 0
    assert b"READY=1\nSTATUS=playing; actions in the current game: 0" in played
    assert played[-1] == b"STOPPING=1\nSTATUS=stopping on SIGTERM"
    assert b"READY=1\nSTATUS=playing; actions in the current game: 3" in resumed
    after_play = played_log.split("script played: ", 1)[1].splitlines()[0]
    at_start = resumed_log.split("table ready on virtual hardware: ", 1)[1].splitlines()[0]
    assert json.loads(at_start) == json.loads(after_play)
    assert json.loads(after_play)["actions"] == 3
    # The journal of both runs (start, script played, resumed start) never holds the key.
    assert key_traces(played_log + resumed_log, KEY, covered={Coord.parse("A1")}) == []


@pytest.mark.parametrize(
    ("virtual", "code"), [(["--virtual"], 0), ([], EXIT_USAGE)], ids=["virtual", "the Pi's"]
)
def test_only_a_demonstration_may_keep_its_games_under_tmp(
    virtual: list[str], code: int, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = Path(tempfile.gettempdir()) / "codenames-demo" / "state"
    assert main(["run", "--check-config", *virtual, "--state-dir", str(folder)]) == code
    out, err = capsys.readouterr()
    if code == 0:
        assert f"config OK: no config file, every default; state_dir {folder}," in out
    else:
        assert f"--state-dir: {folder} is under /tmp, which does not survive a reboot" in err


def test_run_virtual_in_tmp_says_its_games_are_lost_at_reboot(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "firmware.cli", "run", "--virtual"]
    command += ["--state-dir", str(tmp_path / "state")]
    with subprocess.Popen(command, cwd=REPO, stderr=subprocess.PIPE, text=True) as process:
        assert process.stderr is not None
        said = []
        while not said or "table ready on virtual hardware" not in said[-1]:
            said.append(process.stderr.readline())
            assert said[-1], f"the command ended before the table was up: {said}"
        process.send_signal(signal.SIGTERM)
        assert process.wait(RECEIVE_TIMEOUT_S) == 0
    warning = f"state_dir {tmp_path / 'state'} is under /tmp: its games are lost at reboot"
    assert any(warning in line for line in said), said


def test_a_fatal_signal_leaves_a_traceback_without_the_units_fault_handler(
    tmp_path: Path,
) -> None:
    command = [sys.executable, "-m", "firmware.cli", "run", "--virtual"]
    command += ["--state-dir", str(tmp_path / "state")]
    env = {name: value for name, value in os.environ.items() if name != "PYTHONFAULTHANDLER"}
    with subprocess.Popen(command, cwd=REPO, stderr=subprocess.PIPE, text=True, env=env) as process:
        assert process.stderr is not None
        said: list[str] = []
        while not said or "table ready on virtual hardware" not in said[-1]:
            said.append(process.stderr.readline())
            assert said[-1], f"the command ended before the table was up: {said}"
        # What a -shm turned immutable under SQLite's mapping sends.
        process.send_signal(signal.SIGBUS)
        # The handler dumps every thread while the others go on running; reading a frame
        # that changes under it can fault, and its own SIGSEGV handler then ends the process.
        assert process.wait(RECEIVE_TIMEOUT_S) in (-signal.SIGBUS, -signal.SIGSEGV)
        rest = process.stderr.read()
    fatal = [line for line in rest.splitlines() if line.startswith("Fatal Python error")]
    assert fatal[:1] == ["Fatal Python error: Bus error"], rest
    assert "most recent call first" in rest
