"""The frame-to-frame plan, without a bus: RAM packing, windows and the writes that carry them.

The oracles are written plainly and apart from the code: the datasheet's layout pixel by pixel,
a RAM patched window by window, every way of grouping the changed pages into windows, and the
virtual SSD1306 taking the writes.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from firmware.drivers.framebuffer_diff import (
    ADJACENT_WINDOW_OVERHEAD,
    FULL_WINDOW,
    WINDOW_OVERHEAD,
    WRITE_COST_BYTES,
    Window,
    changed_spans,
    image_to_ram,
    plan_windows,
    window_write,
)
from firmware.drivers.oled import FULL_FRAME_BYTES
from firmware.virtual.ssd1306 import VirtualSSD1306
from tests.oled_helpers import SIZE, apply, edits, noise, page_spans

COLUMN_COMMAND = (0x80, 0x21)
PAGE_COMMAND = (0x80, 0x22)


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
    price = cost + WRITE_COST_BYTES * len(windows)
    assert price <= sum(
        WINDOW_OVERHEAD + WRITE_COST_BYTES + last - first + 1 for first, last in spans
    )
    assert cost <= FULL_WINDOW.cost
    assert (cost == 0) == (old_ram == new)


def test_unknown_ram_is_sent_whole_for_no_more_than_adafruits_show() -> None:
    assert plan_windows(None, bytes(1024)) == [FULL_WINDOW]
    assert FULL_WINDOW.cost <= FULL_FRAME_BYTES


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
    assert Window(1, 2, 5, 6).cost == WINDOW_OVERHEAD + 4 == 13 + 4
    assert Window(1, 2, 5, 6, sets_pages=False).cost == ADJACENT_WINDOW_OVERHEAD + 4 == 7 + 4


def test_a_window_goes_out_as_one_write_of_commands_then_its_bytes_page_after_page() -> None:
    ram = bytes(range(256)) * 4
    # Every command byte behind a 0x80 control byte, the page range to the last page, 0x40.
    head = bytes((0x80, 0x21, 0x80, 5, 0x80, 6, 0x80, 0x22, 0x80, 1, 0x80, 7, 0x40))
    assert window_write(ram, Window(1, 2, 5, 6)) == head + bytes(
        (ram[133], ram[134], ram[261], ram[262])
    )
    assert window_write(ram, Window(3, 3, 5, 6, sets_pages=False)) == bytes(
        (0x80, 0x21, 0x80, 5, 0x80, 6, 0x40, ram[389], ram[390])
    )


@given(
    st.integers(0, 7).flatmap(lambda p: st.tuples(st.just(p), st.integers(p, 7))),
    st.integers(0, 127).flatmap(lambda c: st.tuples(st.just(c), st.integers(c, 127))),
    st.booleans(),
)
def test_a_windows_cost_is_the_bytes_that_carry_it(
    pages: tuple[int, int], columns: tuple[int, int], sets_pages: bool
) -> None:
    window = Window(pages[0], pages[1], columns[0], columns[1], sets_pages)
    assert len(window_write(bytes(1024), window)) == window.cost


def ram_with(*changes: tuple[int, int]) -> bytes:
    """A blank RAM but for the byte at each (page, column)."""
    ram = bytearray(1024)
    for page, column in changes:
        ram[page * 128 + column] = 0xFF
    return bytes(ram)


def test_a_window_right_after_another_leaves_its_page_command_out() -> None:
    # Column 0 of page 1, column 127 of page 2: one window each is far cheaper than one 128 wide.
    new = ram_with((1, 0), (2, 127))
    windows = plan_windows(bytes(1024), new)
    assert windows == [Window(1, 1, 0, 0), Window(2, 2, 127, 127, sets_pages=False)]
    assert [window_write(new, window) for window in windows] == [
        bytes((0x80, 0x21, 0x80, 0, 0x80, 0, 0x80, 0x22, 0x80, 1, 0x80, 7, 0x40, 0xFF)),
        bytes((0x80, 0x21, 0x80, 127, 0x80, 127, 0x40, 0xFF)),
    ]


def test_a_window_after_an_unchanged_page_sets_its_pages() -> None:
    new = ram_with((1, 0), (3, 127))
    windows = plan_windows(bytes(1024), new)
    assert windows == [Window(1, 1, 0, 0), Window(3, 3, 127, 127)]
    assert window_write(new, windows[1]) == bytes(
        (0x80, 0x21, 0x80, 127, 0x80, 127, 0x80, 0x22, 0x80, 3, 0x80, 7, 0x40, 0xFF)
    )


def test_a_window_is_split_only_to_save_more_than_a_write() -> None:
    # Pages 1 and 2 changed in columns 0–9 and 5–14: one 2 × 15 window sends 13 + 30 = 43
    # bytes, a window each 13 + 10 + 7 + 10 = 40; three bytes are worth less than a write. On
    # pages 4 and 5, columns 0–9 and 7–16: 13 + 34 = 47 bytes in one window, seven more than in
    # two, are worth more.
    new = ram_with(
        *((1, c) for c in range(10)),
        *((2, c) for c in range(5, 15)),
        *((4, c) for c in range(10)),
        *((5, c) for c in range(7, 17)),
    )
    windows = plan_windows(bytes(1024), new)
    assert windows == [
        Window(1, 2, 0, 14),
        Window(4, 4, 0, 9),
        Window(5, 5, 7, 16, sets_pages=False),
    ]
    assert [window.cost for window in windows] == [43, 23, 17]


# Oracles on random screens


def random_frames(rng: random.Random) -> tuple[Image.Image, Image.Image]:
    """A screen, noise or a few patches, and the same screen with a few rectangles drawn."""
    patches = [
        (
            rng.randrange(128),
            rng.randrange(64),
            rng.randint(1, 48),
            rng.choice((1, 2, 3, rng.randint(1, 24))),
            rng.random() < 0.5,
        )
        for _ in range(rng.randint(0, 6))
    ]
    if rng.random() < 0.5:
        old = Image.frombytes("1", SIZE, rng.randbytes(1024))
    else:
        old = apply(Image.new("1", SIZE), patches)
    changes = [
        (
            rng.randrange(128),
            rng.randrange(64),
            rng.choice((1, 2, 5, rng.randint(1, 48))),
            rng.choice((1, 2, 8, rng.randint(1, 24))),
            rng.random() < 0.5,
        )
        for _ in range(rng.randint(1, 4))
    ]
    return old, apply(old, changes)


def chip_pointer_anywhere(rng: random.Random) -> VirtualSSD1306:
    """A chip in horizontal addressing mode with its window and pointer anywhere."""
    chip = VirtualSSD1306()
    first_column = rng.randrange(128)
    first_page = rng.randrange(8)
    window = (
        0x21,
        first_column,
        rng.randint(first_column, 127),
        0x22,
        first_page,
        rng.randint(first_page, 7),
    )
    chip.write(bytes((0x00, 0x20, 0x00, *window)))
    chip.write(bytes((0x40, *rng.randbytes(rng.randrange(1100)))))
    return chip


def plainly_cheapest(old: bytes, new: bytes) -> int:
    """The fewest bytes plus write prices of any grouping of the changed pages into windows,
    tried one by one: a window runs from its group's first to its last page."""
    spans = {}
    for page in range(8):
        changed = [c for c in range(128) if old[page * 128 + c] != new[page * 128 + c]]
        if changed:
            spans[page] = (changed[0], changed[-1])
    pages = sorted(spans)
    if not pages:
        return 0
    cheapest = None
    for cuts in range(1 << (len(pages) - 1)):
        groups: list[list[int]] = [[pages[0]]]
        for index, page in enumerate(pages[1:]):
            if cuts >> index & 1:
                groups.append([])
            groups[-1].append(page)
        price, previous_last = 0, None
        for group in groups:
            first, last = group[0], group[-1]
            width = max(spans[p][1] for p in group) - min(spans[p][0] for p in group) + 1
            overhead = 7 if previous_last == first - 1 else 13
            price += overhead + (last - first + 1) * width + WRITE_COST_BYTES
            previous_last = last
        cheapest = price if cheapest is None else min(cheapest, price)
    assert cheapest is not None
    return cheapest


