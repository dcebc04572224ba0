"""The transcript format: a game written as text, one action a line, for replay and rule questions.

    key RRRRR/RRRRB/BBBBB/BBNNN/NNNNA   # optional, before the first action
    mode coop                           # optional, before the first action
    clue 2
    touch C3

`#` starts a comment and blank lines are skipped. Lines end at `\n`, `\r\n` or `\r` only
(`board_rules.text`), so line numbers agree with `grep -n`. Malformed text raises
`TranscriptError` with the line number and a one-line message; whether an action is legal is for
the rules to say when it is played.
"""

from __future__ import annotations

from dataclasses import dataclass

from board_rules.codenames.actions import Action, parse_action
from board_rules.codenames.errors import CodenamesError
from board_rules.codenames.key import Key
from board_rules.codenames.state import Mode
from board_rules.text import LineError, content_lines


class TranscriptError(CodenamesError, LineError):
    """A transcript line that cannot be read: `line` names it (from 1), `message` says why."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(line, message)


@dataclass(frozen=True)
class TranscriptAction:
    """One action of a transcript and the line it stands on."""

    line: int
    action: Action


@dataclass(frozen=True)
class Transcript:
    """A parsed transcript: the key if it names one, the mode, and the actions in order."""

    key: Key | None
    mode: Mode
    actions: tuple[TranscriptAction, ...]


def parse_transcript(text: str) -> Transcript:
    """Read a whole transcript; the first malformed line raises `TranscriptError`."""
    key: Key | None = None
    mode: Mode | None = None
    actions: list[TranscriptAction] = []
    for number, content in content_lines(text):
        verb, *others = content.split(None, 1)
        verb, rest = verb.lower(), "".join(others)
        try:
            if verb in ("key", "mode") and actions:
                raise ValueError(f"{verb} must come before the first action")
            if verb == "key":
                if key is not None:
                    raise ValueError("the key is given twice")
                key = Key.parse(rest)
            elif verb == "mode":
                if mode is not None:
                    raise ValueError("the mode is given twice")
                mode = parse_mode(rest)
            else:
                actions.append(TranscriptAction(number, parse_action(content)))
        except ValueError as error:
            raise TranscriptError(number, str(error)) from error
    return Transcript(key=key, mode=mode or Mode.STANDARD, actions=tuple(actions))


def parse_mode(text: str) -> Mode:
    """The mode a `mode` line names (`standard` or `coop`, any case); `ValueError` otherwise.

    >>> parse_mode(" CoOp ")
    <Mode.COOP: 'coop'>
    """
    try:
        return Mode(text.strip().lower())
    except ValueError:
        choices = " or ".join(m.value for m in Mode)
        raise ValueError(f"unknown mode: expected {choices}") from None
