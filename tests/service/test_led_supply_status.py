"""systemd's status line follows the LED supply: named when it dies, gone when it returns, the
game loop serving all along."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

from firmware.drivers.clock import SystemClock
from firmware.service.sd_notify import SystemdNotifier
from firmware.service.serve import LED_SUPPLY_OFF, serve
from firmware.virtual.table import VirtualTable

from ..notify_socket import RECEIVE_TIMEOUT_S, NotifySocket, path_notify_socket
from ..table_scripts import STILL


def next_status(receiver: NotifySocket) -> str:
    """The next status line the service sends (other datagrams are passed over)."""
    # The socket's own bound, for a status the table owes: the sense's settle time and a turn.
    deadline = time.monotonic() + RECEIVE_TIMEOUT_S
    while time.monotonic() < deadline:
        for line in receiver.receive().decode().splitlines():
            if line.startswith("STATUS="):
                return line.removeprefix("STATUS=")
    raise AssertionError("no status line came")


def test_the_status_names_a_dead_led_supply_until_it_returns(tmp_path: Path) -> None:
    stop = threading.Event()
    with (
        path_notify_socket() as receiver,
        SystemdNotifier.from_environment({"NOTIFY_SOCKET": receiver.env_value}) as notifier,
        SystemClock() as clock,
        VirtualTable(STILL, tmp_path, rng=random.Random(3), clock=clock) as vt,
    ):
        assert vt.led_supply is not None
        loop = threading.Thread(target=serve, args=(vt.table, stop, notifier))
        loop.start()
        try:
            assert LED_SUPPLY_OFF not in next_status(receiver)  # READY's
            vt.led_supply.cut()
            off = next_status(receiver)
            vt.led_supply.restore()
            back = next_status(receiver)
        finally:
            stop.set()
            loop.join(timeout=RECEIVE_TIMEOUT_S)
    assert off == f"playing; actions in the current game: 0; {LED_SUPPLY_OFF}"
    assert back == "playing; actions in the current game: 0"
    assert not loop.is_alive()
