"""The capacitive pads: three MPR121 touch controllers on the OLED's I2C bus, beside the matrix.

Card pads and console buttons are copper electrodes under the cards and the console's labels,
read through them by three NXP MPR121 chips (`adafruit_mpr121`, the maintained driver) at
0x5A, 0x5B and 0x5C. The 25 card pads fill the electrodes in reading order (A1, B1 … E5): E0–E11
of the first chip, E0–E11 of the second, E0 of the third; the five console buttons are E1–E5 of
the third (`BUTTON_ELECTRODES`), so the capacitive table needs no switch at all and the matrix's
pins are free for the three IRQ lines.

Each chip is configured as the datasheet and AN3889 ask (`configure_chip`): auto-configuration
with its limits from the supply voltage finds each electrode's charge current and time, so that
a pad with 30 cm of wire (about 20 pF) reads in the ADC's valid range rather than at the
driver's fixed 16 µA and 0.5 µs, where a finger through the card is lost in the counts; the
charge it chose is read back per electrode, and a chip enables only the electrodes wired to it.

The chips measure, filter and track their baselines on their own; each pulls its IRQ line low
when its touch status changes, its touch threshold set low so that it says "something is near".
The table reads the touch status only then (a gpiozero edge callback hands the read to the
injected clock), so an idle table reads nothing. While something is near a pad, its data are
read every sample and the pad counts as touched only for the signal of a finger on the card,
not the slower one of a hand held over it (`firmware.drivers.touch_signal`), judged from the
moment the IRQ line fell (the edge's own time), however late the table gets to read. On every
wake-up all three chips are read, so that two cards touched at once on different chips are seen
together.

The events are the switch matrix's: a pad counts once and only alone (`MultiplePads` otherwise,
and none of them counts until lifted), a pad down longer than `stuck_after_s` is `PadStuck` and
ignored until lifted, buttons give `ButtonPressed` and `ButtonReleased`. A chip that stops
answering is a fault: its pads are let go, a `TouchChipFault` is reported (the OLED shows it),
and it is opened again with back-off on the clock (the OLED's way) while the other chips and the
game go on; a second `TouchChipFault` says when it answers again.

About 700 lines: three chips, their configuration, their IRQ lines, the finger's rule, and the
pad rules (count once, refuse two together, stuck) that the matrix applies too; sharing those
rules with `matrix` is left for later.
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
from firmware.drivers.touch_signal import (
    VDD,
    RiseWatch,
    TouchRule,
    added_pf,
    charge_time_us,
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
SAMPLE_MS = 2
"""The chips' sample period: ESI 2 (CONFIG2 = 0x22: global charge time 0.5 µs, SFI 4 samples)."""
CONFIG2_4MS = 0x21
CONFIG1_FFI6 = 0x10
"""FFI 6 readings a sample (bits 7–6 = 0, as AUTO-CONFIG0's FFI must be), global CDC 16 µA."""
OOR_STATUS_REGISTER = 0x02
FALLING_FILTER_REGISTER = 0x2F
FALLING_FILTER = (0x01, 0x01, 0xFF, 0x02)
"""MHDF, NHDF, NCLF, FDLF: a touch's direction followed slowly, so a slow approach is not
learnt as the baseline (the Linux mpr121_touchkey driver's values, after AN3891)."""
TOUCHED_FILTER = (0x01, 0xFF, 0x0F)
"""NHDT, NCLT, FDLT: while a pad reads touched its baseline moves one count every 256 × 16
samples (8 s), so that a pad a slow drift or a resting hand holds "near" lets go in minutes
rather than never (the driver's NHDT 0 freezes it)."""
READ_SPREAD_S = 0.001
"""The longest a pad's data read may take, from asking to the answer's time being taken, and the
read still be dated: longer, the thread was held up in between (the Pi busy elsewhere, another
thread holding the interpreter), and the answer's sample is older than its time by as much. A
2-byte read takes about 0.15 ms at 400 kHz, 0.5 ms at 100 kHz."""
WATCH_S = 2.0
"""How long a pad something is near is read for a finger: after that it is a hand resting or
held there, no longer read (500 reads a second would load the bus and the Pi) until it goes."""
DEBOUNCE_REGISTER = 0x5B
CONFIG1_REGISTER = 0x5C
CONFIG2_REGISTER = 0x5D
ECR_REGISTER = 0x5E
ELECTRODE_CURRENT_REGISTER = 0x5F
ELECTRODE_TIME_REGISTER = 0x6C
AUTO_CONFIG_REGISTER = 0x7B
AUTO_CONFIG = 0x2B
"""AUTO-CONFIG0: FFI 6 (as CONFIG1), RETRY 4 times, BVA 10 (as the ECR's CL), ARE and ACE."""
AUTO_CONFIG_TRIES = 3
"""Starts before an electrode that auto-configuration cannot bring into range is reported."""
ECR_RUN = 0x80
"""CL 10: baseline tracking on, loaded from the first sample's five high bits (as BVA)."""
TOUCH_THRESHOLD = 12
RELEASE_THRESHOLD = 6
"""The driver's defaults, in counts below the baseline (about 0.035 pF a count on a 20 pF pad at
auto-configuration's target level). The chip's own touch threshold is a third of it (4 counts):
"something is near", from where the table reads the signal for the finger's rule (`TouchRule`,
whose size stands for an uncalibrated pad's)."""
FINGER_RULE = TouchRule()
"""The finger's rule at its defaults (`firmware.drivers.touch_signal`)."""
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
    """The chips' DEBOUNCE value: as many extra samples as fit in `debounce_ms` for a release
    (DR); none for a touch (DT 0), which the finger's rule confirms over its own samples.

    >>> hex(debounce_register(10.0))
    '0x40'
    """
    extra = max(0, min(7, math.floor(debounce_ms / SAMPLE_MS) - 1))
    return extra << 4


