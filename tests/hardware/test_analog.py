"""The analog stages simulated in ngspice against what the firmware and the datasheets assume:
the column's settle time against the scan's wait, the LED supply's entry, its sense divider,
the buzzer stage and the I2C bus."""

from __future__ import annotations

import shutil
from types import ModuleType

import pytest

from firmware.drivers import matrix_wires
from firmware.drivers.led_supply import sense_volts
from firmware.virtual import led_supply as supply_twin

from .hardware_scripts import load

pytestmark = pytest.mark.skipif(
    shutil.which("ngspice") is None, reason="ngspice is not installed (apt-get install ngspice)"
)


@pytest.fixture(scope="module")
def analog() -> ModuleType:
    return load("analog")


@pytest.fixture(scope="module")
def findings(analog: ModuleType) -> list[object]:
    found: list[object] = analog.check_all()
    return found


def by_quantity(findings: list[object], stage: str, start: str) -> object:
    return next(
        finding
        for finding in findings
        if finding.stage == stage and finding.quantity.startswith(start)  # type: ignore[attr-defined]
    )


def test_every_simulated_value_is_within_its_bound(findings: list[object]) -> None:
    assert len(findings) >= 20
    assert [f.line() for f in findings if not f.ok] == []  # type: ignore[attr-defined]


def test_column_rises_well_inside_the_scans_wait(findings: list[object]) -> None:
    rise = by_quantity(findings, "matrix column", "rise to the high threshold, 10 kΩ")
    assert rise.high == matrix_wires.SETTLE_S  # type: ignore[attr-defined]
    # The wait of 5 time constants covers the crossing of the high threshold several times over.
    assert 0.2e-6 < rise.value < matrix_wires.SETTLE_S / 3  # type: ignore[attr-defined]


def test_a_table_without_column_resistors_is_caught_by_the_standard_wait(
    analog: ModuleType,
) -> None:
    # Built without the 10 kΩ: the column rises through the Pi's 73 kΩ alone, slower than the
    # wait the firmware uses on a standard table; only `column_pullup_ohms = "internal"` covers it.
    found = {f.quantity: f for f in analog.column_settle(external_ohms=0)}
    standard = found["rise to the high threshold, 10 kΩ beside the weakest internal pull-up"]
    assert not standard.ok and standard.value > matrix_wires.SETTLE_S
    alone = found["rise to the high threshold, internal pull-up alone (73 kΩ)"]
    assert alone.ok


def test_wrong_supplies_leave_the_leds_unpowered(findings: list[object]) -> None:
    reversed_ = by_quantity(findings, "LED supply entry", "LEDs' supply with the supply reversed")
    wrong = by_quantity(findings, "LED supply entry", "LEDs' supply with a 12 V supply")
    back = by_quantity(findings, "LED supply entry", "back on after")
    assert reversed_.value < 0.1 and wrong.value < 0.1  # type: ignore[attr-defined]
    assert back.value > 4.7  # type: ignore[attr-defined]


def test_cutoff_sits_between_the_supplys_trim_and_twelve_volts(analog: ModuleType) -> None:
    assert 5.5 < analog.cutoff_threshold_v() < 6.0


def test_sense_reads_low_dead_and_high_alive(findings: list[object], analog: ModuleType) -> None:
    dead = by_quantity(findings, "LED supply sense", "pin with the LED supply off")
    alive = by_quantity(findings, "LED supply sense", "pin at 5.1 V")
    assert dead.value < analog.PI_VIL < analog.PI_VIH < alive.value < 3.3  # type: ignore[attr-defined]


def test_the_firmware_and_its_twin_read_the_sense_as_simulated(
    findings: list[object], analog: ModuleType
) -> None:
    # The twin drives the pin by the thresholds the simulation is held to, and its divider
    # gives what ngspice found (the clamp diode and the GPIO's leakage aside).
    assert (supply_twin.INPUT_LOW_V, supply_twin.INPUT_HIGH_V) == (analog.PI_VIL, analog.PI_VIH)
    alive = by_quantity(findings, "LED supply sense", "pin at 5.1 V")
    brown = by_quantity(findings, "LED supply sense", "pin at 3.5 V")
    assert sense_volts(5.1) == pytest.approx(alive.value, rel=0.01)  # type: ignore[attr-defined]
    assert sense_volts(3.5) == pytest.approx(brown.value, rel=0.01)  # type: ignore[attr-defined]


def test_a_finding_out_of_bounds_says_so(analog: ModuleType) -> None:
    finding = analog.Finding("stage", "x", 2.0, "V", None, 1.0, "a bound")
    assert not finding.ok
    assert finding.line() == "OUT OF BOUNDS: stage: x = 2 V (≤ 1 V, a bound)"


def test_spice_errors_are_raised(analog: ModuleType) -> None:
    with pytest.raises(analog.SpiceError):
        analog._measure("* broken\nR1 a 0\n.control\nop\nprint v(a)\n.endc\n.end\n", "nothing")
