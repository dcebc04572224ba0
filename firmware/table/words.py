"""Words for the desktop simulation's cards: the list of each language, custom lists, the deal.

The physical table needs no words (its cards are real cardboard), so neither the rules core nor
the store knows about them. A game's 25 words are derived here from what identifies the game,
its saved id and its key, so a resumed game shows the same words again without anything saved:

>>> from board_rules.codenames import Coord, Key
>>> words = tuple(f"WORD{n}" for n in range(40))
>>> key = Key.parse("RRRRR/RRRRB/BBBBB/BBNNN/NNNNA")
>>> first = deal(words, game_seed(1, key))
>>> first == deal(words, game_seed(1, key)), len(set(first.values()))
(True, 25)
>>> first == deal(words, game_seed(2, key))
False

Each word gets a rank from a hash of the game and the word, and the 25 best-ranked are dealt in
reading order. Unlike `random.sample` this does not depend on the order of the list or on the
Python version, and adding a word to a list changes a game's deal only if the new word ranks
among its 25.

A game keeps the words of the language it was dealt in until a new game: changing the language
from the menu or with `--lang` mid-game changes the OLED at once, the cards only with the next
game. `GameWords` notes the language of each game in `word-languages.json` beside the saved
games, so a resumed game shows the same words too; a game it has no note of (one saved before
the note existed, or while the note could not be written) is dealt in the language of the table
when it is first seen, and noted then.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import tempfile
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Final

from board_rules.codenames import ALL_COORDS, Coord, Key
from board_rules.text import split_lines
from firmware.errors import FirmwareError
from firmware.text_input import TextInputError, read_text

WORDS_DIR: Final = Path(__file__).with_name("words")
"""The list of each language: `<language>.txt`, one word a line."""

DEAL_SIZE: Final = len(ALL_COORDS)
"""Words on the table: one per card."""

LANGUAGE_NOTE: Final = "word-languages.json"
"""The file, in the state directory, of the language each game's words were dealt in."""

NOTED_GAMES: Final = 64
"""Games whose language the note keeps: the latest ones, enough for any game that can come back
(resumed, or brought back by an undo of NEW), while the file stays small."""

_NOTED = re.compile(r"(?P<language>[a-z]{2,3}):(?P<tag>[0-9a-f]{12})", re.ASCII)
"""A noted game: its words' language (only 2–3 letters, so that nothing in it can name a file)
and the tag of its key."""
"""A language code as the word files are named: nothing from the note reaches a path otherwise."""

log = logging.getLogger(__name__)


class WordListError(FirmwareError, ValueError):
    """A word list that cannot be used: unreadable, or fewer than 25 distinct words."""


def parse_words(lines: Iterable[str]) -> tuple[str, ...]:
    """The distinct words of a list in their order: one a line, blanks around a word and blank
    lines ignored; a word that differs from an earlier one only in case is a repeat.

    >>> parse_words(["Apple", "", "  pear ", "APPLE", "Pear tree"])
    ('Apple', 'pear', 'Pear tree')
    """
    seen: set[str] = set()
    words: list[str] = []
    for line in lines:
        word = line.strip()
        if word and word.casefold() not in seen:
            seen.add(word.casefold())
            words.append(word)
    return tuple(words)


def load_word_file(path: Path) -> tuple[str, ...]:
    """The words of the list at `path`; `WordListError` when it cannot be read or is too short."""
    try:
        # Bounded and decoded as every text input is, so that `/dev/zero` cannot fill the memory.
        text = read_text(path)
    except TextInputError as error:
        raise WordListError(f"the word list {error.located(str(path))}") from error
    words = parse_words(split_lines(text))
    if len(words) < DEAL_SIZE:
        raise WordListError(
            f"the word list {path} has {len(words)} distinct words; a game needs {DEAL_SIZE}"
        )
    return words


@cache
def language_words(language: str) -> tuple[str, ...]:
    """The built-in list of `language`; read once."""
    return load_word_file(WORDS_DIR / f"{language}.txt")


class WordSource:
    """Where the cards' words come from: the list of the table's language, or one custom list."""

    def __init__(self, custom: Iterable[str] | None = None) -> None:
        self.custom = None if custom is None else parse_words(custom)
        if self.custom is not None and len(self.custom) < DEAL_SIZE:
            raise WordListError(
                f"a custom list has {len(self.custom)} distinct words; a game needs {DEAL_SIZE}"
            )

    @classmethod
    def from_file(cls, path: Path) -> WordSource:
        """A custom list read from `path`, in place of the language lists."""
        return cls(load_word_file(path))

    def words(self, language: str) -> tuple[str, ...]:
        """The words to deal from while the table speaks `language`."""
        return self.custom if self.custom is not None else language_words(language)


