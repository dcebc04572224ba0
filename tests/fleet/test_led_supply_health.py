"""A dead LED supply in the fleet's health: the reading's fields, and the café's row that shows
them, with no change in the café (its words for a dark key take the code as sent)."""

from __future__ import annotations

from pathlib import Path

from firmware.cafe.model import Cafe
from firmware.fleet.health import HealthReading
from firmware.fleet.messages import encode, envelope


def test_the_reading_says_whether_the_supply_is_there_and_the_cafe_shows_it(
    tmp_path: Path,
) -> None:
    supply: list[bool | None] = [True]
    health = HealthReading(
        tmp_path,
        0.0,
        led_off=lambda: None if supply[0] is not False else "no-supply",
        led_supply=lambda: supply[0],
        zone=tmp_path / "no-thermal-zone",  # a hot machine's CPU would be a problem too
    )
    cafe = Cafe("en")
    fields = health.fields(1.0, 0)
    assert (fields["led_supply"], fields["led_off"]) == (True, None)
    cafe.receive("codenames/t1/health", encode(envelope("t1", 1, **fields)))
    assert cafe.tables["t1"].cells(cafe.catalog, 2.0)["health"] == "OK"
    supply[0] = False
    fields = health.fields(2.0, 0)
    assert (fields["led_supply"], fields["led_off"]) == (False, "no-supply")
    cafe.receive("codenames/t1/health", encode(envelope("t1", 2, **fields)))
    assert cafe.tables["t1"].cells(cafe.catalog, 3.0)["health"] == "LED key off: no-supply"


def test_a_table_that_does_not_watch_its_supply_reports_none(tmp_path: Path) -> None:
    fields = HealthReading(tmp_path, 0.0).fields(1.0, 0)
    assert fields["led_supply"] is None and fields["led_off"] is None
