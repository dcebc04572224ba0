"""The café's reading of messages: well-formed ones change their table's row, and anything else
(foreign topics, bad JSON, wrong schema, wrong types, huge or hostile texts) is ignored, counted
and named, never shown and never a crash."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from board_rules.codenames import Game, Mode, generate_key, parse_action
from firmware.cafe.model import MAX_PAYLOAD, Cafe
from firmware.fleet.messages import encode, envelope, public_game


def game_payload(table: str = "t1") -> bytes:
    game = Game(generate_key(random.Random(5)), Mode.STANDARD)
    state = game.play(parse_action("clue 2"))
    return encode(envelope(table, 1.0, **public_game(state, (1, 0))))


def test_messages_fill_a_tables_row() -> None:
    cafe = Cafe()
    assert cafe.receive("codenames/t1/status", encode(envelope("t1", 1.0, status="online")))
    assert cafe.receive("codenames/t1/game", game_payload())
    health = {
        "stuck_pads": ["C3"],
        "oled_up": False,
        "saving": False,
        "not_saving": "disk full",
        "events_dropped": 0,
    }
    assert cafe.receive("codenames/t1/health", encode(envelope("t1", 1.0, **health)))
    event = envelope("t1", 1.0, action="clue 2", words=[])
    assert cafe.receive("codenames/t1/events", encode(event))
    cafe.broker(True, "connected")
    cells = cafe.tables["t1"].cells(cafe.catalog, 2.0)
    assert cells["online"] == "online"
    assert cells["mode"] == "Standard"
    assert cells["state"].endswith(": guessing, clue 2, 3 left")
    assert "match" not in cells["score"]  # only between games, as on the OLED
    assert cells["health"] == "stuck pads: C3; OLED down; NOT SAVING: disk full"
    assert cells["last"] == "clue 2"
    assert cafe.rejected == 0
    assert cafe.snapshot()["tables"][0]["alert"]
    cafe.receive("codenames/t1/status", encode(envelope("t1", 2.0, status="offline")))
    assert cafe.tables["t1"].cells(cafe.catalog, 2.0)["online"].startswith("OFFLINE since ")


def test_a_game_without_the_match_of_an_older_table_is_still_read() -> None:
    cafe = Cafe()
    older = json.loads(game_payload())
    del older["match"]
    assert cafe.receive("codenames/t1/game", encode(older)) == "t1"
    assert cafe.tables["t1"].cells(cafe.catalog, 2.0)["score"].startswith("left: Red ")
    assert "match" not in cafe.tables["t1"].cells(cafe.catalog, 2.0)["score"]


def with_match(match: object) -> bytes:
    game = json.loads(game_payload())
    game["match"] = match
    return encode(game)


HOSTILE = [
    ("codenames/t1/key", game_payload(), "not a fleet topic"),
    ("codenames/a+b/game", game_payload(), "not a table id"),
    ("codenames/t1/game", b"\xff\xfe", "not JSON"),
    ("codenames/t1/game", b"[1, 2]", "not a JSON object"),
    ("codenames/t1/game", b"[" * 5000, "not JSON"),
    ("codenames/t1/game", b" " * (MAX_PAYLOAD + 1), "bytes, more than"),
    ("codenames/t1/game", game_payload().replace(b'"schema":1', b'"schema":2'), "schema 2"),
    ("codenames/t2/game", game_payload("t1"), "its table differs"),
    ("codenames/t1/status", encode(envelope("t1", 1, status="<b>up</b>")), "status.status"),
    ("codenames/t1/events", encode(envelope("t1", 1, action="x" * 500, words=[])), "action"),
    ("codenames/t1/events", encode(envelope("t1", 1, action="a\x1b[2J", words=[])), "action"),
    ("codenames/t1/health", encode(envelope("t1", 1, stuck_pads="C3")), "stuck_pads"),
    ("codenames/t1/game", with_match({"red": -1, "blue": 0, "games": 0}), "game.match"),
    ("codenames/t1/game", with_match({"red": 1, "blue": 0}), "game.match"),
    ("codenames/t1/game", with_match("red 1"), "game.match"),
]


@pytest.mark.parametrize(("topic", "payload", "why"), HOSTILE, ids=[h[2] for h in HOSTILE])
def test_a_bad_message_is_ignored_and_named(topic: str, payload: bytes, why: str) -> None:
    cafe = Cafe()
    assert cafe.receive(topic, payload) is None
    assert cafe.tables == {}
    assert cafe.rejected == 1
    assert why in cafe.last_rejection
    assert len(cafe.last_rejection) <= 120 and cafe.last_rejection.isprintable()


@given(st.text(max_size=80), st.binary(max_size=300))
def test_no_message_crashes_the_cafe(topic: str, payload: bytes) -> None:
    cafe = Cafe()
    cafe.receive(topic, payload)
    json.dumps(cafe.snapshot())
