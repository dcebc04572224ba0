"""The pixel font: coverage of the four languages, composed accents, metrics, drawing, layout."""

import itertools
import unicodedata

import pytest
from PIL import Image

from firmware.table.font import DEFAULT_FONT, Glyph, PixelFont
from firmware.table.font_glyphs import COMPOSED, GLYPHS

FONT = DEFAULT_FONT

ACCENTED = "áàâãäéèêëíìîïóòôõöúùûüñç" + "ÁÀÂÃÄÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÑÇ"
SYMBOLS = "¡¿ºª«»·—–…’“”∞×°✓←→▲▼"
ASCII = "".join(chr(code) for code in range(0x20, 0x7F))
REQUIRED = ASCII + ACCENTED + SYMBOLS

SAMPLES = [
    "VEZ DO AZUL",
    "¿Pista? ∞",
    "Agente rojo — turno terminado",
    "Sì, più città",
    "ÁÉÍÓÚ ÃÕ Ñ Ç",
    "ação, não, coração",
]


def lit(image: Image.Image) -> set[tuple[int, int]]:
    """The coordinates of the lit pixels of an image."""
    return {
        (x, y) for y in range(image.height) for x in range(image.width) if image.getpixel((x, y))
    }


def expected_rows(text: str) -> list[str]:
    """The `.`/`#` rows a line of text should show, built from the glyph rows and the spacing."""
    glyphs = [FONT.glyph(char) for char in text]
    gap = "." * FONT.spacing
    return [gap.join(glyph.rows[y] for glyph in glyphs) for y in range(FONT.line_height)]


def ink_rows(glyph: Glyph) -> list[int]:
    return [y for y, row in enumerate(glyph.rows) if "#" in row]


def placed_at(small: tuple[str, ...], big: tuple[str, ...], rows: range) -> int | None:
    """The column where `small` sits inside `big` over `rows`, with nothing else there."""
    width = len(small[0])
    for dx in range(len(big[0]) - width + 1):
        if all(
            big[y][dx : dx + width] == small[y] and "#" not in big[y][:dx] + big[y][dx + width :]
            for y in rows
        ):
            return dx
    return None


# --- Coverage -------------------------------------------------------------------------------


@pytest.mark.parametrize("char", REQUIRED)
def test_every_required_character_has_its_own_glyph(char: str) -> None:
    assert FONT.has_glyph(char)
    glyph = FONT.glyph(char)
    assert glyph.char == char
    assert glyph.rows != FONT.fallback.rows


def test_an_unknown_character_is_drawn_as_a_hollow_box() -> None:
    for char in ("☃", "Ω", "漢", "\x07"):
        assert not FONT.has_glyph(char)
        assert FONT.glyph(char) == FONT.fallback
    box = FONT.glyph("☃")
    inked = [row for row in box.rows if "#" in row]
    assert inked[0] == inked[-1] == "#" * box.width
    assert all(row == "#" + "." * (box.width - 2) + "#" for row in inked[1:-1])


def test_no_two_characters_share_a_glyph() -> None:
    by_rows: dict[tuple[str, ...], str] = {}
    for char in sorted(FONT.characters):
        rows = FONT.glyph(char).rows
        assert rows not in by_rows, f"{char!r} looks the same as {by_rows[rows]!r}"
        by_rows[rows] = char


def test_text_in_decomposed_form_and_look_alike_spaces_use_the_same_glyphs() -> None:
    decomposed = unicodedata.normalize("NFD", "ação, não, Sì")
    assert len(decomposed) > len("ação, não, Sì")
    assert FONT.render(decomposed).tobytes() == FONT.render("ação, não, Sì").tobytes()
    assert FONT.text_width("a\u00a0b") == FONT.text_width("a b")


# --- Metrics --------------------------------------------------------------------------------


def test_metrics_add_up_to_the_line_box() -> None:
    assert FONT.cap_height == 7
    assert FONT.x_height == 5
    assert FONT.descent == 2
    assert FONT.line_height == FONT.cap_top + FONT.cap_height + FONT.descent
    # Five lines of text fit the 64-pixel-high display.
    assert 5 * FONT.line_height <= 64


