"""The game loop as a systemd notify service, whatever the devices: the Pi's own (`run`) or the
virtual ones (`run --virtual`).

`READY=1` once the table is built, its `STATUS=` naming any device that did not open and a dead LED
supply, again whenever the supply goes or comes back (what `systemctl status` shows), `WATCHDOG=1`
from the game loop itself, and only while the threads that `firmware.drivers.liveness` watches are
alive, and `STOPPING=1` at once on SIGTERM.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType

from firmware.drivers.liveness import Liveness
from firmware.service.sd_notify import SystemdNotifier, WatchdogFeeder, heartbeat_interval
from firmware.table.game_loop import Table

LED_SUPPLY_OFF = "LED key off (no LED supply): check the LED supply and its fuse F1"
"""The status while the LED supply's sense reads no 5 V."""


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
    notifier.ready(_status(table, problems))
    feeder = WatchdogFeeder(notifier, beat_s, fault=fault)
    supply = table.led_supply

    def heartbeat() -> None:
        # On the game thread, which alone changes the table: the supply's news is the latest.
        nonlocal supply
        feeder()
        if table.led_supply != supply:
            supply = table.led_supply
            notifier.status(_status(table, problems))

    table.run_forever(stop, heartbeat=heartbeat, heartbeat_s=beat_s)
    # On this thread, the loop's, once it has ended: nothing else writes the games now.
    table.save_before_stop()


def _status(table: Table, problems: tuple[str, ...]) -> str:
    """The status line: playing, then what is wrong with the devices now."""
    status = f"playing; actions in the current game: {len(table.game.applied)}"
    supply = (LED_SUPPLY_OFF,) if table.led_supply is False else ()
    return "; ".join((status, *problems, *supply))
