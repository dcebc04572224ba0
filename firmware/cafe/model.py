"""What the café knows of each table, read from the fleet's messages (`firmware.fleet.schema`)
and shown the same way by the terminal view and the web page.

A message arrives from anyone who can publish on the broker: each is checked by the schema's
reader (topic, size, JSON object, schema version, table id, the type and range of every field)
and one that fails is ignored, counted and its reason kept for the view to say; it never
changes a table nor crashes the view. Texts are clipped before anyone shows them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from gettext import GNUTranslations
from typing import Any, Final, cast

from board_rules.codenames import ALL_COORDS, Identity
from board_rules.text import clip
from firmware.cafe import texts as t
from firmware.cafe.inbox import Inbox
from firmware.cafe.texts import cafe_text
from firmware.errors import FirmwareError
from firmware.fleet.schema import (
    MAX_PAYLOAD,
    ROOT,
    TEXT,
    EventMessage,
    GameMessage,
    HealthMessage,
    Message,
    Refusal,
    SchemaError,
    StatusMessage,
)
from firmware.fleet.schema import read as read_message
from firmware.table.i18n import translations

MAX_TABLES: Final = 500
"""Most tables one view follows: a café has tens; what is beyond is dropped and counted, so
that a broker full of strangers cannot fill the view's memory."""
IDENTITIES: Final = frozenset(identity.value for identity in Identity)
_COORDS: Final = tuple(str(coord) for coord in ALL_COORDS)
HOT_CPU_C: Final = 80.0
"""The Raspberry Pi's firmware starts throttling the CPU at 80 °C (Raspberry Pi documentation,
"Frequency management and thermal control"): a table that hot needs air."""


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
    stopped: bool | None = None
    """Offline: whether the table said goodbye (True) or vanished (False, its last will)."""
    since: float | None = None
    """When it went online or offline (the table's clock for a goodbye, the view's for a will)."""
    game: GameMessage | None = None
    health: HealthMessage | None = None
    last_event: str = ""
    last_at: float | None = None
    """When the table accepted its last action."""
    # The words of each part of the row, kept until the part changes (a message replaces
    # its dict): in a flood of events, only the last action's cell is worded again.
    _worded: tuple[object, dict[str, str]] | None = field(default=None, repr=False)
    _game_worded: tuple[object, dict[str, str]] | None = field(default=None, repr=False)
    _health_worded: tuple[object, str] | None = field(default=None, repr=False)
    _times_worded: tuple[object, str] | None = field(default=None, repr=False)
    _board: tuple[object, list[str] | None] | None = field(default=None, repr=False)
    _entry: tuple[object, str] | None = field(default=None, repr=False)

    def alerts(self, catalog: GNUTranslations, broker_up: bool = True) -> list[str]:
        """What staff should act on, worded: offline (only while the broker is reachable: a
        broker down says nothing of the tables), then the table's own health."""
        shown = []
        if broker_up and self.online is False:
            shown.append(cafe_text(catalog, t.OFFLINE))
        return shown + _problems(catalog, self.health)

    def needs_look(self, broker_up: bool = True) -> bool:
        """Whether `alerts` has anything to say (without wording it)."""
        if broker_up and self.online is False:
            return True
        health = self.health
        if health is None:
            return False
        temperature = health.get("cpu_temp_c")
        return bool(
            health["stuck_pads"]
            or not health["oled_up"]
            or not health["saving"]
            or bool(health.get("led_off"))
            or (temperature is not None and temperature >= HOT_CPU_C)
            or health["events_dropped"]
        )

    def cells(self, catalog: GNUTranslations, now: float, broker_up: bool = True) -> dict[str, str]:
        """The row as both views print it, in `catalog`'s language, at wall-clock time `now`:
        table, online, mode, state, score, times, health, last action (the table's own words,
        as sent)."""
        game, health = self.game, self.health
        key = (self.online, self.stopped, self.since, broker_up, catalog)
        if self._worded is None or self._worded[0] != key:
            self._worded = (key, {"online": self._online(catalog, broker_up)})
        if self._game_worded is None or self._game_worded[0] is not game:
            self._game_worded = (
                game,
                {
                    "mode": _mode(catalog, game),
                    "state": _state(catalog, game),
                    "score": _score(catalog, game),
                },
            )
        if self._health_worded is None or self._health_worded[0] is not health:
            problems = "; ".join(_problems(catalog, health))
            ok = "-" if health is None else cafe_text(catalog, t.ALL_WELL)
            self._health_worded = (health, problems or ok)
        return {
            "table": self.table,
            "online": self._worded[1]["online"],
            **self._game_worded[1],
            "times": self._times(catalog, now),
            "health": self._health_worded[1],
            "last": self.last_event,
        }

    def _online(self, catalog: GNUTranslations, broker_up: bool) -> str:
        if not broker_up:
            return cafe_text(catalog, t.NOT_KNOWN)
        if self.online is None:
            return "?"
        if self.online:
            return cafe_text(catalog, t.ONLINE)
        since = clock_time(self.since)
        how = {True: t.OFFLINE_STOPPED, False: t.OFFLINE_VANISHED, None: t.OFFLINE_SINCE}
        return cafe_text(catalog, how[self.stopped], since=since)

    def _times(self, catalog: GNUTranslations, now: float) -> str:
        """The game's length (first clue to last action, or to now while in play) and the time
        since the last action."""
        game = self.game
        if game is None:
            return "-"
        length = game_length_s(game, now)
        idle = None
        if self.last_at is not None and game["phase"] != "over":
            idle = max(0.0, now - self.last_at)
        # Worded again only when a shown second changed: the tick words every row.
        key = (
            catalog,
            None if length is None else int(length),
            None if idle is None else int(idle),
        )
        if self._times_worded is not None and self._times_worded[0] == key:
            return self._times_worded[1]
        parts = []
        if length is not None:
            parts.append(cafe_text(catalog, t.GAME_LENGTH, length=duration(length)))
        if idle is not None:
            parts.append(cafe_text(catalog, t.IDLE, idle=duration(idle)))
        self._times_worded = (key, ", ".join(parts) or "-")
        return self._times_worded[1]

    def entry(self, catalog: GNUTranslations, now: float, broker_up: bool) -> str:
        """The row as the web page's snapshot carries it, as JSON: its cells in column order,
        whether it needs a look and its board's covered cards (never the key). Encoded again
        only when something in it changed: a flood of messages for other tables costs this
        row nothing."""
        cells = tuple(self.cells(catalog, now, broker_up).values())
        game = self.game
        if self._board is None or self._board[0] is not game:
            self._board = (game, None if game is None else board(game))
        offline = broker_up and self.online is not True
        alert, problem = self.needs_look(broker_up), self.needs_look(broker_up=False)
        key = (cells, offline, alert, problem, self._board)
        if self._entry is None or self._entry[0] != key:
            shown = {
                "id": self.table,
                "cells": list(cells),
                "offline": offline,
                "alert": alert,
                "problem": problem,
                "board": self._board[1],
            }
            self._entry = (key, json.dumps(shown, ensure_ascii=False))
        return self._entry[1]


