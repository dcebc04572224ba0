"""Build the table's hardware documents from their sources and check them (`make hardware`).

Run from the repository root:

    .venv/bin/python hardware/make_hardware.py          # regenerate everything, then check
    .venv/bin/python hardware/make_hardware.py --check  # exit 1 if a generated file is stale

From schematic.py and parts.toml it writes, into hardware/generated/, the KiCad netlist of each
variant (table-matrix.net, table-touch.net), the BOM (bom.md, bom.csv) and the connector and
cable list (connectors.md); it redraws wiring.svg, layout.svg and touch.svg and the cut files
(cut/*.dxf). It exits 1 on an electrical rules error, on a netlist that does not wire the pin
map's pins to what they drive, on a simulated value outside what the firmware assumes
(analog.py) or, with --check, on a stale file; 2 when ngspice is missing.
"""

from __future__ import annotations

import argparse
import csv
import io
import re
import sys
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import analog
import make_cut_dxf
import make_interface_board
import make_layout_svg
import make_touch_svg
import make_wiring_svg
import schematic

from firmware.drivers.pinout import PinMap, load_pin_map

HERE = Path(__file__).resolve().parent
GENERATED = HERE / "generated"


def netlist_path(variant: str) -> Path:
    return GENERATED / f"table-{variant}.net"


@dataclass(frozen=True)
class Netlist:
    """A KiCad netlist as the checks read it: each net's (ref, pin) nodes, each part's kind."""

    nets: dict[str, frozenset[tuple[str, str]]]
    kinds: dict[str, str]

    def net_at(self, ref: str, pin: str) -> str | None:
        return next((name for name, nodes in self.nets.items() if (ref, pin) in nodes), None)

    def reach(self, net: str, through: str = "resistor") -> set[tuple[str, str]]:
        """The nodes on `net` and on the far side of every `through` part on it (one hop)."""
        nodes = set(self.nets.get(net, frozenset()))
        for ref, pin in list(nodes):
            if self.kinds.get(ref) == through:
                other = "2" if pin == "1" else "1"
                far = self.net_at(ref, other)
                if far is not None:
                    nodes |= self.nets[far]
        return nodes


def read_netlist(text: str) -> Netlist:
    """The nets and part kinds of a KiCad netlist that schematic.netlist wrote."""
    kinds = {
        ref: kind
        for ref, kind in re.findall(
            r'\(comp\s+\(ref "([^"]+)"\).*?\(name "Kind"\) "([^"]*)"', text, flags=re.S
        )
    }
    nets = {}
    blocks = re.split(r"\(net\s+\(code", text)[1:]
    for block in blocks:
        name = re.search(r'\(name "([^"]*)"\)', block)
        if name is None:
            continue
        nodes = re.findall(r'\(ref "([^"]+)"\)\s*\(pin "([^"]+)"\)', block)
        nets[name.group(1)] = frozenset(nodes)
    return Netlist(nets, kinds)