def test_planned_writes_turn_the_old_frame_into_the_new_on_the_chip_for_the_planned_bytes() -> None:
    rng = random.Random(1306)
    followers = page_setters = 0
    for _ in range(300):
        old_image, new_image = random_frames(rng)
        old, new = image_to_ram(old_image), image_to_ram(new_image)
        for known in (old, None):
            chip = chip_pointer_anywhere(rng)
            chip.memory[:] = old
            windows = plan_windows(known, new)
            writes = [window_write(new, window) for window in windows]
            for write in writes:
                chip.write(write)
            assert chip.memory == new
            assert len(writes) == len(windows)
            assert sum(map(len, writes)) == sum(window.cost for window in windows)
            for index, (window, write) in enumerate(zip(windows, writes, strict=True)):
                follows = index > 0 and windows[index - 1].last_page == window.first_page - 1
                assert window.sets_pages is not follows
                assert write[:2] == bytes(COLUMN_COMMAND)
                assert (write[6:8] == bytes(PAGE_COMMAND)) is window.sets_pages
                assert write[12 if window.sets_pages else 6] == 0x40
                followers += follows
                page_setters += index > 0 and not follows
        price = sum(window.cost for window in plan_windows(old, new))
        price += WRITE_COST_BYTES * len(plan_windows(old, new))
        assert price == plainly_cheapest(old, new)
    # Both kinds of window that is not the first came up, or the checks above checked little.
    assert followers > 50 and page_setters > 50
