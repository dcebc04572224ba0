"""`make cafe-demo` (`tools.cafe_demo`) end to end: one command brings up the broker, tables that
play and the café view's page; SIGINT, as a terminal's Ctrl-C, stops every process it started,
the tables saying `offline` first, and removes its folder."""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tools import mosquitto

from ..paths import REPO
from .broker_helpers import WAIT_S, Listener, Mosquitto, until

TABLES = ("table-1", "table-2", "table-3")


def descendants(pid: int) -> set[int]:
    """Every process under `pid`, from /proc."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def first_snapshot_with_every_table(page: str) -> dict[str, object]:
    """Read the page's server-sent snapshots until one shows every table online."""
    with urllib.request.urlopen(page + "events", timeout=WAIT_S) as stream:
        for raw in stream:
            line = raw.decode()
            if not line.startswith("data: "):
                continue
            snapshot: dict[str, object] = json.loads(line.removeprefix("data: "))
            rows = {row["id"]: row for row in snapshot["tables"]}  # type: ignore[attr-defined]
            if set(TABLES) <= set(rows) and not any(rows[t]["offline"] for t in TABLES):
                return snapshot
    raise AssertionError("the page's stream ended")


def test_the_demo_starts_in_one_command_and_stops_with_everything_on_sigint(
    tmp_path: Path,
) -> None:
    if mosquitto.binary() is None:
        pytest.skip("mosquitto is not installed (apt-get install mosquitto; .ci/run does)")
    http = mosquitto.free_port()
    command = [sys.executable, "-m", "tools.cafe_demo", "--tables", str(len(TABLES))]
    command += ["--http", f"127.0.0.1:{http}", "--pace", "0.02"]
    with subprocess.Popen(
        command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as demo:
        assert demo.stdout is not None and demo.stderr is not None
        said = []
        while not said or said[-1] != "Ctrl-C stops it all.\n":
            said.append(demo.stdout.readline())
            assert said[-1], f"the demo ended: {said} {demo.stderr.read()}"
        match = re.search(r"the broker mqtt://127\.0\.0\.1:(\d+)\n", said[0])
        assert match, said
        page = f"http://127.0.0.1:{http}/"
        assert f"  the café view:          {page}\n" in said
        folder = Path(said[4].split(":", 1)[1].split(" (")[0].strip())
        assert folder.is_dir()
        # What the broker holds: every table online, playing.
        listener = Listener(Mosquitto(tmp_path, port=int(match[1])))
        try:
            for table in TABLES:
                assert listener.wait_for(
                    lambda _, t=table: (
                        bool(listener.on(f"codenames/{t}/events"))
                        and (listener.latest(f"codenames/{t}/status") or {}).get("status")
                        == "online"
                    )
                ), table
            # What the view shows: every table, online.
            snapshot = first_snapshot_with_every_table(page)
            assert snapshot["status"]
            started = descendants(demo.pid)
            assert len(started) >= 3, started  # the broker, the tables, the view
            demo.send_signal(signal.SIGINT)
            assert demo.wait(WAIT_S * 3) == 0, demo.stderr.read()
            for table in TABLES:
                status = f"codenames/{table}/status"
                assert listener.wait_for(
                    lambda _, s=status: listener.latest(s)["status"] == "offline"
                ), table
        finally:
            listener.close()
            if demo.poll() is None:
                demo.kill()
    assert until(lambda: not any(alive(pid) for pid in started)), [
        pid for pid in started if alive(pid)
    ]
    assert not folder.exists()


def test_a_page_port_taken_ends_the_demo_in_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    if mosquitto.binary() is None:
        pytest.skip("mosquitto is not installed (apt-get install mosquitto; .ci/run does)")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        command = [sys.executable, "-m", "tools.cafe_demo", "--tables", "1"]
        command += ["--http", f"127.0.0.1:{port}"]
        with subprocess.Popen(
            command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        ) as demo:
            started: set[int] = set()
            while True:
                started |= descendants(demo.pid)
                try:
                    out, err = demo.communicate(timeout=0.05)
                    break
                except subprocess.TimeoutExpired:
                    continue
    assert demo.returncode == 1
    assert out == ""
    assert err.startswith("cafe-demo: the view process ended (exit 2)\n"), err
    assert f"--http 127.0.0.1:{port}: " in err
    assert len(started) >= 2, started  # the broker and the tables, at least, were started
    assert not any(alive(pid) for pid in started)
