"""`codenames-table selftest --fleet` against a real Mosquitto, plain and with TLS and a password
file: one line and exit 0 when the broker accepts the table, the publisher's own line and exit 1
when it does not (wrong password, a CA that did not sign the broker, nothing listening, no
answer), exit 2 without `[fleet]`; and beside a running table it sends nothing, takes nothing
over and leaves quietly."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.publish
import pytest

from firmware.fleet.check import check_client_id, check_fleet
from firmware.fleet.health import HealthReading
from firmware.fleet.publisher import FleetPublisher
from firmware.table.config import FleetConfig
from tools import mosquitto

from ..conftest import Cli
from .broker_helpers import WAIT_S, Listener, Mosquitto, until
from .certificates import ServerCertificate, certificate_authority, server_certificate
from .test_publisher import TABLE
from .test_tls import PASSWORDS, password_file


@pytest.fixture(params=["plain", "tls"])
def secured(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Mosquitto, Path]]:
    """A Mosquitto with a password for the table, plain or speaking TLS only, and the CA that
    signed its certificate (made but unused when plain)."""
    certificates: ServerCertificate = server_certificate(tmp_path / "tls")
    folder = tmp_path / "broker"
    folder.mkdir()
    tls = (certificates.certificate, certificates.key) if request.param == "tls" else None
    broker = Mosquitto(folder, users=PASSWORDS, tls=tls).start()
    yield broker, certificates.ca
    broker.stop()


def config_file(folder: Path, url: str, **keys: str | Path) -> Path:
    """A config with `[fleet]` for `TABLE` at `url`, and `keys` besides."""
    lines = ["[fleet]", f'broker = "{url}"', f'table = "{TABLE}"']
    lines += [f'{key} = "{value}"' for key, value in keys.items()]
    config = folder / "config.toml"
    config.write_text("\n".join(lines) + "\n")
    return config


def secured_config(broker: Mosquitto, ca: Path, folder: Path, password: str) -> Path:
    secret = password_file(folder, TABLE, password)
    keys: dict[str, str | Path] = {"username": TABLE, "password_file": secret}
    if broker.tls is not None:
        keys["ca_file"] = ca
    return config_file(folder, broker.url, **keys)


def test_a_broker_that_accepts_the_table_is_one_line_and_exit_0(
    cli: Cli, secured: tuple[Mosquitto, Path], tmp_path: Path
) -> None:
    broker, ca = secured
    config = secured_config(broker, ca, tmp_path, PASSWORDS[TABLE])
    result = cli("selftest", "--fleet", "--config", config)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == f"fleet: connected to {broker.url} as {TABLE}\n"


def test_a_wrong_password_is_the_refusal_and_exit_1(
    cli: Cli, secured: tuple[Mosquitto, Path], tmp_path: Path
) -> None:
    broker, ca = secured
    config = secured_config(broker, ca, tmp_path, "wrong")
    result = cli("selftest", "--fleet", "--config", config)
    assert result.returncode == 1
    assert (
        result.stdout == f"fleet: the broker {broker.url} refused table {TABLE}: Not authorized\n"
    )


def test_a_ca_that_did_not_sign_the_broker_is_not_trusted(cli: Cli, tmp_path: Path) -> None:
    certificates = server_certificate(tmp_path / "tls")
    folder = tmp_path / "broker"
    folder.mkdir()
    tls = (certificates.certificate, certificates.key)
    broker = Mosquitto(folder, users=PASSWORDS, tls=tls).start()
    other, _ = certificate_authority(tmp_path / "other", "another-ca")
    try:
        config = secured_config(broker, other, tmp_path, PASSWORDS[TABLE])
        result = cli("selftest", "--fleet", "--config", config)
    finally:
        broker.stop()
    assert result.returncode == 1
    line = result.stdout.removesuffix("\n")
    assert line.startswith(f"fleet: the broker {broker.url} is not trusted: "), line
    assert line.endswith(f"(CA file {other})") and "\n" not in line


@pytest.mark.parametrize("scheme", ["mqtt", "mqtts"])
def test_nothing_listening_is_unreachable(cli: Cli, scheme: str, tmp_path: Path) -> None:
    port = mosquitto.free_port()
    config = config_file(tmp_path, f"{scheme}://127.0.0.1:{port}")
    result = cli("selftest", "--fleet", "--config", config)
    assert result.returncode == 1
    line = result.stdout.removesuffix("\n")
    assert line.startswith(f"fleet: cannot reach the broker {scheme}://127.0.0.1:{port}: ")
    assert "refused" in line.lower() and "\n" not in line


def test_a_broker_that_never_answers_times_out() -> None:
    # The kernel accepts the connection into the backlog; nobody reads the CONNECT.
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        url = f"mqtt://127.0.0.1:{silent.getsockname()[1]}"
        found = check_fleet(FleetConfig(broker=url, table=TABLE), wait_s=0.2)
    assert not found.connected
    assert found.line == f"fleet: the broker {url} did not answer within 0.2 s (timed out)"


def test_a_connection_closed_without_an_answer_is_said() -> None:
    with socket.socket() as closing:
        closing.bind(("127.0.0.1", 0))
        closing.listen()

        def close_at_once() -> None:
            connection, _ = closing.accept()
            connection.close()

        closer = threading.Thread(target=close_at_once)
        closer.start()
        url = f"mqtt://127.0.0.1:{closing.getsockname()[1]}"
        found = check_fleet(FleetConfig(broker=url, table=TABLE), wait_s=WAIT_S)
        closer.join()
    assert not found.connected
    assert found.line == f"fleet: the broker {url} closed the connection without answering"


def test_a_password_file_that_cannot_be_read_is_the_publishers_line(
    cli: Cli, tmp_path: Path
) -> None:
    # As when the unit's credential is gone: the service stopped, or the check run without sudo.
    absent = tmp_path / "credentials" / "mqtt"
    url = f"mqtt://127.0.0.1:{mosquitto.free_port()}"
    config = config_file(tmp_path, url, username=TABLE, password_file=absent)
    result = cli("selftest", "--fleet", "--config", config)
    assert result.returncode == 1
    assert result.stdout.startswith(f"fleet: not reporting: {absent}: cannot read: ")
    assert result.stdout.count("\n") == 1


def test_a_port_out_of_range_is_a_usage_error(cli: Cli, tmp_path: Path) -> None:
    config = config_file(tmp_path, "mqtt://127.0.0.1:99999")
    result = cli("selftest", "--fleet", "--config", config)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith(f"codenames-table selftest: {config}: fleet.broker: ")
    assert "port 99999 is not 1-65535" in result.stderr and result.stderr.count("\n") == 1


def test_a_config_without_fleet_is_a_usage_error(cli: Cli, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[table]\nmode = "coop"\n')
    result = cli("selftest", "--fleet", "--config", config)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        f"codenames-table selftest: {config}: no [fleet] in the config: no broker to check\n"
    )


def test_the_fleet_check_and_the_calibration_are_one_at_a_time(cli: Cli) -> None:
    result = cli("selftest", "--fleet", "--calibrate")
    assert result.returncode == 2
    assert "not allowed with argument" in result.stderr


def test_beside_a_running_table_the_check_sends_nothing_and_leaves_quietly(
    cli: Cli, broker: Mosquitto, listener: Listener, tmp_path: Path
) -> None:
    # The table's own health stays as it is (a fixed temperature, no period within the test):
    # whatever else arrives comes from the check.
    zone = tmp_path / "temp"
    zone.write_text("45000\n")
    health = HealthReading(tmp_path, 0.0, zone=zone)
    fleet = FleetConfig(broker=broker.url, table=TABLE)
    with FleetPublisher(fleet, health, health_every_s=3600.0) as publisher:
        assert publisher.wait_connected(WAIT_S)
        # Settled once a health follows the status `online` (a first health may come before it).
        topics = [f"codenames/{TABLE}/status", f"codenames/{TABLE}/health"]
        assert listener.wait_for(lambda messages: [m.topic for m in messages[-2:]] == topics), (
            listener.messages
        )
        assert listener.latest(topics[0])["status"] == "online"
        before = len(listener.messages)
        result = cli("selftest", "--fleet", "--config", config_file(tmp_path, broker.url))
        assert result.returncode == 0, result
        log = broker.folder / "mosquitto.log"
        check = check_client_id(fleet)
        # The broker has handled every packet of the check once it logs its DISCONNECT.
        assert until(lambda: f"Client {check} disconnected." in log.read_text())
        # Anything the check had sent would reach the listener before this mark.
        mark = "codenames/zz-mark/events"
        paho.mqtt.publish.single(mark, b"{}", hostname="127.0.0.1", port=broker.port)
        assert listener.wait_for(lambda _: bool(listener.on(mark)))
        assert [m.topic for m in listener.messages[before:]] == [mark]
        # The table kept its session: no takeover, no last will, still online.
        assert publisher.connected and publisher.problem is None
        text = log.read_text()
        assert f"Client {check} closed its connection" not in text
        assert "already connected, closing old connection" not in text
