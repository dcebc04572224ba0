"""The capacitive pads: three MPR121 touch controllers on the OLED's I2C bus, beside the matrix.

Card pads and console buttons are copper electrodes under the cards and the console's labels,
read through them by three NXP MPR121 chips (`adafruit_mpr121`, the maintained driver) at
0x5A, 0x5B and 0x5C. The 25 card pads fill the electrodes in reading order (A1, B1 … E5): E0–E11
of the first chip, E0–E11 of the second, E0 of the third; the five console buttons are E1–E5 of
the third (`BUTTON_ELECTRODES`), so the capacitive table needs no switch at all and the matrix's
pins are free for the three IRQ lines.

The chips measure, filter and debounce on their own; each pulls its IRQ line low when its touch
status changes. The table reads the touch status only then (a gpiozero edge callback hands the
read to the injected clock), so an idle table reads nothing. On every wake-up all three chips
are read, so that two cards touched at once on different chips are seen together.

The events are the switch matrix's: a pad counts once and only alone (`MultiplePads` otherwise,
and none of them counts until lifted), a pad down longer than `stuck_after_s` is `PadStuck` and
ignored until lifted, buttons give `ButtonPressed` and `ButtonReleased`. A chip that stops
answering is a fault: its pads are let go, a `TouchChipFault` is reported (the OLED shows it),
and it is opened again with back-off on the clock (the OLED's way) while the other chips and the
game go on; a second `TouchChipFault` says when it answers again.

Over 400 lines: three chips, their IRQ lines and the pad rules (count once, refuse two
together, stuck) that the matrix applies too; sharing those rules with `matrix` is left for
later.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from gpiozero import DigitalInputDevice
from gpiozero.pins import Factory

from board_rules.codenames.grid import SIZE, Coord
from firmware.drivers.clock import Clock, Timer
from firmware.drivers.events import (
    ButtonPressed,
    ConsoleButton,
    MatrixEvent,
    MultiplePads,
    PadOrButton,
    PadPressed,
    PadStuck,
    TouchChipFault,
    pad_of,
    released,
)

log = logging.getLogger(__name__)

ADDRESSES = (0x5A, 0x5B, 0x5C)
"""The three chips' addresses (ADDR to GND, VDD, SDA); the fourth, 0x5D, stays free."""
ELECTRODES = 12
BUTTON_CHIP = 2
BUTTON_ELECTRODES: dict[ConsoleButton, int] = {
    ConsoleButton.DONE: 1,
    ConsoleButton.PENALTY: 2,
    ConsoleButton.UNDO: 3,
    ConsoleButton.NEW: 4,
    ConsoleButton.TIMER: 5,
}
"""The console buttons on the third chip's electrodes, after the last card pad (E0)."""
SAMPLE_MS = 4
"""The chips' sample period: ESI 2 (CONFIG2 = 0x22, charge time 0.5 µs, 4 samples filter)."""
CONFIG2_4MS = 0x22
DEBOUNCE_REGISTER = 0x5B
CONFIG2_REGISTER = 0x5D
TOUCH_THRESHOLD = 12
RELEASE_THRESHOLD = 6
"""The driver's defaults: a drop of 12 counts touches, under 6 releases (hysteresis)."""
RETRY_FIRST_S = 0.5
RETRY_MAX_S = 30.0

TouchSwitch = PadOrButton


def electrode_of(switch: TouchSwitch) -> tuple[int, int]:
    """The (chip index, electrode) of a card pad or console button.

    >>> electrode_of(Coord.parse("A1")), electrode_of(Coord.parse("E5"))
    ((0, 0), (2, 0))
    >>> electrode_of(ConsoleButton.UNDO)
    (2, 3)
    """
    if isinstance(switch, ConsoleButton):
        return BUTTON_CHIP, BUTTON_ELECTRODES[switch]
    index = switch.row * SIZE + switch.column
    return divmod(index, ELECTRODES)


