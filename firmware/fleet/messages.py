"""The fleet's messages: topics under `codenames/<table>/` and their JSON, schema version 1.

`status` (retained): `online`, or `offline` as the last will. `game` (retained): the public
state, what anyone at the table can see, and the match's wins: never the key, nor anything read
from it but the identities of covered cards and the agents left per team, which the table
shows. `health` (retained): what staff should look at. `events` (not retained): each accepted
action as the table words it. Every message is a JSON object with `schema`, `table` and `at`
(seconds since the epoch, when the table wrote it). A reader ignores fields it does not know: a
field added keeps the schema's version, a field whose meaning changes bumps it. Only the
standard library and the rules are used here, so the café reads messages with the same code
that writes them.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from board_rules.codenames import GameState

SCHEMA: Final = 1
"""Bump when a field changes its meaning (not for a field added, which readers ignore until
they know it); readers refuse other versions, never guess."""
ROOT: Final = "codenames"
KINDS: Final = ("status", "game", "health", "events")
TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A table id: one topic level, no wildcard."""


def is_schema(value: object) -> bool:
    """Whether a message's `schema` field is this version: the whole number itself, not `true`
    nor `1.0`, which Python compares equal to 1."""
    return type(value) is int and value == SCHEMA


def topic(table: str, kind: str) -> str:
    """The topic of `kind` for `table`."""
    return f"{ROOT}/{table}/{kind}"


def envelope(table: str, at: float, **fields: Any) -> dict[str, Any]:
    """A message's common fields and its own."""
    return {"schema": SCHEMA, "table": table, "at": round(at, 3), **fields}


def public_game(state: GameState, match: tuple[int, int]) -> dict[str, Any]:
    """The game as anyone at the table sees it: `GameState.to_dict` without the key, and the
    match under way, `match` being its wins (red, blue)."""
    public = state.to_dict()
    red, blue = match
    # Named, not filtered: a field added to the state later stays off the wire until it is
    # judged public here.
    return {
        name: public[name]
        for name in (
            "mode",
            "phase",
            "turn",
            "clue",
            "guesses_made",
            "guesses_left",
            "remaining",
            "covered",
            "winner",
            "reason",
            "score",
        )
    } | {
        # Every finished standard game has a winner, so the match's games are its wins.
        "match": {"red": red, "blue": blue, "games": red + blue}
    }


def encode(message: dict[str, Any] | str) -> bytes:
    """The payload of a message."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()
