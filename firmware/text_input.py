"""Reading a text file or standard input the one way every command does: configs, transcripts,
scripts.

At most `MAX_BYTES` are read, so that `/dev/zero` or a runaway pipe cannot fill the memory; the
bytes are UTF-8, with or without a byte-order mark, whether they come from a file or from
standard input; a byte that is not UTF-8 is reported with its line. Lines are then split by
`board_rules.text.split_lines`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import BinaryIO, Final

from board_rules.text import LineError, line_of
from firmware.errors import FirmwareError

MAX_BYTES: Final = 1 << 20
"""Largest input read: 1 MiB, far above any real config, transcript or script."""

STDIN: Final = "-"
"""The name that stands for standard input."""

_BOM: Final = b"\xef\xbb\xbf"


class TextInputError(FirmwareError, LineError):
    """Input that cannot be read as text: `message` says why, `line` (from 1) is set when one line
    is to blame (a byte that is not UTF-8)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(line, message)


def display_name(path: str | Path) -> str:
    """How messages name the input: `<stdin>` for `-`."""
    return "<stdin>" if str(path) == STDIN else str(path)


def read_text(path: str | Path, limit: int = MAX_BYTES) -> str:
    """The text of the file at `path` (`-`: standard input); raises `TextInputError`."""
    try:
        if str(path) == STDIN:
            stream: BinaryIO | None = getattr(sys.stdin, "buffer", None)
            if stream is None:
                raise TextInputError("standard input is closed")
            data = stream.read(limit + 1)
        else:
            with open(path, "rb") as file:
                data = file.read(limit + 1)
    except OSError as error:
        raise TextInputError(f"cannot read: {error.strerror or error}") from error
    if len(data) > limit:
        raise TextInputError(f"larger than {_size(limit)}, the most read")
    return decode_text(data)


def decode_text(data: bytes) -> str:
    """`data` as UTF-8, a leading byte-order mark dropped; raises `TextInputError` naming the line
    of the first byte that is not UTF-8."""
    data = data.removeprefix(_BOM)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        before = data[: error.start].decode("utf-8")
        byte = data[error.start]
        raise TextInputError(
            f"not UTF-8 text (byte 0x{byte:02x})", line_of(before, len(before))
        ) from None


def _size(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit % (1 << 20) == 0 else f"{limit} bytes"
