"""Draws an `OledScreen` into the 128 × 64 one-bit image the OLED shows: a pure function.

Laid out to be read from the seats. Top to bottom: the title (which team acts) in an inverted
bar; then either up to three text lines (fewer are centred in the body), or one line over the
clue selector's big number, or, while guessing, the clue and the guesses left side by side in
big numerals (24 px) over small labels; the footer, with the sand timer's seconds at its right
while it runs; the timer's bar. A footer too long to share its line with the seconds (a fault's
reason) keeps the whole line, and the seconds move up to the right of the body: beside the
selector or a one-line body at its bottom, beside the guessing numbers at their top (a notice of
several lines hides them for its moment; the bar still runs). Every text is shortened with "…"
rather than run off the edge; a margin of two pixels leaves room for the burn-in shift.

`layout` says where each text goes and how much room it has; `render_screen` draws it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from PIL import Image, ImageDraw

from firmware.drivers import ssd1306_protocol
from firmware.table.font import DEFAULT_FONT, NUMERAL_FONT, NUMERAL_SCALE, PixelFont
from firmware.table.screens import BigNumber, OledScreen, seconds_text

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
SECONDS_CORNER_TOP = FOOTER_TOP - DEFAULT_FONT.line_height
"""The seconds' line while the footer needs its whole line: the body's bottom line, at the right,
clear of the selector's »."""
LINE_ROOM = WIDTH - 2 * MARGIN
"""A full line's room: the width less the burn-in margins."""


@dataclass(frozen=True)
class Placed:
    """A text in its place: centred in `room` pixels from `left`, its line box's top at `top`."""

    text: str
    font: PixelFont
    left: int
    top: int
    room: int
    scale: int = 1
    fill: int = 1
    """1 lights the text; 0 darkens it (over the title bar)."""
    own_width: bool = False
    """The room is the text's own width (the seconds, the selector's number): never short."""

    @property
    def spare(self) -> int:
        """Pixels the text leaves in its room; below zero it is shortened with "…"."""
        return self.room - self.font.text_width(self.text, self.scale)


def render_screen(screen: OledScreen, font: PixelFont = DEFAULT_FONT) -> Image.Image:
    """The image of `screen`."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH - 1, font.line_height - 1), fill=1)
    for placed in layout(screen, font):
        offset, mask = _line(placed.font, placed.text, placed.room, placed.scale)
        if mask is not None:
            image.paste(placed.fill, (placed.left + offset, placed.top), mask)
    if screen.big is not None and not screen.numbers:
        _arrows(image, font, screen.big)
    if screen.bar is not None:
        inner = WIDTH - 2 * MARGIN
        filled = round(inner * min(max(screen.bar, 0.0), 1.0))
        draw.line((MARGIN, BAR_TOP + 1, MARGIN + inner - 1, BAR_TOP + 1), fill=1)
        if filled:
            draw.rectangle((MARGIN, BAR_TOP, MARGIN + filled - 1, BAR_TOP + 1), fill=1)
    return image


def layout(screen: OledScreen, font: PixelFont = DEFAULT_FONT) -> tuple[Placed, ...]:
    """Every text of `screen` in the place it is drawn, top to bottom (the selector's arrows,
    drawn beside its number, aside)."""
    line = font.line_height
    placed = [Placed(screen.title, font, MARGIN, 0, LINE_ROOM, fill=0)]
    if screen.numbers:
        placed += _numbers(font, screen.numbers)
    elif screen.big is None:
        # Fewer than three lines are centred in the body: a one-line notice then sits on the
        # numbers' pages and leaves the page under the title bar alone.
        lines = screen.lines[:3]
        top = line + (3 - len(lines)) * line // 2
        placed += [
            Placed(text, font, MARGIN, top + line * n, LINE_ROOM) for n, text in enumerate(lines)
        ]
    else:
        placed += [
            Placed(text, font, MARGIN, SELECTOR_LINE_TOP, LINE_ROOM) for text in screen.lines[:1]
        ]
        width = NUMERAL_FONT.text_width(screen.big, NUMERAL_SCALE)
        left = (WIDTH - width) // 2
        big = Placed(
            screen.big, NUMERAL_FONT, left, SELECTOR_TOP, width, NUMERAL_SCALE, own_width=True
        )
        placed.append(big)
    placed += _footer(screen, font)
    return tuple(placed)


def _numbers(font: PixelFont, numbers: tuple[BigNumber, ...]) -> list[Placed]:
    # Side by side in columns around the middle, each number centred over its label.
    room = NUMBER_COLUMN
    first = (WIDTH - room * len(numbers)) // 2
    placed = []
    for index, number in enumerate(numbers):
        left = first + index * room
        placed.append(Placed(number.value, NUMERAL_FONT, left, NUMBERS_TOP, room, NUMERAL_SCALE))
        placed.append(Placed(number.label, font, left, LABEL_TOP, room))
    return placed


def _arrows(image: Image.Image, font: PixelFont, value: str) -> None:
    # The selector's « » at twice the text size, their x-height centred on the numeral.
    width = NUMERAL_FONT.text_width(value, NUMERAL_SCALE)
    left = (WIDTH - width) // 2
    arrow_top = SELECTOR_TOP + NUMERAL_HEIGHT // 2 - 2 * (font.ascent - font.x_height // 2)
    before = left - ARROW_GAP - font.text_width("«", 2)
    font.draw_text(image, (before, arrow_top), "«", scale=2)
    font.draw_text(image, (left + width + ARROW_GAP, arrow_top), "»", scale=2)


def _footer(screen: OledScreen, font: PixelFont) -> list[Placed]:
    footer = [] if screen.footer is None else [screen.footer]
    if screen.seconds is None:
        return [Placed(text, font, MARGIN, FOOTER_TOP, LINE_ROOM) for text in footer]
    countdown = seconds_text(screen.seconds)
    width = font.text_width(countdown)
    right = WIDTH - MARGIN - width
    beside = LINE_ROOM - width - SECONDS_GAP
    if all(font.fits(text, beside) for text in footer):
        seconds = Placed(countdown, font, right, FOOTER_TOP, width, own_width=True)
        return [*(Placed(text, font, MARGIN, FOOTER_TOP, beside) for text in footer), seconds]
    # The footer keeps its line whole; the seconds go up where the body leaves them room.
    placed = [Placed(text, font, MARGIN, FOOTER_TOP, LINE_ROOM) for text in footer]
    if screen.numbers:
        # Level with the big numerals' tops, clear of the labels under them.
        placed.append(Placed(countdown, font, right, font.line_height, width, own_width=True))
    elif screen.big is not None or len(screen.lines) <= 1:
        placed.append(Placed(countdown, font, right, SECONDS_CORNER_TOP, width, own_width=True))
    return placed


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
