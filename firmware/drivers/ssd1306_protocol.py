"""The SSD1306's byte protocol, as its datasheet names it: RAM geometry, control bytes, opcodes;
and what the SSD1309 (the controller of the larger 2.42-inch 128 × 64 panels) does otherwise.

One source for both sides of the bus: the table's driver (`firmware.drivers.ssd1306_link`) writes
these bytes and the virtual chip (`firmware.virtual.ssd1306`) decodes them. Adafruit's
`adafruit_ssd1306`, which initialises the chip, keeps its own private copy of the few it sends.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum

WIDTH = 128
HEIGHT = 64
PAGES = HEIGHT // 8
"""The RAM is eight pages of 128 column bytes; bit b of page p, column c is pixel (c, 8p + b)."""
FRAME_BYTES = WIDTH * PAGES
"""Display RAM bytes: one bit per pixel."""

CONTINUATION = 0x80
"""Control byte bit Co: set, one command or data byte follows, then another control byte."""
DATA = 0x40
"""Control byte bit D/C#: set, the bytes that follow go to RAM; clear, they are commands."""
CONTROL_COMMANDS = 0x00
"""The control byte that makes the rest of a write commands."""
CONTROL_DATA = DATA
"""The control byte that makes the rest of a write RAM data."""


class Command(IntEnum):
    """Command opcodes, named after the datasheet's command table (section 9, table 9-1).

    The opcodes of a range carry their value in the low bits: the member is the range's first
    opcode, and `command_of` finds the member of any byte.
    """

    SET_LOWER_COLUMN_START = 0x00
    """0x00–0x0F: low nibble of the page addressing mode's start column."""
    SET_HIGHER_COLUMN_START = 0x10
    """0x10–0x1F: high nibble (three bits used) of the page addressing mode's start column."""
    SET_MEMORY_ADDRESSING_MODE = 0x20
    """One argument: an `AddressingMode`."""
    SET_COLUMN_ADDRESS = 0x21
    """Two arguments: the window's first and last column (horizontal and vertical modes)."""
    SET_PAGE_ADDRESS = 0x22
    """Two arguments: the window's first and last page (horizontal and vertical modes)."""
    RIGHT_HORIZONTAL_SCROLL_SETUP = 0x26
    LEFT_HORIZONTAL_SCROLL_SETUP = 0x27
    VERTICAL_AND_RIGHT_HORIZONTAL_SCROLL_SETUP = 0x29
    VERTICAL_AND_LEFT_HORIZONTAL_SCROLL_SETUP = 0x2A
    DEACTIVATE_SCROLL = 0x2E
    ACTIVATE_SCROLL = 0x2F
    SET_DISPLAY_START_LINE = 0x40
    """0x40–0x7F: the RAM row shown on the first line."""
    SET_CONTRAST_CONTROL = 0x81
    CHARGE_PUMP_SETTING = 0x8D
    """One argument: bit 2 set turns the pump on (the glass stays dark without it)."""
    SET_SEGMENT_REMAP_NORMAL = 0xA0
    """Column 0 is mapped to SEG0."""
    SET_SEGMENT_REMAP_REVERSED = 0xA1
    """Column 127 is mapped to SEG0."""
    SET_VERTICAL_SCROLL_AREA = 0xA3
    ENTIRE_DISPLAY_FOLLOWS_RAM = 0xA4
    ENTIRE_DISPLAY_ON = 0xA5
    SET_NORMAL_DISPLAY = 0xA6
    SET_INVERSE_DISPLAY = 0xA7
    SET_MULTIPLEX_RATIO = 0xA8
    INTERNAL_IREF_SETTING = 0xAD
    """SSD1306B only; Adafruit's init sends it."""
    SET_DISPLAY_OFF = 0xAE
    SET_DISPLAY_ON = 0xAF
    SET_PAGE_START = 0xB0
    """0xB0–0xB7: the page of the page addressing mode."""
    SET_COM_SCAN_NORMAL = 0xC0
    """Scan from COM0 to COM63."""
    SET_COM_SCAN_REMAPPED = 0xC8
    """Scan from COM63 to COM0."""
    SET_DISPLAY_OFFSET = 0xD3
    SET_DISPLAY_CLOCK_DIVIDE = 0xD5
    SET_PRECHARGE_PERIOD = 0xD9
    SET_COM_PINS_CONFIGURATION = 0xDA
    SET_VCOMH_DESELECT_LEVEL = 0xDB
    NOP = 0xE3
    SET_COMMAND_LOCK = 0xFD
    """SSD1309 only: one argument, `COMMAND_UNLOCK` or `COMMAND_LOCK`; a locked chip ignores
    every other command."""


