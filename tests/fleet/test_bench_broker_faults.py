"""`make bench`'s fleet figures in a tiny configuration: their shape, the publisher's counts that
show which broker the table met, and null with a reason without Mosquitto; and the slow proxy
passes bytes both ways, in order. Nothing here is timed: the figures belong to the README."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from paho.mqtt import publish

from tools import bench_broker_faults, mosquitto
from tools.slow_proxy import SlowProxy

from .broker_helpers import Listener, Mosquitto


def figures_without_fleet() -> dict[str, Any]:
    """What `tools.bench.run_bench` has when it adds the fleet's figures."""
    return {"touch_to_led_ms": {"median": 30.0, "p99": 40.0}, "budgets": {}, "within_budget": {}}


def test_the_fleet_figures_and_their_budgets() -> None:
    if mosquitto.binary() is None:
        pytest.skip("mosquitto is not installed (apt-get install mosquitto; .ci/run does)")
    figures = figures_without_fleet()
    bench_broker_faults.with_fleet(figures, touches=2, paced=False)
    down, slow = figures["touch_to_led_ms_broker_down"], figures["touch_to_led_ms_broker_slow"]
    for figure in (down, slow):
        assert 0 < figure["median"] <= figure["p99"]
    # Down: the table had lost its broker, so every event was dropped; slow: every one sent.
    assert down["events_sent"] == 0 and down["events_dropped"] >= 2
    assert slow["events_sent"] >= 2 and slow["events_dropped"] == 0
    assert slow["delay_ms"] == 200
    names = {f"{name}_median" for name in bench_broker_faults.FIGURES}
    assert set(figures["budgets"]) == set(figures["within_budget"]) == names
    margin = bench_broker_faults.MARGIN_MS
    assert all(budget == 30.0 + margin for budget in figures["budgets"].values())
    assert all(isinstance(ok, bool) for ok in figures["within_budget"].values())


def test_without_mosquitto_the_figures_are_null_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(shutil, "which", lambda *args, **kwargs: None)
    # As `tools.bench` runs it: its figures in on standard input, out with the fleet's.
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(figures_without_fleet())))
    assert bench_broker_faults.main(["--touches", "2", "--unpaced"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["touch_to_led_ms"] == figures_without_fleet()["touch_to_led_ms"]
    assert all(figures[name] is None for name in bench_broker_faults.FIGURES)
    assert "mosquitto is not installed" in figures["fleet_unmeasured"]
    assert figures["budgets"] == {} and figures["within_budget"] == {}


def test_the_slow_proxy_passes_every_message_on_in_order(
    broker: Mosquitto, listener: Listener, tmp_path: Path
) -> None:
    with SlowProxy(broker.port, delay_s=0.01) as proxy:
        messages = [{"topic": "codenames/slow/events", "payload": str(n)} for n in range(5)]
        # The broker's answers come back through it too: publish waits for them.
        publish.multiple(messages, hostname="127.0.0.1", port=proxy.port)  # type: ignore[arg-type]
        assert listener.wait_for(lambda _: len(listener.on("codenames/slow/events")) == 5)
        assert proxy.chunks >= 2
    assert [m.payload for m in listener.on("codenames/slow/events")] == [
        str(n).encode() for n in range(5)
    ]
