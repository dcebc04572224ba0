"""The fleet on a running table: a `FleetPublisher` made the table's observer for as long as
the `with` lasts (and handed to it), when the config has `[fleet]`; without it nothing of MQTT
is imported."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from firmware.errors import UsageError
from firmware.table.config import FleetConfig
from firmware.table.game_loop import Table

if TYPE_CHECKING:
    from firmware.fleet.publisher import FleetPublisher


@contextlib.contextmanager
def reporting(
    fleet: FleetConfig | None,
    table: Table,
    state_dir: Path,
    oled_up: Callable[[], bool] = lambda: True,
    led_backend: str = "virtual",
) -> Iterator[FleetPublisher | None]:
    """Report `table` to the fleet's broker inside the `with` (before its loop runs);
    `led_backend` is what drives its LED key. The `with` gets the publisher, None without
    `[fleet]`."""
    if fleet is None:
        yield None
        return
    from firmware.fleet.broker import BrokerError
    from firmware.fleet.health import HealthReading
    from firmware.fleet.publisher import FleetPublisher

    try:
        publisher = FleetPublisher(
            fleet,
            HealthReading(
                state_dir,
                time.monotonic(),
                led_backend=led_backend,
                led_off=lambda: None if table.led_fault is None else table.led_fault.value,
                led_supply=lambda: table.led_supply,
            ),
            oled_up=oled_up,
            not_saving=lambda: table.not_saving,
        )
    except BrokerError as error:  # the address, which the config only checks is a text
        raise UsageError(f"fleet.broker: {error}") from error
    publisher.show(table.state, table.match_score)
    table.observer = publisher
    with publisher:
        try:
            yield publisher
        finally:
            table.observer = None
