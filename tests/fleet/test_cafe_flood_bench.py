"""`make cafe-flood-bench` in a small configuration: every figure is reported, the view shows
the news of every marker, keeps its cap on tables, says what it dropped, and SIGTERM stops it
with exit 0, under the flood, well before systemd would kill it (the unit's `TimeoutStopSec`);
the bench itself reports how long that took."""

from __future__ import annotations

import json
import re

import pytest

from tools import cafe_flood_bench, mosquitto

from ..paths import REPO

CAFE_UNIT = REPO / "systemd" / "codenames-cafe.service"


def test_the_flood_bench_reports_and_the_view_stops_in_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    if mosquitto.binary() is None:
        pytest.skip("mosquitto is not installed (apt-get install mosquitto; .ci/run does)")
    assert cafe_flood_bench.main(["--tables", "600", "--rate", "500", "--markers", "3"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tables_shown"] == 500
    assert report["news_to_page_s"]["shown"] == 3
    assert "Messages dropped: " in report["status_line"]
    stop_s = re.search(r"^TimeoutStopSec=(\d+)$", CAFE_UNIT.read_text(), re.MULTILINE)
    assert stop_s is not None
    assert report["sigterm_to_exit_s"] < int(stop_s[1]) / 2 and report["exit_code"] == 0
