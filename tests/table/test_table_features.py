"""The table's timer, menu, sleep, power cuts and secrecy, through headless scripts."""

import logging
from pathlib import Path
from typing import get_args

import pytest

from board_rules.codenames import Coord
from firmware.drivers.events import ConsoleButton, InputEvent
from firmware.table.config import TableConfig
from firmware.table.menu import ITEMS, MenuItem
from firmware.table.settings import TableSettings

from ..conftest import TableFactory
from ..rules_helpers import KEY
from ..table_scripts import KEY_LINE, clue, play

TIMED = TableConfig(settings=TableSettings(timer_s=30))
STRICT = TableConfig(settings=TableSettings(timer_s=30, strict=True))


def test_the_timer_counts_down_on_the_oled_and_rings_at_the_end(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\n{clue(2)}press A1\nbutton timer\nwait 15\ndump\nwait 16\ndump\n"
    half, ended = play(script, tmp_path, config=TIMED)
    assert half["game"]["phase"] == "guess"
    assert "Time is up!" not in half["oled"]
    assert ended["oled"][1] == "Time is up!"
    assert ended["game"]["phase"] == "guess"  # not strict: only a reminder


def test_the_buzzer_beeps_when_the_timer_runs_out_and_not_before(
    virtual_table: TableFactory,
) -> None:
    with virtual_table(config=TIMED, seed=1) as vt:
        assert vt.config.pins.buzzer is not None
        buzzer = vt.factory.pin(vt.config.pins.buzzer)

        def sounded() -> int:
            return sum(1 for change in buzzer.states if change.state)

        vt.push()
        vt.press_button(ConsoleButton.TIMER)
        vt.wait(19.0)
        assert sounded() == 0
        vt.wait(10.0)
        assert sounded() == 1  # the ten-second warning
        vt.wait(3.0)
        assert sounded() == 4  # and the three beeps of the end
        assert buzzer.state == 0  # and it stopped again


def test_the_strict_timer_ends_the_turn_and_can_be_undone(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\n{clue(2)}button timer\nwait 31\ndump\nbutton undo 1.2\ndump\n"
    ended, undone = play(script, tmp_path, config=STRICT)
    assert (ended["game"]["phase"], ended["game"]["turn"]) == ("clue", "blue")
    assert (undone["game"]["phase"], undone["game"]["turn"]) == ("guess", "red")


def test_the_strict_timer_does_not_end_a_clue_phase(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\nbutton timer\nwait 31\ndump\n"
    (state,) = play(script, tmp_path, config=STRICT)
    assert (state["game"]["phase"], state["game"]["turn"]) == ("clue", "red")


def test_a_long_timer_press_pauses_and_resumes(tmp_path: Path) -> None:
    script = (
        f"{KEY_LINE}\n{clue(2)}press A1\nbutton timer\nwait 10\nbutton timer 1.2\nwait 60\ndump\n"
        "button timer 1.2\nwait 25\ndump\n"
    )
    paused, resumed = play(script, tmp_path, config=STRICT)
    assert paused["game"]["phase"] == "guess"  # 70 s later, but paused at about 10 s
    assert resumed["game"]["phase"] == "clue"  # ran out after resuming


def test_a_short_timer_press_restarts_a_running_timer(tmp_path: Path) -> None:
    script = (
        f"{KEY_LINE}\n{clue(2)}press A1\nbutton timer\nwait 20\nbutton timer\nwait 20\ndump\n"
        "wait 11\ndump\n"
    )
    restarted, ended = play(script, tmp_path, config=STRICT)
    assert (
        restarted["game"]["phase"] == "guess"
    )  # 40 s after the first start, 20 s after the restart
    assert ended["game"]["phase"] == "clue"


def test_the_strict_timer_says_why_the_turn_ended(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\n{clue(2)}press A1\nbutton timer\nwait 31\ndump\n"
    (ended,) = play(script, tmp_path, config=STRICT)
    assert ended["game"]["turn"] == "blue"
    assert ended["oled"][1:3] == ["Time is up!", "Turn over"]


def test_the_timer_stops_when_the_turn_passes(tmp_path: Path) -> None:
    # Red's timer runs on while red stops and blue gives its clue: it must not end blue's turn.
    script = (
        f"{KEY_LINE}\n{clue(2)}button timer\npress A1\nbutton done\n{clue(1)}press E2\n"
        "wait 40\ndump\n"
    )
    (state,) = play(script, tmp_path, config=STRICT)
    assert (state["game"]["phase"], state["game"]["turn"]) == ("guess", "blue")
    assert "Time is up!" not in state["oled"]


def test_a_new_game_stops_the_timer(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\n{clue(2)}button timer\nbutton new 2.2\nwait 29\ndump\n"
    (state,) = play(script, tmp_path, config=STRICT)
    assert "Time is up!" not in state["oled"]


def test_a_running_timer_wakes_the_loop_a_bounded_number_of_times(
    virtual_table: TableFactory,
) -> None:
    inputs = get_args(InputEvent)
    config = TableConfig(settings=TableSettings(timer_s=180))
    with virtual_table(config=config, seed=1) as vt:
        vt.push()
        vt.press_button(ConsoleButton.TIMER)
        vt.wait(160.0)
        ticks: list[object] = []
        vt.wait(10.0, observe=ticks.append)
        assert not any(isinstance(event, inputs) for event in ticks)
        # The bar's redraw each second and the assassin's blink: not a chain per tick seen.
        assert len(ticks) <= 40


def test_the_timer_is_off_by_default_and_a_press_says_so(tmp_path: Path) -> None:
    strict_but_off = TableConfig(settings=TableSettings(strict=True))
    script = f"{KEY_LINE}\n{clue(2)}press A1\nbutton timer\ndump\nwait 200\ndump\n"
    pressed, later = play(script, tmp_path, config=strict_but_off)
    assert pressed["oled"][1] == "The timer is off"
    assert later["game"]["phase"] == "guess"


def _menu(*items: MenuItem) -> str:
    """Open the menu and push at each item given (turning from the current one)."""
    lines, at = ["push 1.2"], 0
    for index in map(ITEMS.index, items):
        if index != at:
            lines.append(f"turn {index - at:+d}")
        lines.append("push")
        at = index
    return "\n".join(lines) + "\n"


def test_menu_changes_apply_and_survive_a_restart(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\n{_menu(MenuItem.LANGUAGE, MenuItem.TIMER, MenuItem.EXIT)}dump\n"
    script += "power-cut\ndump\n"
    before, after = play(script, tmp_path)
    assert before["oled"][0] == "Jefe de espías rojo"
    assert after["oled"][0] == "Jefe de espías rojo"
    timed = f"{clue(2)}press A1\nbutton timer\nwait 31\ndump\n"
    (rang,) = play(timed, tmp_path)
    assert rang["oled"][1] == "¡Se acabó el tiempo!"


def test_the_menu_shows_its_items_with_their_values(tmp_path: Path) -> None:
    (menu,) = play(f"{KEY_LINE}\npush 1.2\nturn +2\ndump\n", tmp_path)
    assert menu["oled"] == [
        "Menu",
        "  Language: English",
        "→ Brightness: 3/5",
        "  Colour-blind: off",
        "Turn: move · Push: set",
    ]


def test_a_long_push_leaves_the_menu_without_changing_anything(tmp_path: Path) -> None:
    (state,) = play(f"{KEY_LINE}\npush 1.2\nturn +1\npush 1.2\ndump\n", tmp_path)
    assert state["oled"][:3] == ["Red spymaster", "Turn, then push", "« 1 »"]


def test_the_menu_mode_takes_effect_with_the_next_game(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\n{_menu(MenuItem.MODE, MenuItem.EXIT)}dump\nbutton new 2.1\ndump\n"
    same, coop = play(script, tmp_path)
    assert same["game"]["mode"] == "standard"
    assert coop["game"]["mode"] == "coop"


def test_brightness_from_the_menu_changes_the_led_key(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\ndump\n{_menu(MenuItem.BRIGHTNESS, MenuItem.BRIGHTNESS)}dump\n"
    level3, level5 = play(script, tmp_path)
    assert int(level5["leds"]["A1"][1:3], 16) > int(level3["leds"]["A1"][1:3], 16)


def test_pad_test_shows_each_input_and_a_long_push_leaves(tmp_path: Path) -> None:
    script = (
        f"{KEY_LINE}\n{_menu(MenuItem.PAD_TEST)}press C3\ndump\nbutton undo\ndump\n"
        "button new 2.1\ndump\n"
        "turn -1\ndump\npush\ndump\npush 1.2\ndump\n"
    )
    pad, button, held, turned, pushed, left = play(script, tmp_path)
    assert pad["oled"][:3] == ["Pad test", "Press pads and buttons", "C3"]
    assert [dump["oled"][2] for dump in (button, held, turned, pushed)] == [
        "UNDO",
        "NEW held",
        "Knob -1",
        "Knob pushed",
    ]
    assert pad["game"]["covered"] == {}
    assert held["game"]["key"] == pad["game"]["key"]  # no new game from the pad test
    assert left["oled"][0] == "Red spymaster"


def test_pad_test_speaks_the_tables_language(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\n{_menu(MenuItem.PAD_TEST)}button timer 1.2\ndump\npush\ndump\n"
    held, pushed = play(script, tmp_path, language="it")
    assert held["oled"][:3] == ["Prova carte", "Premi carte e tasti", "TIMER tenuto a lungo"]
    assert pushed["oled"][2] == "Manopola premuta"


def test_after_ten_idle_minutes_the_table_dims_and_the_first_input_only_wakes(
    tmp_path: Path,
) -> None:
    script = f"{KEY_LINE}\n{clue(2)}dump\nwait 601\ndump\npress A1\ndump\npress A1\ndump\n"
    awake, asleep, woken, guessed = play(script, tmp_path)
    assert int(asleep["leds"]["B1"][1:3], 16) < int(awake["leds"]["B1"][1:3], 16)
    assert woken["game"]["covered"] == {}  # the waking press is not a guess
    assert woken["leds"]["B1"] == awake["leds"]["B1"]
    assert guessed["game"]["covered"] == {"A1": "red"}


def test_a_held_button_that_wakes_the_table_does_nothing_else(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\n{clue(2)}press A1\nwait 601\nbutton undo 1.5\ndump\n"
    (state,) = play(script, tmp_path)
    assert state["game"]["covered"] == {"A1": "red"}


def test_the_waking_hold_of_new_does_nothing_even_with_a_pad_touched_meanwhile(
    virtual_table: TableFactory,
) -> None:
    with virtual_table(config=TableConfig(), seed=1) as vt:
        vt.wait(601.0)
        assert vt.table.asleep
        vt.circuit.press_button(ConsoleButton.NEW)
        vt.wait(0.5)
        vt.press_pad(Coord.parse("A1"))
        vt.wait(2.0)
        vt.circuit.release_button(ConsoleButton.NEW)
        vt.wait(0.1)
        assert vt.table.state.key == KEY
        assert len(vt.store.game_ids()) == 1


def test_a_waking_turn_or_push_of_the_encoder_does_nothing_else(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\nwait 601\nturn +1\ndump\nwait 601\npush\ndump\n"
    turned, pushed = play(script, tmp_path)
    assert turned["oled"][2] == "« 1 »"
    assert pushed["game"]["phase"] == "clue"


def test_sleep_closes_the_pad_test(tmp_path: Path) -> None:
    script = f"{KEY_LINE}\n{_menu(MenuItem.PAD_TEST)}wait 601\npress A1\ndump\n"
    (state,) = play(script, tmp_path)
    assert state["oled"][0] == "Red spymaster"


ACTIONS = {
    "clue": clue(2),
    "touch": f"{clue(2)}press A1\n",
    "done": f"{clue(2)}press A1\nbutton done\n",
    "penalty": f"{clue(2)}button penalty 1.2\n",
    "cover": f"{clue(2)}button penalty 1.2\npress E2\nbutton done\n",
    "undo": f"{clue(2)}press A1\nbutton undo 1.2\n",
    "timeout": f"{clue(2)}button timer\nwait 31\n",
    "new game": "button new 2.2\n",
    "game over": f"{clue(2)}press E5\n",
}


@pytest.mark.parametrize("action", ACTIONS)
def test_a_power_cut_after_any_action_resumes_the_same_game(tmp_path: Path, action: str) -> None:
    script = f"{KEY_LINE}\n{ACTIONS[action]}wait 3\ndump\npower-cut\ndump\n"
    before, after = play(script, tmp_path, config=STRICT)
    assert after["game"] == before["game"]
    assert after["oled"] == before["oled"]


def test_a_coop_game_resumes_after_a_power_cut_during_the_enemy_cover(tmp_path: Path) -> None:
    config = TableConfig(settings=TableSettings(mode=TableSettings().mode.COOP))
    script = f"{KEY_LINE}\n{clue(1)}press C4\ndump\npower-cut\ndump\npress E2\nbutton done\ndump\n"
    before, after, covered = play(script, tmp_path, config=config)
    assert after["game"] == before["game"]
    assert after["game"]["phase"] == "enemy_cover"
    assert covered["game"]["phase"] == "clue"


def test_the_key_never_reaches_a_log_or_the_oled_before_the_end(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    script = f"{KEY_LINE}\n{clue(2)}press A1\npress C4\ndump\npower-cut\ndump\n"
    dumps = play(script, tmp_path)
    key = dumps[0]["game"]["key"]
    for text in (key, key.replace("/", "")):
        assert text not in caplog.text
        assert all(text not in line for dump in dumps for line in dump["oled"])
