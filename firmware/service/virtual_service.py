"""`codenames-table run --virtual [SCRIPT]`: the whole table on virtual hardware and the real
clock, as the service runs it on a Pi.

The same service as `run` on a Pi: a `SystemClock`, the threaded display worker, `READY=1` once
the saved game is resumed, the watchdog fed from the game loop, `STOPPING=1` on SIGTERM
(`firmware.service.serve`). Only the devices differ: those of the simulation
(`firmware.virtual.table`, gpiozero's mock pins, a virtual OLED and LED strip). So the unit runs
anywhere with its `ExecStart=` changed by a drop-in, which is how `make service-test` checks it
under a real systemd; and a café can show the table without its hardware.

A script (the language of the headless scripts, `firmware.virtual.script`) can drive it: it is
played on the real clock once the table is built, each press held for its real time, each `wait`
waited, each `dump` logged as one JSON line, and the table plays on after it. A `power-cut`
line is refused: on the real clock, kill the process instead.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from firmware.drivers.clock import SystemClock
from firmware.drivers.liveness import Liveness
from firmware.errors import UsageError
from firmware.fleet.attach import reporting
from firmware.fleet.messages import public_game
from firmware.service.sd_notify import SystemdNotifier
from firmware.service.serve import install_stop_handlers, serve
from firmware.table.config import TableConfig
from firmware.table.display_worker import DisplayWorker
from firmware.text_input import TextInputError, read_text
from firmware.virtual.script import Script, ScriptError, Step, parse_script
from firmware.virtual.table import VirtualTable

log = logging.getLogger("firmware.service.virtual_service")


def read_play_script(path: Path) -> Script:
    """A script to play on the real clock, read as every script is (`firmware.text_input`);
    raises `TextInputError`, or `ScriptError` for a bad line and for `power-cut`, which only a
    virtual clock can play."""
    script = parse_script(read_text(path))
    for step in script.steps:
        if step.verb == "power-cut":
            raise ScriptError(step.line, "power-cut needs a virtual clock: kill the process")
    return script


def game_line(table: VirtualTable) -> str:
    """The game in play as one JSON object: the saved actions count and the public state (what
    the fleet publishes, never the key: the journal is read away from the table), so that a
    resumed game can be compared with the one that was played."""
    game = table.table
    return json.dumps(
        {"actions": len(game.game.applied), "game": public_game(game.state, game.match_score)}
    )


LOOK_AGAIN_S = 0.005
"""How often the player looks whether the table has taken an input: a scan period's share, so
the next step follows the last one as soon as the game has it."""


class RealTimePlayer:
    """Plays script steps on a virtual table whose clock is the real one.

    `pause(seconds)` lets time pass and returns True once the player is to stop: the service
    passes its stop event's `wait`, the tests a stepper of a virtual clock. After each input the
    player waits until the game has taken it (the switch debounced and the event handled), so
    that a loaded machine slows the script down but never changes what it plays.
    """

    def __init__(self, table: VirtualTable, pause: Callable[[float], bool]) -> None:
        self._table = table
        self._pause = pause

    def play(self, steps: Sequence[Step]) -> bool:
        """Play `steps` in order; False if told to stop before the end."""
        return all(self._play(step) for step in steps)

    def taken(self) -> bool:
        """Wait until the game has taken every input given so far: the switches at rest (the
        last release debounced and reported) and every event queued by then handled by the
        game thread; False if told to stop first."""
        while self._table.console.switches_busy:
            if self._pause(LOOK_AGAIN_S):
                return False
        handled = self._table.table.caught_up()
        while not handled.is_set():
            if self._pause(LOOK_AGAIN_S):
                return False
        return True

    def _hold(self, press: Callable[[], None], release: Callable[[], None], hold_s: float) -> bool:
        press()
        # Released even when stopping: a switch left closed would read as stuck next time.
        stopped = self._pause(hold_s)
        release()
        return not stopped and self.taken()

    def _play(self, step: Step) -> bool:
        table = self._table
        circuit = table.circuit
        if step.verb == "press":
            coord = step.argument
            return self._hold(
                lambda: circuit.press_pad(coord), lambda: circuit.release_pad(coord), step.seconds
            )
        if step.verb == "button":
            button = step.argument
            return self._hold(
                lambda: circuit.press_button(button),
                lambda: circuit.release_button(button),
                step.seconds,
            )
        if step.verb == "push":
            return self._hold(table.encoder.press, table.encoder.release, step.seconds)
        if step.verb == "turn":
            table.encoder.turn(step.argument)
            return self.taken()
        if step.verb == "wait":
            return not self._pause(step.seconds)
        if step.verb == "dump":
            if not self.taken():
                return False
            log.info("dump: %s", game_line(table))
            return True
        raise ScriptError(step.line, f"{step.verb} cannot be played on the real clock")


def run_virtual(
    config: TableConfig, state_dir: Path, language: str | None, script: Path | None
) -> int:
    """Serve the table on virtual hardware until SIGTERM; returns the exit code, raises
    `UsageError` naming the script's line that cannot be played."""
    play = Script()
    if script is not None:
        try:
            play = read_play_script(script)
        except (TextInputError, ScriptError) as error:
            raise UsageError(error.located(str(script))) from error
    stop = threading.Event()
    notifier = SystemdNotifier.from_environment()
    install_stop_handlers(stop, notifier)
    notifier.status("starting: virtual hardware")
    with (
        notifier,
        SystemClock() as clock,
        VirtualTable(
            config,
            state_dir,
            rng=secrets.SystemRandom(),
            clock=clock,
            # Saved action times are the real time of day, as on the Pi.
            wall_clock_start=time.time() - clock.monotonic(),
            first_key=play.key,
            first_mode=play.mode,
            language=language,
            threaded_display=True,
        ) as table,
    ):
        log.info("table ready on virtual hardware: %s", game_line(table))
        player = threading.Thread(
            target=_play_script, args=(table, play.steps, stop), name="script", daemon=True
        )
        if play.steps:
            player.start()
        # The same threads as on the Pi are watched (firmware.drivers.liveness); the script's player
        # is not one of them: the table plays on without it.
        watched = [clock.progress]
        if isinstance(table.display, DisplayWorker):
            watched.append(table.display.progress)
        with reporting(config.fleet, table.table, state_dir, lambda: table.oled.is_up):
            serve(table.table, stop, notifier, Liveness(watched))
    return 0


def _play_script(table: VirtualTable, steps: Sequence[Step], stop: threading.Event) -> None:
    player = RealTimePlayer(table, stop.wait)
    if player.play(steps) and player.taken():
        log.info("script played: %s", game_line(table))
