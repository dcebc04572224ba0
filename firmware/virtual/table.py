"""The whole table on virtual hardware: the real drivers and application over the lowest
boundary of each device (gpiozero mock pins, a fake I2C bus with a virtual SSD1306, a virtual
pixel strip), on a virtual clock.

Headless scripts, the desktop simulation, the tests and the benchmarks all drive this: a press
here closes a virtual switch that the real matrix scanner reads, and the OLED memory is what
the real driver wrote over the virtual bus.

The same table can also run as on the Pi, for the benchmarks and the robustness tests: on a real
`SystemClock`, with the threaded `DisplayWorker`, a bus paced like a real one, and the game loop
on its own thread (`start_loop`). `wait` and the scripted presses then do not apply, since only a
virtual clock can be stepped: the caller closes switches and lets real time pass.
"""

from __future__ import annotations

import queue
import random
import threading
from collections.abc import Callable
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from board_rules.codenames import Coord, Key, Mode
from firmware.drivers.clock import Clock, VirtualClock
from firmware.drivers.events import ConsoleButton
from firmware.drivers.led_strip import LedFault, Ws281xStrip
from firmware.drivers.matrix_wires import busy_wait, column_pull_up_ohms
from firmware.drivers.oled_group import open_oleds
from firmware.errors import FirmwareError
from firmware.table.assemble import build_table
from firmware.table.config import TableConfig
from firmware.table.devices import led_key, open_buzzer, open_console
from firmware.table.display_worker import DisplayWorker, ImmediateDisplay
from firmware.table.game_loop import TableEvent
from firmware.table.inbox import Inbox
from firmware.table.store import GameStore, StoreError
from firmware.virtual.encoder import VirtualEncoder
from firmware.virtual.i2c import VirtualI2C
from firmware.virtual.led_supply import NOMINAL_V, VirtualLedSupply
from firmware.virtual.matrix_circuit import CountingPin, SwitchMatrixCircuit, WireTime
from firmware.virtual.mpr121 import VirtualTouchPanel
from firmware.virtual.ssd1306 import attach_virtual_oleds
from firmware.virtual.strip import VirtualPixelStrip, open_virtual_strip

PRESS_S = 0.1
"""How long a scripted press of a pad or button lasts unless told otherwise."""
SETTLE_S = 0.05
"""Time let pass after a release, so that its debounced event is handled before what follows."""
LOOP_STOP_TIMEOUT_S = 10.0
"""How long `close` waits for the game loop thread to finish the event in hand."""


class NotVirtualTimeError(FirmwareError, RuntimeError):
    """`wait` or a scripted press on a table whose clock is not a `VirtualClock`."""


class ObservedPixelStrip(VirtualPixelStrip):
    """The virtual strip, also calling `on_show` right after each frame went out: how the
    benchmarks time the LED key, and how the soak driver sees the players' feedback."""

    on_show: Callable[[], None] | None = None

    def show(self) -> None:
        super().show()
        if self.on_show is not None:
            self.on_show()


