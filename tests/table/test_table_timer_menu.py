"""The sand timer's beeps and auto-start, the menu's hints and colour-blind palette, and what the
timer and penalty buttons say when they cannot act, on the virtual table."""

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from board_rules.codenames import Coord, Mode, Phase, Team
from firmware.drivers.events import ConsoleButton
from firmware.table.i18n import translations
from firmware.table.menu import ITEMS, MenuItem
from firmware.table.screens import compose
from firmware.table.settings import TableSettings
from firmware.virtual.table import VirtualTable

from ..conftest import TableFactory
from ..table_scripts import STILL, announce

TIMED = replace(STILL, settings=TableSettings(timer_s=30))
STEP_S = 0.01
"""How finely the buzzer pin is listened to."""


def listen(vt: VirtualTable, pin: Any, seconds: float) -> list[tuple[float, int]]:
    """What the buzzer's PWM pin played over the next `seconds`: each sound's length (to the
    step) and pitch, in order."""
    sounds: list[tuple[float, int]] = []
    on_for = 0.0
    hz = 0
    for _ in range(round(seconds / STEP_S)):
        vt.wait(STEP_S)
        if pin.state:
            on_for += STEP_S
            hz = round(pin.frequency)
        elif on_for:
            sounds.append((round(on_for, 2), hz))
            on_for = 0.0
    assert not on_for, "still sounding at the end"
    return sounds


def screen(vt: VirtualTable) -> list[str]:
    """The OLED's texts now."""
    view = vt.table.view(vt.clock.monotonic())
    return compose(view, translations(vt.table.settings.language)).text_lines


def open_menu_at(vt: VirtualTable, item: MenuItem) -> None:
    vt.push(hold_s=1.2)
    vt.turn(ITEMS.index(item))


def test_the_buzzer_beeps_short_at_ten_seconds_left_and_three_times_long_and_low_at_the_end(
    virtual_table: TableFactory,
) -> None:
    with virtual_table(config=TIMED) as vt:
        assert vt.config.pins.buzzer is not None
        pin = vt.factory.pin(vt.config.pins.buzzer)
        announce(vt)
        vt.press_button(ConsoleButton.TIMER)
        started = vt.clock.monotonic() - vt.settle_s
        vt.wait(started + 19.9 - vt.clock.monotonic())
        assert not any(change.state for change in pin.states)
        warning = listen(vt, pin, 1.0)
        assert len(warning) == 1
        (length, pitch) = warning[0]
        assert length == pytest.approx(0.08, abs=STEP_S)
        vt.wait(started + 29.9 - vt.clock.monotonic())
        end = listen(vt, pin, 2.0)
        assert len(end) == 3
        assert all(sound == pytest.approx((0.3, 880), abs=STEP_S) for sound in end)
        assert pitch == 1760  # an octave above the end's
        assert screen(vt)[1] == "Time is up!"


def test_the_timer_starts_by_itself_at_a_clue_only_when_set_to(
    virtual_table: TableFactory, tmp_path: Path
) -> None:
    with virtual_table(tmp_path / "plain", config=TIMED) as vt:
        announce(vt)
        assert vt.table.view(vt.clock.monotonic()).timer_left is None
    auto = replace(TIMED, settings=replace(TIMED.settings, timer_autostart=True))
    with virtual_table(tmp_path / "auto", config=auto) as vt:
        announce(vt)
        vt.wait(5.0)
        assert vt.table.view(vt.clock.monotonic()).timer_seconds == 25
        vt.wait(25.5)
        assert screen(vt)[1] == "Time is up!"


def test_auto_timer_is_set_in_the_menu_and_saved(
    virtual_table: TableFactory, tmp_path: Path
) -> None:
    with virtual_table(tmp_path, config=TIMED) as vt:
        open_menu_at(vt, MenuItem.AUTOSTART)
        assert screen(vt)[1:3] == ["  Timer: 30 s", "→ Auto timer: off"]
        vt.push()
        assert "→ Auto timer: on" in screen(vt)
        vt.push(hold_s=1.2)
        assert vt.store.load_settings() == {"timer_autostart": True}
    with virtual_table(tmp_path, config=TIMED) as vt:
        assert vt.table.settings.timer_autostart
        announce(vt)
        assert vt.table.view(vt.clock.monotonic()).timer_seconds == 30


def test_the_menu_says_how_to_use_it_and_that_a_mode_waits_for_the_next_game(
    virtual_table: TableFactory,
) -> None:
    with virtual_table() as vt:
        vt.push(hold_s=1.2)
        assert screen(vt)[0] == "Menu"
        assert screen(vt)[-1] == "Turn: move · Push: set"
        vt.push()
        assert screen(vt)[1:] == ["→ Mode: Co-op", "  Language: English", "  Brightness: 3/5",
                                  "From the next game"]  # fmt: skip
        assert vt.table.state.mode is Mode.STANDARD
        vt.turn(1)
        assert screen(vt)[-1] == "Turn: move · Push: set"
        vt.turn(-1)
        vt.push()  # back to the mode in play
        assert screen(vt)[-1] == "Turn: move · Push: set"


