"""`make cafe-flood-bench`: the café view (`codenames-table cafe --no-terminal --http`, as the
counter runs it) against a broker holding 10,000 tables' retained messages and a flood of
`--rate` messages a second: how long it takes to show the tables it keeps after its start, how
long a table's news takes to reach the web page's server-sent events during the flood (median,
p95, max of `--markers` events), how long the page takes to answer, the view's memory (peak
and at the end), what it dropped, and how long SIGTERM takes to stop it.

Prints one JSON object; it measures, the reader judges (the README has this machine's figures).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from board_rules.codenames import Game, Mode, generate_key, parse_action
from firmware.fleet.messages import encode, envelope, public_game, status_fields
from tools import mosquitto
from tools.fleet_bench import percentile, proc_peak_mib

REPO = Path(__file__).parents[1]


def publisher(port: int) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"flood-{os.getpid()}")
    client.max_queued_messages_set(0)
    client.max_inflight_messages_set(1000)
    client.connect("127.0.0.1", port)
    client.loop_start()
    return client


def retain_tables(client: mqtt.Client, tables: int, seed: int) -> None:
    """Each table's `status`, `game` and `health`, retained, as its publisher leaves them."""
    state = Game(generate_key(random.Random(seed)), Mode.STANDARD).play(parse_action("clue 2"))
    game = public_game(state, (0, 0))
    health = {"stuck_pads": [], "oled_up": True, "saving": True, "not_saving": None}
    now = time.time()
    infos = []
    for n in range(tables):
        table = f"table-{n:05d}"
        for kind, fields in (
            ("status", status_fields(online=True)),
            ("game", game),
            ("health", health | {"events_dropped": 0}),
        ):
            payload = encode(envelope(table, now, **fields))
            infos.append(client.publish(f"codenames/{table}/{kind}", payload, qos=1, retain=True))
    for info in infos:
        info.wait_for_publish(60)


class Page:
    """The page's event stream, read on a thread: each snapshot's arrival time and data."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.latest: dict[str, Any] = {}
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while True:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                connection.request("GET", "/events")
                response = connection.getresponse()
                for line in response:
                    if line.startswith(b"data: "):
                        with self._changed:
                            self.latest = json.loads(line[6:])
                            self._changed.notify_all()
            except OSError:
                time.sleep(0.05)  # not listening yet, or stopped

    def wait_for(self, check: Any, timeout: float) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: bool(self.latest) and check(self.latest), timeout)


def answer_s(port: int) -> float:
    """How long the page takes to answer a GET."""
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/")
    connection.getresponse().read()
    return time.monotonic() - started


def flood(
    client: mqtt.Client, tables: int, rate: float, spared: set[str], stop: threading.Event
) -> None:
    """`rate` events a second on random tables' topics, in bursts of a tenth of a second; none
    on the `spared` tables (the view keeps only a table's latest event: the flood's would
    replace the markers timed on them)."""
    rng = random.Random(7)
    n = 0
    while not stop.is_set():
        started = time.monotonic()
        for _ in range(max(1, int(rate / 10))):
            n += 1
            table = f"table-{rng.randrange(tables):05d}"
            if table in spared:
                continue
            event = envelope(table, time.time(), action=f"touch {n}", words=[])
            client.publish(f"codenames/{table}/events", encode(event), qos=0)
        stop.wait(max(0.0, 0.1 - (time.monotonic() - started)))


def time_markers(
    client: mqtt.Client, page: Page, tables: list[str], markers: int, web_port: int
) -> tuple[list[float], list[float]]:
    """Publish `markers` events on `tables` in turn; how long each took to reach the page, and
    how long the page took to answer after each."""
    delays = []
    answers = []
    for n in range(markers):
        table = tables[n % len(tables)]
        words = f"clue {n}"
        sent = time.monotonic()
        event = envelope(table, time.time(), action=words, words=[])
        client.publish(f"codenames/{table}/events", encode(event), qos=1)

        def shown(snapshot: dict[str, Any], table: str = table, words: str = words) -> bool:
            return any(r["id"] == table and r["cells"][-1] == words for r in snapshot["tables"])

        if page.wait_for(shown, 30):
            delays.append(time.monotonic() - sent)
        answers.append(answer_s(web_port))
        time.sleep(0.25)
    return delays, answers


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--rate", type=float, default=1000.0, help="flood messages a second")
    parser.add_argument("--markers", type=int, default=20)
    parser.add_argument("--seed", type=int, default=24)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="cafe-flood-"))
    port = mosquitto.free_port()
    broker = mosquitto.start(folder, port)
    client = publisher(port)
    web_port = mosquitto.free_port()
    view: subprocess.Popen[bytes] | None = None
    stop = threading.Event()
    try:
        started = time.monotonic()
        retain_tables(client, args.tables, args.seed)
        retained_s = time.monotonic() - started
        command = [sys.executable, "-m", "firmware.cli", "cafe", "--broker"]
        command += [f"mqtt://127.0.0.1:{port}", "--http", f"127.0.0.1:{web_port}"]
        command += ["--no-terminal", "--lang", "en", "--record", str(folder / "record.sqlite3")]
        started = time.monotonic()
        view = subprocess.Popen(command, cwd=REPO, stderr=subprocess.DEVNULL)
        page = Page(web_port)
        if not page.wait_for(lambda s: len(s["tables"]) >= min(args.tables, 500), 120):
            raise SystemExit("the page never showed the tables")
        shown_s = time.monotonic() - started
        kept = [row["id"] for row in page.latest["tables"]][: args.markers]
        flooding = threading.Thread(
            target=flood, args=(client, args.tables, args.rate, set(kept), stop)
        )
        flooding.start()
        time.sleep(2.0)  # the flood under way
        delays, answers = time_markers(client, page, kept, args.markers, web_port)
        status = page.latest["status"]
        rss_end = rss_mib(view.pid)
        peak = proc_peak_mib(view.pid)
        stopping = time.monotonic()
        view.send_signal(signal.SIGTERM)
        view.wait(30)
        stop_s = time.monotonic() - stopping
        stop.set()
        flooding.join()
        result = {
            "tables_retained": args.tables,
            "retained_messages": 3 * args.tables,
            "publish_retained_s": round(retained_s, 1),
            "flood_per_s": args.rate,
            "start_to_tables_shown_s": round(shown_s, 2),
            "tables_shown": len(page.latest["tables"]),
            "news_to_page_s": {
                "markers": args.markers,
                "shown": len(delays),
                "median": round(statistics.median(delays), 3) if delays else None,
                "p95": round(percentile(delays, 0.95), 3) if delays else None,
                "max": round(max(delays), 3) if delays else None,
            },
            "page_answer_s_max": round(max(answers), 3),
            "view_memory_mib": {"peak": round(peak, 1), "end": round(rss_end, 1)},
            "status_line": status,
            "sigterm_to_exit_s": round(stop_s, 2),
            "exit_code": view.returncode,
        }
    finally:
        stop.set()
        if view is not None and view.poll() is None:
            view.kill()
        client.loop_stop()
        broker.terminate()
        broker.wait()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
