"""`make test-loop` (tools/test_loop.py) on stand-in commands, and the split of the suite between
`make test`, `make test-slow` and `make test-trixie`: every test runs somewhere in CI."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tools import release_suite, test_loop

from ..conftest import SLOW
from ..paths import REPO

WAIT_S = 30.0
"""Bound on a wait for the stand-in runs to start or end; a passing test waits far less."""
FAILING = "print('FAILED tests/x/test_y.py::test_z - AssertionError'); raise SystemExit(1)"
BESIDE_OR_PASS = """
import os, pathlib, sys, time
started = pathlib.Path(os.environ["STARTED"])
if os.environ.get("PYTEST_ADDOPTS"):  # a copy beside: says it runs, then runs until stopped
    started.write_text(str(os.getpid()))
    time.sleep(120)
deadline = time.monotonic() + 30
while not started.exists():  # a counted run: once the copy beside is there
    assert time.monotonic() < deadline
    time.sleep(0.01)
"""


def test_a_failed_run_is_named_and_its_output_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(test_loop, "_make", lambda target: [sys.executable, "-c", FAILING])
    monkeypatch.setattr(test_loop, "LOGS", tmp_path / "logs")
    assert not test_loop.run_once(2, 3, "pytest")
    out = capsys.readouterr().out
    assert out.startswith("run 2/3: FAILED in ")
    assert "tests/x/test_y.py::test_z" in out
    assert "FAILED tests/x/test_y.py" in (tmp_path / "logs" / "run-2.log").read_text()


def test_the_loop_prints_each_run_and_stops_the_copies_beside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(test_loop, "_make", lambda target: [sys.executable, "-c", BESIDE_OR_PASS])
    started = tmp_path / "beside.pid"
    monkeypatch.setenv("STARTED", str(started))
    assert test_loop.main(["--runs", "2", "--beside", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "2 runs of `make pytest`, 1 copies of it running beside"
    assert lines[1].startswith("run 1/2: passed in ") and lines[2].startswith("run 2/2: passed")
    assert lines[3] == "2 of 2 runs passed (0 runs of the copies beside ended meanwhile)"
    # The copy beside, still running when the runs ended, was stopped.
    with pytest.raises(ProcessLookupError):
        os.kill(int(started.read_text()), 0)


def test_a_loop_with_a_failed_run_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(test_loop, "_make", lambda target: [sys.executable, "-c", FAILING])
    monkeypatch.setattr(test_loop, "LOGS", tmp_path / "logs")
    assert test_loop.main(["--runs", "1", "--beside", "0"]) == 1
    assert capsys.readouterr().out.splitlines()[-1].startswith("0 of 1 runs passed")


def test_bad_counts_are_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        test_loop.main(["--runs", "0"])
    assert exit_.value.code == 2
    assert "--runs must be 1 or more" in capsys.readouterr().err


def test_every_slow_entry_names_a_test_file() -> None:
    for entry in SLOW:
        assert (REPO / "tests" / entry.split("::")[0]).is_file(), entry


def test_ci_runs_the_fast_tests_the_slow_ones_and_all_of_them_under_trixie() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert "make test" in ci and "make test-slow" in ci and "make test-trixie" in ci
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert '\t$(VENV)/bin/pytest -q $(PYTEST_ARGS) -m "$(PYTEST_MARK)"\n' in makefile
    assert "PYTEST_MARK ?= not slow\n" in makefile
    slow_recipe = makefile.split("\ntest-slow: $(STAMP)\n", 1)[1].split("\n\n", 1)[0]
    assert "\t$(VENV)/bin/pytest -q $(PYTEST_ARGS) -m slow" in slow_recipe.splitlines()
    # The suite under Trixie leaves out no mark.
    source = Path(release_suite.__file__).read_text(encoding="utf-8")
    assert '"PYTEST_MARK=",' in source


LOOP_STOPPED_HALFWAY = """
import os, pathlib, sys, time
sys.path.insert(0, sys.argv[1])
from tools import test_loop
pids = pathlib.Path(sys.argv[2])
# Every run, counted or beside, notes its process id and runs until stopped.
note = f"import os, time; open({str(pids)!r}, 'a').write(f'{{os.getpid()}}\\\\n'); time.sleep(120)"
test_loop._make = lambda target: [sys.executable, "-c", note]
sys.exit(test_loop.main(["--runs", "3", "--beside", "1"]))
"""


def test_sigterm_stops_the_loop_with_its_counted_run_and_the_copies_beside(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    loop = subprocess.Popen(
        [sys.executable, "-c", LOOP_STOPPED_HALFWAY, str(REPO), str(pids)],
        stdout=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + WAIT_S
        while len(noted(pids)) < 2:  # the counted run and the copy beside are both running
            assert time.monotonic() < deadline, "the runs never started"
            time.sleep(0.01)
        loop.send_signal(signal.SIGTERM)
        assert loop.wait(WAIT_S) == 128 + signal.SIGTERM
    finally:
        loop.kill()
    for pid in noted(pids):
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def noted(pids: Path) -> list[int]:
    return [int(line) for line in pids.read_text().split()] if pids.exists() else []
