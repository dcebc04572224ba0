"""The table as `build_table` wires it from the config, seen on a virtual table (the service
on the Pi goes through the same builder)."""

from __future__ import annotations

from dataclasses import replace

from board_rules.codenames import Coord

from ..conftest import TableFactory
from ..table_scripts import STILL


def test_the_table_sleeps_after_the_configured_time(virtual_table: TableFactory) -> None:
    with virtual_table(config=replace(STILL, sleep_after_s=30.0)) as vt:
        vt.wait(29.0)
        assert not vt.table.asleep
        vt.wait(2.0)
        assert vt.table.asleep
        vt.press_pad(Coord.parse("A1"))
        assert not vt.table.asleep


def test_the_key_is_wired_and_looks_as_the_config_says(virtual_table: TableFactory) -> None:
    layout = replace(STILL.led_layout, rotation=90)
    style = replace(STILL.led_style, colour_blind=True)
    # The palette is a menu setting whose default the config's [led.style] gives.
    settings = replace(STILL.settings, colour_blind=style.colour_blind_team)
    config = replace(STILL, led_layout=layout, led_style=style, settings=settings)
    with virtual_table(config=config) as vt:
        assert vt.lights.layout == layout
        # All of the look but the brightness, which the table sets from its menu's level.
        assert replace(vt.lights.style, brightness=style.brightness) == style
