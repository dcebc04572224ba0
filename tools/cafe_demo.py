"""`make cafe-demo`: a café of virtual tables on this machine in one command, ended by Ctrl-C.

    python -m tools.cafe_demo [--tables N] [--http HOST:PORT] [--lang LANG] [--pace F]

Starts, each as a process of its own: a Mosquitto on a free port of 127.0.0.1 (anonymous: it
listens on loopback only), N virtual tables playing lifelike games in real time and reporting
to it as the service does (`tools.cafe_demo_tables`; the last one plays the co-op variant), and
the café view serving its web page (`codenames-table cafe --no-terminal --http`). Once the page
answers, it prints where to look, how to watch in a terminal too and how to play one more table
by hand in the desktop simulation, then waits.

Ctrl-C (SIGINT) or SIGTERM stops the tables first, so that they say `offline`, then the view,
then the broker, and removes the demo's folder (its logs and saved games). Each process has a
process group of its own, so that a terminal's Ctrl-C reaches the demo alone and the order
holds. A process that ends by itself ends the demo, the last lines of its log shown.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from tools import mosquitto

STOP_WAIT_S = 10.0
"""Longest wait for a process to end after SIGTERM, before it is killed."""
PAGE_WAIT_S = 30.0
"""Longest wait for the café view's page to answer (the view's start on a slow machine)."""
LOG_LINES = 5
"""Lines of a log shown when its process ended by itself."""


@dataclass
class Child:
    """A process the demo started, and where its output goes."""

    name: str
    process: subprocess.Popen[bytes]
    log: Path

    def tail(self) -> str:
        """The last lines of its log."""
        try:
            lines = self.log.read_text(errors="replace").splitlines()
        except OSError:
            return ""
        return "\n".join(f"  {line}" for line in lines[-LOG_LINES:])

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it has not ended within `STOP_WAIT_S`."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def spawn(name: str, command: list[str], folder: Path) -> Child:
    """`command` as a child in a process group of its own, its output in FOLDER/NAME.log."""
    log = folder / f"{name}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=out, stderr=out, process_group=0
        )
    return Child(name, process, log)


def page_answers(url: str) -> bool:
    """Whether the café view's page answers at `url` now."""
    try:
        with urllib.request.urlopen(url, timeout=2.0) as response:
            return int(response.status) == 200
    except (urllib.error.URLError, OSError):
        return False


def command_line(*words: str) -> str:
    """The project's command as a person types it here: the venv's, if this Python is one."""
    here = Path(sys.executable).parent / "codenames-table"
    program = str(here) if here.exists() else "codenames-table"
    with contextlib.suppress(ValueError):
        program = str(here.relative_to(Path.cwd()))
    return " ".join((program, *words))


@contextlib.contextmanager
def stop_signals() -> Iterator[threading.Event]:
    """An event set by SIGINT or SIGTERM while the `with` lasts."""
    stop = threading.Event()

    def request_stop(signum: int, frame: FrameType | None) -> None:
        stop.set()

    previous = {sig: signal.signal(sig, request_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def run_demo(args: argparse.Namespace, stop: threading.Event) -> int:
    """Start everything, wait for `stop` or a process that ends, stop everything."""
    folder = Path(tempfile.mkdtemp(prefix="codenames-cafe-demo-"))
    children: list[Child] = []
    try:
        return _run(args, folder, children, stop)
    finally:
        # The tables first, so that they say offline; the broker last.
        for child in reversed(children):
            child.stop()
        shutil.rmtree(folder, ignore_errors=True)


def _run(
    args: argparse.Namespace, folder: Path, children: list[Child], stop: threading.Event
) -> int:
    python = sys.executable
    port = mosquitto.free_port()
    (folder / "broker").mkdir()
    try:
        broker = mosquitto.start(folder / "broker", port, own_group=True)
    except RuntimeError as error:
        print(f"cafe-demo: {error}", file=sys.stderr)
        return 1
    children.append(Child("broker", broker, folder / "broker" / "mosquitto.log"))
    url = f"mqtt://127.0.0.1:{port}"
    ids = [f"table-{n}" for n in range(1, args.tables + 1)]
    coop = ["--coop", ids[-1]] if len(ids) > 1 else []
    tables = [python, "-m", "tools.cafe_demo_tables", url, str(folder / "tables"), *ids, *coop]
    tables += ["--pace", str(args.pace)]
    children.append(spawn("tables", tables, folder))
    view = [python, "-m", "firmware.cli", "cafe", "--broker", url, "--http", args.http]
    view += ["--no-terminal"] + (["--lang", args.lang] if args.lang else [])
    children.append(spawn("view", view, folder))
    host, _, http_port = args.http.rpartition(":")
    page = f"http://{host or '127.0.0.1'}:{http_port}/"
    end = time.monotonic() + PAGE_WAIT_S
    while not page_answers(page):
        ended = _ended(children)
        if ended is not None or time.monotonic() > end or stop.wait(0.2):
            return 0 if ended is None and stop.is_set() else _failed(ended, children[-1])
    hand = folder / "by-hand.toml"
    hand.write_text(f'[fleet]\nbroker = "{url}"\ntable = "by-hand"\n', encoding="utf-8")
    sim = command_line("sim", "--config", str(hand), "--state-dir", str(folder / "by-hand"))
    played = ", ".join(ids) + (f" ({ids[-1]} in co-op)" if coop else "")
    print(
        f"café demo: {played} report to the broker {url}\n"
        f"  the café view:          {page}\n"
        f"  in a terminal too:      {command_line('cafe', '--broker', url)}\n"
        f"  one more table by hand: {sim}\n"
        f"  logs and saved games:   {folder} (removed at the end)\n"
        "Ctrl-C stops it all.",
        flush=True,
    )
    while not stop.wait(0.5):
        ended = _ended(children)
        if ended is not None:
            return _failed(ended, ended)
    return 0


def _ended(children: list[Child]) -> Child | None:
    return next((child for child in children if child.process.poll() is not None), None)


def _failed(ended: Child | None, waited_for: Child) -> int:
    if ended is None:
        print(f"cafe-demo: the café view did not answer within {PAGE_WAIT_S:g} s", file=sys.stderr)
        ended = waited_for
    else:
        code = ended.process.returncode
        print(f"cafe-demo: the {ended.name} process ended (exit {code})", file=sys.stderr)
    print(ended.tail(), file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=4, choices=range(1, 21), metavar="N")
    parser.add_argument("--http", default="127.0.0.1:8080", metavar="HOST:PORT")
    parser.add_argument("--lang", help="the café view's language (en, es, pt or it)")
    parser.add_argument(
        "--pace",
        type=float,
        default=1.0,
        help="times the players take, times F (0.1: ten times faster)",
    )
    args = parser.parse_args(argv)
    with stop_signals() as stop:
        return run_demo(args, stop)


if __name__ == "__main__":
    sys.exit(main())
