"""The fleet's faults: the broker restarted mid-game, a table killed, a wrong password or CA.
The table always plays on; the broker and the café learn what they can."""

from __future__ import annotations

import logging
import random
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.cafe.model import Cafe
from firmware.fleet.health import HealthReading
from firmware.fleet.messages import public_game
from firmware.fleet.publisher import FleetPublisher
from firmware.table.config import FleetConfig
from firmware.virtual.table import VirtualTable

from ..service.test_virtual_service import _lasting_parent
from ..table_scripts import STILL, announce
from .broker_helpers import WAIT_S, Listener, Mosquitto, until
from .test_publisher import TABLE, play_random_game, publisher_for

REPO = Path(__file__).parents[2]


def test_a_broker_restarted_mid_game_gets_the_table_back(
    broker: Mosquitto, listener: Listener, tmp_path: Path
) -> None:
    with (
        VirtualTable(STILL, tmp_path / "state", rng=random.Random(4)) as vt,
        publisher_for(broker, tmp_path) as publisher,
    ):
        vt.table.observer = publisher
        assert publisher.wait_connected(WAIT_S)
        announce(vt, detents=1)
        assert until(lambda: publisher.events_sent == 1)
        broker.stop()
        assert until(lambda: not publisher.connected)
        # While the broker is away the table plays on, and its events are counted as dropped.
        play_random_game(vt, random.Random(5))
        played_offline = len(vt.table.game.applied) - 1
        # The publisher's thread has taken every event from its queue (and dropped it).
        assert until(lambda: publisher.events_dropped == played_offline)
        broker.start()  # the same port; it forgot every retained message
        assert publisher.wait_connected(WAIT_S)
        game = f"codenames/{TABLE}/game"
        assert listener.wait_for(lambda _: listener.latest(game) is not None), listener.messages
        # The latest game is sent again on reconnection: the view sees the table as it is.
        assert until(
            lambda: (
                {
                    k: v
                    for k, v in listener.latest(game).items()
                    if k not in ("schema", "table", "at", "last", "started_at")
                }
                == {
                    k: v
                    for k, v in public_game(vt.table.state, vt.table.match_score).items()
                    if k not in ("last", "started_at")
                }
                and listener.latest(game)["last"]["action"] == str(vt.table.game.applied[-1])
            )
        )
        health = f"codenames/{TABLE}/health"
        assert listener.wait_for(
            lambda _: (listener.latest(health) or {}).get("events_dropped") == played_offline
        )
        status = f"codenames/{TABLE}/status"
        assert listener.wait_for(lambda _: listener.latest(status)["status"] == "online")
        # On the table, nothing was lost or doubled.
        assert vt.table.state.is_over
        assert publisher.events_sent == 1
        assert publisher.events_dropped == played_offline


@pytest.fixture
def lasting_dir() -> Iterator[Path]:
    """A folder that `run` accepts for its games (not under /tmp), removed after the test."""
    folder = Path(tempfile.mkdtemp(prefix="test-fleet-", dir=_lasting_parent()))
    yield folder
    subprocess.run(["rm", "-rf", str(folder)], check=True)


def test_a_killed_table_is_offline_within_its_keepalive(
    broker: Mosquitto, listener: Listener, lasting_dir: Path
) -> None:
    config = lasting_dir / "config.toml"
    config.write_text(f'[fleet]\nbroker = "{broker.url}"\ntable = "killed"\nkeepalive_s = 2\n')
    command = [sys.executable, "-m", "firmware.cli", "run", "--virtual", "--config", str(config)]
    command += ["--state-dir", str(lasting_dir / "state")]
    status = "codenames/killed/status"
    with subprocess.Popen(command, cwd=REPO, stderr=subprocess.DEVNULL) as table:
        try:
            assert listener.wait_for(
                lambda _: (listener.latest(status) or {}).get("status") == "online"
            )
            game = "codenames/killed/game"
            assert listener.wait_for(lambda _: listener.latest(game) is not None)
            assert listener.latest(game)["phase"] == "clue"
        finally:
            table.send_signal(signal.SIGKILL)
            table.wait()
    # The broker gives the last will after 1.5 keep-alives without a word: 3 s here.
    assert listener.wait_for(lambda _: listener.latest(status)["status"] == "offline", 4.5)
    cafe = Cafe()
    for message in listener.messages:
        cafe.receive(message.topic, message.payload)
    cafe.broker(True, "connected")
    # The broker's last will: the table vanished, it did not stop.
    assert cafe.tables["killed"].cells(cafe.catalog, 0.0)["online"].endswith(", vanished")


def test_a_wrong_password_is_said_once_and_the_table_plays_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "broker"
    folder.mkdir()
    broker = Mosquitto(folder, users={TABLE: "right"}).start()
    secret = tmp_path / "password"
    secret.write_text("wrong\n")
    fleet = FleetConfig(broker=broker.url, table=TABLE, username=TABLE, password_file=secret)
    caplog.set_level(logging.WARNING, logger="firmware.fleet.publisher")
    try:
        with (
            VirtualTable(STILL, tmp_path / "state", rng=random.Random(6)) as vt,
            FleetPublisher(fleet, HealthReading(tmp_path, 0.0)) as publisher,
        ):
            vt.table.observer = publisher
            assert until(lambda: "refused" in (publisher.problem or ""))
            play_random_game(vt, random.Random(7))
            assert vt.table.state.is_over
            assert not publisher.connected
    finally:
        broker.stop()
    refused = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(refused) == 1
    assert refused[0].startswith(f"fleet: the broker {broker.url} refused table {TABLE}: ")
    assert "the table plays on" in refused[0]


@pytest.mark.parametrize(
    ("broker", "extra", "problem"),
    [
        ("mqtts://127.0.0.1:1", "ca", "not reporting: CA file "),
        ("mqtt://127.0.0.1:1", "", "cannot reach the broker mqtt://127.0.0.1:1: "),
    ],
)
def test_a_bad_ca_or_an_absent_broker_is_said_and_the_table_plays_on(
    broker: str, extra: str, problem: str, tmp_path: Path
) -> None:
    ca = tmp_path / "ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\nnot a certificate\n-----END CERTIFICATE-----\n")
    fleet = FleetConfig(broker=broker, table=TABLE, ca_file=ca if extra else None)
    with (
        VirtualTable(STILL, tmp_path / "state", rng=random.Random(8)) as vt,
        FleetPublisher(fleet, HealthReading(tmp_path, 0.0)) as publisher,
    ):
        vt.table.observer = publisher
        assert until(lambda: publisher.problem is not None)
        assert publisher.problem is not None and publisher.problem.startswith(problem)
        play_random_game(vt, random.Random(9))
        assert vt.table.state.is_over
