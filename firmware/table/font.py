"""The table's own pixel font, for the 128 × 64 monochrome OLED, in all four languages.

Pillow's built-in bitmap font has no accented letters, and vector fonts rasterised at 8–12 px in
1-bit come out ragged; a font drawn pixel by pixel stays crisp. The glyph designs live in
`firmware.table.font_glyphs` as readable `.`/`#` rows; this module composes the accented letters,
turns every glyph into a cached 1-bit mask and lays text out with them: measuring, drawing,
wrapping and shortening it.

Metrics (at scale 1): a line box is 12 px tall, 3 rows for the marks over capitals, 7 of
capitals, 2 of descenders; lowercase letters are 5 px high; most glyphs are 5 px wide, with 1 px
between glyphs. Scale 2 doubles every pixel. The clue and the guesses left are drawn in
`NUMERAL_FONT`, numerals of their own, 8 rows at scale 3 (24 px), to be read from the seats.

>>> DEFAULT_FONT.line_height
12
>>> DEFAULT_FONT.text_width("VEZ DO AZUL")
61
>>> DEFAULT_FONT.wrap("Sì, più città", 40)
['Sì, più', 'città']
>>> DEFAULT_FONT.ellipsize("Agente rojo", 40)
'Agente…'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from PIL import Image

from firmware.table import font_glyphs
from firmware.table.font_glyphs import Mark

ELLIPSIS = "…"

_INK = "#"
_PAPER = "."


@dataclass(frozen=True)
class Glyph:
    """One character's pixels, over the whole height of the line box."""

    char: str
    rows: tuple[str, ...]
    """`line_height` rows of `width` characters, `#` for a lit pixel and `.` for a dark one."""

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @cached_property
    def blank(self) -> bool:
        """True when nothing is drawn (a space): drawing can skip it."""
        return not any(_INK in row for row in self.rows)


