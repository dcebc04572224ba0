"""The fleet over TLS, against a real Mosquitto with a TLS listener, a password file and a CA
made for the test: a table reports with its CA file, user and password file, and the café reads
it the same way; a wrong CA or a wrong password is one line in the log, and the table plays on
offline."""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.cafe.model import Cafe
from firmware.cafe.subscriber import Subscriber
from firmware.fleet.attach import reporting
from firmware.fleet.broker import BrokerAddress, Credentials
from firmware.fleet.health import HealthReading
from firmware.fleet.publisher import FleetPublisher
from firmware.table.config import FleetConfig
from firmware.virtual.table import VirtualTable

from ..table_scripts import STILL, announce
from .broker_helpers import Listener, Mosquitto, until
from .certificates import ServerCertificate, certificate_authority, server_certificate
from .test_publisher import TABLE, play_random_game

PASSWORDS = {TABLE: "table-secret", "cafe": "counter-secret"}


@pytest.fixture
def certificates(tmp_path: Path) -> ServerCertificate:
    return server_certificate(tmp_path / "tls")


@pytest.fixture
def tls_broker(tmp_path: Path, certificates: ServerCertificate) -> Iterator[Mosquitto]:
    """A Mosquitto speaking only TLS, with a password for the table and one for the café."""
    folder = tmp_path / "broker"
    folder.mkdir()
    tls = (certificates.certificate, certificates.key)
    broker = Mosquitto(folder, users=PASSWORDS, tls=tls).start()
    yield broker
    broker.stop()


def password_file(folder: Path, user: str, password: str) -> Path:
    """A password's file as the unit's credential is: its first line, mode 0600."""
    secret = folder / f"{user}.password"
    secret.write_text(password + "\n")
    secret.chmod(0o600)
    return secret


def test_a_table_reports_over_tls_with_its_password(
    tls_broker: Mosquitto, certificates: ServerCertificate, tmp_path: Path
) -> None:
    assert tls_broker.url.startswith("mqtts://127.0.0.1:")
    fleet = FleetConfig(
        broker=tls_broker.url,
        table=TABLE,
        ca_file=certificates.ca,
        username=TABLE,
        password_file=password_file(tmp_path, TABLE, PASSWORDS[TABLE]),
    )
    listener = Listener(tls_broker, certificates.ca, ("cafe", PASSWORDS["cafe"]))
    heard: list[tuple[str, bytes]] = []
    lock = threading.Lock()

    def keep(topic: str, payload: bytes) -> None:
        with lock:
            heard.append((topic, payload))

    cafe_password = password_file(tmp_path, "cafe", PASSWORDS["cafe"])
    credentials = Credentials(certificates.ca, "cafe", cafe_password)
    states: list[str] = []
    subscriber = Subscriber(
        BrokerAddress.parse(tls_broker.url), credentials, keep, lambda up, text: states.append(text)
    )
    subscriber.start()
    try:
        with (
            VirtualTable(STILL, tmp_path / "state", rng=random.Random(21)) as vt,
            reporting(fleet, vt.table, tmp_path),
        ):
            status = f"codenames/{TABLE}/status"
            assert listener.wait_for(
                lambda _: (listener.latest(status) or {}).get("status") == "online"
            ), listener.messages
            announce(vt, detents=1)
            events = f"codenames/{TABLE}/events"
            assert listener.wait_for(lambda _: len(listener.on(events)) == 1)
            assert listener.on(events)[0].json()["action"] == "clue 2"
            game = f"codenames/{TABLE}/game"
            assert listener.wait_for(lambda _: listener.latest(game)["clue"] == 2)
            # The café, as `codenames-table cafe --ca-file --username --password-file` runs it.
            assert until(lambda: any(t == events for t, _ in list(heard))), states
    finally:
        subscriber.close()
        listener.close()
    assert any(state.startswith(f"connected to {tls_broker.url}") for state in states)
    cafe = Cafe()
    for topic, payload in heard:
        cafe.receive(topic, payload)
    assert cafe.rejected == 0
    assert cafe.tables[TABLE].cells(cafe.catalog, 0.0)["last"] == "clue 2"
    assert "clue 2" in cafe.tables[TABLE].cells(cafe.catalog, 0.0)["state"]


@pytest.mark.parametrize(
    "case",
    [
        ("another-ca", PASSWORDS[TABLE], "the broker {url} is not trusted: "),
        ("cafe-ca", "wrong", "the broker {url} refused table table-3: Not authorized"),
    ],
    ids=["wrong CA", "wrong password"],
)
def test_a_wrong_ca_or_password_is_one_line_and_the_table_plays_on(
    case: tuple[str, str, str],
    tls_broker: Mosquitto,
    certificates: ServerCertificate,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    trusted, password, problem = case
    ca = certificates.ca
    if trusted != "cafe-ca":
        ca, _ = certificate_authority(tmp_path / "other", trusted)
    fleet = FleetConfig(
        broker=tls_broker.url,
        table=TABLE,
        ca_file=ca,
        username=TABLE,
        password_file=password_file(tmp_path, TABLE, password),
    )
    caplog.set_level(logging.WARNING, logger="firmware.fleet.publisher")
    expected = problem.format(url=tls_broker.url)
    with (
        VirtualTable(STILL, tmp_path / "state", rng=random.Random(22)) as vt,
        FleetPublisher(fleet, HealthReading(tmp_path, 0.0)) as publisher,
    ):
        vt.table.observer = publisher
        assert until(lambda: publisher.problem is not None)
        assert publisher.problem is not None and publisher.problem.startswith(expected)
        play_random_game(vt, random.Random(23))
        assert vt.table.state.is_over
        assert not publisher.connected
    said = [r.getMessage() for r in caplog.records if expected in r.getMessage()]
    assert len(said) == 1 and "\n" not in said[0], said
    assert said[0] == f"fleet: {publisher.problem}; the table plays on"
    if trusted != "cafe-ca":
        assert said[0].endswith(f"(CA file {ca}); the table plays on")
