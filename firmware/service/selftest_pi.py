"""`codenames-table selftest`: the self-test on the Pi's own hardware (see
`firmware.service.selftest` for what it checks); with `--calibrate`, the capacitive pads'
calibration (`firmware.service.selftest_calibrate`)."""

from __future__ import annotations

import argparse
import queue
import time
from pathlib import Path

from firmware.drivers.clock import SystemClock
from firmware.drivers.events import InputEvent
from firmware.drivers.touch_pads import TouchSwitch, switch_name
from firmware.errors import UsageError
from firmware.service.pi_devices import open_pi_devices
from firmware.service.pi_model import (
    PI_MODEL_FILE,
    LedBackendMismatchError,
    choose_led_backend,
    is_raspberry_pi,
    read_model,
)
from firmware.service.selftest import QueueRig, SelfTest
from firmware.service.selftest_calibrate import (
    Gesture,
    measure,
    open_configured,
    report_lines,
    write_thresholds,
)
from firmware.table.config import (
    DEFAULT_PATH,
    ConfigError,
    InputConfig,
    installed_config,
    load_config,
)
from firmware.table.i18n import translations

EXIT_FAULT = 1
"""Exit code when the self-test found a fault."""


def run_selftest(args: argparse.Namespace, model_file: Path = PI_MODEL_FILE) -> int:
    """Run the `selftest` subcommand: 0 when everything works, 1 on a fault (an LED strip that
    does not open is one); raises `UsageError` away from a Pi and on a bad config (a backend
    that cannot drive this Pi's LEDs included), before any device is opened."""
    if not is_raspberry_pi(model_file):
        raise UsageError(
            "this is not a Raspberry Pi; the self-test checks the table's own hardware. Here, "
            "`codenames-table sim` (menu: Pad test) tries every pad and button on virtual "
            "hardware, and `codenames-table run --virtual` runs the service itself"
        )
    path = args.config or installed_config()
    try:
        config = load_config(path)
        led_backend = choose_led_backend(config.pins.led_backend, read_model(model_file))
    except LedBackendMismatchError as error:
        raise UsageError(f"{path or 'default'}: pins.led.backend: {error}") from error
    except ConfigError as error:
        raise UsageError(str(error)) from error
    if getattr(args, "calibrate", False):
        return _calibrate(args.config or installed_config() or DEFAULT_PATH, config.inputs)
    events: queue.Queue[InputEvent] = queue.Queue()
    with SystemClock() as clock, open_pi_devices(config, clock, events, led_backend) as devices:
        rig = QueueRig(events, devices.lights.show, devices.oled.show, time.sleep)
        catalog = translations(config.settings.language)
        matrix = config.inputs.backend == "matrix"
        test = SelfTest(
            rig,
            catalog,
            wait_s=args.wait,
            stuck_after_s=config.inputs.stuck_after_s,
            column_pullup_ohms=config.inputs.column_pullup_ohms if matrix else None,
            led_error=devices.led_error,
            led_supply=lambda: devices.console.led_supply,
        )
        report = test.run(on_prompt=lambda name: print(f"now: {name}", flush=True))
    for line in report.lines():
        print(line)
    return 0 if report.ok else EXIT_FAULT


def _ask(switch: TouchSwitch, gesture: Gesture) -> None:
    name = switch_name(switch)
    if gesture == "finger":
        print(f"touch {name} and keep touching", flush=True)
    else:
        print(f"now hold a hand flat about 1 cm above {name}, without touching", flush=True)


def _calibrate(path: Path, inputs: InputConfig) -> int:
    """Measure every pad, write the thresholds of the strong ones to `path`; 1 when a pad is
    too weak or a chip does not answer."""
    # Imported here: Blinka's board detection fails off the Pi.
    from firmware.drivers.i2c_bus import open_board_i2c

    if inputs.backend != "mpr121":
        raise UsageError(f'{path}: input.backend: the calibration is for "mpr121" touch pads')
    chips = open_configured(open_board_i2c(), inputs.mpr121.addresses)
    for address, chip in zip(inputs.mpr121.addresses, chips, strict=True):
        if chip is None:
            print(f"touch chip 0x{address:02x} does not answer", flush=True)
    readings = measure(chips, time.sleep, _ask)
    for line in report_lines(readings):
        print(line)
    try:
        write_thresholds(path, readings)
    except (OSError, ConfigError) as error:
        raise UsageError(f"{path}: the thresholds cannot be written: {error}") from error
    print(f"thresholds written to {path}")
    return EXIT_FAULT if None in chips or any(r.weak for r in readings) else 0
