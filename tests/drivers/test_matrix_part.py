"""The switch matrix scanner with the switches' own figures, on a circuit whose contacts bounce as
the datasheet says and whose columns take electrical glitches: one press and one release per
touch, the press reported within the confirmation and the bounce, and no glitch of 1 µs to 1 ms
ever a press, whenever it comes."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import example, given, settings
from hypothesis import strategies as st

from board_rules.codenames.grid import Coord
from firmware.drivers.clock import VirtualClock
from firmware.drivers.events import (
    ConsoleButton,
    MatrixEvent,
    PadPressed,
    PadReleased,
)
from firmware.drivers.matrix import (
    HELD_SCAN_MS,
    PRESS_CONFIRM_MS,
    RELEASE_DEBOUNCE_MS,
    MatrixSwitch,
    SwitchMatrix,
)
from firmware.drivers.matrix_wires import COLUMN_COUNT
from firmware.virtual.matrix_circuit import (
    BOUNCE_S,
    LONGEST_GLITCH_S,
    SHORTEST_GLITCH_S,
    CountingPin,
    SwitchMatrixCircuit,
    WireTime,
    bounce_toggles,
    glitch,
    glitch_width,
    move_bouncing,
)

C3 = Coord.parse("C3")
A1 = Coord.parse("A1")
CONFIRM_S = PRESS_CONFIRM_MS / 1000
RELEASE_S = RELEASE_DEBOUNCE_MS / 1000
SCAN_S = HELD_SCAN_MS / 1000
"""The scan period while a switch is held."""
STEP_S = 0.0001
"""How finely the tests let virtual time pass while they wait for an event."""
QUIET_S = 0.1
"""Far past every wait of the scanner: what has not happened by then does not."""


@dataclass
class PartRig:
    """A scanner with its default figures on a virtual matrix, noting when each event came."""

    clock: VirtualClock
    circuit: SwitchMatrixCircuit
    matrix: SwitchMatrix
    events: list[tuple[float, MatrixEvent]] = field(default_factory=list)

    def note(self, event: MatrixEvent) -> None:
        self.events.append((self.clock.monotonic(), event))

    def take(self) -> list[MatrixEvent]:
        taken = [event for _, event in self.events]
        self.events.clear()
        return taken

    def wait_for(self, wanted: Callable[[MatrixEvent], bool], limit_s: float = QUIET_S) -> float:
        """Let time pass until an event that is `wanted` comes; return when it came."""
        end = self.clock.monotonic() + limit_s
        while self.clock.monotonic() < end:
            for at, event in self.events:
                if wanted(event):
                    return at
            self.clock.advance(STEP_S)
        raise AssertionError(f"no such event within {limit_s} s: {self.events}")

    def move(self, switch: MatrixSwitch, *, closed: bool, rng: random.Random) -> float:
        """Press or let go of `switch` with the part's bounce; return when it first moved."""
        began = self.clock.monotonic()
        move_bouncing(
            self.circuit,
            switch,
            closed=closed,
            toggles=bounce_toggles(rng),
            wait=self.clock.advance,
        )
        return began


def build_part_rig() -> PartRig:
    clock = VirtualClock(start=100.0)
    wire = WireTime(clock)
    factory = MockFactory(pin_class=CountingPin)
    circuit = SwitchMatrixCircuit(factory, now=wire.now, wait=wire.wait)
    rig = PartRig(clock, circuit, None)  # type: ignore[arg-type]  # the scanner needs its sink
    rig.matrix = SwitchMatrix(clock, rig.note, pin_factory=factory, settle_wait=wire.wait)
    return rig


@pytest.fixture
def rig() -> Iterator[PartRig]:
    built = build_part_rig()
    yield built
    built.matrix.close()


def is_press_of(switch: MatrixSwitch) -> Callable[[MatrixEvent], bool]:
    return lambda event: isinstance(event, PadPressed) and event.coord == switch


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), held_s=st.floats(min_value=0.0, max_value=0.2))
def test_a_bouncing_touch_is_one_press_within_the_confirmation_and_the_bounce(
    seed: int, held_s: float
) -> None:
    rig = build_part_rig()
    rng = random.Random(seed)
    with rig.matrix:
        touched = rig.move(C3, closed=True, rng=rng)
        pressed = rig.wait_for(is_press_of(C3))
        assert pressed - touched <= CONFIRM_S + BOUNCE_S + 1e-9
        rig.clock.advance(held_s)
        rig.move(C3, closed=False, rng=rng)
        rig.wait_for(lambda event: isinstance(event, PadReleased))
        rig.clock.advance(QUIET_S)
        assert [type(event) for event in rig.take()] == [PadPressed, PadReleased]
        assert not rig.matrix.scanning


