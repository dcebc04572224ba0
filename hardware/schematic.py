"""The table's electronics as one schematic: every part, pin and wire, in SKiDL.

`build(pins, variant)` places the parts of `parts.toml` and joins them as `pinout.toml` says,
for the switch-matrix table ("matrix") or the capacitive one ("touch"); SKiDL's electrical rules
check (ERC) runs over it and it is written as a KiCad netlist. `make_hardware.py` turns the
netlists into the BOM and the connector list. Parts are defined here with their own pins
(SKiDL's SKIDL tool), so no KiCad library is needed.

Reference prefixes say where a part sits: P the Pi, J/W connectors and cables, the interface
board's parts plain (R, C, D, Q, U), each pad's SW/D named by its cell, the key's LED.
"""

from __future__ import annotations

import io
import logging
import os
import re
import tempfile
import tomllib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, redirect_stderr
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# SKiDL opens a log file named after the script in the working directory and warns on the
# terminal about KiCad libraries it cannot find, at import. This schematic defines its own parts
# and reads the ERC through a handler of its own: the warnings go to a buffer, and the log files
# to a directory of their own, removed at once (two test workers importing SKiDL in one
# directory would otherwise remove each other's).
_here = os.getcwd()
with tempfile.TemporaryDirectory() as _logs, redirect_stderr(io.StringIO()):
    os.chdir(_logs)
    try:
        import skidl
        import skidl.circuit
        import skidl.logger
        import skidl.node

        skidl.logger.stop_log_file_output()
    finally:
        os.chdir(_here)


def _no_trace() -> list[tuple[str, int]]:
    return []


# SKiDL records where each part and net was made through inspect.stack(), which reads source
# files for every frame: seconds for the table's 170 parts. The netlist does not need it.
skidl.circuit.get_skidl_trace = _no_trace  # type: ignore[attr-defined]
skidl.node.get_skidl_trace = _no_trace  # type: ignore[attr-defined]
skidl.logger.get_skidl_trace = _no_trace  # type: ignore[attr-defined]
from skidl import SKIDL, Circuit, Net, Part, Pin  # noqa: E402

from firmware.drivers.led_layout import CELLS, EDGES  # noqa: E402
from firmware.drivers.led_supply import DIVIDER_OHMS  # noqa: E402
from firmware.drivers.pinout import HEADER_PINS, PinMap, PinUse  # noqa: E402
from firmware.drivers.touch_pads import ADDRESSES  # noqa: E402

HERE = Path(__file__).resolve().parent
PARTS_FILE = HERE / "parts.toml"

VARIANTS = ("matrix", "touch")


CONSOLE_BUTTONS = ("DONE", "PENALTY", "UNDO", "NEW", "TIMER")
"""Column 6 of the matrix, rows 1–5 (pinout.toml)."""

HEADER_POWER = {
    "3V3": (1, 17),
    "5V": (2, 4),
    "GND": (6, 9, 14, 20, 25, 30, 34, 39),
}
"""The 40-pin header's power and ground pins (Raspberry Pi GPIO documentation)."""

PASSIVE, INPUT, OUTPUT, BIDIR = (
    Pin.types.PASSIVE,
    Pin.types.INPUT,
    Pin.types.OUTPUT,
    Pin.types.BIDIR,
)
PWRIN, PWROUT, OPENCOLL = Pin.types.PWRIN, Pin.types.PWROUT, Pin.types.OPENCOLL


def load_parts(path: Path = PARTS_FILE) -> dict[str, dict[str, Any]]:
    """The catalogue: kind → what to buy and the values the simulations use."""
    with path.open("rb") as file:
        return tomllib.load(file)


@dataclass(frozen=True)
class Cable:
    """A cable between two connectors: what the connector list prints."""

    ref: str
    ends: tuple[str, str]
    kind: str
    length_mm: int
    wire: str


