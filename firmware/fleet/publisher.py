"""The table's publisher: the game loop's observer that reports to the broker from a thread of
its own.

The game thread only builds the public state (no key: `messages.public_game`) and puts the
event in a bounded queue: it never waits for the network. When the queue is full, or the broker
is away, an event is dropped and counted (health's `events_dropped`); the latest `game` and
`health` are retained messages, sent again on every (re)connection, so a view that was away
still sees the table as it is. Events go at QoS 0: at most once, never doubled.

The first connection is made here, so that a refused TLS handshake or an unreachable broker is
logged with its reason; a dropped one is made again by paho's own thread. A wrong password or
CA is logged once, and the table plays on offline. `firmware.fleet.check` (`codenames-table
selftest --fleet`) connects through the same functions and says the same lines.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import ssl
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from board_rules.codenames import GameState
from firmware.drivers.events import InputEvent, PadReleased, PadStuck
from firmware.fleet.broker import BrokerAddress, BrokerError, Credentials, new_client, redact
from firmware.fleet.health import HealthReading
from firmware.fleet.messages import (
    LastAction,
    encode,
    envelope,
    event_fields,
    public_game,
    status_fields,
)
from firmware.fleet.schema import GameFields, Kind, topic
from firmware.table.config import FleetConfig
from firmware.table.store_faults import SaveFault

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

log = logging.getLogger(__name__)

QUEUE_SIZE: Final = 256
HEALTH_EVERY_S: Final = 30.0
RETRY_FIRST_S: Final = 1.0
RETRY_MAX_S: Final = 30.0
_WAKE: Final = "wake"


def table_client(
    fleet: FleetConfig, address: BrokerAddress, client_id: str, will: bytes | None = None
) -> mqtt.Client:
    """A paho client for `fleet`'s broker with its TLS and credentials, as `client_id`, with
    `will` as the table's last `status` when given, not yet connected; `BrokerError` naming the
    CA or password file that cannot be used (`unusable`)."""
    credentials = Credentials(fleet.ca_file, fleet.username, fleet.password_file)
    last = None if will is None else (topic(fleet.table, "status"), will)
    retry = (int(RETRY_FIRST_S), int(RETRY_MAX_S))
    return new_client(client_id, address, credentials, will=last, reconnect_s=retry)


def open_connection(client: mqtt.Client, fleet: FleetConfig, address: BrokerAddress) -> str | None:
    """Connect `client` to `address` (the TCP connection, the TLS handshake, the CONNECT sent):
    None, or why not in one line. The broker's answer comes later, to `on_connect`: a refusal
    is said by `refusal`."""
    try:
        client.connect(address.host, address.port, fleet.keepalive_s)
    except ssl.SSLCertVerificationError as error:
        trusted = f"CA file {fleet.ca_file}" if fleet.ca_file else "the system's CAs"
        return f"the broker {address} is not trusted: {error.verify_message} ({trusted})"
    except (OSError, ValueError) as error:
        # ValueError: a host the resolver cannot even encode (IDNA), BrokerError included.
        return f"cannot reach the broker {address}: {redact(str(error))}"
    return None


def refusal(fleet: FleetConfig, address: BrokerAddress, reason: object) -> str:
    """The broker's refusal of the table (its CONNACK's `reason`: `Not authorized`…)."""
    return f"the broker {address} refused table {fleet.table}: {reason}"


def unusable(error: BrokerError) -> str:
    """Why no connection can even be tried: the CA or password file (`table_client`'s error)."""
    return f"not reporting: {error}"


class FleetPublisher:
    """Reports one table to the broker; a `TableObserver`. `start`, then `close` (or `with`)."""

    def __init__(
        self,
        fleet: FleetConfig,
        health: HealthReading,
        *,
        oled_up: Callable[[], bool] = lambda: True,
        not_saving: Callable[[], SaveFault | None] | None = None,
        queue_size: int = QUEUE_SIZE,
        health_every_s: float = HEALTH_EVERY_S,
        monotonic: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.fleet = fleet
        self.address = BrokerAddress.parse(fleet.broker)
        self._health = health
        self._oled_up = oled_up
        self._not_saving = not_saving
        self._queue: queue.Queue[dict[str, Any] | str] = queue.Queue(maxsize=queue_size)
        self._health_every_s = health_every_s
        self._monotonic = monotonic
        self._wall_clock = wall_clock
        self._latest_game: GameFields | None = None
        self._last: LastAction | None = None
        self._started_at: float | None = None
        """When the game's first clue was given (None before it, or for a game resumed at start,
        whose first clue was given before this publisher)."""
        self._dealt = False
        """Whether the game in play is waiting for its first clue."""
        self._sent_game: GameFields | None = None
        self._sent_health: dict[str, Any] | None = None
        self._health_due = 0.0
        self.events_dropped = 0
        """Events never sent: the queue was full or the broker away."""
        self.events_sent = 0
        self.problem: str | None = None
        """Why the table is not reporting, while it is not (logged once each)."""
        self._connected = threading.Event()
        self._resend = threading.Event()
        self._stop = threading.Event()
        self._client: mqtt.Client | None = None
        self._loop_running = False
        self._thread = threading.Thread(target=self._run, name="fleet", daemon=True)

    # The observer's side: on the game thread, never blocking.

    def seen(self, event: InputEvent) -> None:
        """Keep the stuck pads for `health`."""
        if isinstance(event, PadStuck):
            self._health.stuck_pads = tuple(sorted({*self._health.stuck_pads, str(event.coord)}))
        elif isinstance(event, PadReleased) and str(event.coord) in self._health.stuck_pads:
            self._health.stuck_pads = tuple(
                p for p in self._health.stuck_pads if p != str(event.coord)
            )
        else:
            return
        self._offer(_WAKE)

    def played(
        self,
        action: str,
        state: GameState,
        match: tuple[int, int],
        words: tuple[str, ...],
        not_saving: SaveFault | None,
    ) -> None:
        """Note the public state and queue the event."""
        now = self._wall_clock()
        if action in ("new game", "new match", "undo new game"):
            # A new deal waits for its first clue; a game brought back began before it.
            self._started_at, self._dealt = None, action != "undo new game"
        elif self._dealt and action.startswith("clue"):
            self._started_at, self._dealt = now, False
        self._last = LastAction(action, words, now)
        self._latest_game = public_game(state, match, self._last, self._started_at)
        self._health.not_saving = None if not_saving is None else not_saving.value
        self._offer(envelope(self.fleet.table, now, **event_fields(action, words)))

    def show(self, state: GameState, match: tuple[int, int]) -> None:
        """Make `state`'s public part and the `match`'s wins (red, blue) the latest `game` (the
        resumed game, at start)."""
        self._dealt = state.clue is None and not state.covered
        self._latest_game = public_game(state, match, self._last, self._started_at)

    def _offer(self, item: dict[str, Any] | str) -> None:
        try:
            self._queue.put_nowait(item)
        except queue.Full:
            if item is not _WAKE:
                self.events_dropped += 1

    # The publisher's thread.

    def start(self) -> FleetPublisher:
        """Start reporting (connecting in the background)."""
        self._thread.start()
        return self

    @property
    def connected(self) -> bool:
        """Whether the broker has accepted this table now."""
        return self._connected.is_set()

    def wait_connected(self, timeout: float) -> bool:
        """Block until connected or `timeout`; for tests and benchmarks."""
        return self._connected.wait(timeout)

    def _run(self) -> None:
        try:
            self._client = self._new_client()
        except BrokerError as error:
            self._report(unusable(error))
            self._drain_until_stopped()
            return
        retry_s, next_try = RETRY_FIRST_S, 0.0
        while not self._stop.is_set():
            now = self._monotonic()
            if not self._loop_running and now >= next_try:
                if self._connect():
                    self._loop_running = True
                else:
                    next_try, retry_s = now + retry_s, min(retry_s * 2, RETRY_MAX_S)
            if self._resend.is_set() and self._connected.is_set():
                self._resend.clear()
                self._sent_game = self._sent_health = None
                self._publish("status", self._status(online=True))
                self._health_due = now
            self._publish_latest(now)
            wait = self._health_due - now
            if not self._loop_running:
                wait = min(wait, next_try - now)
            try:
                item = self._queue.get(timeout=min(max(wait, 0.05), 1.0))
            except queue.Empty:
                continue
            self._publish_latest(self._monotonic())
            if isinstance(item, dict):
                if self._connected.is_set() and self._publish("events", encode(item)):
                    self.events_sent += 1
                else:
                    self.events_dropped += 1
        self._goodbye()

    def _drain_until_stopped(self) -> None:
        while not self._stop.is_set():
            try:
                item = self._queue.get(timeout=1.0)
            except queue.Empty:
                continue
            if isinstance(item, dict):
                self.events_dropped += 1

    def _new_client(self) -> mqtt.Client:
        fleet = self.fleet
        client = table_client(
            fleet, self.address, f"codenames-{fleet.table}", will=self._status(online=False)
        )
        client.max_queued_messages_set(QUEUE_SIZE)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        return client

    def _connect(self) -> bool:
        assert self._client is not None
        problem = open_connection(self._client, self.fleet, self.address)
        if problem is not None:
            self._report(problem)
            return False
        self._client.loop_start()
        return True

    def _on_connect(
        self, client: mqtt.Client, userdata: object, flags: object, reason: Any, properties: object
    ) -> None:
        if reason.is_failure:
            self._report(refusal(self.fleet, self.address, reason))
            return
        if self.problem is not None:
            log.info("fleet: reporting to %s again", self.address)
        self.problem = None
        self._connected.set()
        self._resend.set()
        self._offer(_WAKE)

    def _on_disconnect(
        self, client: mqtt.Client, userdata: object, flags: object, reason: Any, properties: object
    ) -> None:
        was_connected = self._connected.is_set()
        self._connected.clear()
        # A refused connection is closed too: its reason, said already, stands.
        if was_connected and not self._stop.is_set():
            self._report(f"lost the broker {self.address}: {reason}; reconnecting")

    def _report(self, problem: str) -> None:
        if problem != self.problem:
            log.warning("fleet: %s; the table plays on", problem)
        self.problem = problem

    def _status(self, online: bool, stopped: bool = False) -> bytes:
        fields = status_fields(online, stopped)
        return encode(envelope(self.fleet.table, self._wall_clock(), **fields))

    def _publish_latest(self, now: float) -> None:
        # Connected but `online` not yet said again (paho's thread connected since the loop's
        # check): the loop's next turn sends status first, then these.
        if not self._connected.is_set() or self._resend.is_set():
            return
        game = self._latest_game
        if game is not None and game is not self._sent_game:
            message = envelope(self.fleet.table, self._wall_clock(), **game)
            self._sent_game = game if self._publish("game", encode(message)) else None
        self._health.oled_up = self._oled_up()
        if self._not_saving is not None:
            # Read on this thread too: a save can fail or recover on a tick, with no action.
            fault = self._not_saving()
            self._health.not_saving = None if fault is None else fault.value
        fields = self._health.fields(now, self.events_dropped)
        # Uptime and free disk change all the time: only a real change or the period sends.
        steady = {k: v for k, v in fields.items() if k not in ("uptime_s", "free_disk_bytes")}
        if now >= self._health_due or steady != self._sent_health:
            message = envelope(self.fleet.table, self._wall_clock(), **fields)
            if self._publish("health", encode(message)):
                self._sent_health = steady
                self._health_due = now + self._health_every_s

    def _publish(self, kind: Kind, payload: bytes) -> bool:
        assert self._client is not None
        # Events are news of a moment; the rest is the table's standing, kept by the broker.
        retain = kind != "events"
        info = self._client.publish(
            topic(self.fleet.table, kind), payload, qos=1 if retain else 0, retain=retain
        )
        return info.rc == 0

    def _goodbye(self) -> None:
        client = self._client
        if client is None:
            return
        if self._connected.is_set():
            # A table shut down on purpose is offline at once, not after the keep-alive.
            info = client.publish(
                topic(self.fleet.table, "status"),
                self._status(online=False, stopped=True),
                qos=1,
                retain=True,
            )
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(timeout=2.0)
        client.disconnect()
        if self._loop_running:
            client.loop_stop()

    def close(self) -> None:
        """Say `offline`, disconnect and stop the thread. Idempotent."""
        self._stop.set()
        self._offer(_WAKE)
        if self._thread.is_alive():
            self._thread.join(timeout=5.0)

    def __enter__(self) -> FleetPublisher:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()
