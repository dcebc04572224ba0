"""The frame-to-frame plan, without a bus: RAM packing, windows and the bytes that carry them.

The oracles are written plainly and apart from the code: the datasheet's layout pixel by pixel,
and a RAM patched window by window.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from firmware.drivers.framebuffer_diff import (
    FULL_WINDOW,
    WINDOW_OVERHEAD,
    Window,
    changed_spans,
    image_to_ram,
    plan_windows,
    window_commands,
    window_data,
)
from firmware.drivers.oled import FULL_FRAME_BYTES
from tests.oled_helpers import SIZE, apply, edits, noise, page_spans


def naive_ram(image: Image.Image) -> bytes:
    """The datasheet's layout, pixel by pixel: page p, column c, bit b is pixel (c, 8p+b)."""
    pixels = image.load()
    assert pixels is not None
    return bytes(
        sum(1 << bit for bit in range(8) if pixels[column, page * 8 + bit])
        for page in range(8)
        for column in range(128)
    )


@given(noise)
def test_image_to_ram_follows_the_datasheet_layout(image: Image.Image) -> None:
    assert image_to_ram(image) == naive_ram(image)


@pytest.mark.parametrize("image", [Image.new("L", SIZE), Image.new("1", (128, 32))])
def test_only_1_bit_128_by_64_images_are_packed(image: Image.Image) -> None:
    with pytest.raises(ValueError, match="1-bit 128×64"):
        image_to_ram(image)


@given(st.binary(min_size=1024, max_size=1024), st.lists(edits, min_size=1, max_size=1))
def test_planned_windows_carry_every_change_and_cost_no_more_than_a_window_a_page(
    old: bytes, edit: list[list[tuple[int, int, int, int, bool]] | Image.Image]
) -> None:
    new = image_to_ram(apply(Image.frombytes("1", SIZE, old), edit[0]))
    old_ram = image_to_ram(Image.frombytes("1", SIZE, old))
    windows = plan_windows(old_ram, new)
    ram = bytearray(old_ram)
    for window in windows:
        for page in range(window.first_page, window.last_page + 1):
            for column in range(window.first_column, window.last_column + 1):
                ram[page * 128 + column] = new[page * 128 + column]
    assert ram == new
    cost = sum(window.cost for window in windows)
    spans = page_spans(old_ram, new)
    assert cost <= sum(WINDOW_OVERHEAD + last - first + 1 for first, last in spans)
    assert cost <= FULL_WINDOW.cost
    assert (cost == 0) == (old_ram == new)


def test_unknown_ram_is_sent_whole() -> None:
    assert plan_windows(None, bytes(1024)) == [FULL_WINDOW]
    assert FULL_WINDOW.cost < FULL_FRAME_BYTES


def test_changed_spans_name_the_first_and_last_changed_column_of_each_page() -> None:
    old = bytearray(1024)
    new = bytearray(1024)
    new[1 * 128 + 5] = 1
    new[1 * 128 + 90] = 1
    new[7 * 128 + 127] = 1
    assert changed_spans(bytes(old), bytes(new)) == [
        None,
        (5, 90),
        None,
        None,
        None,
        None,
        None,
        (127, 127),
    ]


def test_window_cost_counts_overhead_and_every_byte() -> None:
    assert Window(1, 2, 5, 6).cost == WINDOW_OVERHEAD + 4


def test_a_window_goes_out_as_an_address_command_and_its_bytes_page_after_page() -> None:
    ram = bytes(range(256)) * 4
    window = Window(1, 2, 5, 6)
    assert window_commands(window) == bytes((0x00, 0x21, 5, 6, 0x22, 1, 2))
    assert window_data(ram, window) == bytes((0x40, ram[133], ram[134], ram[261], ram[262]))


@given(
    st.integers(0, 7).flatmap(lambda p: st.tuples(st.just(p), st.integers(p, 7))),
    st.integers(0, 127).flatmap(lambda c: st.tuples(st.just(c), st.integers(c, 127))),
)
def test_a_windows_cost_is_the_bytes_that_carry_it(
    pages: tuple[int, int], columns: tuple[int, int]
) -> None:
    window = Window(pages[0], pages[1], columns[0], columns[1])
    sent = len(window_commands(window)) + len(window_data(bytes(1024), window))
    assert sent == window.cost
