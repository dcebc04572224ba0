"""The SSD1306 opcodes shared by the driver and the virtual chip, checked against sources apart.

Adafruit's driver carries its own copy of the opcodes it sends, and the datasheet's command
table fixes the ranges and argument counts; a wrong name or number here would otherwise be
written by the driver and read back by the virtual chip with the same mistake.
"""

from __future__ import annotations

import adafruit_ssd1306
import pytest

from firmware.drivers.ssd1306_link import DECODER_FLUSH
from firmware.drivers.ssd1306_protocol import ARGUMENT_COUNTS, Command, Controller, command_of
from firmware.virtual.ssd1306 import VirtualSSD1306


@pytest.mark.parametrize(
    ("adafruit_name", "command"),
    [
        ("SET_CONTRAST", Command.SET_CONTRAST_CONTROL),
        ("SET_ENTIRE_ON", Command.ENTIRE_DISPLAY_FOLLOWS_RAM),
        ("SET_NORM_INV", Command.SET_NORMAL_DISPLAY),
        ("SET_DISP", Command.SET_DISPLAY_OFF),
        ("SET_MEM_ADDR", Command.SET_MEMORY_ADDRESSING_MODE),
        ("SET_COL_ADDR", Command.SET_COLUMN_ADDRESS),
        ("SET_PAGE_ADDR", Command.SET_PAGE_ADDRESS),
        ("SET_DISP_START_LINE", Command.SET_DISPLAY_START_LINE),
        ("SET_SEG_REMAP", Command.SET_SEGMENT_REMAP_NORMAL),
        ("SET_MUX_RATIO", Command.SET_MULTIPLEX_RATIO),
        ("SET_IREF_SELECT", Command.INTERNAL_IREF_SETTING),
        ("SET_COM_OUT_DIR", Command.SET_COM_SCAN_NORMAL),
        ("SET_DISP_OFFSET", Command.SET_DISPLAY_OFFSET),
        ("SET_COM_PIN_CFG", Command.SET_COM_PINS_CONFIGURATION),
        ("SET_DISP_CLK_DIV", Command.SET_DISPLAY_CLOCK_DIVIDE),
        ("SET_PRECHARGE", Command.SET_PRECHARGE_PERIOD),
        ("SET_VCOM_DESEL", Command.SET_VCOMH_DESELECT_LEVEL),
        ("SET_CHARGE_PUMP", Command.CHARGE_PUMP_SETTING),
    ],
)
def test_opcodes_match_adafruits_driver(adafruit_name: str, command: Command) -> None:
    assert getattr(adafruit_ssd1306, adafruit_name) == command


@pytest.mark.parametrize(
    ("byte", "command"),
    [
        (0x00, Command.SET_LOWER_COLUMN_START),
        (0x0F, Command.SET_LOWER_COLUMN_START),
        (0x10, Command.SET_HIGHER_COLUMN_START),
        (0x17, Command.SET_HIGHER_COLUMN_START),
        (0x40, Command.SET_DISPLAY_START_LINE),
        (0x7F, Command.SET_DISPLAY_START_LINE),
        (0xB0, Command.SET_PAGE_START),
        (0xB7, Command.SET_PAGE_START),
        (0xAF, Command.SET_DISPLAY_ON),
        (0xE3, Command.NOP),
        (0x23, None),
        (0x80, None),
        (0xB8, None),
        (0xFF, None),
    ],
)
def test_a_byte_names_its_command_ranges_included(byte: int, command: Command | None) -> None:
    assert command_of(byte) is command


def test_argument_counts_follow_the_datasheet() -> None:
    # Table 9-1: the scroll set-ups are the longest commands, the windows take two bytes.
    assert ARGUMENT_COUNTS[Command.RIGHT_HORIZONTAL_SCROLL_SETUP] == 6
    assert ARGUMENT_COUNTS[Command.VERTICAL_AND_LEFT_HORIZONTAL_SCROLL_SETUP] == 5
    assert ARGUMENT_COUNTS[Command.SET_COLUMN_ADDRESS] == 2
    assert Command.SET_DISPLAY_ON not in ARGUMENT_COUNTS


@pytest.mark.parametrize("waiting", sorted(ARGUMENT_COUNTS))
def test_the_decoder_flush_completes_any_command_left_waiting(waiting: Command) -> None:
    # The command lock is the SSD1309's alone.
    ssd1309 = waiting is Command.SET_COMMAND_LOCK
    chip = VirtualSSD1306(controller=Controller.SSD1309 if ssd1309 else Controller.SSD1306)
    chip.write(bytes((0x80, waiting)))  # its arguments lost on the bus
    chip.write(DECODER_FLUSH)
    chip.write(bytes((0x00, Command.SET_DISPLAY_ON)))
    assert chip.display_on
