"""The broker recipe (`codenames-table broker-recipe`) against a real Mosquitto run with its
config: TLS with its CA, a table reports with its own `[fleet]` and password, cannot publish as
another table, the café view reads all and cannot publish at all, anonymous clients and wrong
passwords are refused, and a connection without TLS gets nowhere."""

from __future__ import annotations

import json
import random
import ssl
import threading
import tomllib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from firmware.cli.main import main
from firmware.fleet.attach import reporting
from firmware.fleet.recipe import VIEW_USER
from firmware.table.config import load_config
from firmware.virtual.table import VirtualTable

from ..table_scripts import STILL, announce
from .broker_helpers import WAIT_S, Listener, Mosquitto, until
from .recipe_broker import recipe_broker, secret

TABLES = ("table-1", "table-2")


@pytest.fixture
def recipe(tmp_path: Path) -> Iterator[tuple[Path, Mosquitto]]:
    """A recipe for two tables on 127.0.0.1, and a Mosquitto run with its config."""
    with recipe_broker(tmp_path, TABLES) as made:
        yield made


class Client:
    """A paho client of the test, connected as `user` (None: anonymous), over TLS unless not."""

    def __init__(
        self, broker: Mosquitto, ca: Path, user: str | None, password: str | None, tls: bool = True
    ) -> None:
        self.answer = threading.Event()
        self.refused: object = None
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
        if tls:
            self.client.tls_set(ca_certs=str(ca))
        if user is not None:
            self.client.username_pw_set(user, password)
        self.client.on_connect = self._on_connect
        self.client.connect("127.0.0.1", broker.port, 5)
        self.client.loop_start()
        assert self.answer.wait(WAIT_S), "no answer from the broker"

    def _on_connect(
        self, client: object, userdata: object, flags: object, reason: Any, props: object
    ) -> None:
        self.refused = reason if reason.is_failure else None
        self.answer.set()

    def publish(self, topic: str, payload: bytes) -> None:
        """Publish at QoS 1 and wait for the broker's acknowledgement: it has dealt with it."""
        self.client.publish(topic, payload, qos=1).wait_for_publish(WAIT_S)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_the_recipe_writes_a_clear_structure_per_table(recipe: tuple[Path, Mosquitto]) -> None:
    out, broker = recipe
    manifest = json.loads((out / "recipe.json").read_text())
    assert manifest["broker"]["url"] == f"mqtts://127.0.0.1:{broker.port}"
    assert set(manifest["tables"]) == set(TABLES)
    for table, entry in manifest["tables"].items():
        assert entry["username"] == table
        placed = {f["path"]: f for f in entry["files"]}
        assert set(placed) == {
            "/etc/codenames-table/cafe-ca.pem",
            "/etc/codenames-table/mqtt-password",
        }
        assert placed["/etc/codenames-table/mqtt-password"]["mode"] == "0600"
        for file in entry["files"]:
            assert (out / file["source"]).is_file()
        fleet = tomllib.loads((out / entry["config"]).read_text())["fleet"]
        assert fleet["table"] == fleet["username"] == table
    # Secrets are for their owner only, here; the passwords are hashed on the broker.
    assert (out / "ca" / "cafe-ca.key").stat().st_mode & 0o077 == 0
    hashed = (out / "broker" / "passwords").read_text()
    assert all(secret(out, who) not in hashed for who in (*TABLES, VIEW_USER))
    assert hashed.count(":$7$101$") == len(TABLES) + 1


def test_a_table_reports_with_its_own_fleet_and_the_view_reads_it(
    recipe: tuple[Path, Mosquitto], tmp_path: Path
) -> None:
    out, broker = recipe
    ca = out / "view" / "cafe-ca.pem"
    config = load_config(out / "tables" / "table-1" / "fleet.toml")
    assert config.fleet is not None
    # On the table these files lie in /etc/codenames-table and the credential in /run.
    fleet = replace(
        config.fleet,
        ca_file=out / "tables" / "table-1" / "cafe-ca.pem",
        password_file=out / "tables" / "table-1" / "mqtt-password",
    )
    view = Listener(broker, ca, (VIEW_USER, secret(out, VIEW_USER)))
    try:
        with (
            VirtualTable(STILL, tmp_path / "state", rng=random.Random(5)) as vt,
            reporting(fleet, vt.table, tmp_path),
        ):
            status = "codenames/table-1/status"
            assert view.wait_for(lambda _: (view.latest(status) or {}).get("status") == "online")
            announce(vt, detents=1)
            assert view.wait_for(lambda _: bool(view.on("codenames/table-1/events")))
    finally:
        view.close()


