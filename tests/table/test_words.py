"""The card word lists: one per language, enough distinct words, printable on a card, sorted."""

import itertools
import re
from importlib.resources import files
from importlib.resources.abc import Traversable

import pytest

from firmware.table.i18n import LANGUAGES

MIN_WORDS = 420
MAX_LENGTH = 12
# Largest share of one list that may appear, spelled identically, in another one.
MAX_OVERLAP = 0.25
# Uppercase A-Z plus the accented capitals of each language; no spaces, apostrophes, hyphens.
LETTERS = {
    "en": "A-Z",
    "es": "A-ZÁÉÍÓÚÜÑ",
    "pt": "A-ZÁÂÃÀÉÊÍÓÔÕÚÇ",
    "it": "A-ZÀÈÉÌÒÙ",
}


def word_file(language: str) -> Traversable:
    return files("firmware.table") / "words" / f"{language}.txt"


def words(language: str) -> list[str]:
    return word_file(language).read_text(encoding="utf-8").splitlines()


def test_every_language_has_letters() -> None:
    assert set(LETTERS) == set(LANGUAGES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_file_exists(language: str) -> None:
    assert word_file(language).is_file()


@pytest.mark.parametrize("language", LANGUAGES)
def test_file_ends_with_one_newline(language: str) -> None:
    text = word_file(language).read_text(encoding="utf-8")
    assert text.endswith("\n")
    assert not text.endswith("\n\n")
    assert "\r" not in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_enough_words(language: str) -> None:
    assert len(words(language)) >= MIN_WORDS


@pytest.mark.parametrize("language", LANGUAGES)
def test_words_are_single_uppercase_words_of_the_language(language: str) -> None:
    pattern = re.compile(f"[{LETTERS[language]}]+")
    bad = [word for word in words(language) if not pattern.fullmatch(word)]
    assert bad == []
    assert all(word == word.upper() for word in words(language))


@pytest.mark.parametrize("language", LANGUAGES)
def test_words_fit_a_card(language: str) -> None:
    long = [word for word in words(language) if len(word) > MAX_LENGTH]
    assert long == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_duplicates(language: str) -> None:
    listed = words(language)
    assert len(set(listed)) == len(listed)


@pytest.mark.parametrize("language", LANGUAGES)
def test_sorted(language: str) -> None:
    listed = words(language)
    assert listed == sorted(listed, key=str.lower)


@pytest.mark.parametrize(("first", "second"), list(itertools.combinations(LANGUAGES, 2)))
def test_lists_are_not_copies(first: str, second: str) -> None:
    one, other = set(words(first)), set(words(second))
    shared = one & other
    assert len(shared) < MAX_OVERLAP * min(len(one), len(other))
