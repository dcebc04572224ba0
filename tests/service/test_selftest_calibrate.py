"""The capacitive pads' calibration: each pad measured through the real driver on virtual
MPR121s (a finger's capacitance added when the pad is asked for), thresholds written to the
config file and read back by the config's own rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from board_rules.codenames.grid import Coord
from firmware.drivers.clock import VirtualClock
from firmware.drivers.events import ConsoleButton
from firmware.drivers.touch_pads import ADDRESSES, TouchSwitch, electrode_of, open_chip
from firmware.errors import UsageError
from firmware.service.selftest_calibrate import (
    MIN_SIGNAL,
    PadReading,
    measure,
    report_lines,
    write_thresholds,
)
from firmware.service.selftest_pi import _calibrate
from firmware.table.config import ConfigError, InputConfig, load_config
from firmware.virtual.i2c import VirtualI2C
from firmware.virtual.mpr121 import FINGER_PF, VirtualTouchPanel

C3, D4 = Coord.parse("C3"), Coord.parse("D4")
WEAK_PF = 0.1
"""A finger through a card far too thick for its electrode."""


def calibrate(switches: tuple[TouchSwitch, ...]) -> list[PadReading]:
    clock = VirtualClock()
    bus = VirtualI2C()
    factory = MockFactory()
    panel = VirtualTouchPanel(clock, bus, factory, (17, 27, 22))
    chips = [open_chip(bus, address) for address in ADDRESSES]
    clock.advance(2.0)
    touching: list[TouchSwitch] = []

    def ask(switch: TouchSwitch) -> None:
        for previous in touching:
            panel.release_switch(previous)
        touching[:] = [switch]
        chip, electrode = electrode_of(switch)
        panel.chips[chip].touch(electrode, WEAK_PF if switch == D4 else FINGER_PF)

    try:
        return measure(chips, clock.advance, ask, switches)
    finally:
        factory.reset()


def test_each_pad_gets_thresholds_from_its_signal_and_a_weak_one_is_named() -> None:
    readings = calibrate((C3, D4, ConsoleButton.UNDO))
    strong, weak, button = readings
    assert strong.signal >= MIN_SIGNAL and not strong.weak
    limits = strong.thresholds()
    assert limits.release < limits.touch < strong.signal
    assert button.signal == strong.signal  # the same electrode, card and finger
    assert weak.weak
    lines = report_lines(readings)
    assert lines[-1].startswith(f"too weak (under {MIN_SIGNAL} counts): D4:")
    assert f"C3: signal {strong.signal}, touch {limits.touch}, release {limits.release}" in lines


def test_thresholds_are_written_to_the_config_and_read_back(tmp_path: Path) -> None:
    readings = calibrate((C3, D4, ConsoleButton.UNDO))
    path = tmp_path / "config.toml"
    original = '# my table\n[table]\nlanguage = "it"\n\n[input]\nbackend = "mpr121"\n'
    path.write_text(original, encoding="utf-8")
    write_thresholds(path, readings)
    text = path.read_text(encoding="utf-8")
    assert text.startswith(original)
    config = load_config(path)
    pads = dict(config.inputs.mpr121.pads)
    assert pads == {C3: readings[0].thresholds(), ConsoleButton.UNDO: readings[2].thresholds()}
    assert config.settings.language == "it"
    # A second calibration replaces the line rather than adding another.
    write_thresholds(path, readings[:1])
    assert dict(load_config(path).inputs.mpr121.pads) == {C3: readings[0].thresholds()}
    assert path.read_text(encoding="utf-8").count("pads =") == 1


def test_a_config_that_would_break_is_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    broken = "[input]\ndebounce_ms = 9999\n"
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"input\.debounce_ms"):
        write_thresholds(path, calibrate((C3,)))
    assert path.read_text(encoding="utf-8") == broken


def test_the_calibration_refuses_a_matrix_table(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    with pytest.raises(UsageError, match=r'input\.backend: the calibration is for "mpr121"'):
        _calibrate(path, InputConfig())
    assert not path.exists()
