"""The OLED driver on virtual hardware: partial updates, outages, dimming, burn-in shift.

Everything below `Oled` is real except the bus: Adafruit's `SSD1306_I2C` talks to a
`VirtualI2C` carrying a `VirtualSSD1306`, whose RAM is what the tests read back. Time is a
`VirtualClock`; nothing sleeps. The pure planning is tested in `test_framebuffer_diff`.
"""

from __future__ import annotations

import logging
import random
import sys
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from firmware.drivers.clock import VirtualClock
from firmware.drivers.framebuffer_diff import WINDOW_OVERHEAD
from firmware.drivers.oled import FULL_FRAME_BYTES, Oled, OledConfig
from firmware.virtual.i2c import VirtualI2C
from firmware.virtual.ssd1306 import VirtualSSD1306
from tests.oled_helpers import (
    ADDRESS,
    SIZE,
    STILL,
    apply,
    blank,
    edits,
    page_spans,
    rig,
    shows,
    with_pixels,
)


@pytest.mark.parametrize("image", [Image.new("L", SIZE), Image.new("1", (128, 32))])
def test_only_1_bit_128_by_64_images_are_taken(image: Image.Image) -> None:
    with rig() as table, pytest.raises(ValueError, match="1-bit 128×64"):
        table.oled.show(image)


# Partial updates on the virtual display


def test_one_pixel_costs_one_command_write_and_one_data_byte() -> None:
    with rig() as table:
        table.oled.show(blank())
        table.bus.reset_counters()
        table.oled.show(with_pixels((5, 9)))
        assert table.bus.transactions is not None
        assert [t.data for t in table.bus.transactions] == [
            bytes((0x00, 0x21, 5, 5, 0x22, 1, 1)),
            bytes((0x40, 0b10)),
        ]
        assert shows(table.chip, with_pixels((5, 9)))


def test_neighbouring_pages_share_a_window_when_that_is_cheaper() -> None:
    with rig() as table:
        table.oled.show(blank())
        table.bus.reset_counters()
        table.oled.show(with_pixels((5, 15), (6, 16)))
        assert table.bus.transactions is not None
        assert [t.data for t in table.bus.transactions] == [
            bytes((0x00, 0x21, 5, 6, 0x22, 1, 2)),
            bytes((0x40, 0x80, 0x00, 0x00, 0x01)),
        ]


def test_the_same_screen_again_sends_nothing() -> None:
    with rig() as table:
        table.oled.show(with_pixels((1, 1)))
        table.bus.reset_counters()
        table.oled.show(with_pixels((1, 1)))
        assert table.bus.bytes_written == 0


@settings(deadline=None)
@given(st.lists(edits, min_size=1, max_size=10))
def test_display_memory_is_the_last_image_and_costs_fall_with_the_change(
    steps: list[list[tuple[int, int, int, int, bool]] | Image.Image],
) -> None:
    with rig() as table:
        canvas = blank()
        before: bytes | None = None
        for edit in steps:
            canvas = apply(canvas, edit)
            table.bus.reset_counters()
            table.oled.show(canvas)
            sent = table.bus.bytes_written
            after = bytes(table.chip.memory)
            assert shows(table.chip, canvas)
            assert sent < FULL_FRAME_BYTES
            if before is not None:
                spans = page_spans(before, after)
                changed = sum(1 for old, new in zip(before, after, strict=True) if old != new)
                assert (sent == 0) == (changed == 0)
                assert sent >= changed
                assert sent <= sum(WINDOW_OVERHEAD + last - first + 1 for first, last in spans)
            before = after


def test_a_show_from_another_thread_during_a_transfer_returns_at_once_and_is_drawn() -> None:
    # The pace hook runs inside a transfer, while the driver holds the bus: a second show()
    # there stands for the display worker arriving while a clock timer is drawing.
    second = with_pixels((100, 50))
    inner_returned: list[bool] = []

    def during_transfer(_seconds: float) -> None:
        if armed and not inner_returned:
            table.oled.show(second)
            inner_returned.append(True)

    armed = False
    with rig(pace=during_transfer) as table:
        armed = True
        table.oled.show(with_pixels((1, 1)))
        assert inner_returned == [True]
        assert shows(table.chip, second)


# Outages


