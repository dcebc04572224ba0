"""`codenames-table run`: the table on the Raspberry Pi's own hardware.

GPIO through gpiozero's default pin factory (lgpio on current Raspberry Pi OS), the OLED through
Blinka's I2C, the LED key through the backend the pin map names, `auto` (the default) choosing it
from the Pi's model (`firmware.service.pi_model`). Elsewhere it exits 2 and points to
`codenames-table sim`; a backend that cannot drive this Pi (`ws281x` on a Pi 5) exits 2 too. A
device that fails to start is reported and replaced by its virtual twin, so that the game can
still be played: a hardware fault never keeps the table down.

Under systemd (`systemd/codenames-table.service`, `Type=notify`) it sends `READY=1` once the
hardware is open and the saved game resumed, feeds the watchdog from the game loop itself, so
that a hung loop gets the service restarted, stops feeding it once the clock's or the display's
thread has died or hangs (`firmware.drivers.liveness`), and sends `STOPPING=1` on SIGTERM: all
of it in `firmware.service.serve`, which `run --virtual` shares.
"""

from __future__ import annotations

import argparse
import faulthandler
import logging
import queue
import secrets
import sys
import threading
from pathlib import Path

from firmware.drivers.clock import SystemClock
from firmware.drivers.liveness import Liveness
from firmware.drivers.pinout import LedBackend
from firmware.errors import UsageError
from firmware.fleet.attach import reporting
from firmware.service.pi_devices import open_pi_devices
from firmware.service.pi_model import (
    PI_MODEL_FILE,
    LedBackendMismatchError,
    choose_led_backend,
    is_raspberry_pi,
    read_model,
)
from firmware.service.sd_notify import SystemdNotifier
from firmware.service.serve import install_stop_handlers, serve
from firmware.service.state_dir import (
    StateDirError,
    check_enterable,
    check_service_state_dir,
    volatile_parent,
)
from firmware.table.assemble import build_table
from firmware.table.config import ConfigError, TableConfig, installed_config, load_config
from firmware.table.display_worker import DisplayWorker
from firmware.table.game_loop import TableEvent
from firmware.table.inbox import Inbox
from firmware.table.store import GameStore

log = logging.getLogger("firmware.run")


def run_table(args: argparse.Namespace, model_file: Path = PI_MODEL_FILE) -> int:
    """Run the `run` subcommand; returns the exit code, raises `UsageError` before any hardware
    is opened. With `--check-config`, only check the config as `run` would (the state
    directory's rule and the LED backend for this machine's model included), anywhere, opening
    no hardware and touching no saved game: exit 0 with a one-line summary, or 2 with the
    error."""
    check_only = bool(getattr(args, "check_config", False))
    # `--virtual [SCRIPT]`: "" without a script, None on the Pi's own hardware.
    virtual: str | None = getattr(args, "virtual", None)
    if not check_only and virtual is None and not is_raspberry_pi(model_file):
        raise UsageError(
            "this is not a Raspberry Pi; "
            "on a desktop, try `codenames-table sim --headless --script FILE`"
        )
    path = args.config or installed_config()
    model = read_model(model_file)
    try:
        config = load_config(path)
        led_backend = choose_led_backend(config.pins.led_backend, model)
        fleet_warning = _fleet_warning(config, path)
        state_dir = _service_state_dir(args.state_dir, config, path, virtual is not None)
        if not check_only:
            check_enterable(state_dir)
    except LedBackendMismatchError as error:
        raise UsageError(f"{path or 'default'}: pins.led.backend: {error}") from error
    except (ConfigError, StateDirError) as error:
        raise UsageError(str(error)) from error
    if fleet_warning is not None:
        # One line, on the terminal of --check-config, in the journal of the service.
        print(f"codenames-table run: warning: {fleet_warning}", file=sys.stderr)
    if check_only:
        settings = config.settings
        print(
            f"codenames-table run: config OK: {path or 'no config file, every default'}; "
            f"state_dir {state_dir}, language {args.lang or settings.language}, "
            f"mode {settings.mode.value}, "
            f"LED backend {_backend_line(config.pins.led_backend, led_backend, model)}"
        )
        return 0
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    # A fatal signal (SIGBUS from a mapped file, SIGSEGV in a C library) then leaves its
    # traceback in the journal, also where the unit's PYTHONFAULTHANDLER is not set. Written to
    # file descriptor 2, the process's own stderr: a caller may have put a stream without a
    # file descriptor in `sys.stderr`.
    faulthandler.enable(file=2)
    if virtual is not None:
        volatile = volatile_parent(state_dir)
        if volatile is not None:
            log.warning(
                "state_dir %s is under %s: its games are lost at reboot (a demonstration)",
                state_dir,
                volatile,
            )
        from firmware.service.virtual_service import run_virtual

        return run_virtual(config, state_dir, args.lang, Path(virtual) if virtual else None)
    _serve(config, state_dir, args.lang, led_backend)
    return 0