def expected_endpoints(
    pins: PinMap, variant: str
) -> Iterator[tuple[str, int, set[tuple[str, str]]]]:
    """(label, header pin, nodes its wire must reach) for every pin the pin map and the
    schematic wire: what the GPIO is for, as the builder follows the wire."""
    rows = len(pins.matrix_rows)
    for use in pins.uses():
        expected: set[tuple[str, str]] = set()
        label = use.label
        if variant == "matrix" and label.startswith("Matrix row"):
            row = int(label.split()[-1])
            expected = {(f"J{10 + row}", "1"), ("J16", str(row))}
        elif variant == "matrix" and label.startswith("Matrix column"):
            column = int(label.split()[2])
            if column < len(pins.matrix_columns):
                expected = {(f"J{10 + row}", str(column + 1)) for row in range(1, rows + 1)}
            else:
                expected = {("J16", str(rows + 1))}
            expected.add((f"R{20 + column}", "2"))
        elif label.startswith("Encoder"):
            offset = {"Encoder A": 0, "Encoder B": 1, "Encoder push": 2}[label]
            first = rows + 2 if variant == "matrix" else 1
            expected = {("J16", str(first + offset))}
        elif label == "Buzzer":
            expected = {("R11", "1")}
        elif label == "OLED SDA":
            expected = {("DS1", "4"), ("DS2", "4")}
        elif label == "OLED SCL":
            expected = {("DS1", "3"), ("DS2", "3")}
        elif label == "LED data":
            expected = {("U1", "2")}
        if variant == "touch" and use.gpio in pins.matrix_columns[:3]:
            chip = pins.matrix_columns.index(use.gpio)
            label, expected = f"Touch IRQ {chip + 1}", {(f"U{20 + chip}", "5")}
        elif variant == "touch" and label.startswith("Matrix"):
            continue  # the capacitive table leaves the matrix's other pins free
        yield label, use.header_pin, expected
    yield "LED supply sense", 12, {("R7", "2"), ("R8", "1")}


def pin_map_problems(netlist: Netlist, pins: PinMap, variant: str) -> list[str]:
    """Where the netlist's header wiring disagrees with the pin map; empty when it agrees."""
    problems = []
    for label, header_pin, expected in expected_endpoints(pins, variant):
        net = netlist.net_at("P1", str(header_pin))
        if net is None:
            problems.append(f"{label}: header pin {header_pin} is not wired")
            continue
        missing = expected - netlist.reach(net)
        if missing:
            where = ", ".join(f"{ref} pin {pin}" for ref, pin in sorted(missing))
            problems.append(f"{label}: header pin {header_pin} ({net}) does not reach {where}")
    return problems


def _resistor_codes(ohms: float) -> dict[str, str]:
    """Ordering codes of a resistance: Yageo's '10K5' and Vishay's '1052' (three digits and
    a multiplier, 9 for a tenth).

    >>> _resistor_codes(10_500), _resistor_codes(47)
    ({'yageo': '10K5', 'vishay': '1052'}, {'yageo': '47R', 'vishay': '4709'})
    """
    scale, unit = (1e6, "M") if ohms >= 1e6 else (1e3, "K") if ohms >= 1e3 else (1.0, "R")
    text = f"{ohms / scale:g}"
    yageo = text.replace(".", unit) if "." in text else text + unit
    exponent, significant = 0, ohms
    while significant >= 1000:
        significant, exponent = significant / 10, exponent + 1
    while significant < 100:
        significant, exponent = significant * 10, exponent - 1
    vishay = f"{round(significant):03d}{exponent if exponent >= 0 else 9}"
    return {"yageo": yageo, "vishay": vishay}


@dataclass(frozen=True)
class Line:
    """One BOM line: a kind of part at one value, and where it goes."""

    kind: str
    value: str
    refs: tuple[str, ...]
    entry: dict[str, Any]
    codes: dict[str, str]

    def field(self, name: str) -> str:
        return str(self.entry.get(name, "")).format(**self.codes)


def bom_lines(table: schematic.Table) -> list[Line]:
    grouped: dict[tuple[str, str], list[Any]] = defaultdict(list)
    for part in table.circuit.parts:
        kind = part.fields["Kind"]
        if table.catalogue[kind].get("supplied_by"):
            continue
        grouped[(kind, part.value)].append(part)
    lines = []
    for (kind, value), parts in sorted(grouped.items()):
        codes: dict[str, str] = {"pins": str(len(parts[0].pins))}
        if "Ohms" in parts[0].fields:
            codes |= _resistor_codes(float(parts[0].fields["Ohms"]))
        refs = tuple(sorted((part.ref for part in parts), key=_natural))
        lines.append(Line(kind, value, refs, table.catalogue[kind], codes))
    return lines


def _natural(ref: str) -> tuple[Any, ...]:
    return tuple(int(piece) if piece.isdigit() else piece for piece in re.split(r"(\d+)", ref))


