"""The fleet's schema, declared once: what the table's publisher builds is what the reader
takes, every field declared has its check, a field added since the first tables may be absent,
an unknown field is ignored, and anything else is refused with its reason and field."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any, get_type_hints

import pytest

from board_rules.codenames import Game, Mode, generate_key, parse_action
from firmware.fleet import schema
from firmware.fleet.health import HealthReading
from firmware.fleet.messages import (
    LastAction,
    encode,
    envelope,
    event_fields,
    public_game,
    status_fields,
)
from firmware.fleet.schema import Refusal, SchemaError, read


def built(tmp_path: Path) -> dict[str, bytes]:
    """One message of each kind as the publisher builds it."""
    game = Game(generate_key(random.Random(3)), Mode.STANDARD)
    state = game.play(parse_action("clue 2"))
    last = LastAction("clue 2", ("Red: 2",), 1000.0)
    health = HealthReading(tmp_path, time.monotonic()).fields(time.monotonic(), 0)
    return {
        "status": encode(envelope("t1", 1000.0, **status_fields(online=False, stopped=True))),
        "game": encode(envelope("t1", 1000.0, **public_game(state, (1, 2), last, 990.0))),
        "health": encode(envelope("t1", 1000.0, **health)),
        "events": encode(envelope("t1", 1000.0, **event_fields("clue 2", ("Red: 2",)))),
    }


def test_what_the_publisher_builds_is_what_the_reader_takes(tmp_path: Path) -> None:
    for kind, payload in built(tmp_path).items():
        table, read_kind, message = read(f"codenames/t1/{kind}", payload)
        assert (table, read_kind) == ("t1", kind)
        assert message == json.loads(payload)
        # Every field sent is declared: nothing leaves the table that the schema does not name.
        declared = get_type_hints(schema._MESSAGES[kind]).keys()
        assert set(message) <= declared, set(message) - declared


def test_every_declared_field_has_its_check() -> None:
    for kind, checks in schema._FIELDS.items():
        declared = get_type_hints(schema._MESSAGES[kind]).keys() - {"schema", "table"}
        assert set(checks) == declared, kind


@pytest.mark.parametrize("kind", schema.KINDS)
def test_a_field_added_since_the_first_tables_may_be_absent_the_others_may_not(
    kind: str, tmp_path: Path
) -> None:
    sent = json.loads(built(tmp_path)[kind])
    for name, (_, may_be_absent) in schema._FIELDS[kind].items():
        if name not in sent:
            continue
        without = {k: v for k, v in sent.items() if k != name}
        if may_be_absent:
            assert read(f"codenames/t1/{kind}", encode(without))[2] == without
        else:
            with pytest.raises(SchemaError) as refused:
                read(f"codenames/t1/{kind}", encode(without))
            assert refused.value.refusal is Refusal.BAD_FIELD
            assert refused.value.fields == {"field": f"{kind}.{name}"}


def test_an_unknown_field_is_ignored(tmp_path: Path) -> None:
    sent = json.loads(built(tmp_path)["game"]) | {"from_a_later_table": [1, 2]}
    assert read("codenames/t1/game", encode(sent))[2]["mode"] == "standard"


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        ({"schema": True}, Refusal.OTHER_SCHEMA),
        ({"schema": 1.0}, Refusal.OTHER_SCHEMA),
        ({"schema": 2}, Refusal.OTHER_SCHEMA),
        ({"table": "t2"}, Refusal.OTHER_TABLE),
        ({"at": "noon"}, Refusal.BAD_FIELD),
        ({"clue": True}, Refusal.BAD_FIELD),
        ({"remaining": {"red": -1}}, Refusal.BAD_FIELD),
        ({"covered": {f"A{n}": "red" for n in range(26)}}, Refusal.BAD_FIELD),
        ({"winner": "x" * (schema.TEXT + 1)}, Refusal.BAD_FIELD),
        ({"last": {"action": "clue 2", "words": [], "at": -1}}, Refusal.BAD_FIELD),
        ({"match": {"red": 1, "blue": 0}}, Refusal.BAD_FIELD),
    ],
)
def test_a_game_message_out_of_its_schema_is_refused_with_its_reason(
    change: dict[str, Any], refusal: Refusal, tmp_path: Path
) -> None:
    sent = json.loads(built(tmp_path)["game"]) | change
    with pytest.raises(SchemaError) as refused:
        read("codenames/t1/game", encode(sent))
    assert refused.value.refusal is refusal


@pytest.mark.parametrize(
    ("topic", "payload", "refusal"),
    [
        ("codenames/t1/key", b"{}", Refusal.NOT_A_TOPIC),
        ("other/t1/game", b"{}", Refusal.NOT_A_TOPIC),
        ("codenames/t 1/game", b"{}", Refusal.NOT_A_TABLE_ID),
        ("codenames/t1/game", b"x" * (schema.MAX_PAYLOAD + 1), Refusal.TOO_LONG),
        ("codenames/t1/game", b"{", Refusal.NOT_JSON),
        ("codenames/t1/game", b"[1]", Refusal.NOT_AN_OBJECT),
    ],
)
def test_what_is_not_a_fleet_message_is_refused(
    topic: str, payload: bytes, refusal: Refusal
) -> None:
    with pytest.raises(SchemaError) as refused:
        read(topic, payload)
    assert refused.value.refusal is refusal
