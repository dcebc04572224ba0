"""`make fleet-bench` in tiny configurations: the shape of its report, and with bridged brokers
and a café broker restarted mid-run, every table's latest game in the view once it is back (its
figures belong to the guides, never to a test)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tools import fleet_bench, mosquitto


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    if mosquitto.binary() is None:
        pytest.skip("mosquitto is not installed (apt-get install mosquitto; .ci/run does)")
    assert fleet_bench.main(list(argv)) == 0
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


def test_the_fleet_bench_reports_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    report = run(capsys, "--tables", "2", "--workers", "1", "--seconds", "1", "--pace", "0.2")
    assert report["tables_seen"] == 2 and report["events"] > 0 and report["rejected"] == 0
    latency = report["latency_ms"]
    assert set(latency) == {"median", "median_95ci", "p99", "max"}
    assert latency["median"] <= latency["p99"]
    assert {"cpu_percent", "peak_rss_mib"} <= report["brokers"]["cafe"].keys()
    assert {"cpu_percent", "peak_rss_mib"} <= report["view"].keys()
    assert report["tables_processes"]["events_dropped"] == 0


def test_a_chain_of_cafes_loses_no_table_when_a_cafe_broker_restarts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--tables", "6", "--light", "--bridged", "--restart", "--seconds", "4"]
    report = run(capsys, *argv, "--pace", "0.3")
    assert set(report["brokers"]) == {"chain", "cafe-1", "cafe-2"}
    assert report["tables_seen"] == 6 and report["rejected"] == 0
    assert report["restart"]["broker"] == "cafe-1"
    # Once the café broker is back, the view holds every table's latest action.
    assert report["tables_behind_at_end"] == 0, report.get("behind")
