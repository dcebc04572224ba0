"""The OLED's layout for reading from the seats: big numerals, labels and the timer's seconds."""

import random
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from board_rules.codenames import UNLIMITED
from firmware.drivers.events import ConsoleButton
from firmware.table import screen_texts as m
from firmware.table.config import TableConfig
from firmware.table.controls import FIRST_SELECTOR
from firmware.table.font import DEFAULT_FONT, NUMERAL_FONT, NUMERAL_SCALE
from firmware.table.i18n import LANGUAGES, translations
from firmware.table.oled_render import (
    FOOTER_TOP,
    MARGIN,
    NUMBER_COLUMN,
    NUMBERS_TOP,
    SECONDS_CORNER_TOP,
    SECONDS_GAP,
    SELECTOR_TOP,
    WIDTH,
    layout,
    render_screen,
    seconds_text,
)
from firmware.table.screens import BigNumber, OledScreen, TableView, compose
from firmware.table.settings import TableSettings
from firmware.table.store_faults import SaveFault
from firmware.virtual.table import VirtualTable

from ..rules_helpers import new_game, play

DIGITS = "0123456789"


def inked_rows(image: Image.Image) -> list[int]:
    return [
        y for y in range(image.height) if any(image.getpixel((x, y)) for x in range(image.width))
    ]


def region(image: Image.Image, box: tuple[int, int, int, int]) -> bytes:
    return image.crop(box).tobytes()


@pytest.mark.parametrize("char", list(DIGITS))
def test_every_big_numeral_is_at_least_24_px_tall(char: str) -> None:
    assert NUMERAL_FONT.has_glyph(char)
    rows = inked_rows(NUMERAL_FONT.render(char, NUMERAL_SCALE))
    assert rows[-1] - rows[0] + 1 >= 24


def test_the_big_infinity_is_as_wide_as_a_numeral_is_tall() -> None:
    assert NUMERAL_FONT.has_glyph("∞")
    assert NUMERAL_FONT.text_width("∞", NUMERAL_SCALE) >= 24


def test_the_guess_screen_shows_the_clue_and_the_guesses_left_in_big_numerals() -> None:
    state = play(new_game(), "clue 2")
    screen = compose(TableView(state=state, selector=FIRST_SELECTOR), translations("en"))
    assert screen.numbers == (BigNumber("2", "clue"), BigNumber("3", "left"))
    assert screen.lines == ("Clue: 2", "3 guesses left")  # what a dump says
    image = render_screen(screen)
    first = (WIDTH - 2 * NUMBER_COLUMN) // 2
    for index, value in enumerate(("2", "3")):
        glyph = NUMERAL_FONT.render(value, NUMERAL_SCALE)
        left = first + index * NUMBER_COLUMN + (NUMBER_COLUMN - glyph.width) // 2
        box = (left, NUMBERS_TOP, left + glyph.width, NUMBERS_TOP + glyph.height)
        assert region(image, box) == glyph.tobytes()


def test_the_guess_beyond_the_clue_and_unlimited_guesses_are_labelled() -> None:
    en = translations("en")
    extra = compose(TableView(play(new_game(), "clue 1", "touch A1"), FIRST_SELECTOR), en)
    assert extra.numbers[1] == BigNumber("1", "extra")
    assert m.left_label(en, UNLIMITED, UNLIMITED) == "left"
    unlimited = compose(TableView(play(new_game(), "clue unlimited"), FIRST_SELECTOR), en)
    assert [number.value for number in unlimited.numbers] == ["∞", "∞"]


def test_the_clue_selector_is_a_big_numeral() -> None:
    screen = compose(TableView(new_game().state, selector=3), translations("en"))
    assert screen.big == "3" and "« 3 »" in screen.text_lines
    glyph = NUMERAL_FONT.render("3", NUMERAL_SCALE)
    left = (WIDTH - glyph.width) // 2
    box = (left, SELECTOR_TOP, left + glyph.width, SELECTOR_TOP + glyph.height)
    assert region(render_screen(screen), box) == glyph.tobytes()


@pytest.mark.parametrize(
    ("seconds", "text"), [(75, "1:15"), (9, "0:09"), (0, "0:00"), (-1, "0:00")]
)
def test_the_timer_seconds_read_as_a_countdown(seconds: int, text: str) -> None:
    assert seconds_text(seconds) == text


def test_the_timer_seconds_are_drawn_at_the_right_of_the_footer() -> None:
    view = TableView(new_game().state, FIRST_SELECTOR, timer_left=0.5, timer_seconds=42)
    screen = compose(view, translations("en"))
    assert screen.seconds == 42
    drawn = DEFAULT_FONT.render("0:42")
    right = WIDTH - MARGIN
    box = (right - drawn.width, FOOTER_TOP, right, FOOTER_TOP + drawn.height)
    assert region(render_screen(screen), box) == drawn.tobytes()
    assert render_screen(replace(screen, seconds=None)).crop(box).getbbox() is None


