"""`codenames-table selftest`: the self-test on the Pi's own hardware (see
`firmware.service.selftest` for what it checks)."""

from __future__ import annotations

import argparse
import queue
import time

from firmware.drivers.clock import SystemClock
from firmware.drivers.events import InputEvent
from firmware.errors import UsageError
from firmware.service.pi_devices import open_pi_devices
from firmware.service.pi_model import is_raspberry_pi
from firmware.service.selftest import QueueRig, SelfTest
from firmware.table.config import ConfigError, installed_config, load_config
from firmware.table.i18n import translations

EXIT_FAULT = 1
"""Exit code when the self-test found a fault."""


def run_selftest(args: argparse.Namespace) -> int:
    """Run the `selftest` subcommand: 0 when everything works, 1 on a fault; raises `UsageError`
    away from a Pi and on a bad config, before any device is opened."""
    if not is_raspberry_pi():
        raise UsageError(
            "this is not a Raspberry Pi; the self-test checks the table's own hardware"
        )
    try:
        config = load_config(args.config or installed_config())
    except ConfigError as error:
        raise UsageError(str(error)) from error
    events: queue.Queue[InputEvent] = queue.Queue()
    with SystemClock() as clock, open_pi_devices(config, clock, events) as devices:
        rig = QueueRig(events, devices.lights.show, devices.oled.show, time.sleep)
        catalog = translations(config.settings.language)
        test = SelfTest(rig, catalog, wait_s=args.wait, stuck_after_s=config.inputs.stuck_after_s)
        report = test.run(on_prompt=lambda name: print(f"now: {name}", flush=True))
    for line in report.lines():
        print(line)
    return 0 if report.ok else EXIT_FAULT
