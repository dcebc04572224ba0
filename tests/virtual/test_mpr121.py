"""The virtual MPR121 against the chip's datasheet, driven by the real `adafruit_mpr121` driver
over the virtual I2C bus (and by raw bus transactions where the driver has no call)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import adafruit_mpr121
import pytest
from gpiozero import DigitalInputDevice
from gpiozero.pins.mock import MockFactory

from firmware.drivers.clock import Clock, Timer, VirtualClock
from firmware.virtual.i2c import VirtualI2C
from firmware.virtual.mpr121 import (
    AUTO_CONFIG0,
    CONFIG1,
    CONFIG2,
    ECR,
    ELECTRODE_CURRENT,
    ELECTRODE_TIME,
    FINGER_PF,
    LOWER_LIMIT,
    OOR_STATUS,
    PAD_PF,
    REGISTER_COUNT,
    TARGET_LEVEL,
    THRESHOLDS,
    UPPER_LIMIT,
    VDD,
    VirtualMPR121,
    adc_counts,
    charge_time_us,
)
from firmware.virtual.mpr121_physics import Gesture

ADDRESS = 0x5A
IRQ_PIN = 17
BARE_FINGER_PF = 6.0
"""A finger on bare copper: plenty of signal at the driver's fixed charge, for the tests of
the filters, thresholds and IRQ (a finger through a card is the physics tests' business)."""


@dataclass
class Rig:
    clock: VirtualClock
    bus: VirtualI2C
    chip: VirtualMPR121
    irq: DigitalInputDevice

    def driver(self) -> adafruit_mpr121.MPR121:
        return adafruit_mpr121.MPR121(self.bus, ADDRESS)

    def write(self, register: int, *values: int) -> None:
        assert self.bus.try_lock()
        try:
            self.bus.writeto(ADDRESS, bytes([register, *values]))
        finally:
            self.bus.unlock()

    def read(self, register: int, count: int = 1) -> bytes:
        buffer = bytearray(count)
        assert self.bus.try_lock()
        try:
            self.bus.writeto_then_readfrom(ADDRESS, bytes([register]), buffer)
        finally:
            self.bus.unlock()
        return bytes(buffer)

    def samples(self, count: int) -> None:
        """Let `count` sample periods of the driver's setting (1 ms) pass."""
        for _ in range(count):
            self.clock.advance(0.001)


@pytest.fixture
def rig() -> Iterator[Rig]:
    clock = VirtualClock()
    bus = VirtualI2C()
    factory = MockFactory()
    chip = VirtualMPR121(clock, irq=factory.pin(IRQ_PIN))
    bus.attach(ADDRESS, chip)
    irq = DigitalInputDevice(IRQ_PIN, pull_up=True, pin_factory=factory)
    yield Rig(clock, bus, chip, irq)
    irq.close()
    factory.reset()


def test_power_on_values_are_the_datasheets(rig: Rig) -> None:
    values = rig.read(0, REGISTER_COUNT)
    assert values[CONFIG1] == 0x10
    assert values[CONFIG2] == 0x24
    assert not any(v for i, v in enumerate(values) if i not in (CONFIG1, CONFIG2))


def test_the_driver_finds_the_chip_in_its_reset_state_and_starts_it(rig: Rig) -> None:
    rig.driver()
    assert rig.chip.register(ECR) == 0x8F  # baseline from the first 5 bits, 12 electrodes
    assert rig.chip.register(CONFIG2) == 0x20
    assert rig.chip.register(THRESHOLDS) == 12
    assert rig.chip.register(THRESHOLDS + 1) == 6


def test_soft_reset_brings_back_the_power_on_values(rig: Rig) -> None:
    rig.driver()
    rig.write(0x80, 0x63)
    assert rig.read(ECR)[0] == 0
    assert rig.read(CONFIG2)[0] == 0x24
    assert rig.read(THRESHOLDS)[0] == 0


def test_only_the_ecr_and_gpio_registers_can_be_written_in_run_mode(rig: Rig) -> None:
    rig.driver()
    rig.write(THRESHOLDS, 40)
    assert rig.read(THRESHOLDS)[0] == 12
    rig.write(0x77, 0x01)  # GPIOEN
    assert rig.read(0x77)[0] == 0x01
    rig.write(ECR, 0x00)
    rig.write(THRESHOLDS, 40)
    assert rig.read(THRESHOLDS)[0] == 40


def test_filtered_data_is_the_charge_over_the_capacitance(rig: Rig) -> None:
    driver = rig.driver()
    rig.samples(4)  # the second filter's four samples, all untouched
    volts = 16e-6 * 0.5e-6 / (PAD_PF * 1e-12)
    untouched = round(volts * 1024 / VDD)
    assert driver.filtered_data(0) == untouched
    rig.chip.touch(0)
    rig.samples(1)
    touched = round(16e-6 * 0.5e-6 / ((PAD_PF + FINGER_PF) * 1e-12) * 1024 / VDD)
    # The second filter averages the last four samples (SFI 4): a step shows a quarter at once.
    assert driver.filtered_data(0) == round((3 * untouched + touched) / 4)
    rig.samples(3)
    assert driver.filtered_data(0) == touched


def test_a_reading_clips_at_the_adcs_ten_bits() -> None:
    assert adc_counts(1.0, 63, 32.0) == 1023
    assert adc_counts(5000.0, 1, 0.5) == 0


def test_noise_is_averaged_by_the_first_filter_and_follows_its_seed() -> None:
    def readings(seed: int) -> list[int]:
        clock = VirtualClock()
        bus = VirtualI2C()
        chip = VirtualMPR121(clock, noise_counts=6.0, seed=seed)
        bus.attach(ADDRESS, chip)
        driver = adafruit_mpr121.MPR121(bus, ADDRESS)
        values = []
        for _ in range(200):
            clock.advance(0.001)
            values.append(driver.filtered_data(0))
        return values

    first, again, other = readings(1), readings(1), readings(2)
    assert first == again != other
    mean = sum(first) / len(first)
    rms = (sum((v - mean) ** 2 for v in first) / len(first)) ** 0.5
    # 6 counts rms, over 6 readings (FFI) then 4 samples (SFI): 6 / √24 ≈ 1.2.
    assert 0.6 < rms < 2.0


def test_the_baseline_starts_from_the_five_high_bits_and_tracks_up_slowly(rig: Rig) -> None:
    driver = rig.driver()
    rig.samples(1)
    data = driver.filtered_data(3)
    assert driver.baseline_data(3) == data & 0x3E0
    # NHDR 1 every NCLR + 1 = 15 samples of a rise larger than 2 × MHDR.
    rig.samples(15 * 4)
    assert (data & 0x3E0) < driver.baseline_data(3) < data
    rig.samples(15 * 40)
    assert driver.baseline_data(3) == data & 0x3FC  # the register's top 8 of 10 bits


def test_a_touch_is_reported_after_the_debounce_and_the_irq_falls_until_read(rig: Rig) -> None:
    driver = rig.driver()
    rig.write(ECR, 0)
    rig.write(0x5B, 0x22)  # DR 2, DT 2: three samples in a row
    rig.write(ECR, 0x8F)
    rig.samples(1000)
    driver.touched()
    assert not rig.irq.is_active
    rig.chip.touch(5, BARE_FINGER_PF)
    seen = []
    for _ in range(8):
        rig.samples(1)
        seen.append(rig.irq.is_active)
    # The second filter spreads the step over four samples, the driver's fast falling filter
    # takes a little of it, and DT 2 asks for three samples in a row over the threshold.
    assert seen.index(True) in (3, 4)
    assert driver.filtered_data(5) < driver.baseline_data(5) - 12
    assert driver.filtered_data(5)  # reading the data leaves the IRQ line low
    assert rig.irq.is_active
    assert driver.touched() == 1 << 5
    assert not rig.irq.is_active
    rig.chip.release(5)
    seen = []
    for _ in range(8):
        rig.samples(1)
        seen.append(rig.irq.is_active)
    assert seen.index(True) >= 2  # DR 2: three samples in a row under the release threshold
    assert driver.touched() == 0


class LateTimers:
    """A clock whose timers all fire `late_s` late: the model's samples computed late."""

    def __init__(self, clock: VirtualClock, late_s: float) -> None:
        self._clock, self._late_s = clock, late_s

    def monotonic(self) -> float:
        return self._clock.monotonic()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        return self._clock.call_later(delay + self._late_s, callback)


@dataclass
class EdgeRig:
    """A chip whose IRQ edges are noted with their ages, on pins that keep the clock's time."""

    clock: VirtualClock
    chip: VirtualMPR121
    driver: adafruit_mpr121.MPR121
    fell: list[tuple[float, float]]
    """Each edge: when its callback ran, and how long before that the line fell."""

    def edge_at(self, index: int) -> float:
        """When edge `index` fell, by the pin's own time of it."""
        seen_at, age = self.fell[index]
        return seen_at - age


@contextmanager
def edge_rig(
    chip_clock: Callable[[VirtualClock], Clock] = lambda clock: clock,
) -> Iterator[EdgeRig]:
    """A settled chip on the clock `chip_clock` makes of the pins' one, its IRQ line watched."""
    clock, bus, factory = VirtualClock(), VirtualI2C(), MockFactory()
    factory.ticks = clock.monotonic  # the pins' time is the clock's: ages are exact
    chip = VirtualMPR121(chip_clock(clock), irq=factory.pin(IRQ_PIN))
    bus.attach(ADDRESS, chip)
    irq = DigitalInputDevice(IRQ_PIN, pull_up=True, pin_factory=factory)
    fell: list[tuple[float, float]] = []
    irq.when_activated = lambda: fell.append((clock.monotonic(), irq.active_time or 0.0))
    try:
        driver = adafruit_mpr121.MPR121(bus, ADDRESS)
        for _ in range(1000):  # the baselines settle
            clock.advance(0.001)
        yield EdgeRig(clock, chip, driver, fell)
    finally:
        irq.close()
        factory.reset()


def test_the_irq_edge_keeps_the_time_of_the_sample_however_late_it_is_computed() -> None:
    # The Pi's kernel stamps an edge when the line falls; the model pulls it when it gets to
    # compute the sample, here 20 ms late. The edge's age is the sample's.
    with edge_rig(lambda clock: LateTimers(clock, 0.020)) as rig:
        rig.driver.touched()
        touched_at = rig.clock.monotonic()
        rig.chip.touch(5, BARE_FINGER_PF)
        for _ in range(100):
            rig.clock.advance(0.001)
        assert rig.driver.touched() == 1 << 5
        seen_at, _ = rig.fell[0]
        assert seen_at - touched_at >= 0.020  # the model got to the sample late
        assert 0.0 <= rig.edge_at(0) - touched_at <= 0.004  # the edge is the sample's


def test_a_hand_leaves_the_pad_when_it_is_released_not_at_the_last_sample_computed() -> None:
    # While its inputs are at rest, the model computes no sample until it is read. Samples
    # that fell due while the hand was held must still see the hand when they are computed, or
    # the hand's release would be dated to the last sample computed.
    with edge_rig() as rig:
        rig.chip.gesture(5, Gesture(lambda _t: BARE_FINGER_PF, 0.0))
        rig.clock.advance(0.1)
        assert rig.driver.touched() == 1 << 5
        rig.clock.advance(1.0)  # held, at rest
        released_at = rig.clock.monotonic()
        rig.chip.release(5)
        rig.clock.advance(0.1)
        assert rig.driver.touched() == 0
        assert rig.edge_at(-1) >= released_at


def test_touch_and_release_thresholds_give_hysteresis(rig: Rig) -> None:
    driver = rig.driver()
    rig.samples(1000)
    rig.write(ECR, 0x4F)  # CL 01: baseline tracking off, or the falling filter follows a drift
    base = driver.filtered_data(0)
    # A drop between the release (6) and touch (12) thresholds neither touches nor releases.
    mid_pf = PAD_PF * base / (base - 9)
    rig.chip.set_capacitance(0, mid_pf)
    rig.samples(5)
    assert driver.touched() == 0
    rig.chip.touch(0)
    rig.samples(5)
    assert driver.touched() == 1
    rig.chip.release(0)
    rig.samples(5)
    assert driver.touched() == 1  # still touched: 9 counts down is not under 6
    rig.chip.set_capacitance(0, PAD_PF)
    rig.samples(5)
    assert driver.touched() == 0


def test_the_baseline_stands_still_while_touched(rig: Rig) -> None:
    driver = rig.driver()
    rig.samples(1000)
    rig.chip.touch(7, BARE_FINGER_PF)
    rig.samples(10)  # the falling filter follows the ramp until the touch is seen, then stops
    baseline = driver.baseline_data(7)
    assert driver.touched() == 1 << 7
    rig.samples(5000)
    assert driver.baseline_data(7) == baseline
    assert driver.touched() == 1 << 7


def test_a_steady_chip_has_no_timer_pending(rig: Rig) -> None:
    driver = rig.driver()
    rig.samples(1000)
    driver.touched()
    assert rig.clock.pending == 0
    rig.chip.touch(1)
    assert rig.clock.pending == 1
    rig.samples(20)
    assert rig.clock.pending == 0


def test_auto_configuration_finds_each_electrodes_charge(rig: Rig) -> None:
    rig.driver()
    rig.write(ECR, 0)
    upper, target, lower = 200, 180, 130  # VDD 3.3 V, as the datasheet's equations give
    rig.write(UPPER_LIMIT, upper, lower, target)
    rig.write(AUTO_CONFIG0, 0x0B)  # ACE, baseline loaded like CL 10
    rig.chip.set_capacitance(4, 30.0)
    rig.write(ECR, 0x8F)
    assert rig.read(UPPER_LIMIT, 3) == bytes([upper, lower, target])
    for electrode in (0, 4):
        current = rig.read(ELECTRODE_CURRENT + electrode)[0]
        code = rig.read(ELECTRODE_TIME + electrode // 2)[0] >> (4 * (electrode % 2)) & 7
        level = adc_counts(rig.chip.capacitance_pf(electrode), current, charge_time_us(code)) >> 2
        assert lower <= level <= upper
    assert rig.read(OOR_STATUS, 2) == b"\x00\x00"
    assert rig.read(LOWER_LIMIT)[0] == lower
    assert rig.read(TARGET_LEVEL)[0] == target


def test_an_electrode_out_of_reach_fails_auto_configuration(rig: Rig) -> None:
    rig.driver()
    rig.write(ECR, 0)
    rig.write(UPPER_LIMIT, 200, 130, 180)
    rig.write(AUTO_CONFIG0, 0x0B)
    rig.chip.set_capacitance(9, 5000.0)  # a shorted pad: no charge reaches the limits
    rig.write(ECR, 0x8F)
    status = rig.read(OOR_STATUS, 2)
    assert status[1] & 1 << (9 - 8)
    assert status[1] & 0x80  # ACFF