def auto_config_limits(vdd: float = VDD) -> tuple[int, int, int]:
    """The upper and lower limits and the target level of auto-configuration (the top 8 bits of
    a reading) for the supply `vdd`: USL = (VDD − 0.7) / VDD × 256, TL = USL × 0.9, LSL = USL ×
    0.65 (AN3889; the Linux mpr121_touchkey driver computes them the same way).

    >>> auto_config_limits(3.3)
    (201, 130, 180)
    """
    usl = int((vdd - 0.7) / vdd * 256)
    return usl, int(usl * 0.65), int(usl * 0.9)


_TARGET_COUNTS = auto_config_limits()[2] << 2
"""Where auto-configuration brings a reading (10 bits): a calibrated threshold in counts is
turned into pF there."""


class TouchChip(Protocol):
    """What the table uses of `adafruit_mpr121.MPR121`."""

    _i2c: Any
    """The driver's bus device: the configuration is written through it in one stop."""

    def __getitem__(self, key: int) -> Any: ...

    def touched(self) -> int: ...

    def filtered_data(self, pin: int) -> int: ...

    def baseline_data(self, pin: int) -> int: ...

    def _write_register_byte(self, register: int, value: int) -> None: ...

    def _read_register_bytes(
        self, register: int, result: bytearray, length: int | None = None
    ) -> None: ...


