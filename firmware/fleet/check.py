"""The fleet check (`codenames-table selftest --fleet`): whether the broker of `[fleet]` accepts
this table now, with its CA, user and password, said in one line for the staff.

It connects through the publisher's own functions (`table_client`, `open_connection`,
`refusal`), so that it says what the journal would ("not trusted", "refused table-3: Not
authorized", "cannot reach"), waits a bounded time for the broker's answer (the CONNACK) and
disconnects cleanly. It publishes nothing and sets no last will, under a client id of its own
(`codenames-<table>-check`): run beside the service, it neither takes the table's session over
(a broker drops the older of two clients with one id) nor touches its retained `status` and
`game`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from firmware.fleet.broker import BrokerAddress, BrokerError
from firmware.fleet.publisher import open_connection, refusal, table_client, unusable
from firmware.table.config import FleetConfig

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

ANSWER_WAIT_S: Final = 10.0
"""Longest wait for the broker's answer when the keep-alive is longer: someone is waiting."""


@dataclass(frozen=True)
class FleetCheck:
    """What the check found: whether the broker accepted the table, and the line saying so."""

    connected: bool
    line: str
    """`fleet: connected to mqtts://host:8883 as table-3`, or `fleet: ` and the problem."""


def check_client_id(fleet: FleetConfig) -> str:
    """The check's client id: never the table's own, which the running service holds."""
    return f"codenames-{fleet.table}-check"


def check_fleet(fleet: FleetConfig, wait_s: float | None = None) -> FleetCheck:
    """Connect to `fleet`'s broker as the table would, wait up to `wait_s` for its answer (the
    keep-alive, at most `ANSWER_WAIT_S`, by default), disconnect; `BrokerError` for a broker
    address that cannot be parsed."""
    address = BrokerAddress.parse(fleet.broker)
    wait = min(float(fleet.keepalive_s), ANSWER_WAIT_S) if wait_s is None else wait_s
    try:
        client = table_client(fleet, address, check_client_id(fleet))
    except BrokerError as error:
        return _problem(unusable(error))
    answers: list[str | None] = []

    def on_connect(
        client: mqtt.Client, userdata: object, flags: object, reason: Any, properties: object
    ) -> None:
        answers.append(refusal(fleet, address, reason) if reason.is_failure else None)

    client.on_connect = on_connect
    problem = open_connection(client, fleet, address)
    if problem is not None:
        return _problem(problem)
    try:
        closed = _wait_for_answer(client, answers, wait)
    finally:
        # A DISCONNECT, not a dropped socket: the broker forgets the client quietly.
        client.disconnect()
    if answers:
        answer = answers[0]
        if answer is not None:
            return _problem(answer)
        return FleetCheck(True, f"fleet: connected to {address} as {fleet.table}")
    if closed:
        return _problem(f"the broker {address} closed the connection without answering")
    return _problem(f"the broker {address} did not answer within {wait:g} s (timed out)")


def _wait_for_answer(client: mqtt.Client, answers: list[str | None], wait_s: float) -> bool:
    """Run paho's loop on this thread until `on_connect` has an answer or `wait_s` passes; True
    when the connection was closed first."""
    from paho.mqtt.enums import MQTTErrorCode

    end = time.monotonic() + wait_s
    while not answers:
        left = end - time.monotonic()
        if left <= 0:
            return False
        if client.loop(timeout=left) is not MQTTErrorCode.MQTT_ERR_SUCCESS:
            return not answers
    return False


def _problem(problem: str) -> FleetCheck:
    return FleetCheck(False, f"fleet: {problem}")
