"""The virtual I2C bus and SSD1306: the real Adafruit driver runs on them as on the Pi.

The chip model is checked against the datasheet's byte protocol (control bytes, addressing modes,
windows) with hand-written streams, and against Adafruit's driver for what it actually sends.
"""

from __future__ import annotations

import errno
import random

import adafruit_ssd1306
import pytest

from firmware.drivers.clock import VirtualClock
from firmware.drivers.oled import FULL_FRAME_BYTES
from firmware.drivers.ssd1306_protocol import PAGES, WIDTH, AddressingMode
from firmware.virtual.i2c import VirtualI2C
from firmware.virtual.ssd1306 import ProtocolError, VirtualSSD1306

ADDRESS = 0x3C


@pytest.fixture
def chip() -> VirtualSSD1306:
    return VirtualSSD1306()


@pytest.fixture
def bus(chip: VirtualSSD1306) -> VirtualI2C:
    bus = VirtualI2C(record=True)
    bus.attach(ADDRESS, chip)
    return bus


def commands(*values: int) -> bytes:
    """One write carrying a command stream (control byte 0x00)."""
    return bytes((0x00, *values))


def data(*values: int) -> bytes:
    """One write carrying display data (control byte 0x40)."""
    return bytes((0x40, *values))


def at(page: int, column: int) -> int:
    return page * WIDTH + column


# The chip model on hand-written streams


def test_power_on_state_is_dark_page_mode_with_garbage_ram(chip: VirtualSSD1306) -> None:
    assert not chip.display_on
    assert chip.addressing_mode is AddressingMode.PAGE
    assert chip.contrast == 0x7F
    assert len(chip.memory) == WIDTH * PAGES
    assert len(set(chip.memory)) > 1  # not blank: a driver must clear or draw it


def test_horizontal_mode_fills_the_window_and_wraps_inside_it(chip: VirtualSSD1306) -> None:
    chip.memory[:] = bytes(WIDTH * PAGES)
    chip.write(commands(0x20, 0x00, 0x21, 10, 12, 0x22, 2, 3))
    chip.write(data(*range(1, 8)))  # 3 × 2 window, one byte more wraps to its start
    assert [chip.memory[at(2, c)] for c in (10, 11, 12)] == [7, 2, 3]
    assert [chip.memory[at(3, c)] for c in (10, 11, 12)] == [4, 5, 6]
    assert sum(1 for byte in chip.memory if byte) == 6  # nothing outside the window
    assert (chip.page, chip.column) == (2, 11)


def test_vertical_mode_goes_down_the_pages_first(chip: VirtualSSD1306) -> None:
    chip.write(commands(0x20, 0x01, 0x21, 0, 1, 0x22, 5, 6))
    chip.write(data(0xA1, 0xA2, 0xA3, 0xA4))
    assert chip.memory[at(5, 0)] == 0xA1
    assert chip.memory[at(6, 0)] == 0xA2
    assert chip.memory[at(5, 1)] == 0xA3
    assert chip.memory[at(6, 1)] == 0xA4


def test_page_mode_uses_page_and_nibble_commands_and_wraps_to_the_start_column(
    chip: VirtualSSD1306,
) -> None:
    # Column 0x7E from its nibbles, page 4; two bytes reach the last column, the third wraps.
    chip.write(commands(0x20, 0x02, 0xB4, 0x0E, 0x17))
    chip.write(data(0x11, 0x22, 0x33))
    assert chip.memory[at(4, 0x7E)] == 0x33
    assert chip.memory[at(4, 0x7F)] == 0x22
    assert chip.page == 4


def test_page_mode_column_nibbles_set_the_column(
    chip: VirtualSSD1306,
) -> None:
    chip.write(commands(0x20, 0x02, 0xB1, 0x03, 0x10))
    chip.write(data(0x5A))
    assert chip.memory[at(1, 3)] == 0x5A


def test_control_byte_with_continuation_mixes_commands_and_data_in_one_write(
    chip: VirtualSSD1306,
) -> None:
    # Co=1: one byte, then another control byte; the last (Co=0) runs to the end.
    chip.write(bytes((0x80, 0x20, 0x80, 0x00, 0x80, 0x21, 0x80, 4, 0x80, 4, 0xC0, 0x99, 0x40, 1)))
    assert chip.addressing_mode is AddressingMode.HORIZONTAL
    assert chip.column_window == (4, 4)
    assert chip.memory[at(0, 4)] == 0x99
    assert chip.memory[at(1, 4)] == 1  # a one-column window goes on to the next page


