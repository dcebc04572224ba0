"""`make cafe-flood-bench`: the café view against a broker holding 10,000 tables' retained
messages and a flood of `--rate` messages a second, run twice: as the counter runs it
(`codenames-table cafe --no-terminal --http`, the page alone) and as the terminal view (the
Textual app, headless, serving the same page from its loop). For each: how long it takes to
show the tables it keeps after its start and to catch up with every retained message (news sent
before then waits behind them, so the flood and the markers start after), how long a table's
news takes to reach the web page's server-sent events during the flood (median with its 95 %
interval, p95, max of `--markers` events) beside how long it takes to reach a plain subscriber
of the same broker (what the broker and this machine add before the view has a part in it), how
long the page takes to answer, the view's memory (peak and at the end) and its CPU under the
flood, what it dropped, and how long SIGTERM takes to stop it; then whether the goal is met:
every update shown within 1 s, the tables capped with the drops on the status line, SIGTERM's
stop within 2 s.

Prints one JSON object.
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
from firmware.cafe.model import MAX_TABLES, Cafe
from firmware.cafe.run import run_terminal
from firmware.cafe.web import CafeWeb
from firmware.fleet.broker import BrokerAddress, Credentials
from firmware.fleet.messages import encode, envelope, public_game, status_fields
from tools import mosquitto
from tools.fleet_bench import median_interval, percentile, proc_cpu_s, proc_peak_mib

REPO = Path(__file__).parents[1]
VIEWS = ("page", "terminal")
UPDATE_GOAL_S = 1.0
STOP_GOAL_S = 2.0


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


class Plain:
    """A plain subscriber of the marker tables' events: when each marker reached the broker's
    subscribers, without the view."""

    def __init__(self, port: int, tables: list[str]) -> None:
        self.arrived: dict[str, float] = {}
        self._client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"plain-{os.getpid()}")
        self._client.on_message = self._received
        self._client.connect("127.0.0.1", port)
        done = threading.Event()
        self._client.on_subscribe = lambda *_: done.set()
        self._client.subscribe([(f"codenames/{table}/events", 1) for table in tables])
        self._client.loop_start()
        done.wait(30)

    def _received(self, client: object, userdata: object, message: Any) -> None:
        self.arrived.setdefault(json.loads(message.payload)["action"], time.monotonic())

    def close(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()


def answer_s(port: int) -> float:
    """How long the page takes to answer a GET."""
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/")
    connection.getresponse().read()
    return time.monotonic() - started


def flood(
    client: mqtt.Client,
    tables: int,
    rate: float,
    spared: set[str],
    stop: threading.Event,
    *,
    seed: int,
) -> None:
    """`rate` events a second on random tables' topics, in bursts of a tenth of a second; none
    on the `spared` tables (the view keeps only a table's latest event: the flood's would
    replace the markers timed on them)."""
    rng = random.Random(seed)
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


def news_shown(client: mqtt.Client, page: Page, table: str, words: str, timeout: float) -> bool:
    """Publish an event `words` on `table`; whether the page showed it within `timeout`."""
    event = envelope(table, time.time(), action=words, words=[])
    client.publish(f"codenames/{table}/events", encode(event), qos=1)

    def shown(snapshot: dict[str, Any]) -> bool:
        return any(r["id"] == table and r["cells"][-1] == words for r in snapshot["tables"])

    return page.wait_for(shown, timeout)


def time_markers(
    client: mqtt.Client, page: Page, plain: Plain, tables: list[str], *, markers: int, web_port: int
) -> tuple[list[float], list[float], list[float]]:
    """Publish `markers` events on `tables` in turn; how long each took to reach the page and
    the plain subscriber, and how long the page took to answer after each."""
    delays = []
    plain_delays = []
    answers = []
    for n in range(markers):
        table = tables[n % len(tables)]
        words = f"clue {n} {os.urandom(4).hex()}"
        sent = time.monotonic()
        if news_shown(client, page, table, words, 30):
            delays.append(time.monotonic() - sent)
        if words in plain.arrived:
            plain_delays.append(plain.arrived[words] - sent)
        answers.append(answer_s(web_port))
        time.sleep(0.25)
    return delays, plain_delays, answers


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def spread(values: list[float]) -> dict[str, Any]:
    """Median (with its 95 % interval), p95 and max of delays, in seconds."""
    if not values:
        return {"median": None, "median_95ci": None, "p95": None, "max": None}
    low, high = median_interval(values)
    return {
        "median": round(statistics.median(values), 3),
        "median_95ci": [round(low, 3), round(high, 3)],
        "p95": round(percentile(values, 0.95), 3),
        "max": round(max(values), 3),
    }


def view_command(view: str, port: int, web_port: int, folder: Path) -> list[str]:
    """How the view runs: the café command as the counter runs it, or the terminal view."""
    broker = f"mqtt://127.0.0.1:{port}"
    if view == "terminal":
        return [
            sys.executable,
            "-m",
            "tools.cafe_flood_bench",
            "--terminal-view",
            broker,
            str(web_port),
        ]
    command = [sys.executable, "-m", "firmware.cli", "cafe", "--broker", broker]
    command += ["--http", f"127.0.0.1:{web_port}", "--no-terminal", "--lang", "en"]
    return [*command, "--record", str(folder / "record.sqlite3")]


def terminal_view(broker: str, web_port: int) -> int:
    """The terminal view, headless, with its page on 127.0.0.1:`web_port` (a child process)."""
    cafe = Cafe("en")
    listen = ("127.0.0.1", web_port)
    address = BrokerAddress.parse(broker)
    return run_terminal(cafe, CafeWeb(cafe), address, Credentials(), listen, headless=True)


def measure(
    view_name: str, client: mqtt.Client, port: int, folder: Path, args: argparse.Namespace
) -> dict[str, Any]:
    """One view's start, updates under the flood, memory and stop."""
    web_port = mosquitto.free_port()
    stop = threading.Event()
    flooding: threading.Thread | None = None
    plain: Plain | None = None
    started = time.monotonic()
    view = subprocess.Popen(
        view_command(view_name, port, web_port, folder), cwd=REPO, stderr=subprocess.DEVNULL
    )
    try:
        page = Page(web_port)
        if not page.wait_for(lambda s: len(s["tables"]) >= min(args.tables, MAX_TABLES), 120):
            raise SystemExit(f"the {view_name} view's page never showed the tables")
        shown_s = time.monotonic() - started
        kept = [row["id"] for row in page.latest["tables"]][: args.markers]
        # The broker sends a new subscriber every retained message, table after table: the
        # view shows the tables it keeps long before it has read the others' (which it drops),
        # and news sent meanwhile waits behind them. The view is up to date once an event sent
        # now shows.
        if not news_shown(client, page, kept[0], "clue 0 caught up", 120):
            raise SystemExit(f"the {view_name} view never caught up with the broker")
        caught_up_s = time.monotonic() - started
        plain = Plain(port, kept)
        flooding = threading.Thread(
            target=flood,
            args=(client, args.tables, args.rate, set(kept), stop),
            kwargs={"seed": args.seed},
        )
        flooding.start()
        time.sleep(2.0)  # the flood under way
        cpu_before, timed_from = proc_cpu_s(view.pid), time.monotonic()
        delays, plain_delays, answers = time_markers(
            client, page, plain, kept, markers=args.markers, web_port=web_port
        )
        cpu_percent = 100 * (proc_cpu_s(view.pid) - cpu_before) / (time.monotonic() - timed_from)
        status = page.latest["status"]
        rss_end = rss_mib(view.pid)
        peak = proc_peak_mib(view.pid)
        stopping = time.monotonic()
        view.send_signal(signal.SIGTERM)
        view.wait(30)
        stop_s = time.monotonic() - stopping
    finally:
        stop.set()
        if flooding is not None:
            flooding.join()
        if plain is not None:
            plain.close()
        if view.poll() is None:
            view.kill()
            view.wait()
    tables_shown = len(page.latest["tables"])
    goal = {
        "update_within_1s": len(delays) == args.markers and max(delays) <= UPDATE_GOAL_S,
        "tables_capped_drops_shown": tables_shown <= MAX_TABLES
        and (args.tables <= MAX_TABLES or "dropped" in status),
        "sigterm_within_2s": stop_s <= STOP_GOAL_S and view.returncode == 0,
    }
    return {
        "start_to_tables_shown_s": round(shown_s, 2),
        "start_to_caught_up_s": round(caught_up_s, 2),
        "tables_shown": tables_shown,
        "news_to_page_s": {"markers": args.markers, "shown": len(delays), **spread(delays)},
        "news_to_plain_subscriber_s": spread(plain_delays),
        "page_answer_s_max": round(max(answers), 3),
        "view_memory_mib": {"peak": round(peak, 1), "end": round(rss_end, 1)},
        "view_cpu_percent_under_flood": round(cpu_percent, 1),
        "status_line": status,
        "sigterm_to_exit_s": round(stop_s, 2),
        "exit_code": view.returncode,
        "goal": goal | {"met": all(goal.values())},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--rate", type=float, default=1000.0, help="flood messages a second")
    parser.add_argument("--markers", type=int, default=20)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--views", nargs="+", choices=VIEWS, default=list(VIEWS))
    parser.add_argument(
        "--terminal-view", nargs=2, metavar=("BROKER", "PORT"), help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    if args.terminal_view is not None:
        return terminal_view(args.terminal_view[0], int(args.terminal_view[1]))
    folder = Path(tempfile.mkdtemp(prefix="cafe-flood-"))
    port = mosquitto.free_port()
    broker = mosquitto.start(folder, port)
    client = publisher(port)
    try:
        started = time.monotonic()
        retain_tables(client, args.tables, args.seed)
        retained_s = time.monotonic() - started
        views = {name: measure(name, client, port, folder, args) for name in args.views}
    finally:
        client.loop_stop()
        broker.terminate()
        broker.wait()
    result = {
        "tables_retained": args.tables,
        "retained_messages": 3 * args.tables,
        "publish_retained_s": round(retained_s, 1),
        "flood_per_s": args.rate,
        "seed": args.seed,
        "load_average": os.getloadavg()[0],
        "views": views,
        "goal_met": all(view["goal"]["met"] for view in views.values()),
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