def switch_of(chip: int, electrode: int) -> TouchSwitch | None:
    """What is wired to `electrode` of chip `chip`; None for a spare electrode."""
    index = chip * ELECTRODES + electrode
    if index < SIZE * SIZE:
        return Coord(row=index // SIZE, column=index % SIZE)
    for button, number in BUTTON_ELECTRODES.items():
        if chip == BUTTON_CHIP and electrode == number:
            return button
    return None


def parse_switch(name: str) -> TouchSwitch:
    """A pad (`C3`) or a console button (`undo`) by the name the config gives it.

    >>> parse_switch("c3"), parse_switch("UNDO")
    (Coord.parse('C3'), <ConsoleButton.UNDO: 'undo'>)
    """
    try:
        return ConsoleButton(name.lower())
    except ValueError:
        pass
    try:
        return Coord.parse(name.upper())
    except ValueError:
        names = ", ".join(button.value for button in ConsoleButton)
        raise ValueError(f"not a pad (A1–E5) nor a console button ({names})") from None


def switch_name(switch: TouchSwitch) -> str:
    """The name `parse_switch` reads back."""
    return switch.value if isinstance(switch, ConsoleButton) else str(switch)


def debounce_register(debounce_ms: float) -> int:
    """The chips' DEBOUNCE value (DR and DT): as many extra samples as fit in `debounce_ms`.

    >>> hex(debounce_register(30.0))
    '0x66'
    """
    extra = max(0, min(7, math.floor(debounce_ms / SAMPLE_MS) - 1))
    return extra << 4 | extra


class TouchChip(Protocol):
    """What the table uses of `adafruit_mpr121.MPR121`."""

    def __getitem__(self, key: int) -> Any: ...

    def touched(self) -> int: ...

    def filtered_data(self, pin: int) -> int: ...

    def baseline_data(self, pin: int) -> int: ...

    def _write_register_byte(self, register: int, value: int) -> None: ...


@dataclass(frozen=True)
class PadThresholds:
    """An electrode's touch and release thresholds, in counts of drop below its baseline."""

    touch: int = TOUCH_THRESHOLD
    release: int = RELEASE_THRESHOLD

    def __post_init__(self) -> None:
        if not 0 < self.release < self.touch <= 255:
            raise ValueError("thresholds need 0 < release < touch <= 255 (the hysteresis)")


@dataclass(frozen=True)
class TouchPadsConfig:
    """The capacitive table as `[input.mpr121]` describes it (`firmware.table.config`)."""

    addresses: tuple[int, ...] = ADDRESSES
    irq_pins: tuple[int, ...] = (17, 27, 22)
    """One input per chip; by default the matrix's columns A–C, which a capacitive table frees."""
    default: PadThresholds = PadThresholds()
    pads: tuple[tuple[TouchSwitch, PadThresholds], ...] = ()
    """Thresholds of their own, as the calibration measured them."""


def open_chip(i2c: Any, address: int) -> TouchChip:
    """The driver of the chip at `address` (it soft-resets the chip and enables 12 electrodes)."""
    import adafruit_mpr121

    chip: TouchChip = adafruit_mpr121.MPR121(i2c, address)
    return chip


@dataclass
class _Contact:
    switch: TouchSwitch
    down: bool = False
    down_since: float = 0.0
    reported: bool = False
    spoiled: bool = False
    stuck: bool = False
    stuck_timer: Timer | None = None


class TouchPads:
    """Reads the three chips on `i2c` when their IRQ lines (`irq_pins`) fall; events to `sink`.

    `i2c` is the bus (`VirtualI2C` off the Pi); None opens the Pi's I2C1, the OLED's bus.
    `sink` is called on the clock's thread, never while a lock is held. `thresholds` maps a
    switch to its own thresholds (from the calibration); the others get `default_thresholds`.
    """

    def __init__(
        self,
        clock: Clock,
        sink: Callable[[MatrixEvent], None],
        *,
        i2c: Any = None,
        irq_pins: Sequence[int],
        pin_factory: Factory | None = None,
        addresses: Sequence[int] = ADDRESSES,
        debounce_ms: float = 30.0,
        stuck_after_s: float = 10.0,
        default_thresholds: PadThresholds = PadThresholds(),
        thresholds: dict[TouchSwitch, PadThresholds] | None = None,
        chip_factory: Callable[[Any, int], TouchChip] = open_chip,
    ) -> None:
        if len(addresses) != len(ADDRESSES) or len(irq_pins) != len(addresses):
            raise ValueError(f"the touch pads need {len(ADDRESSES)} chips, each with an IRQ pin")
        if stuck_after_s <= 0:
            raise ValueError("stuck_after_s must be more than 0")
        self._clock = clock
        self._sink = sink
        if i2c is None:
            from firmware.drivers.oled import _open_board_i2c

            i2c = _open_board_i2c()
        self._i2c = i2c
        self._addresses = tuple(addresses)
        self._debounce = debounce_register(debounce_ms)
        self._stuck_after_s = stuck_after_s
        self._default = default_thresholds
        self._thresholds = dict(thresholds or {})
        self._chip_factory = chip_factory
        self._lock = threading.Lock()
        self._closed = False
        self._wake: Timer | None = None
        self._chips: list[TouchChip | None] = [None] * len(addresses)
        self._retry: list[Timer | None] = [None] * len(addresses)
        self._retry_s = [RETRY_FIRST_S] * len(addresses)
        self._fault_told: set[int] = set()
        """The chips whose fault was reported and not yet its end."""
        self._contacts: dict[tuple[int, int], _Contact] = {}
        for chip in range(len(addresses)):
            for electrode in range(ELECTRODES):
                switch = switch_of(chip, electrode)
                if switch is not None:
                    self._contacts[chip, electrode] = _Contact(switch)
        self._irqs: list[DigitalInputDevice] = []
        try:
            for pin in irq_pins:
                # The IRQ output is open-drain, active low: a pull-up, "active" when low.
                irq = DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory)
                irq.when_activated = self._irq_fell
                self._irqs.append(irq)
            events: list[MatrixEvent] = []
            for index in range(len(addresses)):
                self._connect(index, events)
            self._count_pads(events)
        except BaseException:
            self.close()
            raise
        self._emit(events)

    @property
    def faulty(self) -> tuple[int, ...]:
        """The addresses of the chips that do not answer now."""
        with self._lock:
            return tuple(a for a, c in zip(self._addresses, self._chips, strict=True) if c is None)

    @property
    def chips(self) -> tuple[TouchChip | None, ...]:
        """The open drivers (None for a faulty chip): the calibration reads them."""
        return tuple(self._chips)

    def close(self) -> None:
        """Stop reading and release the IRQ pins. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for timer in (self._wake, *self._retry):
                if timer is not None:
                    timer.cancel()
            for contact in self._contacts.values():
                if contact.stuck_timer is not None:
                    contact.stuck_timer.cancel()
        for irq in self._irqs:
            irq.close()

    def __enter__(self) -> TouchPads:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _connect(self, index: int, events: list[MatrixEvent]) -> bool:
        """Open and configure chip `index`; on a bus error mark it faulty and retry later."""
        address = self._addresses[index]
        try:
            chip = self._chip_factory(self._i2c, address)
            for electrode in range(ELECTRODES):
                switch = switch_of(index, electrode)
                limits = self._thresholds.get(switch, self._default) if switch else self._default
                chip[electrode].threshold = limits.touch
                chip[electrode].release_threshold = limits.release
            # The driver writes these in stop mode and starts the chip again after each.
            chip._write_register_byte(CONFIG2_REGISTER, CONFIG2_4MS)
            chip._write_register_byte(DEBOUNCE_REGISTER, self._debounce)
            status = chip.touched()
        except (OSError, RuntimeError, ValueError) as error:
            # The bus device's probe raises ValueError for an address that does not answer, the
            # driver RuntimeError for a chip not in its reset state, a transfer OSError.
            self._failed(index, error if isinstance(error, OSError) else OSError(str(error)))
            return False
        with self._lock:
            self._chips[index] = chip
            self._retry_s[index] = RETRY_FIRST_S
            self._retry[index] = None
            recovered = index in self._fault_told
            self._fault_told.discard(index)
        if recovered:
            log.info("touch chip 0x%02x answers again", address)
            events.append(TouchChipFault(address, True, self._clock.monotonic()))
        self._apply(index, status, events)
        return True

    def _failed(self, index: int, error: OSError) -> None:
        address = self._addresses[index]
        events: list[MatrixEvent] = []
        with self._lock:
            if self._closed:
                return
            self._chips[index] = None
            delay = self._retry_s[index]
            self._retry_s[index] = min(delay * 2, RETRY_MAX_S)
            self._retry[index] = self._clock.call_later(delay, lambda: self._reconnect(index))
            told = index in self._fault_told
            self._fault_told.add(index)
        # Its pads are let go: a finger on one cannot be seen, and a held button must end.
        self._apply(index, 0, events)
        if not told:
            log.error("touch chip 0x%02x does not answer: %s", address, error)
            events.append(TouchChipFault(address, False, self._clock.monotonic()))
        self._emit(events)

    def _reconnect(self, index: int) -> None:
        with self._lock:
            if self._closed:
                return
        events: list[MatrixEvent] = []
        self._connect(index, events)
        self._count_pads(events)
        self._emit(events)

    def _irq_fell(self) -> None:
        # gpiozero's thread on the Pi: hand the reads to the clock, once per burst of edges.
        with self._lock:
            if self._closed or self._wake is not None:
                return
            self._wake = self._clock.call_later(0.0, self._read_all)

    def _read_all(self) -> None:
        with self._lock:
            self._wake = None
            if self._closed:
                return
            chips = list(enumerate(self._chips))
        events: list[MatrixEvent] = []
        for index, chip in chips:
            if chip is None:
                continue
            try:
                status = chip.touched()
            except OSError as error:
                self._failed(index, error)
                continue
            self._apply(index, status, events)
        self._count_pads(events)
        self._emit(events)

    def _apply(self, chip: int, status: int, events: list[MatrixEvent]) -> None:
        """Releases then touches of chip `chip` from its touch `status` bits."""
        now = self._clock.monotonic()
        with self._lock:
            mine = [(e, c) for (i, e), c in self._contacts.items() if i == chip]
            for electrode, contact in mine:
                if contact.down and not status >> electrode & 1:
                    self._open(contact, now, events)
            for electrode, contact in mine:
                if not contact.down and status >> electrode & 1:
                    self._close(contact, now, events)

    def _open(self, contact: _Contact, now: float, events: list[MatrixEvent]) -> None:
        contact.down = False
        if contact.stuck_timer is not None:
            contact.stuck_timer.cancel()
            contact.stuck_timer = None
        held_s = now - contact.down_since
        if contact.reported:
            events.append(released(contact.switch, now, held_s))
        contact.reported = contact.spoiled = contact.stuck = False

    def _close(self, contact: _Contact, now: float, events: list[MatrixEvent]) -> None:
        contact.down = True
        contact.down_since = now
        if isinstance(contact.switch, ConsoleButton):
            contact.reported = True
            events.append(ButtonPressed(contact.switch, now))
            return
        since = now
        contact.stuck_timer = self._clock.call_later(
            self._stuck_after_s, lambda: self._stuck(contact, since)
        )

    def _count_pads(self, events: list[MatrixEvent]) -> None:
        """Count each pad touched alone; pads touched together are refused, as on the matrix."""
        now = self._clock.monotonic()
        with self._lock:
            pads = [c for c in self._contacts.values() if isinstance(c.switch, Coord) and c.down]
            for pad in pads:
                if pad.reported or pad.spoiled or pad.stuck:
                    continue
                others = [other for other in pads if other is not pad and not other.stuck]
                if not others:
                    pad.reported = True
                    events.append(PadPressed(pad_of(pad.switch), pad.down_since))
                    continue
                for contact in (pad, *others):
                    contact.spoiled = True
                coords = sorted(pad_of(contact.switch) for contact in (pad, *others))
                events.append(MultiplePads(tuple(coords), now))

    def _stuck(self, contact: _Contact, since: float) -> None:
        with self._lock:
            if self._closed or not contact.down or contact.down_since != since:
                return
            contact.stuck_timer = None
            contact.stuck = contact.reported = True
            event = PadStuck(pad_of(contact.switch), self._clock.monotonic())
        self._sink(event)

    def _emit(self, events: list[MatrixEvent]) -> None:
        for event in events:
            self._sink(event)
