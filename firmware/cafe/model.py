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
from gettext import GNUTranslations
from typing import Any, Final

from board_rules.text import clip
from firmware.cafe import texts as t
from firmware.cafe.texts import cafe_text
from firmware.errors import FirmwareError
from firmware.fleet.messages import KINDS, ROOT, SCHEMA, TABLE_ID
from firmware.table.i18n import translations

MAX_PAYLOAD: Final = 16 * 1024
"""A game message is under 2 KiB; anything much larger is not one of ours."""
TEXT: Final = 60
"""Longest text shown from a message, in characters."""


class BadMessageError(FirmwareError, ValueError):
    """A message the café ignores; the text says why, in one line (`worded`: in the view's
    language)."""

    def __init__(self, why: str, **fields: object) -> None:
        super().__init__(why.format(**fields))
        self.why = why
        self.fields = fields

    def worded(self, catalog: GNUTranslations) -> str:
        """Why, in `catalog`'s language."""
        return cafe_text(catalog, self.why, **self.fields)


@dataclass
class TableRow:
    """One table as the café last heard of it."""

    table: str
    online: bool | None = None
    game: dict[str, Any] | None = None
    health: dict[str, Any] | None = None
    last_event: str = ""

    def cells(self, catalog: GNUTranslations) -> dict[str, str]:
        """The row as both views print it, in `catalog`'s language: table, online, state, score,
        health, last event (the table's own words, as sent)."""
        online = {
            None: "?",
            True: cafe_text(catalog, t.ONLINE),
            False: cafe_text(catalog, t.OFFLINE),
        }
        return {
            "table": self.table,
            "online": online[self.online],
            "state": _state(catalog, self.game),
            "score": _score(catalog, self.game),
            "health": _health(catalog, self.health),
            "last": self.last_event,
        }


def _state(catalog: GNUTranslations, game: dict[str, Any] | None) -> str:
    if game is None:
        return "-"
    if game["phase"] == "over":
        if game["winner"] is None:
            won = cafe_text(catalog, t.NOBODY_WON)
        else:
            won = cafe_text(catalog, t.WON, team=t.worded(catalog, t.TEAMS, game["winner"]))
        reason = game["reason"]
        return won + (f" ({t.worded(catalog, t.END_REASONS, reason)})" if reason else "")
    team = t.worded(catalog, t.TEAMS, game["turn"])
    parts = [
        cafe_text(catalog, t.TURN, team=team, phase=t.worded(catalog, t.PHASES, game["phase"]))
    ]
    if game["clue"] is not None:
        parts.append(cafe_text(catalog, t.CLUE, clue=t.clue_shown(game["clue"])))
    left = game["guesses_left"]
    if left is not None:
        # Unlimited (or a text this café does not know) takes the plural, as "∞" does.
        parts.append(t.guesses_left(catalog, left if type(left) is int else 2, t.clue_shown(left)))
    return ", ".join(parts)


def _score(catalog: GNUTranslations, game: dict[str, Any] | None) -> str:
    if game is None:
        return "-"
    remaining = " ".join(
        f"{t.worded(catalog, t.TEAMS, team)} {n}" for team, n in sorted(game["remaining"].items())
    )
    shown = cafe_text(catalog, t.AGENTS_LEFT, agents=remaining)
    if game["score"]:
        shown += "; " + cafe_text(catalog, t.SCORE, score=game["score"])
    match = game.get("match")  # absent from a table of a version before it
    if match is None:
        return shown
    wins = cafe_text(
        catalog,
        t.MATCH,
        red=cafe_text(catalog, t.TEAMS["red"]),
        red_wins=match["red"],
        blue=cafe_text(catalog, t.TEAMS["blue"]),
        blue_wins=match["blue"],
    )
    return f"{shown}; {wins} ({t.games_played(catalog, match['games'])})"


