"""Draw hardware/wiring.svg from the pin map, so the diagram cannot drift from the wiring.

Run from the repository root after changing hardware/pinout.toml:

    .venv/bin/python hardware/make_wiring_svg.py          # rewrite hardware/wiring.svg
    .venv/bin/python hardware/make_wiring_svg.py --check  # exit 1 if it is stale

Parts are joined by net labels ("GPIO 16 · pin 36") rather than by drawn wires: with 18 signals
a wire drawing turns into spaghetti, and a label is what the builder checks against the header.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from svg_drawing import Drawing, Point, write_or_check

from firmware.drivers.led_supply import DIVIDER_OHMS
from firmware.drivers.pinout import HEADER_PINS, RESERVED_PINS, PinMap, PinUse, load_pin_map

HERE = Path(__file__).resolve().parent
DEFAULT_OUTPUT = HERE / "wiring.svg"

WIDTH, HEIGHT = 1560, 1366
SHUTDOWN_GPIO = 4
"""The free GPIO for the optional shutdown button (the `gpio-shutdown` overlay)."""
SHUTDOWN_HEADER_PIN, SHUTDOWN_GROUND_PIN = 7, 9
CONSOLE_BUTTONS = ("DONE", "PENALTY", "UNDO", "NEW", "TIMER")
"""Console buttons in matrix column 6, rows 1–5."""

# One colour per group of signals, used for the header dot, its label and the part's pins.
COLOURS = {
    "matrix.rows": "#d9480f",
    "matrix.columns": "#1971c2",
    "encoder": "#2b8a3e",
    "buzzer": "#8d5524",
    "oled": "#7048e8",
    "led": "#c2255c",
    "3V3": "#e8590c",
    "5V": "#e03131",
    "GND": "#212529",
    "unused": "#adb5bd",
    "shutdown": "#5c940d",
}

POWER_PINS = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V"} | {
    pin: "GND" for pin in (6, 9, 14, 20, 25, 30, 34, 39)
}
"""Header positions that carry power; the rest are GPIOs (see HEADER_PINS)."""

POWER_NOTES = {
    1: "3V3: pull-ups, ESD arrays, OLED straps",
    2: "5V: the OLEDs' VCC",
    4: "buzzer + (via 10 Ω)",
    6: "GND: OLEDs",
    9: "shutdown button",
    17: "3V3: with pin 1 on the ribbon",
    20: "GND: LED data reference",
    34: "buzzer GND",
    39: "encoder GND",
}


def _group(use: PinUse) -> str:
    return use.key if use.key.startswith("matrix") else use.key.split(".")[0]


def _net(gpio: int) -> str:
    return f"GPIO {gpio} · pin {HEADER_PINS[gpio]}"


def render_svg(pins: PinMap) -> str:
    """The whole wiring diagram for `pins`, as SVG text."""
    drawing = Drawing(WIDTH, HEIGHT)
    drawing.text(20, 36, "Codenames game table — wiring", "title")
    drawing.text(
        20,
        58,
        "BCM GPIO numbers with their 40-pin header positions. Generated from "
        "hardware/pinout.toml by hardware/make_wiring_svg.py; do not edit by hand.",
        "small",
    )
    by_gpio = {use.gpio: use for use in pins.uses()}
    _draw_header(drawing, by_gpio)
    _draw_matrix(drawing, pins)
    _draw_encoder(drawing, pins, x=20, y=750)
    _draw_oled(drawing, pins, x=300, y=750)
    _draw_buzzer(drawing, pins, x=560, y=750)
    _draw_level_shifter(drawing, pins, x=910, y=750)
    _draw_led_key(drawing, x=1240, y=750)
    _draw_shutdown_button(drawing, by_gpio, x=20, y=930)
    _draw_protection(drawing, x=300, y=1000)
    _draw_led_power(drawing, pins, x=20, y=1120)
    return drawing.serialise()


def _draw_header(drawing: Drawing, by_gpio: dict[int, PinUse]) -> None:
    x, y = 20, 80
    drawing.rect(x, y, 500, 530)
    drawing.text(
        x + 250, y + 24, "Raspberry Pi 40-pin header (pin 1 top left)", "heading", anchor="middle"
    )
    gpio_at = {header: gpio for gpio, header in HEADER_PINS.items()}
    left_x, right_x = x + 236, x + 264
    for row in range(20):
        row_y = y + 50 + row * 23.5
        drawing.rect(left_x - 11, row_y - 11, right_x - left_x + 22, 22, "thin")
        for header in (2 * row + 1, 2 * row + 2):
            odd = header % 2 == 1
            pin_x = left_x if odd else right_x
            label_x = pin_x - 16 if odd else pin_x + 16
            anchor = "end" if odd else "start"
            if header in POWER_PINS:
                rail = POWER_PINS[header]
                note = POWER_NOTES.get(header, "")
                label = f"{rail} · {note}" if note else rail
                colour = COLOURS[rail]
            else:
                gpio = gpio_at[header]
                use = by_gpio.get(gpio)
                if use is not None:
                    label, colour = f"{use.label} · GPIO {gpio}", COLOURS[_group(use)]
                elif gpio in RESERVED_PINS:
                    bus = RESERVED_PINS[gpio].split(",")[0]
                    label, colour = f"GPIO {gpio} · {bus}, keep free", COLOURS["unused"]
                elif gpio == SHUTDOWN_GPIO:
                    label, colour = f"GPIO {gpio} · shutdown button", COLOURS["shutdown"]
                else:
                    label, colour = f"GPIO {gpio}", COLOURS["unused"]
            drawing.circle(pin_x, row_y, 9, colour, tooltip=f"pin {header}: {label}")
            drawing.text(pin_x, row_y + 3, str(header), "pinno")
            drawing.text(label_x, row_y + 4, label, "small", anchor=anchor, colour=colour)


def _draw_matrix(drawing: Drawing, pins: PinMap) -> None:
    x, y = 540, 80
    drawing.rect(x, y, WIDTH - x - 20, 650)
    drawing.text(x + 16, y + 24, "Switch matrix, 5 × 6, one 1N4148 per switch", "heading")
    row_colour, column_colour = COLOURS["matrix.rows"], COLOURS["matrix.columns"]
    first_column_x, column_step = x + 250, 118
    first_row_y, row_step = y + 196, 88
    last_row_y = first_row_y + 4 * row_step
    right_end = first_column_x + 5 * column_step + 90

    for column, gpio in enumerate(pins.matrix_columns):
        column_x = first_column_x + column * column_step
        name = "ABCDE"[column] if column < 5 else "console"
        drawing.text(
            column_x,
            y + 50,
            f"Column {column + 1} ({name})",
            "small",
            anchor="middle",
            colour=column_colour,
        )
        drawing.text(column_x, y + 66, _net(gpio), "small", anchor="middle", colour=column_colour)
        # The 10 kΩ pull-up from the 3V3 rail: it lets the column rise fast after a row change.
        drawing.line((column_x, y + 92), (column_x, y + 100), COLOURS["3V3"], 1.5)
        drawing.box(column_x - 4, y + 100, 8, 22, "#ffffff")
        drawing.rect(column_x - 4, y + 100, 8, 22, "resistor")
        drawing.text(column_x - 8, y + 115, "10 kΩ", "small", anchor="end", colour=column_colour)
        drawing.line((column_x, y + 122), (column_x, last_row_y + 12), column_colour, 2)
    rail_left, rail_right = first_column_x - 40, first_column_x + 5 * column_step + 10
    drawing.line((rail_left, y + 92), (rail_right, y + 92), COLOURS["3V3"], 2)
    drawing.text(
        rail_left - 6,
        y + 96,
        "3V3 · pin 17: pull-ups",
        "small",
        anchor="end",
        colour=COLOURS["3V3"],
    )

    for row, gpio in enumerate(pins.matrix_rows):
        row_y = first_row_y + row * row_step
        drawing.line((x + 200, row_y), (right_end, row_y), row_colour, 2)
        drawing.text(x + 16, row_y - 4, f"Row {row + 1} (output)", "small", colour=row_colour)
        drawing.text(x + 16, row_y + 12, _net(gpio), "small", colour=row_colour)
        for column in range(6):
            column_x = first_column_x + column * column_step
            name = f"{'ABCDE'[column]}{row + 1}" if column < 5 else CONSOLE_BUTTONS[row]
            _draw_switch_and_diode(drawing, column_x, row_y, name)

    notes = (
        "Columns 1–5 are the card columns A–E; column 6 holds the console buttons.",
        "The scanner drives one row low at a time; the other rows stay high.",
        "Diode cathode (bar) toward the row: a pressed switch pulls its column low only while its",
        "row is low, and current cannot sneak back through other switches (no ghosting).",
    )
    for line, note in enumerate(notes):
        drawing.text(x + 16, last_row_y + 36 + line * 16, note, "small")


def _draw_switch_and_diode(drawing: Drawing, column_x: float, row_y: float, name: str) -> None:
    """Column → switch → diode (anode on the switch side, cathode bar at the row)."""
    ink = "#212529"
    branch_x = column_x + 26
    top = row_y - 64
    drawing.circle(column_x, top, 3, COLOURS["matrix.columns"])
    drawing.line((column_x, top), (branch_x, top), ink, 1.2)
    # Switch, drawn open: two contacts and a lifted blade.
    drawing.line((branch_x, top), (branch_x, top + 6), ink, 1.2)
    drawing.circle(branch_x, top + 8, 2.5, ink)
    drawing.circle(branch_x, top + 24, 2.5, ink)
    drawing.line((branch_x, top + 24), (branch_x + 9, top + 9), ink, 1.5)
    drawing.line((branch_x, top + 26), (branch_x, top + 34), ink, 1.2)
    # Diode pointing down toward the row.
    drawing.polygon([(branch_x - 6, top + 34), (branch_x + 6, top + 34), (branch_x, top + 46)], ink)
    drawing.line((branch_x - 6, top + 46), (branch_x + 6, top + 46), ink, 2)
    drawing.line((branch_x, top + 46), (branch_x, row_y), ink, 1.2)
    drawing.circle(branch_x, row_y, 3, COLOURS["matrix.rows"])
    drawing.text(branch_x + 12, top + 22, name, "cell")


def _draw_part(
    drawing: Drawing,
    corner: Point,
    width: float,
    title: str,
    lines: Sequence[tuple[str, str]],
) -> None:
    """A part as a box of `pin → net` lines, each in the colour of its signal group."""
    x, y = corner
    drawing.rect(x, y, width, 36 + 18 * len(lines))
    drawing.text(x + 12, y + 22, title, "heading")
    for index, (text, group) in enumerate(lines):
        drawing.text(x + 12, y + 44 + index * 18, text, "small", colour=COLOURS[group])


def _draw_encoder(drawing: Drawing, pins: PinMap, x: float, y: float) -> None:
    _draw_part(
        drawing,
        (x, y),
        260,
        "Rotary encoder (Bourns PEC11H)",
        [
            (f"A → 100 Ω → {_net(pins.encoder_a)}", "encoder"),
            (f"B → 100 Ω → {_net(pins.encoder_b)}", "encoder"),
            (f"SW (push) → 100 Ω → {_net(pins.encoder_push)}", "encoder"),
            ("C and the switch's other pin → GND · pin 39", "GND"),
            ("no + pin: the Pi's internal pull-ups", "GND"),
            ("hold all three lines high.", "GND"),
        ],
    )


def _draw_oled(drawing: Drawing, pins: PinMap, x: float, y: float) -> None:
    _draw_part(
        drawing,
        (x, y),
        240,
        'OLEDs SSD1309 2.42" (×2), I2C',
        [
            (f"SDA → {_net(2)}", "oled"),
            (f"SCL → {_net(3)}", "oled"),
            ("VCC → 5V · pin 2; GND · pin 6", "5V"),
            ("CS → GND; D/C → GND (0x3C) or 3V3 (0x3D)", "GND"),
            ("RES → 10 kΩ to 3V3, 1 µF to GND", "3V3"),
            (f"I2C bus {pins.i2c_bus}, address {pins.oled_address:#04x}", "oled"),
            ("400 kHz (see README)", "oled"),
        ],
    )


def _draw_buzzer(drawing: Drawing, pins: PinMap, x: float, y: float) -> None:
    if pins.buzzer is None:
        _draw_part(drawing, (x, y), 280, "Buzzer", [("not fitted in this pin map", "unused")])
        return
    _draw_part(
        drawing,
        (x, y),
        340,
        "Passive buzzer (optional)",
        [
            (f"{_net(pins.buzzer)} → 1 kΩ → base", "buzzer"),
            ("(with a MOSFET: 100 Ω → gate)", "buzzer"),
            ("base (gate) → 10 kΩ → GND: off while the pin floats", "GND"),
            ("NPN BC337-40 (800 mA), or logic-level N-MOSFET", "buzzer"),
            ("AO3400A; not a BC547 or 2N3904 (100–200 mA)", "buzzer"),
            ("emitter (source) → GND · pin 34", "GND"),
            ("buzzer − → 10 Ω, 0.5 W → collector; + → 5V · pin 4", "5V"),
            ("1N4148 across the buzzer, cathode to its +", "buzzer"),
        ],
    )


def _draw_level_shifter(drawing: Drawing, pins: PinMap, x: float, y: float) -> None:
    _draw_part(
        drawing,
        (x, y),
        320,
        "Level shifter 74AHCT125 at 5 V",
        [
            (f"1A (2) ← {_net(pins.led_data)}", "led"),
            (f"(LED data; {pins.led_backend.value} backend)", "led"),
            ("1A (2) → 47 kΩ → GND: quiet while the Pi is off", "GND"),
            ("1Y (3) → 330 Ω → DIN of pixel 0", "led"),
            ("1OE (1) → GND: always enabled", "GND"),
            ("VCC (14) → 5 V LED supply,", "5V"),
            ("100 nF from VCC (14) to GND (7) at the chip", "5V"),
            ("GND (7) → common GND · pin 20", "GND"),
            ("unused 2A, 3A, 4A → GND", "GND"),
            ("unused 2OE, 3OE, 4OE → 5 V (off)", "5V"),
        ],
    )


def _draw_led_key(drawing: Drawing, x: float, y: float) -> None:
    """The 29-pixel chain: serpentine over the cells, then the edge lights."""
    drawing.rect(x, y, WIDTH - x - 20, 350)
    drawing.text(x + 12, y + 22, "LED key: 29 × WS2812B", "heading")
    cell, grid_x, grid_y = 34, x + 65, y + 84
    centres: list[Point] = []
    for row in range(5):
        columns = range(5) if row % 2 == 0 else range(4, -1, -1)
        for column in columns:
            centres.append((grid_x + column * cell + cell / 2, grid_y + row * cell + cell / 2))
    drawing.polyline(centres, COLOURS["led"])
    for index, (cx, cy) in enumerate(centres):
        drawing.rect(cx - 13, cy - 13, 26, 26, "box")
        drawing.text(cx, cy + 4, str(index), "small", anchor="middle", colour=COLOURS["led"])
    for column in range(5):
        drawing.text(
            grid_x + column * cell + cell / 2, grid_y - 6, "ABCDE"[column], "cell", anchor="middle"
        )
    for row in range(5):
        drawing.text(
            grid_x - 8, grid_y + row * cell + cell / 2 + 4, str(row + 1), "cell", anchor="end"
        )
    middle_x, middle_y, span = grid_x + 2.5 * cell, grid_y + 2.5 * cell, 2.5 * cell + 32
    edges = (
        (middle_x, middle_y - span),
        (middle_x + span, middle_y),
        (middle_x, middle_y + span),
        (middle_x - span, middle_y),
    )
    for index, (ex, ey) in enumerate(edges, start=25):
        drawing.circle(ex, ey, 10, COLOURS["led"])
        drawing.text(ex, ey + 3, str(index), "pinno")
    drawing.text(x + 12, y + 318, "Pixel 0 at A1; 25–28: top,", "small")
    drawing.text(x + 12, y + 334, "right, bottom, left", "small")


def _draw_shutdown_button(drawing: Drawing, by_gpio: dict[int, PinUse], x: float, y: float) -> None:
    """The optional button that halts the Pi cleanly; drawn only while its GPIO is free."""
    if SHUTDOWN_GPIO in by_gpio:
        return
    _draw_part(
        drawing,
        (x, y),
        260,
        "Shutdown button (optional)",
        [
            (f"GPIO {SHUTDOWN_GPIO} · pin {SHUTDOWN_HEADER_PIN} → button", "shutdown"),
            (f"button → GND · pin {SHUTDOWN_GROUND_PIN}", "GND"),
            ("config.txt: dtoverlay=gpio-shutdown,", "shutdown"),
            (f"gpio_pin={SHUTDOWN_GPIO} (the default, GPIO 3,", "shutdown"),
            ("is the OLED's SCL)", "shutdown"),
        ],
    )


def _draw_protection(drawing: Drawing, x: float, y: float) -> None:
    _draw_part(
        drawing,
        (x, y),
        590,
        "Protection at the Pi connector",
        [
            ("TVS array (low-capacitance, e.g. 4 lines per SOT-23-6) from each matrix and", "GND"),
            (
                "encoder line to GND, at the connector; encoder body and metal panels to GND",
                "GND",
            ),
        ],
    )


def _draw_led_power(drawing: Drawing, pins: PinMap, x: float, y: float) -> None:
    """The LED supply: fuse, bulk capacitor, both ends of the chain fed, the return wired back."""
    width = WIDTH - x - 20
    drawing.rect(x, y, width, 226)
    drawing.text(x + 12, y + 22, "LED power (the shared 5 V supply; 20–22 AWG)", "heading")
    plus, minus, ink = COLOURS["5V"], COLOURS["GND"], "#212529"
    rail_plus, rail_minus = y + 80, y + 140
    supply_x = x + 20
    drawing.rect(supply_x, y + 60, 150, 100)
    drawing.text(supply_x + 75, y + 96, "5 V supply", "heading", anchor="middle")
    drawing.text(supply_x + 75, y + 114, "LRS-35-5, keyed plug", "small", anchor="middle")
    drawing.text(supply_x + 140, rail_plus + 4, "+", "heading", anchor="end", colour=plus)
    drawing.text(supply_x + 140, rail_minus + 4, "−", "heading", anchor="end", colour=minus)
    fuse_x = supply_x + 200
    drawing.line((supply_x + 150, rail_plus), (fuse_x, rail_plus), plus, 3)
    drawing.rect(fuse_x, rail_plus - 9, 60, 18, "resistor")
    drawing.text(
        fuse_x + 30, rail_plus - 14, "PTC 1.6 A, cut-off", "small", anchor="middle", colour=plus
    )
    chain_x, last_x = x + 830, x + width - 160
    drawing.line((fuse_x + 60, rail_plus), (last_x + 40, rail_plus), plus, 3)
    drawing.line((supply_x + 150, rail_minus), (last_x + 40, rail_minus), minus, 3)
    # Bulk capacitor where the supply meets the chain.
    cap_x = fuse_x + 100
    drawing.line((cap_x, rail_plus), (cap_x, rail_plus + 22), ink, 1.5)
    drawing.line((cap_x - 14, rail_plus + 22), (cap_x + 14, rail_plus + 22), ink, 2.5)
    drawing.line((cap_x - 14, rail_plus + 30), (cap_x + 14, rail_plus + 30), ink, 2.5)
    drawing.line((cap_x, rail_plus + 30), (cap_x, rail_minus), ink, 1.5)
    drawing.text(cap_x + 20, rail_plus + 30, "1000 µF, 10 V", "small")
    drawing.text(
        fuse_x,
        y + 190,
        "PTC, reverse and over-voltage cut-off, TVS: generated/connectors.md, README Power",
        "small",
    )
    if pins.led_sense is not None:
        top, bottom = (f"{ohms / 1000:g} kΩ" for ohms in DIVIDER_OHMS)
        drawing.text(
            fuse_x,
            y + 210,
            f"sense: protected 5 V → {top} → {_net(pins.led_sense)}, {bottom} and 100 nF to GND",
            "small",
            colour=plus,
        )
    # The chain: pixel 0 fed first; the last pixel fed again from the same terminals.
    # Only the two ends hang on the feed wires; between them the chain's own pads carry 5 V,
    # GND and the data from each pixel's DOUT to the next one's DIN.
    pixels = ((chain_x, "0", True), (chain_x + 90, "1", False), (last_x, "28", True))
    for px, name, fed in pixels:
        drawing.rect(px, rail_plus + 12, 40, 36)
        drawing.text(px + 20, rail_plus + 35, name, "cell", anchor="middle", colour=COLOURS["led"])
        if fed:
            drawing.line((px + 10, rail_plus), (px + 10, rail_plus + 12), plus, 2)
            drawing.line((px + 30, rail_plus + 48), (px + 30, rail_minus), minus, 2)
    for start, end in ((chain_x + 40, chain_x + 90), (chain_x + 130, chain_x + 170)):
        drawing.line((start, rail_plus + 30), (end, rail_plus + 30), COLOURS["led"], 1.5)
    drawing.text(chain_x + 176, rail_plus + 35, "… pixels 2–27 …", "small")
    drawing.line((last_x - 40, rail_plus + 30), (last_x, rail_plus + 30), COLOURS["led"], 1.5)
    drawing.text(chain_x + 10, rail_plus - 8, "feed at pixel 0", "small")
    drawing.text(last_x + 30, rail_plus - 8, "second feed at the last pixel", "small", anchor="end")
    drawing.line((chain_x - 60, rail_plus + 30), (chain_x, rail_plus + 30), COLOURS["led"], 2)
    drawing.text(
        chain_x - 64,
        rail_plus + 26,
        "DIN ← 330 Ω ← 74AHCT125 1Y",
        "small",
        anchor="end",
        colour=COLOURS["led"],
    )
    drawing.text(
        chain_x - 64,
        rail_plus + 42,
        "beside it: GND · pin 20 (reference only)",
        "small",
        anchor="end",
        colour=minus,
    )
    drawing.text(
        chain_x,
        y + 190,
        "The LED current returns on the − rail to the supply, never through the Pi. "
        "Each WS2812B keeps its own 100 nF.",
        "small",
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Draw the wiring diagram from the pin map.")
    parser.add_argument("--pinout", type=Path, help="pin map to draw (default: the shipped one)")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="SVG file to write")
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    args = parser.parse_args(argv)
    svg = render_svg(load_pin_map(args.pinout))
    return write_or_check(svg, args.output, args.check, Path(__file__).name)


if __name__ == "__main__":
    sys.exit(main())
