"""Headless scripts met with bad input: how lines end, bounded amounts, unreadable bytes, folders
that cannot be used, and a run stopped by a signal."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from board_rules.codenames import TranscriptError, parse_transcript
from board_rules.text import LineError
from firmware.virtual.script import (
    MAX_DETENTS,
    MAX_SCRIPT_S,
    MAX_STEPS,
    MAX_WAIT_S,
    ScriptError,
    parse_script,
)

from ..conftest import Cli, CliResult
from ..paths import REPO
from ..table_scripts import KEY_LINE, play


def sim(cli: Cli, script: str | Path, *options: str, stdin: bytes | None = None) -> CliResult:
    return cli("sim", "--headless", "--script", script, *options, stdin=stdin)


@pytest.mark.parametrize("separator", ["\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028"])
def test_a_separator_inside_a_comment_does_not_start_a_line(tmp_path: Path, separator: str) -> None:
    dumps = play(f"{KEY_LINE}\npush\n# note{separator}press E5\npress A1\ndump\n", tmp_path)
    assert dumps[0]["game"]["covered"] == {"A1": "red"}  # the assassin was never pressed
    with pytest.raises(ScriptError) as caught:
        parse_script(f"push\r\n# note{separator}press E5\rpress Z9\n")
    assert caught.value.line == 3


def test_a_script_and_a_transcript_blame_the_same_line_of_the_same_text() -> None:
    # One line loop for both: the same breaks, comments and blank lines before the bad one.
    text = "# a note\r\n\n   \r jump 3  # x\x1cpress A1\rpush\n"
    with pytest.raises(ScriptError) as script:
        parse_script(text)
    with pytest.raises(TranscriptError) as transcript:
        parse_transcript(text)
    errors: list[LineError] = [script.value, transcript.value]
    assert [error.line for error in errors] == [4, 4]
    assert [error.located("game.txt") for error in errors] == [
        "game.txt:4: unknown command: expected press, button, turn, push, wait, power-cut or dump",
        f"game.txt:4: {transcript.value.message}",
    ]
    assert "jump" not in transcript.value.message  # what the file holds is not quoted


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("turn +100000000", f"at most {MAX_DETENTS} detents either way"),
        (f"turn -{MAX_DETENTS + 1}", f"at most {MAX_DETENTS} detents"),
        ("turn +" + "9" * 5000, f"at most {MAX_DETENTS} detents"),
        ("turn +²", "signed detents"),
        ("turn 3", "signed detents"),
        (f"wait {MAX_WAIT_S + 1:g}", f"from 0 to {MAX_WAIT_S:g} seconds"),
        ("wait inf", "from 0 to"),
        ("wait nan", "from 0 to"),
        ("press A1 1e300", "from 0 to 600 seconds"),
        ("fly" + "x" * 5_000_000, "unknown command: expected"),
    ],
)
def test_an_amount_out_of_bounds_is_refused_with_its_bound(line: str, message: str) -> None:
    with pytest.raises(ScriptError) as caught:
        parse_script(f"push\n{line}\n")
    assert caught.value.line == 2
    assert message in caught.value.message
    assert len(caught.value.message) < 200


def test_the_bounds_themselves_are_accepted() -> None:
    steps = parse_script(f"turn +{MAX_DETENTS}\nturn -{MAX_DETENTS}\nwait {MAX_WAIT_S:g}\n").steps
    assert [step.argument for step in steps[:2]] == [MAX_DETENTS, -MAX_DETENTS]


def test_a_whole_script_is_bounded_in_virtual_time_and_in_steps() -> None:
    waits = int(MAX_SCRIPT_S // MAX_WAIT_S)
    parse_script(f"wait {MAX_WAIT_S:g}\n" * waits)
    with pytest.raises(ScriptError, match="more than 6 hours") as caught:
        parse_script(f"wait {MAX_WAIT_S:g}\n" * waits + "push\n")
    assert caught.value.line == waits + 1
    parse_script("dump\n" * MAX_STEPS)
    with pytest.raises(ScriptError, match=f"at most {MAX_STEPS} steps") as caught:
        parse_script("# the key may come first\n" + "dump\n" * (MAX_STEPS + 1))
    assert caught.value.line == MAX_STEPS + 2


def test_a_script_reads_like_a_transcript_bom_bad_bytes_and_size_included(
    tmp_path: Path, cli: Cli
) -> None:
    path = tmp_path / "s.txt"
    path.write_bytes(f"\ufeff{KEY_LINE}\ndump\n".encode())
    code, out, err = sim(cli, path)
    assert (code, err) == (0, "")
    assert json.loads(out)["game"]["key"] == KEY_LINE.split()[1]
    path.write_bytes(b"dump\r# \xff\n")
    assert sim(cli, path) == (
        2,
        "",
        f"codenames-table sim: {path}:2: not UTF-8 text (byte 0xff)\n",
    )
    assert sim(cli, "-", stdin=b"dump\n\xc3\n") == (
        2,
        "",
        "codenames-table sim: <stdin>:2: not UTF-8 text (byte 0xc3)\n",
    )
    code, out, err = sim(cli, "/dev/zero")
    assert (code, out) == (2, "")
    assert err == "codenames-table sim: /dev/zero: larger than 1 MiB, the most read\n"


def test_an_oled_png_folder_that_cannot_be_written_exits_2_before_playing(
    tmp_path: Path, cli: Cli
) -> None:
    script = tmp_path / "s.txt"
    script.write_text("dump\n", encoding="utf-8")
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    code, out, err = sim(cli, script, "--oled-png", str(blocker / "pngs"))
    assert (code, out) == (2, "")
    problem = f"--oled-png {blocker / 'pngs'}: cannot write there: Not a directory"
    assert err == f"codenames-table sim: {problem}\n"


def sim_process(*options: str) -> subprocess.CompletedProcess[str]:
    """`sim --headless` on an empty script in a process of its own. As root, the process runs
    without the capabilities that let root enter any folder (`setpriv`, util-linux), so that a
    folder without permissions stops it as it stops anybody; it keeps its uid, so the checkout,
    wherever it lies, stays readable. Dropped from the inheritable set too: a container
    (systemd-nspawn) hands them down through it, past the bounding set."""
    command = [sys.executable, "-m", "firmware.cli", "sim", "--headless", "--script", "/dev/null"]
    if os.geteuid() == 0:
        dac = "-dac_override,-dac_read_search"
        command = ["setpriv", f"--inh-caps={dac}", f"--bounding-set={dac}", *command]
    return subprocess.run(
        [*command, *options], capture_output=True, text=True, cwd=REPO, check=False
    )


def test_a_state_directory_that_cannot_be_entered_exits_2_in_one_line(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0)
    state_dir = locked / "state"
    try:
        done = sim_process("--state-dir", str(state_dir))
    finally:
        locked.chmod(0o700)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"codenames-table sim: state directory {state_dir}: cannot enter it: Permission denied\n"
    )
    file_in_the_way = tmp_path / "file"
    file_in_the_way.write_text("", encoding="utf-8")
    done = sim_process("--state-dir", str(file_in_the_way))
    assert done.returncode == 2
    assert done.stderr.endswith(f"{file_in_the_way}: cannot enter it: Not a directory\n")


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_stops_a_headless_run_in_one_line_and_removes_its_state_folder(
    tmp_path: Path, signum: signal.Signals, code: int
) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    script = tmp_path / "s.txt"
    # A dump to say that the run has begun, then hours of virtual time (seconds of real time)
    # to stop it in.
    script.write_text("dump\n" + "wait 600\n" * 36, encoding="utf-8")
    command = [sys.executable, "-m", "firmware.cli", "sim", "--headless", "--script", str(script)]
    environment = {**os.environ, "TMPDIR": str(scratch)}
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        assert json.loads(process.stdout.readline())["game"]["phase"] == "clue"
        [state_folder] = scratch.iterdir()  # the temporary folder holding the key
        assert state_folder.name.startswith("codenames-table-")
        process.send_signal(signum)
        err = process.stderr.read().decode()
    assert process.returncode == code
    assert err == f"codenames-table sim: stopped by {signal.Signals(signum).name}\n"
    assert list(scratch.iterdir()) == []
