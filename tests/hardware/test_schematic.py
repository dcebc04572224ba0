"""The schematic: SKiDL's electrical rules check passes, the netlists wire the pin map's pins to
what they drive, and the generated netlists, BOM and connector list are current."""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType

import pytest

from firmware.drivers.led_layout import CELLS, EDGES
from firmware.drivers.pinout import RESERVED_PINS, load_pin_map

from .hardware_scripts import load


@pytest.fixture(scope="module")
def make() -> ModuleType:
    return load("make_hardware")


@pytest.fixture(scope="module")
def schematic() -> ModuleType:
    return load("schematic")


@pytest.fixture(scope="module")
def tables(make: ModuleType) -> dict[str, object]:
    """Both variants, built once: SKiDL takes seconds to place 170 parts."""
    built: dict[str, object] = make.build_all(load_pin_map())
    return built


@pytest.fixture(scope="module")
def built(make: ModuleType, tables: dict[str, object]) -> tuple[dict[object, str], list[str]]:
    files, problems = make.outputs(load_pin_map(), tables)
    return files, problems


@pytest.mark.parametrize("variant", ["matrix", "touch"])
def test_erc_finds_nothing(schematic: ModuleType, tables: dict[str, object], variant: str) -> None:
    assert schematic.erc(tables[variant]) == []


def test_erc_reports_two_outputs_on_one_net(schematic: ModuleType) -> None:
    table = schematic.build(load_pin_map())
    # The level shifter's output onto the Pi's LED data pin, which the Pi drives too.
    shifter = next(part for part in table.circuit.parts if part.ref == "U1")
    table.net("GPIO10_LED_DATA").connect(shifter["1Y"])
    messages = schematic.erc(table)
    assert any(
        message.startswith("ERROR") and "OUTPUT connected to OUTPUT" in message and "U1" in message
        for message in messages
    ), messages


def test_generated_files_are_current_and_the_build_is_clean(
    built: tuple[dict[object, str], list[str]],
) -> None:
    files, problems = built
    assert problems == []
    for path, text in files.items():
        assert path.read_text("utf-8") == text, f"{path} is stale: run make hardware"  # type: ignore[attr-defined]


@pytest.mark.parametrize("variant", ["matrix", "touch"])
def test_committed_netlists_follow_the_pin_map(make: ModuleType, variant: str) -> None:
    netlist = make.read_netlist(make.netlist_path(variant).read_text("utf-8"))
    assert make.pin_map_problems(netlist, load_pin_map(), variant) == []
    # Every header pin the pin map names is on a net, and each net has more than the Pi on it.
    for use in load_pin_map().uses():
        net = netlist.net_at("P1", str(use.header_pin))
        if variant == "touch" and use.label.startswith("Matrix") and net is None:
            continue
        assert net is not None, use
        assert len(netlist.nets[net]) > 2, (use, netlist.nets[net])


def test_pin_check_catches_a_swapped_wire(make: ModuleType) -> None:
    netlist = make.read_netlist(make.netlist_path("matrix").read_text("utf-8"))
    a, b = netlist.net_at("P1", "36"), netlist.net_at("P1", "38")  # encoder A and B
    assert a is not None and b is not None
    swapped = dict(netlist.nets)
    swapped[a] = (netlist.nets[a] - {("P1", "36")}) | {("P1", "38")}
    swapped[b] = (netlist.nets[b] - {("P1", "38")}) | {("P1", "36")}
    problems = make.pin_map_problems(make.Netlist(swapped, netlist.kinds), load_pin_map(), "matrix")
    assert any(problem.startswith("Encoder A: header pin 36") for problem in problems), problems
    assert any(problem.startswith("Encoder B: header pin 38") for problem in problems), problems


def test_pin_check_catches_a_pin_map_the_netlist_does_not_follow(make: ModuleType) -> None:
    netlist = make.read_netlist(make.netlist_path("matrix").read_text("utf-8"))
    moved = replace(load_pin_map(), encoder_push=4)
    assert "Encoder push: header pin 7 is not wired" in make.pin_map_problems(
        netlist, moved, "matrix"
    )