def test_the_menu_says_in_each_language_that_the_mode_waits(virtual_table: TableFactory) -> None:
    with virtual_table(config=replace(STILL, settings=TableSettings(language="pt"))) as vt:
        open_menu_at(vt, MenuItem.MODE)
        assert screen(vt)[-1] == "Rodar: ir · Premir: mudar"
        vt.push()
        assert screen(vt)[-1] == "No próximo jogo"


def key_cells(vt: VirtualTable, seconds: float) -> set[tuple[tuple[int, ...], ...]]:
    """Every distinct picture of the blue agents' cells over `seconds`, as the strip shows it."""
    layout = vt.lights.layout
    blue = sorted(vt.table.state.key.agents_of(Team.BLUE), key=str)
    pictures = set()
    for _ in range(round(seconds / 0.1)):
        vt.wait(0.1)
        shown = vt.pixel_strip.shown_rgb()
        pictures.add(tuple(tuple(shown[layout.index(coord)]) for coord in blue))
    return pictures


def test_the_colour_blind_palette_is_chosen_in_the_menu_and_the_key_follows_at_once(
    virtual_table: TableFactory, tmp_path: Path
) -> None:
    with virtual_table(tmp_path) as vt:
        assert len(key_cells(vt, 2.5)) == 1  # the normal palette: blue agents hold still
        open_menu_at(vt, MenuItem.COLOUR_BLIND)
        assert "→ Colour-blind: off" in screen(vt)
        vt.push()
        assert "→ Colour-blind: blue" in screen(vt)
        assert vt.lights.style.colour_blind
        assert vt.lights.style.colour_blind_team is Team.BLUE
        assert len(key_cells(vt, 2.5)) > 1  # the blue agents blink slowly, without leaving
        vt.push()
        assert "→ Colour-blind: red" in screen(vt)
        assert vt.lights.style.colour_blind_team is Team.RED
        assert len(key_cells(vt, 2.5)) == 1  # now the red agents blink, not the blue ones
        vt.push(hold_s=1.2)
        assert vt.store.load_settings() == {"colour_blind": "red"}
    with virtual_table(tmp_path) as vt:
        assert vt.table.settings.colour_blind is Team.RED
        assert vt.lights.style.colour_blind
        assert vt.lights.style.colour_blind_team is Team.RED


def test_a_colour_blind_config_is_the_menus_default(virtual_table: TableFactory) -> None:
    style = replace(STILL.led_style, colour_blind=True, colour_blind_team=Team.RED)
    config = replace(STILL, led_style=style, settings=TableSettings(colour_blind=Team.RED))
    with virtual_table(config=config) as vt:
        open_menu_at(vt, MenuItem.COLOUR_BLIND)
        assert "→ Colour-blind: red" in screen(vt)
        vt.push()
        assert "→ Colour-blind: off" in screen(vt)
        assert not vt.lights.style.colour_blind


@pytest.mark.parametrize("hold_s", [0.1, 1.2], ids=["tap", "hold"])
def test_timer_off_says_where_to_turn_it_on(virtual_table: TableFactory, hold_s: float) -> None:
    with virtual_table() as vt:
        vt.press_button(ConsoleButton.TIMER, hold_s=hold_s)
        assert screen(vt)[1:4] == [
            "The timer is off",
            "Turn it on in the menu",
            "Menu: hold the knob",
        ]


def test_holding_timer_without_a_timer_running_still_says_nothing_when_it_is_on(
    virtual_table: TableFactory,
) -> None:
    with virtual_table(config=TIMED) as vt:
        before = screen(vt)
        vt.press_button(ConsoleButton.TIMER, hold_s=1.2)
        assert screen(vt) == before


def test_tapping_penalty_while_a_penalty_is_paid_says_what_to_do_not_to_hold_it(
    virtual_table: TableFactory,
) -> None:
    with virtual_table() as vt:
        announce(vt)
        vt.press_button(ConsoleButton.PENALTY, hold_s=1.2)
        assert vt.table.state.phase is Phase.PENALTY_COVER
        vt.wait(3.0)
        vt.press_button(ConsoleButton.PENALTY)
        lines = screen(vt)
        assert "Hold PENALTY down" not in lines
        assert lines[1] == "Cover a word, or push"
        assert not vt.table.rejections
        vt.press_pad(Coord.parse("C3"))  # the penalty is still to be paid, as before the tap
        vt.press_button(ConsoleButton.DONE)
        assert vt.table.state.phase is Phase.CLUE
