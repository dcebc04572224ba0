"""A virtual NXP MPR121 touch controller on the virtual I2C bus: the capacitive pads' twin.

A register-level model, under the real `adafruit_mpr121` driver, of what the driver and the table
use: the touch status (0x00–0x01, and the IRQ line it drives low on every change until the status
is read), the filtered data (0x04–0x1D, 10 bits, low byte first) and the baselines (0x1E–0x2A,
the top 8 of 10 bits), the baseline filter (0x2B–0x35: rising, falling and touched, each with its
maximum half delta, noise half delta, noise count and filter delay limits), the touch and release
thresholds (0x41–0x5A), the debounce (0x5B), the global and per-electrode charge current and time
(0x5C–0x72), the electrode configuration register (0x5E: run or stop mode, how many electrodes,
how the baseline starts), auto-configuration (0x7B–0x7F, with the out-of-range status 0x02–0x03)
and the soft reset (0x63 written to 0x80). As on the chip, a register other than the ECR and the
GPIO block can be written only in stop mode; in run mode the write is ignored.

Each electrode is a capacitance (`firmware.virtual.mpr121_physics`): the pad, its wire and the
strays (`PAD_PF`, the standard build), plus what a finger adds through the card and the top
(`FINGER_PF`) or what a moving finger or hand adds as it moves (`gesture`). The chip charges it
with the charge current for the charge time and reads the voltage with a 10-bit ADC (datasheet,
"Capacitance Sensing"): data = 1024 × I × T / (C × VDD), clipped to 0–1023, so a touch lowers
the data. The first filter averages FFI such readings (CONFIG1), which divides the readings'
noise (`noise_counts`, Gaussian, seeded) by √FFI; the second averages the last SFI of those
(CONFIG2); the chip calls an electrode touched when the baseline minus the data exceeds the touch
threshold (released when it falls below the release threshold) for the debounce count.

Auto-configuration (AN3889) runs when the chip goes from stop to run with ACE set: for each
enabled electrode it searches the charge current (and the charge time, unless SCTS) that brings
the reading between the lower and upper limits, nearest the target, retrying RETRY times, and
flags the electrodes it cannot bring there (OOR, ACFF); with ARE it configures an electrode
again when its baseline leaves the limits (ARFF if that fails).

The chip samples every 2^ESI ms on the injected clock. Samples are computed when someone looks
(a bus transaction) and on a clock timer while something is still changing, never while the
electrodes are steady: an idle table costs nothing here either.

About 600 lines: the chip's register map and its filter, baseline, threshold, debounce,
auto-configuration and IRQ models, all of which the real driver reads or the table relies on.
"""

from __future__ import annotations

import math
import random
import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from board_rules.codenames.grid import Coord
from firmware.drivers.clock import Clock, Timer
from firmware.drivers.events import ConsoleButton
from firmware.drivers.touch_pads import ADDRESSES, TouchSwitch, electrode_of
from firmware.drivers.touch_signal import VDD, charge_time_us
from firmware.virtual.mpr121_physics import Gesture, Pad, Stack, electrode_pf, finger_pf

ELECTRODES = 12
"""Sensing electrodes E0–E11 (the 13th, proximity, channel is not modelled: it stays off)."""
PAD_PF = electrode_pf(Pad())
"""A card pad's electrode with its wire and strays, untouched: about 20 pF for the standard
build's 60 × 35 mm pad and 30 cm of wire (`hardware/mechanics.toml`)."""
FINGER_PF = finger_pf(Stack(), Pad())
"""What a finger on the card adds through the standard stack (card on 0.5 mm polycarbonate)."""
FIRST_FILTER_SAMPLES = (6, 10, 18, 34)
"""FFI, CONFIG1 bits 7–6: readings averaged by the first filter (datasheet, CONFIG1)."""
SECOND_FILTER_SAMPLES = (4, 6, 10, 18)
"""SFI, CONFIG2 bits 4–3: first-filter outputs averaged by the second (datasheet, CONFIG2)."""
RETRIES = (0, 2, 4, 8)
"""RETRY, AUTO-CONFIG0 bits 5–4: how often auto-configuration tries again (AN3889)."""
SOFT_RESET_VALUE = 0x63
"""Written to 0x80, resets the chip as a power cycle does."""

