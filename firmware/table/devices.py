"""The table's devices as its config wires them, each built here and only here: the switches
(matrix or touch pads) and the console on the configured pins and timing, the buzzer, and the
LED key in the configured layout and look.

The Pi's service and the virtual table open their devices through these, so both are wired the
same way from the same config; only what is underneath differs (the Pi's GPIO or mock pins, a
real strip or the virtual one).
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from typing import Any

from gpiozero.pins import Factory

from firmware.drivers.buzzer import Buzzer
from firmware.drivers.clock import Clock
from firmware.drivers.console import Console, SwitchesOpener
from firmware.drivers.events import MatrixEvent
from firmware.drivers.led_strip import LedStrip
from firmware.drivers.matrix import SwitchMatrix
from firmware.drivers.matrix_wires import busy_wait
from firmware.drivers.touch_pads import TouchPads
from firmware.table.config import TableConfig
from firmware.table.led_key import LedKey


def open_console(
    config: TableConfig,
    clock: Clock,
    events: queue.Queue[Any],
    pin_factory: Factory | None = None,
    *,
    i2c: Any = None,
    settle_wait: Callable[[float], None] = busy_wait,
) -> Console:
    """The console on the config's pins, reporting to `events`; `pin_factory` None is gpiozero's
    default (the Pi's GPIO), the virtual table passes its mock factory. With `[input] backend =
    "mpr121"` the pads and buttons are the touch chips on `i2c` (None: the Pi's I2C1). The matrix
    waits the settle time of the config's column pull-ups with `settle_wait` (see
    `SwitchMatrix`)."""
    pins = config.pins
    return Console(
        clock,
        switches=_switches(config, clock, pin_factory, i2c, settle_wait),
        pin_factory=pin_factory,
        events=events,
        encoder_a=pins.encoder_a,
        encoder_b=pins.encoder_b,
        encoder_push=pins.encoder_push,
        led_sense=pins.led_sense,
        debounce_ms=config.inputs.release_debounce_ms,
    )


def _switches(
    config: TableConfig,
    clock: Clock,
    pin_factory: Factory | None,
    i2c: Any,
    settle_wait: Callable[[float], None],
) -> SwitchesOpener:
    """What opens the pads and buttons as the config wires them: the switch matrix, or the
    touch chips."""
    inputs = config.inputs
    if inputs.backend == "mpr121":
        touch = inputs.mpr121

        def touch_pads(sink: Callable[[MatrixEvent], None]) -> TouchPads:
            return TouchPads(
                clock,
                sink,
                i2c=i2c,
                irq_pins=touch.irq_pins,
                pin_factory=pin_factory,
                addresses=touch.addresses,
                debounce_ms=inputs.touch_debounce_ms,
                stuck_after_s=inputs.stuck_after_s,
                default_thresholds=touch.default,
                thresholds=dict(touch.pads),
            )

        return touch_pads

    def matrix(sink: Callable[[MatrixEvent], None]) -> SwitchMatrix:
        return SwitchMatrix(
            clock,
            sink,
            rows=config.pins.matrix_rows,
            columns=config.pins.matrix_columns,
            pin_factory=pin_factory,
            debounce_ms=inputs.release_debounce_ms,
            press_confirm_ms=inputs.press_confirm_ms,
            stuck_after_s=inputs.stuck_after_s,
            settle_s=inputs.settle_s,
            settle_wait=settle_wait,
        )

    return matrix


def open_buzzer(
    config: TableConfig, clock: Clock, pin_factory: Factory | None = None
) -> Buzzer | None:
    """The buzzer on the config's pin, or None when the table has none."""
    pin = config.pins.buzzer
    return None if pin is None else Buzzer(clock, pin, pin_factory=pin_factory)


def led_key(config: TableConfig, strip: LedStrip) -> LedKey:
    """The LED key on `strip`, wired and looking as the config says."""
    return LedKey(strip, config.led_layout, config.led_style)
