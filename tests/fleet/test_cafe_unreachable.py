"""The café with nothing at its broker's address says so, in its language, instead of
"connecting" for ever."""

from __future__ import annotations

import socket
import threading

import pytest

from firmware.cafe.subscriber import Subscriber
from firmware.fleet.broker import BrokerAddress, Credentials
from firmware.table.i18n import translations

from .broker_helpers import WAIT_S

UNREACHABLE = {
    "en": "cannot reach the broker mqtt://127.0.0.1:{port}; trying again",
    "es": "no se puede conectar con el broker mqtt://127.0.0.1:{port}; reintentando",
    "pt": "não é possível ligar ao broker mqtt://127.0.0.1:{port}; a tentar de novo",
    "it": "impossibile connettersi al broker mqtt://127.0.0.1:{port}; nuovo tentativo in corso",
}


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on: bound by the system, then let go."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize("language", ["en", "pt"])
def test_a_broker_nobody_answers_for_is_said_to_be_unreachable(language: str) -> None:
    port = closed_port()
    states: list[str] = []
    said = threading.Event()

    def hear(up: bool, text: str) -> None:
        assert not up
        states.append(text)
        said.set()

    subscriber = Subscriber(
        BrokerAddress.parse(f"mqtt://127.0.0.1:{port}"),
        Credentials(),
        lambda topic, payload: None,
        hear,
        translations(language),
    )
    subscriber.start()
    try:
        assert said.wait(WAIT_S), "the café said nothing of a broker it cannot reach"
    finally:
        subscriber.close()
    assert states[0] == UNREACHABLE[language].format(port=port)
