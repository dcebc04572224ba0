"""The fleet's messages: topics under `codenames/<table>/` and their JSON, schema version 1.

`status` (retained): `online`, or `offline` with `stopped`: true when the table said goodbye,
false as the last will the broker sends for a table that vanished. `game` (retained): the public
state, what anyone at the table can see, the match's wins, the team that started (the players'
in co-op), when the game's first clue was given and its last action: never the key, nor anything
read from it but the identities of covered cards and the agents left per team, which the table
shows. `health` (retained): what staff should look at. `events` (not retained): each accepted
action as the table words it. An empty retained message on a table's topic clears it: the
table is retired. Every message is a JSON object with `schema`, `table` and `at`
(seconds since the epoch, when the table wrote it). A reader ignores fields it does not know: a
field added keeps the schema's version, a field whose meaning changes bumps it. Only the
standard library and the rules are used here, so the café reads messages with the same code
that writes them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
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


def status_fields(online: bool, stopped: bool = False) -> dict[str, Any]:
    """A `status` message's own fields: online, or offline and whether the table `stopped` on
    purpose (its goodbye) or vanished (its last will)."""
    if online:
        return {"status": "online"}
    return {"status": "offline", "stopped": stopped}


@dataclass(frozen=True)
class LastAction:
    """The latest action the table accepted, as its event said it, and when."""

    action: str
    words: tuple[str, ...]
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "words": list(self.words), "at": round(self.at, 3)}


def public_game(
    state: GameState,
    match: tuple[int, int],
    last: LastAction | None = None,
    started_at: float | None = None,
) -> dict[str, Any]:
    """The game as anyone at the table sees it: `GameState.to_dict` without the key, the
    match under way (`match` being its wins, red and blue), the team that started, the time of
    the game's first clue (`started_at`, None before it) and its `last` action."""
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
        "match": {"red": red, "blue": blue, "games": red + blue},
        # The card's side every player sees (and in co-op, the players' team).
        "starting": state.key.starting_team.value,
        "started_at": None if started_at is None else round(started_at, 3),
        "last": None if last is None else last.to_dict(),
    }


def encode(message: dict[str, Any] | str) -> bytes:
    """The payload of a message."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()
