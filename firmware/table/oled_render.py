"""Draws an `OledScreen` into the 128 × 64 one-bit image the OLED shows: a pure function.

Layout, top to bottom: the title in an inverted bar, up to three body lines (the big clue
selector takes the place of the last two), the footer, and the sand timer's bar. Every text is
shortened with "…" rather than run off the edge; a margin of two pixels leaves room for the
burn-in shift.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from firmware.drivers import ssd1306_protocol
from firmware.table.font import DEFAULT_FONT, PixelFont
from firmware.table.screens import OledScreen

WIDTH, HEIGHT = ssd1306_protocol.WIDTH, ssd1306_protocol.HEIGHT
"""The picture is the chip's RAM, pixel for pixel."""
MARGIN = 2
BIG_SCALE = 2
FOOTER_TOP = 47
"""One row above the fourth line's box: its lowest row is a descender row that a footer never
shares with an accent, and the footer's descenders then clear the timer bar."""
BAR_TOP, BAR_HEIGHT = 60, 3


def render_screen(screen: OledScreen, font: PixelFont = DEFAULT_FONT) -> Image.Image:
    """The image of `screen`."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    line = font.line_height
    draw.rectangle((0, 0, WIDTH - 1, line - 1), fill=1)
    _centred(image, font, screen.title, 0, fill=0)
    body = screen.lines[:1] if screen.big is not None else screen.lines[:3]
    for number, text in enumerate(body):
        _centred(image, font, text, line * (1 + number))
    if screen.big is not None:
        _centred(image, font, screen.big, line * 2, scale=BIG_SCALE)
    if screen.footer is not None:
        _centred(image, font, screen.footer, FOOTER_TOP)
    if screen.bar is not None:
        inner = WIDTH - 2 * MARGIN
        draw.rectangle((MARGIN, BAR_TOP, MARGIN + inner - 1, BAR_TOP + BAR_HEIGHT - 1), outline=1)
        filled = round(inner * min(max(screen.bar, 0.0), 1.0))
        if filled:
            draw.rectangle((MARGIN, BAR_TOP, MARGIN + filled - 1, BAR_TOP + BAR_HEIGHT - 1), fill=1)
    return image


def _centred(
    image: Image.Image, font: PixelFont, text: str, top: int, *, fill: int = 1, scale: int = 1
) -> None:
    room = WIDTH - 2 * MARGIN
    shown = font.ellipsize(text, room, scale=scale)
    left = MARGIN + (room - font.text_width(shown, scale=scale)) // 2
    font.draw_text(image, (left, top), shown, fill=fill, scale=scale)
