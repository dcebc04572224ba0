"""A broker recipe written for the test and a real Mosquitto run with its config, on a free
port of 127.0.0.1; the tests skip, saying why, where Mosquitto is not installed."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.cli.main import main
from firmware.fleet.recipe import VIEW_USER
from tools import mosquitto

from .broker_helpers import Mosquitto


@contextlib.contextmanager
def recipe_broker(
    tmp_path: Path, tables: tuple[str, ...], added: tuple[str, ...] = ()
) -> Iterator[tuple[Path, Mosquitto]]:
    """The recipe's folder for `tables` on 127.0.0.1, the `added` ones added to it afterwards,
    and its broker, running."""
    if mosquitto.binary() is None:
        pytest.skip("mosquitto is not installed (apt-get install mosquitto; .ci/run does)")
    out, port = tmp_path / "recipe", mosquitto.free_port()
    command = ["broker-recipe", "--host", "127.0.0.1", "--host", "localhost"]
    command += ["--port", str(port), "--out", str(out), "--broker-dir", str(out / "broker")]
    for table in tables:
        command += ["--table", table]
    assert main(command) == 0
    for table in added:
        assert main(["broker-recipe", "--out", str(out), "--add", table]) == 0
    conf = (out / "broker" / "mosquitto.conf").read_text()
    # Here only: on loopback, and as root where the test runs as root (the files are its own).
    conf = conf.replace(f"listener {port}\n", f"listener {port} 127.0.0.1\n")
    conf += "user root\n" if os.geteuid() == 0 else ""
    (tmp_path / "test.conf").write_text(conf)
    process = mosquitto.launch(tmp_path / "test.conf", port, tmp_path / "mosquitto.log")
    broker = Mosquitto(tmp_path, port=port, tls=(Path(), Path()), process=process)
    try:
        yield out, broker
    finally:
        broker.stop()


def secret(out: Path, who: str) -> str:
    """The password the recipe in `out` made for `who`."""
    folder = "view" if who == VIEW_USER else f"tables/{who}"
    return (out / folder / "mqtt-password").read_text().splitlines()[0]
