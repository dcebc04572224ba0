"""`[fleet]` in the config: read, checked with one-line errors naming the key, optional."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.fleet.broker import BrokerAddress, BrokerError, Credentials
from firmware.table.config import ConfigError, FleetConfig, parse_config


def test_without_a_fleet_section_the_table_reports_to_none() -> None:
    assert parse_config({}, "c.toml").fleet is None


def test_the_fleet_section_is_read() -> None:
    fleet = {
        "broker": "mqtts://broker.cafe:8883",
        "table": "table-3",
        "ca_file": "/etc/ssl/cafe.pem",
        "username": "table3",
        "password_file": "/run/credentials/codenames-table.service/mqtt",
        "keepalive_s": 20,
    }
    assert parse_config({"fleet": fleet}, "c.toml").fleet == FleetConfig(
        broker="mqtts://broker.cafe:8883",
        table="table-3",
        ca_file=Path("/etc/ssl/cafe.pem"),
        username="table3",
        password_file=Path("/run/credentials/codenames-table.service/mqtt"),
        keepalive_s=20,
    )


@pytest.mark.parametrize(
    ("fleet", "message"),
    [
        ({"table": "t"}, "c.toml: fleet.broker: required when [fleet] is set"),
        ({"broker": "mqtt://h"}, "c.toml: fleet.table: required when [fleet] is set"),
        ({"broker": 1883, "table": "t"}, "c.toml: fleet.broker: expected a text"),
        ({"broker": "mqtt://h", "table": "a/#"}, "c.toml: fleet.table: expected 1 to 64"),
        ({"broker": "mqtt://h", "table": "t", "password": "x"}, "fleet.password: unknown key"),
        ({"broker": "mqtt://h", "table": "t", "keepalive_s": 1}, "fleet.keepalive_s: expected"),
    ],
)
def test_a_bad_fleet_section_is_named(fleet: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config({"fleet": fleet}, "c.toml")
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("url", "address"),
    [
        ("mqtt://cafe", BrokerAddress("cafe", 1883, tls=False)),
        ("mqtts://cafe", BrokerAddress("cafe", 8883, tls=True)),
        ("mqtt://127.0.0.1:1999", BrokerAddress("127.0.0.1", 1999, tls=False)),
        ("mqtt://[::1]:1999", BrokerAddress("::1", 1999, tls=False)),
    ],
)
def test_broker_addresses(url: str, address: BrokerAddress) -> None:
    assert BrokerAddress.parse(url) == address
    assert BrokerAddress.parse(str(address)) == address


@pytest.mark.parametrize("url", ["mqtt://", "tcp://cafe:1", "mqtt://cafe:0", "mqtt://cafe:70000"])
def test_bad_broker_addresses(url: str) -> None:
    with pytest.raises(BrokerError, match="mqtt"):
        BrokerAddress.parse(url)


def test_the_password_is_the_first_line_of_its_file(tmp_path: Path) -> None:
    secret = tmp_path / "mqtt"
    secret.write_text("s3cret\n")
    assert Credentials(username="t", password_file=secret).password() == "s3cret"
    with pytest.raises(BrokerError, match=str(tmp_path / "missing")):
        Credentials(username="t", password_file=tmp_path / "missing").password()


def test_the_example_config_fleet_section_reads_once_uncommented() -> None:
    import tomllib

    example = (Path(__file__).parents[2] / "config.example.toml").read_text()
    block = example[example.index("# [fleet]") :]
    lines = [line.removeprefix("# ") for line in block.splitlines() if line.startswith("# ")]
    fleet = parse_config(tomllib.loads("\n".join(lines)), "example").fleet
    assert fleet is not None and fleet.table == "table-3" and fleet.keepalive_s == 15


def test_without_a_fleet_the_table_imports_no_mqtt() -> None:
    import subprocess
    import sys

    code = (
        "import sys, firmware.service.run, firmware.service.virtual_service, firmware.cli.main\n"
        "firmware.cli.main.build_parser()\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'paho', 'aiohttp', 'textual'}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_a_broker_port_out_of_range_stops_the_table_with_one_line(tmp_path: Path) -> None:
    import random

    from firmware.errors import UsageError
    from firmware.fleet.attach import reporting
    from firmware.table.config import TableConfig
    from firmware.virtual.table import VirtualTable

    fleet = FleetConfig(broker="mqtt://cafe:99999", table="t")
    with VirtualTable(TableConfig(), tmp_path, rng=random.Random(1)) as vt:
        expected = r"^fleet.broker: 'mqtt://cafe:99999': port 99999 is not 1-65535"
        with pytest.raises(UsageError, match=expected), reporting(fleet, vt.table, tmp_path):
            pass
        assert vt.table.observer is None
