"""The transcript format: comments, blank lines, the key and mode lines, and malformed lines."""

import pytest

from board_rules.codenames import GiveClue, Key, Mode, Touch, TranscriptError, parse_transcript
from board_rules.codenames.grid import Coord
from board_rules.text import MAX_MESSAGE

from ..rules_helpers import KEY_TEXT


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
        ("clue 2\njump A1\n", 2, "unknown action: expected one of"),
        ("clue 2\ntouch F7\n", 2, "not a card: expected A1 to E5"),
        ("key RRRR\n", 1, "25 cards"),
        ("clue 10\n", 1, "0 to 9"),
        ("clue -1\n", 1, "0 to 9"),
        ("clue\n", 1, "one argument"),
        ("done now\n", 1, "no argument"),
        ("mode solo\n", 1, "unknown mode: expected"),
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


@pytest.mark.parametrize(
    "separator", ["\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
)
def test_only_newline_and_carriage_return_end_a_line(separator: str) -> None:
    # str.splitlines() would end the comment at the separator and play the assassin.
    transcript = parse_transcript(f"key {KEY_TEXT}\nclue 1 # note{separator}touch E5\ntouch A1\n")
    assert [(a.line, a.action) for a in transcript.actions] == [
        (2, GiveClue(1)),
        (3, Touch(Coord.parse("A1"))),
    ]


def test_crlf_and_lone_cr_end_lines_and_number_them_as_grep_does() -> None:
    transcript = parse_transcript("clue 1\r\ntouch A1\rtouch B1\n\ntouch C1")
    assert [a.line for a in transcript.actions] == [1, 2, 3, 5]
    with pytest.raises(TranscriptError) as caught:
        parse_transcript("clue 1\r\n\rtouch Z9\r\n")
    assert caught.value.line == 3


def test_key_and_mode_are_split_from_their_value_by_any_blank() -> None:
    transcript = parse_transcript(f"key\t{KEY_TEXT}\nmode\t coop\nclue\t1\n")
    assert (transcript.key, transcript.mode) == (Key.parse(KEY_TEXT), Mode.COOP)


@pytest.mark.parametrize(
    "text",
    [
        "jump" + "x" * 5_000_000,
        "touch A" + "1" * 100_000,
        "mode " + "s" * 100_000,
        "jump\x1b[2J\x07\n",
    ],
)
def test_a_message_quotes_nothing_of_the_line_and_stays_on_one_line(text: str) -> None:
    # A file read by mistake (under sudo, any file) must not be shown by its errors.
    with pytest.raises(TranscriptError) as caught:
        parse_transcript(text)
    message = caught.value.message
    assert len(message) <= MAX_MESSAGE and message.isprintable()
    assert not {"jump", "A11", "sss", "\x1b"} & set(message.replace(":", " ").split())
    assert "xxx" not in message and "111" not in message and "sss" not in message
