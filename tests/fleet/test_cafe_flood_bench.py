"""`make cafe-flood-bench` in a small configuration, for both views (the page alone and the
terminal view): every figure and the goal's verdict are reported, the view shows the news of
every marker, keeps its cap on tables, says what it dropped, and SIGTERM stops it with exit 0,
under the flood. How fast is the bench's to say, not this test's."""

from __future__ import annotations

import json

import pytest

from tools import cafe_flood_bench, mosquitto


def test_the_flood_bench_reports_both_views_and_its_goal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    if mosquitto.binary() is None:
        pytest.skip("mosquitto is not installed (apt-get install mosquitto; .ci/run does)")
    argv = ["--tables", "600", "--rate", "500", "--markers", "3"]
    assert cafe_flood_bench.main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report["views"]) == {"page", "terminal"}
    for view in report["views"].values():
        assert view["tables_shown"] == 500
        assert view["news_to_page_s"]["shown"] == 3
        assert view["news_to_plain_subscriber_s"]["median"] is not None
        assert "Messages dropped: " in view["status_line"]
        assert view["exit_code"] == 0
        assert view["goal"]["tables_capped_drops_shown"]
        assert view["goal"]["met"] == all(
            view["goal"][name]
            for name in ("update_within_1s", "tables_capped_drops_shown", "sigterm_within_2s")
        )
    assert report["goal_met"] == all(view["goal"]["met"] for view in report["views"].values())
