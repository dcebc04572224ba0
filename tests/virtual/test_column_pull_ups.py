"""`[input] column_pullup_ohms`: the settle time the config derives from the columns' pull-ups
reads a held pad alone on the virtual circuit with those pull-ups, and a shorter wait shows the
phantom on row 1 of its column; the virtual table models the config's pull-ups and its scanner
waits the derived time."""

import random
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from board_rules.codenames import Coord
from firmware.drivers.clock import VirtualClock
from firmware.drivers.events import MatrixEvent, MultiplePads, PadPressed
from firmware.drivers.matrix import SwitchMatrix
from firmware.drivers.matrix_wires import SETTLE_S, column_pull_up_ohms
from firmware.table.config import TableConfig, parse_config
from firmware.table.game_loop import TableEvent
from firmware.virtual.matrix_circuit import CountingPin, SwitchMatrixCircuit, WireTime
from firmware.virtual.table import VirtualTable

C1 = Coord.parse("C1")
C5 = Coord.parse("C5")
# The Pi's pull-up alone, either way of saying it, the ends of the range and a few between.
PULL_UPS = (0, "internal", 2_000, 10_000, 47_000, 1_000_000)


def _config(pull_up: int | str) -> TableConfig:
    return parse_config({"input": {"column_pullup_ohms": pull_up}}, "test.toml")


def _held_c5(pull_up: int | str, settle_s: float | None = None) -> list[MatrixEvent]:
    """What a scanner reports of C5 held on a circuit with `pull_up`, waiting `settle_s` (the
    config's derived time unless told) after each row change."""
    config = _config(pull_up)
    clock = VirtualClock(start=100.0)
    wire = WireTime(clock)
    factory = MockFactory(pin_class=CountingPin)
    circuit = SwitchMatrixCircuit(
        factory, now=wire.now, pull_up_ohms=column_pull_up_ohms(config.inputs.column_pullup_ohms)
    )
    events: list[MatrixEvent] = []
    wait = config.inputs.settle_s if settle_s is None else settle_s
    with SwitchMatrix(
        clock, events.append, pin_factory=factory, settle_s=wait, settle_wait=wire.wait
    ):
        circuit.press_pad(C5)
        clock.advance(0.2)
    return events


def _rise_s(pull_up: int | str) -> float:
    ohms = column_pull_up_ohms(_config(pull_up).inputs.column_pullup_ohms)
    return SwitchMatrixCircuit(MockFactory(), pull_up_ohms=ohms).rise_s


@pytest.mark.parametrize("pull_up", PULL_UPS)
def test_the_derived_settle_time_reads_a_held_pad_alone(pull_up: int | str) -> None:
    assert _held_c5(pull_up) == [PadPressed(C5, 100.0)]


@pytest.mark.parametrize("pull_up", PULL_UPS)
def test_a_wait_shorter_than_the_rise_reads_a_phantom_on_row_1(pull_up: int | str) -> None:
    (event,) = _held_c5(pull_up, settle_s=0.9 * _rise_s(pull_up))
    assert isinstance(event, MultiplePads)
    assert set(event.coords) == {C1, C5}


def test_without_the_resistors_the_standard_settle_time_reads_a_phantom() -> None:
    # The fault this key fixes: 10 kΩ's wait on the Pi's pull-up alone.
    assert _config("internal").inputs.settle_s > 5 * SETTLE_S
    assert [type(event) for event in _held_c5("internal", settle_s=SETTLE_S)] == [MultiplePads]


@pytest.mark.parametrize(
    ("pull_up", "settle_s"),
    [(None, SETTLE_S), ("internal", _config("internal").inputs.settle_s)],
)
def test_the_virtual_table_models_the_config_pull_ups_and_waits_their_settle_time(
    tmp_path: Path, pull_up: str | None, settle_s: float
) -> None:
    config = TableConfig() if pull_up is None else _config(pull_up)
    seen: list[TableEvent] = []
    with VirtualTable(config, tmp_path, rng=random.Random(1)) as table:
        circuit = table.circuit
        assert isinstance(circuit, SwitchMatrixCircuit)
        assert circuit.rise_s == pytest.approx(_rise_s(pull_up or 10_000))
        circuit.press_pad(C5)
        # The scan its fall sets for the end of its confirmation (which counts it): all five
        # rows, one wait each.
        table.wait(config.inputs.press_confirm_ms / 1000, observe=seen.append)
        assert table.wire.waited_s == pytest.approx(5 * settle_s)
        table.wait(0.2, observe=seen.append)
    assert [event for event in seen if isinstance(event, PadPressed | MultiplePads)] == [
        PadPressed(C5, pytest.approx(0.0))
    ]
