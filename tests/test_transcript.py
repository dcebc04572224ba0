"""The transcript format: comments, blank lines, the key and mode lines, and malformed lines."""

import pytest

from board_rules.codenames import GiveClue, Key, Mode, Touch, TranscriptError, parse_transcript
from board_rules.codenames.grid import Coord

from .rules_helpers import KEY_TEXT


def test_a_transcript_reads_key_mode_and_actions_with_their_lines() -> None:
    transcript = parse_transcript(
        f"# a rule question\nkey {KEY_TEXT.lower()}  # the key\n\nmode COOP\nclue 2\n  touch c3 \n"
    )
    assert transcript.key == Key.parse(KEY_TEXT)
    assert transcript.mode is Mode.COOP
    assert [(a.line, a.action) for a in transcript.actions] == [
        (5, GiveClue(2)),
        (6, Touch(Coord.parse("C3"))),
    ]


def test_key_and_mode_are_optional() -> None:
    transcript = parse_transcript("clue unlimited\n")
    assert (transcript.key, transcript.mode) == (None, Mode.STANDARD)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("clue 2\njump A1\n", 2, "unknown action 'jump'"),
        ("clue 2\ntouch F7\n", 2, "'F7' is not a card"),
        ("key RRRR\n", 1, "25 cards"),
        ("clue 10\n", 1, "0 to 9"),
        ("clue -1\n", 1, "0 to 9"),
        ("clue\n", 1, "one argument"),
        ("done now\n", 1, "no argument"),
        ("mode solo\n", 1, "unknown mode 'solo'"),
        ("clue 1\nmode coop\n", 2, "before the first action"),
        ("clue 1\nkey " + KEY_TEXT + "\n", 2, "before the first action"),
        (f"key {KEY_TEXT}\nkey {KEY_TEXT}\n", 2, "twice"),
        ("mode coop\nmode coop\n", 2, "twice"),
    ],
)
def test_malformed_lines_are_named(text: str, line: int, message: str) -> None:
    with pytest.raises(TranscriptError, match=message) as caught:
        parse_transcript(text)
    assert caught.value.line == line
