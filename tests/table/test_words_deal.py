"""The simulation's words: reading lists, the checks on them, and each game's deal of 25."""

from pathlib import Path

import pytest

from board_rules.codenames import ALL_COORDS, Key
from firmware.table.i18n import LANGUAGES
from firmware.table.words import (
    DEAL_SIZE,
    WordListError,
    WordSource,
    deal,
    game_seed,
    language_words,
    load_word_file,
    parse_words,
)

from ..rules_helpers import KEY

OTHER_KEY = Key.parse("BBBBB/BBBBR/RRRRR/RRNNN/NNNNA")
WORDS = tuple(f"WORD{n:02d}" for n in range(60))


def test_a_list_is_one_word_a_line_without_blank_lines_or_repeats() -> None:
    lines = ["  Apple ", "", "pear", "\t", "APPLE", "Olive tree", "pear "]
    assert parse_words(lines) == ("Apple", "pear", "Olive tree")


def test_a_file_with_fewer_than_25_distinct_words_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "short.txt"
    # 30 lines, but only 24 different words once case is ignored.
    path.write_text("\n".join([f"w{n}" for n in range(24)] + ["W1"] * 6) + "\n", "utf-8")
    with pytest.raises(WordListError, match=r"short\.txt has 24 distinct words; a game needs 25"):
        load_word_file(path)


def test_a_missing_or_undecodable_file_is_a_word_list_error(tmp_path: Path) -> None:
    with pytest.raises(WordListError, match="cannot read"):
        load_word_file(tmp_path / "missing.txt")
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("\n".join(["CAFE", "CAFÉ"] * 30).encode("latin-1"))
    with pytest.raises(WordListError, match=r"latin1\.txt:2: "):  # the line of the bad byte
        load_word_file(latin1)


def test_a_word_list_is_read_as_every_text_input_is(tmp_path: Path) -> None:
    with pytest.raises(WordListError, match="larger than"):
        load_word_file(Path("/dev/zero"))  # bounded: it does not read until memory runs out
    listed = tmp_path / "words.txt"
    words = [f"WORD{n}" for n in range(30)]
    # A byte-order mark is dropped and only \n, \r\n and \r end a line: a form feed is a blank.
    listed.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(words).encode() + b"\nSEA\fSHELL\n")
    assert load_word_file(listed) == (*words, "SEA\fSHELL")


def test_a_deal_is_25_different_words_of_the_list_one_per_card() -> None:
    cards = deal(WORDS, game_seed(1, KEY))
    assert list(cards) == list(ALL_COORDS)
    assert len(set(cards.values())) == DEAL_SIZE
    assert set(cards.values()) <= set(WORDS)


def test_the_same_game_gets_the_same_deal_and_another_game_another() -> None:
    first = deal(WORDS, game_seed(1, KEY))
    assert deal(WORDS, game_seed(1, KEY)) == first
    # The order of the list does not matter, so a reordered file keeps the deal.
    assert deal(tuple(reversed(WORDS)), game_seed(1, KEY)) == first
    assert deal(WORDS, game_seed(2, KEY)) != first
    assert deal(WORDS, game_seed(1, OTHER_KEY)) != first


def test_repeated_words_are_never_dealt_twice() -> None:
    doubled = [word for word in WORDS[:25] for _ in range(2)]
    assert sorted(deal(doubled, "seed").values()) == sorted(WORDS[:25])
    with pytest.raises(WordListError):
        deal(WORDS[:24] * 2, "seed")


def test_a_custom_source_ignores_the_language() -> None:
    source = WordSource(WORDS)
    assert source.words("en") == source.words("it") == WORDS
    with pytest.raises(WordListError, match="24 distinct words"):
        WordSource(WORDS[:24])


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_a_list_to_deal_from(language: str) -> None:
    words = WordSource().words(language)
    assert words == language_words(language)
    assert len(words) >= DEAL_SIZE
    assert len(set(deal(words, game_seed(1, KEY)).values())) == DEAL_SIZE