class PixelFont:
    """A proportional bitmap font: glyph rows in, cached masks and text layout out.

    `glyphs` maps a character to its rows over the full line box (all of the same height);
    `fallback` is drawn for characters without a glyph. Text is normalised to NFC first, so a
    letter followed by a combining accent finds the precomposed glyph, and `aliases` maps
    look-alike characters (a no-break space, a minus sign) to a glyph they share.
    """

    def __init__(
        self,
        glyphs: Mapping[str, Sequence[str]],
        fallback: Sequence[str],
        *,
        cap_top: int,
        cap_height: int,
        x_height: int,
        spacing: int = 1,
        aliases: Mapping[str, str] | None = None,
    ) -> None:
        self._fallback = _checked_glyph("fallback", fallback, len(fallback))
        self.line_height = len(fallback)
        """Height of the line box in pixels at scale 1, accent rows and descenders included."""
        self.cap_top = cap_top
        """Rows from the top of the line box to the top of a capital."""
        self.cap_height = cap_height
        self.x_height = x_height
        self.ascent = cap_top + cap_height
        """Rows from the top of the line box to the baseline (the first descender row)."""
        self.descent = self.line_height - self.ascent
        self.spacing = spacing
        """Blank columns between glyphs at scale 1."""
        self._glyphs = {
            char: _checked_glyph(char, rows, self.line_height) for char, rows in glyphs.items()
        }
        self._aliases = dict(aliases or {})
        self._masks: dict[tuple[str, int], Image.Image] = {}

    # --- Glyphs --------------------------------------------------------------------------

    def has_glyph(self, char: str) -> bool:
        """True when `char` is drawn with a glyph of its own (or its alias'), not the fallback."""
        return char in self._glyphs or self._aliases.get(char, "") in self._glyphs

    def glyph(self, char: str) -> Glyph:
        """The glyph drawn for `char`: its own, its alias', or the fallback box."""
        found = self._glyphs.get(char)
        if found is None:
            found = self._glyphs.get(self._aliases.get(char, ""), self._fallback)
        return found

    @property
    def fallback(self) -> Glyph:
        """The glyph of characters the font has none for: a hollow box."""
        return self._fallback

    @property
    def characters(self) -> frozenset[str]:
        """Every character with a glyph of its own."""
        return frozenset(self._glyphs)

    def mask(self, glyph: Glyph, scale: int = 1) -> Image.Image:
        """The glyph as a mode "1" mask, `scale` times bigger; built once, then cached."""
        key = (glyph.char, scale)
        cached = self._masks.get(key)
        if cached is None:
            cached = _mask(glyph.rows)
            if scale != 1:
                size = (cached.width * scale, cached.height * scale)
                cached = cached.resize(size, Image.Resampling.NEAREST)
            self._masks[key] = cached
        return cached

    def _layout(self, text: str) -> list[Glyph]:
        return [self.glyph(char) for char in unicodedata.normalize("NFC", text)]

    # --- Measuring -----------------------------------------------------------------------

    def text_width(self, text: str, scale: int = 1) -> int:
        """Width of `text` in pixels: its glyphs and the spacing between them (none outside)."""
        _check_scale(scale)
        glyphs = self._layout(text)
        if not glyphs:
            return 0
        inner = sum(glyph.width for glyph in glyphs) + self.spacing * (len(glyphs) - 1)
        return inner * scale

    def text_height(self, scale: int = 1) -> int:
        """Height of a line box in pixels: `line_height` at `scale`."""
        _check_scale(scale)
        return self.line_height * scale

    def fits(self, text: str, width: int, scale: int = 1) -> bool:
        """True when `text` is at most `width` pixels wide."""
        return self.text_width(text, scale) <= width

    # --- Drawing -------------------------------------------------------------------------

    def draw_text(
        self,
        image: Image.Image,
        xy: tuple[int, int],
        text: str,
        fill: int = 1,
        scale: int = 1,
    ) -> int:
        """Draw one line of `text` into a mode "1" `image`; return the x just after the text.

        `xy` is the top-left corner of the line box, accent rows included, so a capital's top
        is at `y + cap_top * scale`. Only lit pixels are drawn (the background shows through),
        in `fill`: 1 lights them, 0 darkens them (text over a lit bar). Whatever falls outside
        the image is clipped. The returned x is `xy[0] + text_width(text, scale)`; to go on
        drawing the same line, add `spacing * scale`.
        """
        _check_scale(scale)
        x, y = xy
        step = self.spacing * scale
        for index, glyph in enumerate(self._layout(text)):
            if index:
                x += step
            width = glyph.width * scale
            if not glyph.blank and x < image.width and x + width > 0:
                image.paste(fill, (x, y), self.mask(glyph, scale))
            x += width
        return x

    def render(self, text: str, scale: int = 1) -> Image.Image:
        """`text` alone in a mode "1" image as wide as the text and as tall as its line box."""
        _check_scale(scale)
        glyphs = self._layout(text)
        if not glyphs:
            return Image.new("1", (0, self.text_height(scale)), 0)
        # The glyphs' rows side by side, `spacing` dark columns apart, packed in one go: the
        # same pixels `draw_text` pastes glyph by glyph, for a fraction of the work.
        gap = _PAPER * self.spacing
        image = _mask(
            [gap.join(glyph.rows[y] for glyph in glyphs) for y in range(self.line_height)]
        )
        if scale != 1:
            size = (image.width * scale, image.height * scale)
            image = image.resize(size, Image.Resampling.NEAREST)
        return image

    # --- Fitting text into a width ----------------------------------------------------------

    def ellipsize(self, text: str, width: int, scale: int = 1) -> str:
        """`text` if it fits in `width`, else its longest start that fits followed by "…".

        Spaces before the "…" are dropped; when not even "…" fits, the result is empty.
        """
        if self.fits(text, width, scale):
            return text
        text = unicodedata.normalize("NFC", text)
        for end in range(len(text) - 1, -1, -1):
            candidate = text[:end].rstrip() + ELLIPSIS
            if self.fits(candidate, width, scale):
                return candidate
        return ""

    def wrap(self, text: str, width: int, scale: int = 1) -> list[str]:
        """Break `text` into lines at most `width` pixels wide, at spaces.

        A newline always breaks the line. A word wider than `width` is cut where it overflows
        and goes on in the next line (at least one character stays on each line, so a width
        too narrow for any character still ends). Text with nothing but spaces gives no lines.
        """
        _check_scale(scale)
        if not text.strip():
            return []
        lines: list[str] = []
        for paragraph in unicodedata.normalize("NFC", text).split("\n"):
            lines.extend(self._wrap_paragraph(paragraph, width, scale) or [""])
        return lines

    def _wrap_paragraph(self, paragraph: str, width: int, scale: int) -> list[str]:
        lines: list[str] = []
        line = ""
        for word in paragraph.split():
            joined = f"{line} {word}" if line else word
            if self.fits(joined, width, scale):
                line = joined
                continue
            if line:
                lines.append(line)
            pieces = list(self._cut(word, width, scale))
            lines.extend(pieces[:-1])
            line = pieces[-1]
        if line:
            lines.append(line)
        return lines

    def _cut(self, word: str, width: int, scale: int) -> Iterator[str]:
        """`word` in pieces that each fit in `width` (one character when nothing fits)."""
        while word:
            end = len(word)
            while end > 1 and not self.fits(word[:end], width, scale):
                end -= 1
            yield word[:end]
            word = word[end:]


def _check_scale(scale: int) -> None:
    if scale < 1:
        raise ValueError(f"scale must be a whole number of at least 1, not {scale}")


