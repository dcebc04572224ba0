"""systemd's end of the notify socket for tests: a real AF_UNIX datagram socket."""

from __future__ import annotations

import socket
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

RECEIVE_TIMEOUT_S = 10.0
"""Upper bound of a wait for a datagram: one already sent is there at once, and one a table's
thread still owes can take seconds on a loaded machine. A bound, not a pause: a receive returns
as soon as the datagram is there."""


class NotifySocket:
    """The receiving end that systemd would hold: an AF_UNIX datagram socket."""

    def __init__(self, sock: socket.socket, env_value: str) -> None:
        self.sock = sock
        self.env_value = env_value
        """What systemd would put in `$NOTIFY_SOCKET` for it."""
        sock.settimeout(RECEIVE_TIMEOUT_S)

    def receive(self) -> bytes:
        return self.sock.recv(4096)

    def pending(self) -> list[bytes]:
        """Every datagram already received, without waiting."""
        self.sock.setblocking(False)
        received: list[bytes] = []
        try:
            while True:
                received.append(self.sock.recv(4096))
        except BlockingIOError:
            return received
        finally:
            self.sock.settimeout(RECEIVE_TIMEOUT_S)

    def nothing_pending(self) -> bool:
        return not self.pending()


@contextmanager
def path_notify_socket() -> Iterator[NotifySocket]:
    """A notify socket bound to a path, as `$NOTIFY_SOCKET=/run/systemd/notify` names it."""
    # A short directory of its own: socket paths are limited to 107 bytes.
    with tempfile.TemporaryDirectory(prefix="notify-") as directory:
        path = str(Path(directory) / "notify")
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.bind(path)
            yield NotifySocket(sock, path)
