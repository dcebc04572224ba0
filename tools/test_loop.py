"""`make test-loop`: the flake check. The test suite (`make pytest`) run again and again while
other copies of it run beside it, so that every run meets a loaded machine; each run's result is
printed as it ends, and the exit code is 1 if any run failed.

    python -m tools.test_loop [--runs 10] [--beside 2] [--target pytest]

The copies beside are load, not checks: they are started again whenever one ends, and stopped
(their whole process group) once the counted runs are over. A failed run's whole output is kept
in `.cache/test-loop/` and its failures are named on the line of its result. SIGTERM or Ctrl-C
stops the loop with every run it started.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LOGS = REPO / ".cache" / "test-loop"
FAILED_LINE = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.MULTILINE)
"""A failure in pytest's short summary (`-ra`, which the project's settings turn on)."""
STOP_S = 30.0
"""How long a copy beside is given to end on SIGTERM before it is killed."""


def _make(target: str, *extra: str) -> list[str]:
    # Through make, so that the loop runs the suite exactly as `make test` does.
    return ["make", "--no-print-directory", "-s", target, *extra]


class Beside:
    """Copies of the suite kept running beside the counted runs, each restarted when it ends."""

    def __init__(self, count: int, target: str) -> None:
        self._command = _make(target)
        # pytest's cache (the last failures) is the counted runs' own.
        self._env = {**os.environ, "PYTEST_ADDOPTS": "-p no:cacheprovider"}
        self._stop = threading.Event()
        self._processes: list[subprocess.Popen[bytes]] = []
        self._lock = threading.Lock()
        self._threads = [
            threading.Thread(target=self._keep_running, name=f"beside-{n}", daemon=True)
            for n in range(count)
        ]
        self.finished = 0
        """Runs of the copies that ended (whatever their result)."""

    def __enter__(self) -> Beside:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        with self._lock:
            processes = list(self._processes)
        for process in processes:
            _stop_group(process)
        for thread in self._threads:
            thread.join(STOP_S)

    def _keep_running(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                if self._stop.is_set():
                    return
                process = subprocess.Popen(
                    self._command,
                    cwd=REPO,
                    env=self._env,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,  # its own group: stopped with every worker
                )
                self._processes.append(process)
            process.wait()
            with self._lock:
                self._processes.remove(process)
                self.finished += 1


def _stop_group(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(STOP_S)
    except ProcessLookupError:
        return
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def _stop_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def run_once(number: int, runs: int, target: str) -> bool:
    """One counted run: its result on one line; a failed run's output kept in `LOGS`."""
    began = time.monotonic()
    # Its own process group, as the copies beside have: a loop stopped halfway stops its workers.
    process = subprocess.Popen(
        _make(target),
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        stdout, _ = process.communicate()
    except BaseException:
        _stop_group(process)
        raise
    took = time.monotonic() - began
    output = stdout.decode("utf-8", "replace")
    if process.returncode == 0:
        print(f"run {number}/{runs}: passed in {took:.0f} s", flush=True)
        return True
    LOGS.mkdir(parents=True, exist_ok=True)
    log = LOGS / f"run-{number}.log"
    log.write_text(output, encoding="utf-8")
    failures = FAILED_LINE.findall(output) or [f"exit code {process.returncode}"]
    print(
        f"run {number}/{runs}: FAILED in {took:.0f} s: {', '.join(failures)} (output: {log})",
        flush=True,
    )
    return False


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.test_loop", description=__doc__)
    parser.add_argument("--runs", type=int, default=10, help="counted runs (default 10)")
    parser.add_argument(
        "--beside", type=int, default=2, help="copies of the suite running beside (default 2)"
    )
    parser.add_argument(
        "--target", default="pytest", help="the make target run each time (default pytest)"
    )
    options = parser.parse_args(argv)
    if options.runs < 1 or options.beside < 0:
        parser.error("--runs must be 1 or more and --beside 0 or more")
    print(
        f"{options.runs} runs of `make {options.target}`, "
        f"{options.beside} copies of it running beside",
        flush=True,
    )
    # SIGTERM ends the loop as Ctrl-C does: through the `with`, which stops every copy beside.
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    with Beside(options.beside, options.target) as beside:
        passed = sum(run_once(n, options.runs, options.target) for n in range(1, options.runs + 1))
        print(
            f"{passed} of {options.runs} runs passed "
            f"({beside.finished} runs of the copies beside ended meanwhile)",
            flush=True,
        )
    return 0 if passed == options.runs else 1


if __name__ == "__main__":
    sys.exit(main())
