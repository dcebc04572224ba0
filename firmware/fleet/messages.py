"""The table's fleet messages as its publisher builds them, of the types `firmware.fleet.schema`
declares (topics under `codenames/<table>/`, JSON, schema version 1).

`status` (retained): `online`, or `offline` with `stopped`: true when the table said goodbye,
false as the last will the broker sends for a table that vanished. `game` (retained): the public
state, what anyone at the table can see, the match's wins, the team that started (the players'
in co-op), when the game's first clue was given and its last action: never the key, nor anything
read from it but the identities of covered cards and the agents left per team, which the table
shows. `health` (retained, `firmware.fleet.health`): what staff should look at. `events` (not
retained): each accepted action as the table words it. An empty retained message on a table's
topic clears it: the table is retired.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from board_rules.codenames import GameState
from firmware.fleet.schema import (
    SCHEMA,
    EventFields,
    GameFields,
    LastActionFields,
    Message,
    StatusFields,
)


def envelope(table: str, at: float, **fields: Any) -> dict[str, Any]:
    """A message's common fields and its own (a `StatusFields`, `GameFields`, `HealthFields` or
    `EventFields`, spread)."""
    return {"schema": SCHEMA, "table": table, "at": round(at, 3), **fields}


def status_fields(online: bool, stopped: bool = False) -> StatusFields:
    """A `status` message's own fields: online, or offline and whether the table `stopped` on
    purpose (its goodbye) or vanished (its last will)."""
    if online:
        return {"status": "online"}
    return {"status": "offline", "stopped": stopped}


def event_fields(action: str, words: tuple[str, ...]) -> EventFields:
    """An `events` message's own fields: the action as the rules write it and the OLED's
    words."""
    return {"action": action, "words": list(words)}


@dataclass(frozen=True)
class LastAction:
    """The latest action the table accepted, as its event said it, and when."""

    action: str
    words: tuple[str, ...]
    at: float

    def to_dict(self) -> LastActionFields:
        return {"action": self.action, "words": list(self.words), "at": round(self.at, 3)}


def public_game(
    state: GameState,
    match: tuple[int, int],
    last: LastAction | None = None,
    started_at: float | None = None,
) -> GameFields:
    """The game as anyone at the table sees it: `GameState.to_dict` without the key, the
    match under way (`match` being its wins, red and blue), the team that started, the time of
    the game's first clue (`started_at`, None before it) and its `last` action."""
    public = state.to_dict()
    red, blue = match
    # Named, not filtered: a field added to the state later stays off the wire until it is
    # judged public here.
    return {
        "mode": public["mode"],
        "phase": public["phase"],
        "turn": public["turn"],
        "clue": public["clue"],
        "guesses_made": public["guesses_made"],
        "guesses_left": public["guesses_left"],
        "remaining": public["remaining"],
        "covered": public["covered"],
        "winner": public["winner"],
        "reason": public["reason"],
        "score": public["score"],
        # Every finished standard game has a winner, so the match's games are its wins.
        "match": {"red": red, "blue": blue, "games": red + blue},
        # The card's side every player sees (and in co-op, the players' team).
        "starting": state.key.starting_team.value,
        "started_at": None if started_at is None else round(started_at, 3),
        "last": None if last is None else last.to_dict(),
    }


def encode(message: Message | Mapping[str, Any] | str) -> bytes:
    """The payload of a message."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()
