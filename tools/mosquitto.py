"""A Mosquitto of one's own on a free port of 127.0.0.1, for the fleet's tests and
`make fleet-bench`: where the binary is, a free port, and the broker started and listening."""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import time
from pathlib import Path

LISTEN_WAIT_S = 10.0
NOT_INSTALLED = "mosquitto is not installed (apt-get install mosquitto)"


def binary() -> str | None:
    """The broker's executable (Debian keeps it in /usr/sbin), or None."""
    return shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin")


EPHEMERAL_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")
"""Where Linux takes the local ports of outgoing connections from (32768–60999 by default)."""
LOWEST_PORT = 10000


def free_port() -> int:
    """A TCP port nobody listens on now, chosen at random below the ephemeral range: between
    this call and the broker's bind, no outgoing connection of the tests beside (a client, a
    browser) can take it as its own local port, as one can take a port the kernel handed out."""
    try:
        below = int(EPHEMERAL_RANGE.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        below = 0
    candidates = list(range(LOWEST_PORT, below))
    random.SystemRandom().shuffle(candidates)
    for port in [*candidates[:100], 0]:  # 0: the kernel's choice, if all those were taken
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(probe.getsockname()[1])
    raise RuntimeError("no free TCP port on 127.0.0.1")


def listening(port: int) -> bool:
    """Whether something accepts connections on 127.0.0.1:`port`."""
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def start(
    folder: Path,
    port: int,
    users: dict[str, str] | None = None,
    *,
    tls: tuple[Path, Path] | None = None,
    own_group: bool = False,
    bridge_to: int | None = None,
) -> subprocess.Popen[bytes]:
    """Mosquitto on 127.0.0.1:`port`, its config in `folder`, anonymous unless `users` (name:
    password) are given, speaking TLS only when `tls` names its certificate and key files (PEM);
    returned once it listens. In a process group of its `own_group`, a terminal's Ctrl-C does
    not reach it: its starter stops it when the time comes. With `bridge_to`, a café's broker:
    every table's messages are bridged out to the chain's broker on that port of 127.0.0.1.
    RuntimeError when it cannot start."""
    if binary() is None:
        raise RuntimeError(NOT_INSTALLED)
    lines = [f"listener {port} 127.0.0.1", "persistence false", "max_queued_messages 10000"]
    if tls is not None:
        lines += [f"certfile {tls[0]}", f"keyfile {tls[1]}"]
    if os.geteuid() == 0:
        # As root it would become the `mosquitto` user, who cannot read a private folder.
        lines.append("user root")
    if users:
        passwords = folder / "passwords"
        passwords.write_text("")
        passwords.chmod(0o600)
        tool = shutil.which("mosquitto_passwd") or "mosquitto_passwd"
        for user, password in users.items():
            command = [tool, "-b", str(passwords), user, password]
            subprocess.run(command, check=True, capture_output=True)
        lines += ["allow_anonymous false", f"password_file {passwords}"]
    else:
        lines.append("allow_anonymous true")
    if bridge_to is not None:
        lines += bridge(f"cafe-{port}", bridge_to)
    conf = folder / "mosquitto.conf"
    conf.write_text("\n".join(lines) + "\n")
    return launch(conf, port, folder / "mosquitto.log", own_group)


def bridge(name: str, chain_port: int) -> list[str]:
    """A bridge (mosquitto.conf(5), "Configuring Bridges") named `name` from this broker to the
    chain's on 127.0.0.1:`chain_port`: the fleet's topics go out at QoS 1, retained messages as
    retained; it reconnects a second after a loss (`restart_timeout`). Its session on this
    broker is kept while it is not connected to the chain's (`local_cleansession false`): the
    tables' QoS 1 messages (their retained standing) are then queued for it, not dropped, as
    when the tables reconnect to a restarted café broker before its bridge has reached the
    chain's; their events (QoS 0) are dropped either way."""
    return [
        f"connection {name}",
        f"address 127.0.0.1:{chain_port}",
        "bridge_protocol_version mqttv311",
        "topic codenames/# out 1",
        "cleansession true",
        "local_cleansession false",
        "notifications false",
        "restart_timeout 1",
        "keepalive_interval 5",
    ]


def launch(conf: Path, port: int, log: Path, own_group: bool = False) -> subprocess.Popen[bytes]:
    """Mosquitto with the config `conf`, which listens on 127.0.0.1:`port`, its output in
    `log`; returned once it listens. RuntimeError when it cannot start."""
    found = binary()
    if found is None:
        raise RuntimeError(NOT_INSTALLED)
    with log.open("wb") as errors:
        process = subprocess.Popen(
            [found, "-c", str(conf)],
            stdout=errors,
            stderr=errors,
            process_group=0 if own_group else None,
        )
    end = time.monotonic() + LISTEN_WAIT_S
    while not listening(port):
        if process.poll() is not None or time.monotonic() > end:
            process.kill()
            process.wait()
            raise RuntimeError(
                f"mosquitto did not listen on port {port} (config {conf}, log {log})"
            )
        time.sleep(0.01)
    return process