def game_seed(game_id: int | None, key: Key) -> str:
    """What tells one game from another for the deal: its id in the store and its key.

    The key alone would repeat when `--seed` replays the same keys into a state directory that
    already holds games; the id alone would repeat in every fresh state directory.
    """
    return f"{game_id}:{key}"


def _tag(game_id: int, key: Key) -> str:
    """A short mark of a game that tells two games of the same id apart without writing their
    key beside the saved games."""
    return hashlib.sha256(game_seed(game_id, key).encode()).hexdigest()[:12]


def deal(words: Iterable[str], seed: str) -> Mapping[Coord, str]:
    """25 different words of `words`, one per card, the same every time for the same seed."""
    distinct = parse_words(words)
    if len(distinct) < DEAL_SIZE:
        raise WordListError(f"cannot deal {DEAL_SIZE} cards from {len(distinct)} distinct words")

    def rank(word: str) -> bytes:
        return hashlib.sha256(f"{seed}\n{word}".encode()).digest()

    chosen = sorted(distinct, key=rank)[:DEAL_SIZE]
    return dict(zip(ALL_COORDS, chosen, strict=True))


class GameWords:
    """The words on the cards of each game: dealt from `source` in the language the table spoke
    when the game was first seen, noted in `state_dir` (None: kept in memory only)."""

    def __init__(self, source: WordSource, state_dir: Path | None) -> None:
        self.source = source
        self._note = None if state_dir is None else state_dir / LANGUAGE_NOTE
        self._languages = self._read_note()
        """Game id → (language, tag of the game: `_tag`)."""
        self._last: tuple[tuple[int | None, str, str], Mapping[Coord, str]] | None = None

    def _read_note(self) -> dict[int, tuple[str, str]]:
        if self._note is None:
            return {}
        try:
            data = json.loads(self._note.read_text("utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, UnicodeDecodeError, ValueError) as error:
            # Only words depend on it: the games are in the store. Start the note afresh.
            log.warning("%s is unreadable, noting languages afresh: %s", self._note, error)
            return {}
        if not isinstance(data, dict):
            log.warning("%s is not a JSON object, noting languages afresh", self._note)
            return {}
        noted = {}
        for game, value in data.items():
            match = _NOTED.fullmatch(value) if isinstance(value, str) else None
            if game.isdigit() and match is not None:
                noted[int(game)] = (match["language"], match["tag"])
        return noted

    def language_of(self, game_id: int | None, key: Key, language: str) -> str:
        """The language of the words of game `game_id` with `key`: as noted, or `language` (the
        table's now), which is noted for it. The note holds a tag of the key too, since an id
        can be handed out again (UNDO of NEW deletes the new game's row)."""
        if game_id is None:
            return language
        tag = _tag(game_id, key)
        noted = self._languages.get(game_id)
        if noted is not None and noted[1] == tag:
            return noted[0]
        self._languages[game_id] = (language, tag)
        for old in sorted(self._languages)[:-NOTED_GAMES]:
            del self._languages[old]
        self._write_note()
        return language

    def _write_note(self) -> None:
        if self._note is None:
            return
        text = json.dumps(
            {str(game): f"{lang}:{tag}" for game, (lang, tag) in sorted(self._languages.items())}
        )
        try:
            # Whole or not at all: a power cut mid-write must not leave half a file.
            handle, name = tempfile.mkstemp(dir=self._note.parent, prefix=".words-")
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as temporary:
                    temporary.write(text)
                os.replace(name, self._note)
            except OSError:
                Path(name).unlink(missing_ok=True)
                raise
        except OSError as error:
            # The words of a resumed game may then follow the language of that time; no game
            # is lost over it.
            log.warning("cannot note the words' language in %s: %s", self._note, error)

    def deal(self, game_id: int | None, key: Key, language: str) -> Mapping[Coord, str]:
        """The words on the cards of the game `game_id` with `key`, while the table speaks
        `language`; `WordListError` when its list cannot be read."""
        dealt_in = self.language_of(game_id, key, language)
        identity = (game_id, str(key), dealt_in)
        if self._last is None or self._last[0] != identity:
            self._last = (identity, deal(self.source.words(dealt_in), game_seed(game_id, key)))
        return self._last[1]
