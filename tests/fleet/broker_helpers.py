"""A real Mosquitto on a free port of 127.0.0.1 for the fleet tests, and a listener that keeps
what arrives on `codenames/#`. Tests skip, saying why, where Mosquitto is not installed."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from tools import mosquitto

WAIT_S = 30.0
"""Longest a test waits for a message: generous, since on a loaded 2-core machine a process that
publishes can take over 10 s to start; a passing test returns as soon as the message is there."""


def until(check: Callable[[], bool], timeout: float = WAIT_S) -> bool:
    """Wait until `check()` holds (True) or `timeout` (False), looking every 10 ms: for a
    state another process or a library's thread reaches, with no event to wait on."""
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


@dataclass
class Mosquitto:
    """One broker process; `restart` keeps its port (and, without persistence, forgets the
    retained messages, as a crashed broker would)."""

    folder: Path
    port: int = field(default_factory=mosquitto.free_port)
    users: dict[str, str] = field(default_factory=dict)
    tls: tuple[Path, Path] | None = None
    """Its certificate and key: it speaks TLS only (`mqtts://`)."""
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"{'mqtt' if self.tls is None else 'mqtts'}://127.0.0.1:{self.port}"

    def start(self) -> Mosquitto:
        if mosquitto.binary() is None:
            pytest.skip("mosquitto is not installed (apt-get install mosquitto; .ci/run does)")
        try:
            self.process = mosquitto.start(self.folder, self.port, self.users, tls=self.tls)
        except RuntimeError as error:
            pytest.fail(str(error))
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=WAIT_S)
            except subprocess.TimeoutExpired:
                # A loaded machine can leave SIGTERM unserved for long: the test is over, and
                # the broker's own exit is not what it checks.
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


@dataclass(frozen=True)
class Received:
    """One message as a subscriber got it."""

    topic: str
    payload: bytes
    retained: bool

    def json(self) -> Any:
        return json.loads(self.payload)


class Listener:
    """Subscribes to every table's topics and keeps each message, in order; over TLS,
    trusting `ca`, when the broker speaks it, as `user` (name, password) when given."""

    def __init__(
        self, broker: Mosquitto, ca: Path | None = None, user: tuple[str, str] | None = None
    ) -> None:
        self.messages: list[Received] = []
        self._lock = threading.Condition()
        self._client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="test-listener")
        subscribed = threading.Event()
        self._client.on_connect = lambda c, *_: c.subscribe("codenames/#", qos=1)
        self._client.on_subscribe = lambda *_: subscribed.set()
        self._client.on_message = self._on_message
        # Back at once when a test restarts the broker, not after paho's growing back-off.
        self._client.reconnect_delay_set(1, 1)
        if broker.tls is not None:
            self._client.tls_set(ca_certs=None if ca is None else str(ca))
        if user is not None:
            self._client.username_pw_set(*user)
        self._client.connect("127.0.0.1", broker.port, 5)
        self._client.loop_start()
        if not subscribed.wait(WAIT_S):
            pytest.fail("the listener could not subscribe")

    def _on_message(self, client: object, userdata: object, message: mqtt.MQTTMessage) -> None:
        with self._lock:
            self.messages.append(Received(message.topic, bytes(message.payload), message.retain))
            self._lock.notify_all()

    def on(self, topic: str) -> list[Received]:
        with self._lock:
            return [m for m in self.messages if m.topic == topic]

    def wait_for(self, check: Callable[[list[Received]], bool], timeout: float = WAIT_S) -> bool:
        """Wait until `check(all messages so far)` holds (True) or `timeout` (False)."""
        with self._lock:
            return self._lock.wait_for(lambda: check(list(self.messages)), timeout)

    def latest(self, topic: str) -> Any:
        found = self.on(topic)
        return found[-1].json() if found else None

    def close(self) -> None:
        self._client.loop_stop()
        self._client.disconnect()
