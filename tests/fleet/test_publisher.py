"""The table's publisher against a real Mosquitto: a headless table plays, and what arrives is
its public state, its events and its health; never the key."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from board_rules.codenames import ALL_COORDS, Key, Phase
from firmware.drivers.led_strip import LedFault
from firmware.fleet.attach import reporting
from firmware.fleet.health import HealthReading
from firmware.fleet.messages import public_game
from firmware.fleet.publisher import FleetPublisher
from firmware.fleet.schema import SCHEMA
from firmware.table.config import FleetConfig
from firmware.virtual.table import VirtualTable

from ..table_scripts import STILL, announce
from .broker_helpers import Listener, Mosquitto, Received

TABLE = "table-3"


def publisher_for(broker: Mosquitto, state_dir: Path, **options: object) -> FleetPublisher:
    fleet = FleetConfig(broker=broker.url, table=TABLE, keepalive_s=5)
    return FleetPublisher(fleet, HealthReading(state_dir, 0.0), **options)  # type: ignore[arg-type]


def play_random_game(vt: VirtualTable, rng: random.Random) -> None:
    """Clues of 1 and touches of random covered-not cards until the game is over."""
    while not vt.table.state.is_over:
        state = vt.table.state
        if state.phase is Phase.CLUE:
            announce(vt, detents=0)
        else:
            vt.press_pad(rng.choice([c for c in ALL_COORDS if c not in state.covered]))


def assert_keeps_the_key(messages: list[Received], key: Key, covered: set[str]) -> None:
    """No message carries the key or an identity of a card not covered at the game's end."""
    assert messages
    for message in messages:
        text = message.payload.decode()
        assert str(key) not in text, message
        assert "key" not in json.loads(text), message
        if message.topic.endswith("/game"):
            game = message.json()
            # Identities are told only for covered cards, and truly.
            assert set(game["covered"]) <= covered, message
            for coord, identity in game["covered"].items():
                assert key[next(c for c in ALL_COORDS if str(c) == coord)].value == identity


def test_a_played_game_arrives_public_and_never_with_the_key(
    broker: Mosquitto, listener: Listener, tmp_path: Path
) -> None:
    rng = random.Random(14)
    with (
        VirtualTable(STILL, tmp_path / "state", rng=rng) as vt,
        publisher_for(broker, tmp_path) as publisher,
    ):
        publisher.show(vt.table.state, vt.table.match_score)
        vt.table.observer = publisher
        assert publisher.wait_connected(10)
        play_random_game(vt, rng)
        final = vt.table.state
        topic = f"codenames/{TABLE}/game"
        assert listener.wait_for(lambda _: (listener.latest(topic) or {}).get("phase") == "over"), (
            listener.messages
        )
        game = listener.latest(topic)
        assert game["schema"] == SCHEMA and game["table"] == TABLE
        timed = ("schema", "table", "at", "last", "started_at")
        assert {k: v for k, v in game.items() if k not in timed} == {
            k: v for k, v in public_game(final, vt.table.match_score).items() if k not in timed
        }
        applied = len(vt.table.game.applied)
        assert listener.wait_for(lambda _: len(listener.on(f"codenames/{TABLE}/events")) == applied)
        events = [m.json() for m in listener.on(f"codenames/{TABLE}/events")]
        assert [e["action"] for e in events] == [str(a) for a in vt.table.game.applied]
        # The game's length runs from its first clue to its last action, as the events say.
        assert events[0]["action"].startswith("clue")
        assert game["started_at"] == events[0]["at"]
        last = events[-1]
        assert game["last"] == {"action": last["action"], "words": last["words"], "at": last["at"]}
        assert not any(m.retained for m in listener.on(f"codenames/{TABLE}/events"))
        assert publisher.events_dropped == 0
        status = f"codenames/{TABLE}/status"
        assert listener.wait_for(lambda _: listener.latest(status)["status"] == "online")
        key = final.key
        covered = {str(c) for c in final.covered}
    assert listener.wait_for(
        lambda _: listener.latest(f"codenames/{TABLE}/status")["status"] == "offline"
    )
    assert_keeps_the_key(listener.messages, key, covered)


