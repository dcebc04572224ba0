"""Games written as transcripts (the text `codenames-table replay` reads): what `export` prints,
and what a clean stop could not save to the database, kept as files to recover from.

A transcript holds the key: an unsaved game's file is created private (mode 0600), beside the
database when the state folder takes it, else in the service's runtime folder
(`$RUNTIME_DIRECTORY`, /run/codenames-table, kept until the next boot). The journal says where,
never what.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path

from board_rules.codenames import Key, Mode
from firmware.table.store import TimedAction

UNSAVED_PREFIX = "unsaved-"


def transcript_text(
    game_id: int | None, key: Key, mode: Mode, actions: Sequence[TimedAction]
) -> str:
    """A game as a transcript, its key included, each action with its local time."""

    def local(at: float) -> str:
        return datetime.fromtimestamp(at).strftime("%Y-%m-%d %H:%M:%S")

    title = "unsaved game" if game_id is None else f"game {game_id}"
    lines = [f"# codenames-table {title}", f"key {key}", f"mode {mode.value}"]
    width = max((len(str(timed.action)) for timed in actions), default=0)
    lines += [f"{timed.action!s:<{width}}  # {local(timed.at)}" for timed in actions]
    return "\n".join(lines) + "\n"


def write_unsaved(texts: Sequence[str], folders: Iterable[Path], at: float) -> list[Path]:
    """Write each transcript of `texts` to its own private file in the first of `folders` that
    takes them all; the files written (none when no folder would)."""
    stamp = datetime.fromtimestamp(at).strftime("%Y%m%d-%H%M%S")
    for folder in folders:
        written: list[Path] = []
        try:
            for number, text in enumerate(texts, start=1):
                path = folder / f"{UNSAVED_PREFIX}{stamp}-{number}.txt"
                # O_EXCL: never over an earlier stop's file.
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                written.append(path)
                with os.fdopen(fd, "w", encoding="utf-8") as file:
                    file.write(text)
                    file.flush()
                    os.fsync(file.fileno())
            return written
        except OSError:
            # A folder that took only part of them is not the place: the next gets them all.
            for path in written:
                path.unlink(missing_ok=True)
    return []
