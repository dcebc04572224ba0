"""The fleet's messages declared once, schema version 1: their topics, what each kind carries
(typed, with the range of every field), and the one reader that checks a message against it.

The table's publisher builds its messages as these types (`firmware.fleet.messages`,
`firmware.fleet.health`) and the café reads them with `read`, so a field has one home: its type,
its check and whether tables before it was added still leave it out (`NotRequired`). A reader
ignores fields it does not know: a field added keeps the schema's version, a field whose meaning
changes bumps it. Only the standard library: a table pays nothing to import it.
"""

import json
import re
from collections.abc import Callable
from enum import Enum
from typing import (
    Annotated,
    Any,
    Final,
    Literal,
    NotRequired,
    TypedDict,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from firmware.errors import FirmwareError

SCHEMA: Final = 1
"""Bump when a field changes its meaning (not for a field added, which readers ignore until
they know it); readers refuse other versions, never guess."""
ROOT: Final = "codenames"
Kind = Literal["status", "game", "health", "events"]
KINDS: Final[tuple[Kind, ...]] = ("status", "game", "health", "events")
TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A table id: one topic level, no wildcard."""
MAX_PAYLOAD: Final = 16 * 1024
"""A game message is under 2 KiB; anything much larger is not one of ours."""
TEXT: Final = 60
"""Longest text in a message, in characters."""

Check = Callable[[Any], bool]


def _text(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= TEXT and value.isprintable()


def _count(value: Any) -> bool:
    return type(value) is int and 0 <= value <= 1_000_000_000


def _bytes(value: Any) -> bool:
    return type(value) is int and 0 <= value < 2**63


def _time(value: Any) -> bool:
    """Seconds since the epoch, up to the year 5000 (or a duration as long)."""
    return type(value) in (int, float) and 0 <= value < 1e11


def _number(value: Any) -> bool:
    return type(value) in (int, float) and -1000 < value < 1000


def _flag(value: Any) -> bool:
    return isinstance(value, bool)


def _words(value: Any) -> bool:
    return isinstance(value, list) and len(value) <= 4 and all(map(_text, value))


def _pads(value: Any) -> bool:
    return isinstance(value, list) and len(value) <= 30 and all(map(_text, value))


def _count_or_text(value: Any) -> bool:
    return _count(value) or _text(value)


def _per_team(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and len(value) <= 4
        and all(_text(k) and _count(n) for k, n in value.items())
    )


def _covered(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and len(value) <= 25
        and all(_text(k) and _text(i) for k, i in value.items())
    )


Text = Annotated[str, _text]
Count = Annotated[int, _count]
Time = Annotated[float, _time]
Flag = Annotated[bool, _flag]
Words = Annotated[list[str], _words]


class Envelope(TypedDict):
    """What every message carries: the schema's version, the table's id (as in its topic) and
    when the table wrote it."""

    schema: int
    table: str
    at: Time


class StatusFields(TypedDict):
    """`status` (retained): online, or offline and whether the table said goodbye (`stopped`:
    true) or vanished (false, its last will)."""

    status: Annotated[Literal["online", "offline"], lambda v: v in ("online", "offline")]
    stopped: NotRequired[Flag | None]


class LastActionFields(TypedDict):
    """The latest action a table accepted, as its event said it, and when."""

    action: Text
    words: Words
    at: Time


def _last(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and _text(value.get("action"))
        and _words(value.get("words"))
        and _time(value.get("at"))
    )


class MatchFields(TypedDict):
    """The match under way: games won per team and its finished standard games."""

    red: int
    blue: int
    games: int


def _match(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and len(value) <= 8
        and all(_count(value.get(name)) for name in MatchFields.__annotations__)
    )


class GameFields(TypedDict):
    """`game` (retained): what anyone at the table sees, never the key."""

    mode: Text
    phase: Text
    turn: Text
    clue: Annotated[int | str | None, lambda v: v is None or _count_or_text(v)]
    guesses_made: NotRequired[Count]
    guesses_left: Annotated[int | str | None, lambda v: v is None or _count_or_text(v)]
    remaining: Annotated[dict[str, int], _per_team]
    covered: Annotated[dict[str, str], _covered]
    winner: Text | None
    reason: Text | None
    score: Count | None
    match: NotRequired[Annotated[MatchFields | None, lambda v: v is None or _match(v)]]
    starting: NotRequired[Text | None]
    started_at: NotRequired[Time | None]
    last: NotRequired[Annotated[LastActionFields | None, lambda v: v is None or _last(v)]]


class HealthFields(TypedDict):
    """`health` (retained): what staff should look at."""

    stuck_pads: Annotated[list[str], _pads]
    oled_up: Flag
    led_backend: NotRequired[Text]
    led_off: NotRequired[Text | None]
    led_supply: NotRequired[Annotated[bool | None, lambda v: v is None or isinstance(v, bool)]]
    saving: Flag
    not_saving: Text | None
    free_disk_bytes: NotRequired[Annotated[int | None, lambda v: v is None or _bytes(v)]]
    cpu_temp_c: NotRequired[Annotated[float | None, lambda v: v is None or _number(v)]]
    uptime_s: NotRequired[Time]
    version: NotRequired[Text]
    events_dropped: Count


class EventFields(TypedDict):
    """`events` (not retained): each accepted action as the table words it."""

    action: Text
    words: Words


class StatusMessage(Envelope, StatusFields):
    """A whole `status` message."""


class GameMessage(Envelope, GameFields):
    """A whole `game` message."""


class HealthMessage(Envelope, HealthFields):
    """A whole `health` message."""


class EventMessage(Envelope, EventFields):
    """A whole `events` message."""


Message = StatusMessage | GameMessage | HealthMessage | EventMessage


def is_schema(value: object) -> bool:
    """Whether a message's `schema` field is this version: the whole number itself, not `true`
    nor `1.0`, which Python compares equal to 1."""
    return type(value) is int and value == SCHEMA


def topic(table: str, kind: Kind | Literal["+"]) -> str:
    """The topic of `kind` for `table` (`+`: a filter of all its kinds)."""
    return f"{ROOT}/{table}/{kind}"


class Refusal(Enum):
    """Why a reader turns a message away (a reader words it in its own language)."""

    NOT_A_TOPIC = "not_a_topic"
    NOT_A_TABLE_ID = "not_a_table_id"
    TOO_LONG = "too_long"
    """With `size` and `limit`."""
    NOT_JSON = "not_json"
    """With `error`."""
    NOT_AN_OBJECT = "not_an_object"
    OTHER_SCHEMA = "other_schema"
    """With `schema` (as sent, quoted) and `expected`."""
    OTHER_TABLE = "other_table"
    BAD_FIELD = "bad_field"
    """With `field`: `kind.name`."""


class SchemaError(FirmwareError, ValueError):
    """A message that is not one of the fleet's: why (`refusal`, with its `fields`)."""

    def __init__(self, refusal: Refusal, **fields: object) -> None:
        super().__init__(" ".join([refusal.value, *(f"{k}={v!r}" for k, v in fields.items())]))
        self.refusal = refusal
        self.fields = fields


def _field_check(hint: Any) -> tuple[Check, bool]:
    """A field's check from its declared type, and whether it may be absent."""
    optional = get_origin(hint) is NotRequired
    if optional:
        hint = get_args(hint)[0]
    if get_origin(hint) is Annotated:
        return hint.__metadata__[0], optional
    if get_origin(hint) is Union:  # `Text | None`
        (inner,) = (arg for arg in get_args(hint) if arg is not type(None))
        check = inner.__metadata__[0]
        return (lambda value: value is None or check(value)), optional
    raise TypeError(f"{hint!r}: a field of the schema needs its check")


def _checks(message: type) -> dict[str, tuple[Check, bool]]:
    own = get_type_hints(message, include_extras=True)
    return {
        name: _field_check(hint) for name, hint in own.items() if name not in ("schema", "table")
    }


_MESSAGES: Final[dict[str, type]] = {
    "status": StatusMessage,
    "game": GameMessage,
    "health": HealthMessage,
    "events": EventMessage,
}
_FIELDS: Final = {kind: _checks(message) for kind, message in _MESSAGES.items()}
"""Each kind's fields other than `schema` and `table`: (check, may be absent)."""


def read(topic: str, payload: bytes) -> tuple[str, Kind, Message]:
    """(table, kind, message) of a message on `topic` that is the fleet's and well formed:
    every field of its kind present (or added since the first tables) and in range;
    `SchemaError` otherwise."""
    parts = topic.split("/")
    if len(parts) != 3 or parts[0] != ROOT or parts[2] not in KINDS:
        raise SchemaError(Refusal.NOT_A_TOPIC)
    table, kind = parts[1], parts[2]
    if not TABLE_ID.fullmatch(table):
        raise SchemaError(Refusal.NOT_A_TABLE_ID)
    if len(payload) > MAX_PAYLOAD:
        raise SchemaError(Refusal.TOO_LONG, size=len(payload), limit=MAX_PAYLOAD)
    try:
        message = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise SchemaError(Refusal.NOT_JSON, error=str(error)) from None
    if not isinstance(message, dict):
        raise SchemaError(Refusal.NOT_AN_OBJECT)
    if not is_schema(message.get("schema")):
        raise SchemaError(Refusal.OTHER_SCHEMA, schema=repr(message.get("schema")), expected=SCHEMA)
    if message.get("table") != table:
        raise SchemaError(Refusal.OTHER_TABLE)
    for name, (check, may_be_absent) in _FIELDS[kind].items():
        if name in message:
            if not check(message[name]):
                raise SchemaError(Refusal.BAD_FIELD, field=f"{kind}.{name}")
        elif not may_be_absent:
            raise SchemaError(Refusal.BAD_FIELD, field=f"{kind}.{name}")
    return table, kind, message  # type: ignore[return-value]  # checked field by field above