class Table:
    """The circuit being built: the parts catalogue, the nets by name, the cables."""

    def __init__(self, catalogue: dict[str, dict[str, Any]]) -> None:
        self.catalogue = catalogue
        self.circuit = Circuit()
        self.circuit.no_files = True
        self.circuit.track_src = False
        self.cables: list[Cable] = []
        self._nets: dict[str, Net] = {}

    def net(self, name: str) -> Net:
        """The net called `name`, made on first use."""
        if name not in self._nets:
            self._nets[name] = Net(name, circuit=self.circuit)
        return self._nets[name]

    def part(
        self,
        kind: str,
        ref: str,
        pins: Sequence[tuple[str, Any]],
        *,
        value: str | None = None,
        footprint_pins: int | None = None,
    ) -> Part:
        """A part of `kind` named `ref` with `pins` (name, SKiDL type), numbered from 1."""
        entry = self.catalogue[kind]
        footprint = entry["footprint"]
        if footprint_pins is not None:
            footprint = footprint.format(pins=footprint_pins)
        made = Part(
            tool=SKIDL,
            name=kind,
            ref=ref,
            # A fixed tag makes the netlist's time stamps (derived from it) the same every run.
            tag=ref,
            value=value or entry["value"],
            footprint=footprint,
            pins=[
                Pin(num=number, name=name, func=kind_of_pin)
                for number, (name, kind_of_pin) in enumerate(pins, start=1)
            ],
            circuit=self.circuit,
        )
        made.fields["Kind"] = kind
        return made

    def resistor(self, ref: str, ohms: float, a: str, b: str, *, kind: str = "resistor") -> Part:
        made = self.part(kind, ref, [("1", PASSIVE), ("2", PASSIVE)], value=ohms_text(ohms))
        made.fields["Ohms"] = f"{ohms:g}"
        self.net(a).connect(made["1"])
        self.net(b).connect(made["2"])
        return made

    def two_pin(self, kind: str, ref: str, first: tuple[str, str], second: tuple[str, str]) -> Part:
        """A two-terminal part: diode (K, A), capacitor, fuse; each pin (name, net)."""
        made = self.part(kind, ref, [(first[0], PASSIVE), (second[0], PASSIVE)])
        self.net(first[1]).connect(made[first[0]])
        self.net(second[1]).connect(made[second[0]])
        return made

    def connector(
        self, ref: str, nets: Sequence[str], *, kind: str = "jst_xh", label: str = ""
    ) -> Part:
        """A connector whose pin n carries `nets[n-1]` (pin names are the net names)."""
        value = f"{self.catalogue[kind]['value']} {len(nets)}-pin"
        made = self.part(
            kind, ref, [(net, PASSIVE) for net in nets], footprint_pins=len(nets), value=value
        )
        made.fields["Use"] = label
        for number, net in enumerate(nets, start=1):
            self.net(net).connect(made[number])
        return made

    def cable(self, ref: str, ends: tuple[str, str], length_mm: int, wire: str) -> None:
        self.cables.append(Cable(ref, ends, "cable", length_mm, wire))


def ohms_text(ohms: float) -> str:
    """10000 → '10 kΩ', 47 → '47 Ω', 10500 → '10.5 kΩ'."""
    if ohms >= 1000:
        return f"{ohms / 1000:g} kΩ"
    return f"{ohms:g} Ω"


def gpio_net(gpio: int, label: str) -> str:
    """The net name of a header GPIO: its number and what the pin map calls it."""
    return f"GPIO{gpio}_{label.upper().replace(' ', '_').replace('(', '').replace(')', '')}"


