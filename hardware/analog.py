"""The table's analog claims as SPICE netlists, run by ngspice and compared with the firmware.

Each stage is built from the values the schematic uses (schematic.py, parts.toml) and simulated
in batch mode; `check_all` runs them and returns one `Finding` per measured value, each with the
bound it must keep and where that bound comes from (a firmware constant or a datasheet). The
models are the published ones where they exist (the 1N4148's), otherwise level-1 models set to
the datasheet figures named beside them: they check the design's margins, not a part's curve.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from schematic import (
    BUZZER_BASE_OHMS,
    BUZZER_SERIES_OHMS,
    COLUMN_PULL_UP_OHMS,
    ESD_SERIES_OHMS,
    OVERVOLTAGE_DIVIDER,
    SENSE_DIVIDER,
    load_parts,
)

from firmware.drivers import matrix_wires
from firmware.drivers.buzzer import BUZZER_TONE

NGSPICE = "ngspice"

PI_VIL = 0.8
PI_VIH = 2.0
"""The Pi's GPIO input thresholds at 3.3 V: low below 0.8 V, high above 2.0 V (BCM2835 ARM
Peripherals and the Raspberry Pi GPIO documentation; the BCM2711's pads are the same 3.3 V
bank)."""
PI_PULL_UP_RANGE_OHMS = (33_000.0, 73_000.0)
"""The Pi 4's internal pull-up, weakest and strongest (BCM2711 datasheet, 33–73 kΩ), wider than
the BCM2835's 50–65 kΩ that `matrix_wires.PI_PULL_UP_OHMS` quotes."""
PI_3V3 = 3.3
PIN_ABSOLUTE_MAX_V = PI_3V3 + 0.3
"""A GPIO must stay within its supply and a diode drop's fraction: 3.6 V at 3.3 V."""
GPIO_DRIVE_LIMIT_A = 8e-3
"""The Pi's default pad drive (8 mA); the buzzer's base current must stay well below it."""
WS2812B_VDD_MAX = 5.3
"""Worldsemi WS2812B: supply 3.5–5.3 V."""
WS2812B_VDD_MIN = 3.5
LED_LOAD_A = 0.76
"""The 29 pixels at brightness level 5 in the firmware's own colours (measured)."""
I2C_FAST_RISE_S = 300e-9
"""I2C fast mode (400 kHz, the table's `i2c_arm_baudrate`): rise time 300 ns at most (NXP
UM10204, table 10)."""
I2C_MIN_PULL_UP_OHMS = (3.3 - 0.4) / 3e-3
"""UM10204: a pull-up must let a device pull the line to 0.4 V with 3 mA: 967 Ω at 3.3 V."""

# A widely used published model of the 1N4148 (Vishay / Fairchild parameter set).
DIODE_MODEL = (
    ".model D1N4148 D(IS=4.352n N=1.906 BV=110 IBV=0.0001 RS=0.6458 CJO=7.048p VJ=0.869 "
    "M=0.03 FC=0.5 TT=3.48n)"
)


class SpiceError(RuntimeError):
    """ngspice failed or did not print a measurement it was asked for."""


@dataclass(frozen=True)
class Finding:
    """One simulated value against its bound."""

    stage: str
    quantity: str
    value: float
    unit: str
    low: float | None
    high: float | None
    bound_source: str

    @property
    def ok(self) -> bool:
        return (self.low is None or self.value >= self.low) and (
            self.high is None or self.value <= self.high
        )

    def line(self) -> str:
        bounds = []
        if self.low is not None:
            bounds.append(f"≥ {_si(self.low, self.unit)}")
        if self.high is not None:
            bounds.append(f"≤ {_si(self.high, self.unit)}")
        verdict = "ok" if self.ok else "OUT OF BOUNDS"
        return (
            f"{verdict}: {self.stage}: {self.quantity} = {_si(self.value, self.unit)} "
            f"({' and '.join(bounds)}, {self.bound_source})"
        )


def _si(value: float, unit: str) -> str:
    if unit == "Ω" and value >= 1000:
        return f"{value / 1000:.3g} kΩ"
    for factor, prefix in ((1e-9, "n"), (1e-6, "µ"), (1e-3, "m")):
        if unit in {"s", "A"} and abs(value) < factor * 1000:
            return f"{value / factor:.3g} {prefix}{unit}"
    return f"{value:.3g} {unit}"


def have_ngspice() -> bool:
    return shutil.which(NGSPICE) is not None