def game_length_s(game: Mapping[str, Any], now: float) -> float | None:
    """A game's length: from its first clue to its last action (to `now` while in play); None
    before the first clue or when the table does not know when it was (a game resumed at its
    start). The one definition of the café's views and record."""
    started = game.get("started_at")
    if started is None:
        return None
    last = game.get("last")
    end: float = now if game["phase"] != "over" else started if last is None else last["at"]
    return max(0.0, end - float(started))


def duration(seconds: float) -> str:
    """`7:05`, `1:02:09`: minutes and seconds, hours when there are."""
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def clock_time(at: float | None) -> str:
    """The view's local time of day, `21:07`."""
    return "?" if at is None else time.strftime("%H:%M", time.localtime(at))


def _coop(game: Mapping[str, Any] | None) -> bool:
    return game is not None and game["mode"] == "coop"


def _mode(catalog: GNUTranslations, game: GameMessage | None) -> str:
    if game is None:
        return "-"
    return t.worded(catalog, t.MODES, game["mode"])


def state_text(catalog: GNUTranslations, game: Mapping[str, Any]) -> str:
    """A game's state (or result, when over) in words, as the views show it."""
    return _state(catalog, game)


def _state(catalog: GNUTranslations, game: Mapping[str, Any] | None) -> str:
    if game is None:
        return "-"
    if game["phase"] == "over":
        if _coop(game):
            # The OLED's words for the end of a mission.
            if game["score"] is not None:
                won = t.oled_text(catalog, t.MISSION_WON)
                return f"{won}, {t.oled_text(catalog, t.OLED_SCORE, score=game['score'])}"
            return t.oled_text(catalog, t.MISSION_LOST)
        if game["winner"] is None:
            won = cafe_text(catalog, t.NOBODY_WON)
        else:
            won = cafe_text(catalog, t.WON, team=t.worded(catalog, t.TEAMS, game["winner"]))
        reason = game["reason"]
        return won + (f" ({t.worded(catalog, t.END_REASONS, reason)})" if reason else "")
    if _coop(game) and game["phase"] == "enemy_cover":
        return t.oled_text(catalog, t.OPPONENTS_TURN)
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


