"""The game loop as a systemd notify service, whatever the devices: the Pi's own (`run`) or the
virtual ones (`run --virtual`).

`READY=1` once the table is built, its `STATUS=` naming any device that did not open (what
`systemctl status` shows), `WATCHDOG=1` from the game loop itself, and only while the threads
that `firmware.drivers.liveness` watches are alive, and `STOPPING=1` at once on SIGTERM.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType

from firmware.drivers.liveness import Liveness
from firmware.service.sd_notify import SystemdNotifier, WatchdogFeeder, heartbeat_interval
from firmware.table.game_loop import Table


def install_stop_handlers(stop: threading.Event, notifier: SystemdNotifier) -> None:
    """On SIGTERM (systemd's stop) or SIGINT: tell systemd at once, then end the game loop."""

    def request_stop(signum: int, frame: FrameType | None) -> None:
        if not stop.is_set():
            notifier.stopping(f"stopping on {signal.Signals(signum).name}")
        stop.set()

    signal.signal(signal.SIGTERM, request_stop)
    signal.signal(signal.SIGINT, request_stop)


def serve(
    table: Table,
    stop: threading.Event,
    notifier: SystemdNotifier,
    liveness: Liveness | None = None,
    problems: tuple[str, ...] = (),
) -> None:
    """Run `table`'s game loop on this thread until `stop` is set, as a systemd notify service:
    `READY=1` first (the table is built, so the hardware is up and the game resumed), then
    `WATCHDOG=1` from the loop itself, never from a side thread that would outlive a hung loop,
    and only while every thread that `liveness` watches is alive and not stuck. `problems`
    (a device that did not open) follow the status line, for `systemctl status`."""
    beat_s = heartbeat_interval(notifier.watchdog_interval)
    fault = (lambda: None) if liveness is None else liveness.fault
    status = f"playing; actions in the current game: {len(table.game.applied)}"
    notifier.ready("; ".join((status, *problems)))
    feeder = WatchdogFeeder(notifier, beat_s, fault=fault)
    table.run_forever(stop, heartbeat=feeder, heartbeat_s=beat_s)
    # On this thread, the loop's, once it has ended: nothing else writes the games now.
    table.save_before_stop()
