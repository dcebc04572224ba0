"""What to send to an SSD1306 to turn one frame into the next: pure, no I/O.

An image is packed into the chip's RAM layout (`image_to_ram`); two RAM images are compared
page by page, and `plan_windows` picks the windows (column span × page run) that carry every
changed byte. Each window goes out in horizontal addressing mode as one I2C write
(`window_write`): its column and page address commands, each byte behind a control byte with
the continuation bit set, then a final data control byte and the window's bytes.

Every page range ends on the last page. In horizontal addressing mode (SSD1306 datasheet rev
1.1, §10.1.3) the page pointer moves to the next page whenever the column pointer passes the
column end address, and only command 22h (§10.1.5) sets it: 21h (§10.1.4) sets the column
pointer alone. So once a window's bytes are in, the page pointer stands on the page below the
window, and a window that starts there is sent with its column command only.

The plan minimises the bytes on the bus plus a fixed price per write, since each write wakes the
display worker: neighbouring changed pages share a window (its unchanged bytes sent again) when
that is cheaper than a window each.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from firmware.drivers.ssd1306_protocol import (
    ARGUMENT_COUNTS,
    CONTINUATION,
    CONTROL_COMMANDS,
    CONTROL_DATA,
    HEIGHT,
    PAGES,
    WIDTH,
    Command,
)

COMMAND_CONTROL = CONTINUATION | CONTROL_COMMANDS
"""The control byte before each command byte of a window's write: one command byte follows,
then another control byte."""

COLUMN_COMMAND_BYTES = 2 * (1 + ARGUMENT_COUNTS[Command.SET_COLUMN_ADDRESS])
"""80 21 80 c0 80 c1: the column range, each byte behind its control byte."""
PAGE_COMMAND_BYTES = 2 * (1 + ARGUMENT_COUNTS[Command.SET_PAGE_ADDRESS])
"""80 22 80 p0 80 07: the page range, each byte behind its control byte."""
ADJACENT_WINDOW_OVERHEAD = COLUMN_COMMAND_BYTES + 1
"""Bytes around the data of a window that starts where the previous one left the pointer: the
column command and the data control byte 0x40."""
WINDOW_OVERHEAD = ADJACENT_WINDOW_OVERHEAD + PAGE_COMMAND_BYTES
"""Bytes around the data of any other window: the column and page commands and 0x40."""
WRITE_COST_BYTES = 6
"""What the plan counts a write as worth, in bytes, on top of its bytes: each one puts the
display worker to sleep through the transfer and wakes it again, so a window is not split to
save a byte or two. A price for choosing only, never counted in `Window.cost`."""


@dataclass(frozen=True)
class Window:
    """A rectangle of display RAM sent in one write: pages and columns, both inclusive.

    `sets_pages` is False for a window that starts on the page after the previous window of
    the same plan: the pointer already stands there, so its write leaves the page command out.
    """

    first_page: int
    last_page: int
    first_column: int
    last_column: int
    sets_pages: bool = True

    @property
    def cost(self) -> int:
        """Bytes written on the bus to send this window, in its place in the plan."""
        overhead = WINDOW_OVERHEAD if self.sets_pages else ADJACENT_WINDOW_OVERHEAD
        pages = self.last_page - self.first_page + 1
        return overhead + pages * (self.last_column - self.first_column + 1)


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
    """The windows that carry every changed byte (all of it when `old` is unknown), in page
    order, for the fewest bytes on the bus plus `WRITE_COST_BYTES` a window.

    Windows start and end on changed pages. One that starts on the page after a changed page
    follows the window that carries it, and leaves its page command out.
    """
    if old is None:
        return [FULL_WINDOW]
    spans = changed_spans(old, new)
    # best[k]: the cheapest (bytes plus the price of the writes, windows) covering the changes
    # of pages 0 … k-1. Its last window ends on page k-1 exactly when page k-1 changed.
    best: list[tuple[int, list[Window]]] = [(0, [])]
    for end in range(1, PAGES + 1):
        if spans[end - 1] is None:
            best.append(best[end - 1])
            continue
        cheapest, chosen = 1 << 30, (0, 0, 0, False)
        first_column, last_column = WIDTH, -1
        for start in reversed(range(end)):
            span = spans[start]
            if span is None:
                # A window starting on an unchanged page resends a page of bytes; only one of
                # five columns or fewer, right after the previous window, would make that up
                # by leaving out its page command. Too rare to search for.
                continue
            first_column, last_column = min(first_column, span[0]), max(last_column, span[1])
            # `Window.cost` and the write's price, worked out before any window is made (this
            # runs on every screen).
            follows = start > 0 and spans[start - 1] is not None
            overhead = ADJACENT_WINDOW_OVERHEAD if follows else WINDOW_OVERHEAD
            cost = (
                best[start][0]
                + WRITE_COST_BYTES
                + overhead
                + (end - start) * (last_column - first_column + 1)
            )
            if cost < cheapest:
                cheapest, chosen = cost, (start, first_column, last_column, follows)
        start, first_column, last_column, follows = chosen
        window = Window(start, end - 1, first_column, last_column, sets_pages=not follows)
        best.append((cheapest, [*best[start][1], window]))
    return best[PAGES][1]


def window_write(ram: bytes, window: Window) -> bytes:
    """The one write that fills `window` with its bytes of `ram`, page after page.

    The page range runs to the last page whatever the window's height, so that after the
    window's bytes the page pointer stands on the page below it; a window that starts there
    (`sets_pages` False) sends only its column range.

    >>> ram = bytes(range(256)) * 4
    >>> window_write(ram, Window(1, 2, 5, 6)).hex(" ")
    '80 21 80 05 80 06 80 22 80 01 80 07 40 85 86 05 06'
    >>> window_write(ram, Window(3, 3, 5, 6, sets_pages=False)).hex(" ")
    '80 21 80 05 80 06 40 85 86'
    """
    commands: list[int] = [Command.SET_COLUMN_ADDRESS, window.first_column, window.last_column]
    if window.sets_pages:
        commands += [Command.SET_PAGE_ADDRESS, window.first_page, PAGES - 1]
    parts = [bytes(byte for command in commands for byte in (COMMAND_CONTROL, command))]
    parts.append(bytes((CONTROL_DATA,)))
    for page in range(window.first_page, window.last_page + 1):
        start = page * WIDTH
        parts.append(ram[start + window.first_column : start + window.last_column + 1])
    return b"".join(parts)