def test_no_seconds_without_a_running_timer() -> None:
    view = TableView(new_game().state, FIRST_SELECTOR, timer_left=None, timer_seconds=42)
    assert compose(view, translations("en")).seconds is None


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_labels_fit_under_their_numbers(language: str) -> None:
    catalog = translations(language)
    labels = [catalog.gettext(m.CLUE_LABEL), catalog.gettext(m.EXTRA_LABEL)]
    labels += [m.left_label(catalog, left, 9) for left in (1, 2, 3, UNLIMITED)]
    for label in labels:
        # A gap of a few pixels from the neighbouring label.
        assert DEFAULT_FONT.text_width(label) <= NUMBER_COLUMN - 4, (language, label)
    assert NUMERAL_FONT.text_width("10", NUMERAL_SCALE) <= NUMBER_COLUMN - 4


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_footers_fit_beside_the_longest_seconds(language: str) -> None:
    catalog = translations(language)
    room = WIDTH - 2 * MARGIN - DEFAULT_FONT.text_width(seconds_text(599)) - SECONDS_GAP
    for footer in (m.agents_line(catalog, 9, 8), m.coop_agents_line(catalog, 9, 8)):
        assert DEFAULT_FONT.text_width(footer) <= room, (language, footer)


def test_a_screen_without_numbers_keeps_its_three_lines() -> None:
    image = render_screen(OledScreen(title="T", lines=("a", "b", "c")))
    line = DEFAULT_FONT.line_height
    for number, text in enumerate("abc"):
        drawn = DEFAULT_FONT.render(text)
        left = MARGIN + (WIDTH - 2 * MARGIN - drawn.width) // 2
        top = line * (1 + number)
        assert region(image, (left, top, left + drawn.width, top + line)) == drawn.tobytes()


def test_the_table_counts_the_seconds_down_on_the_chip(tmp_path: Path) -> None:
    config = TableConfig(settings=TableSettings(timer_s=30))
    with VirtualTable(config, tmp_path, rng=random.Random(1)) as table:
        table.press_button(ConsoleButton.TIMER)
        table.wait(4.5)
        screen = table.display.screen
        assert screen is not None and screen.seconds == 26
        drawn = DEFAULT_FONT.render("0:26")
        right = WIDTH - MARGIN
        box = (right - drawn.width, FOOTER_TOP, right, FOOTER_TOP + drawn.height)
        assert region(table.chip.to_image(), box) == drawn.tobytes()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("fault", [{"input_fault": True}, {"not_saving": SaveFault.READ_ONLY}])
@pytest.mark.parametrize(("clue", "seconds_top"), [(None, SECONDS_CORNER_TOP), ("9", 12)])
def test_a_fault_keeps_the_footer_whole_and_the_seconds_move_up(
    language: str, fault: dict[str, object], clue: str | None, seconds_top: int
) -> None:
    state = play(new_game(), *([f"clue {clue}"] if clue else []))
    view = TableView(state, FIRST_SELECTOR, timer_left=0.5, timer_seconds=599, **fault)  # type: ignore[arg-type]
    screen = compose(view, translations(language))
    image = render_screen(screen)
    footer = DEFAULT_FONT.render(screen.footer or "")
    assert footer.width > WIDTH - 2 * MARGIN - DEFAULT_FONT.text_width("9:59") - SECONDS_GAP
    left = MARGIN + (WIDTH - 2 * MARGIN - footer.width) // 2
    # The whole footer, nothing over it (from its third row: the labels' descenders end above).
    box = (left, FOOTER_TOP + 2, left + footer.width, FOOTER_TOP + footer.height)
    assert region(image, box) == footer.crop((0, 2, footer.width, footer.height)).tobytes()
    drawn = DEFAULT_FONT.render("9:59")
    right = WIDTH - MARGIN
    box = (right - drawn.width, seconds_top, right, seconds_top + drawn.height)
    assert region(image, box) == drawn.tobytes()


def test_a_notice_of_two_lines_hides_the_moved_seconds_for_its_moment() -> None:
    notice = ("Red agent", "Guess again")
    view = TableView(new_game().state, FIRST_SELECTOR, notice, timer_left=0.5, timer_seconds=42)
    view = replace(view, input_fault=True)
    placed = layout(compose(view, translations("en")))
    assert [p.text for p in placed] == ["Red spymaster", *notice, "Touch pads: no answer"]
    assert placed[-1].room == WIDTH - 2 * MARGIN


def test_a_footer_that_fits_beside_the_seconds_keeps_them_there() -> None:
    view = TableView(new_game().state, FIRST_SELECTOR, timer_left=0.5, timer_seconds=42)
    placed = layout(compose(view, translations("en")))
    assert [(p.text, p.top) for p in placed[-2:]] == [
        ("Red 9 · Blue 8", FOOTER_TOP),
        ("0:42", FOOTER_TOP),
    ]
