"""The simulation's fingers on the virtual switches, without a window: a press lasts at least a
short press, a release ends only the press it was meant for, and nothing moves once lifted."""

from __future__ import annotations

from board_rules.codenames import Coord
from firmware.drivers.clock import VirtualClock
from firmware.drivers.events import ConsoleButton
from firmware.sim.fingers import Fingers
from firmware.virtual.table import PRESS_S, VirtualTable

from ..conftest import TableFactory

C3 = Coord.parse("C3")


def _fingers(virtual_table: TableFactory) -> tuple[VirtualTable, VirtualClock, Fingers]:
    vt = virtual_table()
    assert isinstance(vt.clock, VirtualClock)
    return vt, vt.clock, Fingers(vt, vt.clock)


def test_a_click_holds_the_switch_for_a_short_press(virtual_table: TableFactory) -> None:
    vt, clock, fingers = _fingers(virtual_table)
    assert fingers.press(C3)
    assert not fingers.press(C3)  # already down
    fingers.release(C3)  # a mouse click: no time between down and up
    assert vt.circuit.pressed
    clock.advance(PRESS_S)
    assert not vt.circuit.pressed


def test_a_late_release_of_an_earlier_press_leaves_a_newer_one_down(
    virtual_table: TableFactory,
) -> None:
    vt, clock, fingers = _fingers(virtual_table)
    fingers.tap(ConsoleButton.UNDO, hold_s=1.0)  # a key's long press, its release due at 1 s
    clock.advance(PRESS_S)
    fingers.release(ConsoleButton.UNDO)  # ended early by the mouse
    assert not vt.circuit.pressed
    clock.advance(0.1)
    assert fingers.press(ConsoleButton.UNDO)
    clock.advance(1.0)  # the first press's release comes due
    assert vt.circuit.pressed


def test_lifted_fingers_touch_nothing(virtual_table: TableFactory) -> None:
    vt, clock, fingers = _fingers(virtual_table)
    fingers.tap(C3)
    fingers.lift()
    clock.advance(PRESS_S)
    assert vt.circuit.pressed  # a closing table is not handed a release
    assert not fingers.press(ConsoleButton.DONE)
