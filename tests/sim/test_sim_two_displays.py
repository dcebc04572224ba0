"""The simulation with two displays configured: both glasses drawn from their chips' memory, the
second under the first, turned by its chip as it faces the other side of the table."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from firmware.drivers.oled import OledConfig, SecondOled
from firmware.sim.app import SimApp
from firmware.sim.widgets import OledView, braille_rows
from firmware.table.config import TableConfig

from ..rules_helpers import KEY
from .test_sim_app import WALL_CLOCK, WORDS

TALL = (120, 55)
"""The window two stacked glasses need: 17 rows more than one."""


def test_both_glasses_are_drawn_the_second_under_the_first(tmp_path: Path) -> None:
    config = replace(TableConfig(), oled=OledConfig(second=SecondOled()))
    app = SimApp(
        config,
        tmp_path,
        words=WORDS,
        seed=1,
        first_key=KEY,
        realtime=False,
        wall_clock_start=WALL_CLOCK,
    )

    async def main() -> None:
        async with app.run_test(size=TALL) as pilot:
            await look(pilot, app)

    asyncio.run(main())


async def look(pilot: Pilot[None], app: SimApp) -> None:
    await pilot.pause()
    assert app.min_size == TALL and not app.screen.has_class("-too-small")
    first, second = app.vt.chips
    rows = app.query_one(OledView).rows
    upright, turned = braille_rows(first.visible_image()), braille_rows(second.visible_image())
    assert rows == (*upright, "", *turned)
    assert upright != turned  # the same screen, turned by 180° on the second chip
    assert first.to_image().tobytes() == second.to_image().tobytes()


def test_a_window_for_one_display_is_too_small_for_two(tmp_path: Path) -> None:
    config = replace(TableConfig(), oled=OledConfig(second=SecondOled()))
    app = SimApp(config, tmp_path, words=WORDS, seed=1, realtime=False)

    async def main() -> None:
        async with app.run_test(size=(120, 38)) as pilot:
            await pilot.pause()
            assert app.screen.has_class("-too-small")
            assert "120 × 55" in str(app.query_one("#too-small", Static).render())

    asyncio.run(main())
