"""A table with two displays (and the larger SSD1309): both sides see every screen, and one
display unplugged leaves the other drawing, on the whole virtual table."""

import random
from dataclasses import replace
from pathlib import Path

from firmware.drivers.oled import OledConfig, SecondOled
from firmware.drivers.ssd1306_protocol import Controller
from firmware.table.config import TableConfig
from firmware.table.oled_render import render_screen
from firmware.virtual.table import VirtualTable

TWO = OledConfig(shift_every_s=0, controller=Controller.SSD1309, second=SecondOled())


def test_both_displays_show_the_table_s_screen_the_second_turned(tmp_path: Path) -> None:
    config = replace(TableConfig(), oled=TWO)
    with VirtualTable(config, tmp_path, rng=random.Random(1)) as table:
        first, second = table.chips
        assert (first.controller, second.controller) == (Controller.SSD1309,) * 2
        screen = table.display.screen
        assert screen is not None
        drawn = render_screen(screen).tobytes()
        assert first.to_image().tobytes() == second.to_image().tobytes() == drawn
        upright = first.visible_image()
        assert second.visible_image().rotate(180).tobytes() == upright.tobytes()


def test_one_display_unplugged_leaves_the_other_drawing(tmp_path: Path) -> None:
    config = replace(TableConfig(), oled=TWO)
    with VirtualTable(config, tmp_path, rng=random.Random(1)) as table:
        first, second = table.chips
        before = first.to_image().tobytes()
        table.bus.unplug(config.oled.address)
        table.turn(+2)  # the clue selector moves: a new screen
        screen = table.display.screen
        assert screen is not None and screen.big == "3"
        assert second.to_image().tobytes() == render_screen(screen).tobytes()
        assert first.to_image().tobytes() == before
        table.bus.replug(config.oled.address)
        table.wait(5.0)  # the first display's own back-off brings it back
        assert first.to_image().tobytes() == render_screen(screen).tobytes()
