"""`make bench`'s fleet figures: touch → LED latency with `[fleet]` configured and its
broker down (a Mosquitto killed once the table had connected: the publisher is losing it and
retrying) or slow (behind `tools.slow_proxy`, every chunk 200 ms late both ways), measured as
`tools.bench` measures it without a fleet, with its own functions. The game loop never waits for
the network, so the budget is "unchanged": each median within the same run's no-fleet median
plus a small margin.

Where Mosquitto is not installed the figures are null, with the reason. `tools.bench` runs this
module as a child (`main`: its figures in on standard input, out with the fleet's on standard
output), since this module imports it.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from firmware.fleet.attach import reporting
from firmware.fleet.publisher import FleetPublisher
from firmware.table.config import FleetConfig
from tools import mosquitto
from tools.bench import (
    TIMEOUT_S,
    BenchError,
    Player,
    bench_config,
    pi_like_table,
    spread,
    wait_until,
)
from tools.slow_proxy import SlowProxy

MARGIN_MS: Final = 3.0
"""How much a fleet's median may exceed the no-fleet median and still count as unchanged: the
run-to-run spread of that median on this machine."""
FIGURES: Final = ("touch_to_led_ms_broker_down", "touch_to_led_ms_broker_slow")
TABLE: Final = "bench"


def measure_touch_to_led(
    state_dir: Path,
    fleet: FleetConfig,
    before_play: Callable[[FleetPublisher], object],
    *,
    touches: int,
    paced: bool,
    backend: str,
) -> tuple[dict[str, float], dict[str, int]]:
    """Touch → LED (median, p99) over `touches` touches of the bench's games, the table
    reporting to `fleet` once `before_play` has had its publisher; and the publisher's counts
    (events sent and dropped)."""
    with (
        pi_like_table(state_dir, paced=paced, config=bench_config(backend)) as (vt, bus, leds),
        reporting(fleet, vt.table, state_dir),
    ):
        publisher = vt.table.observer
        assert isinstance(publisher, FleetPublisher)  # `reporting` made it the observer
        before_play(publisher)
        player = Player(vt, bus, leds)
        player.play(touches)
        counts = {"events_sent": publisher.events_sent, "events_dropped": publisher.events_dropped}
    return spread([s.led_ms for s in player.touches]), counts


@contextmanager
def _broker(folder: Path) -> Iterator[tuple[Any, int]]:
    """A Mosquitto of the bench's own: (its process, its port); stopped afterwards."""
    port = mosquitto.free_port()
    process = mosquitto.start(folder, port)
    try:
        yield process, port
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait()


def _connected(publisher: FleetPublisher) -> None:
    if not publisher.wait_connected(TIMEOUT_S):
        raise BenchError(f"the table never reached the bench's broker: {publisher.problem}")


def broker_down(folder: Path, *, touches: int, paced: bool, backend: str) -> dict[str, Any]:
    """Touch → LED once the table's broker was killed under it."""
    with _broker(folder / "broker") as (process, port):
        fleet = FleetConfig(broker=f"mqtt://127.0.0.1:{port}", table=TABLE)

        def kill(publisher: FleetPublisher) -> None:
            _connected(publisher)
            process.kill()
            process.wait()
            wait_until(lambda: not publisher.connected, "the table to lose its broker")

        spread, counts = measure_touch_to_led(
            folder / "table", fleet, kill, touches=touches, paced=paced, backend=backend
        )
    return {**spread, **counts}


def broker_slow(folder: Path, *, touches: int, paced: bool, backend: str) -> dict[str, Any]:
    """Touch → LED with the table's broker behind the slow proxy."""
    with _broker(folder / "broker") as (_, port), SlowProxy(port) as proxy:
        fleet = FleetConfig(broker=f"mqtt://127.0.0.1:{proxy.port}", table=TABLE)
        spread, counts = measure_touch_to_led(
            folder / "table", fleet, _connected, touches=touches, paced=paced, backend=backend
        )
    return {**spread, **counts, "delay_ms": round(proxy.delay_s * 1000)}


def with_fleet(
    figures: dict[str, Any], *, touches: int, paced: bool, backend: str = "matrix"
) -> None:
    """Add the fleet's figures to `figures` (a `tools.bench` run's, with its no-fleet
    `touch_to_led_ms`), and their budgets when they could be measured."""
    if mosquitto.binary() is None:
        figures.update(dict.fromkeys(FIGURES))
        figures["fleet_unmeasured"] = "mosquitto is not installed (apt-get install mosquitto)"
        return
    options: dict[str, Any] = {"touches": touches, "paced": paced, "backend": backend}
    for name, measure in zip(FIGURES, (broker_down, broker_slow), strict=True):
        with tempfile.TemporaryDirectory(prefix="codenames-bench-fleet-") as folder:
            for part in ("broker", "table"):
                (Path(folder) / part).mkdir()
            started = time.monotonic()
            figures[name] = measure(Path(folder), **options)
            figures[name]["seconds"] = round(time.monotonic() - started, 1)
        budget = round(figures["touch_to_led_ms"]["median"] + MARGIN_MS, 2)
        figures["budgets"][f"{name}_median"] = budget
        figures["within_budget"][f"{name}_median"] = figures[name]["median"] <= budget


def main(argv: Sequence[str] | None = None) -> int:
    """Read a `tools.bench` run's figures on standard input, print them with the fleet's."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench_broker_faults",
        description="Add touch → LED with a fleet's broker down and slow to make bench's figures.",
    )
    parser.add_argument("--touches", type=int, required=True)
    parser.add_argument("--unpaced", action="store_true")
    parser.add_argument("--backend", choices=("matrix", "mpr121"), default="matrix")
    args = parser.parse_args(argv)
    figures = json.load(sys.stdin)
    with_fleet(figures, touches=args.touches, paced=not args.unpaced, backend=args.backend)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
