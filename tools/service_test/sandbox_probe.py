"""Try, from inside the service's sandbox, what the sandbox must refuse; print one line.

`make service-test` runs this as the unit's `ExecStartPre=` (a drop-in), so under the same user,
namespaces, system call filter and address families as the table itself. It writes one line,
`sandbox probe: {JSON}`, to the journal: each attempt and "ok" or the error it met. The folders
the service may write are tried too, so that a refusal cannot come from a broken probe.

Standard library only: it runs on the container's own `python3`.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import sys
from collections.abc import Callable
from functools import partial

WRITABLE = ("/var/lib/codenames-table", "/run/codenames-table")
"""The state and runtime folders: the only places the service may write."""
READ_ONLY = (
    "/etc/codenames-table",
    "/opt/codenames-table",
    "/usr/local/bin",
    "/var/lib",
    "/var/log",
    "/srv",
    "/root",
    "/home",
)
"""Folders it must not write: its config and code, the system, other users' homes."""
SOCKETS = {
    "inet stream": (socket.AF_INET, socket.SOCK_STREAM),
    "inet datagram": (socket.AF_INET, socket.SOCK_DGRAM),
    "inet6 stream": (socket.AF_INET6, socket.SOCK_STREAM),
    "netlink": (socket.AF_NETLINK, socket.SOCK_RAW),
    "packet": (socket.AF_PACKET, socket.SOCK_RAW),
    "unix datagram": (socket.AF_UNIX, socket.SOCK_DGRAM),
}
"""Sockets to open: only AF_UNIX (the notify socket) may be."""
SECRETS = ("/etc/shadow", "/srv/service-test/secret", "/root/service-test-secret")
"""Files of other users (root's, and one the test leaves to `nobody`) that it must not read."""


def attempt(action: Callable[[], object]) -> str:
    """'ok', or the name of the error that stopped `action`."""
    try:
        action()
    except OSError as error:
        return errno.errorcode.get(error.errno or 0, str(error))
    return "ok"


def write_in(folder: str) -> None:
    path = os.path.join(folder, f".sandbox-probe-{os.getpid()}")
    with open(path, "x", encoding="ascii") as file:
        file.write("probe\n")
    os.unlink(path)


def open_socket(family: int, kind: int) -> None:
    socket.socket(family, kind).close()


def read_file(path: str) -> None:
    with open(path, "rb") as file:
        file.read(1)


def probe() -> dict[str, str]:
    """Every attempt and its outcome."""
    found: dict[str, str] = {}
    for folder in (*WRITABLE, *READ_ONLY):
        found[f"write {folder}"] = attempt(partial(write_in, folder))
    for name, (family, kind) in SOCKETS.items():
        found[f"socket {name}"] = attempt(partial(open_socket, family, kind))
    for path in SECRETS:
        found[f"read {path}"] = attempt(partial(read_file, path))
    return found


def main() -> int:
    print("sandbox probe: " + json.dumps(probe(), sort_keys=True), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