def test_a_table_cannot_publish_as_another_and_the_view_not_at_all(
    recipe: tuple[Path, Mosquitto],
) -> None:
    out, broker = recipe
    ca = out / "view" / "cafe-ca.pem"
    view = Listener(broker, ca, (VIEW_USER, secret(out, VIEW_USER)))
    table = Client(broker, ca, "table-1", secret(out, "table-1"))
    viewer = Client(broker, ca, VIEW_USER, secret(out, VIEW_USER))
    try:
        assert table.refused is None and viewer.refused is None
        table.publish("codenames/table-2/status", b"forged by table-1")
        viewer.publish("codenames/table-1/status", b"forged by the view")
        viewer.publish("elsewhere", b"forged by the view")
        # Acknowledged, so dealt with, before this one is sent: had they been let through,
        # they would reach the listener first.
        table.publish("codenames/table-1/status", b"marker")
        assert view.wait_for(lambda m: any(r.payload == b"marker" for r in m))
        assert [r.payload for r in view.messages] == [b"marker"]
    finally:
        for client in (table, viewer):
            client.close()
        view.close()


@pytest.mark.parametrize("who", ["anonymous", "wrong password", "a table as another"])
def test_the_broker_refuses_who_has_no_password_of_its_own(
    recipe: tuple[Path, Mosquitto], who: str
) -> None:
    out, broker = recipe
    user, password = {
        "anonymous": (None, None),
        "wrong password": ("table-1", "guessed"),
        "a table as another": ("table-2", secret(out, "table-1")),
    }[who]
    client = Client(broker, out / "tables" / "table-1" / "cafe-ca.pem", user, password)
    try:
        assert str(client.refused) == "Not authorized"
    finally:
        client.close()


def test_without_tls_or_with_another_ca_nothing_connects(
    recipe: tuple[Path, Mosquitto], tmp_path: Path
) -> None:
    out, broker = recipe
    with pytest.raises((ssl.SSLError, OSError)):
        # Another café's CA: the broker's certificate is not trusted.
        other = tmp_path / "other"
        assert main(["broker-recipe", "--tables", "1", "--host", "x", "--out", str(other)]) == 0
        Client(broker, other / "ca" / "cafe-ca.pem", "table-1", secret(out, "table-1"))
    plain = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
    answers: list[object] = []
    plain.on_connect = lambda *args: answers.append(args[3])
    plain.username_pw_set("table-1", secret(out, "table-1"))
    plain.connect("127.0.0.1", broker.port, 5)
    # A TLS listener never answers a plain CONNECT: it closes the connection.
    closed = until(lambda: plain.loop(timeout=0.1) != mqtt.MQTT_ERR_SUCCESS)
    assert closed and answers == []
    plain.disconnect()


@pytest.mark.parametrize(
    ("options", "error"),
    [
        (["--table", "table 1"], "'table 1' is not a table id: 1-64 letters, digits, - or _"),
        (["--table", "cafe-view"], "table ids must differ from each other and from 'cafe-view'"),
        (["--tables", "0"], "--tables 0: expected 1 to 1000"),
        (["--tables", "1", "--host", "bad/name"], "'bad/name' is neither a host name nor an IP"),
        (["--tables", "1", "--port", "0"], "port 0 is not 1-65535"),
    ],
)
def test_bad_options_are_one_line_and_write_nothing(
    options: list[str], error: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "recipe"
    command = ["broker-recipe", "--out", str(out), "--host", "cafe.local", *options]
    assert main(command) == 2
    assert capsys.readouterr().err.startswith(f"codenames-table broker-recipe: {error}")
    assert not out.exists()


def test_a_folder_that_holds_anything_is_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "keep.txt").write_text("the café's old recipe")
    assert main(["broker-recipe", "--tables", "2", "--host", "h", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"codenames-table broker-recipe: {tmp_path} is not empty: a recipe is written into a "
        "new folder\n"
    )
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_a_table_added_later_has_its_own_user_and_the_others_keep_theirs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with recipe_broker(tmp_path, ("table-1",), added=("table-2",)) as (out, broker):
        assert "added table-2 to" in capsys.readouterr().out
        manifest = json.loads((out / "recipe.json").read_text())
        assert list(manifest["tables"]) == ["table-1", "table-2"]
        ca = out / "view" / "cafe-ca.pem"
        view = Listener(broker, ca, (VIEW_USER, secret(out, VIEW_USER)))
        first = Client(broker, ca, "table-1", secret(out, "table-1"))
        added = Client(broker, ca, "table-2", secret(out, "table-2"))
        try:
            assert first.refused is None and added.refused is None
            added.publish("codenames/table-1/status", b"forged by table-2")
            added.publish("codenames/table-2/status", b"its own")
            assert view.wait_for(lambda m: any(r.payload == b"its own" for r in m))
            assert [r.payload for r in view.messages] == [b"its own"]
        finally:
            for client in (first, added):
                client.close()
            view.close()


def test_adding_a_table_the_recipe_has_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "recipe"
    assert main(["broker-recipe", "--tables", "2", "--host", "h", "--out", str(out)]) == 0
    before = (out / "broker" / "passwords").read_text()
    assert main(["broker-recipe", "--out", str(out), "--add", "table-2"]) == 2
    assert capsys.readouterr().err == (
        f"codenames-table broker-recipe: table-2: in the recipe in {out} already\n"
    )
    assert (out / "broker" / "passwords").read_text() == before