def _problems(catalog: GNUTranslations, health: dict[str, Any] | None) -> list[str]:
    """What staff should look at, worded; none for a table not heard of yet."""
    if health is None:
        return []
    problems = []
    if health["stuck_pads"]:
        problems.append(cafe_text(catalog, t.STUCK, pads=" ".join(health["stuck_pads"])))
    if not health["oled_up"]:
        problems.append(cafe_text(catalog, t.OLED_DOWN))
    if health.get("led_off"):
        problems.append(cafe_text(catalog, t.LED_OFF, why=health["led_off"]))
    if not health["saving"]:
        problems.append(cafe_text(catalog, t.NOT_SAVING, why=health["not_saving"] or "?"))
    if health["events_dropped"]:
        problems.append(t.events_dropped(catalog, health["events_dropped"]))
    return problems


def _health(catalog: GNUTranslations, health: dict[str, Any] | None) -> str:
    if health is None:
        return "-"
    return "; ".join(_problems(catalog, health)) or cafe_text(catalog, t.ALL_WELL)


@dataclass
class Cafe:
    """Every table heard of, and the messages turned away, worded in `language`."""

    language: str = "en"
    tables: dict[str, TableRow] = field(default_factory=dict)
    rejected: int = 0
    last_rejection: str = ""

    @property
    def catalog(self) -> GNUTranslations:
        """The catalog of the café's language."""
        return translations(self.language)

    def receive(self, topic: str, payload: bytes) -> str | None:
        """Take one message; the table it changed, or None when it was turned away."""
        try:
            table, kind, message = read(topic, payload)
        except BadMessageError as error:
            self.rejected += 1
            why = error.worded(self.catalog)
            self.last_rejection = _cut(f"{_cut(topic, TEXT)}: {why}", 2 * TEXT)
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

    def rows(self) -> list[TableRow]:
        """Every table heard of, in table order."""
        return [self.tables[name] for name in sorted(self.tables)]

    def summary(self) -> str:
        """How many tables, and the messages turned away: the status line of both views."""
        catalog = self.catalog
        if self.tables:
            shown = cafe_text(catalog, t.TABLES, n=len(self.tables))
        else:
            shown = cafe_text(catalog, t.NO_TABLES)
        if self.rejected:
            ignored = cafe_text(catalog, t.IGNORED, n=self.rejected, why=self.last_rejection)
            shown += f" · {ignored}"
        return shown

    def snapshot(self) -> dict[str, Any]:
        """What the web page shows: each row's cells in column order (and whether it needs a
        look), and the status line."""
        catalog = self.catalog
        return {
            "tables": [
                {
                    "id": row.table,
                    "cells": list(row.cells(catalog).values()),
                    "offline": row.online is not True,
                    "problem": bool(_problems(catalog, row.health)),
                }
                for row in self.rows()
            ],
            "status": self.summary(),
        }


def read(topic: str, payload: bytes) -> tuple[str, str, dict[str, Any]]:
    """(table, kind, message) of a message that is ours and well formed; `BadMessageError`."""
    parts = topic.split("/")
    if len(parts) != 3 or parts[0] != ROOT or parts[2] not in KINDS:
        raise BadMessageError(t.NOT_A_TOPIC)
    table, kind = parts[1], parts[2]
    if not TABLE_ID.fullmatch(table):
        raise BadMessageError(t.NOT_A_TABLE_ID)
    if len(payload) > MAX_PAYLOAD:
        raise BadMessageError(t.TOO_LONG, size=len(payload), limit=MAX_PAYLOAD)
    try:
        message = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise BadMessageError(t.NOT_JSON, error=_cut(str(error), TEXT)) from None
    if not isinstance(message, dict):
        raise BadMessageError(t.NOT_AN_OBJECT)
    if message.get("schema") != SCHEMA:
        schema = _cut(repr(message.get("schema")), 20)
        raise BadMessageError(t.OTHER_SCHEMA, schema=schema, expected=SCHEMA)
    if message.get("table") != table:
        raise BadMessageError(t.OTHER_TABLE)
    for name, check in _FIELDS[kind].items():
        present = name in message or name in _ADDED
        if not present or not check(message.get(name)):
            raise BadMessageError(t.BAD_FIELD, field=f"{kind}.{name}")
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


_ADDED: Final = frozenset({"match", "led_off"})
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
        "led_off": _optional(_text),
        "events_dropped": _count,
    },
    "events": {
        "action": _text,
        "words": lambda v: isinstance(v, list) and len(v) <= 4 and all(map(_text, v)),
    },
}
