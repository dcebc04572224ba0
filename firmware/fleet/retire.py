"""Retiring a table (`codenames-table retire TABLE`): its retained messages cleared on the broker
(an empty retained payload on each of its retained topics), so that no view, started now or
later, shows it again.

The command reads what the broker keeps for the table first and refuses a table that says it is
online: its next message would bring it back (`--force` clears it anyway). It then clears, and
reads again to check that the broker did clear (an ACL drops a publish it forbids without a
word). Reads end at a fence: a second subscription's acknowledgement, which the broker sends
after the retained messages of the first, so no wait is guessed.
"""

from __future__ import annotations

import json
import ssl
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from firmware.errors import FirmwareError
from firmware.fleet.broker import BrokerAddress, BrokerError, Credentials, new_client
from firmware.fleet.schema import KINDS, topic

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

RETAINED: Final = tuple(kind for kind in KINDS if kind != "events")
"""The kinds a table publishes retained (`firmware.fleet.publisher`)."""
WAIT_S: Final = 10.0
"""Longest wait for each of the broker's answers."""


class RetireError(FirmwareError, RuntimeError):
    """The table could not be retired; one line saying why."""


@dataclass(frozen=True)
class Retired:
    """What was cleared: the retained topics the broker held for the table."""

    table: str
    cleared: tuple[str, ...]


class _Session:
    """A connection that keeps the retained messages it is sent and the acknowledgements of
    its subscriptions."""

    def __init__(self, client: mqtt.Client) -> None:
        self.client = client
        self.changed = threading.Condition()
        self.answer: str | None = None
        self.connected = False
        self.retained: dict[str, bytes] = {}
        self.acknowledged: set[int] = set()
        client.on_connect = self._on_connect
        client.on_subscribe = self._on_subscribe
        client.on_message = self._on_message

    def _on_connect(
        self, client: object, userdata: object, flags: object, reason: Any, props: object
    ) -> None:
        with self.changed:
            self.connected = not reason.is_failure
            self.answer = str(reason)
            self.changed.notify_all()

    def _on_subscribe(
        self, client: object, userdata: object, mid: int, reasons: Any, props: object
    ) -> None:
        with self.changed:
            self.acknowledged.add(mid)
            self.changed.notify_all()

    def _on_message(self, client: object, userdata: object, message: Any) -> None:
        if message.retain:
            with self.changed:
                self.retained[message.topic] = bytes(message.payload)

    def wait(self, what: str, check: Any) -> None:
        with self.changed:
            if not self.changed.wait_for(check, WAIT_S):
                raise RetireError(f"the broker did not {what} within {WAIT_S:g} s")

    def read(self, table: str) -> dict[str, bytes]:
        """The retained messages the broker holds for `table` now."""
        with self.changed:
            self.retained.clear()
        _, first = self.client.subscribe(topic(table, "+"), qos=1)
        _, fence = self.client.subscribe(topic(table, "events"), qos=0)
        self.wait("acknowledge a subscription", lambda: {first, fence} <= self.acknowledged)
        self.client.unsubscribe(topic(table, "+"))
        with self.changed:
            return {name: payload for name, payload in self.retained.items() if payload}


def retire(
    table: str, address: BrokerAddress, credentials: Credentials, force: bool = False
) -> Retired:
    """Clear `table`'s retained messages on the broker at `address`; `RetireError` saying why
    not (unreachable, refused, online without `force`, or not cleared)."""
    try:
        client = new_client(f"codenames-{table}-retire", address, credentials)
    except BrokerError as error:
        raise RetireError(str(error)) from error
    session = _Session(client)
    try:
        client.connect(address.host, address.port, keepalive=15)
    except ssl.SSLCertVerificationError as error:
        raise RetireError(f"the broker {address} is not trusted: {error.verify_message}") from None
    except (OSError, BrokerError) as error:
        raise RetireError(f"cannot reach the broker {address}: {error}") from None
    client.loop_start()
    try:
        session.wait("answer", lambda: session.answer is not None)
        if not session.connected:
            user = credentials.username or "an anonymous client"
            raise RetireError(f"the broker {address} refused {user}: {session.answer}")
        held = session.read(table)
        status = _status(held.get(topic(table, "status")))
        if status == "online" and not force:
            raise RetireError(
                f"{table} says it is online: stop it first, or its next message brings it "
                "back (--force clears it anyway)"
            )
        # Every retained kind, held now or not, and anything else held under the table.
        for name in sorted({*held, *(topic(table, kind) for kind in RETAINED)}):
            client.publish(name, b"", qos=1, retain=True).wait_for_publish(WAIT_S)
        left = session.read(table)
        if left:
            raise RetireError(
                f"the broker kept {', '.join(sorted(left))}: "
                f"{credentials.username or 'an anonymous client'} may not write there"
            )
    finally:
        client.disconnect()
        client.loop_stop()
    return Retired(table, tuple(sorted(held)))


def _status(payload: bytes | None) -> str | None:
    try:
        message = json.loads(payload or b"")
    except ValueError:
        return None
    return message.get("status") if isinstance(message, dict) else None
