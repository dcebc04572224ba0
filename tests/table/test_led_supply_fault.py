"""A dead LED supply on a table on virtual hardware: named on the OLED while the game goes on,
gone when the supply returns, with the key drawn again."""

import random
from dataclasses import replace
from pathlib import Path

import pytest

from board_rules.codenames import Coord
from firmware.drivers.led_strip import LedFault
from firmware.drivers.led_supply import SETTLE_S
from firmware.drivers.pinout import DEFAULT_PIN_MAP
from firmware.table.oled_render import render_screen
from firmware.virtual.table import VirtualTable

from ..rules_helpers import KEY
from ..table_scripts import STILL, announce

FOOTERS = {
    "en": "LED key off: no power",
    "es": "Sin LED: sin corriente",
    "pt": "Sem LED: sem corrente",
    "it": "LED spenti: senza alim.",
}


def footer(vt: VirtualTable) -> str | None:
    screen = vt.display.screen
    assert screen is not None
    # What the chip shows is that screen, footer and all.
    assert vt.chip.to_image().tobytes() == render_screen(screen).tobytes()
    return screen.footer


def wait_for(vt: VirtualTable, meaning: object, what: str, limit_s: float = 5.0) -> None:
    """Step the virtual clock until `meaning()` holds (the table took the news)."""
    waited = 0.0
    while not meaning():  # type: ignore[operator]
        if waited > limit_s:
            raise AssertionError(f"{what}: not within {limit_s} s")
        vt.wait(0.05)
        waited += 0.05


@pytest.mark.parametrize(("language", "text"), FOOTERS.items())
def test_a_dead_led_supply_is_named_on_the_oled_and_the_game_goes_on(
    tmp_path: Path, language: str, text: str
) -> None:
    with VirtualTable(
        STILL, tmp_path, rng=random.Random(3), first_key=KEY, language=language
    ) as vt:
        assert vt.led_supply is not None
        announce(vt)
        vt.wait(1.0)
        assert vt.table.led_fault is None and footer(vt) != text
        lit = vt.pixel_strip.lit()
        assert any(any(pixel) for pixel in lit)
        vt.led_supply.cut()
        wait_for(vt, lambda: vt.table.led_fault is LedFault.NO_SUPPLY, "the fault")
        assert vt.table.led_supply is False
        assert footer(vt) == text
        assert not any(any(pixel) for pixel in vt.pixel_strip.lit())  # the key is dark
        vt.press_pad(Coord.parse("A1"))  # the game goes on without the key
        assert vt.table.state.covered == {Coord.parse("A1")}
        assert footer(vt) == text
        vt.led_supply.restore()
        wait_for(vt, lambda: vt.table.led_fault is None, "the fault clearing")
        assert footer(vt) != text
        # The pixels woke dark: the key went out again whole, A1 covered.
        assert any(any(pixel) for pixel in vt.pixel_strip.lit())
        assert vt.pixel_strip.lit() != lit


def test_a_supply_that_only_flickers_is_not_a_fault(tmp_path: Path) -> None:
    with VirtualTable(STILL, tmp_path, rng=random.Random(3), first_key=KEY) as vt:
        assert vt.led_supply is not None
        vt.led_supply.cut()
        vt.wait(SETTLE_S / 2)
        vt.led_supply.restore()
        vt.wait(3 * SETTLE_S)
        assert vt.table.led_fault is None and vt.table.led_supply is True


def test_a_table_that_starts_without_its_led_supply_says_so_at_once(tmp_path: Path) -> None:
    with VirtualTable(
        STILL, tmp_path, rng=random.Random(3), first_key=KEY, led_supply_on=False
    ) as vt:
        assert vt.table.led_fault is LedFault.NO_SUPPLY
        assert footer(vt) == FOOTERS["en"]
        assert vt.led_supply is not None
        vt.led_supply.restore()
        wait_for(vt, lambda: vt.table.led_fault is None, "the fault clearing")
        assert footer(vt) != FOOTERS["en"]
        assert any(any(pixel) for pixel in vt.pixel_strip.lit())


def test_a_table_without_the_sense_divider_does_not_watch_its_supply(tmp_path: Path) -> None:
    config = replace(STILL, pins=replace(DEFAULT_PIN_MAP, led_sense=None))
    with VirtualTable(config, tmp_path, rng=random.Random(3), first_key=KEY) as vt:
        assert vt.led_supply is None
        assert vt.table.led_supply is None
        vt.wait(1.0)
        assert vt.table.led_fault is None and footer(vt) != FOOTERS["en"]
