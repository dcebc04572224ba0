"""Draws an `OledScreen` into the 128 × 64 one-bit image the OLED shows: a pure function.

Laid out to be read from the seats. Top to bottom: the title (which team acts) in an inverted
bar; then either up to three text lines (fewer are centred in the body), or one line over the
clue selector's big number, or, while guessing, the clue and the guesses left side by side in
big numerals (24 px) over small labels; the footer, with the sand timer's seconds at its right
while it runs; the timer's bar. Every text is shortened with "…" rather than run off the edge;
a margin of two pixels leaves room for the burn-in shift.
"""

from __future__ import annotations

import functools

from PIL import Image, ImageDraw

from firmware.drivers import ssd1306_protocol
from firmware.table.font import DEFAULT_FONT, NUMERAL_FONT, NUMERAL_SCALE, PixelFont
from firmware.table.screens import BigNumber, OledScreen

WIDTH, HEIGHT = ssd1306_protocol.WIDTH, ssd1306_protocol.HEIGHT
"""The picture is the chip's RAM, pixel for pixel."""
MARGIN = 2
NUMERAL_HEIGHT = NUMERAL_FONT.line_height * NUMERAL_SCALE
SELECTOR_LINE_TOP = 11
"""The line over the selector, one row up: its box starts with accent rows left dark (or lit
under the title bar), and its descenders then end a dark row above the numeral."""
SELECTOR_TOP = 24
"""The selector's numeral: its rows 24-47 end above the footer's marks (a capital's accent is
the footer box's first two rows)."""
NUMBERS_TOP = 16
"""The guessing numbers, on RAM pages 2-4 exactly: a number that changes rewrites three pages,
not the four it would straddle a few rows higher."""
LABEL_TOP = NUMBERS_TOP + NUMERAL_HEIGHT - 2
"""The labels' line box: it starts with accent rows, which lowercase labels leave dark, so the
label's ascenders stay a row under the numeral, and its descenders end a row above the
footer's capitals."""
NUMBER_COLUMN = 44
"""Width of a number's column, its label's room: the two columns sit around the middle, so that
a notice in their place rewrites far fewer columns than the whole width (it keeps the bytes per
game event within `tools/bench.py`'s budget)."""
ARROW_GAP = 6
"""Between the selector's number and its « » arrows."""
FOOTER_TOP = 48
"""Under the big numerals; the footer's descenders end on row 59, a dark row above the bar."""
BAR_TOP = 61
"""The bar: the sand left as two solid rows, the sand run out as one thin row under them."""
SECONDS_GAP = 4
"""Between the footer and the seconds at its right."""


def render_screen(screen: OledScreen, font: PixelFont = DEFAULT_FONT) -> Image.Image:
    """The image of `screen`."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    line = font.line_height
    draw.rectangle((0, 0, WIDTH - 1, line - 1), fill=1)
    _centred(image, font, screen.title, 0, fill=0)
    if screen.numbers:
        _numbers(image, font, screen.numbers)
    elif screen.big is None:
        # Fewer than three lines are centred in the body: a one-line notice then sits on the
        # numbers' pages and leaves the page under the title bar alone.
        lines = screen.lines[:3]
        top = line + (3 - len(lines)) * line // 2
        for number, text in enumerate(lines):
            _centred(image, font, text, top + line * number)
    else:
        for text in screen.lines[:1]:
            _centred(image, font, text, SELECTOR_LINE_TOP)
        _selector(image, font, screen.big)
    _footer(image, font, screen.footer, screen.seconds)
    if screen.bar is not None:
        inner = WIDTH - 2 * MARGIN
        filled = round(inner * min(max(screen.bar, 0.0), 1.0))
        draw.line((MARGIN, BAR_TOP + 1, MARGIN + inner - 1, BAR_TOP + 1), fill=1)
        if filled:
            draw.rectangle((MARGIN, BAR_TOP, MARGIN + filled - 1, BAR_TOP + 1), fill=1)
    return image


def seconds_text(seconds: int) -> str:
    """The sand timer's time left as a countdown shows it: `1:05`, `0:09`."""
    minutes, rest = divmod(max(seconds, 0), 60)
    return f"{minutes}:{rest:02d}"


def _numbers(image: Image.Image, font: PixelFont, numbers: tuple[BigNumber, ...]) -> None:
    # Side by side in columns around the middle, each number centred over its label.
    room = NUMBER_COLUMN
    first = (WIDTH - room * len(numbers)) // 2
    for index, number in enumerate(numbers):
        left = first + index * room
        _centred(
            image,
            NUMERAL_FONT,
            number.value,
            NUMBERS_TOP,
            left=left,
            room=room,
            scale=NUMERAL_SCALE,
        )
        _centred(image, font, number.label, LABEL_TOP, left=left, room=room)


def _selector(image: Image.Image, font: PixelFont, value: str) -> None:
    width = NUMERAL_FONT.text_width(value, NUMERAL_SCALE)
    left = (WIDTH - width) // 2
    NUMERAL_FONT.draw_text(image, (left, SELECTOR_TOP), value, scale=NUMERAL_SCALE)
    # The arrows at twice the text size, their x-height centred on the numeral.
    arrow_top = SELECTOR_TOP + NUMERAL_HEIGHT // 2 - 2 * (font.ascent - font.x_height // 2)
    before = left - ARROW_GAP - font.text_width("«", 2)
    font.draw_text(image, (before, arrow_top), "«", scale=2)
    font.draw_text(image, (left + width + ARROW_GAP, arrow_top), "»", scale=2)


def _footer(image: Image.Image, font: PixelFont, footer: str | None, seconds: int | None) -> None:
    room = WIDTH - 2 * MARGIN
    if seconds is not None:
        countdown = seconds_text(seconds)
        width = font.text_width(countdown)
        font.draw_text(image, (WIDTH - MARGIN - width, FOOTER_TOP), countdown)
        room -= width + SECONDS_GAP
    if footer is not None:
        _centred(image, font, footer, FOOTER_TOP, room=room)


def _centred(
    image: Image.Image,
    font: PixelFont,
    text: str,
    top: int,
    *,
    fill: int = 1,
    scale: int = 1,
    left: int = MARGIN,
    room: int = WIDTH - 2 * MARGIN,
) -> None:
    offset, mask = _line(font, text, room, scale)
    if mask is not None:
        image.paste(fill, (left + offset, top), mask)


LINE_CACHE = 128
"""Lines kept drawn: a screen's texts recur from one screen to the next (the title, the footer,
the labels), and a line's mask pastes at once what its glyphs would paste one by one."""


@functools.lru_cache(maxsize=LINE_CACHE)
def _line(font: PixelFont, text: str, room: int, scale: int) -> tuple[int, Image.Image | None]:
    """`text` shortened to `room`: its offset in the room to be centred, and its mask (None when
    nothing of it is lit)."""
    shown = font.ellipsize(text, room, scale=scale)
    width = font.text_width(shown, scale=scale)
    if width == 0:
        return 0, None
    return (room - width) // 2, font.render(shown, scale)