def _checked_glyph(char: str, rows: Sequence[str], height: int) -> Glyph:
    if len(rows) != height:
        raise ValueError(f"glyph {char!r} has {len(rows)} rows; the line box has {height}")
    widths = {len(row) for row in rows}
    if len(widths) != 1 or 0 in widths:
        raise ValueError(f"glyph {char!r} has rows of different (or no) widths: {sorted(widths)}")
    if any(set(row) - {_INK, _PAPER} for row in rows):
        raise ValueError(f"glyph {char!r} has pixels other than {_INK!r} and {_PAPER!r}")
    return Glyph(char, tuple(rows))


def _mask(rows: Sequence[str]) -> Image.Image:
    """A mode "1" image of the rows, packed the way Pillow stores "1": rows padded to bytes."""
    width = len(rows[0])
    padded = -(-width // 8) * 8
    data = b"".join(
        int(row.replace(_INK, "1").replace(_PAPER, "0").ljust(padded, "0"), 2).to_bytes(
            padded // 8, "big"
        )
        for row in rows
    )
    return Image.frombytes("1", (width, len(rows)), data)


# --- Building the default font from the designs in firmware.table.font_glyphs
# ------------------------


def parse_rows(drawing: str) -> list[str]:
    """The `.`/`#` rows of a glyph or mark drawing, indentation and blank lines dropped."""
    return [line.strip() for line in drawing.strip().splitlines() if line.strip()]


def _body_to_box(char: str, drawing: str) -> list[str]:
    """A glyph drawing (cap top to descenders) placed in the full line box."""
    rows = parse_rows(drawing)
    body = font_glyphs.CAP_HEIGHT + font_glyphs.DESCENT
    if not font_glyphs.CAP_HEIGHT <= len(rows) <= body:
        raise ValueError(f"glyph {char!r} has {len(rows)} rows; it needs 7 to {body}")
    width = len(rows[0])
    blank = _PAPER * width
    return [blank] * font_glyphs.ACCENT_ROWS + rows + [blank] * (body - len(rows))


def compose(char: str, base: Sequence[str], mark: Mark) -> list[str]:
    """The rows of `base` (a full line box) with `mark` added: an accented letter.

    The mark is centred on the letter (then moved `mark.shift` columns right) and the glyph
    widens when the mark is wider than the letter, as over a dotless ı. A mark above ends one
    blank row above the letter's top; a mark below starts in the first descender row.
    """
    mark_rows = parse_rows(mark.rows)
    base_width, mark_width = len(base[0]), len(mark_rows[0])
    offset = (base_width - mark_width) // 2 + mark.shift
    left = min(0, offset)
    width = max(base_width, offset + mark_width) - left
    canvas = [list(_PAPER * -left + row + _PAPER * (width - base_width + left)) for row in base]
    if mark.position == "above":
        top_ink = next(index for index, row in enumerate(base) if _INK in row)
        top = top_ink - 1 - len(mark_rows)
    else:
        top = font_glyphs.ACCENT_ROWS + font_glyphs.CAP_HEIGHT
    if top < 0 or top + len(mark_rows) > len(base):
        raise ValueError(f"the mark of {char!r} does not fit in the line box")
    for dy, mark_row in enumerate(mark_rows):
        for dx, pixel in enumerate(mark_row):
            if pixel == _INK:
                if canvas[top + dy][offset - left + dx] == _INK:
                    raise ValueError(f"the mark of {char!r} runs into the letter")
                canvas[top + dy][offset - left + dx] = _INK
    return ["".join(row) for row in canvas]


def default_glyph_rows() -> dict[str, list[str]]:
    """Every glyph of `firmware.table.font_glyphs`, the accented letters composed, in the line
    box."""
    rows = {char: _body_to_box(char, drawing) for char, drawing in font_glyphs.GLYPHS.items()}
    for char, (base, mark) in font_glyphs.COMPOSED.items():
        rows[char] = compose(char, rows[base], font_glyphs.MARKS[mark])
    return rows


DEFAULT_FONT = PixelFont(
    default_glyph_rows(),
    _body_to_box("fallback", font_glyphs.FALLBACK),
    cap_top=font_glyphs.ACCENT_ROWS,
    cap_height=font_glyphs.CAP_HEIGHT,
    x_height=font_glyphs.X_HEIGHT,
    spacing=font_glyphs.SPACING,
    aliases=font_glyphs.ALIASES,
)
"""The font of every screen of the table."""

NUMERAL_SCALE = 3
"""The big numerals are drawn at this scale: 8 rows become 24 px."""

NUMERAL_FONT = PixelFont(
    {char: parse_rows(drawing) for char, drawing in font_glyphs.NUMERALS.items()},
    parse_rows(font_glyphs.NUMERAL_FALLBACK),
    cap_top=0,
    cap_height=font_glyphs.NUMERAL_HEIGHT,
    x_height=font_glyphs.NUMERAL_HEIGHT,
    spacing=font_glyphs.SPACING,
)
"""The big numerals (digits and ∞) at a glance from the seats; the box holds no accent or
descender rows, so its height is the numeral's."""
