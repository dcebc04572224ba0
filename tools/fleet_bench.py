"""`make fleet-bench`: headless tables (50 by default) play random games on this machine through
one Mosquitto into one café view, in real time; how long from an accepted action to the view's
update (median, p99), how many messages a second, and the CPU and memory of the broker, the view
and the tables.

With `--light`, each table is a light publisher instead (the rules and the messages a table
sends, over its own connection, without its virtual hardware), so that hundreds fit on this
machine. With `--bridged`, a chain of cafés: the tables report to two café brokers, each bridged
to a chain broker (Mosquitto's own bridge), and the view follows the chain's broker; with
`--restart`, the first café's broker is stopped mid-run and started again, and the view must
have every table's latest game once it is back.

The tables run in worker processes, each on virtual hardware and a virtual clock (a press costs
a few milliseconds of CPU, not its real time), and each reports through its own
`FleetPublisher` over its own connection, as on a Pi. They act at random, about once every
`--pace` seconds each (exponential gaps), which is far busier than people at a table. The view is
this process: the café's `Subscriber` and `Cafe` model, timing each event from the `at` its
table wrote when the action was accepted to the moment the view has taken it.

Prints one JSON object on standard output; it measures, the reader judges (the README has the
figures of this machine).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from board_rules.codenames import ALL_COORDS, CodenamesError, Game, Phase, generate_key
from board_rules.codenames import parse_action as action_of
from firmware.cafe.model import Cafe
from firmware.cafe.subscriber import Subscriber
from firmware.drivers.events import ConsoleButton
from firmware.fleet.broker import BrokerAddress, Credentials, new_client
from firmware.fleet.health import HealthReading
from firmware.fleet.messages import (
    LastAction,
    encode,
    envelope,
    event_fields,
    public_game,
    status_fields,
)
from firmware.fleet.publisher import FleetPublisher
from firmware.fleet.schema import topic
from firmware.table.config import FleetConfig, TableConfig
from firmware.virtual.table import VirtualTable
from tools import mosquitto

NEW_HOLD_S = 3.0
"""Long enough a hold of NEW to deal a new game."""


def act(vt: VirtualTable, rng: random.Random) -> None:
    """One action a player would take now: a clue, a touch, or a new game after the end."""
    state = vt.table.state
    if state.is_over:
        vt.press_button(ConsoleButton.NEW, hold_s=NEW_HOLD_S)
    elif state.phase is Phase.CLUE:
        vt.turn(rng.randint(0, 2))
        vt.push()
    else:
        vt.press_pad(rng.choice([c for c in ALL_COORDS if c not in state.covered]))


@dataclass(frozen=True)
class Job:
    """What one worker process plays."""

    url: str
    ids: list[str]
    seconds: float
    pace_s: float
    seed: int
    light: bool = False


class LightTable:
    """A table's messages without its hardware: the rules played at random, and what its
    publisher sends (`status` with its last will, the retained `game` and `health`, each
    action's event), sent again on every (re)connection as the publisher does."""

    def __init__(self, url: str, table: str, rng: random.Random) -> None:
        self.table = table
        self.rng = rng
        self.game = Game(generate_key(rng))
        self.wins = (0, 0)
        self.last: LastAction | None = None
        self.dropped = 0
        address = BrokerAddress.parse(url)
        self.client = new_client(f"codenames-{table}", address, Credentials())
        offline = envelope(table, time.time(), **status_fields(online=False))
        self.client.will_set(topic(table, "status"), encode(offline), qos=1, retain=True)
        self.client.on_connect = self._connected
        self.connected = threading.Event()
        self._resend = threading.Event()
        """Set on each (re)connection, so that `catch_up` sends the table's standing again;
        `catch_up` clears it."""
        self.client.on_disconnect = lambda *_: self.connected.clear()
        self.client.reconnect_delay_set(1, 2)
        self.game_sent: Any = None
        """The latest `game` publish (paho's message info)."""
        self.client.connect_async(address.host, address.port, keepalive=15)
        self.client.loop_start()

    def _connected(
        self, client: Any, userdata: object, flags: object, reason: Any, _: object
    ) -> None:
        if reason.is_failure:
            return
        # The standing is sent from the table's own thread (by `catch_up`), as the publisher
        # sends from its loop, not from here: after this callback, paho resends the messages
        # still pending from the last connection, so a game sent here could be followed by an
        # older one.
        self._resend.set()
        self.connected.set()

    def catch_up(self) -> None:
        """After each (re)connection, send the table's standing once: status, latest game and
        health."""
        if not (self.connected.is_set() and self._resend.is_set()):
            return
        self._resend.clear()
        now = time.time()
        self.client.publish(
            topic(self.table, "status"),
            encode(envelope(self.table, now, **status_fields(online=True))),
            qos=1,
            retain=True,
        )
        self._send_game(now)
        health = {"stuck_pads": [], "oled_up": True, "saving": True, "not_saving": None}
        health |= {"led_backend": "virtual", "led_off": None, "events_dropped": self.dropped}
        self.client.publish(
            topic(self.table, "health"),
            encode(envelope(self.table, now, **health)),
            qos=1,
            retain=True,
        )

    def _send_game(self, now: float) -> None:
        fields = public_game(self.game.state, self.wins, self.last)
        payload = encode(envelope(self.table, now, **fields))
        self.game_sent = self.client.publish(topic(self.table, "game"), payload, qos=1, retain=True)

    def act(self) -> None:
        """One action a player would take now, and its messages."""
        self.catch_up()
        state = self.game.state
        if state.is_over:
            red, blue = self.wins
            won_red = state.winner is not None and state.winner.value == "red"
            self.wins = (red + won_red, blue + (not won_red))
            self.game = Game(generate_key(self.rng))
            state = self.game.state
        if state.phase is Phase.CLUE:
            tries = [f"clue {self.rng.randint(1, 2)}"]
        else:
            free = [str(c) for c in ALL_COORDS if c not in state.covered]
            tries = [f"{verb} {c}" for verb in ("touch", "cover") for c in free] + ["done"]
            self.rng.shuffle(tries)
        for text in tries:
            try:
                self.game.play(action_of(text))
            except CodenamesError:
                continue
            now = time.time()
            self.last = LastAction(text, (), now)
            event = encode(envelope(self.table, now, **event_fields(text, ())))
            if self.client.publish(topic(self.table, "events"), event, qos=0).rc != 0:
                self.dropped += 1
            self._send_game(now)
            return

    def close(self) -> None:
        """Disconnect once the latest game is out (after a broker's restart, once back)."""
        if self.connected.wait(30.0):
            self.catch_up()
        if self.connected.is_set() and self.game_sent is not None:
            with contextlib.suppress(RuntimeError, ValueError):
                self.game_sent.wait_for_publish(10.0)
        self.client.disconnect()
        self.client.loop_stop()


def play_light_tables(job: Job, out: Any, ready: Any) -> None:
    """A worker of light tables: as `play_tables`, and each table's last action's time."""
    rng = random.Random(job.seed)
    tables = [
        LightTable(job.url, table, random.Random(job.seed + n)) for n, table in enumerate(job.ids)
    ]
    for table in tables:
        table.connected.wait(30.0)
        table.catch_up()
    ready.put(True)
    start = time.monotonic()
    due = [start + rng.expovariate(1 / job.pace_s) for _ in tables]
    while True:
        now = time.monotonic()
        index = min(range(len(due)), key=due.__getitem__)
        if due[index] > start + job.seconds:
            break
        if due[index] > now:
            time.sleep(due[index] - now)
        tables[index].act()
        due[index] += rng.expovariate(1 / job.pace_s)
    last = {t.table: None if t.last is None else round(t.last.at, 3) for t in tables}
    dropped = sum(t.dropped for t in tables)
    for table in tables:
        table.close()
    out.put(worker_report(dropped) | {"last": last})


def worker_report(dropped: int) -> dict[str, Any]:
    """A worker's CPU, peak memory and the events its tables dropped."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "peak_rss_mib": usage.ru_maxrss / 1024,
        "dropped": dropped,
    }


def play_tables(job: Job, out: Any, ready: Any) -> None:
    """A worker: its tables playing until `seconds` have passed; puts its CPU and memory and
    the events its tables dropped in `out`."""
    url, ids, seconds, pace_s, seed = job.url, job.ids, job.seconds, job.pace_s, job.seed
    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="fleet-bench-"))
    tables = []
    for number, table in enumerate(ids):
        vt = VirtualTable(TableConfig(), folder / table, rng=random.Random(seed + number))
        publisher = FleetPublisher(
            FleetConfig(broker=url, table=table), HealthReading(folder, time.monotonic())
        ).start()
        publisher.show(vt.table.state, vt.table.match_score)
        vt.table.observer = publisher
        tables.append((vt, publisher))
    for _, publisher in tables:
        publisher.wait_connected(10.0)
    ready.put(True)
    start = time.monotonic()
    due = [start + rng.expovariate(1 / pace_s) for _ in tables]
    while True:
        now = time.monotonic()
        index = min(range(len(due)), key=due.__getitem__)
        if due[index] > start + seconds:
            break
        if due[index] > now:
            time.sleep(due[index] - now)
        act(tables[index][0], rng)
        due[index] += rng.expovariate(1 / pace_s)
    dropped = sum(publisher.events_dropped for _, publisher in tables)
    for vt, publisher in tables:
        publisher.close()
        vt.close()
    out.put(worker_report(dropped))


class View:
    """The café's view in this process, as `cafe` runs it: paho's thread leaves each message in
    the café's inbox (the latest per topic) and wakes the view's own thread, which takes
    everything waiting into the model; each event it takes is timed from the `at` its table
    wrote (an event replaced in the inbox by a newer one of its table is never shown, as in the
    view)."""

    def __init__(self, url: str) -> None:
        self.cafe = Cafe()
        self.latencies: list[float] = []
        self.game_latencies: list[float] = []
        """From a game's last action to the view's taking that `game` message."""
        self.messages = 0
        self._wake = threading.Event()
        self._closing = False
        self._thread = threading.Thread(target=self._take, daemon=True)
        self._thread.start()
        self._subscriber = Subscriber(
            BrokerAddress.parse(url), Credentials(), self._keep, lambda up, text: None
        )
        self._subscriber.start()

    def _keep(self, topic: str, payload: bytes) -> None:
        self.messages += 1
        if self.cafe.inbox.put(topic, payload):
            self._wake.set()

    def _take(self) -> None:
        while not self._closing:
            self._wake.wait(0.5)
            self._wake.clear()
            for delivery in self.cafe.inbox.take():
                table = self.cafe.receive(delivery.topic, delivery.payload, delivery.size)
                if table is None:
                    continue
                row = self.cafe.tables[table]
                if delivery.topic.endswith("/events") and row.last_at is not None:
                    self.latencies.append(time.time() - row.last_at)
                last = None if row.game is None else row.game.get("last")
                if delivery.topic.endswith("/game") and last is not None:
                    self.game_latencies.append(time.time() - last["at"])

    def close(self) -> None:
        self._subscriber.close()
        self._closing = True
        self._thread.join()


def proc_cpu_s(pid: int) -> float:
    """User and system CPU seconds of a process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # USER_HZ is 100 on Linux


def proc_peak_mib(pid: int) -> float:
    """A process's peak resident memory (VmHWM), MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def median_interval(values: list[float]) -> tuple[float, float]:
    """A distribution-free 95 % confidence interval of the median: the order statistics whose
    ranks the binomial distribution of n draws at one half puts 2.5 % beyond on each side."""
    ordered = sorted(values)
    n = len(ordered)
    below, low = 0.0, 0
    while low < n:
        below += math.comb(n, low) / 2**n
        if below > 0.025:
            break
        low += 1
    return ordered[max(0, low - 1)], ordered[min(n - 1, n - max(low, 1))]


def spread_ms(values: list[float]) -> dict[str, Any]:
    """Median (with its 95 % interval), p99 and max of delays, in milliseconds."""
    if not values:
        return {}
    low, high = median_interval(values)
    return {
        "median": round(statistics.median(values) * 1000, 1),
        "median_95ci": [round(low * 1000, 1), round(high * 1000, 1)],
        "p99": round(percentile(values, 0.99) * 1000, 1),
        "max": round(max(values) * 1000, 1),
    }


def behind(cafe: Cafe, last: dict[str, float | None]) -> list[str]:
    """The tables whose latest action the view does not show (the game it holds is older)."""
    late = []
    for table, at in last.items():
        shown = shown_action_at(cafe, table)
        if at is not None and (shown is None or shown < at):
            late.append(table)
    return late


def shown_action_at(cafe: Cafe, table: str) -> float | None:
    """When the action was taken that the view shows as `table`'s last, if it shows one."""
    row = cafe.tables.get(table)
    shown = None if row is None or row.game is None else row.game.get("last")
    return None if shown is None else shown["at"]


def lateness(cafe: Cafe, last: dict[str, float | None], late: list[str]) -> dict[str, Any]:
    """For each table in `late`, what the view holds of it alongside its last action's time:
    to tell a lost message from one that came out of order or was never sent."""
    found: dict[str, Any] = {}
    for table in late:
        row = cafe.tables.get(table)
        game = None if row is None else row.game
        found[table] = {
            "last_action_at": last.get(table),
            "shown_action_at": shown_action_at(cafe, table),
            "game_sent_at": None if game is None else game["at"],
            "online": None if row is None else row.online,
        }
    return found


def main(argv: list[str] | None = None) -> int:  # noqa: PLR0915 (one run, in order)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between a table's actions")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--light", action="store_true", help="light publishers, no hardware")
    parser.add_argument("--bridged", action="store_true", help="two café brokers, one chain's")
    parser.add_argument("--restart", action="store_true", help="restart a café broker mid-run")
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="fleet-bench-broker-"))
    brokers: dict[str, tuple[subprocess.Popen[bytes], int, Path]] = {}

    def start_broker(name: str, bridge_to: int | None = None) -> int:
        folder = root / name
        folder.mkdir()
        port = mosquitto.free_port()
        brokers[name] = (mosquitto.start(folder, port, bridge_to=bridge_to), port, folder)
        return port

    view_port = start_broker("chain" if args.bridged else "cafe")
    cafes = ["cafe"]
    if args.bridged:
        cafes = ["cafe-1", "cafe-2"]
        for name in cafes:
            start_broker(name, bridge_to=view_port)
    view = View(f"mqtt://127.0.0.1:{view_port}")
    view_cpu = resource.getrusage(resource.RUSAGE_SELF)
    broker_cpu = {name: proc_cpu_s(process.pid) for name, (process, _, _) in brokers.items()}
    ids = [f"table-{n + 1}" for n in range(args.tables)]
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    ready = context.Queue()
    target = play_light_tables if args.light else play_tables
    workers = []
    for w in range(args.workers):
        url = f"mqtt://127.0.0.1:{brokers[cafes[w % len(cafes)]][1]}"
        job = Job(url, ids[w :: args.workers], args.seconds, args.pace, args.seed + w, args.light)
        workers.append(context.Process(target=target, args=(job, out, ready)))
    started = time.monotonic()
    for worker in workers:
        worker.start()
    for _ in workers:
        ready.get()  # every table connected, and playing from now
    restarted: dict[str, Any] | None = None
    if args.restart:
        time.sleep(args.seconds / 2)
        process, port, folder = brokers[cafes[0]]
        cpu_before = proc_cpu_s(process.pid)
        stopped = time.monotonic()
        process.kill()  # as a power cut would
        process.wait()
        time.sleep(2.0)
        process = mosquitto.launch(folder / "mosquitto.conf", port, folder / "mosquitto.log")
        brokers[cafes[0]] = (process, port, folder)
        broker_cpu[cafes[0]] -= cpu_before  # the first life's CPU, counted with the second's
        restarted = {"broker": cafes[0], "down_s": round(time.monotonic() - stopped, 1)}
    reports = [out.get() for _ in workers]
    for worker in workers:
        worker.join()
    elapsed = time.monotonic() - started
    last: dict[str, float | None] = {}
    for report in reports:
        last |= report.pop("last", {})
    settled = time.monotonic()
    while last and behind(view.cafe, last) and time.monotonic() - settled < 30.0:
        time.sleep(0.1)
    late = behind(view.cafe, last) if last else []
    settle_s = time.monotonic() - settled
    view.close()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    latencies = view.latencies
    result: dict[str, Any] = {
        "tables": args.tables,
        "light": args.light,
        "bridged": args.bridged,
        "seed": args.seed,
        "seconds": round(elapsed, 1),
        "events": len(latencies),
        "tables_seen": len(view.cafe.tables),
        "messages_per_s": round(view.messages / elapsed, 1),
        "latency_ms": spread_ms(latencies),
        "game_latency_ms": spread_ms(view.game_latencies),
        "brokers": {
            name: {
                "cpu_percent": round(
                    100 * (proc_cpu_s(process.pid) - broker_cpu[name]) / elapsed, 1
                ),
                "peak_rss_mib": round(proc_peak_mib(process.pid), 1),
            }
            for name, (process, _, _) in brokers.items()
        },
        "view": {
            "cpu_percent": round(
                100
                * (usage.ru_utime + usage.ru_stime - view_cpu.ru_utime - view_cpu.ru_stime)
                / elapsed,
                1,
            ),
            "peak_rss_mib": round(usage.ru_maxrss / 1024, 1),
        },
        "tables_processes": {
            "workers": args.workers,
            "cpu_percent": round(100 * sum(r["cpu_s"] for r in reports) / elapsed, 1),
            "peak_rss_mib_each": round(max(r["peak_rss_mib"] for r in reports), 1),
            "events_dropped": sum(r["dropped"] for r in reports),
        },
        "rejected": view.cafe.rejected,
        "load_average": os.getloadavg()[0],
    }
    if last:
        result["tables_behind_at_end"] = len(late)
        if late:
            result["behind"] = lateness(view.cafe, last, late)
        result["settled_after_s"] = round(settle_s, 1)
    if restarted is not None:
        result["restart"] = restarted
    result["p99_under_1s"] = result["latency_ms"]["p99"] < 1000 and (
        not view.game_latencies or result["game_latency_ms"]["p99"] < 1000
    )
    for process, _, _ in brokers.values():
        process.terminate()
        process.wait()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
