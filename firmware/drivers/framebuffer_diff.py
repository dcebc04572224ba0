"""What to send to an SSD1306 to turn one frame into the next: pure, no I/O.

An image is packed into the chip's RAM layout (`image_to_ram`); two RAM images are compared
page by page, and `plan_windows` picks the windows (column span × page run) that carry every
changed byte for the fewest bytes on the bus. Each window goes out as one column/page address
command and one data write in horizontal addressing mode (`window_commands`, `window_data`).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from firmware.drivers.ssd1306_protocol import (
    ARGUMENT_COUNTS,
    CONTROL_COMMANDS,
    CONTROL_DATA,
    HEIGHT,
    PAGES,
    WIDTH,
    Command,
)

WINDOW_OVERHEAD = (
    1  # control byte: commands follow
    + 1
    + ARGUMENT_COUNTS[Command.SET_COLUMN_ADDRESS]
    + 1
    + ARGUMENT_COUNTS[Command.SET_PAGE_ADDRESS]
    + 1  # control byte: data follows
)
"""Bytes around each window's data: 0x00 21 c0 c1 22 p0 p1 in one write, 0x40 before the data."""


@dataclass(frozen=True)
class Window:
    """A rectangle of display RAM sent in one go: pages and columns, both inclusive."""

    first_page: int
    last_page: int
    first_column: int
    last_column: int

    @property
    def cost(self) -> int:
        """Bytes written on the bus to send this window."""
        pages = self.last_page - self.first_page + 1
        return WINDOW_OVERHEAD + pages * (self.last_column - self.first_column + 1)


FULL_WINDOW = Window(0, PAGES - 1, 0, WIDTH - 1)


def check_image(image: Image.Image) -> None:
    """Refuse anything but a 1-bit 128 × 64 image: converting here would hide a screen bug."""
    if image.mode != "1" or image.size != (WIDTH, HEIGHT):
        raise ValueError(
            f"the OLED shows 1-bit {WIDTH}×{HEIGHT} images, not mode {image.mode!r} "
            f"{image.size[0]}×{image.size[1]}"
        )


def image_to_ram(image: Image.Image) -> bytes:
    """The SSD1306 RAM of a 1-bit 128 × 64 image: page p, column c, bit b is pixel (c, 8p+b)."""
    check_image(image)
    # A quarter turn clockwise makes row c hold column c from the bottom pixel up; Pillow packs
    # eight pixels a byte, first in bit 7, so byte k of that row is page 7-k with y=8p in bit 0.
    packed = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return b"".join(packed[PAGES - 1 - page :: PAGES] for page in range(PAGES))


def changed_spans(old: bytes, new: bytes) -> list[tuple[int, int] | None]:
    """Per page, the first and last column whose byte differs, or None if the page is the same."""
    spans: list[tuple[int, int] | None] = []
    for page in range(PAGES):
        start = page * WIDTH
        # The page's bytes as one big number each: their XOR has a bit set in every byte that
        # differs, column 0 the most significant, so its highest and lowest set bits are the
        # first and the last changed column.
        differs = int.from_bytes(old[start : start + WIDTH], "big") ^ int.from_bytes(
            new[start : start + WIDTH], "big"
        )
        if not differs:
            spans.append(None)
            continue
        lowest = (differs & -differs).bit_length() - 1
        spans.append((WIDTH - 1 - (differs.bit_length() - 1) // 8, WIDTH - 1 - lowest // 8))
    return spans


def plan_windows(old: bytes | None, new: bytes) -> list[Window]:
    """The cheapest windows that carry every changed byte (all of it when `old` is unknown).

    Neighbouring changed pages may share one window, whose columns span both, when that costs
    fewer bytes than a window each; unchanged bytes inside a window are sent again.
    """
    if old is None:
        return [FULL_WINDOW]
    spans = changed_spans(old, new)
    # best[k]: cheapest (cost, windows) covering the changes of pages 0 … k-1.
    best: list[tuple[int, list[Window]]] = [(0, [])]
    for end in range(1, PAGES + 1):
        if spans[end - 1] is None:
            best.append(best[end - 1])
            continue
        cheapest, chosen = 1 << 30, (0, 0, 0)
        first_column, last_column = WIDTH, -1
        for start in reversed(range(end)):
            span = spans[start]
            if span is None:
                continue  # a window starting on an unchanged page costs more for nothing
            first_column, last_column = min(first_column, span[0]), max(last_column, span[1])
            # `Window.cost`, worked out before any window is made (this runs on every screen).
            cost = (
                best[start][0] + WINDOW_OVERHEAD + (end - start) * (last_column - first_column + 1)
            )
            if cost < cheapest:
                cheapest, chosen = cost, (start, first_column, last_column)
        start, first_column, last_column = chosen
        window = Window(start, end - 1, first_column, last_column)
        best.append((cheapest, [*best[start][1], window]))
    return best[PAGES][1]


def window_commands(window: Window) -> bytes:
    """The write that points the chip's RAM pointer at `window` (horizontal addressing).

    >>> window_commands(Window(first_page=1, last_page=1, first_column=5, last_column=9)).hex(" ")
    '00 21 05 09 22 01 01'
    """
    return bytes(
        (
            CONTROL_COMMANDS,
            Command.SET_COLUMN_ADDRESS,
            window.first_column,
            window.last_column,
            Command.SET_PAGE_ADDRESS,
            window.first_page,
            window.last_page,
        )
    )


def window_data(ram: bytes, window: Window) -> bytes:
    """The write that fills `window` with its bytes of `ram`, page after page."""
    parts: list[bytes] = [bytes((CONTROL_DATA,))]
    for page in range(window.first_page, window.last_page + 1):
        start = page * WIDTH
        parts.append(ram[start + window.first_column : start + window.last_column + 1])
    return b"".join(parts)