@pytest.mark.parametrize(
    ("chars", "top", "bottom"),
    [
        ("HEI0123456789bdfhklt", "cap", "baseline"),
        ("acemnorsuvwxz", "x", "baseline"),
        ("gjpqy", None, "descender"),
    ],
)
def test_letters_stand_on_the_baseline_at_their_height(
    chars: str, top: str | None, bottom: str
) -> None:
    tops = {"cap": FONT.cap_top, "x": FONT.ascent - FONT.x_height}
    bottoms = {"baseline": FONT.ascent - 1, "descender": FONT.line_height - 1}
    for char in chars:
        rows = ink_rows(FONT.glyph(char))
        if top is not None and char != "t":
            assert rows[0] == tops[top], char
        assert rows[-1] == bottoms[bottom], char


def test_nothing_reaches_above_the_capitals_but_the_marks_of_accented_letters() -> None:
    for char in FONT.characters - {" "}:
        top = ink_rows(FONT.glyph(char))[0]
        if char not in COMPOSED:
            assert top >= FONT.cap_top, char
        elif char.islower():
            # A mark over a lowercase letter ends where the dot of an i is, so the two-row
            # marks reach one row above the capitals, no more.
            assert top >= FONT.cap_top - 1, char


def test_glyphs_are_mostly_five_pixels_wide() -> None:
    widths = [FONT.glyph(char).width for char in ASCII if char.isalnum()]
    assert widths.count(5) / len(widths) > 0.8
    assert {FONT.glyph(char).width for char in "il.:!"} <= {1, 2}
    assert max(FONT.glyph(char).width for char in REQUIRED) <= 8


# --- Composed accents -----------------------------------------------------------------------


def base_of(char: str) -> str:
    """The base letter of an accented one, by Unicode's own decomposition (i under a mark
    is the dotless ı: the mark replaces the dot)."""
    base = unicodedata.normalize("NFD", char)[0]
    return "ı" if base == "i" else base


@pytest.mark.parametrize("char", ACCENTED)
def test_an_accented_letter_is_its_base_letter_plus_a_mark_only(char: str) -> None:
    accented, base = FONT.glyph(char).rows, FONT.glyph(base_of(char)).rows
    base_ink = ink_rows(FONT.glyph(base_of(char)))
    if char in "çÇ":
        letter_rows = range(FONT.ascent)
        mark_rows = range(FONT.ascent, FONT.line_height)
    else:
        letter_rows = range(base_ink[0], FONT.line_height)
        mark_rows = range(base_ink[0])
    assert placed_at(base, accented, letter_rows) is not None, "the letter itself changed"
    assert any("#" in accented[y] for y in mark_rows), "no mark"


@pytest.mark.parametrize("char", [c for c in ACCENTED if c not in "çÇ"])
def test_a_mark_above_keeps_one_blank_row_between_itself_and_the_letter(char: str) -> None:
    accented = FONT.glyph(char)
    letter_top = ink_rows(FONT.glyph(base_of(char)))[0]
    assert "#" not in accented.rows[letter_top - 1]
    assert "#" in accented.rows[letter_top - 2]
    if char.isupper():
        assert ink_rows(accented)[0] >= 0
        assert letter_top == FONT.cap_top


def test_dotless_i_is_i_without_its_dot() -> None:
    dotted, dotless = FONT.glyph("i").rows, FONT.glyph("ı").rows
    top = ink_rows(FONT.glyph("i"))[0]
    assert dotted[top] == "#"
    assert dotless[top] == "."
    assert dotted[top + 1 :] == dotless[top + 1 :]


def cropped(rows: list[str]) -> tuple[str, ...]:
    """The rows cut down to the box around their lit pixels."""
    rows = [row for row in rows if "#" in row]
    columns = [x for row in rows for x, pixel in enumerate(row) if pixel == "#"]
    return tuple(row[min(columns) : max(columns) + 1] for row in rows)


def test_the_same_mark_looks_the_same_over_every_letter() -> None:
    def mark_of(char: str) -> tuple[str, ...]:
        glyph, base = FONT.glyph(char), FONT.glyph(base_of(char))
        if char in "çÇ":
            return cropped(list(glyph.rows[FONT.ascent :]))
        return cropped(list(glyph.rows[: ink_rows(base)[0]]))

    marks: dict[str, set[tuple[str, ...]]] = {}
    for char in ACCENTED:
        mark = unicodedata.normalize("NFD", char)[1]
        marks.setdefault(mark, set()).add(mark_of(char))
    assert len(marks) == 6
    assert all(len(shapes) == 1 for shapes in marks.values()), marks
    above = [shapes.pop() for mark, shapes in marks.items() if mark != "\u0327"]
    assert len(set(above)) == 5


