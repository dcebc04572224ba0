"""Text rules shared by every line-based format (transcripts here, the table's scripts and config
in `firmware`): where a line ends, which lines hold something, how user text is quoted in a
one-line message, and the error that names the line to blame.

`str.splitlines()` also breaks at a form feed, `\\x1c`–`\\x1e`, U+0085, U+2028 and U+2029, so a
comment holding one of them would let the rest of it be read as an action, and line numbers would
disagree with `grep -n`. Only `\\n`, `\\r\\n` and `\\r` end a line here.

>>> split_lines("clue 1\\r\\n# a note\\x1ctouch E5\\rdone\\n")
['clue 1', '# a note\\x1ctouch E5', 'done']
>>> list(content_lines("clue 1   # red\\n\\n  # a note\\ntouch E5\\n"))
[(1, 'clue 1'), (4, 'touch E5')]
>>> clip("unknown action " + "x" * 50)
'unknown action xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'
>>> LineError(4, "unknown action 'jump'").located("game.txt")
"game.txt:4: unknown action 'jump'"
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

MAX_TOKEN: Final = 40
"""Longest run of non-blank characters a message repeats; longer ones are cut with `…`."""

MAX_MESSAGE: Final = 300
"""Longest message, in characters, after the tokens are cut."""

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LONG_TOKEN = re.compile(rf"\S{{{MAX_TOKEN + 1},}}")


def split_lines(text: str) -> list[str]:
    """The lines of `text`, ended by `\\n`, `\\r\\n` or `\\r` only; a final break ends the last
    line rather than starting an empty one."""
    lines = _LINE_BREAK.split(text)
    if lines[-1] == "":
        lines.pop()
    return lines


def content_lines(text: str) -> Iterator[tuple[int, str]]:
    """Each line of `text` that holds more than blanks and a `#` comment: its number (from 1) and
    its content, the comment and the blanks around it removed."""
    for number, raw in enumerate(split_lines(text), start=1):
        content = raw.split("#", 1)[0].strip()
        if content:
            yield number, content


def line_of(text: str, offset: int) -> int:
    """The number (from 1) of the line holding character `offset` of `text`."""
    return len(_LINE_BREAK.findall(text, 0, offset)) + 1


_CLOSERS: Final = "'\")]}>:,;"
"""What may end a quoted or listed token: kept after the cut, so that `'jumpxx…'` still closes."""


def _cut_token(match: re.Match[str]) -> str:
    token = match.group()
    body = token.rstrip(_CLOSERS)
    # At most two closers come back (`')`, `':`): a token of closers alone is still cut.
    return token[:MAX_TOKEN] + "…" + token[len(body) :][:2]


def clip(message: str) -> str:
    """`message` made fit for one line: characters that are not printable escaped as in Python
    source, tokens over `MAX_TOKEN` characters and the whole over `MAX_MESSAGE` cut with `…`."""
    # Only the start can be shown, and a message may quote megabytes of input.
    head = message[: MAX_MESSAGE * 4]
    shown = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in head)
    shown = _LONG_TOKEN.sub(_cut_token, shown)
    cut = len(head) < len(message)
    if len(shown) > MAX_MESSAGE:
        shown, cut = shown[: MAX_MESSAGE - 1], True
    return shown + "…" if cut and not shown.endswith("…") else shown


class LineError(ValueError):
    """Text that cannot be read: `message` is one line that repeats no long token in full, and
    `line` (from 1) is set when one line is to blame."""

    def __init__(self, line: int | None, message: str) -> None:
        self.line = line
        self.message = clip(message)
        super().__init__(self.message if line is None else f"line {line}: {self.message}")

    def located(self, name: str) -> str:
        """The message after where it stands: `NAME:LINE: message`, or `NAME: message`."""
        where = name if self.line is None else f"{name}:{self.line}"
        return f"{where}: {self.message}"
