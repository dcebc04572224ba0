"""Fixtures of the fleet tests: a real Mosquitto and a listener on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .broker_helpers import Listener, Mosquitto


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    """A Mosquitto of this test's own, anonymous, on a free port of 127.0.0.1."""
    folder = tmp_path / "broker"
    folder.mkdir()
    mosquitto = Mosquitto(folder).start()
    yield mosquitto
    mosquitto.stop()


@pytest.fixture
def listener(broker: Mosquitto) -> Iterator[Listener]:
    """Everything published on `codenames/#` of `broker`."""
    listening = Listener(broker)
    yield listening
    listening.close()
