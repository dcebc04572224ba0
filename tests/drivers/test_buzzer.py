"""The buzzer on virtual pins: beeps of their length, count and pitch on the clock, and a pin
that is never left high (`StopsHighPin` stands for a software PWM that stops mid-cycle)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from firmware.drivers.buzzer import Buzzer
from firmware.drivers.clock import VirtualClock
from firmware.virtual.matrix_circuit import CountingPin

BUZZER = 12


@dataclass
class Rig:
    """A buzzer on a mock pin, and the clock that times its beeps."""

    clock: VirtualClock
    buzzer: Buzzer
    pin: Any


def build_rig(pin_class: type[CountingPin] = CountingPin) -> Rig:
    clock = VirtualClock(start=50.0)
    factory = MockFactory(pin_class=pin_class)
    return Rig(clock, Buzzer(clock, BUZZER, pin_factory=factory), factory.pin(BUZZER))


@pytest.fixture
def rig() -> Iterator[Rig]:
    built = build_rig()
    yield built
    built.buzzer.close()


class StopsHighPin(CountingPin):
    """A pin whose PWM, stopped, leaves the level where its cycle was: high, the worst case.

    gpiozero's mock drops the level to low when PWM stops; a software PWM need not, and the Pi
    keeps a released output at its last level, which `released_level` records.
    """

    released_level: float | None = None

    def _set_function(self, value: str) -> None:
        if value == "input" and getattr(self, "_function", None) == "output":
            self.released_level = self._state
        super()._set_function(value)

    def _set_frequency(self, value: float | None) -> None:
        if value is None:
            # Stopping PWM writes no level, nor does stopping it again (the mock's own pin
            # writes a low each time, which would hide a missing write of ours).
            if self.frequency is not None:
                self._change_state(True)
            self._frequency = None
            return
        super()._set_frequency(value)


def left_high(factory: MockFactory, number: int = BUZZER) -> Any:
    """The pin `number`, an output left high (by a run killed mid-tone)."""
    pin = factory.pin(number)
    pin.function = "output"
    pin.state = 1
    return pin


def test_a_beep_sounds_for_its_time(rig: Rig) -> None:
    buzzer = rig.pin
    rig.buzzer.beep(0.1, count=2, off_s=0.1)
    assert buzzer.state == 0.5
    assert buzzer.frequency == pytest.approx(1760.0)
    rig.clock.advance(0.11)
    assert buzzer.state == 0
    rig.clock.advance(0.1)
    assert buzzer.state == 0.5
    rig.clock.advance(0.1)
    assert buzzer.state == 0
    assert rig.clock.pending == 0


def test_a_new_beep_replaces_the_one_playing(rig: Rig) -> None:
    rig.buzzer.beep(1.0)
    rig.clock.advance(0.5)
    rig.buzzer.beep(0.1, hz=1000.0)
    assert rig.pin.frequency == pytest.approx(1000.0, rel=0.01)
    rig.clock.advance(0.11)
    assert rig.pin.state == 0
    assert rig.clock.pending == 0


def test_bad_beeps_are_refused(rig: Rig) -> None:
    with pytest.raises(ValueError, match="Hz"):
        rig.buzzer.beep(hz=100.0)
    with pytest.raises(ValueError, match="count"):
        rig.buzzer.beep(count=0)


def test_a_buzzer_pin_left_high_is_driven_low_when_the_buzzer_opens() -> None:
    factory = MockFactory(pin_class=StopsHighPin)
    pin = left_high(factory)
    with Buzzer(VirtualClock(), BUZZER, pin_factory=factory):
        assert pin.function == "output"
        assert pin.state == 0


def test_closing_mid_tone_leaves_the_buzzer_low() -> None:
    rig = build_rig(StopsHighPin)
    rig.buzzer.beep(5.0)
    assert rig.pin.state == 0.5
    rig.buzzer.close()
    assert rig.pin.released_level == 0


def test_an_error_inside_the_buzzer_block_leaves_the_buzzer_low() -> None:
    rig = build_rig(StopsHighPin)
    with pytest.raises(RuntimeError, match="game loop"), rig.buzzer as buzzer:
        buzzer.beep(5.0)
        raise RuntimeError("the game loop failed")
    assert rig.pin.released_level == 0


def test_a_beep_that_ends_leaves_the_buzzer_low() -> None:
    rig = build_rig(StopsHighPin)
    with rig.buzzer as buzzer:
        buzzer.beep(0.1)
        rig.clock.advance(0.11)
        assert rig.pin.state == 0


def test_close_is_idempotent_and_cancels_the_beep(rig: Rig) -> None:
    rig.buzzer.beep(5.0)
    rig.buzzer.close()
    rig.buzzer.close()
    assert rig.clock.pending == 0
    rig.buzzer.beep(0.1)  # closed: nothing sounds
    assert rig.clock.pending == 0