def build(pins: PinMap, variant: str = "matrix") -> Table:
    """The whole table for `variant` ("matrix" or "touch"), wired as `pins` says."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    table = Table(load_parts())
    _pi(table, pins, variant)
    _power_entry(table)
    _led_chain(table, pins)
    _displays(table)
    if pins.led_sense is not None:
        _led_supply_sense(table, pins.led_sense)
    if pins.buzzer is not None:
        _buzzer(table, pins)
    if variant == "matrix":
        _matrix(table, pins)
    else:
        _touch(table, pins)
    _console(table, pins, variant)
    return table


def _pi(table: Table, pins: PinMap, variant: str) -> None:
    """The Pi's 40-pin header, its I2C pull-ups, and the ribbon to the interface board's J1.

    The ribbon is a straight 40-way cable: pin n of the Pi reaches pin n of J1, so both share
    the nets and the interface board works on J1 alone.
    """
    uses = {use.gpio: use for use in pins.uses()}
    if variant == "touch":
        touch_irqs = pins.matrix_columns[:3]
        uses = {gpio: use for gpio, use in uses.items() if gpio not in pins.matrix_rows}
        uses = {gpio: use for gpio, use in uses.items() if gpio not in pins.matrix_columns[3:]}
        for chip, gpio in enumerate(touch_irqs, start=1):
            uses[gpio] = PinUse("input.mpr121.irq_pins", f"Touch IRQ {chip}", gpio)
    header: list[tuple[str, Any]] = []
    nets: dict[int, str] = {}
    for position in range(1, 41):
        power = next((rail for rail, at in HEADER_POWER.items() if position in at), None)
        gpio = next((g for g, at in HEADER_PINS.items() if at == position), None)
        if power is not None:
            # One pin of each rail is its source for the ERC; the others join it.
            header.append((power, PWROUT if position == HEADER_POWER[power][0] else PASSIVE))
            nets[position] = power
        elif gpio is not None and gpio in uses:
            header.append((f"GPIO{gpio}", _direction(uses[gpio].label)))
            nets[position] = gpio_net(gpio, uses[gpio].label)
        else:
            header.append((f"GPIO{gpio}", BIDIR))
    pi = table.part("pi", "P1", header)
    box = table.part("header_2x20", "J1", [(name, PASSIVE) for name, _ in header])
    for position in range(1, 41):
        if position in nets:
            table.net(nets[position]).connect(pi[position], box[position])
        else:
            table.circuit.NC.connect(pi[position], box[position])
    table.cable("W1", ("P1", "J1"), 150, "40-way ribbon, 1.27 mm pitch, IDC sockets both ends")
    # The Pi's own 1.8 kΩ on SDA and SCL: the bus's only pull-ups.
    for ref, line in (("R_PI1", "GPIO2_OLED_SDA"), ("R_PI2", "GPIO3_OLED_SCL")):
        ohms = table.catalogue["pi_i2c_pullup"]["ohms"]
        table.resistor(ref, ohms, line, "3V3", kind="pi_i2c_pullup")
    # The Pi takes its 5 V through a USB-C lead from the shared supply, not from the header.
    table.two_pin("ptc_pi", "F2", ("1", "PSU_5V"), ("2", "PI_5V_IN"))
    lead = table.part("pi_power_lead", "W3", [("VBUS", PASSIVE), ("GND", PASSIVE)])
    table.net("PI_5V_IN").connect(lead["VBUS"])
    table.net("GND").connect(lead["GND"])


def _direction(label: str) -> Any:
    """How the firmware uses a header pin, as an ERC pin type."""
    if label.startswith(("Matrix row", "Buzzer", "LED data", "OLED SCL")):
        return OUTPUT
    if label == "OLED SDA":
        return BIDIR
    return INPUT


def _power_entry(table: Table) -> None:
    """Mains inlet → one 5 V supply → the Pi's lead and, through a keyed connector, the LEDs.

    The LED branch: a resettable fuse sized to the load, two P-MOSFETs back to back (their body
    diodes block both ways when off), held on by the gate resistor, and switched off by the PNP
    whenever the TL431 sees the supply above about 5.7 V (a wrong or faulty supply) or the
    supply is reversed (then the gate never goes below the source). A TVS after them takes the
    spikes that are faster than the cut-off. Simulated in analog.py.
    """
    inlet = table.part("mains_inlet", "J10", [("L", PWROUT), ("N", PWROUT), ("PE", PASSIVE)])
    fuse = table.part("mains_fuse", "F10", [("1", PASSIVE), ("2", PASSIVE)])
    psu = table.part(
        "psu",
        "PS1",
        [("L", PASSIVE), ("N", PASSIVE), ("PE", PASSIVE), ("V+", PWROUT), ("V-", PASSIVE)],
    )
    table.net("MAINS_L_INLET").connect(inlet["L"], fuse[1])
    table.net("MAINS_L").connect(fuse[2], psu["L"])
    table.net("MAINS_N").connect(inlet["N"], psu["N"])
    table.net("EARTH").connect(inlet["PE"], psu["PE"])
    table.net("PSU_5V").connect(psu["V+"])
    table.net("GND").connect(psu["V-"])
    # The harness from the supply to the interface board ends in the keyed connector.
    table.connector("J2", ["PSU_5V", "GND"], kind="power_connector", label="LED supply in")
    table.cable("W2", ("PS1", "J2"), 300, "2 × 18 AWG, red and black")
    table.two_pin("ptc_led", "F1", ("1", "PSU_5V"), ("2", "LED_IN"))
    for ref, drain in (("Q1", "LED_IN"), ("Q2", "LED_5V")):
        fet = table.part("pfet", ref, [("G", INPUT), ("S", PASSIVE), ("D", PASSIVE)])
        table.net("FET_GATE").connect(fet["G"])
        table.net("FET_SOURCE").connect(fet["S"])
        table.net(drain).connect(fet["D"])
    table.resistor("R1", 47_000, "FET_GATE", "GND")
    cutoff = table.part("pnp", "Q3", [("E", PASSIVE), ("B", INPUT), ("C", OPENCOLL)])
    table.net("FET_SOURCE").connect(cutoff["E"])
    table.net("CUTOFF_BASE").connect(cutoff["B"])
    table.net("FET_GATE").connect(cutoff["C"])
    table.resistor("R2", 10_000, "FET_SOURCE", "CUTOFF_BASE")
    table.resistor("R3", 2_200, "CUTOFF_BASE", "TL431_K")
    reference = table.part(
        "shunt_reference", "U2", [("REF", INPUT), ("A", PASSIVE), ("K", OPENCOLL)]
    )
    table.net("OV_REF").connect(reference["REF"])
    table.net("GND").connect(reference["A"])
    table.net("TL431_K").connect(reference["K"])
    for ref, ohms, a, b in OVERVOLTAGE_DIVIDER:
        table.resistor(ref, ohms, a, b)
    # The LEDs' 5 V is the supply's, passed by the MOSFETs: a power net for the ERC.
    table.net("LED_5V").drive = skidl.POWER
    table.two_pin("tvs", "D1", ("K", "LED_5V"), ("A", "GND"))
    table.two_pin("bulk_capacitor", "C1", ("+", "LED_5V"), ("-", "GND"))


OVERVOLTAGE_DIVIDER = (
    ("R4", 10_500, "FET_SOURCE", "OV_REF"),
    ("R5", 10_000, "OV_REF", "GND"),
    # Hysteresis: with the cut-off on, the gate sits at the source and this resistor lifts the
    # reference, so the supply must fall well back before the MOSFETs turn on again.
    ("R6", 43_000, "FET_GATE", "OV_REF"),
)
"""The over-voltage threshold (R4, R5) and its hysteresis (R6); analog.py simulates them."""

SENSE_DIVIDER = (
    ("R7", DIVIDER_OHMS[0], "LED_5V", "SENSE"),
    ("R8", DIVIDER_OHMS[1], "SENSE", "GND"),
)
"""LED 5 V → the pin map's `led.sense`: 5.0 V reads 2.94 V (high), 0 V reads 0 V (low); the
values are the firmware's (`firmware.drivers.led_supply`), analog.py checks them."""