def test_health_reports_a_stuck_pad_and_the_system(
    broker: Mosquitto, listener: Listener, tmp_path: Path
) -> None:
    config = replace(STILL, inputs=replace(STILL.inputs, stuck_after_s=1.0))
    with (
        VirtualTable(config, tmp_path / "state", rng=random.Random(1)) as vt,
        publisher_for(broker, tmp_path) as publisher,
    ):
        vt.table.observer = publisher
        pad = ALL_COORDS[7]
        vt.circuit.press_pad(pad)
        vt.wait(2.0)
        topic = f"codenames/{TABLE}/health"
        assert listener.wait_for(
            lambda _: (listener.latest(topic) or {}).get("stuck_pads") == [str(pad)]
        ), listener.messages
        health = listener.latest(topic)
        assert health["saving"] is True and health["not_saving"] is None
        assert health["oled_up"] is True
        assert health["free_disk_bytes"] > 0
        assert health["version"]
        vt.circuit.release_pad(pad)
        vt.wait(1.0)
        assert listener.wait_for(lambda _: listener.latest(topic)["stuck_pads"] == [])


def test_a_full_queue_drops_and_counts_events_without_blocking(tmp_path: Path) -> None:
    # No broker listens there: nothing is sent, the game thread must not wait for it.
    fleet = FleetConfig(broker="mqtt://127.0.0.1:9", table=TABLE)
    publisher = FleetPublisher(fleet, HealthReading(tmp_path, 0.0), queue_size=2)
    with VirtualTable(STILL, tmp_path / "state", rng=random.Random(2)) as vt:
        vt.table.observer = publisher  # not started: the queue only fills
        play_random_game(vt, random.Random(2))
        played = len(vt.table.game.applied)
    assert played >= 3
    assert publisher.events_dropped == played - 2
    publisher.close()


def test_health_says_when_the_table_stops_and_starts_saving_without_an_action(
    broker: Mosquitto, listener: Listener, tmp_path: Path
) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("not a directory")
    fleet = FleetConfig(broker=broker.url, table=TABLE)
    topic = f"codenames/{TABLE}/health"
    with (
        VirtualTable(STILL, blocker, rng=random.Random(5)) as vt,
        reporting(fleet, vt.table, tmp_path),
    ):
        assert listener.wait_for(
            lambda _: (listener.latest(topic) or {}).get("not_saving") == "I/O error"
        ), listener.messages
        assert listener.latest(topic)["saving"] is False
        blocker.unlink()
        vt.wait(31.0)  # the store's longest back-off: it catches up on a tick
        assert vt.table.saving
        assert listener.wait_for(lambda _: listener.latest(topic)["saving"] is True)
        assert not listener.on(f"codenames/{TABLE}/events")


@pytest.mark.parametrize(
    ("backend", "fault", "led_off"),
    [("spi", LedFault.NO_ACCESS, "no-access"), ("ws281x", None, None)],
)
def test_health_names_the_led_backend_and_why_the_key_is_off(
    broker: Mosquitto,
    listener: Listener,
    tmp_path: Path,
    *,
    backend: str,
    fault: LedFault | None,
    led_off: str | None,
) -> None:
    fleet = FleetConfig(broker=broker.url, table=TABLE)
    topic = f"codenames/{TABLE}/health"
    with (
        VirtualTable(STILL, tmp_path / "state", rng=random.Random(5), led_fault=fault) as vt,
        reporting(fleet, vt.table, tmp_path, led_backend=backend),
    ):
        assert listener.wait_for(lambda _: listener.latest(topic) is not None)
        health = listener.latest(topic)
    assert (health["led_backend"], health["led_off"]) == (backend, led_off)


def test_health_follows_the_led_supply_and_names_it_why_the_key_is_off(
    broker: Mosquitto, listener: Listener, tmp_path: Path
) -> None:
    fleet = FleetConfig(broker=broker.url, table=TABLE)
    topic = f"codenames/{TABLE}/health"
    with (
        VirtualTable(STILL, tmp_path / "state", rng=random.Random(5)) as vt,
        reporting(fleet, vt.table, tmp_path, led_backend="spi"),
    ):
        assert vt.led_supply is not None
        assert listener.wait_for(lambda _: listener.latest(topic) is not None)
        health = listener.latest(topic)
        assert (health["led_supply"], health["led_off"]) == (True, None)
        vt.led_supply.cut()
        vt.wait(1.0)  # the sense settles, the table takes the news
        assert vt.table.led_supply is False
        assert listener.wait_for(lambda _: listener.latest(topic)["led_supply"] is False)
        assert listener.latest(topic)["led_off"] == "no-supply"
        vt.led_supply.restore()
        vt.wait(1.0)
        assert listener.wait_for(lambda _: listener.latest(topic)["led_supply"] is True)
        assert listener.latest(topic)["led_off"] is None