def _score(catalog: GNUTranslations, game: GameMessage | None) -> str:
    if game is None:
        return "-"
    remaining = game["remaining"]
    players = game.get("starting")
    if _coop(game) and players is not None and players in remaining:
        # As the OLED's footer says it: the players' agents, then the enemy's.
        enemy = next((team for team in remaining if team != players), players)
        return t.oled_text(catalog, t.OURS_THEIRS, own=remaining[players], enemy=remaining[enemy])
    # Red, then blue, then any team this café does not know: the same order in every cell.
    order = [team for team in t.TEAMS if team in remaining]
    order += sorted(team for team in remaining if team not in t.TEAMS)
    agents = " · ".join(f"{t.worded(catalog, t.TEAMS, team)} {remaining[team]}" for team in order)
    shown = cafe_text(catalog, t.AGENTS_LEFT, agents=agents)
    if game["score"]:
        shown += "; " + cafe_text(catalog, t.SCORE, score=game["score"])
    match = game.get("match")  # absent from a table of a version before it
    if match is None or _coop(game) or game["phase"] != "over":
        # The match's wins between games, as the OLED's footer shows them: in play, the
        # agents left are what the players look at.
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


def _problems(catalog: GNUTranslations, health: HealthMessage | None) -> list[str]:
    """What staff should look at in a table's health, worded; none for a table not heard of
    yet."""
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
    temperature = health.get("cpu_temp_c")
    if temperature is not None and temperature >= HOT_CPU_C:
        problems.append(cafe_text(catalog, t.HOT_CPU, temperature=round(temperature)))
    if health["events_dropped"]:
        problems.append(t.events_dropped(catalog, health["events_dropped"]))
    return problems


@dataclass
class Cafe:
    """Every table heard of (at most `max_tables`), the broker's state and the messages turned
    away, worded in `language`."""

    language: str = "en"
    max_tables: int = MAX_TABLES
    clock: Callable[[], float] = time.time
    tables: dict[str, TableRow] = field(default_factory=dict)
    rejected: int = 0
    last_rejection: str = ""
    dropped: int = 0
    """Messages never read: their table was one over `max_tables` (this model's count and the
    inbox's, which drops them before they reach it)."""
    broker_up: bool = False
    broker_text: str = ""
    """The connection to the broker in words, as the subscriber last said it."""
    broker_since: float | None = None
    on_finished: Callable[[str, GameMessage], object] | None = None
    """Called with (table, game message) for each game seen ending: the café's record."""
    inbox: Inbox = field(init=False)
    """Where paho's thread leaves messages for `take`."""

    def __post_init__(self) -> None:
        self.inbox = Inbox(self.max_tables, MAX_PAYLOAD)

    def take(self) -> set[str]:
        """Read every message waiting in the inbox; the tables they changed."""
        changed = set()
        for delivery in self.inbox.take():
            table = self.receive(delivery.topic, delivery.payload, delivery.size)
            if table is not None:
                changed.add(table)
        return changed

    @property
    def dropped_total(self) -> int:
        """Messages dropped for want of room, here and in the inbox."""
        return self.dropped + self.inbox.dropped

    @property
    def catalog(self) -> GNUTranslations:
        """The catalog of the café's language."""
        return translations(self.language)

    def broker(self, up: bool, text: str) -> None:
        """The subscriber's news of the broker: connected or not, in words."""
        if up != self.broker_up or self.broker_since is None:
            self.broker_since = self.clock()
        self.broker_up = up
        self.broker_text = text

    def receive(self, topic: str, payload: bytes, size: int | None = None) -> str | None:
        """Take one message (of `size` bytes when only its size was kept); the table it
        changed (or removed), or None when it was turned away."""
        if not payload and (size is None or size == 0):
            return self._retire(topic)
        try:
            if size is not None and size > MAX_PAYLOAD:
                raise BadMessageError(t.TOO_LONG, size=size, limit=MAX_PAYLOAD)
            table, kind, message = read(topic, payload)
        except BadMessageError as error:
            self._reject(topic, error)
            return None
        # Each kind's fields, as the schema's reader checked them.
        row = self.tables.get(table)
        if row is None:
            if len(self.tables) >= self.max_tables:
                self.dropped += 1
                return None
            row = self.tables[table] = TableRow(table)
        if kind == "status":
            message = cast(StatusMessage, message)
            online = message["status"] == "online"
            if online != row.online:
                stopped = message.get("stopped")
                # A goodbye is dated by the table; a will only by its arrival here.
                row.since = message["at"] if stopped is True else self.clock()
            row.online = online
            row.stopped = None if online else message.get("stopped")
        elif kind == "game":
            self._game(row, cast(GameMessage, message))
        elif kind == "health":
            row.health = cast(HealthMessage, message)
        else:
            event = cast(EventMessage, message)
            row.last_event = _last_words(event["action"], event["words"])
            row.last_at = event["at"]
        return table

    def _game(self, row: TableRow, message: GameMessage) -> None:
        before = row.game
        row.game = message
        last = message.get("last")
        if last is not None and (row.last_at is None or last["at"] >= row.last_at):
            row.last_event = _last_words(last["action"], last["words"])
            row.last_at = last["at"]
        ended = message["phase"] == "over" and (
            before is None or before["phase"] != "over" or before.get("last") != last
        )
        if ended and self.on_finished is not None:
            self.on_finished(row.table, message)

    def _retire(self, topic: str) -> str | None:
        parts = topic.split("/")
        if len(parts) == 3 and parts[0] == ROOT and self.tables.pop(parts[1], None) is not None:
            self.inbox.forget(parts[1])
            return parts[1]
        return None

    def _reject(self, topic: str, error: BadMessageError) -> None:
        self.rejected += 1
        why = error.worded(self.catalog)
        self.last_rejection = _cut(f"{_cut(topic, TEXT)}: {why}", 2 * TEXT)

    def rows(self) -> list[TableRow]:
        """Every table heard of: those needing a look first, then in table order."""
        return sorted(
            self.tables.values(), key=lambda row: (not row.needs_look(self.broker_up), row.table)
        )

    def summary(self) -> str:
        """How many tables, and the messages turned away or dropped: the status line of both
        views."""
        catalog = self.catalog
        if self.tables:
            shown = cafe_text(catalog, t.TABLES, n=len(self.tables))
        else:
            shown = cafe_text(catalog, t.NO_TABLES)
        if self.dropped_total:
            dropped = cafe_text(catalog, t.DROPPED, n=self.dropped_total, limit=self.max_tables)
            shown += f" · {dropped}"
        if self.rejected:
            ignored = cafe_text(catalog, t.IGNORED, n=self.rejected, why=self.last_rejection)
            shown += f" · {ignored}"
        return shown

    def broker_line(self) -> str:
        """The broker's state: its connection in words, and since when it is down."""
        if self.broker_up or self.broker_since is None:
            return self.broker_text
        since = cafe_text(self.catalog, t.DOWN_SINCE, since=clock_time(self.broker_since))
        return f"{self.broker_text} ({since})"

    def snapshot(self) -> dict[str, Any]:
        """What the web page shows: each row's cells in column order, whether it needs a look
        and its board's covered cards (never the key), the broker's state and the status line."""
        snapshot: dict[str, Any] = json.loads(self.snapshot_json())
        return snapshot

    def snapshot_json(self) -> str:
        """`snapshot` as the page receives it, JSON, put together from each row's kept
        `entry`."""
        catalog, now, up = self.catalog, self.clock(), self.broker_up
        rows = ",".join(row.entry(catalog, now, up) for row in self.rows())
        broker = json.dumps({"up": up, "text": self.broker_line()}, ensure_ascii=False)
        status = json.dumps(self.summary(), ensure_ascii=False)
        return f'{{"tables":[{rows}],"broker":{broker},"status":{status}}}'


