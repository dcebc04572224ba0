"""`make fleet-bench` in a tiny configuration: the shape of its report only (its figures belong
to the README, never to a test)."""

from __future__ import annotations

import json

import pytest

from tools import fleet_bench, mosquitto


def test_the_fleet_bench_reports_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    if mosquitto.binary() is None:
        pytest.skip("mosquitto is not installed (apt-get install mosquitto; .ci/run does)")
    assert (
        fleet_bench.main(["--tables", "2", "--workers", "1", "--seconds", "1", "--pace", "0.2"])
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["tables_seen"] == 2 and report["events"] > 0 and report["rejected"] == 0
    assert set(report["latency_ms"]) == {"median", "p99", "max"}
    assert report["latency_ms"]["median"] <= report["latency_ms"]["p99"]
    assert {"cpu_percent", "peak_rss_mib"} <= report["broker"].keys() & report["view"].keys()
    assert report["tables_processes"]["events_dropped"] == 0
