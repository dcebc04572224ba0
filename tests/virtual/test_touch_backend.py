"""The capacitive backend runs the whole table as the matrix does: the README's example script
gives the same dumps on either, and a config alone chooses it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from board_rules.codenames.grid import Coord
from firmware.drivers.events import ConsoleButton
from firmware.table.config import ConfigError, load_config
from firmware.virtual.mpr121 import VirtualTouchPanel

from ..conftest import TableFactory
from ..paths import DEVELOPERS_GUIDE
from ..table_scripts import KEY_LINE, STILL, clue, play

README_SCRIPT = (
    DEVELOPERS_GUIDE.read_text(encoding="utf-8")
    .split("<!-- script -->\n```\n", 1)[1]
    .split("```", 1)[0]
)


def capacitive(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'[input]\nbackend = "mpr121"\n{extra}', encoding="utf-8")
    return path


def test_the_readme_script_plays_the_same_on_both_backends(tmp_path: Path) -> None:
    config = load_config(capacitive(tmp_path))
    assert config.inputs.backend == "mpr121"
    matrix = play(README_SCRIPT, tmp_path / "matrix")
    touch = play(README_SCRIPT, tmp_path / "touch", config=config)
    assert matrix, "the README's script prints dumps"
    assert touch == matrix


def test_a_game_with_holds_and_a_stuck_pad_plays_the_same(tmp_path: Path) -> None:
    script = (
        f"{KEY_LINE}\n{clue(2)}press A1\npress C3 12\nbutton undo 1.5\n"
        "button new 2.5\nbutton done\ndump\n"
    )
    config = replace(STILL, inputs=load_config(capacitive(tmp_path)).inputs)
    assert play(script, tmp_path / "touch", config=config) == play(
        script, tmp_path / "matrix", config=STILL
    )


def test_an_idle_capacitive_table_reads_no_chip_and_a_touch_reveals_a_card(
    tmp_path: Path, virtual_table: TableFactory
) -> None:
    config = replace(STILL, inputs=load_config(capacitive(tmp_path)).inputs)
    vt = virtual_table(tmp_path / "state", config)
    panel = vt.circuit
    assert isinstance(panel, VirtualTouchPanel)
    vt.wait(2.0)
    reads = [chip.reads_of_status for chip in panel.chips]
    vt.wait(120.0)
    assert [chip.reads_of_status for chip in panel.chips] == reads
    vt.push()  # announce a clue of 1
    vt.press_pad(Coord.parse("A1"))
    assert vt.table.state.covered == {Coord.parse("A1")}


def test_config_refuses_an_irq_pin_another_device_uses(tmp_path: Path) -> None:
    path = capacitive(tmp_path, "[input.mpr121]\nirq_pins = [16, 27, 22]\n")
    with pytest.raises(ConfigError, match=r"input\.mpr121\.irq_pins: GPIO 16 is already"):
        load_config(path)


def test_config_refuses_thresholds_without_hysteresis(tmp_path: Path) -> None:
    path = capacitive(tmp_path, "[input.mpr121]\npads = { C3 = [8, 9] }\n")
    with pytest.raises(ConfigError, match=r"input\.mpr121\.pads\.C3: expected touch and release"):
        load_config(path)


def test_config_names_an_unknown_pad(tmp_path: Path) -> None:
    path = capacitive(tmp_path, "[input.mpr121]\npads = { F9 = [20, 9] }\n")
    with pytest.raises(ConfigError, match=r"input\.mpr121\.pads\.F9: not a pad"):
        load_config(path)


def test_config_reads_each_pads_thresholds(tmp_path: Path) -> None:
    path = capacitive(
        tmp_path,
        "[input.mpr121]\ntouch_threshold = 15\nrelease_threshold = 7\n"
        "irq_pins = [17, 27, 22]\npads = { C3 = [20, 9], undo = [30, 12] }\n",
    )
    touch = load_config(path).inputs.mpr121
    pads = dict(touch.pads)
    assert (touch.default.touch, touch.default.release) == (15, 7)
    assert (pads[Coord.parse("C3")].touch, pads[ConsoleButton.UNDO].release) == (20, 12)


def test_a_touch_chip_that_stops_answering_is_shown_on_the_oled_and_the_game_goes_on(
    tmp_path: Path, virtual_table: TableFactory
) -> None:
    config = replace(STILL, inputs=load_config(capacitive(tmp_path)).inputs)
    vt = virtual_table(tmp_path / "state", config)
    vt.wait(2.0)
    screen = vt.display.screen
    assert screen is not None
    usual = screen.footer
    third = config.inputs.mpr121.addresses[2]
    vt.bus.unplug(third)
    vt.press_button(ConsoleButton.DONE)  # on the third chip: its read fails
    screen = vt.display.screen
    assert screen is not None and screen.footer == "Touch pads: no answer"
    vt.push()  # a clue of 1, then a guess on the first chip: the game goes on
    vt.press_pad(Coord.parse("A1"))
    assert vt.table.state.covered == {Coord.parse("A1")}
    vt.bus.replug(third)
    vt.wait(31.0)  # the back-off reaches it
    screen = vt.display.screen
    assert screen is not None and screen.footer != "Touch pads: no answer"
    assert usual != "Touch pads: no answer"
