"""The four languages: every text of the code translated, compiled and drawable."""

import re

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from firmware.cafe.texts import CONTEXT as CAFE_CONTEXT
from firmware.sim.texts import CONTEXT as SIM_CONTEXT
from firmware.table.font import DEFAULT_FONT
from firmware.table.i18n import (
    DOMAIN,
    LANGUAGES,
    LOCALE_DIR,
    UnknownLanguageError,
    translated,
    translations,
)

from ..paths import REPO

FIRMWARE = REPO / "firmware"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def code_messages() -> set[str]:
    found = set()
    keywords = {"N_": None, "gettext": None, "ngettext": (1, 2), "NC_": ((1, "c"), 2)} | {
        "npgettext": ((1, "c"), 2, 3)
    }
    for _, _, message, _, _ in extract_from_dir(
        str(FIRMWARE), method_map=[("**.py", "python")], keywords=keywords
    ):
        found.add(message if isinstance(message, str) else message[0])
    return found


def catalog(language: str):  # type: ignore[no-untyped-def]
    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as file:
        return read_po(file)


def texts(message) -> list[str]:  # type: ignore[no-untyped-def]
    return list(message.string) if isinstance(message.string, tuple) else [message.string]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_of_the_code_is_in_the_catalog_and_nothing_else(language: str) -> None:
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog(language) if m.id}
    assert ids == code_messages()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_is_translated_with_its_placeholders(language: str) -> None:
    for message in catalog(language):
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        source = message.id if isinstance(message.id, str) else message.id[0]
        for text in texts(message):
            assert text.strip(), (language, source)
            assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(source)), text


def _key(value: str | list[str] | tuple[str, ...]) -> str | tuple[str, ...]:
    return value if isinstance(value, str) else tuple(value)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalog_matches_its_source(language: str) -> None:
    """`make translations` was run after the last edit of the .po file."""
    with (LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as file:
        compiled = {_key(m.id): _key(m.string) for m in read_mo(file) if m.id}
    source = {_key(m.id): _key(m.string) for m in catalog(language) if m.id}
    assert compiled == source


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_oled_text_is_drawn_with_real_glyphs(language: str) -> None:
    # Their width in the place each is drawn: tests/table/test_screen_texts_fit.py.
    for message in catalog(language):
        # The simulation window's and the café's texts are a terminal's or a page's, not the OLED's.
        terminal = message.context in (SIM_CONTEXT, CAFE_CONTEXT)
        for text in texts(message) if message.id and not terminal else []:
            missing = {ch for ch in PLACEHOLDER.sub("", text) if not DEFAULT_FONT.has_glyph(ch)}
            assert not missing, (language, text, missing)


def test_translations_load_per_language() -> None:
    assert translations("es").gettext("Nothing to undo") == "Nada que deshacer"
    assert translations("pt").ngettext("{n} guess left", "{n} guesses left", 3) == (
        "Restam {n} tentativas"
    )
    assert translations("en").gettext("Nothing to undo") == "Nothing to undo"
    with pytest.raises(UnknownLanguageError, match="'fr'"):
        translations("fr")


def test_a_text_is_translated_in_its_context_with_its_placeholders_filled() -> None:
    italian = translations("it")
    score = translated(italian, "Score: {score}", score=7)
    assert score == italian.gettext("Score: {score}").format(score=7) and score != "Score: 7"
    # A text marked with a context is found in it, not among the OLED's.
    quit_sim = translated(italian, "quit", SIM_CONTEXT)
    assert quit_sim == italian.pgettext(SIM_CONTEXT, "quit") and quit_sim != "quit"
    # Without fields, a text's braces are left as they are.
    assert translated(italian, "Score: {score}") == italian.gettext("Score: {score}")
