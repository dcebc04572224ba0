"""`codenames-table retire TABLE` against a real Mosquitto: the table's retained messages are
cleared, so that a café view started afterwards never hears of it, while the other tables stay;
a table that says it is online is refused unless `--force`; with the broker recipe, the table
retires itself with its own password, and the café view's user cannot."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from firmware.cafe.model import Cafe
from firmware.cli.main import main
from firmware.fleet.health import HealthReading
from firmware.fleet.publisher import FleetPublisher
from firmware.fleet.recipe import VIEW_USER
from firmware.table.config import FleetConfig
from firmware.virtual.table import VirtualTable

from ..table_scripts import STILL
from .broker_helpers import WAIT_S, Mosquitto, until
from .recipe_broker import recipe_broker


def retained(
    broker: Mosquitto, ca: Path | None = None, user: tuple[str, str] | None = None
) -> Cafe:
    """A café view started now: every retained message the broker holds, read up to a fence
    (a second subscription's acknowledgement, which the broker sends after the first's retained
    messages)."""
    cafe = Cafe()
    acknowledged: list[int] = []
    done = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
    if ca is not None:
        client.tls_set(ca_certs=str(ca))
    if user is not None:
        client.username_pw_set(*user)
    client.on_message = lambda c, u, message: cafe.receive(message.topic, bytes(message.payload))

    def on_subscribe(*args: object) -> None:
        acknowledged.append(1)
        if len(acknowledged) == 2:
            done.set()

    client.on_subscribe = on_subscribe
    client.on_connect = lambda c, *_: (c.subscribe("codenames/#", 1), c.subscribe("fence/x", 0))
    client.connect("127.0.0.1", broker.port, 5)
    client.loop_start()
    try:
        assert done.wait(WAIT_S), "the broker did not acknowledge the subscriptions"
    finally:
        client.disconnect()
        client.loop_stop()
    return cafe


def report(fleet: FleetConfig, folder: Path) -> tuple[VirtualTable, FleetPublisher]:
    """A table reporting to `fleet`'s broker, connected."""
    vt = VirtualTable(STILL, folder / fleet.table, rng=random.Random(3))
    publisher = FleetPublisher(fleet, HealthReading(folder, 0.0)).start()
    publisher.show(vt.table.state, vt.table.match_score)
    vt.table.observer = publisher
    assert publisher.wait_connected(WAIT_S)
    return vt, publisher


def reported(cafe: Cafe) -> set[str]:
    """The tables whose game and health the broker holds."""
    return {table for table, row in cafe.tables.items() if row.game and row.health}


@pytest.fixture
def two_tables(broker: Mosquitto, tmp_path: Path) -> Iterator[FleetPublisher]:
    """table-3, stopped (offline), and table-4, running, on an anonymous broker; yields
    table-4's publisher."""
    tables = [report(FleetConfig(broker.url, name), tmp_path) for name in ("table-3", "table-4")]
    try:
        assert until(lambda: reported(retained(broker)) == {"table-3", "table-4"})
        vt, publisher = tables[0]
        publisher.close()
        vt.close()
        yield tables[1][1]
    finally:
        for vt, publisher in tables:
            publisher.close()
            vt.close()


def test_a_retired_table_leaves_the_view_and_the_others_stay(
    broker: Mosquitto, two_tables: FleetPublisher, capsys: pytest.CaptureFixture[str]
) -> None:
    assert retained(broker).tables["table-3"].online is False
    assert main(["retire", "table-3", "--broker", broker.url]) == 0
    cleared = f"table-3 cleared on {broker.url} (game, health, status)"
    assert capsys.readouterr().out == f"codenames-table retire: {cleared}\n"
    cafe = retained(broker)
    assert "table-3" not in cafe.tables
    assert cafe.tables["table-4"].online is True
    assert cafe.tables["table-4"].game is not None


def test_a_table_online_is_kept_unless_forced(
    broker: Mosquitto, two_tables: FleetPublisher, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["retire", "table-4", "--broker", broker.url]) == 1
    assert capsys.readouterr().err == (
        "codenames-table retire: table-4 says it is online: stop it first, or its next message "
        "brings it back (--force clears it anyway)\n"
    )
    assert retained(broker).tables["table-4"].online is True
    assert main(["retire", "table-4", "--broker", broker.url, "--force"]) == 0
    assert "table-4" not in retained(broker).tables


def test_with_the_recipe_a_table_retires_itself_and_the_view_cannot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with recipe_broker(tmp_path, ("table-1", "table-2")) as (out, broker):
        ca = out / "view" / "cafe-ca.pem"
        view = (VIEW_USER, (out / "view" / "mqtt-password").read_text().strip())
        tables = []
        for table in ("table-1", "table-2"):
            own = out / "tables" / table
            fleet = FleetConfig(
                broker.url, table, own / "cafe-ca.pem", table, own / "mqtt-password"
            )
            tables.append(report(fleet, tmp_path))
        assert until(lambda: reported(retained(broker, ca, view)) == {"table-1", "table-2"})
        for vt, publisher in tables:
            publisher.close()
            vt.close()
        assert main(["retire", "table-1", "--recipe", str(out)]) == 0
        assert set(retained(broker, ca, view).tables) == {"table-2"}
        as_view = ["--broker", broker.url, "--ca-file", str(ca), "--username", VIEW_USER]
        as_view += ["--password-file", str(out / "view" / "mqtt-password")]
        capsys.readouterr()
        assert main(["retire", "table-2", *as_view]) == 1
        assert capsys.readouterr().err == (
            "codenames-table retire: the broker kept codenames/table-2/game, "
            "codenames/table-2/health, codenames/table-2/status: cafe-view may not write there\n"
        )
        assert set(retained(broker, ca, view).tables) == {"table-2"}


def test_an_unknown_table_of_the_recipe_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "recipe"
    assert main(["broker-recipe", "--tables", "2", "--host", "h", "--out", str(folder)]) == 0
    capsys.readouterr()
    assert main(["retire", "table-9", "--recipe", str(folder)]) == 2
    assert capsys.readouterr().err == (
        f"codenames-table retire: --recipe {folder}: has no table 'table-9'\n"
    )