class VirtualTable:
    """A table on virtual hardware; `close` it (or use `with`) to stop its devices.

    By default everything runs on a `VirtualClock` that `wait` steps, and the OLED is drawn on
    the caller's thread. As on the Pi instead: pass a `SystemClock` as `clock` (the caller
    closes it after the table), `threaded_display=True`, a `bus` paced with `time.sleep`, and
    call `start_loop`. `strip` replaces the virtual LED strip, for one that also notes when it
    shows (benchmarks). `led_fault` plays a table whose real strip did not open, for that
    reason: the game goes on, on the virtual strip, and the table shows why the key is off.
    `led_supply_on` False starts the table with its LED supply dead (`led_supply` switches it).
    """

    def __init__(
        self,
        config: TableConfig,
        state_dir: Path,
        *,
        rng: random.Random,
        clock: Clock | None = None,
        wall_clock_start: float = 1_800_000_000.0,
        first_key: Key | None = None,
        first_mode: Mode | None = None,
        language: str | None = None,
        threaded_display: bool = False,
        bus: VirtualI2C | None = None,
        strip: Ws281xStrip[VirtualPixelStrip] | None = None,
        led_fault: LedFault | None = None,
        led_supply_on: bool = True,
    ) -> None:
        self.config = config
        self.clock: Clock = VirtualClock() if clock is None else clock
        self._virtual_clock = self.clock if isinstance(self.clock, VirtualClock) else None
        pins = config.pins
        # Counting pins can all do PWM, so that an optional buzzer can be driven as on the Pi,
        # and they count every read of a level: an idle table should make none.
        self.factory = MockFactory(pin_class=CountingPin)
        self.bus = VirtualI2C() if bus is None else bus
        self.wire = WireTime(self.clock)
        """Time on the matrix's wires, where its columns rise through the config's pull-ups
        (`[input] column_pullup_ohms`): on a virtual clock the scanner's settle waits move it and
        nothing else; on a real one they are the Pi's busy waits, and real time passes."""
        wire_wait = busy_wait if self._virtual_clock is None else self.wire.wait
        self.circuit: SwitchMatrixCircuit | VirtualTouchPanel
        """The switch matrix, or the touch chips of `[input] backend = "mpr121"`: what a
        finger presses, the same calls on either."""
        if config.inputs.backend == "mpr121":
            touch = config.inputs.mpr121
            self.circuit = VirtualTouchPanel(
                self.clock, self.bus, self.factory, touch.irq_pins, touch.addresses
            )
        else:
            self.circuit = SwitchMatrixCircuit(
                self.factory,
                rows=pins.matrix_rows,
                columns=pins.matrix_columns,
                now=self.wire.now,
                wait=wire_wait,
                pull_up_ohms=column_pull_up_ohms(config.inputs.column_pullup_ohms),
            )
        self.encoder = VirtualEncoder(
            self.factory, a=pins.encoder_a, b=pins.encoder_b, push=pins.encoder_push
        )
        self.led_supply = (
            None
            if pins.led_sense is None
            else VirtualLedSupply(self.factory, pins.led_sense, NOMINAL_V if led_supply_on else 0.0)
        )
        """The LEDs' supply on its sense divider (`cut` and `restore` it), when the pin map
        watches it."""
        self.events: queue.Queue[TableEvent] = Inbox()
        # The buzzer first, as on the Pi: its pin is driven low before anything else opens.
        self.buzzer = open_buzzer(config, self.clock, self.factory)
        self.console = open_console(
            config,
            self.clock,
            self.events,
            pin_factory=self.factory,
            i2c=self.bus,
            settle_wait=wire_wait,
        )
        self.chips = attach_virtual_oleds(self.bus, config.oled, self.factory)
        """One chip per display: the config's second display has its own."""
        self.chip = self.chips[0]
        self.oled = open_oleds(self.clock, config.oled, i2c=self.bus, pin_factory=self.factory)
        self.display: ImmediateDisplay | DisplayWorker
        if threaded_display:
            self.display = DisplayWorker(self.oled)
            # As on the Pi: the OLED's timed redraws go to the display's thread, off the
            # clock's thread that also scans the switches.
            self.oled.defer = self.display.run_soon
        else:
            self.display = ImmediateDisplay(self.oled)
        self.strip = open_virtual_strip(config.led_layout.pixel_count) if strip is None else strip
        self.lights = led_key(config, self.strip)
        if self.led_supply is not None:
            self.led_supply.pixels = self.strip.pixel_strip
        self._wall_start = wall_clock_start
        self.store = GameStore(state_dir, wall_clock=self._wall_time)
        self.table = build_table(
            config,
            clock=self.clock,
            store=self.store,
            buzzer=self.buzzer,
            lights=self.lights,
            screen=self.display,
            events=self.events,
            rng=rng,
            wall_clock=self._wall_time,
            first_key=first_key,
            first_mode=first_mode,
            language=language,
            led_fault=led_fault,
            led_supply=self.console.led_supply,
        )
        # Past the debounce time, with a scan period to spare.
        self.settle_s = max(SETTLE_S, config.inputs.release_debounce_ms / 1000 + 0.01)
        """How long after a release its debounced event has surely been handled."""
        self._loop: threading.Thread | None = None
        self._stop_loop = threading.Event()
        self._closed = False

    def _wall_time(self) -> float:
        # Saved action times follow the virtual clock, so a scripted run is reproducible.
        return self._wall_start + self.clock.monotonic()

    @property
    def pixel_strip(self) -> VirtualPixelStrip:
        """The virtual strip under the LED key."""
        return self.strip.pixel_strip

    @property
    def game_id(self) -> int | None:
        """The saved id of the game in play: the latest in the store (None while the store
        cannot be read), which is what the simulation deals a game's words from."""
        try:
            ids = self.store.game_ids()
        except StoreError:
            return None
        return ids[-1] if ids else None

    @property
    def pin_reads(self) -> int:
        """Reads of any pin's level (matrix, encoder, push) since the table was built."""
        return sum(pin.reads for pin in self.factory.pins.values() if isinstance(pin, CountingPin))

    def wait(self, seconds: float, observe: Callable[[TableEvent], None] | None = None) -> None:
        """Let `seconds` pass, handling every event when it happens (virtual clock only);
        `observe` sees each event before the table handles it."""
        clock = self._virtual_clock
        if clock is None:
            raise NotVirtualTimeError(
                "wait() and the scripted presses step a VirtualClock; this table runs on real "
                "time: close switches through .circuit and let time pass instead"
            )
        if self._loop is not None:
            raise RuntimeError("the game loop runs on its own thread: wait() would race it")
        end = clock.monotonic() + seconds
        while True:
            self.table.run_pending(observe)
            due = clock.next_due
            if due is None or due > end:
                break
            clock.advance(max(due - clock.monotonic(), 0.0))
        clock.advance(max(end - clock.monotonic(), 0.0))
        self.table.run_pending(observe)

    def start_loop(
        self, heartbeat: Callable[[], None] = lambda: None, heartbeat_s: float = 1.0
    ) -> None:
        """Run the game loop (`Table.run_forever`) on its own thread, as the service does on the
        Pi; `heartbeat` is what would feed the watchdog. `close` stops it."""
        if self._loop is not None:
            raise RuntimeError("the game loop is already running")
        if self._closed:
            raise RuntimeError("the table is closed")
        self._loop = threading.Thread(
            target=self.table.run_forever,
            args=(self._stop_loop, heartbeat, heartbeat_s),
            name="game",
            daemon=True,
        )
        self._loop.start()

    @property
    def loop_running(self) -> bool:
        """True while the game loop thread of `start_loop` is alive."""
        return self._loop is not None and self._loop.is_alive()

    def press_pad(self, coord: Coord, hold_s: float = PRESS_S) -> None:
        """Press a card pad for `hold_s` seconds, then let go."""
        self.circuit.press_pad(coord)
        self.wait(hold_s)
        self.circuit.release_pad(coord)
        self.wait(self.settle_s)

    def press_button(self, button: ConsoleButton, hold_s: float = PRESS_S) -> None:
        """Press a console button for `hold_s` seconds, then let go."""
        self.circuit.press_button(button)
        self.wait(hold_s)
        self.circuit.release_button(button)
        self.wait(self.settle_s)

    def turn(self, detents: int) -> None:
        """Turn the encoder: positive clockwise."""
        self.encoder.turn(detents)
        self.wait(0)

    def push(self, hold_s: float = PRESS_S) -> None:
        """Push the encoder for `hold_s` seconds."""
        self.encoder.press()
        self.wait(hold_s)
        self.encoder.release()
        self.wait(self.settle_s)

    def close(self) -> None:
        """Stop the devices; idempotent. The saved games stay on disk."""
        if self._closed:
            return
        self._closed = True
        # Inputs first, so nothing new reaches the loop; then the loop, then what it drives.
        self.console.close()
        if self._loop is not None:
            self._stop_loop.set()
            self._loop.join(LOOP_STOP_TIMEOUT_S)
        # A clean stop, as the service's: what a fault held back is saved or kept in a file.
        self.table.save_before_stop()
        self.display.close()
        self.oled.close()
        if self.buzzer is not None:
            self.buzzer.close()
        self.lights.close()
        self.store.close()

    def __enter__(self) -> VirtualTable:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
