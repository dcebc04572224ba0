"""Tell systemd how the service is doing: the sd_notify protocol, standard library only.

systemd passes a datagram socket in `$NOTIFY_SOCKET` (a path, or an abstract name when it starts
with `@`) and reads newline-separated `KEY=VALUE` assignments from it: `READY=1` when start-up is
done, `WATCHDOG=1` to feed the watchdog, `STATUS=…` for `systemctl status`, `STOPPING=1` on the
way out. `$WATCHDOG_USEC` is the watchdog's interval, meant for `$WATCHDOG_PID` when that is set.

Outside systemd (no `$NOTIFY_SOCKET`) every call does nothing, so the table runs the same from a
shell. A failed send is logged once and never raised: the game must not stop because systemd
could not be told about it (if the watchdog then starves, systemd restarts the table anyway).

>>> notifier = SystemdNotifier.from_environment({})
>>> notifier.enabled, notifier.watchdog_interval
(False, None)
>>> notifier.ready()
False
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger("firmware.service.sd_notify")


def watchdog_interval_from(environ: Mapping[str, str], pid: int) -> float | None:
    """The watchdog interval in seconds that systemd asks process `pid` to keep, or None.

    >>> watchdog_interval_from({"WATCHDOG_USEC": "10000000"}, pid=42)
    10.0
    >>> watchdog_interval_from({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "7"}, pid=42) is None
    True
    """
    raw = environ.get("WATCHDOG_USEC", "")
    try:
        usec = int(raw)
    except ValueError:
        return None
    if usec <= 0:
        return None
    owner = environ.get("WATCHDOG_PID")
    if owner is not None:
        try:
            if int(owner) != pid:
                # Inherited from a parent that systemd watches: not ours to feed.
                return None
        except ValueError:
            return None
    return usec / 1_000_000


def _socket_address(value: str) -> str | None:
    if value.startswith("@"):
        # Linux's abstract namespace: a leading NUL instead of systemd's '@'.
        return "\0" + value[1:]
    if value.startswith("/"):
        return value
    # systemd 253 can also hand out vsock addresses; a table never runs in a VM.
    return None


class SystemdNotifier:
    """A client of one notify socket; `close` it (or use `with`). Safe to call from a signal
    handler on the thread that also feeds the watchdog: no call takes a lock."""

    def __init__(self, address: str | None, *, watchdog_interval: float | None = None) -> None:
        """`address` as `$NOTIFY_SOCKET` spells it (None: notifications off)."""
        self.watchdog_interval = watchdog_interval
        """Seconds within which systemd expects `WATCHDOG=1`, or None without a watchdog."""
        self._address = _socket_address(address) if address else None
        self._socket: socket.socket | None = None
        self._warned = False
        if address and self._address is None:
            log.warning("NOTIFY_SOCKET=%s is not a Unix socket address; not notifying", address)
        if self._address is not None:
            # Opened once here, not per message: the watchdog is fed every second for months.
            self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)

    @classmethod
    def from_environment(
        cls, environ: Mapping[str, str] | None = None, pid: int | None = None
    ) -> SystemdNotifier:
        """The notifier systemd set up for this process through its environment."""
        env = os.environ if environ is None else environ
        return cls(
            env.get("NOTIFY_SOCKET") or None,
            watchdog_interval=watchdog_interval_from(env, os.getpid() if pid is None else pid),
        )

    @property
    def enabled(self) -> bool:
        """True when messages go somewhere (the process runs under systemd)."""
        return self._socket is not None

    def notify(self, *assignments: str) -> bool:
        """Send `KEY=VALUE` assignments in one datagram; True when it was sent."""
        sock = self._socket
        if sock is None or self._address is None:
            return False
        try:
            sock.sendto("\n".join(assignments).encode("utf-8"), self._address)
        except OSError as error:
            if not self._warned:
                self._warned = True
                log.warning("cannot notify systemd (further failures are not logged): %s", error)
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """Start-up is done: `READY=1`, with a status line if given."""
        if status is None:
            return self.notify("READY=1")
        return self.notify("READY=1", _status(status))

    def watchdog(self) -> bool:
        """Feed the watchdog: `WATCHDOG=1`. Call it from the loop that must not hang."""
        return self.notify("WATCHDOG=1")

    def status(self, text: str) -> bool:
        """A one-line status that `systemctl status` shows."""
        return self.notify(_status(text))

    def stopping(self, status: str | None = None) -> bool:
        """The service is shutting down: `STOPPING=1`."""
        if status is None:
            return self.notify("STOPPING=1")
        return self.notify("STOPPING=1", _status(status))

    def close(self) -> None:
        """Close the socket; idempotent. Later calls send nothing."""
        sock, self._socket = self._socket, None
        if sock is not None:
            sock.close()

    def __enter__(self) -> SystemdNotifier:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _status(text: str) -> str:
    # One assignment a line: a newline in the text would start a bogus assignment.
    return "STATUS=" + " ".join(text.splitlines())


def heartbeat_interval(watchdog_interval: float | None, longest: float = 1.0) -> float:
    """How often the game loop must call its heartbeat: half the watchdog interval, at most
    `longest` seconds.

    >>> heartbeat_interval(10.0), heartbeat_interval(0.5), heartbeat_interval(None)
    (1.0, 0.25, 1.0)
    """
    if watchdog_interval is None:
        return longest
    return min(longest, watchdog_interval / 2)


class WatchdogFeeder:
    """The game loop's heartbeat: `WATCHDOG=1`, at most once per half `heartbeat_s`, and only
    while `fault` finds nothing wrong.

    The loop calls its heartbeat after every event as well as on every idle timeout, so a busy
    table would otherwise send systemd a datagram per event. Since the loop calls at least every
    `heartbeat_s`, two sends are never more than 1.5 × `heartbeat_s` apart: with `heartbeat_s` at
    half the watchdog interval, within 0.75 of it.

    `fault` (`firmware.drivers.liveness.Liveness.fault` on the Pi) is asked before each send; once
    it names a fault, the feeder logs it and sets it as the service's status, once, and never
    feeds the watchdog again, so that systemd restarts the table.
    """

    def __init__(
        self,
        notifier: SystemdNotifier,
        heartbeat_s: float,
        monotonic: Callable[[], float] = time.monotonic,
        fault: Callable[[], str | None] = lambda: None,
    ) -> None:
        self._notifier = notifier
        self._min_gap = heartbeat_s / 2
        self._monotonic = monotonic
        self._fault = fault
        self._last: float | None = None
        self.stopped_for: str | None = None
        """The fault that ended the heartbeats, or None while they go on."""

    def __call__(self) -> None:
        """Feed the watchdog unless it was fed moments ago or a fault was found."""
        if self.stopped_for is not None:
            return
        now = self._monotonic()
        if self._last is not None and now - self._last < self._min_gap:
            return
        fault = self._fault()
        if fault is not None:
            self.stopped_for = fault
            log.error("no more watchdog heartbeats, so that systemd restarts the table: %s", fault)
            self._notifier.status(f"failing, waiting for the watchdog to restart it: {fault}")
            return
        self._last = now
        self._notifier.watchdog()