def _backend_line(configured: LedBackend, chosen: LedBackend, model: str | None) -> str:
    """The LED backend as `--check-config` names it: `spi (auto on Raspberry Pi 5 …)`."""
    if configured is not LedBackend.AUTO:
        return chosen.value
    return f"{chosen.value} (auto on {model or 'a machine that is not a Raspberry Pi'})"


def _fleet_warning(config: TableConfig, path: Path | None) -> str | None:
    """Check `[fleet]`'s broker address as the fleet reads it, so that `--check-config` means
    what `run` does; the warning to give about it, if any. `ConfigError` naming the key."""
    if config.fleet is None:
        return None
    # Imported here: a table without [fleet] imports nothing of the fleet.
    from firmware.fleet.broker import BrokerAddress, BrokerError, plain_password_warning

    try:
        address = BrokerAddress.parse(config.fleet.broker)
    except BrokerError as error:
        raise ConfigError(f"{path or 'default'}: fleet.broker: {error}") from error
    return plain_password_warning(address, config.fleet.password_file)


def _service_state_dir(
    option: Path | None, config: TableConfig, path: Path | None, demonstration: bool
) -> Path:
    """The state directory the service would use, if it survives a reboot (on virtual hardware,
    a `demonstration`, any absolute one); the error names where it was set."""
    try:
        return check_service_state_dir(option or config.state_dir, demonstration=demonstration)
    except StateDirError as error:
        where = "--state-dir" if option else f"{path or 'default'}: table.state_dir"
        raise StateDirError(f"{where}: {error}") from None


def _serve(
    config: TableConfig, state_dir: Path, language: str | None, led_backend: LedBackend
) -> None:
    # Every way out of here, a return on SIGTERM or an exception from any step, leaves through
    # the `with` that closes the devices, and so drives the buzzer low (`Buzzer.close`).
    stop = threading.Event()
    notifier = SystemdNotifier.from_environment()
    install_stop_handlers(stop, notifier)
    notifier.status("starting: opening the hardware")
    events: queue.Queue[TableEvent] = Inbox()
    with (
        notifier,
        SystemClock() as clock,
        open_pi_devices(config, clock, events, led_backend) as devices,
        DisplayWorker(devices.oled) as display,
        GameStore(state_dir) as store,
    ):
        # The OLED's own timed redraws go to the display's thread, off the clock's thread
        # that also scans the switches.
        devices.oled.defer = display.run_soon
        table = build_table(
            config,
            clock=clock,
            store=store,
            buzzer=devices.buzzer,
            lights=devices.lights,
            screen=display,
            events=events,
            rng=secrets.SystemRandom(),
            language=language,
            led_fault=devices.led_fault,
            led_supply=devices.console.led_supply,
        )
        log.info("table ready")
        # The scanner has no thread of its own: it runs on the clock's (see
        # firmware.drivers.liveness).
        with reporting(
            config.fleet,
            table,
            state_dir,
            lambda: devices.oled.is_up,
            led_backend=devices.led_backend.value,
        ):
            problems = () if devices.led_status is None else (devices.led_status,)
            serve(table, stop, notifier, Liveness([clock.progress, display.progress]), problems)