def output(deck: str) -> str:
    """Run `deck` in ngspice's batch mode; what it prints."""
    result = subprocess.run(
        [NGSPICE, "-b", "-n", "/dev/stdin"],
        input=deck,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    # ngspice's batch mode exits 1 after a .control block even when every analysis ran, so its
    # errors show as measurements missing from the output; keep its complaints for that message.
    if re.search(r"^Error", result.stdout + result.stderr, flags=re.M):
        raise SpiceError(f"ngspice: {(result.stdout + result.stderr).strip()[-400:]}")
    return result.stdout


def run(deck: str) -> dict[str, float]:
    """Run `deck`; every `name = value` it prints, as floats (the last of a repeated name)."""
    values = {}
    for name, number in re.findall(r"^(\S+)\s*=\s*([-+0-9.eE]+)", output(deck), flags=re.M):
        values[name.lower()] = float(number)
    return values


def _measure(deck: str, *names: str) -> dict[str, float]:
    values = run(deck)
    missing = [name for name in names if name not in values]
    if missing:
        raise SpiceError(f"ngspice printed no {', '.join(missing)}")
    return values


def column_settle(external_ohms: float = COLUMN_PULL_UP_OHMS) -> Iterator[Finding]:
    """A matrix column through a closed switch and its diode, then released by its row.

    `external_ohms` is each column's resistor to 3.3 V (0: none fitted).

    Strongest pull-up for the low level (the diode's drop plus both 100 Ω against it), weakest
    for the rise; the wire's capacitance the firmware assumes. The rise is timed from the row's
    edge to the column crossing the Pi's high threshold: what the scan's wait must cover.
    """
    capacitance = matrix_wires.WIRE_CAPACITANCE_F
    conductance = (
        (1 / (external_ohms * 1.01), 1 / (external_ohms * 0.99)) if external_ohms else (0, 0)
    )
    weak, strong = (
        1 / (conductance[0] + 1 / PI_PULL_UP_RANGE_OHMS[1]),
        1 / (conductance[1] + 1 / PI_PULL_UP_RANGE_OHMS[0]),
    )
    alone = PI_PULL_UP_RANGE_OHMS[1]
    results = {}
    for name, pull_up in (("strong", strong), ("weak", weak), ("alone", alone)):
        deck = f"""* matrix column, pull-up {pull_up:.0f} ohm
{DIODE_MODEL}
Vdd vdd 0 {PI_3V3}
* the Pi's row output: about 40 ohm at the default 8 mA drive; low until 20 us, then high
Vrow rowsrc 0 PULSE(0 {PI_3V3} 20u 5n 5n 1 2)
Rdrv rowsrc rowpin 40
Rrow rowpin row {ESD_SERIES_OHMS}
D1 switch row D1N4148
Rsw switch wire 0.1
Cwire wire 0 {capacitance}
Rcol colpin wire {ESD_SERIES_OHMS}
Rpull vdd colpin {pull_up}
.control
tran 5n 200u
meas tran vlow find v(colpin) at=19u
meas tran trise trig v(row) val={PI_3V3 / 2} rise=1 targ v(colpin) val={PI_VIH} rise=1
print vlow trise
.endc
.end
"""
        results[name] = _measure(deck, "vlow", "trise")
    yield Finding(
        "matrix column",
        "low level, switch closed, strongest pull-up",
        results["strong"]["vlow"],
        "V",
        None,
        PI_VIL,
        "the Pi's input low threshold",
    )
    yield Finding(
        "matrix column",
        "rise to the high threshold, 10 kΩ beside the weakest internal pull-up",
        results["weak"]["trise"],
        "s",
        None,
        matrix_wires.SETTLE_S,
        "SETTLE_S, firmware/drivers/matrix_wires.py",
    )
    yield Finding(
        "matrix column",
        "rise to the high threshold, internal pull-up alone (73 kΩ)",
        results["alone"]["trise"],
        "s",
        None,
        matrix_wires.settle_for_pull_up(0),
        "settle_for_pull_up(0), firmware/drivers/matrix_wires.py",
    )


def _power_deck(parts: Mapping[str, Any], source: str, analysis: str) -> str:
    fet, ptc = parts["pfet"], parts["ptc_led"]
    divider = "\n".join(
        f"{ref} {_node(a)} {_node(b)} {ohms}" for ref, ohms, a, b in OVERVOLTAGE_DIVIDER
    )
    return f"""* LED supply entry: fuse, back-to-back P-MOSFETs, TL431 cut-off, TVS, 1000 uF, load
.model PFET PMOS(LEVEL=1 VTO={fet["vto"]} KP={fet["kp"]} LAMBDA=0.01)
.model DBODY D(IS=1e-12 N=1.1 RS=0.02 BV=30)
.model QPNP PNP(IS=2e-14 BF=250 VAF=40 RB=10 RC=1 CJE=10p CJC=8p TF=0.5n)
.model DTVS D(IS=1e-12 N=1.3 BV={parts["tvs"]["breakdown_v"]} IBV=10m RS=0.05 CJO=1n)
* the TL431 as the comparator it is here: sinks to about 2 V once REF passes Vref
.model SWTL SW(VT={parts["shunt_reference"]["vref"]} VH=0.002 RON=20 ROFF=1G)
{source}
Rwire in inx 0.05
Rptc inx f {ptc["r1max_ohms"]}
M1 f g s s PFET
D1 f s DBODY
M2 out g s s PFET
D2 out s DBODY
R1 g 0 47k
Q3 g b3 s QPNP
R2 s b3 10k
R3 b3 k 2.2k
S1 k kx ref 0 SWTL
Vka kx 0 2.0
{divider}
Dtvs 0 out DTVS
Cbulk out 0 {parts["bulk_capacitor"]["farads"]}
Rload out 0 {5.0 / LED_LOAD_A:.3f}
Bvgs vgs 0 V=v(g)-v(s)
{analysis}
.end
"""


def _node(net: str) -> str:
    return {
        "FET_SOURCE": "s",
        "FET_GATE": "g",
        "OV_REF": "ref",
        "GND": "0",
    }[net]


def power_entry() -> Iterator[Finding]:
    """The LED supply's entry at the supply's extremes, reversed, and with a 12 V brick."""
    parts = load_parts()
    levels = {"low": 4.75, "nominal": 5.10, "high": 5.50, "reversed": -12.0, "wrong": 12.0}
    found = {}
    for name, volts in levels.items():
        deck = _power_deck(
            parts,
            f"Vin in 0 {volts}",
            ".control\nop\nprint v(out) i(Vin) v(vgs)\n.endc",
        )
        values = run(deck)
        found[name] = values
    # A hot plug: 5.1 V, then a jump to 12 V for 40 ms, then back to 5.1 V.
    deck = _power_deck(
        parts,
        "Vin in 0 PWL(0 0 1m 5.1 20m 5.1 20.1m 12 60m 12 60.1m 5.1 100m 5.1)",
        ".control\ntran 10u 100m\n"
        "meas tran vpeak max v(out) from=20m to=60m\n"
        "meas tran voff find v(out) at=59m\n"
        "meas tran vback find v(out) at=99m\n"
        "meas tran vgsmin min v(vgs)\n"
        "print vpeak voff vback vgsmin\n.endc",
    )
    plug = _measure(deck, "vpeak", "voff", "vback", "vgsmin")
    yield Finding(
        "LED supply entry",
        f"LEDs' supply at 4.75 V in, {LED_LOAD_A} A",
        found["low"]["v(out)"],
        "V",
        WS2812B_VDD_MIN,
        None,
        "WS2812B minimum supply",
    )
    yield Finding(
        "LED supply entry",
        "LEDs' supply at 5.50 V in (the supply's trim at its top)",
        found["high"]["v(out)"],
        "V",
        None,
        WS2812B_VDD_MAX,
        "WS2812B maximum supply",
    )
    yield Finding(
        "LED supply entry",
        "drop at 5.10 V in and 0.76 A (fuse, MOSFETs, wiring)",
        levels["nominal"] - found["nominal"]["v(out)"],
        "V",
        None,
        0.4,
        "the LEDs stay above 4.7 V with the supply at 5.10 V",
    )
    yield Finding(
        "LED supply entry",
        "LEDs' supply with the supply reversed (−12 V)",
        abs(found["reversed"]["v(out)"]),
        "V",
        None,
        0.1,
        "nothing reaches the LEDs reversed",
    )
    yield Finding(
        "LED supply entry",
        "LEDs' supply with a 12 V supply",
        found["wrong"]["v(out)"],
        "V",
        None,
        0.1,
        "the cut-off leaves the LEDs unpowered",
    )
    yield Finding(
        "LED supply entry",
        "peak at the LEDs while 12 V is plugged in",
        plug["vpeak"],
        "V",
        None,
        WS2812B_VDD_MAX,
        "WS2812B maximum supply",
    )
    yield Finding(
        "LED supply entry",
        "back on after the 12 V is gone",
        plug["vback"],
        "V",
        4.7,
        None,
        "the cut-off lets go once the supply is right",
    )
    yield Finding(
        "LED supply entry",
        "MOSFET gate-source voltage, most negative",
        -plug["vgsmin"],
        "V",
        None,
        12.0,
        "AO3401A VGS limit ±12 V",
    )


def cutoff_threshold_v() -> float:
    """The supply at which the entry's cut-off trips: Vref × (1 + R4 / (R5 ∥ R6))."""
    (_, r4, *_), (_, r5, *_), (_, r6, *_) = OVERVOLTAGE_DIVIDER
    vref: float = load_parts()["shunt_reference"]["vref"]
    return vref * (1 + r4 / (1 / (1 / r5 + 1 / r6)))


def led_supply_sense() -> Iterator[Finding]:
    """The divider from the LEDs' 5 V to GPIO 18, at the levels that matter and under a spike.

    The highest steady level behind the entry is its cut-off threshold; faster spikes are
    clamped by the TVS at up to 10.5 V (P6KE6.8A), for microseconds, and the 100 nF on the pin
    must hold them off it.
    """
    (_, top, *_), (_, bottom, *_) = SENSE_DIVIDER
    levels = {"off": 0.0, "brown": WS2812B_VDD_MIN, "nominal": 5.1, "cutoff": cutoff_threshold_v()}
    circuit = f"""* LED-supply sense divider into a GPIO (with its clamp diode to 3.3 V)
.model DCLAMP D(IS=1e-14 N=1)
Rtop led pin {top}
Rbot pin 0 {bottom}
Cf pin 0 100n
Dclamp pin v33 DCLAMP
V33 v33 0 {PI_3V3}
"""
    pins = {}
    for name, volts in levels.items():
        values = run(circuit + f"Vled led 0 {volts}\n.control\nop\nprint v(pin)\n.endc\n.end\n")
        if "v(pin)" not in values:
            raise SpiceError(f"sense divider: no operating point at {volts} V")
        pins[name] = values["v(pin)"]
    spike = _measure(
        circuit
        + "Vled led 0 PULSE(5.1 10.5 1m 1u 1u 50u 1)\n"
        + ".control\ntran 1u 3m\nmeas tran vspike max v(pin)\nprint vspike\n.endc\n.end\n",
        "vspike",
    )
    yield Finding(
        "LED supply sense",
        "pin with the LED supply off",
        pins["off"],
        "V",
        None,
        PI_VIL,
        "the Pi's input low threshold",
    )
    yield Finding(
        "LED supply sense",
        "pin at 3.5 V (the pixels' minimum)",
        pins["brown"],
        "V",
        PI_VIH,
        None,
        "the Pi's input high threshold",
    )
    yield Finding(
        "LED supply sense",
        "pin at 5.1 V",
        pins["nominal"],
        "V",
        PI_VIH,
        PI_3V3,
        "high, within the Pi's 3.3 V",
    )
    yield Finding(
        "LED supply sense",
        f"pin at the cut-off's {levels['cutoff']:.2f} V",
        pins["cutoff"],
        "V",
        PI_VIH,
        PIN_ABSOLUTE_MAX_V,
        "the pin's absolute maximum",
    )
    yield Finding(
        "LED supply sense",
        "pin under a 50 µs spike to the TVS's 10.5 V",
        spike["vspike"],
        "V",
        None,
        PIN_ABSOLUTE_MAX_V,
        "the pin's absolute maximum",
    )


def buzzer() -> Iterator[Finding]:
    """GPIO 12 at the firmware's highest tone into the BC337-40 stage and the transducer."""
    parts = load_parts()
    sounder, transistor = parts["buzzer"], parts["npn"]
    top_hz = BUZZER_TONE.frequency * 2  # the firmware plays an octave either side
    period = 1 / top_hz
    deck = f"""* buzzer stage at {top_hz:.0f} Hz
{DIODE_MODEL}
.model QNPN NPN(IS=1e-14 BF={transistor["beta"]} VAF=100 CJE=20p CJC=10p TF=0.5n TR=50n)
V5 v5 0 5
Vgpio gsrc 0 PULSE(0 {PI_3V3} 0 20n 20n {period / 2} {period})
Rpad gsrc gpio 40
Vib gpio gpiob 0
Rb gpiob base {BUZZER_BASE_OHMS}
Rbe base 0 10k
Q1 coll base 0 QNPN
Rs coil coll {BUZZER_SERIES_OHMS}
* the transducer's coil: its resistance and a few mH
Vic v5 v5c 0
Lcoil v5c lx 5m
Rcoil lx coil {sounder["coil_ohms"]}
D1 coil v5 D1N4148
.control
tran 100n {8 * period}
meas tran vsat min v(coll) from={6 * period} to={8 * period}
meas tran vpeak max v(coil) from={6 * period} to={8 * period}
meas tran ipeak max i(Vic) from={6 * period} to={8 * period}
meas tran ibase max i(Vib) from={6 * period} to={8 * period}
print vsat vpeak ipeak ibase
.endc
.end
"""
    values = _measure(deck, "vsat", "vpeak", "ipeak", "ibase")
    stuck = 5.0 / (sounder["coil_ohms"] + BUZZER_SERIES_OHMS)
    yield Finding(
        "buzzer",
        f"collector when on at {top_hz:.0f} Hz",
        values["vsat"],
        "V",
        None,
        0.4,
        "saturated: the transistor does not heat",
    )
    yield Finding(
        "buzzer",
        "coil current, peak",
        values["ipeak"],
        "A",
        None,
        0.1,
        "under 100 mA, also when stuck on",
    )
    yield Finding(
        "buzzer",
        "GPIO current into the base",
        values["ibase"],
        "A",
        None,
        GPIO_DRIVE_LIMIT_A / 2,
        "half the Pi's default 8 mA drive",
    )
    yield Finding(
        "buzzer",
        "coil's switch-off spike",
        values["vpeak"],
        "V",
        None,
        6.0,
        "5 V plus the diode's drop",
    )
    yield Finding(
        "buzzer",
        "current if left on (DC)",
        stuck,
        "A",
        None,
        0.1,
        "the 10 Ω limits a stuck-on stage",
    )
    yield Finding(
        "buzzer",
        "firmware's middle tone against the transducer's resonance",
        BUZZER_TONE.frequency / sounder["resonance_hz"],
        "×",
        0.5,
        2.0,
        "BUZZER_TONE, firmware/drivers/buzzer.py, within an octave of the resonance",
    )


def i2c_bus() -> Iterator[Finding]:
    """SDA with the Pi's 1.8 kΩ alone into the bus's capacitance: cables, modules, the Pi."""
    pull_up = load_parts()["pi_i2c_pullup"]["ohms"]
    # 1.5 m of 26 AWG in a ribbon at about 60 pF/m, four modules at 10 pF, the Pi's pins 10 pF.
    capacitance = 1.5 * 60e-12 + 4 * 10e-12 + 10e-12
    deck = f"""* I2C SDA rising through the pull-up
Vdd vdd 0 {PI_3V3}
Rp vdd sda {pull_up}
Cb sda 0 {capacitance}
Sdrv sda 0 ctl 0 SWD
.model SWD SW(VT=0.5 VH=0 RON=20 ROFF=1G)
Vctl ctl 0 PULSE(1 0 1u 1n 1n 5u 10u)
.control
tran 1n 6u
meas tran trise trig v(sda) val={0.3 * PI_3V3} rise=1 targ v(sda) val={0.7 * PI_3V3} rise=1
print trise
.endc
.end
"""
    values = _measure(deck, "trise")
    yield Finding(
        "I2C bus",
        "SDA rise time, 30 % to 70 %",
        values["trise"],
        "s",
        None,
        I2C_FAST_RISE_S,
        "I2C fast mode, 400 kHz (UM10204)",
    )
    yield Finding(
        "I2C bus",
        "pull-up on SDA and SCL",
        float(pull_up),
        "Ω",
        I2C_MIN_PULL_UP_OHMS,
        None,
        "3 mA at 0.4 V (UM10204)",
    )


STAGES: tuple[Callable[[], Iterator[Finding]], ...] = (
    column_settle,
    power_entry,
    led_supply_sense,
    buzzer,
    i2c_bus,
)


def check_all() -> list[Finding]:
    """Every stage simulated; raises `SpiceError` if ngspice cannot run one."""
    return [finding for stage in STAGES for finding in stage()]