VARIANT_TITLES = {
    "matrix": "The switch table (pads on switches, the default)",
    "touch": 'The capacitive table (MPR121, `[input] backend = "mpr121"`)',
}


def bom_markdown(tables: dict[str, schematic.Table]) -> str:
    out = [
        "# Bill of materials",
        "",
        "Generated by `hardware/make_hardware.py` from `schematic.py` and `parts.toml`: edit "
        "those, then run `make hardware`. Every part has the maker's number and a second "
        'source; "generic" means any part to the description does. Not listed: hook-up wire, '
        "heat-shrink, screws, the wood (see `cut/`).",
    ]
    for variant, table in tables.items():
        out += ["", f"## {VARIANT_TITLES[variant]}", ""]
        out += ["| Qty | Part | Value | Maker and number | Second source | Refs | Notes |"]
        out += ["| --- | --- | --- | --- | --- | --- | --- |"]
        for line in bom_lines(table):
            out.append(
                f"| {len(line.refs)} | {line.field('description')} | {line.value} | "
                f"{_source(line.field('maker'), line.field('mpn'))} | "
                f"{_source(line.field('second_maker'), line.field('second_mpn'))} | "
                f"{_refs(line.refs)} | {line.field('notes')} |"
            )
        out += ["", "Not on the schematic:", ""]
        out += ["| Qty | Part | Value | Maker and number | Second source | Notes |"]
        out += ["| --- | --- | --- | --- | --- | --- |"]
        for _, entry in extras(table.catalogue, variant):
            out.append(
                f"| {entry['per_table']} | {entry['description']} | {entry['value']} | "
                f"{_source(entry['maker'], entry['mpn'])} | "
                f"{_source(entry['second_maker'], entry['second_mpn'])} | {entry['notes']} |"
            )
    return "\n".join(out) + "\n"


def extras(catalogue: dict[str, dict[str, Any]], variant: str) -> list[tuple[str, dict[str, Any]]]:
    """The parts bought per table that the schematic does not place (board, card, seals)."""
    return [
        (kind, entry)
        for kind, entry in catalogue.items()
        if "per_table" in entry and variant in entry.get("variants", schematic.VARIANTS)
    ]


def _source(maker: str, mpn: str) -> str:
    """'Maker number', or the description alone for a generic part."""
    if maker in {"", "generic"}:
        return mpn
    return f"{maker} {mpn}"


def _refs(refs: Sequence[str]) -> str:
    return ", ".join(refs) if len(refs) <= 8 else f"{refs[0]} … {refs[-1]} ({len(refs)})"


def bom_csv(tables: dict[str, schematic.Table]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        ["variant", "qty", "part", "value", "maker", "mpn", "second_maker", "second_mpn", "refs"]
    )
    for variant, table in tables.items():
        for line in bom_lines(table):
            writer.writerow(
                [
                    variant,
                    len(line.refs),
                    line.field("description"),
                    line.value,
                    line.field("maker"),
                    line.field("mpn"),
                    line.field("second_maker"),
                    line.field("second_mpn"),
                    " ".join(line.refs),
                ]
            )
    return buffer.getvalue()


CONNECTOR_KINDS = ("header_2x20", "jst_xh", "power_connector", "mains_inlet")


