"""`codenames-table replay`: play a transcript through the rules core and print the final state.

A rejected action is listed and play goes on, as on the table. A transcript that cannot be read
(over 1 MiB, not UTF-8, malformed) exits 2 with the line named, and prints nothing on standard
output; so does one with nothing in it (no key and no action: `export 2 | replay -` after the
export failed), rather than play a random board. `--summary` prints what the table's screen
would say of the final state instead of the JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
from pathlib import Path
from typing import Any

from board_rules.codenames import (
    Game,
    GameState,
    IllegalActionError,
    Transcript,
    TranscriptError,
    generate_key,
    parse_transcript,
)
from firmware.errors import UsageError
from firmware.table.i18n import translations
from firmware.table.screen_texts import NEW_GAME_HINT
from firmware.table.screens import TableView, compose
from firmware.text_input import TextInputError, display_name, read_text

Rejected = dict[str, Any]
"""An action the rules rejected, as printed: its line, the action and the reason code."""

EXIT_REJECTED = 1
"""Exit code of `--strict` when the rules rejected an action."""


def replay_game(transcript: Transcript, seed: int | None = None) -> tuple[Game, list[Rejected]]:
    """Play `transcript`: the game at its end, and each action the rules rejected."""
    rng = secrets.SystemRandom() if seed is None else random.Random(seed)
    key = transcript.key or generate_key(rng)
    game = Game(key, transcript.mode)
    rejected: list[Rejected] = []
    for entry in transcript.actions:
        try:
            game.play(entry.action)
        except IllegalActionError as error:
            rejected.append(
                {"line": entry.line, "action": str(entry.action), "reason": error.reason.value}
            )
    return game, rejected


def replay_transcript(transcript: Transcript, seed: int | None = None) -> dict[str, Any]:
    """Play `transcript` and return the final state with the rejected actions, as printed."""
    game, rejected = replay_game(transcript, seed)
    return {**game.state.to_dict(), "rejected": rejected}


def summary_line(state: GameState, language: str) -> str:
    """The final state in the table's words: the screen's title and lines, as the OLED would
    show them after the last action (its hint to start a new game left out)."""
    catalog = translations(language)
    screen = compose(TableView(state, selector=1), catalog)
    hint = catalog.gettext(NEW_GAME_HINT)
    return " · ".join(line for line in screen.text_lines if line != hint)


def run_replay_command(args: argparse.Namespace) -> int:
    """Run `replay` as the command line gives it."""
    language = args.lang if args.summary else None
    return run_replay(args.file, seed=args.seed, strict=args.strict, summary=language)


def run_replay(
    path: str | Path, seed: int | None = None, strict: bool = False, summary: str | None = None
) -> int:
    """Run the `replay` subcommand; returns the exit code, raises `UsageError` naming the line
    that cannot be read. `summary`: the language of a one-line summary instead of the JSON."""
    try:
        transcript = parse_transcript(read_text(path))
    except (TextInputError, TranscriptError) as error:
        raise UsageError(error.located(display_name(path))) from error
    if transcript.key is None and not transcript.actions:
        raise UsageError(f"{display_name(path)}: nothing to replay: no key and no action")
    game, rejected = replay_game(transcript, seed)
    if summary is None:
        print(json.dumps({**game.state.to_dict(), "rejected": rejected}, ensure_ascii=False))
    else:
        print(summary_line(game.state, summary))
    return EXIT_REJECTED if strict and rejected else 0