@pytest.mark.parametrize("variant", ["matrix", "touch"])
def test_pin_check_catches_a_sense_pin_the_netlist_does_not_follow(
    make: ModuleType, variant: str
) -> None:
    netlist = make.read_netlist(make.netlist_path(variant).read_text("utf-8"))
    assert make.pin_map_problems(netlist, load_pin_map(), variant) == []
    moved = replace(load_pin_map(), led_sense=4)
    assert "LED supply sense: header pin 7 is not wired" in make.pin_map_problems(
        netlist, moved, variant
    )


def test_sense_pin_is_the_pin_maps_and_free_of_the_touch_table() -> None:
    pins = load_pin_map()
    gpio = pins.led_sense
    assert gpio is not None
    assert [use.key for use in pins.uses() if use.gpio == gpio] == ["led.sense"]
    assert gpio not in RESERVED_PINS
    assert gpio not in pins.matrix_columns[:3]  # the capacitive table's IRQ lines
    wiring = (load("make_wiring_svg").HERE / "wiring.svg").read_text("utf-8")
    assert f"GPIO {gpio} · pin 12" in wiring


def bom_quantities(
    make: ModuleType, tables: dict[str, object], variant: str
) -> dict[tuple[str, str], int]:
    return {(line.kind, line.value): len(line.refs) for line in make.bom_lines(tables[variant])}


def test_bom_counts_follow_the_matrix_and_the_key(
    make: ModuleType, tables: dict[str, object]
) -> None:
    pins, quantities = load_pin_map(), bom_quantities(make, tables, "matrix")
    rows, columns = len(pins.matrix_rows), len(pins.matrix_columns)
    assert quantities[("switch_pad", "B3F-4055")] == rows * (columns - 1)
    assert quantities[("switch_console", "IP67 momentary")] == rows
    # One diode per switch, one across the buzzer.
    assert quantities[("diode", "1N4148")] == rows * columns + 1
    assert quantities[("led_pixel", "WS2812B")] == CELLS + EDGES
    assert quantities[("resistor", "10 kΩ")] >= columns  # the column pull-ups, and others


def test_touch_bom_has_no_switch_and_three_chips(
    make: ModuleType, tables: dict[str, object]
) -> None:
    quantities = bom_quantities(make, tables, "touch")
    assert not any(kind.startswith("switch_") and kind != "switch_pad" for kind, _ in quantities)
    assert ("switch_pad", "B3F-4055") not in quantities
    assert quantities[("touch_controller", "MPR121")] == 3
    assert quantities[("electrode", "copper pad")] == 30


def test_every_bom_line_has_a_number_and_a_second_source(
    make: ModuleType, tables: dict[str, object]
) -> None:
    for line in make.bom_lines(tables["matrix"]):
        assert line.field("maker") and line.field("mpn"), line.kind
        if line.field("maker") != "generic":
            assert line.field("second_maker") or line.field("second_mpn"), line.kind
        assert "{" not in line.field("mpn") + line.field("second_mpn"), line.kind


def test_resistor_codes() -> None:
    make = load("make_hardware")
    assert make._resistor_codes(10_000) == {"yageo": "10K", "vishay": "1002"}
    assert make._resistor_codes(2_200) == {"yageo": "2K2", "vishay": "2201"}
    assert make._resistor_codes(100) == {"yageo": "100R", "vishay": "1000"}
    assert make._resistor_codes(10) == {"yageo": "10R", "vishay": "1009"}


def test_connector_list_names_every_connector_and_cable(
    built: tuple[dict[object, str], list[str]],
) -> None:
    files, _ = built
    text = next(text for path, text in files.items() if str(path).endswith("connectors.md"))
    for ref in ("J1", "J2", "J16", "W1", "W2", "W5"):
        assert f"| {ref} |" in text, ref
    assert "| J2 | LED supply in | Molex" in text