# The register map (datasheet section 5).
TOUCH_STATUS = 0x00
OOR_STATUS = 0x02
FILTERED_DATA = 0x04
BASELINE = 0x1E
FILTER_CONTROL = 0x2B
"""MHDR, NHDR, NCLR, FDLR, MHDF, NHDF, NCLF, FDLF, NHDT, NCLT, FDLT from here on."""
THRESHOLDS = 0x41
"""Touch threshold of E0, then its release threshold, then E1's pair, and so on."""
DEBOUNCE = 0x5B
CONFIG1 = 0x5C
CONFIG2 = 0x5D
ECR = 0x5E
ELECTRODE_CURRENT = 0x5F
"""CDC of E0–E11, one byte each (0 takes the global CDC of CONFIG1)."""
ELECTRODE_TIME = 0x6C
"""CDT of E0–E11, two 3-bit fields a byte, even electrode low (0 takes the global CDT)."""
GPIO_FIRST, GPIO_LAST = 0x73, 0x7A
AUTO_CONFIG0 = 0x7B
AUTO_CONFIG1 = 0x7C
ACE, ARE = 0x01, 0x02
SCTS = 0x80
"""AUTO-CONFIG1: skip the charge time search (keep the global CDT)."""
ACFF, ARFF = 0x80, 0x40
"""OOR status bits of 0x03: auto-configuration failed, auto-reconfiguration failed."""
UPPER_LIMIT, LOWER_LIMIT, TARGET_LEVEL = 0x7D, 0x7E, 0x7F
SOFT_RESET = 0x80
REGISTER_COUNT = 0x81

POWER_ON: dict[int, int] = {CONFIG1: 0x10, CONFIG2: 0x24}
"""Registers that are not 0 after power-on or a soft reset."""


def adc_counts(capacitance_pf: float, current_ua: int, time_us: float) -> int:
    """The 10-bit reading of an electrode charged with `current_ua` for `time_us`.

    >>> adc_counts(20.0, 16, 0.5)
    124
    """
    if current_ua == 0 or time_us == 0:
        return 0
    volts = current_ua * 1e-6 * time_us * 1e-6 / (capacitance_pf * 1e-12)
    return max(0, min(1023, round(1024 * volts / VDD)))


@dataclass
class _Electrode:
    """What the chip keeps for one electrode."""

    data: int = 0
    readings: deque[int] = field(default_factory=deque)
    """The first filter's last outputs, which the second averages."""
    baseline: int = 0
    """Ten bits inside; the register shows the top eight."""
    touched: bool = False
    debounce: int = 0
    """Consecutive samples that disagreed with the status."""
    noise_count: int = 0
    delay_count: int = 0
    direction: int = 0


def _power_on_registers() -> bytearray:
    registers = bytearray(REGISTER_COUNT)
    for register, value in POWER_ON.items():
        registers[register] = value
    return registers


@dataclass
class _State:
    registers: bytearray = field(default_factory=_power_on_registers)
    electrodes: list[_Electrode] = field(
        default_factory=lambda: [_Electrode() for _ in range(ELECTRODES)]
    )
    status: int = 0
    first_sample: bool = True