def test_a_contact_closed_past_the_confirmation_is_a_press(rig: PartRig) -> None:
    rig.circuit.press_pad(C3)
    rig.clock.advance(CONFIRM_S + STEP_S)
    rig.circuit.release_pad(C3)
    rig.clock.advance(QUIET_S)
    assert [type(event) for event in rig.take()] == [PadPressed, PadReleased]


def test_a_release_waits_out_the_release_debounce(rig: PartRig) -> None:
    rig.circuit.press_pad(C3)
    rig.wait_for(is_press_of(C3))
    opened = rig.clock.monotonic()
    rig.circuit.release_pad(C3)
    released = rig.wait_for(lambda event: isinstance(event, PadReleased))
    # A held pad's opening is seen by the next scan, then waits out the debounce.
    assert RELEASE_S <= released - opened <= RELEASE_S + SCAN_S + 1e-9


# When a glitch comes: with nothing touched, while a pad is held (scanned every 20 ms), while a
# pad's press is being confirmed, and while a let-go pad waits out its release debounce.
MOMENTS = ("idle", "held", "confirming", "releasing")
WIDTHS = st.floats(min_value=SHORTEST_GLITCH_S, max_value=LONGEST_GLITCH_S)


@settings(max_examples=300, deadline=None)
# A glitch on the column of a pad (A1) whose press is being confirmed, holding the column low
# throughout the scan that confirms the press: every switch of that column reads closed at that
# scan, yet only A1's press is reported.
@example(moment="confirming", column=0, offset_s=0.0029, width_s=0.0009)
@given(
    moment=st.sampled_from(MOMENTS),
    column=st.integers(0, COLUMN_COUNT - 1),
    offset_s=st.floats(min_value=0.0, max_value=0.012),
    width_s=WIDTHS,
)
def test_no_glitch_of_1_us_to_1_ms_is_ever_a_press(
    moment: str, column: int, offset_s: float, width_s: float
) -> None:
    rig = build_part_rig()
    with rig.matrix:
        if moment in ("held", "releasing"):
            rig.circuit.press_pad(A1)
            rig.wait_for(is_press_of(A1))
            rig.take()
        if moment == "releasing":
            rig.circuit.release_pad(A1)
        if moment == "confirming":
            rig.circuit.press_pad(A1)
        rig.clock.advance(offset_s)
        glitch(rig.circuit, column, width_s, rig.clock.advance)
        rig.clock.advance(QUIET_S)
        events = rig.take()
        if moment == "held":
            assert events == []
            rig.circuit.release_pad(A1)
            rig.clock.advance(QUIET_S)
            events = rig.take()
        # Whatever the glitch met, the only events are those of the real touch of A1.
        expected = {
            "idle": [],
            "held": [PadReleased],
            "confirming": [PadPressed],
            "releasing": [PadReleased],
        }[moment]
        assert [type(event) for event in events] == expected
        if moment == "confirming":
            # Timed from the touch or, when a glitch on its column makes every switch there read
            # closed at the confirming scan, from that scan: at most one confirmation later.
            (pressed,) = events
            assert isinstance(pressed, PadPressed) and pressed.coord == A1
            assert 100.0 <= pressed.at <= 100.0 + CONFIRM_S + 1e-9


def test_thousands_of_glitches_at_random_moments_press_nothing(rig: PartRig) -> None:
    rng = random.Random(31)
    glitches = 3000
    for _ in range(glitches):
        rig.clock.advance(rng.expovariate(1 / 0.004))  # 4 ms apart on average, often closer
        glitch(rig.circuit, rng.randrange(COLUMN_COUNT), glitch_width(rng), rig.clock.advance)
    rig.clock.advance(QUIET_S)
    assert rig.take() == []
    assert not rig.matrix.scanning
    # The scanner is not deafened by them: a real touch still counts.
    rig.move(ConsoleButton.DONE, closed=True, rng=rng)
    rig.clock.advance(QUIET_S)
    assert [type(event).__name__ for event in rig.take()] == ["ButtonPressed"]