@pytest.mark.parametrize("vowels", ["áàâãä", "ÁÀÂÃÄ", "éèêë", "íìîï", "óòôõö", "ÚÙÛÜ"])
def test_accents_on_the_same_letter_can_be_told_apart(vowels: str) -> None:
    assert len({FONT.glyph(char).rows for char in vowels}) == len(vowels)


# --- Widths and scale -----------------------------------------------------------------------


@pytest.mark.parametrize("text", [*SAMPLES, "", "a", " ", "«Sí» 3° ✓ ∞"])
def test_text_width_is_the_glyph_widths_plus_the_spacing_between_them(text: str) -> None:
    widths = [FONT.glyph(char).width for char in text]
    expected = sum(widths) + FONT.spacing * max(len(widths) - 1, 0)
    assert FONT.text_width(text) == expected
    assert FONT.render(text).width == expected
    assert FONT.fits(text, expected)
    assert not FONT.fits(text, expected - 1) or not text


@pytest.mark.parametrize("text", SAMPLES)
def test_scale_two_doubles_every_pixel(text: str) -> None:
    small, big = FONT.render(text), FONT.render(text, scale=2)
    assert big.size == (2 * small.width, 2 * small.height)
    assert FONT.text_width(text, scale=2) == 2 * FONT.text_width(text)
    assert {(x // 2, y // 2) for x, y in lit(big)} == lit(small)
    assert len(lit(big)) == 4 * len(lit(small))


def test_a_scale_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="scale"):
        FONT.text_width("3", scale=0)


# --- Drawing --------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["Sì", "ação", "¿Pista? ∞", "VEZ DO AZUL"])
def test_a_rendered_word_shows_exactly_the_rows_of_its_glyphs(text: str) -> None:
    rows = expected_rows(text)
    image = FONT.render(text)
    assert image.mode == "1"
    assert image.size == (len(rows[0]), FONT.line_height)
    assert lit(image) == {
        (x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "#"
    }


def test_a_rendered_word_shows_the_drawings_of_the_glyph_source() -> None:
    image = FONT.render("Vez", scale=1)
    x = 0
    for char in "Vez":
        drawing = [line.strip() for line in GLYPHS[char].strip().splitlines()]
        for dy, row in enumerate(drawing):
            for dx, pixel in enumerate(row):
                assert bool(image.getpixel((x + dx, FONT.cap_top + dy))) == (pixel == "#")
        x += len(drawing[0]) + FONT.spacing


def test_a_capital_i_is_drawn_where_the_metrics_say() -> None:
    image = Image.new("1", (20, 20))
    end = FONT.draw_text(image, (4, 2), "I")
    top = 2 + FONT.cap_top
    bottom = 2 + FONT.ascent - 1
    # An I is a stem with a bar at its top and foot, whatever its exact width.
    width = FONT.glyph("I").width
    assert end == 4 + width
    assert {(x, top) for x in range(4, 4 + width)} <= lit(image)
    assert {(x, bottom) for x in range(4, 4 + width)} <= lit(image)
    assert all(top <= y <= bottom and 4 <= x < end for x, y in lit(image))


def test_draw_text_places_the_line_box_at_xy_and_returns_the_x_after_the_text() -> None:
    image = Image.new("1", (128, 64))
    end = FONT.draw_text(image, (10, 20), "Sì, più")
    assert end == 10 + FONT.text_width("Sì, più")
    shifted = {(x + 10, y + 20) for x, y in lit(FONT.render("Sì, più"))}
    assert lit(image) == shifted


def test_drawing_adds_lit_pixels_and_fill_zero_darkens_them() -> None:
    image = Image.new("1", (40, FONT.line_height), 1)
    FONT.draw_text(image, (0, 0), "ñ", fill=0)
    dark = {(x, y) for x in range(40) for y in range(FONT.line_height)} - lit(image)
    assert dark == lit(FONT.render("ñ"))


@pytest.mark.parametrize(
    "xy", [(-7, -5), (120, 58), (-500, 0), (0, 200), (125, -11), (3, 60), (-1, -1)]
)
def test_drawing_clips_at_the_image_edges(xy: tuple[int, int]) -> None:
    text = "Agente rojo — turno terminado"
    image = Image.new("1", (128, 64))
    end = FONT.draw_text(image, xy, text, scale=2)
    assert end == xy[0] + FONT.text_width(text, scale=2)
    x0, y0 = xy
    expected = {
        (x + x0, y + y0)
        for x, y in lit(FONT.render(text, scale=2))
        if 0 <= x + x0 < 128 and 0 <= y + y0 < 64
    }
    assert lit(image) == expected


def test_an_empty_text_draws_nothing() -> None:
    image = Image.new("1", (10, 10))
    assert FONT.draw_text(image, (3, 3), "") == 3
    assert not lit(image)
    assert FONT.render("").size == (0, FONT.line_height)


# --- Wrapping and shortening ------------------------------------------------------------------


@pytest.mark.parametrize("width", [64, 100, 128])
@pytest.mark.parametrize("text", SAMPLES)
def test_wrap_keeps_every_word_in_order_and_every_line_fits(text: str, width: int) -> None:
    lines = FONT.wrap(text, width)
    assert all(FONT.fits(line, width) for line in lines)
    assert " ".join(lines).split() == text.split()
    # Greedy: the first word of a line would not have fitted on the line before.
    for before, after in itertools.pairwise(lines):
        assert not FONT.fits(f"{before} {after.split()[0]}", width)


def test_wrap_cuts_a_word_wider_than_the_line() -> None:
    lines = FONT.wrap("Ok otorrinolaringología sì", 40)
    assert all(FONT.fits(line, 40) for line in lines)
    assert "".join(lines).replace(" ", "") == "Okotorrinolaringologíasì"
    assert len(lines) >= 3


def test_wrap_breaks_at_newlines_and_gives_nothing_for_blank_text() -> None:
    assert FONT.wrap("Sì\n\nno", 128) == ["Sì", "", "no"]
    assert FONT.wrap("   ", 128) == []
    assert FONT.wrap("", 128) == []


def test_wrap_into_a_width_too_narrow_for_any_letter_still_ends() -> None:
    assert FONT.wrap("abc", 0) == ["a", "b", "c"]


def test_ellipsize_leaves_text_that_fits_alone() -> None:
    assert FONT.ellipsize("VEZ DO AZUL", 128) == "VEZ DO AZUL"


@pytest.mark.parametrize("width", [20, 41, 64, 100])
def test_ellipsize_keeps_the_longest_start_that_fits_with_the_ellipsis(width: int) -> None:
    text = "Agente rojo — turno terminado"
    short = FONT.ellipsize(text, width)
    assert short.endswith("…")
    assert FONT.fits(short, width)
    kept = short[:-1]
    assert text.startswith(kept)
    assert not kept.endswith(" ")
    for end in range(len(kept) + 1, len(text)):
        longer = text[:end].rstrip()
        assert longer == kept or not FONT.fits(longer + "…", width)


def test_ellipsize_gives_nothing_when_not_even_the_ellipsis_fits() -> None:
    assert FONT.ellipsize("Agente", FONT.text_width("…") - 1) == ""


# --- Glyph data checks ------------------------------------------------------------------------


def test_a_font_refuses_glyphs_of_the_wrong_height_or_ragged_rows() -> None:
    box = ["###", "#.#", "###"]
    with pytest.raises(ValueError, match="rows"):
        PixelFont({"a": ["#", "#"]}, box, cap_top=0, cap_height=3, x_height=2)
    with pytest.raises(ValueError, match="widths"):
        PixelFont({"a": ["#", "##", "#"]}, box, cap_top=0, cap_height=3, x_height=2)
    with pytest.raises(ValueError, match="pixels"):
        PixelFont({"a": ["#", "x", "#"]}, box, cap_top=0, cap_height=3, x_height=2)


def test_masks_are_built_once() -> None:
    glyph = FONT.glyph("ã")
    assert FONT.mask(glyph, 2) is FONT.mask(glyph, 2)
    assert FONT.mask(glyph).size == (glyph.width, FONT.line_height)