class VirtualMPR121:
    """One MPR121 as the bus sees it (`I2CTarget`), on `clock`, its IRQ output on `irq`.

    `irq` is a gpiozero mock pin (the Pi's input that the IRQ line is wired to, with its
    pull-up): the chip drives it low on a touch status change and lets it go high when the
    status has been read. The electrodes start untouched at `pad_pf`; `touch`, `release` and
    `set_capacitance` change them.
    """

    def __init__(
        self,
        clock: Clock,
        *,
        irq: Any = None,
        pad_pf: float | Sequence[float] = PAD_PF,
        noise_counts: float = 0.0,
        seed: int = 0,
    ) -> None:
        self._clock = clock
        self._irq = irq
        pads = [float(pad_pf)] * ELECTRODES if isinstance(pad_pf, int | float) else list(pad_pf)
        if len(pads) != ELECTRODES or any(pf <= 0 for pf in pads):
            raise ValueError(f"an MPR121 has {ELECTRODES} electrodes of more than 0 pF")
        self._pad_pf = pads
        self._finger_pf = [0.0] * ELECTRODES
        self._gestures: list[tuple[float, Gesture] | None] = [None] * ELECTRODES
        self._moving_until = -math.inf
        """Until then a gesture changes an electrode: the chip samples on, however steady."""
        if noise_counts < 0:
            raise ValueError("noise is an rms figure, 0 or more")
        self._noise = noise_counts
        self._random = random.Random(seed)
        self._lock = threading.Lock()
        self._state = _State()
        self._pointer = 0
        self._next_sample = clock.monotonic()
        self._wake: Timer | None = None
        self._steady = False
        """The last sample changed nothing, and nothing changed since: no sample is needed."""
        self._irq_low = False
        self._irq_fell_at = 0.0
        """The time of the sample that pulled the IRQ line low (the chip's clock)."""
        self.reads_of_status = 0
        """Read transactions that began at the touch status: the table's cost while idle."""
        self._drive_irq()

    # The electrodes

    def touch(self, electrode: int, finger_pf: float = FINGER_PF) -> None:
        """A finger on the card over `electrode` adds `finger_pf`."""
        self._set_finger(electrode, finger_pf)

    def gesture(self, electrode: int, gesture: Gesture) -> None:
        """A finger or a hand moving over `electrode` from now on (`mpr121_physics`)."""
        self._check(electrode)
        with self._lock:
            self._catch_up()
            now = self._clock.monotonic()
            self._gestures[electrode] = (now, gesture)
            self._moving_until = max(self._moving_until, now + gesture.settles_s)
            self._keep_awake()
        self._drive_irq()

    def release(self, electrode: int) -> None:
        """The finger or the hand leaves `electrode`."""
        self._check(electrode)
        with self._lock:
            # The samples due until now still had the hand or the finger over the pad.
            self._catch_up()
            self._gestures[electrode] = None
        self._set_finger(electrode, 0.0)

    def set_capacitance(self, electrode: int, pad_pf: float) -> None:
        """Change the untouched capacitance of `electrode` (damp air, a thicker card…)."""
        if pad_pf <= 0:
            raise ValueError("a pad's capacitance must be more than 0 pF")
        with self._lock:
            self._catch_up()
            self._pad_pf[electrode] = pad_pf
            self._keep_awake()

    def capacitance_pf(self, electrode: int, at: float | None = None) -> float:
        """What `electrode` measures now (or `at` that time), finger and gesture included."""
        added = self._finger_pf[electrode]
        moving = self._gestures[electrode]
        if moving is not None:
            began, gesture = moving
            when = self._clock.monotonic() if at is None else at
            added += gesture.added_pf(max(when - began, 0.0))
        return self._pad_pf[electrode] + added

    @property
    def noise_counts(self) -> float:
        """The rms noise of one reading, in counts (before the first filter averages it)."""
        return self._noise

    @noise_counts.setter
    def noise_counts(self, counts: float) -> None:
        if counts < 0:
            raise ValueError("noise is an rms figure, 0 or more")
        with self._lock:
            self._catch_up()
            self._noise = counts
            self._keep_awake()

    @property
    def irq_asserted(self) -> bool:
        """True while the chip holds its IRQ line low."""
        with self._lock:
            self._catch_up()
            return self._irq_low

    def register(self, address: int) -> int:
        """A register's value now, read without a bus transaction (for tests)."""
        with self._lock:
            self._catch_up()
            return self._read_register(address)

    @staticmethod
    def _check(electrode: int) -> None:
        if not 0 <= electrode < ELECTRODES:
            raise ValueError(f"an MPR121 has electrodes 0–{ELECTRODES - 1}, not {electrode}")

    def _set_finger(self, electrode: int, finger_pf: float) -> None:
        self._check(electrode)
        with self._lock:
            self._catch_up()
            self._finger_pf[electrode] = finger_pf
            self._keep_awake()
        self._drive_irq()

    # The bus (I2CTarget)

    def write(self, data: bytes) -> None:
        """A write transaction: the register address, then bytes for it and the ones after."""
        if not data:
            return
        with self._lock:
            self._catch_up()
            self._pointer = data[0]
            for value in data[1:]:
                self._write_register(self._pointer, value)
                self._pointer += 1
            if len(data) > 1:  # a register changed, not only the pointer before a read
                self._keep_awake()
        self._drive_irq()

    def read(self, count: int) -> bytes:
        """A read transaction from the register pointer on, which moves past what was read."""
        with self._lock:
            self._catch_up()
            start = self._pointer
            out = bytes(self._read_register(start + offset) for offset in range(count))
            self._pointer = start + count
            if start in (TOUCH_STATUS, TOUCH_STATUS + 1):
                # Reading the status is what releases the IRQ line.
                self.reads_of_status += 1
                self._irq_low = False
        self._drive_irq()
        return out

    def power_cycle(self) -> None:
        """Power off and on: every register back to its power-on value, stop mode."""
        with self._lock:
            self._reset()
        self._drive_irq()

    # Inside

    def _reset(self) -> None:
        self._state = _State()
        self._pointer = 0
        self._irq_low = False
        self._next_sample = self._clock.monotonic()

    @property
    def _running(self) -> bool:
        return self._state.registers[ECR] & 0x3F != 0

    def _enabled(self) -> int:
        return min(self._state.registers[ECR] & 0x0F, ELECTRODES)

    def _write_register(self, address: int, value: int) -> None:
        registers = self._state.registers
        if address == SOFT_RESET:
            if value == SOFT_RESET_VALUE:
                self._reset()
            return
        if address < BASELINE or address >= REGISTER_COUNT:
            return  # the status and the data are read-only
        if address == ECR:
            was_running = self._running
            registers[ECR] = value
            if not was_running and self._running:
                self._start()
            return
        if self._running and not GPIO_FIRST <= address <= GPIO_LAST:
            return  # the datasheet's rule: configure in stop mode only
        registers[address] = value
        if BASELINE <= address < BASELINE + ELECTRODES:
            self._state.electrodes[address - BASELINE].baseline = value << 2

    def _read_register(self, address: int) -> int:
        state = self._state
        if address >= REGISTER_COUNT:
            return 0
        if address in (TOUCH_STATUS, TOUCH_STATUS + 1):
            return (state.status >> (8 * (address - TOUCH_STATUS))) & 0xFF
        if FILTERED_DATA <= address < FILTERED_DATA + 2 * ELECTRODES:
            electrode = state.electrodes[(address - FILTERED_DATA) // 2]
            return electrode.data & 0xFF if address % 2 == 0 else electrode.data >> 8
        if BASELINE <= address < BASELINE + ELECTRODES:
            return state.electrodes[address - BASELINE].baseline >> 2
        return state.registers[address]

    def _start(self) -> None:
        """Stop to run mode: auto-configure if asked, and take the first sample at once."""
        self._state.first_sample = True
        for electrode in self._state.electrodes:
            electrode.readings.clear()
        registers = self._state.registers
        if registers[AUTO_CONFIG0] & ACE:
            failed = [i for i in range(self._enabled()) if not self._auto_configure(i)]
            out_of_range = sum(1 << i for i in failed)
            registers[OOR_STATUS] = out_of_range & 0xFF
            registers[OOR_STATUS + 1] = (out_of_range >> 8) | (ACFF if failed else 0)
        self._next_sample = self._clock.monotonic()

    def _auto_configure(self, index: int) -> bool:
        """Find the charge current and time (AN3889) that bring electrode `index`'s reading (top
        8 bits) within the lower and upper limits, nearest the target, and set them; False when
        none does, after RETRY more tries (a noisy reading can fail a try that the next passes).
        """
        registers = self._state.registers
        upper, lower, target = (registers[a] for a in (UPPER_LIMIT, LOWER_LIMIT, TARGET_LEVEL))
        times = range(1, 8)
        if registers[AUTO_CONFIG1] & SCTS:
            times = range(registers[CONFIG2] >> 5, (registers[CONFIG2] >> 5) + 1)
        capacitance = self.capacitance_pf(index)
        for _ in range(1 + RETRIES[(registers[AUTO_CONFIG0] >> 4) & 0x03]):
            best: tuple[float, int, int] | None = None
            for cdt in times:
                for cdc in range(1, 64):
                    level = self._noisy(adc_counts(capacitance, cdc, charge_time_us(cdt))) >> 2
                    if lower <= level <= upper and (best is None or abs(level - target) < best[0]):
                        best = (abs(level - target), cdc, cdt)
            if best is not None:
                _, cdc, cdt = best
                registers[ELECTRODE_CURRENT + index] = cdc
                shift = 4 * (index % 2)
                slot = ELECTRODE_TIME + index // 2
                registers[slot] = (registers[slot] & ~(0x07 << shift) & 0xFF) | cdt << shift
                return True
        return False

    def _noisy(self, counts: int) -> int:
        """A reading with the first filter's share of the noise: rms / √FFI."""
        if not self._noise:
            return counts
        averaged = FIRST_FILTER_SAMPLES[self._state.registers[CONFIG1] >> 6]
        noise = self._random.gauss(0.0, self._noise / math.sqrt(averaged))
        return max(0, min(1023, round(counts + noise)))

    def _period_s(self) -> float:
        return float(2 ** (self._state.registers[CONFIG2] & 0x07)) / 1000

    def _reading(self, index: int, at: float) -> int:
        """The second filter's output: the mean of the last SFI first-filter readings."""
        registers = self._state.registers
        current = registers[ELECTRODE_CURRENT + index] or registers[CONFIG1] & 0x3F
        code = (registers[ELECTRODE_TIME + index // 2] >> (4 * (index % 2))) & 0x07
        code = code or registers[CONFIG2] >> 5
        capacitance = self.capacitance_pf(index, at)
        reading = self._noisy(adc_counts(capacitance, current, charge_time_us(code)))
        readings = self._state.electrodes[index].readings
        readings.append(reading)
        while len(readings) > SECOND_FILTER_SAMPLES[(registers[CONFIG2] >> 3) & 0x03]:
            readings.popleft()
        return round(sum(readings) / len(readings))

    def _catch_up(self) -> None:
        """Take every sample due by now; stop early once a sample changes nothing."""
        if not self._running:
            return
        now = self._clock.monotonic()
        period = self._period_s()
        while self._next_sample <= now + 1e-9:
            before = self._snapshot()
            self._sample(self._next_sample)
            self._next_sample += period
            moving = self._next_sample <= self._moving_until or self._noise > 0
            self._steady = self._snapshot() == before and not moving
            if self._steady:
                # Steady: nothing changes until an electrode or a register does.
                missed = int((now - self._next_sample) // period) + 1
                self._next_sample += max(missed, 0) * period
                break

    def _snapshot(self) -> tuple[Any, ...]:
        state = self._state
        return (
            state.status,
            state.first_sample,
            *(
                tuple(tuple(v) if isinstance(v, deque) else v for v in vars(e).values())
                for e in state.electrodes
            ),
        )

    def _sample(self, at: float) -> None:
        state = self._state
        registers = state.registers
        baseline_mode = registers[ECR] >> 6
        status = state.status
        for index in range(self._enabled()):
            electrode = state.electrodes[index]
            electrode.data = self._reading(index, at)
            if state.first_sample and baseline_mode == 0b10:
                electrode.baseline = electrode.data & 0x3E0
            elif state.first_sample and baseline_mode == 0b11:
                electrode.baseline = electrode.data
            elif baseline_mode != 0b01:
                self._track_baseline(electrode)
            status = self._detect(index, electrode, status)
            self._reconfigure_if_out_of_range(index, electrode)
        state.first_sample = False
        if status != state.status:
            state.status = status
            if not self._irq_low:
                self._irq_fell_at = at
            self._irq_low = True

    def _reconfigure_if_out_of_range(self, index: int, electrode: _Electrode) -> None:
        """ARE: an untouched electrode whose baseline left the limits is configured again."""
        registers = self._state.registers
        if not registers[AUTO_CONFIG0] & ARE or electrode.touched or self._state.first_sample:
            return
        if registers[LOWER_LIMIT] <= electrode.baseline >> 2 <= registers[UPPER_LIMIT]:
            return
        if self._auto_configure(index):
            electrode.readings.clear()
            electrode.data = electrode.baseline = self._reading(index, self._next_sample)
        else:
            registers[OOR_STATUS + index // 8] |= 1 << (index % 8)
            registers[OOR_STATUS + 1] |= ARFF

    def _track_baseline(self, electrode: _Electrode) -> None:
        """The third-level filter: small changes pass at once, a drift in one direction longer
        than the noise count moves the baseline by the noise half delta, every FDL+1 samples."""
        delta = electrode.data - electrode.baseline
        if delta == 0:
            electrode.noise_count = electrode.delay_count = electrode.direction = 0
            return
        filters = self._state.registers[FILTER_CONTROL : FILTER_CONTROL + 11]
        if electrode.touched:
            mhd, (nhd, ncl, fdl) = 0, filters[8:11]
        elif delta > 0:
            mhd, nhd, ncl, fdl = filters[0:4]
        else:
            mhd, nhd, ncl, fdl = filters[4:8]
        direction = 1 if delta > 0 else -1
        if direction != electrode.direction:
            electrode.direction = direction
            electrode.noise_count = electrode.delay_count = 0
        if abs(delta) <= 2 * mhd:
            electrode.baseline = electrode.data
            electrode.noise_count = 0
            return
        if nhd == 0:
            return  # a filter that cannot move has nothing to count (NHDT 0: frozen while touched)
        electrode.delay_count += 1
        if electrode.delay_count <= fdl:
            return
        electrode.delay_count = 0
        electrode.noise_count += 1
        if electrode.noise_count > ncl:
            electrode.noise_count = 0
            step = min(nhd, abs(delta))
            electrode.baseline = max(0, min(1023, electrode.baseline + direction * step))

    def _detect(self, index: int, electrode: _Electrode, status: int) -> int:
        registers = self._state.registers
        touch_threshold = registers[THRESHOLDS + 2 * index]
        release_threshold = registers[THRESHOLDS + 2 * index + 1]
        drop = electrode.baseline - electrode.data
        debounce = registers[DEBOUNCE]
        if electrode.touched:
            change, needed = drop < release_threshold, (debounce >> 4) & 0x07
        else:
            change, needed = drop > touch_threshold, debounce & 0x07
        if not change:
            electrode.debounce = 0
            return status
        electrode.debounce += 1
        if electrode.debounce <= needed:
            return status
        electrode.debounce = 0
        electrode.touched = not electrode.touched
        return status ^ (1 << index)

    def _keep_awake(self) -> None:
        """Sample on a timer until the electrodes are steady, so that the IRQ falls on time."""
        self._steady = False
        if self._wake is None and self._running:
            delay = max(self._next_sample - self._clock.monotonic(), 0.0)
            try:
                self._wake = self._clock.call_later(delay, self._woken)
            except RuntimeError:
                # The clock was closed while the chip sampled (a table's test or bench ending):
                # there is no time left to sample in, the chip stays as it is.
                self._wake = None

    def _woken(self) -> None:
        with self._lock:
            self._wake = None
            self._catch_up()
            if not self._steady:
                self._keep_awake()
        self._drive_irq()

    def _drive_irq(self) -> None:
        # Outside the lock: a pin change runs the input's edge callbacks on this thread.
        pin = self._irq
        if pin is None:
            return
        if self._irq_low:
            _fall(pin, max(self._clock.monotonic() - self._irq_fell_at, 0.0))
        else:
            pin.drive_high()


def _fall(pin: Any, ago: float) -> None:
    """Drive a gpiozero mock pin low, its edge dated `ago` seconds back.

    A real chip pulls its line at the sample, and the Pi's kernel stamps the edge then; the model
    computes samples when it is next looked at, which a busy thread makes late. The edge keeps
    the sample's time on the pin factory's clock, as gpiozero gets the kernel's under lgpio
    (`MockPin`'s own drive_low would stamp it now).
    """
    if pin._change_state(False):
        pin._last_change = pin.factory.ticks() - ago
        if pin._edges in ("both", "falling") and pin._when_changed is not None:
            pin._call_when_changed()


class VirtualTouchPanel:
    """The capacitive table's three chips on `bus`, their IRQ lines on `pin_factory`'s `irq_pins`:
    the `SwitchMatrixCircuit` of the capacitive backend, with the same press and release calls,
    so that scripts, the simulation's fingers and the bench touch cards the same way. Every
    electrode starts at `pad_pf`; `noise_counts` and `seed` are each chip's noise."""

    def __init__(
        self,
        clock: Clock,
        bus: Any,
        pin_factory: Any,
        irq_pins: Sequence[int],
        addresses: Sequence[int] = ADDRESSES,
        *,
        pad_pf: float = PAD_PF,
        noise_counts: float = 0.0,
        seed: int = 0,
    ) -> None:
        self.chips = [
            VirtualMPR121(
                clock,
                irq=pin_factory.pin(pin),
                pad_pf=pad_pf,
                noise_counts=noise_counts,
                seed=seed + index,
            )
            for index, pin in enumerate(irq_pins)
        ]
        for address, chip in zip(addresses, self.chips, strict=True):
            bus.attach(address, chip)
        self._pressed: set[TouchSwitch] = set()
        self._lock = threading.Lock()

    @property
    def pressed(self) -> frozenset[TouchSwitch]:
        """The pads and buttons a finger is on."""
        with self._lock:
            return frozenset(self._pressed)

    def press_switch(self, switch: TouchSwitch) -> None:
        """Put a finger on a pad or a button."""
        chip, electrode = electrode_of(switch)
        with self._lock:
            self._pressed.add(switch)
        self.chips[chip].touch(electrode)

    def move_over(self, switch: TouchSwitch, gesture: Gesture) -> None:
        """A finger or a hand moving over a pad or a button (`mpr121_physics`)."""
        chip, electrode = electrode_of(switch)
        with self._lock:
            self._pressed.add(switch)
        self.chips[chip].gesture(electrode, gesture)

    def release_switch(self, switch: TouchSwitch) -> None:
        """Lift the finger from a pad or a button."""
        chip, electrode = electrode_of(switch)
        with self._lock:
            self._pressed.discard(switch)
        self.chips[chip].release(electrode)

    def press_pad(self, coord: Coord) -> None:
        """Touch the card at `coord`."""
        self.press_switch(coord)

    def release_pad(self, coord: Coord) -> None:
        """Lift the finger from the card at `coord`."""
        self.release_switch(coord)

    def press_button(self, button: ConsoleButton) -> None:
        """Touch a console button."""
        self.press_switch(button)

    def release_button(self, button: ConsoleButton) -> None:
        """Lift the finger from a console button."""
        self.release_switch(button)