def board(game: GameMessage) -> list[str]:
    """The board's 25 cards row by row, as anyone at the table sees them: each covered card's
    identity, `""` for one still face up (the key is never on the wire)."""
    covered = game["covered"]
    return [_identity(covered.get(coord)) for coord in _COORDS]


def _identity(code: object) -> str:
    return code if code in IDENTITIES else ""


def _last_words(action: str, words: list[str]) -> str:
    return _cut(action + (f": {' / '.join(words)}" if words else ""), TEXT)


_REFUSALS: Final = {
    Refusal.NOT_A_TOPIC: t.NOT_A_TOPIC,
    Refusal.NOT_A_TABLE_ID: t.NOT_A_TABLE_ID,
    Refusal.TOO_LONG: t.TOO_LONG,
    Refusal.NOT_JSON: t.NOT_JSON,
    Refusal.NOT_AN_OBJECT: t.NOT_AN_OBJECT,
    Refusal.OTHER_SCHEMA: t.OTHER_SCHEMA,
    Refusal.OTHER_TABLE: t.OTHER_TABLE,
    Refusal.BAD_FIELD: t.BAD_FIELD,
}
"""The café's words for each reason the schema's reader gives."""


def read(topic: str, payload: bytes) -> tuple[str, str, Message]:
    """(table, kind, message) of a message that is ours and well formed; `BadMessageError`,
    in the café's words, with what it quotes from the message cut short."""
    try:
        return read_message(topic, payload)
    except SchemaError as error:
        fields = dict(error.fields)
        if "error" in fields:
            fields["error"] = _cut(str(fields["error"]), TEXT)
        if "schema" in fields:
            fields["schema"] = _cut(str(fields["schema"]), 20)
        raise BadMessageError(_REFUSALS[error.refusal], **fields) from None


def _cut(text: str, length: int) -> str:
    """`text` on one line, at most `length` characters."""
    shown = clip(text)
    return shown if len(shown) <= length else shown[: length - 1] + "…"
