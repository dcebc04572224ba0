"""A virtual SSD1306 (or SSD1309) OLED controller, 128 × 64, that interprets the I2C byte stream.

It sits on a `firmware.virtual.i2c.VirtualI2C` bus under the real `adafruit_ssd1306` driver and
keeps what the chip keeps: the 1 KB display RAM (page p, column c, bit b is the pixel x=c,
y=8p+b), the address pointers of the three addressing modes, and the settings that change what
the glass shows (on/off, contrast, inversion, orientation). Tests read `memory`, `pixel()` or
`to_image()`; the desktop simulation shows `visible_image()`. It decodes the opcodes of
`firmware.drivers.ssd1306_protocol`, the module the table's driver writes them from.

As an SSD1309 (`controller`) it lights without a charge pump (the module feeds VCC) and takes
0x8D and 0xAD with their argument without effect, honours the command lock (0xFD), and starts
from its own reset values. A `reset_line` (a gpiozero pin, as `MockFactory` makes) is its RES
input: held low, the chip does not answer; a pulse sets its registers back; and a module made
`needs_reset` answers only after its first pulse, as 2.42-inch boards without a reset circuit do.

Deviations from the chip, on purpose: segment remap is applied when the glass is drawn rather
than when data is written (the chip maps columns at write time, so the two differ only for data
written before a remap change); scrolling, the display start line and offset are recorded but
not drawn; a read returns the status byte.
"""

from __future__ import annotations

import errno
import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from gpiozero.pins import Factory
from PIL import Image, ImageChops

from firmware.drivers.oled import OledConfig
from firmware.drivers.ssd1306_protocol import (
    ARGUMENT_COUNTS,
    COMMAND_LOCK,
    COMMAND_UNLOCK,
    CONTINUATION,
    DATA,
    HEIGHT,
    PAGES,
    SSD1309_PRECHARGE,
    SSD1309_VCOMH,
    WIDTH,
    AddressingMode,
    Command,
    Controller,
    command_of,
)
from firmware.errors import FirmwareError

_POWER_ON_PATTERN = bytes((index * 37 + 11) & 0xFF for index in range(WIDTH * PAGES))
"""RAM content at power-on is undefined; garbage (not blank) catches a driver that skips redraws."""

_STATUS_DISPLAY_OFF = 0x40
"""Status byte bit 6: the display is off."""


class ProtocolError(FirmwareError, ValueError):
    """A byte stream a correct driver never sends: bad control byte, unknown command, bad value."""


_NOT_DRAWN = frozenset(
    (
        Command.RIGHT_HORIZONTAL_SCROLL_SETUP,
        Command.LEFT_HORIZONTAL_SCROLL_SETUP,
        Command.VERTICAL_AND_RIGHT_HORIZONTAL_SCROLL_SETUP,
        Command.VERTICAL_AND_LEFT_HORIZONTAL_SCROLL_SETUP,
        Command.SET_VERTICAL_SCROLL_AREA,
        Command.INTERNAL_IREF_SETTING,
        Command.SET_COM_PINS_CONFIGURATION,
        Command.NOP,
    )
)
"""Commands the model accepts and leaves out of the picture: scroll set-up, and timing, drive
and no-op commands, which change nothing a picture shows."""

_POINTER_COMMANDS = frozenset(
    (
        Command.SET_LOWER_COLUMN_START,
        Command.SET_HIGHER_COLUMN_START,
        Command.SET_MEMORY_ADDRESSING_MODE,
        Command.SET_COLUMN_ADDRESS,
        Command.SET_PAGE_ADDRESS,
        Command.SET_PAGE_START,
    )
)
"""Commands that move the RAM pointer or change how it moves."""

_NOT_COMMANDS = {
    Controller.SSD1306: frozenset((Command.SET_COMMAND_LOCK,)),
    Controller.SSD1309: frozenset(()),
}
"""Opcodes of the other chip: an anomaly for this one."""
_IGNORED = {
    Controller.SSD1306: frozenset(()),
    Controller.SSD1309: frozenset((Command.CHARGE_PUMP_SETTING, Command.INTERNAL_IREF_SETTING)),
}
"""SSD1306 commands an SSD1309 takes in and does nothing with: Adafruit's init sends them."""

_RESET_DRIVE = {
    # (precharge, VCOMH deselect level) after reset, from each datasheet.
    Controller.SSD1306: (0x22, 0x20),
    Controller.SSD1309: (SSD1309_PRECHARGE, SSD1309_VCOMH),
}