@pytest.fixture(scope="module")
def boards(make: ModuleType, tables: dict[str, object]) -> dict[str, tuple[object, dict]]:
    """Each variant's interface board, with the nets it was laid out from."""
    board_module = load("make_interface_board")
    made = {}
    for variant, table in tables.items():
        nets = make.read_netlist(make.netlist_path(variant).read_text("utf-8")).nets
        parts = {
            part.ref: (part.fields["Kind"], part.value, len(part.pins))
            for part in table.circuit.parts  # type: ignore[attr-defined]
        }
        made[variant] = (board_module.build(variant, nets, parts), nets)
    return made


@pytest.mark.parametrize("variant", ["matrix", "touch"])
def test_interface_board_wires_every_net_and_fits(
    boards: dict[str, tuple[object, dict]], variant: str
) -> None:
    board_module = load("make_interface_board")
    board, nets = boards[variant]
    assert board_module.problems(board, nets) == []
    assert board.rows <= board_module.BOARD_ROWS  # type: ignore[attr-defined]
    refs = {part.ref for part in board.parts}  # type: ignore[attr-defined]
    assert {"J1", "U1", "Q1", "Q2", "U2", "R7", "R8"} <= refs
    assert not refs & {"P1", "PS1", "DS1", "LED1", "R20"}


def test_interface_board_check_finds_a_missing_link_and_a_shared_hole(
    boards: dict[str, tuple[object, dict]],
) -> None:
    board_module = load("make_interface_board")
    board, nets = boards["matrix"]
    sense_links = [link for link in board.links if link[0] == "GPIO18_LED_SUPPLY_SENSE"]  # type: ignore[attr-defined]
    assert sense_links
    cut = replace(board, links=tuple(link for link in board.links if link != sense_links[0]))  # type: ignore[type-var]
    assert "net GPIO18_LED_SUPPLY_SENSE is not joined on the board" in board_module.problems(
        cut, nets
    )
    first, second, *rest = board.parts  # type: ignore[attr-defined]
    moved = replace(second, pins={pin: first.pins["1"] for pin in second.pins})
    crowded = replace(board, parts=(first, moved, *rest))  # type: ignore[type-var]
    assert any("share hole" in problem for problem in board_module.problems(crowded, nets))


@pytest.fixture
def quiet_build(make: ModuleType, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """make_hardware with the schematic's outputs stubbed to nothing new: main's verdict only."""
    monkeypatch.setattr(make, "outputs", lambda pins: ({}, []))
    return make


def finding(analog: ModuleType, value: float) -> object:
    return analog.Finding("matrix column", "rise", value, "s", None, 8.67e-6, "SETTLE_S")


def test_make_hardware_passes_when_everything_is_in_bounds(
    quiet_build: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    analog = load("analog")
    monkeypatch.setattr(analog, "have_ngspice", lambda: True)
    monkeypatch.setattr(analog, "check_all", lambda: [finding(analog, 1.3e-6)])
    assert quiet_build.main(["--check"]) == 0


def test_make_hardware_fails_on_a_simulated_value_out_of_bounds(
    quiet_build: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    analog = load("analog")
    monkeypatch.setattr(analog, "have_ngspice", lambda: True)
    monkeypatch.setattr(analog, "check_all", lambda: [finding(analog, 20e-6)])
    assert quiet_build.main(["--check"]) == 1
    assert "error: OUT OF BOUNDS: matrix column: rise = 20 µs" in capsys.readouterr().err


def test_make_hardware_fails_on_an_erc_error(
    make: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    analog = load("analog")
    problem = "ERC (matrix): ERROR: Pin conflict on net X"
    monkeypatch.setattr(make, "outputs", lambda pins: ({}, [problem]))
    monkeypatch.setattr(analog, "have_ngspice", lambda: True)
    monkeypatch.setattr(analog, "check_all", lambda: [])
    assert make.main(["--check"]) == 1
    assert f"error: {problem}" in capsys.readouterr().err


def test_make_hardware_says_when_ngspice_is_missing(
    quiet_build: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    analog = load("analog")
    monkeypatch.setattr(analog, "have_ngspice", lambda: False)
    assert quiet_build.main(["--check"]) == 2
    assert (
        capsys.readouterr()
        .err.strip()
        .endswith("error: ngspice is not installed (apt-get install ngspice)")
    )
