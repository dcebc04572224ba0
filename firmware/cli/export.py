"""`codenames-table export`: one saved game as a transcript that `codenames-table replay` plays
back to the state the table holds.

The actions are written as saved, undos included, each with its local time as a comment. The
key line is written for a finished game that the table's UNDO can no longer bring back; a game
still in play, or one UNDO would put back in play, keeps its key secret unless `--with-key` asks
for it (the spymasters' card must not leak to the players).
"""

from __future__ import annotations

import argparse

from board_rules.codenames import IllegalActionError
from board_rules.text import clip
from firmware.cli.state_folder import open_record, staff_state_dir
from firmware.errors import UsageError
from firmware.table.store import LARGEST_ID, StoreError
from firmware.table.unsaved import transcript_text


def run_export(args: argparse.Namespace) -> int:
    """Run the `export` subcommand; returns the exit code, raises `UsageError`."""
    state_dir = staff_state_dir(args.state_dir, args.config)
    if not 1 <= args.game_id <= LARGEST_ID:
        raise UsageError(f"no saved game {clip(str(args.game_id))}: ids are 1 to {LARGEST_ID}")
    store = open_record(state_dir)
    if store is None:
        raise UsageError(f"no saved game {args.game_id}: no saved games in {state_dir}")
    with store:
        try:
            saved = store.game(args.game_id)
            comes_back = store.undo_reaches(args.game_id)
        except StoreError as error:
            raise UsageError(f"{error} in {state_dir}") from error
    try:
        over = saved.replay().state.is_over
    except IllegalActionError as error:
        raise UsageError(f"saved game {args.game_id} does not replay: {error}") from error
    if not args.with_key and (not over or comes_back):
        still = "is still in play" if not over else "can still be put back in play by UNDO"
        raise UsageError(
            f"game {args.game_id} {still}: its key is secret; --with-key writes it all the same"
        )
    print(transcript_text(saved.game_id, saved.key, saved.mode, saved.actions), end="")
    return 0