_RANGES = (
    (Command.SET_LOWER_COLUMN_START, 0x0F),
    (Command.SET_HIGHER_COLUMN_START, 0x1F),
    (Command.SET_DISPLAY_START_LINE, 0x7F),
    (Command.SET_PAGE_START, 0xB7),
)


def command_of(byte: int) -> Command | None:
    """The command an opcode byte starts, ranges included; None for a byte that is no opcode.

    >>> command_of(0xB3).name
    'SET_PAGE_START'
    >>> command_of(0x23) is None
    True
    """
    for first, last in _RANGES:
        if first <= byte <= last:
            return first
    try:
        return Command(byte)
    except ValueError:
        return None


class AddressingMode(IntEnum):
    """How the RAM pointer moves after each data byte (`SET_MEMORY_ADDRESSING_MODE`)."""

    HORIZONTAL = 0
    """Along the columns of the window, then to the next page of the window."""
    VERTICAL = 1
    """Down the pages of the window, then to the next column of the window."""
    PAGE = 2
    """Along one page only, wrapping back to the start column (the power-on mode)."""


ARGUMENT_COUNTS: dict[Command, int] = {
    Command.SET_MEMORY_ADDRESSING_MODE: 1,
    Command.SET_COLUMN_ADDRESS: 2,
    Command.SET_PAGE_ADDRESS: 2,
    Command.RIGHT_HORIZONTAL_SCROLL_SETUP: 6,
    Command.LEFT_HORIZONTAL_SCROLL_SETUP: 6,
    Command.VERTICAL_AND_RIGHT_HORIZONTAL_SCROLL_SETUP: 5,
    Command.VERTICAL_AND_LEFT_HORIZONTAL_SCROLL_SETUP: 5,
    Command.SET_CONTRAST_CONTROL: 1,
    Command.CHARGE_PUMP_SETTING: 1,
    Command.SET_VERTICAL_SCROLL_AREA: 2,
    Command.SET_MULTIPLEX_RATIO: 1,
    Command.INTERNAL_IREF_SETTING: 1,
    Command.SET_DISPLAY_OFFSET: 1,
    Command.SET_DISPLAY_CLOCK_DIVIDE: 1,
    Command.SET_PRECHARGE_PERIOD: 1,
    Command.SET_COM_PINS_CONFIGURATION: 1,
    Command.SET_VCOMH_DESELECT_LEVEL: 1,
    Command.SET_COMMAND_LOCK: 1,
}
"""Commands that take argument bytes, and how many; the others take none."""

LONGEST_ARGUMENTS = max(ARGUMENT_COUNTS.values())
"""Argument bytes of the longest command (a horizontal scroll set-up)."""


class Controller(StrEnum):
    """The controller chip of the panel: the same RAM, addressing and commands, set up apart."""

    SSD1306 = "ssd1306"
    """The 0.96-inch modules: powered by the chip's own charge pump."""
    SSD1309 = "ssd1309"
    """The 2.42-inch modules: no charge pump (the module's boost converter feeds the panel's
    VCC, so 0x8D is no command of this chip), a command lock, and its own drive levels."""


COMMAND_UNLOCK = 0x12
"""`SET_COMMAND_LOCK`'s argument that lets the chip take commands (its reset state)."""
COMMAND_LOCK = 0x16

SSD1309_PRECHARGE = 0x22
"""Precharge phases of 2 clocks each: the SSD1309's reset value, for a panel on external VCC.
Adafruit's SSD1306 init sends 0xF1, which suits the SSD1306's lower pumped VCC."""
SSD1309_VCOMH = 0x34
"""VCOMH deselect level of about 0.78 × VCC, the SSD1309's reset value: the 0x30 Adafruit
sends is an SSD1306 level, which the SSD1309's table of levels does not have."""

SSD1309_SETUP = (
    (Command.SET_PRECHARGE_PERIOD, SSD1309_PRECHARGE),
    (Command.SET_VCOMH_DESELECT_LEVEL, SSD1309_VCOMH),
)
"""What an SSD1309 is sent after the SSD1306's init (each command with its argument)."""