def test_an_outage_logs_once_retries_with_back_off_and_redraws_the_latest_screen(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = VirtualClock()
    attempts: list[float] = []

    def note(_seconds: float) -> None:
        attempts.append(clock.monotonic())

    with (
        rig(pace=note, clock=clock) as table,
        caplog.at_level(logging.DEBUG, logger="firmware.drivers.oled"),
    ):
        table.oled.show(with_pixels((1, 1)))
        table.bus.unplug(ADDRESS)
        attempts.clear()
        table.oled.show(with_pixels((2, 2)))  # fails: the display goes down
        assert not table.oled.is_up
        writes = table.bus.writes
        table.oled.show(with_pixels((3, 3)))  # while down: remembered, nothing sent
        assert table.bus.writes == writes
        table.clock.advance(100.0)
        # One probe per try, the back-off doubling from 0.5 s up to 30 s.
        assert attempts == [0.0, 0.5, 1.5, 3.5, 7.5, 15.5, 31.5, 61.5, 91.5]
        assert not table.oled.is_up
        table.bus.replug(ADDRESS)
        table.clock.advance(30.0)
        assert table.oled.is_up
        assert table.chip.display_on
        assert shows(table.chip, with_pixels((3, 3)))
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "not answering" in warnings[0].getMessage()
    assert any("back after" in r.getMessage() for r in caplog.records if r.levelno == logging.INFO)


def test_each_outage_logs_its_own_warning_and_back_off_starts_afresh(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with rig() as table, caplog.at_level(logging.WARNING, logger="firmware.drivers.oled"):
        for round_ in range(2):
            table.bus.fail_next_writes(3)
            table.oled.show(with_pixels((round_, 0)))
            assert not table.oled.is_up
            table.clock.advance(0.5)  # probe and init writes fail: 2 more failures
            table.clock.advance(1.0)
            table.clock.advance(2.0)
            assert table.oled.is_up
            assert shows(table.chip, with_pixels((round_, 0)))
    assert len(caplog.records) == 2


@pytest.mark.parametrize("deliver", [0, 3, 6, 7])
def test_a_write_cut_short_is_repaired_by_a_fresh_init_and_full_redraw(deliver: int) -> None:
    # 3 and 6 leave the decoder waiting for window arguments; 7 lands the whole window command.
    with rig(strict=False) as table:
        table.oled.set_dimmed(True)
        table.oled.show(with_pixels((1, 1)))
        table.bus.fail_next_writes(1, deliver=deliver)
        table.oled.show(with_pixels((1, 1), (60, 30)))
        assert not table.oled.is_up
        table.clock.advance(0.5)
        assert table.oled.is_up
        assert table.chip.display_on
        assert table.chip.contrast == STILL.dim_contrast
        assert shows(table.chip, with_pixels((1, 1), (60, 30)))


def test_a_chip_that_lost_power_in_the_outage_is_set_up_again() -> None:
    with rig() as table:
        table.oled.show(with_pixels((1, 1)))
        table.bus.fail_next_writes(1)
        table.oled.show(with_pixels((2, 2)))
        table.chip.power_cycle()  # the loose wire took the supply with it
        table.clock.advance(0.5)
        assert table.chip.display_on
        assert shows(table.chip, with_pixels((2, 2)))


def test_a_decoder_left_waiting_for_arguments_does_not_swallow_the_init() -> None:
    # A previous run stopped right after the opening byte of a six-argument command.
    def half_command(chip: VirtualSSD1306) -> None:
        chip.write(bytes((0x80, 0x26)))

    with rig(before=half_command) as table:
        assert table.oled.is_up
        table.oled.show(with_pixels((7, 7)))
        assert shows(table.chip, with_pixels((7, 7)))
        assert table.chip.display_on


def test_a_display_missing_at_start_up_does_not_stop_the_table(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with (
        caplog.at_level(logging.WARNING, logger="firmware.drivers.oled"),
        rig(plugged=False) as table,
    ):
        assert not table.oled.is_up
        picture = with_pixels((64, 32))
        table.oled.show(picture)
        picture.putpixel((0, 0), 1)  # the caller draws on; the driver kept its own copy
        table.bus.replug(ADDRESS)
        table.clock.advance(1.0)
        assert table.oled.is_up
        assert shows(table.chip, with_pixels((64, 32)))
    assert len(caplog.records) == 1


class Blinka:
    """Stand-ins for Blinka's `board` and `busio`, whose I2C1 cannot be opened until `enable`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.bus: VirtualI2C | None = None
        self.opened: list[VirtualI2C] = []
        monkeypatch.setitem(sys.modules, "board", types.SimpleNamespace(SCL=3, SDA=2))
        monkeypatch.setitem(sys.modules, "busio", types.SimpleNamespace(I2C=self.open))

    def open(self, scl: int, sda: int) -> VirtualI2C:
        assert (scl, sda) == (3, 2)
        if self.bus is None:
            raise FileNotFoundError(2, "No such file or directory", "/dev/i2c-1")
        self.opened.append(self.bus)
        return self.bus

    def enable(self, chip: VirtualSSD1306) -> None:
        """I2C turned on in config.txt and the display plugged in."""
        self.bus = VirtualI2C()
        self.bus.attach(ADDRESS, chip)


def test_a_bus_that_cannot_be_opened_is_an_outage_not_a_crash(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    blinka = Blinka(monkeypatch)
    chip = VirtualSSD1306()
    clock = VirtualClock()
    with (
        caplog.at_level(logging.WARNING, logger="firmware.drivers.oled"),
        Oled(clock, config=STILL) as oled,
    ):
        assert not oled.is_up
        oled.show(with_pixels((4, 4)))
        clock.advance(10.0)
        blinka.enable(chip)
        clock.advance(30.0)
        assert oled.is_up
        assert shows(chip, with_pixels((4, 4)))
    assert len(caplog.records) == 1
    assert "/dev/i2c-1" in caplog.records[0].getMessage()
    (bus,) = blinka.opened
    with pytest.raises(RuntimeError, match="deinitialised"):
        bus.try_lock()  # the display opened it, so the display closed it


@settings(deadline=None, max_examples=30)
@given(
    seed=st.integers(0, 2**32 - 1),
    fraction=st.floats(0.05, 0.6),
    steps=st.lists(st.tuples(edits, st.floats(0.0, 5.0)), min_size=1, max_size=8),
)
def test_random_bus_errors_never_escape_and_the_last_screen_wins(
    seed: int,
    fraction: float,
    steps: list[tuple[list[tuple[int, int, int, int, bool]] | Image.Image, float]],
) -> None:
    with rig(strict=False) as table:
        table.bus.fail_fraction(fraction, random.Random(seed))
        canvas = blank()
        for edit, pause in steps:
            canvas = apply(canvas, edit)
            table.oled.show(canvas)
            table.clock.advance(pause)
        table.bus.fail_fraction(0.0, random.Random(seed))
        table.clock.advance(60.0)
        assert table.oled.is_up
        assert table.chip.display_on
        assert table.chip.contrast == STILL.contrast
        assert shows(table.chip, canvas)


# Dimming and burn-in


def test_dimming_on_request_and_across_an_outage() -> None:
    with rig() as table:
        table.oled.set_dimmed(True)
        assert table.chip.contrast == STILL.dim_contrast
        table.bus.unplug(ADDRESS)
        table.oled.show(with_pixels((9, 9)))
        table.bus.replug(ADDRESS)
        table.clock.advance(1.0)
        assert table.oled.is_up
        assert table.chip.contrast == STILL.dim_contrast
        table.oled.set_dimmed(False)
        assert table.chip.contrast == STILL.contrast


def test_the_picture_walks_the_shift_offsets_and_comes_back() -> None:
    config = OledConfig(shift_every_s=180.0)
    with rig(config) as table:
        table.oled.show(with_pixels((10, 10)))
        seen = []
        for _ in range(4):
            seen.append(table.oled.shift)
            dx, dy = table.oled.shift
            assert shows(table.chip, with_pixels((10 + dx, 10 + dy)))
            table.clock.advance(180.0)
        assert seen == [(0, 0), (1, 0), (1, 1), (0, 1)]
        assert table.oled.shift == (0, 0)
        assert shows(table.chip, with_pixels((10, 10)))


def test_a_module_mounted_upside_down_is_turned_by_the_chip() -> None:
    config = OledConfig(shift_every_s=0, rotate_180=True)
    picture = with_pixels((3, 4))
    with rig(config) as table:
        table.oled.show(picture)
        assert shows(table.chip, picture)  # RAM as drawn; the glass turns it
        assert table.chip.visible_image().tobytes() == picture.rotate(180).tobytes()


# Life cycle


def test_close_switches_off_stops_timers_and_is_idempotent() -> None:
    clock = VirtualClock()
    bus = VirtualI2C()
    chip = VirtualSSD1306()
    bus.attach(ADDRESS, chip)
    with Oled(clock, i2c=bus) as oled:
        oled.show(with_pixels((1, 1)))
        assert chip.display_on
        assert clock.pending == 1  # the burn-in shift timer
    assert not chip.display_on
    assert clock.pending == 0
    oled.close()
    with pytest.raises(RuntimeError, match="closed"):
        oled.show(blank())


def test_close_while_down_does_not_raise() -> None:
    with rig(plugged=False) as table:
        pass
    assert table.clock.pending == 0


@pytest.mark.parametrize(
    "bad",
    [
        {"shift_offsets": ()},
        {"shift_offsets": ((9, 0),)},
        {"retry_first": 10.0, "retry_max": 1.0},
    ],
)
def test_bad_settings_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        OledConfig(**bad)  # type: ignore[arg-type]
