"""What the fleet reads from outside. Broker addresses: one validation for `run
--check-config`, `run`, `selftest --fleet` and the café, each refusal one line that never shows
a password, a password sent over plain `mqtt://` warned about. A message's schema version: the
whole number only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware.cli.main import main
from firmware.fleet.broker import BrokerAddress, BrokerError, plain_password_warning, redact
from firmware.fleet.publisher import open_connection, table_client
from firmware.fleet.schema import is_schema
from firmware.table.config import FleetConfig

SECRET = "s3cret-Pw"
BAD = [
    "mqtt://.",
    "mqtt://a..b",
    "mqtt://" + "a" * 64 + ".cafe",
    "mqtt://cafe:0",
    "mqtt://cafe:99999",
    "mqtt://café.local",
    "mqtt://a:b:c",
    "mqtt://-cafe",
    "mqtt://[::1",
    "mqtt://[not:an:address]:1883",
    "mqtt://cafe:",
    "mqtt://cafe:+1",
    f"mqtt://table3:{SECRET}@cafe",
    f"mqtts://{SECRET}@cafe:8883",
]
GOOD = [
    ("mqtt://cafe", BrokerAddress("cafe", 1883, tls=False)),
    ("mqtts://broker.cafe.example:8883", BrokerAddress("broker.cafe.example", 8883, tls=True)),
    ("mqtt://" + "a" * 63 + ".cafe", BrokerAddress("a" * 63 + ".cafe", 1883, tls=False)),
    ("mqtt://10.0.0.2:65535", BrokerAddress("10.0.0.2", 65535, tls=False)),
    ("mqtt://[fe80::1]:1", BrokerAddress("fe80::1", 1, tls=False)),
]


@pytest.mark.parametrize("url", BAD)
def test_a_bad_address_is_one_line_without_its_password(url: str) -> None:
    with pytest.raises(BrokerError) as caught:
        BrokerAddress.parse(url)
    assert "\n" not in str(caught.value) and SECRET not in str(caught.value)


@pytest.mark.parametrize(("url", "address"), GOOD)
def test_a_good_address_is_read(url: str, address: BrokerAddress) -> None:
    assert BrokerAddress.parse(url) == address


def test_a_password_in_any_line_is_redacted() -> None:
    line = f"cannot use 'mqtt://table3:{SECRET}@cafe:1883' nor mqtts://u:{SECRET}@[::1]"
    assert SECRET not in redact(line)
    assert "table3" in redact(line) and "cafe:1883" in redact(line)


def config_file(folder: Path, url: str, *extra: str) -> Path:
    config = folder / "config.toml"
    config.write_text("\n".join(["[fleet]", f"broker = {url!r}", 'table = "t1"', *extra]) + "\n")
    return config


@pytest.mark.parametrize("url", BAD)
def test_check_config_and_run_refuse_the_same_addresses_in_one_line(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = config_file(tmp_path, url)
    # A folder `run` refuses too (under /tmp): were the address let by, it would still stop.
    state = ["--state-dir", str(tmp_path / "state")]
    for argv in (
        ["run", "--check-config", "--config", str(config), *state],
        ["run", "--virtual", "--config", str(config), *state],
        ["selftest", "--fleet", "--config", str(config)],
    ):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "fleet.broker: " in err, err
        assert SECRET not in err


@pytest.mark.parametrize(("url", "address"), GOOD)
def test_check_config_accepts_what_run_accepts(
    url: str, address: BrokerAddress, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = config_file(tmp_path, url)
    # The default state folder: --check-config only checks where it is.
    assert main(["run", "--check-config", "--config", str(config)]) == 0
    assert "config OK" in capsys.readouterr().out


@pytest.mark.parametrize("url", BAD)
def test_the_cafe_refuses_a_bad_address_without_its_password(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cafe", "--broker", url]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and SECRET not in err


def test_a_password_over_plain_mqtt_is_warned_about_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = tmp_path / "mqtt"
    secret.write_text(SECRET + "\n")
    login = ['username = "t1"', f"password_file = {str(secret)!r}"]
    plain = config_file(tmp_path, "mqtt://cafe", *login)
    assert main(["run", "--check-config", "--config", str(plain)]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "mqtts://" in err and SECRET not in err
    secured = config_file(tmp_path, "mqtts://cafe", *login)
    assert main(["run", "--check-config", "--config", str(secured)]) == 0
    assert capsys.readouterr().err == ""
    assert plain_password_warning(BrokerAddress.parse("mqtt://cafe"), None) is None


def test_the_fleet_thread_says_why_an_address_cannot_be_reached_without_dying() -> None:
    # An address no validation let by, handed to the connection all the same (a label over the
    # 63 characters DNS allows): one line, not an exception on the fleet's thread.
    fleet = FleetConfig(broker="mqtt://cafe", table="t1")
    address = BrokerAddress("a" * 64, 1883, tls=False)
    problem = open_connection(table_client(fleet, address, "t1"), fleet, address)
    assert problem is not None and problem.startswith("cannot reach the broker ")


@pytest.mark.parametrize(
    ("text", "ours"),
    [("1", True), ("true", False), ("1.0", False), ('"1"', False), ("2", False), ("null", False)],
)
def test_only_the_whole_number_is_this_schema(text: str, ours: bool) -> None:
    assert is_schema(json.loads(text)) is ours