class ResetInput(Protocol):
    """The module's RES input: a gpiozero pin (`MockPin`), read, never driven, by the chip."""

    @property
    def state(self) -> Any: ...

    @property
    def states(self) -> Sequence[Any]: ...


class VirtualSSD1306:
    """The chip's state and command interpreter; an `I2CTarget` for `VirtualI2C.attach`.

    Like the chip, the command decoder keeps a command waiting for its arguments across
    transactions, so a write lost on the bus can leave it taking the next commands as arguments.
    What the chip would shrug off (unknown commands, bad values) is an anomaly: `strict` (for
    tests of a healthy bus) raises `ProtocolError` at once; otherwise it is noted in `anomalies`
    and ignored, as the chip ignores it.
    """

    def __init__(
        self,
        *,
        strict: bool = True,
        controller: Controller = Controller.SSD1306,
        reset_line: ResetInput | None = None,
        needs_reset: bool = False,
    ) -> None:
        self.strict = strict
        self.controller = controller
        self._reset_line = reset_line
        self._needs_reset = needs_reset
        self._states_seen = 0 if reset_line is None else len(reset_line.states)
        self.resets = 0
        """RES pulses taken."""
        self.anomalies: list[str] = []
        """What a lenient chip ignored, oldest first."""
        self._lock = threading.Lock()  # the simulation may look while a driver writes
        self.memory = bytearray(WIDTH * PAGES)
        """The display RAM, page after page: byte p × 128 + c holds pixels (c, 8p … 8p+7)."""
        self.on_change: Callable[[], None] | None = None
        """Called after each write transaction, so a simulation can redraw (never under a lock)."""
        self.memory[:] = _POWER_ON_PATTERN
        self._reset()

    # Power

    def power_cycle(self) -> None:
        """Lose power and come back in the power-on state, with undefined RAM."""
        with self._lock:
            self.memory[:] = _POWER_ON_PATTERN
            self._reset()

    def _reset(self) -> None:
        # Registers only: RES leaves the RAM as it was, power-on fills it with garbage.
        self._waiting_for_reset = self._needs_reset
        self.locked = False
        self.precharge, self.vcomh = _RESET_DRIVE[self.controller]
        self.clock_divide = 0x80
        self.display_on = False
        self.contrast = 0x7F
        self.inverted = False
        self.entire_on = False
        self.charge_pump = False
        self.addressing_mode = AddressingMode.PAGE
        self.segment_remap = False
        self.com_reversed = False
        self.start_line = 0
        self.display_offset = 0
        self.multiplex_ratio = HEIGHT
        self.scrolling = False
        self.column_window = (0, WIDTH - 1)
        self.page_window = (0, PAGES - 1)
        self.column = 0
        self.page = 0
        self._page_mode_start_column = 0
        self._command: list[int] = []
        self._awaiting = 0

    # The bus side

    def write(self, data: bytes) -> None:
        """Take in one I2C write transaction: control bytes, then commands or data.

        A control byte has Co (bit 7) and D/C# (bit 6): with Co set, one command or data byte
        follows and then another control byte; with Co clear, the rest of the transaction is
        commands (D/C# clear) or data (D/C# set). A command's arguments may arrive in later
        transactions, as Adafruit's driver sends them (one `0x80 byte` write each).
        """
        with self._lock:
            self._check_reset_line()
            index = 0
            while index < len(data):
                control = data[index]
                index += 1
                if control & ~(CONTINUATION | DATA):
                    self._anomaly(f"0x{control:02x} is not a control byte")
                feed = self._data if control & DATA else self._command_byte
                if control & CONTINUATION:
                    if index < len(data):
                        feed(data[index])
                        index += 1
                else:
                    for byte in data[index:]:
                        feed(byte)
                    break
        if self.on_change is not None:
            self.on_change()

    def read(self, count: int) -> bytes:
        """The status byte, repeated: bit 6 is set while the display is off."""
        with self._lock:
            self._check_reset_line()
            status = 0x00 if self.display_on else _STATUS_DISPLAY_OFF
        return bytes([status]) * count

    # Reading the RAM and the glass

    def pixel(self, x: int, y: int) -> bool:
        """Whether the RAM bit of pixel (x, y) is set (the image as the driver wrote it)."""
        if not (0 <= x < WIDTH and 0 <= y < HEIGHT):
            raise IndexError(f"({x}, {y}) is outside {WIDTH} × {HEIGHT}")
        return bool(self.memory[(y // 8) * WIDTH + x] >> (y % 8) & 1)

    def to_image(self) -> Image.Image:
        """The RAM as a 1-bit 128 × 64 image, pixel for pixel as the driver addressed it."""
        with self._lock:
            memory = bytes(self.memory)
        return _image_from_ram(memory)

    def visible_image(self) -> Image.Image:
        """What the glass shows, upright for a module mounted the way Adafruit's init expects.

        That init sets segment remap (0xA1) and reversed COM scan (0xC8); the opposite settings
        show the picture turned by 180°.
        """
        with self._lock:
            memory = bytes(self.memory)
            pumped = self.charge_pump or self.controller is Controller.SSD1309
            lit = self.display_on and pumped
            entire_on, inverted = self.entire_on, self.inverted
            mirrored, flipped = not self.segment_remap, not self.com_reversed
        if not lit:
            return Image.new("1", (WIDTH, HEIGHT), 0)
        if entire_on:
            return Image.new("1", (WIDTH, HEIGHT), 1)
        image = _image_from_ram(memory)
        if inverted:
            # ImageChops.invert does not invert mode "1" images; xor with white does.
            image = ImageChops.logical_xor(image, Image.new("1", (WIDTH, HEIGHT), 1))
        if mirrored:
            image = image.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
        if flipped:
            image = image.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
        return image

    # Inside

    def _data(self, byte: int) -> None:
        self.memory[self.page * WIDTH + self.column] = byte
        first_column, last_column = self.column_window
        first_page, last_page = self.page_window
        if self.addressing_mode is AddressingMode.PAGE:
            self.column = (
                self._page_mode_start_column if self.column >= WIDTH - 1 else self.column + 1
            )
        elif self.addressing_mode is AddressingMode.HORIZONTAL:
            if self.column < last_column:
                self.column += 1
            else:
                self.column = first_column
                self.page = self.page + 1 if self.page < last_page else first_page
        elif self.page < last_page:
            self.page += 1
        else:
            self.page = first_page
            self.column = self.column + 1 if self.column < last_column else first_column

    def _command_byte(self, byte: int) -> None:
        if self._awaiting:
            self._command.append(byte)
            self._awaiting -= 1
            if not self._awaiting:
                self._run(self._command[0], self._command[1:])
            return
        command = self._command_of(byte)
        count = 0 if command is None else ARGUMENT_COUNTS.get(command, 0)
        if count:
            self._command = [byte]
            self._awaiting = count
        else:
            self._run(byte, [])

    def _check_reset_line(self) -> None:
        """Take the RES pulses since the last transaction; NACK while RES is held low, or
        before the first pulse of a module that needs one."""
        line = self._reset_line
        if line is None:
            return
        states = line.states
        if any(not entry.state for entry in states[self._states_seen :]):
            self._reset()
            self._waiting_for_reset = False
            self.resets += 1
        self._states_seen = len(states)
        if not line.state or self._waiting_for_reset:
            # What the bus reports for a chip that does not acknowledge its address.
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def _command_of(self, byte: int) -> Command | None:
        command = command_of(byte)
        return None if command in _NOT_COMMANDS[self.controller] else command

    def _run(self, byte: int, arguments: list[int]) -> None:
        command = self._command_of(byte)
        if command is None:
            self._anomaly(f"0x{byte:02x} is not an {self.controller.name} command")
        elif self.locked and command is not Command.SET_COMMAND_LOCK:
            return  # a locked chip ignores every command but the unlock
        elif command in _IGNORED[self.controller]:
            return
        elif command in _POINTER_COMMANDS:
            self._move_pointer(command, byte, arguments)
        elif command not in _NOT_DRAWN:
            self._set(command, byte, arguments)

    def _move_pointer(self, command: Command, byte: int, arguments: list[int]) -> None:
        page_mode = self.addressing_mode is AddressingMode.PAGE
        match command:
            case Command.SET_LOWER_COLUMN_START | Command.SET_HIGHER_COLUMN_START:
                # The two nibbles of the page mode start column, each kept while the other is set.
                if page_mode:
                    start = self._page_mode_start_column
                    if command is Command.SET_LOWER_COLUMN_START:
                        start = (start & 0x70) | (byte & 0x0F)
                    else:
                        start = (byte & 0x07) << 4 | (start & 0x0F)
                    self.column = self._page_mode_start_column = start
            case Command.SET_MEMORY_ADDRESSING_MODE:
                mode = arguments[0] & 0x03
                if mode == 0x03:
                    self._anomaly(f"0x{byte:02x} 0x03 is not an addressing mode")
                else:
                    self.addressing_mode = AddressingMode(mode)
            case Command.SET_COLUMN_ADDRESS:
                self.column_window = self._window(byte, arguments, WIDTH - 1)
                self.column = self.column_window[0]
            case Command.SET_PAGE_ADDRESS:
                self.page_window = self._window(byte, arguments, PAGES - 1)
                self.page = self.page_window[0]
            case Command.SET_PAGE_START:
                if page_mode:
                    self.page = byte & 0x07

    def _set(self, command: Command, byte: int, arguments: list[int]) -> None:
        match command:
            case Command.DEACTIVATE_SCROLL | Command.ACTIVATE_SCROLL:
                self.scrolling = command is Command.ACTIVATE_SCROLL
            case Command.SET_DISPLAY_START_LINE:
                self.start_line = byte & 0x3F
            case Command.SET_CONTRAST_CONTROL:
                self.contrast = arguments[0]
            case Command.CHARGE_PUMP_SETTING:
                self.charge_pump = bool(arguments[0] & 0x04)
            case Command.SET_SEGMENT_REMAP_NORMAL | Command.SET_SEGMENT_REMAP_REVERSED:
                self.segment_remap = command is Command.SET_SEGMENT_REMAP_REVERSED
            case Command.ENTIRE_DISPLAY_FOLLOWS_RAM | Command.ENTIRE_DISPLAY_ON:
                self.entire_on = command is Command.ENTIRE_DISPLAY_ON
            case Command.SET_NORMAL_DISPLAY | Command.SET_INVERSE_DISPLAY:
                self.inverted = command is Command.SET_INVERSE_DISPLAY
            case Command.SET_MULTIPLEX_RATIO:
                self.multiplex_ratio = (arguments[0] & 0x3F) + 1
            case Command.SET_DISPLAY_OFF | Command.SET_DISPLAY_ON:
                self.display_on = command is Command.SET_DISPLAY_ON
            case Command.SET_COM_SCAN_NORMAL | Command.SET_COM_SCAN_REMAPPED:
                self.com_reversed = command is Command.SET_COM_SCAN_REMAPPED
            case Command.SET_DISPLAY_OFFSET:
                self.display_offset = arguments[0] & 0x3F
            case Command.SET_DISPLAY_CLOCK_DIVIDE:
                self.clock_divide = arguments[0]
            case Command.SET_PRECHARGE_PERIOD:
                self.precharge = arguments[0]
            case Command.SET_VCOMH_DESELECT_LEVEL:
                self.vcomh = arguments[0]
            case Command.SET_COMMAND_LOCK:
                # Bit 2 is the lock (0x16 sets it, 0x12 clears it); the other bits are fixed.
                self.locked = bool(arguments[0] & (COMMAND_LOCK ^ COMMAND_UNLOCK))

    def _window(self, command: int, arguments: list[int], mask: int) -> tuple[int, int]:
        first, last = arguments[0] & mask, arguments[1] & mask
        if first > last:
            # Kept: the pointer then stays on the start column (or page), within the RAM.
            self._anomaly(f"0x{command:02x} window {first}–{last} runs backwards")
        return first, last

    def _anomaly(self, message: str) -> None:
        if self.strict:
            raise ProtocolError(message)
        self.anomalies.append(message)


def _image_from_ram(memory: bytes) -> Image.Image:
    # Deliberately plain bit by bit: the driver packs with Pillow tricks, and the test oracle
    # should not share them.
    pixels = bytearray(WIDTH * HEIGHT)
    for page in range(PAGES):
        for column in range(WIDTH):
            byte = memory[page * WIDTH + column]
            for bit in range(8):
                if byte >> bit & 1:
                    pixels[(page * 8 + bit) * WIDTH + column] = 255
    return Image.frombytes("L", (WIDTH, HEIGHT), bytes(pixels)).convert(
        "1", dither=Image.Dither.NONE
    )


class VirtualBus(Protocol):
    """Where chips are plugged in: `firmware.virtual.i2c.VirtualI2C`."""

    def attach(self, address: int, device: VirtualSSD1306) -> None: ...


def attach_virtual_oleds(
    bus: VirtualBus, config: OledConfig, pin_factory: Factory | None = None
) -> list[VirtualSSD1306]:
    """A lenient virtual chip for each display of `config`, attached to `bus` at its address,
    of its controller, its RES input on `pin_factory`'s pin when it has a reset line."""
    chips = []
    for panel in config.panels:
        line = None
        if panel.reset_pin is not None and pin_factory is not None:
            line = pin_factory.pin(panel.reset_pin)
        chip = VirtualSSD1306(strict=False, controller=panel.controller, reset_line=line)
        bus.attach(panel.address, chip)
        chips.append(chip)
    return chips
