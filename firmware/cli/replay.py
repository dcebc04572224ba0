"""`codenames-table replay`: play a transcript through the rules core and print the final state.

A rejected action is listed and play goes on, as on the table. A transcript that cannot be read
(over 1 MiB, not UTF-8, malformed) exits 2 with the line named, and prints nothing on standard
output.
"""

from __future__ import annotations

import json
import random
import secrets
from pathlib import Path
from typing import Any

from board_rules.codenames import (
    Game,
    IllegalActionError,
    Transcript,
    TranscriptError,
    generate_key,
    parse_transcript,
)
from firmware.errors import UsageError
from firmware.text_input import TextInputError, display_name, read_text

EXIT_REJECTED = 1
"""Exit code of `--strict` when the rules rejected an action."""


def replay_transcript(transcript: Transcript, seed: int | None = None) -> dict[str, Any]:
    """Play `transcript` and return the final state with the rejected actions, as printed."""
    rng = secrets.SystemRandom() if seed is None else random.Random(seed)
    key = transcript.key or generate_key(rng)
    game = Game(key, transcript.mode)
    rejected: list[dict[str, Any]] = []
    for entry in transcript.actions:
        try:
            game.play(entry.action)
        except IllegalActionError as error:
            rejected.append(
                {"line": entry.line, "action": str(entry.action), "reason": error.reason.value}
            )
    return {**game.state.to_dict(), "rejected": rejected}


def run_replay(path: str | Path, seed: int | None = None, strict: bool = False) -> int:
    """Run the `replay` subcommand; returns the exit code, raises `UsageError` naming the line
    that cannot be read."""
    try:
        transcript = parse_transcript(read_text(path))
    except (TextInputError, TranscriptError) as error:
        raise UsageError(error.located(display_name(path))) from error
    result = replay_transcript(transcript, seed)
    print(json.dumps(result, ensure_ascii=False))
    return EXIT_REJECTED if strict and result["rejected"] else 0
