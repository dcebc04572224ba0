"""The table put together: the game loop (`Table`) wired to its devices as the config says.

The Pi's service and the virtual table both build their table here, so the two differ only in
the devices, the clock and the store they hand in.
"""

from __future__ import annotations

import queue
import random
import time
from collections.abc import Callable

from board_rules.codenames import Key, Mode
from firmware.drivers.clock import Clock
from firmware.drivers.led_strip import LedFault
from firmware.table.config import TableConfig
from firmware.table.game_loop import ScreenOutput, Table, TableEvent, TimingSettings
from firmware.table.key_feedback import KeyLights
from firmware.table.sand_timer import Beeper
from firmware.table.store import GameStore


def build_table(
    config: TableConfig,
    *,
    clock: Clock,
    store: GameStore,
    buzzer: Beeper | None,
    lights: KeyLights,
    screen: ScreenOutput,
    events: queue.Queue[TableEvent],
    rng: random.Random,
    wall_clock: Callable[[], float] = time.time,
    first_key: Key | None = None,
    first_mode: Mode | None = None,
    language: str | None = None,
    led_fault: LedFault | None = None,
    led_supply: bool | None = None,
) -> Table:
    """The game loop of a table whose console reports to `events`, with the config's settings
    and sleep time; `buzzer` beeps, when the table has one. `led_fault`: why the key's
    strip did not open (the OLED then says so); `led_supply`: whether the key has power at the
    start, as the console's LED supply sense reads it (None when the table does not watch it)."""
    return Table(
        clock=clock,
        store=store,
        lights=lights,
        screen=screen,
        rng=rng,
        settings=config.settings,
        beeper=buzzer,
        timing=TimingSettings(sleep_after_s=config.sleep_after_s),
        wall_clock=wall_clock,
        first_key=first_key,
        first_mode=first_mode,
        language=language,
        events=events,
        led_fault=led_fault,
        led_supply=led_supply,
    )