LED_DATA_SERIES_OHMS = 330
COLUMN_PULL_UP_OHMS = 10_000
ESD_SERIES_OHMS = 100
"""In series with every matrix and encoder line at the header, behind the ESD array."""


def _led_chain(table: Table, pins: PinMap) -> None:
    """GPIO 10 → 74AHCT125 (5 V) → 330 Ω at pixel 0 → the 29 pixels; power fed at both ends."""
    data = gpio_net(pins.led_data, "LED data")
    shifter = table.part(
        "level_shifter",
        "U1",
        [
            ("1OE", INPUT),
            ("1A", INPUT),
            ("1Y", OUTPUT),
            ("2OE", INPUT),
            ("2A", INPUT),
            ("2Y", OUTPUT),
            ("GND", PWRIN),
            ("3Y", OUTPUT),
            ("3A", INPUT),
            ("3OE", INPUT),
            ("4Y", OUTPUT),
            ("4A", INPUT),
            ("4OE", INPUT),
            ("VCC", PWRIN),
        ],
    )
    table.net("GND").connect(shifter["1OE"], shifter["GND"])
    table.net(data).connect(shifter["1A"])
    table.net("LED_DATA_5V").connect(shifter["1Y"])
    # The unused buffers: inputs to GND, outputs disabled (OE high) and left open.
    for buffer in (2, 3, 4):
        table.net("GND").connect(shifter[f"{buffer}A"])
        table.net("LED_5V").connect(shifter[f"{buffer}OE"])
        table.circuit.NC.connect(shifter[f"{buffer}Y"])
    table.net("LED_5V").connect(shifter["VCC"])
    table.two_pin("ceramic_100n", "C2", ("1", "LED_5V"), ("2", "GND"))
    # Holds the data low while the Pi boots or is off and the LED supply is on.
    table.resistor("R9", 47_000, data, "GND")
    table.connector("J3", ["LED_DATA_5V", "GND"], label="LED data")
    table.connector("J4", ["LED_5V", "GND", "LED_5V", "GND"], label="LED power")
    table.connector("J20", ["LED_DATA_5V", "GND"], label="Key data")
    table.connector("J21", ["LED_5V", "GND", "LED_5V", "GND"], label="Key power")
    table.cable("W4", ("J3", "J20"), 400, "2 × 24 AWG twisted, data and its ground")
    table.cable("W5", ("J4", "J21"), 400, "4 × 20 AWG: 5 V and GND to pixel 0 and to pixel 28")
    table.resistor("R20", LED_DATA_SERIES_OHMS, "LED_DATA_5V", "PIXEL_DIN_0")
    for index in range(CELLS + EDGES):
        pixel = table.part(
            "led_pixel",
            f"LED{index + 1}",
            [("VDD", PWRIN), ("DOUT", OUTPUT), ("VSS", PWRIN), ("DIN", INPUT)],
        )
        table.net("LED_5V").connect(pixel["VDD"])
        table.net("GND").connect(pixel["VSS"])
        table.net(f"PIXEL_DIN_{index}").connect(pixel["DIN"])
        if index + 1 < CELLS + EDGES:
            table.net(f"PIXEL_DIN_{index + 1}").connect(pixel["DOUT"])
        else:
            table.circuit.NC.connect(pixel["DOUT"])


