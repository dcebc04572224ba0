"""The capacitive pads' calibration: each pad measured through the real driver on virtual
MPR121s configured as the table configures them, a finger and then a hand moving over it as the
physical model has them; thresholds written to the config file and read back by the config's
own rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from board_rules.codenames.grid import Coord
from firmware.drivers.clock import VirtualClock
from firmware.drivers.events import ConsoleButton
from firmware.drivers.touch_pads import ADDRESSES, TouchSwitch
from firmware.errors import UsageError
from firmware.service.selftest_calibrate import (
    MIN_SIGNAL,
    Gesture,
    PadReading,
    measure,
    open_configured,
    report_lines,
    write_thresholds,
)
from firmware.service.selftest_pi import _calibrate
from firmware.table.config import ConfigError, InputConfig, load_config
from firmware.virtual.i2c import VirtualI2C
from firmware.virtual.mpr121 import VirtualTouchPanel
from firmware.virtual.mpr121_physics import (
    SUPPORTED_STACKS,
    UNSUPPORTED_STACKS,
    Pad,
    finger_press,
    hand_hover,
)

C3, D4 = Coord.parse("C3"), Coord.parse("D4")
GOOD = SUPPORTED_STACKS["polycarbonate 0.5 mm"]
THICK = UNSUPPORTED_STACKS["wood 3 mm"]
"""D4's top in these tests: too thick for a fingertip to clear a hand above it."""


def calibrate(switches: tuple[TouchSwitch, ...]) -> list[PadReading]:
    clock = VirtualClock()
    bus = VirtualI2C()
    factory = MockFactory()
    factory.ticks = clock.monotonic  # IRQ edges' ages on the virtual clock, not real time
    panel = VirtualTouchPanel(clock, bus, factory, (17, 27, 22), noise_counts=3.0, seed=5)
    chips = open_configured(bus, ADDRESSES)
    clock.advance(1.0)
    touching: list[TouchSwitch] = []

    def ask(switch: TouchSwitch, gesture: Gesture) -> None:
        for previous in touching:
            panel.release_switch(previous)
        clock.advance(0.3)
        touching[:] = [switch]
        stack = THICK if switch == D4 else GOOD
        if gesture == "finger":
            panel.move_over(switch, finger_press(stack, Pad()))
        else:
            panel.move_over(switch, hand_hover(stack, Pad(), 10.0, duration_s=0.4))

    try:
        return measure(chips, clock.advance, ask, switches)
    finally:
        factory.reset()


def test_each_pad_gets_thresholds_between_hand_and_finger_and_a_weak_one_is_named() -> None:
    readings = calibrate((C3, D4, ConsoleButton.UNDO))
    strong, weak, button = readings
    assert not strong.weak and not button.weak
    assert strong.finger >= MIN_SIGNAL
    limits = strong.thresholds()
    assert strong.floor < limits.touch < strong.finger
    assert limits.release < limits.touch
    assert weak.weak
    lines = report_lines(readings)
    assert lines[-1].startswith("too weak (a finger under 8 counts or under 1.5 times the hand")
    assert ": D4: a thinner top (or glass), or a shorter wire" in lines[-1]
    assert f"C3: finger {strong.finger}, hand {strong.hover}, noise {strong.noise}, " in lines[0]


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
