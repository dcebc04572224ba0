"""The simulation's LED power key: it cuts the LED key's supply and brings it back, on the
twin's divider, as staff would meet a dead supply: the OLED names it, the game goes on."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from firmware.sim.app import SimApp

from .test_sim_app import drive, keys, make_app, oled_lines
from .test_sim_language import footer_keys, line

WORDS = {
    "en": ("LED power", "LED key off: no power", "Input: LED power off"),
    "es": ("corriente LED", "Sin LED: sin corriente", "Entradas: LED sin corriente"),
    "pt": ("corrente LED", "Sem LED: sem corrente", "Entradas: LED sem corrente"),
    "it": ("corrente LED", "LED spenti: senza alim.", "Ingressi: LED senza corrente"),
}


@pytest.mark.parametrize("language", list(WORDS))
def test_the_led_power_key_cuts_the_supply_and_brings_it_back(
    tmp_path: Path, language: str
) -> None:
    key_text, footer, events = WORDS[language]

    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        assert footer_keys(app)["l"] == key_text
        assert app.query_one("#led-panel").border_subtitle == f"l {key_text}"
        assert app.vt.led_supply is not None and app.vt.led_supply.on
        await keys(pilot, app, "l")
        assert not app.vt.led_supply.on
        assert oled_lines(app)[-1] == footer
        assert line(app, "#events") == events
        await keys(pilot, app, "space")  # the clue: the game goes on in the dark
        assert app.vt.table.state.clue is not None
        await keys(pilot, app, "l")
        assert app.vt.led_supply.on
        assert footer not in oled_lines(app)
        assert any(any(pixel) for pixel in app.vt.pixel_strip.lit())

    drive(make_app(tmp_path, language=language), scenario)