def test_command_arguments_may_come_in_later_writes(chip: VirtualSSD1306) -> None:
    chip.write(bytes((0x80, 0x81)))
    assert chip.contrast == 0x7F
    chip.write(bytes((0x80, 0x42)))
    assert chip.contrast == 0x42


def test_display_settings_change_the_glass_not_the_ram(chip: VirtualSSD1306) -> None:
    chip.write(commands(0x20, 0x00, 0x21, 0, 127, 0x22, 0, 7))
    chip.write(data(*([0] * (WIDTH * PAGES))))
    chip.write(commands(0x21, 0, 0, 0x22, 0, 0))
    chip.write(data(0x01))  # pixel (0, 0)
    assert chip.visible_image().getbbox() is None  # off and no charge pump: dark
    chip.write(commands(0x8D, 0x14, 0xAF, 0xA1, 0xC8))
    assert chip.visible_image().getpixel((0, 0))
    chip.write(commands(0xA0, 0xC0))  # the half turn
    assert chip.visible_image().getpixel((127, 63))
    assert chip.pixel(0, 0)
    chip.write(commands(0xA1, 0xC8, 0xA7))  # inverse
    inverse = chip.visible_image()
    assert not inverse.getpixel((0, 0))
    assert inverse.getpixel((1, 0))
    chip.write(commands(0xA6, 0xA5))
    assert chip.visible_image().getbbox() == (0, 0, WIDTH, 8 * PAGES)
    chip.write(commands(0xA4, 0xAE))
    assert chip.visible_image().getbbox() is None
    assert chip.pixel(0, 0)


@pytest.mark.parametrize(
    "stream",
    [bytes((0x01, 0xAF)), commands(0xFF), commands(0x21, 9, 8), commands(0x20, 0x03)],
    ids=["bad control byte", "unknown command", "backwards window", "bad addressing mode"],
)
def test_streams_an_ssd1306_would_not_take_are_refused(chip: VirtualSSD1306, stream: bytes) -> None:
    with pytest.raises(ProtocolError):
        chip.write(stream)