def connectors_markdown(tables: dict[str, schematic.Table]) -> str:
    out = [
        "# Connectors and cables",
        "",
        "Generated by `hardware/make_hardware.py` from `schematic.py`: every connector with what "
        "each of its pins carries, and every cable with its two ends. Pin 1 is marked on each "
        "header (the triangle on a JST XH housing).",
    ]
    for variant, table in tables.items():
        out += ["", f"## {VARIANT_TITLES[variant]}", "", "### Connectors", ""]
        out += ["| Ref | Use | Type | Pins (1, 2, …) |", "| --- | --- | --- | --- |"]
        parts = sorted(
            (part for part in table.circuit.parts if part.fields["Kind"] in CONNECTOR_KINDS),
            key=lambda part: _natural(part.ref),
        )
        for part in parts:
            entry = table.catalogue[part.fields["Kind"]]
            if part.ref == "J1":
                pins = "the Pi's 40 pins, one to one (pinout: README wiring table)"
            else:
                pins = ", ".join(pin.name for pin in part.pins)
            mpn = entry["mpn"].format(pins=len(part.pins))
            use = part.fields.get("Use") or entry["description"]
            out.append(f"| {part.ref} | {use} | {entry['maker']} {mpn} | {pins} |")
        out += ["", "### Cables", "", "| Ref | From | To | Length | Wire |"]
        out += ["| --- | --- | --- | --- | --- |"]
        for cable in sorted(table.cables, key=lambda cable: _natural(cable.ref)):
            out.append(
                f"| {cable.ref} | {cable.ends[0]} | {cable.ends[1]} | {cable.length_mm} mm | "
                f"{cable.wire} |"
            )
    return "\n".join(out) + "\n"


def build_all(pins: PinMap) -> dict[str, schematic.Table]:
    return {variant: schematic.build(pins, variant) for variant in schematic.VARIANTS}


def outputs(
    pins: PinMap, tables: dict[str, schematic.Table] | None = None
) -> tuple[dict[Path, str], list[str]]:
    """Every generated text file by path, and the problems found building them."""
    tables = tables or build_all(pins)
    files: dict[Path, str] = {}
    problems: list[str] = []
    for variant, table in tables.items():
        problems += [f"ERC ({variant}): {message}" for message in schematic.erc(table)]
        text = schematic.netlist(table)
        files[netlist_path(variant)] = text
        problems += [
            f"pin map ({variant}): {problem}"
            for problem in pin_map_problems(read_netlist(text), pins, variant)
        ]
    boards = []
    for variant, table in tables.items():
        nets = read_netlist(files[netlist_path(variant)]).nets
        parts = {
            part.ref: (part.fields["Kind"], part.value, len(part.pins))
            for part in table.circuit.parts
        }
        board = make_interface_board.build(variant, nets, parts)
        problems += [
            f"interface board ({variant}): {problem}"
            for problem in make_interface_board.problems(board, nets)
        ]
        boards.append((board, VARIANT_TITLES[variant].split(" (")[0].lower()))
    for name, text in make_interface_board.files(boards):
        files[GENERATED / name] = text
    files[GENERATED / "bom.md"] = bom_markdown(tables)
    files[GENERATED / "bom.csv"] = bom_csv(tables)
    files[GENERATED / "connectors.md"] = connectors_markdown(tables)
    return files, problems


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build and check the hardware documents.")
    parser.add_argument("--check", action="store_true", help="exit 1 if a file is stale")
    args = parser.parse_args(argv)
    pins = load_pin_map()
    files, problems = outputs(pins)
    stale = []
    for path, text in files.items():
        current = path.read_text("utf-8") if path.exists() else ""
        if current != text:
            if args.check:
                stale.append(path)
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, "utf-8")
    flag = ["--check"] if args.check else []
    drawings = (make_wiring_svg, make_layout_svg, make_touch_svg, make_cut_dxf)
    failed = [module.__name__ for module in drawings if module.main(flag) != 0]
    for path in stale:
        print(f"{path} is stale: run make hardware", file=sys.stderr)
    if not analog.have_ngspice():
        print("error: ngspice is not installed (apt-get install ngspice)", file=sys.stderr)
        return 2
    findings = analog.check_all()
    for finding in findings:
        print(finding.line())
    problems += [finding.line() for finding in findings if not finding.ok]
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    if problems or stale or failed:
        return 1
    print(f"hardware: {len(files)} files, {len(findings)} simulated values, ERC clean")
    return 0


if __name__ == "__main__":
    sys.exit(main())
