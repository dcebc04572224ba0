"""What the café knows of each table, read from the fleet's messages (`firmware.fleet.messages`)
and shown the same way by the terminal view and the web page.

A message arrives from anyone who can publish on the broker: each is checked (topic, size, JSON
object, schema version, table id, the type of every field shown) and one that fails is ignored,
counted and its reason kept for the view to say; it never changes a table nor crashes the view.
Texts are clipped before anyone shows them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final

from board_rules.text import clip
from firmware.errors import FirmwareError
from firmware.fleet.messages import KINDS, ROOT, SCHEMA, TABLE_ID

MAX_PAYLOAD: Final = 16 * 1024
"""A game message is under 2 KiB; anything much larger is not one of ours."""
TEXT: Final = 60
"""Longest text shown from a message, in characters."""


class BadMessageError(FirmwareError, ValueError):
    """A message the café ignores; the text says why, in one line."""


@dataclass
class TableRow:
    """One table as the café last heard of it."""

    table: str
    online: bool | None = None
    game: dict[str, Any] | None = None
    health: dict[str, Any] | None = None
    last_event: str = ""

    def cells(self) -> dict[str, str]:
        """The row as both views print it: table, online, state, score, health, last event."""
        return {
            "table": self.table,
            "online": {None: "?", True: "online", False: "OFFLINE"}[self.online],
            "state": _state(self.game),
            "score": _score(self.game),
            "health": _health(self.health),
            "last": self.last_event,
        }


def _state(game: dict[str, Any] | None) -> str:
    if game is None:
        return "-"
    if game["phase"] == "over":
        reason = f" ({game['reason']})" if game["reason"] else ""
        return f"{game['winner'] or 'nobody'} won{reason}"
    clue = "" if game["clue"] is None else f", clue {game['clue']}"
    left = "" if game["guesses_left"] is None else f", {game['guesses_left']} left"
    return f"{game['turn']}: {game['phase']}{clue}{left}"


def _score(game: dict[str, Any] | None) -> str:
    if game is None:
        return "-"
    remaining = " ".join(f"{team} {n}" for team, n in sorted(game["remaining"].items()))
    shown = f"left: {remaining}" + (f"; score {game['score']}" if game["score"] else "")
    match = game.get("match")  # absent from a table of a version before it
    if match is None:
        return shown
    played = f"{match['games']} game" + ("" if match["games"] == 1 else "s")
    return f"{shown}; match: red {match['red']} blue {match['blue']} ({played})"


def _health(health: dict[str, Any] | None) -> str:
    if health is None:
        return "-"
    problems = []
    if health["stuck_pads"]:
        problems.append("stuck " + " ".join(health["stuck_pads"]))
    if not health["oled_up"]:
        problems.append("OLED down")
    if not health["saving"]:
        problems.append(f"NOT SAVING: {health['not_saving'] or '?'}")
    if health["events_dropped"]:
        problems.append(f"{health['events_dropped']} events dropped")
    return "; ".join(problems) or "OK"


@dataclass
class Cafe:
    """Every table heard of, and the messages turned away."""

    tables: dict[str, TableRow] = field(default_factory=dict)
    rejected: int = 0
    last_rejection: str = ""

    def receive(self, topic: str, payload: bytes) -> str | None:
        """Take one message; the table it changed, or None when it was turned away."""
        try:
            table, kind, message = read(topic, payload)
        except BadMessageError as error:
            self.rejected += 1
            self.last_rejection = _cut(f"{_cut(topic, TEXT)}: {error}", 2 * TEXT)
            return None
        row = self.tables.setdefault(table, TableRow(table))
        if kind == "status":
            row.online = message["status"] == "online"
        elif kind == "game":
            row.game = message
        elif kind == "health":
            row.health = message
        else:
            words = " / ".join(message["words"])
            row.last_event = _cut(message["action"] + (f": {words}" if words else ""), TEXT)
        return table

    def snapshot(self) -> dict[str, Any]:
        """Every row's cells, in table order, and the turned-away count, for the web page."""
        return {
            "tables": [self.tables[name].cells() for name in sorted(self.tables)],
            "rejected": self.rejected,
            "last_rejection": self.last_rejection,
        }


def read(topic: str, payload: bytes) -> tuple[str, str, dict[str, Any]]:
    """(table, kind, message) of a message that is ours and well formed; `BadMessageError`."""
    parts = topic.split("/")
    if len(parts) != 3 or parts[0] != ROOT or parts[2] not in KINDS:
        raise BadMessageError("not a fleet topic")
    table, kind = parts[1], parts[2]
    if not TABLE_ID.fullmatch(table):
        raise BadMessageError("not a table id")
    if len(payload) > MAX_PAYLOAD:
        raise BadMessageError(f"{len(payload)} bytes, more than {MAX_PAYLOAD}")
    try:
        message = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise BadMessageError(f"not JSON: {_cut(str(error), TEXT)}") from None
    if not isinstance(message, dict):
        raise BadMessageError("not a JSON object")
    if message.get("schema") != SCHEMA:
        raise BadMessageError(f"schema {_cut(repr(message.get('schema')), 20)}, not {SCHEMA}")
    if message.get("table") != table:
        raise BadMessageError("its table differs from its topic's")
    for name, check in _FIELDS[kind].items():
        present = name in message or name in _ADDED
        if not present or not check(message.get(name)):
            raise BadMessageError(f"{kind}.{name} missing or of the wrong type")
    return table, kind, message


def _cut(text: str, length: int) -> str:
    """`text` on one line, at most `length` characters."""
    shown = clip(text)
    return shown if len(shown) <= length else shown[: length - 1] + "…"


def _text(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= TEXT and value.isprintable()


def _optional(check: Any) -> Any:
    return lambda value: value is None or check(value)


def _count(value: Any) -> bool:
    return type(value) is int and 0 <= value <= 1_000_000_000


_ADDED: Final = frozenset({"match"})
"""Fields added to schema 1 after its first tables: a message without them is still read."""

_FIELDS: Final[dict[str, dict[str, Any]]] = {
    "status": {"status": lambda v: v in ("online", "offline")},
    "game": {
        "mode": _text,
        "phase": _text,
        "turn": _text,
        "clue": _optional(lambda v: _count(v) or _text(v)),
        "guesses_left": _optional(lambda v: _count(v) or _text(v)),
        "remaining": lambda v: (
            isinstance(v, dict)
            and len(v) <= 4
            and all(_text(k) and _count(n) for k, n in v.items())
        ),
        "covered": lambda v: (
            isinstance(v, dict)
            and len(v) <= 25
            and all(_text(k) and _text(i) for k, i in v.items())
        ),
        "winner": _optional(_text),
        "reason": _optional(_text),
        "score": _optional(_count),
        "match": _optional(
            lambda v: (
                isinstance(v, dict)
                and len(v) <= 8
                and all(_count(v.get(name)) for name in ("red", "blue", "games"))
            )
        ),
    },
    "health": {
        "stuck_pads": lambda v: isinstance(v, list) and len(v) <= 30 and all(map(_text, v)),
        "oled_up": lambda v: isinstance(v, bool),
        "saving": lambda v: isinstance(v, bool),
        "not_saving": _optional(_text),
        "events_dropped": _count,
    },
    "events": {
        "action": _text,
        "words": lambda v: isinstance(v, list) and len(v) <= 4 and all(map(_text, v)),
    },
}