def test_to_image_and_pixel_read_the_ram_bit_for_bit(chip: VirtualSSD1306) -> None:
    rng = random.Random(7)
    chip.memory[:] = bytes(rng.randrange(256) for _ in range(WIDTH * PAGES))
    image = chip.to_image()
    assert image.mode == "1"
    assert image.size == (WIDTH, 8 * PAGES)
    points = [(rng.randrange(WIDTH), rng.randrange(8 * PAGES)) for _ in range(200)]
    for x, y in [(0, 0), (127, 63), (5, 9), *points]:
        expected = bool(chip.memory[(y // 8) * WIDTH + x] >> (y % 8) & 1)
        assert chip.pixel(x, y) is expected
        assert bool(image.getpixel((x, y))) is expected
    with pytest.raises(IndexError):
        chip.pixel(128, 0)


def test_power_cycle_forgets_everything(chip: VirtualSSD1306) -> None:
    chip.write(commands(0x20, 0x00, 0xAF, 0x81, 0x10))
    chip.write(data(*([0] * 10)))
    chip.power_cycle()
    assert not chip.display_on
    assert chip.contrast == 0x7F
    assert chip.addressing_mode is AddressingMode.PAGE
    assert chip.memory[:10] != bytes(10)


def test_a_lenient_chip_notes_and_ignores_what_it_cannot_use() -> None:
    chip = VirtualSSD1306(strict=False)
    chip.write(commands(0x20, 0x00, 0xFF, 0x20, 0x03, 0x21, 9, 8))
    assert chip.addressing_mode is AddressingMode.HORIZONTAL
    assert len(chip.anomalies) == 3
    chip.write(commands(0x22, 0, 0))
    chip.write(data(1, 2))  # a backwards window keeps the pointer on its start column
    assert chip.memory[at(0, 9)] == 2


def test_a_lost_argument_makes_the_decoder_read_the_next_command_as_one(
    chip: VirtualSSD1306,
) -> None:
    chip.write(bytes((0x80, 0x81)))  # its argument write is lost on the bus
    chip.write(bytes((0x80, 0xAF)))  # "display on" becomes the contrast
    assert chip.contrast == 0xAF
    assert not chip.display_on


# Under the real Adafruit driver


def test_adafruit_init_sets_the_chip_up_dark_and_upright(
    bus: VirtualI2C, chip: VirtualSSD1306
) -> None:
    adafruit_ssd1306.SSD1306_I2C(128, 64, bus, addr=ADDRESS)
    assert chip.display_on
    assert chip.charge_pump
    assert chip.addressing_mode is AddressingMode.HORIZONTAL
    assert chip.contrast == 0xFF
    assert chip.segment_remap
    assert chip.com_reversed
    assert chip.memory == bytes(WIDTH * PAGES)


def test_adafruit_show_lands_its_framebuffer_in_ram_and_costs_a_full_frame(
    bus: VirtualI2C, chip: VirtualSSD1306
) -> None:
    display = adafruit_ssd1306.SSD1306_I2C(128, 64, bus, addr=ADDRESS)
    display.fill(0)
    display.pixel(5, 9, 1)
    display.line(0, 63, 127, 0, 1)
    bus.reset_counters()
    display.show()
    assert bus.bytes_written == FULL_FRAME_BYTES
    assert bytes(chip.memory) == bytes(display.buffer[1:])
    assert chip.pixel(5, 9)
    assert not chip.pixel(5, 8)


# The bus


def test_bus_counts_what_reaches_devices_and_records_transactions(bus: VirtualI2C) -> None:
    assert bus.try_lock()
    try:
        bus.writeto(ADDRESS, b"\x00\xaf\xa5xx", end=3)
        assert bus.scan() == [ADDRESS]
    finally:
        bus.unlock()
    assert bus.bytes_written == 3
    assert bus.writes == 1
    assert bus.transactions is not None
    assert bus.transactions[-1].data == b"\x00\xaf\xa5"


def test_bus_refuses_transfers_without_the_lock(bus: VirtualI2C) -> None:
    with pytest.raises(RuntimeError):
        bus.writeto(ADDRESS, b"\x00\xaf")


def test_failing_writes_raise_remote_io_error_and_may_deliver_a_prefix(
    bus: VirtualI2C, chip: VirtualSSD1306
) -> None:
    bus.fail_next_writes(2, deliver=3)
    assert bus.try_lock()
    try:
        for _ in range(2):
            with pytest.raises(OSError) as failure:
                bus.writeto(ADDRESS, commands(0x81, 0x22, 0xAF))
            assert failure.value.errno == errno.EREMOTEIO
        bus.writeto(ADDRESS, commands(0xAF))
    finally:
        bus.unlock()
    assert chip.contrast == 0x22  # the prefix 0x00 0x81 0x22 got through, 0xAF did not until now
    assert chip.display_on
    assert bus.failed_writes == 2
    assert bus.bytes_written == 3 + 3 + 2


def test_a_fraction_of_writes_fails_reproducibly_from_the_seed(bus: VirtualI2C) -> None:
    def run(seed: int, fraction: float = 0.3) -> list[bool]:
        bus.fail_fraction(fraction, random.Random(seed))
        outcomes = []
        assert bus.try_lock()
        try:
            for _ in range(200):
                try:
                    bus.writeto(ADDRESS, commands(0xE3))
                    outcomes.append(True)
                except OSError:
                    outcomes.append(False)
        finally:
            bus.unlock()
        return outcomes

    first = run(1)
    assert first == run(1)
    assert first != run(2)
    assert 20 < first.count(False) < 100
    assert all(run(1, fraction=0.0))


def test_unplugged_display_is_not_found_and_comes_back_reset(
    bus: VirtualI2C, chip: VirtualSSD1306
) -> None:
    adafruit_ssd1306.SSD1306_I2C(128, 64, bus, addr=ADDRESS)
    bus.unplug(ADDRESS)
    with pytest.raises(ValueError, match="No I2C device"):
        adafruit_ssd1306.SSD1306_I2C(128, 64, bus, addr=ADDRESS)
    bus.replug(ADDRESS)
    assert not chip.display_on
    adafruit_ssd1306.SSD1306_I2C(128, 64, bus, addr=ADDRESS)
    assert chip.display_on


def test_bus_time_matches_a_real_bus_and_can_be_paced_by_a_virtual_clock(
    chip: VirtualSSD1306,
) -> None:
    clock = VirtualClock()
    bus = VirtualI2C(frequency=400_000, pace=clock.advance)
    bus.attach(ADDRESS, chip)
    display = adafruit_ssd1306.SSD1306_I2C(128, 64, bus, addr=ADDRESS)
    bus.reset_counters()
    start = clock.monotonic()
    display.show()
    assert bus.bus_seconds == pytest.approx(clock.monotonic() - start)
    assert 0.020 < bus.bus_seconds < 0.026  # about 23 ms for a frame at 400 kHz
    slow = VirtualI2C(frequency=100_000)
    assert slow.transfer_seconds(1025) == pytest.approx(4 * bus.transfer_seconds(1025))


def test_bus_closes_idempotently() -> None:
    with VirtualI2C() as bus:
        assert bus.try_lock()
        bus.unlock()
    bus.deinit()
    with pytest.raises(RuntimeError):
        bus.try_lock()