@dataclass(frozen=True)
class PadThresholds:
    """A pad's thresholds in counts of drop below its baseline, as the calibration measured
    them: `touch` is the signal a guess needs on it, `release` the chip's release threshold."""

    touch: int = TOUCH_THRESHOLD
    release: int = RELEASE_THRESHOLD

    def __post_init__(self) -> None:
        if not 0 < self.release < self.touch <= 255:
            raise ValueError("thresholds need 0 < release < touch <= 255 (the hysteresis)")

    def on_chip(self) -> PadThresholds:
        """The chip's own thresholds: a third of a guess's signal says "something is near" (so
        that the table reads the rise from its start), and the release under it."""
        near = max(2, self.touch // 3)
        return PadThresholds(near, max(1, min(self.release, near - 1)))


@dataclass(frozen=True)
class TouchPadsConfig:
    """The capacitive table as `[input.mpr121]` describes it (`firmware.table.config`)."""

    addresses: tuple[int, ...] = ADDRESSES
    irq_pins: tuple[int, ...] = (17, 27, 22)
    """One input per chip; by default the matrix's columns A–C, which a capacitive table frees."""
    default: PadThresholds = PadThresholds()
    pads: tuple[tuple[TouchSwitch, PadThresholds], ...] = ()
    """Thresholds of their own, as the calibration measured them."""


EDGE_AGE_LIMIT_S = 1.0
"""The oldest an IRQ edge's time is believed: older still is as unknown as this old."""


def _edge_age(irq: DigitalInputDevice) -> float:
    """How long ago `irq` fell, from the pin's own time of the edge: under lgpio, the kernel's
    timestamp of the interrupt, taken however late gpiozero's thread runs the callback.

    0 when the pin gives no age (the line already went up again) or one that cannot be (a pin
    library stamping on another clock would give a negative one); an absurdly old one is
    `EDGE_AGE_LIMIT_S`, which only makes the rule more careful.
    """
    age = irq.active_time
    if not isinstance(age, float | int) or not math.isfinite(age) or age < 0:
        return 0.0
    return min(float(age), EDGE_AGE_LIMIT_S)


def open_chip(i2c: Any, address: int) -> TouchChip:
    """The driver of the chip at `address` (it soft-resets the chip and enables 12 electrodes)."""
    import adafruit_mpr121

    chip: TouchChip = adafruit_mpr121.MPR121(i2c, address)
    return chip


def electrodes_used(chip: int) -> int:
    """How many electrodes of chip `chip` are wired (E0 up): the others stay disabled.

    >>> [electrodes_used(chip) for chip in range(3)]
    [12, 12, 6]
    """
    return max(e + 1 for e in range(ELECTRODES) if switch_of(chip, e) is not None)


@dataclass(frozen=True)
class Charge:
    """The charge auto-configuration chose for an electrode, as read back from the chip."""

    current_ua: int
    time_us: float

    @property
    def valid(self) -> bool:
        return self.current_ua > 0 and self.time_us > 0


@dataclass(frozen=True)
class ChipSetup:
    """A configured chip: each enabled electrode's charge, and those out of range."""

    charges: tuple[Charge, ...]
    out_of_range: tuple[int, ...]


def _write_stopped(chip: TouchChip, register: int, *values: int) -> None:
    # Through the driver's bus device: its own register write restarts the chip with all 12
    # electrodes after every byte, and every start runs auto-configuration again.
    with chip._i2c as device:
        device.write(bytes([register, *values]))


def _read(chip: TouchChip, register: int, count: int) -> bytes:
    buffer = bytearray(count)
    chip._read_register_bytes(register, buffer, count)
    return bytes(buffer)


def configure_chip(
    chip: TouchChip,
    used: int,
    thresholds: Sequence[PadThresholds],
    debounce: int,
) -> ChipSetup:
    """Configure a freshly opened chip and start it on its first `used` electrodes.

    In stop mode (the datasheet's rule for every register but the ECR): each electrode's
    thresholds, the falling baseline filter, the debounce, the filters and the sample period,
    and auto-configuration (AN3889: limits from the supply, retry, ARE and ACE). The chip
    configures its electrodes as it starts; the out-of-range status and each electrode's charge
    current (CDC) and time (CDT) are read back. An electrode out of range is started again up
    to `AUTO_CONFIG_TRIES` times before it is reported.
    """
    usl, lsl, target = auto_config_limits()
    setup = ChipSetup((), ())
    for _ in range(AUTO_CONFIG_TRIES):
        _write_stopped(chip, ECR_REGISTER, 0x00)
        pairs = [value for limits in thresholds for value in (limits.touch, limits.release)]
        _write_stopped(chip, 0x41, *pairs)
        _write_stopped(chip, FALLING_FILTER_REGISTER, *FALLING_FILTER, *TOUCHED_FILTER)
        _write_stopped(chip, DEBOUNCE_REGISTER, debounce, CONFIG1_FFI6, CONFIG2_4MS)
        _write_stopped(chip, AUTO_CONFIG_REGISTER, AUTO_CONFIG, 0x00, usl, lsl, target)
        _write_stopped(chip, ECR_REGISTER, ECR_RUN | used)
        status = int.from_bytes(_read(chip, OOR_STATUS_REGISTER, 2), "little")
        currents = _read(chip, ELECTRODE_CURRENT_REGISTER, ELECTRODES)
        times = _read(chip, ELECTRODE_TIME_REGISTER, ELECTRODES // 2)
        charges = tuple(
            Charge(currents[e], charge_time_us(times[e // 2] >> (4 * (e % 2)) & 0x07))
            for e in range(used)
        )
        failed = tuple(e for e in range(used) if status >> e & 1 or not charges[e].valid)
        setup = ChipSetup(charges, failed)
        if not failed:
            break
    return setup


@dataclass
class _Contact:
    switch: TouchSwitch
    near: bool = False
    """The chip says something is near (its touch status); the rule decides whether a finger."""
    watch: RiseWatch | None = None
    watch_since: float = 0.0
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
    switch to its own thresholds (from the calibration); the others get `default_thresholds` as
    the chip's own and `rule` for the finger's signal.
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
        rule: TouchRule = FINGER_RULE,
    ) -> None:
        if len(addresses) != len(ADDRESSES) or len(irq_pins) != len(addresses):
            raise ValueError(f"the touch pads need {len(ADDRESSES)} chips, each with an IRQ pin")
        if stuck_after_s <= 0:
            raise ValueError("stuck_after_s must be more than 0")
        self._clock = clock
        self._sink = sink
        if i2c is None:
            from firmware.drivers.i2c_bus import open_board_i2c as _open_board_i2c

            i2c = _open_board_i2c()
        self._i2c = i2c
        self._addresses = tuple(addresses)
        self._debounce = debounce_register(debounce_ms)
        self._stuck_after_s = stuck_after_s
        self._default = default_thresholds
        self._thresholds = dict(thresholds or {})
        self._chip_factory = chip_factory
        self._rule = rule
        self._setups: list[ChipSetup | None] = [None] * len(addresses)
        self._poll_timer: Timer | None = None
        self._lock = threading.Lock()
        self._closed = False
        self._wake: Timer | None = None
        self._chips: list[TouchChip | None] = [None] * len(addresses)
        self._retry: list[Timer | None] = [None] * len(addresses)
        self._retry_s = [RETRY_FIRST_S] * len(addresses)
        self._fault_told: set[int] = set()
        """The chips whose fault was reported and not yet its end."""
        self._edges: list[float | None] = [None] * len(addresses)
        """Per chip, when its IRQ line fell and its status was not read since: when its status
        changed, which may be long before the table gets to read it."""
        self._status_read_at: list[float | None] = [None] * len(addresses)
        """Per chip, when its status was last read: a change found with no edge noted for it
        (read for another chip's edge before its own line's callback ran) came after that."""
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
        """The open drivers (None for a faulty chip)."""
        return tuple(self._chips)

    @property
    def setups(self) -> tuple[ChipSetup | None, ...]:
        """What auto-configuration chose on each chip (None for a faulty chip)."""
        return tuple(self._setups)

    def close(self) -> None:
        """Stop reading and release the IRQ pins. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for timer in (self._wake, self._poll_timer, *self._retry):
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
            used = electrodes_used(index)
            setup = configure_chip(
                chip, used, [self._chip_thresholds(index, e) for e in range(used)], self._debounce
            )
            status = chip.touched()
        except (OSError, RuntimeError, ValueError) as error:
            # The bus device's probe raises ValueError for an address that does not answer, the
            # driver RuntimeError for a chip not in its reset state, a transfer OSError.
            self._failed(index, error if isinstance(error, OSError) else OSError(str(error)))
            return False
        if setup.out_of_range:
            names = " ".join(self._name(index, e) for e in setup.out_of_range)
            log.warning(
                "touch chip 0x%02x: auto-configuration cannot bring %s into the ADC's range",
                address,
                names,
            )
        with self._lock:
            self._chips[index] = chip
            self._setups[index] = setup
            self._retry_s[index] = RETRY_FIRST_S
            self._retry[index] = None
            recovered = index in self._fault_told
            self._fault_told.discard(index)
        if recovered:
            log.info("touch chip 0x%02x answers again", address)
            events.append(TouchChipFault(address, True, self._clock.monotonic()))
        self._apply(index, status, events)
        return True

    def _chip_thresholds(self, chip: int, electrode: int) -> PadThresholds:
        """The chip's own thresholds for an electrode, from its calibrated ones or the
        defaults."""
        switch = switch_of(chip, electrode)
        calibrated = self._thresholds.get(switch) if switch is not None else None
        return (calibrated or self._default).on_chip()

    @staticmethod
    def _name(chip: int, electrode: int) -> str:
        switch = switch_of(chip, electrode)
        return f"E{electrode}" if switch is None else switch_name(switch)

    def _failed(self, index: int, error: OSError) -> None:
        address = self._addresses[index]
        events: list[MatrixEvent] = []
        with self._lock:
            if self._closed:
                return
            self._chips[index] = None
            self._setups[index] = None
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

    def _irq_fell(self, irq: DigitalInputDevice) -> None:
        # gpiozero's thread on the Pi: note when the line fell, hand the reads to the clock, once
        # per burst of edges.
        fell_at = self._clock.monotonic() - _edge_age(irq)
        with self._lock:
            if self._closed:
                return
            index = self._irqs.index(irq)
            earlier = self._edges[index]
            self._edges[index] = fell_at if earlier is None else min(earlier, fell_at)
            if self._wake is None:
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
            with self._lock:
                # Taken before the status: a change after it pulls the line down again.
                fell_at, self._edges[index] = self._edges[index], None
            try:
                status = chip.touched()
            except OSError as error:
                self._failed(index, error)
                continue
            self._apply(index, status, events, fell_at)
        self._count_pads(events)
        self._emit(events)

    def _apply(
        self, chip: int, status: int, events: list[MatrixEvent], fell_at: float | None = None
    ) -> None:
        """Chip `chip`'s touch `status` bits: a pad nothing is near any more is released; a pad
        something came near is watched, sample by sample, for a finger's signal, from when the
        chip's IRQ line fell (`fell_at`) if it did."""
        now = self._clock.monotonic()
        with self._lock:
            known_low = self._status_read_at[chip] if fell_at is None else fell_at
            self._status_read_at[chip] = now
            changed = now if known_low is None else min(known_low, now)
            mine = [(e, c) for (i, e), c in self._contacts.items() if i == chip]
            for electrode, contact in mine:
                if contact.near and not status >> electrode & 1:
                    contact.near = False
                    contact.watch = None
                    if contact.down:
                        self._open(contact, now, events)
            watching = False
            for electrode, contact in mine:
                if not contact.near and status >> electrode & 1:
                    contact.near = True
                    size = self._size_pf(chip, electrode)
                    near = self._pf_of(
                        chip, electrode, self._chip_thresholds(chip, electrode).touch
                    )
                    # From when the status changed (or, with no edge for it, the last read
                    # that found it unchanged), not from when the table read it: a hand come to
                    # rest while the table was busy must not look like a step.
                    contact.watch = RiseWatch(self._rule, size, near, since=changed)
                    contact.watch_since = now
                    watching = True
            if watching and self._poll_timer is None and not self._closed:
                # Read now: this sample is the first of the signal's rise.
                self._poll_timer = self._clock.call_later(0.0, self._poll)

    def _size_pf(self, chip: int, electrode: int) -> float | None:
        """A calibrated pad's own size threshold in pF (None: the rule's)."""
        switch = switch_of(chip, electrode)
        calibrated = self._thresholds.get(switch) if switch is not None else None
        return None if calibrated is None else self._pf_of(chip, electrode, calibrated.touch)

    def _pf_of(self, chip: int, electrode: int, counts: int) -> float:
        """What a drop of `counts` stands for on an electrode read at auto-configuration's
        target level (infinite for one whose charge is not known)."""
        setup = self._setups[chip]
        if setup is None or electrode >= len(setup.charges):
            return math.inf
        charge = setup.charges[electrode]
        level = _TARGET_COUNTS
        return added_pf(charge.current_ua, charge.time_us, level, level - counts)

    def _poll(self) -> None:
        """One sample of every pad something is near: a finger's signal touches it."""
        with self._lock:
            self._poll_timer = None
            if self._closed:
                return
            now = self._clock.monotonic()
            for contact in self._contacts.values():
                if contact.watch is not None and now - contact.watch_since > WATCH_S:
                    contact.watch = None  # a hand held there: no finger came
            watched = [
                (chip, electrode, contact)
                for (chip, electrode), contact in self._contacts.items()
                if contact.near and not contact.down and contact.watch is not None
            ]
            drivers = list(self._chips)
            setups = list(self._setups)
        events: list[MatrixEvent] = []
        for chip, electrode, contact in watched:
            driver, setup = drivers[chip], setups[chip]
            if driver is None or setup is None or electrode >= len(setup.charges):
                continue
            try:
                asked_at = self._clock.monotonic()
                data = driver.filtered_data(electrode)
                # The read's time: the rule judges the signal against it, not against the
                # number of reads, which a starved thread makes late and uneven.
                read_at = self._clock.monotonic()
                baseline = driver.baseline_data(electrode)
            except OSError as error:
                self._failed(chip, error)
                continue
            if read_at - asked_at > READ_SPREAD_S:
                # Held up mid-read: the answer may be older than its time by that much, and an
                # old low reading dated late makes the next one look like a step. The rule
                # takes the missing read as a gap; the next poll reads again.
                continue
            charge = setup.charges[electrode]
            signal = added_pf(charge.current_ua, charge.time_us, baseline, data)
            with self._lock:
                watch = contact.watch
                if (
                    watch is not None
                    and contact.near
                    and not contact.down
                    and watch.add(signal, read_at)
                ):
                    self._close(contact, self._clock.monotonic(), events)
        self._count_pads(events)
        with self._lock:
            still = any(c.near and not c.down and c.watch for c in self._contacts.values())
            if still and self._poll_timer is None and not self._closed:
                self._poll_timer = self._clock.call_later(SAMPLE_MS / 1000, self._poll)
        self._emit(events)

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
