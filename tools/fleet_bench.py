"""`make fleet-bench`: headless tables (50 by default) play random games on this machine through
one Mosquitto into one café view, in real time; how long from an accepted action to the view's
update (median, p99), how many messages a second, and the CPU and memory of the broker, the view
and the tables.

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
import json
import math
import multiprocessing
import random
import resource
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from board_rules.codenames import ALL_COORDS, Phase
from firmware.cafe.model import Cafe
from firmware.cafe.subscriber import Subscriber
from firmware.drivers.events import ConsoleButton
from firmware.fleet.broker import BrokerAddress, Credentials
from firmware.fleet.health import HealthReading
from firmware.fleet.publisher import FleetPublisher
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


def play_tables(job: Job, out: Any) -> None:
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
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out.put(
        {
            "cpu_s": usage.ru_utime + usage.ru_stime,
            "peak_rss_mib": usage.ru_maxrss / 1024,
            "dropped": dropped,
        }
    )


class View:
    """The café's view in this process, timing each event it takes."""

    def __init__(self, url: str) -> None:
        self.cafe = Cafe()
        self.latencies: list[float] = []
        self.messages = 0
        self._lock = threading.Lock()
        self._subscriber = Subscriber(
            BrokerAddress.parse(url), Credentials(), self._receive, lambda up, text: None
        )
        self._subscriber.start()

    def _receive(self, topic: str, payload: bytes) -> None:
        with self._lock:
            self.messages += 1
            if self.cafe.receive(topic, payload) and topic.endswith("/events"):
                at = json.loads(payload)["at"]
                self.latencies.append(time.time() - at)

    def close(self) -> None:
        self._subscriber.close()


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between a table's actions")
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="fleet-bench-broker-"))
    port = mosquitto.free_port()
    broker = mosquitto.start(folder, port)
    url = f"mqtt://127.0.0.1:{port}"
    view = View(url)
    view_cpu = resource.getrusage(resource.RUSAGE_SELF)
    broker_cpu = proc_cpu_s(broker.pid)
    ids = [f"table-{n + 1}" for n in range(args.tables)]
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    workers = [
        context.Process(
            target=play_tables,
            args=(Job(url, ids[w :: args.workers], args.seconds, args.pace, args.seed + w), out),
        )
        for w in range(args.workers)
    ]
    started = time.monotonic()
    for worker in workers:
        worker.start()
    reports = [out.get() for _ in workers]
    for worker in workers:
        worker.join()
    elapsed = time.monotonic() - started
    time.sleep(0.5)  # the last messages on their way
    view.close()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    result: dict[str, Any] = {
        "tables": args.tables,
        "seconds": round(elapsed, 1),
        "events": len(view.latencies),
        "tables_seen": len(view.cafe.tables),
        "messages_per_s": round(view.messages / elapsed, 1),
        "latency_ms": {
            "median": round(statistics.median(view.latencies) * 1000, 1),
            "p99": round(percentile(view.latencies, 0.99) * 1000, 1),
            "max": round(max(view.latencies) * 1000, 1),
        },
        "broker": {
            "cpu_percent": round(100 * (proc_cpu_s(broker.pid) - broker_cpu) / elapsed, 1),
            "peak_rss_mib": round(proc_peak_mib(broker.pid), 1),
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
    }
    broker.terminate()
    broker.wait()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
