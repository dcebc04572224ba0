"""The whole table on virtual hardware: the real drivers and application over the lowest
boundary of each device (gpiozero mock pins, a fake I2C bus with a virtual SSD1306, a virtual
pixel strip), on a virtual clock.

Headless scripts, the desktop simulation, the tests and the benchmarks all drive this: a press
here closes a virtual switch that the real matrix scanner reads, and the OLED memory is what
the real driver wrote over the virtual bus.
"""

from __future__ import annotations

import queue
import random
from pathlib import Path

from gpiozero.pins.mock import MockFactory, MockPWMPin

from board_rules.codenames import Coord, Key
from firmware.clock import VirtualClock
from firmware.config import TableConfig
from firmware.console import Console
from firmware.display import ImmediateDisplay
from firmware.events import ConsoleButton
from firmware.led_strip import LedKey, open_virtual_strip
from firmware.oled import Oled
from firmware.store import GameStore
from firmware.table import Table, TableEvent, TimingSettings
from firmware.virtual.encoder import VirtualEncoder
from firmware.virtual.i2c import VirtualI2C
from firmware.virtual.matrix_circuit import SwitchMatrixCircuit
from firmware.virtual.ssd1306 import VirtualSSD1306
from firmware.virtual.strip import VirtualPixelStrip

PRESS_S = 0.1
"""How long a scripted press of a pad or button lasts unless told otherwise."""
SETTLE_S = 0.05
"""Time let pass after a release, so that its debounced event is handled before what follows."""


class VirtualTable:
    """A table on virtual hardware; `close` it (or use `with`) to stop its devices."""

    def __init__(
        self,
        config: TableConfig,
        state_dir: Path,
        *,
        rng: random.Random,
        clock: VirtualClock | None = None,
        wall_clock_start: float = 1_800_000_000.0,
        first_key: Key | None = None,
        language: str | None = None,
    ) -> None:
        self.config = config
        self.clock = clock or VirtualClock()
        pins = config.pins
        # PWM-capable mock pins, so that an optional buzzer can be driven as on the Pi.
        self.factory = MockFactory(pin_class=MockPWMPin)
        self.circuit = SwitchMatrixCircuit(
            self.factory, rows=pins.matrix_rows, columns=pins.matrix_columns
        )
        self.encoder = VirtualEncoder(
            self.factory, a=pins.encoder_a, b=pins.encoder_b, push=pins.encoder_push
        )
        self.events: queue.Queue[TableEvent] = queue.Queue()
        self.console = Console(
            self.clock,
            pin_factory=self.factory,
            events=self.events,
            matrix_rows=pins.matrix_rows,
            matrix_columns=pins.matrix_columns,
            encoder_a=pins.encoder_a,
            encoder_b=pins.encoder_b,
            encoder_push=pins.encoder_push,
            buzzer=pins.buzzer,
            debounce_ms=config.inputs.debounce_ms,
            stuck_after_s=config.inputs.stuck_after_s,
        )
        self.bus = VirtualI2C()
        self.chip = VirtualSSD1306(strict=False)
        self.bus.attach(config.oled.address, self.chip)
        self.oled = Oled(self.clock, i2c=self.bus, config=config.oled)
        self.display = ImmediateDisplay(self.oled)
        self.strip = open_virtual_strip(config.led_layout.pixel_count)
        self.lights = LedKey(self.strip, config.led_layout, config.led_style)
        self._wall_start = wall_clock_start
        self.store = GameStore(state_dir, wall_clock=self._wall_time)
        self.table = Table(
            clock=self.clock,
            store=self.store,
            lights=self.lights,
            screen=self.display,
            rng=rng,
            settings=config.settings,
            beeper=self.console if self.console.has_buzzer else None,
            timing=TimingSettings(sleep_after_s=config.sleep_after_s),
            wall_clock=self._wall_time,
            first_key=first_key,
            language=language,
            events=self.events,
        )
        # Past the debounce time, with a scan period to spare.
        self._settle_s = max(SETTLE_S, config.inputs.debounce_ms / 1000 + 0.01)
        self._closed = False

    def _wall_time(self) -> float:
        # Saved action times follow the virtual clock, so a scripted run is reproducible.
        return self._wall_start + self.clock.monotonic()

    @property
    def pixel_strip(self) -> VirtualPixelStrip:
        """The virtual strip under the LED key."""
        return self.strip.pixel_strip

    def wait(self, seconds: float) -> None:
        """Let `seconds` pass, handling every event when it happens."""
        end = self.clock.monotonic() + seconds
        while True:
            self._pump()
            due = self.clock.next_due
            if due is None or due > end:
                break
            self.clock.advance(max(due - self.clock.monotonic(), 0.0))
        self.clock.advance(max(end - self.clock.monotonic(), 0.0))
        self._pump()

    def _pump(self) -> None:
        self.table.run_pending()

    def press_pad(self, coord: Coord, hold_s: float = PRESS_S) -> None:
        """Press a card pad for `hold_s` seconds, then let go."""
        self.circuit.press_pad(coord)
        self.wait(hold_s)
        self.circuit.release_pad(coord)
        self.wait(self._settle_s)

    def press_button(self, button: ConsoleButton, hold_s: float = PRESS_S) -> None:
        """Press a console button for `hold_s` seconds, then let go."""
        self.circuit.press_button(button)
        self.wait(hold_s)
        self.circuit.release_button(button)
        self.wait(self._settle_s)

    def turn(self, detents: int) -> None:
        """Turn the encoder: positive clockwise."""
        self.encoder.turn(detents)
        self.wait(0)

    def push(self, hold_s: float = PRESS_S) -> None:
        """Push the encoder for `hold_s` seconds."""
        self.encoder.press()
        self.wait(hold_s)
        self.encoder.release()
        self.wait(self._settle_s)

    def close(self) -> None:
        """Stop the devices; idempotent. The saved games stay on disk."""
        if self._closed:
            return
        self._closed = True
        self.console.close()
        self.oled.close()
        self.lights.close()
        self.store.close()

    def __enter__(self) -> VirtualTable:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
