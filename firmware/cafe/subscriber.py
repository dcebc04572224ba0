"""The café's subscription: every table's topics on the broker, each message handed to a
callback (on paho's thread: the caller passes it on to its own loop without waiting for it), and
the connection's changes in the café's language.

No message can stop paho's thread: whatever a callback raises is logged (at most one line a
minute) and the thread goes on, so the connection the view shows is the one that delivers."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from gettext import GNUTranslations
from typing import Any

from firmware.cafe import texts as t
from firmware.cafe.texts import cafe_text
from firmware.fleet.broker import BrokerAddress, Credentials, new_client
from firmware.fleet.schema import ROOT
from firmware.table.i18n import translations

log = logging.getLogger(__name__)

TOPICS = f"{ROOT}/+/+"


FAULT_LOG_EVERY_S = 60.0
"""At most one log line a minute for messages a callback failed on: a flood of them must not
fill the journal."""


class Subscriber:
    """Subscribed to every table while started; `close` it. `on_state(up, text)` hears of the
    connection (connected, unreachable, refused and why, lost) in `catalog`'s language
    (English without one), always from paho's thread."""

    def __init__(
        self,
        address: BrokerAddress,
        credentials: Credentials,
        on_message: Callable[[str, bytes], object],
        on_state: Callable[[bool, str], object],
        catalog: GNUTranslations | None = None,
    ) -> None:
        self.address = address
        self._catalog = translations("en") if catalog is None else catalog
        self._on_message = on_message
        self._on_state = on_state
        # Back within 10 s of the broker's return: staff are looking at the view.
        self._client = new_client(
            f"codenames-cafe-{os.getpid()}", address, credentials, reconnect_s=(1, 10)
        )
        self._client.on_connect = self._connected
        self._client.on_disconnect = self._disconnected
        self._client.on_connect_fail = self._unreachable
        self._client.on_message = self._received
        # A callback's exception is logged by paho rather than ending its thread.
        self._client.suppress_exceptions = True
        self._closing = False
        self.faults = 0
        """Messages a callback failed on (each logged, at most once a minute)."""
        self._fault_logged = -FAULT_LOG_EVERY_S

    def _received(self, client: Any, userdata: object, message: Any) -> None:
        if self._closing:
            return
        try:
            self._on_message(message.topic, bytes(message.payload))
        except Exception:  # a message must never end paho's thread
            self.faults += 1
            now = time.monotonic()
            if now - self._fault_logged >= FAULT_LOG_EVERY_S:
                self._fault_logged = now
                log.exception("a message could not be taken (%d so far)", self.faults)

    def start(self) -> None:
        """Connect in the background; paho retries until `close`."""
        self._client.connect_async(self.address.host, self.address.port, keepalive=15)
        self._client.loop_start()

    def _connected(
        self, client: Any, userdata: object, flags: object, reason: Any, props: object
    ) -> None:
        if reason.is_failure:
            self._say(False, t.REFUSED, reason=reason)
            return
        # At most once: a view shows each table as it is now, and every (re)subscription brings
        # each table's retained standing again; at QoS 1 the broker would wait for the view's
        # acknowledgements (20 in flight) and a busy chain's news would queue behind them.
        client.subscribe(TOPICS, qos=0)
        self._say(True, t.CONNECTED)

    def _unreachable(self, client: Any, userdata: object) -> None:
        # paho calls this when no connection was made at all (refused, no route, a name that
        # does not resolve), before each of its retries; without it the view says
        # "connecting" for ever.
        if not self._closing:
            self._say(False, t.UNREACHABLE)

    def _disconnected(
        self, client: Any, userdata: object, flags: object, reason: Any, props: object
    ) -> None:
        # Closing: the view that would hear it may be gone (and waiting for it would hang).
        if not self._closing:
            self._say(False, t.LOST, reason=reason)

    def _say(self, up: bool, message: str, **fields: object) -> None:
        self._on_state(up, cafe_text(self._catalog, message, broker=self.address, **fields))

    def close(self) -> None:
        """Disconnect and stop paho's thread. Idempotent."""
        self._closing = True
        self._client.disconnect()
        self._client.loop_stop()