def _displays(table: Table) -> None:
    """Two SSD1309 modules on I2C1, converted to I2C: CS to GND, D/C the address bit.

    Their VCC is the Pi's 5 V (the modules regulate their own 3.3 V), so the panels' current
    stays off the Pi's 3.3 V rail; D/C and RES are 3.3 V logic, so the cable also carries 3V3
    for the second display's address strap. RES comes from a shared power-on reset (10 kΩ to
    3.3 V, 1 µF to GND): no GPIO is needed.
    """
    table.resistor("R10", 10_000, "3V3", "OLED_RES")
    table.two_pin("ceramic_1u", "C3", ("1", "OLED_RES"), ("2", "GND"))
    for number, (ref, address_net) in enumerate((("DS1", "GND"), ("DS2", "3V3")), start=1):
        plug = f"J{4 + number}"
        table.connector(
            plug,
            ["5V", "GND", "GPIO3_OLED_SCL", "GPIO2_OLED_SDA", "OLED_RES", "3V3"],
            label=f"Display {number}",
        )
        module = table.part(
            "oled",
            ref,
            [
                ("GND", PWRIN),
                ("VCC", PWRIN),
                ("SCL", INPUT),
                ("SDA", BIDIR),
                ("RES", INPUT),
                ("DC", INPUT),
                ("CS", INPUT),
            ],
        )
        table.net("GND").connect(module["GND"], module["CS"])
        table.net("5V").connect(module["VCC"])
        table.net("GPIO3_OLED_SCL").connect(module["SCL"])
        table.net("GPIO2_OLED_SDA").connect(module["SDA"])
        table.net("OLED_RES").connect(module["RES"])
        # D/C is the address bit in I2C mode: low 0x3C (the spymasters' display), high 0x3D.
        table.net(address_net).connect(module["DC"])
        length = 300 if number == 1 else 600
        table.cable(f"W{5 + number}", (plug, ref), length, "6 × 26 AWG, 6-way ribbon")


