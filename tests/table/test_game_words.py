"""Each game's words in the language it was dealt in: the note beside the saved games."""

import json
from pathlib import Path

import pytest

from board_rules.codenames import Key
from firmware.table.words import (
    LANGUAGE_NOTE,
    NOTED_GAMES,
    GameWords,
    WordSource,
    deal,
    game_seed,
    language_words,
)

from ..rules_helpers import KEY


def test_a_game_keeps_the_language_it_was_first_seen_in_also_after_a_restart(
    tmp_path: Path,
) -> None:
    words = GameWords(WordSource(), tmp_path)
    english = words.deal(1, KEY, "en")
    assert english == deal(language_words("en"), game_seed(1, KEY))
    assert words.deal(1, KEY, "es") == english  # the table speaks Spanish now: same words
    assert set(words.deal(2, KEY, "es").values()) <= set(language_words("es"))  # a new game
    again = GameWords(WordSource(), tmp_path)  # the simulation started again
    assert again.deal(1, KEY, "it") == english
    assert languages(tmp_path) == {"1": "en", "2": "es"}


def test_a_game_given_the_id_of_an_undone_one_is_noted_afresh(tmp_path: Path) -> None:
    words = GameWords(WordSource(), tmp_path)
    words.deal(2, KEY, "en")  # NEW, then UNDO took it back: id 2 is free again
    other = Key.parse("BBBBB/BBBBR/RRRRR/RRNNN/NNNNA")
    assert set(words.deal(2, other, "it").values()) <= set(language_words("it"))
    assert languages(tmp_path) == {"2": "it"}
    assert "BBBBB" not in (tmp_path / LANGUAGE_NOTE).read_text("utf-8")  # no key beside the games


def languages(state_dir: Path) -> dict[str, str]:
    """The noted language of each game id."""
    noted = json.loads((state_dir / LANGUAGE_NOTE).read_text("utf-8"))
    return {game: value.split(":")[0] for game, value in noted.items()}


def test_without_a_state_directory_the_languages_are_kept_in_memory() -> None:
    words = GameWords(WordSource(), None)
    assert words.language_of(3, KEY, "pt") == "pt"
    assert words.language_of(3, KEY, "en") == "pt"
    assert words.language_of(None, KEY, "en") == "en"  # no id: nothing to note it by


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        '["en"]',
        b"\xff\xfe".decode("latin-1"),
        '{"1": "../../etc/passwd:000000000000", "x": "es:000000000000", "2": "en"}',
    ],
)
def test_a_damaged_note_is_started_afresh_and_no_path_comes_from_it(
    tmp_path: Path, text: str
) -> None:
    (tmp_path / LANGUAGE_NOTE).write_text(text, "utf-8")
    words = GameWords(WordSource(), tmp_path)
    assert words.language_of(1, KEY, "it") == "it"
    assert languages(tmp_path) == {"1": "it"}


def test_the_note_keeps_only_the_latest_games(tmp_path: Path) -> None:
    words = GameWords(WordSource(), tmp_path)
    for game in range(1, NOTED_GAMES + 6):
        words.language_of(game, KEY, "en")
    noted = json.loads((tmp_path / LANGUAGE_NOTE).read_text("utf-8"))
    assert sorted(map(int, noted)) == list(range(6, NOTED_GAMES + 6))


def test_a_note_that_cannot_be_written_leaves_the_words_in_memory(tmp_path: Path) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("not a directory")
    words = GameWords(WordSource(), blocker)
    assert words.language_of(1, KEY, "es") == "es"
    assert words.language_of(1, KEY, "en") == "es"
    assert blocker.read_text() == "not a directory"
    assert list(tmp_path.iterdir()) == [blocker]  # no temporary file left behind


def test_a_note_that_cannot_replace_the_old_one_leaves_no_temporary_file(tmp_path: Path) -> None:
    (tmp_path / LANGUAGE_NOTE).mkdir()  # in the way of the new note
    words = GameWords(WordSource(), tmp_path)
    assert words.language_of(1, KEY, "pt") == "pt"
    assert [path.name for path in tmp_path.iterdir()] == [LANGUAGE_NOTE]
