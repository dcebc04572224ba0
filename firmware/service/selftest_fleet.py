"""`codenames-table selftest --fleet`: whether the café's broker accepts this table, in one line
(`firmware.fleet.check`), on any machine and beside the running service; the staff see there
what the service would say only in its journal.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from firmware.errors import UsageError
from firmware.table.config import DEFAULT_PATH, ConfigError, installed_config, load_config

EXIT_NOT_CONNECTED = 1
"""Exit code when the broker did not accept the table."""


def run_fleet_check(args: argparse.Namespace) -> int:
    """0 when the broker accepted the table, 1 when not; `UsageError` for a bad config or one
    without `[fleet]`."""
    path: Path | None = args.config or installed_config()
    try:
        config = load_config(path)
    except ConfigError as error:
        raise UsageError(str(error)) from error
    if config.fleet is None:
        where = path or f"{DEFAULT_PATH} (absent)"
        raise UsageError(f"{where}: no [fleet] in the config: no broker to check")
    # Imported here: a table without [fleet] imports nothing of MQTT.
    from firmware.fleet.broker import BrokerError
    from firmware.fleet.check import check_fleet

    try:
        found = check_fleet(config.fleet)
    except BrokerError as error:  # the address, which the config only checks is a text
        raise UsageError(f"{path}: fleet.broker: {error}") from error
    print(found.line)
    return 0 if found.connected else EXIT_NOT_CONNECTED