def _led_supply_sense(table: Table, gpio: int) -> None:
    sense = gpio_net(gpio, "LED supply sense")
    for ref, ohms, *ends in SENSE_DIVIDER:
        a, b = (sense if end == "SENSE" else end for end in ends)
        table.resistor(ref, ohms, a, b)
    table.two_pin("ceramic_100n", "C4", ("1", sense), ("2", "GND"))


def _buzzer(table: Table, pins: PinMap) -> None:
    """GPIO → 1 kΩ → BC337-40; 10 kΩ base to GND; 10 Ω and the transducer to 5 V; 1N4148."""
    assert pins.buzzer is not None
    drive = gpio_net(pins.buzzer, "Buzzer")
    table.resistor("R11", BUZZER_BASE_OHMS, drive, "BUZZER_BASE")
    table.resistor("R12", 10_000, "BUZZER_BASE", "GND")
    transistor = table.part("npn", "Q4", [("E", PASSIVE), ("B", INPUT), ("C", OPENCOLL)])
    table.net("GND").connect(transistor["E"])
    table.net("BUZZER_BASE").connect(transistor["B"])
    table.net("BUZZER_LOW").connect(transistor["C"])
    table.resistor(
        "R13", BUZZER_SERIES_OHMS, "BUZZER_COIL", "BUZZER_LOW", kind="resistor_half_watt"
    )
    table.two_pin("buzzer", "BZ1", ("+", "5V"), ("-", "BUZZER_COIL"))
    table.two_pin("diode", "D2", ("K", "5V"), ("A", "BUZZER_COIL"))


BUZZER_BASE_OHMS = 1_000
BUZZER_SERIES_OHMS = 10
"""Limits a transistor left on to about 95 mA with the 42 Ω coil, and costs 2 dB of loudness."""


def _esd_lines(table: Table, lines: Sequence[tuple[str, str]]) -> None:
    """Each (Pi-side net, wire-side net) through 100 Ω, the wire side on an ESD array line."""
    channels = (1, 3, 4, 6)
    arrays = -(-len(lines) // len(channels))
    for number in range(arrays):
        array = table.part(
            "esd_array",
            f"U{10 + number}",
            [
                ("IO1", PASSIVE),
                ("GND", PWRIN),
                ("IO2", PASSIVE),
                ("IO3", PASSIVE),
                ("VP", PWRIN),
                ("IO4", PASSIVE),
            ],
        )
        table.net("GND").connect(array["GND"])
        table.net("3V3").connect(array["VP"])
        for channel, pin in enumerate(channels):
            index = number * len(channels) + channel
            if index < len(lines):
                table.net(lines[index][1]).connect(array[pin])
            else:
                table.circuit.NC.connect(array[pin])
    for index, (pi_side, wire_side) in enumerate(lines):
        table.resistor(f"R{30 + index}", ESD_SERIES_OHMS, pi_side, wire_side)


def _matrix(table: Table, pins: PinMap) -> None:
    """Rows driven low one at a time, columns pulled up; one switch and diode per crossing.

    Each pad's switch and diode sit on a small board; a row's five are wired to its connector
    (J31–J35), the row's cable to the interface board (J11–J15). The console's five
    buttons are column 6, their diodes on the console board.
    """
    lines = []
    for row, gpio in enumerate(pins.matrix_rows, start=1):
        lines.append((gpio_net(gpio, f"Matrix row {row}"), f"ROW{row}"))
    for column, gpio in enumerate(pins.matrix_columns, start=1):
        name = _column_name(column)
        lines.append((gpio_net(gpio, f"Matrix column {name}"), f"COL{column}"))
        table.resistor(
            f"R{20 + column}", COLUMN_PULL_UP_OHMS, gpio_net(gpio, f"Matrix column {name}"), "3V3"
        )
    lines += [
        (gpio_net(pins.encoder_a, "Encoder A"), "ENC_A"),
        (gpio_net(pins.encoder_b, "Encoder B"), "ENC_B"),
        (gpio_net(pins.encoder_push, "Encoder push"), "ENC_PUSH"),
    ]
    _esd_lines(table, lines)
    columns = len(pins.matrix_columns) - 1
    for row in range(1, len(pins.matrix_rows) + 1):
        nets = [f"ROW{row}", *(f"COL{column}" for column in range(1, columns + 1))]
        table.connector(f"J{10 + row}", nets, label=f"Pad row {row}")
        table.connector(f"J{30 + row}", nets, label=f"Pad row {row}, at the pads")
        table.cable(f"W{10 + row}", (f"J{10 + row}", f"J{30 + row}"), 600, "6 × 26 AWG")
        for column in range(1, columns + 1):
            cell = f"{'ABCDE'[column - 1]}{row}"
            _switch_with_diode(table, "switch_pad", cell, f"COL{column}", f"ROW{row}")


def _column_name(column: int) -> str:
    return "6 (console)" if column == 6 else f"{column} ({'ABCDE'[column - 1]})"


def _switch_with_diode(table: Table, kind: str, name: str, column: str, row: str) -> None:
    """Column → switch → diode anode; cathode (the band) → row."""
    switch = table.part(kind, f"SW_{name}", [("1", PASSIVE), ("2", PASSIVE)])
    middle = f"SW_{name}_D"
    table.net(column).connect(switch[1])
    table.net(middle).connect(switch[2])
    table.two_pin("diode", f"D_{name}", ("K", row), ("A", middle))


def _touch(table: Table, pins: PinMap) -> None:
    """Three MPR121 breakouts on I2C1, their IRQs on the matrix's first three column pins.

    Electrodes in the firmware's order (touch_pads): the 25 cards in reading order, then the
    five console buttons on chip 3's E1–E5.
    """
    cells = [f"{'ABCDE'[i % 5]}{i // 5 + 1}" for i in range(25)]
    pads = [*cells, *CONSOLE_BUTTONS]
    straps = ("GND", "3V3", "GPIO2_OLED_SDA")  # ADDR to GND 0x5A, to 3V3 0x5B, to SDA 0x5C
    assert len(straps) == len(ADDRESSES)
    for chip, (gpio, strap) in enumerate(zip(pins.matrix_columns[:3], straps, strict=True)):
        irq = gpio_net(gpio, f"Touch IRQ {chip + 1}")
        nets = ["3V3", "GND", "GPIO3_OLED_SCL", "GPIO2_OLED_SDA", irq, strap]
        table.connector(f"J{11 + chip}", nets, label=f"Touch {chip + 1}")
        table.cable(f"W{11 + chip}", (f"J{11 + chip}", f"U{20 + chip}"), 500, "6 × 26 AWG")
        module = table.part(
            "touch_controller",
            f"U{20 + chip}",
            [
                ("VIN", PWRIN),
                ("GND", PWRIN),
                ("SCL", INPUT),
                ("SDA", BIDIR),
                ("IRQ", OPENCOLL),
                ("ADDR", INPUT),
                *((f"E{n}", PASSIVE) for n in range(12)),
            ],
        )
        for pin, net in zip(("VIN", "GND", "SCL", "SDA", "IRQ", "ADDR"), nets, strict=True):
            table.net(net).connect(module[pin])
        for electrode in range(12):
            index = chip * 12 + electrode
            if index < len(pads):
                name = f"TOUCH_{pads[index]}"
                pad = table.part("electrode", f"E_{pads[index]}", [("1", PASSIVE)])
                table.net(name).connect(module[f"E{electrode}"], pad[1])
            else:
                table.circuit.NC.connect(module[f"E{electrode}"])
    # Chip 3's E0 takes E5 and E1–E5 the buttons: the order above puts them there.


def _console(table: Table, pins: PinMap, variant: str) -> None:
    """The console board: encoder (and, on the matrix table, the buttons with their diodes)."""
    if variant == "matrix":
        rows = [f"ROW{row}" for row in range(1, len(pins.matrix_rows) + 1)]
        nets = [*rows, "COL6", "ENC_A", "ENC_B", "ENC_PUSH", "GND"]
        for row, button in enumerate(CONSOLE_BUTTONS, start=1):
            _switch_with_diode(table, "switch_console", button, "COL6", f"ROW{row}")
    else:
        lines = [
            (gpio_net(pins.encoder_a, "Encoder A"), "ENC_A"),
            (gpio_net(pins.encoder_b, "Encoder B"), "ENC_B"),
            (gpio_net(pins.encoder_push, "Encoder push"), "ENC_PUSH"),
        ]
        _esd_lines(table, lines)
        nets = ["ENC_A", "ENC_B", "ENC_PUSH", "GND"]
    table.connector("J16", nets, label="Console")
    table.connector("J40", nets, label="Console board")
    table.cable("W16", ("J16", "J40"), 300, f"{len(nets)} × 26 AWG")
    encoder = table.part(
        "encoder",
        "SW1",
        [("A", PASSIVE), ("C", PASSIVE), ("B", PASSIVE), ("S1", PASSIVE), ("S2", PASSIVE)],
    )
    table.net("ENC_A").connect(encoder["A"])
    table.net("ENC_B").connect(encoder["B"])
    table.net("GND").connect(encoder["C"], encoder["S2"])
    table.net("ENC_PUSH").connect(encoder["S1"])


@contextmanager
def _erc_messages() -> Iterator[list[str]]:
    """Collect what SKiDL's ERC logs as warnings and errors while the block runs."""
    messages: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.WARNING:
                messages.append(f"{record.levelname}: {record.getMessage().strip()}")

    handler = Collect()
    erc_logger = skidl.erc_logger
    erc_logger.addHandler(handler)
    try:
        yield messages
    finally:
        erc_logger.removeHandler(handler)


def erc(table: Table) -> list[str]:
    """SKiDL's electrical rules check over the table: every error and warning it logs."""
    with _erc_messages() as messages:
        table.circuit.ERC()
    return messages


def netlist(table: Table) -> str:
    """The KiCad netlist, without the date and path SKiDL stamps in, so that it is reproducible."""
    text: str = table.circuit.generate_netlist(tool=skidl.KICAD8)
    for pattern in (
        r'(\(date )"[^"]*"',
        r'(\(source )"[^"]*"',
        r'(\(name "SKiDL Line"\) )"[^"]*"',
    ):
        text = re.sub(pattern, r'\1""', text)
    return text if text.endswith("\n") else text + "\n"
