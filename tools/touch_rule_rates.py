"""How often the finger's rule takes a hand for a finger, and how often it sees a finger, over
many chip noise seeds: the capacitive pads on the physical model, on a virtual clock.

`python -m tools.touch_rule_rates` (`make touch-rule-rates`) builds, for each seed, the three
virtual MPR121s with that seed's noise (3 counts rms a reading) under the real driver, each pad
on its own wire, and holds hands over cards (5–40 mm, brought in 0.1–0.4 s) and brings fingers
onto them (10–40 cm/s) through every supported top, read regularly and by a starved driver
(`STARVED`). It prints one JSON object: for each way of reading, the hands counted and the
fingers seen, each with its 95 % interval, the gestures behind any hand counted, and the seeds.
A hand counted may pick the assassin and end the game; a finger missed is tapped again.

The physical model's tests (tests/virtual/test_mpr121_physics.py) build their table here too.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from gpiozero.pins.mock import MockFactory

from board_rules.codenames import ALL_COORDS
from firmware.cli.rate_interval import rate_interval
from firmware.drivers.clock import Clock, Timer, VirtualClock
from firmware.drivers.events import (
    ButtonPressed,
    ConsoleButton,
    MatrixEvent,
    PadPressed,
    TouchChipFault,
)
from firmware.drivers.touch_pads import TouchPads, TouchSwitch, electrode_of
from firmware.virtual.i2c import VirtualI2C
from firmware.virtual.mpr121 import VirtualTouchPanel
from firmware.virtual.mpr121_physics import (
    FASTEST_HOVER_S,
    SLOWEST_FINGER_MM_S,
    SUPPORTED_STACKS,
    Gesture,
    Pad,
    Stack,
    electrode_pf,
    finger_press,
    hand_hover,
)

IRQ_PINS = (17, 27, 22)
NOISE_COUNTS = 3.0
"""rms of one reading: about 0.04 pF on a 20 pF pad once the two filters have averaged it."""
SWITCHES: tuple[TouchSwitch, ...] = (*ALL_COORDS, *ConsoleButton)
STANDARD = Pad()
WIRES_SEED = 3
"""The layout of the pads' wires (`wires_cm`)."""

STARVED: dict[str, tuple[float, float, int]] = {
    "samples skipped": (0.004, 0.0, 1),
    "stalls": (0.001, 0.030, 8),
}
"""A starved driver's timers, as `StarvedClock` takes them. `samples skipped`: late by up to two
samples; `stalls`: late by up to half a sample, plus a stall of up to 30 ms on one timer in 8."""
READS = ("regular", *STARVED)

HAND_HEIGHTS_MM = (5.0, 10.0, 20.0, 40.0)
HAND_DURATIONS_S = (FASTEST_HOVER_S, 0.15, 0.4)
"""From a swing (2.6 m/s at its fastest) to a reach: the paces whose rise the rule sees most
sharply (slower reaches rise more gently still; the physical model's tests hold those)."""
FINGER_SPEEDS_MM_S = (SLOWEST_FINGER_MM_S, 250.0, 400.0)
GESTURE_S = 0.7
"""How long each gesture is watched from its start: a reach of 0.4 s and the rule's span."""
REST_S = 0.3
"""Time between gestures, with nothing near, for the chips to release and their baselines to
settle."""
DEFAULT_SEEDS = range(60)


@dataclass
class ModelTable:
    """The capacitive pads on the physical model: the real driver over three virtual MPR121s on
    one virtual clock, and the events it gave."""

    clock: VirtualClock
    panel: VirtualTouchPanel
    pads: TouchPads
    events: list[MatrixEvent]
    factory: MockFactory

    def close(self) -> None:
        self.pads.close()
        self.factory.reset()

    def wait(self, seconds: float) -> None:
        """Run the chips and the driver for `seconds` of the virtual clock."""
        end = self.clock.monotonic() + seconds
        while (due := self.clock.next_due) is not None and due <= end:
            self.clock.advance(max(due - self.clock.monotonic(), 0.0))
        self.clock.advance(max(end - self.clock.monotonic(), 0.0))

    def hold_hand(self, switch: TouchSwitch, stack: Stack, height: float, duration: float) -> None:
        """A hand brought from 15 cm over `switch` in `duration`, held, then taken away."""
        self.panel.move_over(switch, hand_hover(stack, STANDARD, height, duration_s=duration))
        self.wait(duration + 0.5)
        self.panel.release_switch(switch)
        self.wait(REST_S)

    def guesses(self) -> list[MatrixEvent]:
        """The presses the driver gave: a card's or a console button's."""
        return [e for e in self.events if isinstance(e, PadPressed | ButtonPressed)]


def wires_cm(seed: int) -> dict[TouchSwitch, float]:
    """Each electrode's wire, 15–30 cm as a layout gives them (the builder's guide: under
    30 cm)."""
    rng = random.Random(seed)
    return {switch: rng.uniform(15.0, 30.0) for switch in SWITCHES}


class StarvedClock:
    """The driver's clock on a starved thread: every timer fires late, by up to `late_s` and,
    one time in `stall_every`, by a stall of up to `stall_s` (the chips sample on regardless)."""

    def __init__(
        self, clock: VirtualClock, seed: int, late_s: float, stall_s: float, stall_every: int
    ) -> None:
        self._clock = clock
        self._rng = random.Random(seed)
        self._late_s, self._stall_s, self._stall_every = late_s, stall_s, stall_every

    def monotonic(self) -> float:
        return self._clock.monotonic()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        late = self._rng.uniform(0.0, self._late_s)
        if self._rng.randrange(self._stall_every) == 0:
            late += self._rng.uniform(0.0, self._stall_s)
        return self._clock.call_later(delay + late, callback)


def build_table(
    driver_clock: Callable[[VirtualClock], Clock] = lambda clock: clock, *, noise_seed: int = 7
) -> ModelTable:
    """The pads on the physical model, each on its wire, with the chips' noise drawn from
    `noise_seed`; the driver's clock made from the virtual one by `driver_clock`. Returned once
    the baselines have settled, with no event."""
    clock = VirtualClock()
    bus = VirtualI2C()
    factory = MockFactory()
    factory.ticks = clock.monotonic  # IRQ edges' ages on the virtual clock, not real time
    panel = VirtualTouchPanel(
        clock, bus, factory, IRQ_PINS, noise_counts=NOISE_COUNTS, seed=noise_seed
    )
    for switch, wire in wires_cm(WIRES_SEED).items():
        chip, electrode = electrode_of(switch)
        panel.chips[chip].set_capacitance(
            electrode, electrode_pf(replace(STANDARD, wire_m=wire / 100))
        )
    events: list[MatrixEvent] = []
    pads = TouchPads(
        driver_clock(clock), events.append, i2c=bus, irq_pins=IRQ_PINS, pin_factory=factory
    )
    made = ModelTable(clock, panel, pads, events, factory)
    made.wait(1.0)  # the baselines settle
    if [e for e in events if isinstance(e, TouchChipFault)]:
        made.close()
        raise RuntimeError("a virtual touch chip failed to start")
    events.clear()
    return made


def starved_table(reads: str, seed: int, *, noise_seed: int = 7) -> ModelTable:
    """A table whose driver reads as `reads` says (a key of `STARVED`, or "regular")."""
    if reads == "regular":
        return build_table(noise_seed=noise_seed)
    late_s, stall_s, every = STARVED[reads]
    return build_table(
        lambda clock: StarvedClock(clock, seed, late_s, stall_s, every), noise_seed=noise_seed
    )


@dataclass(frozen=True)
class Tally:
    """Hands counted and fingers seen, per gesture (a label: what it was and how)."""

    hand_seeds: dict[str, list[int]]
    """The seeds of the hands that counted, by gesture: to run them again."""
    hand_tries: Counter[str]
    fingers: Counter[str]
    finger_tries: Counter[str]

    def __add__(self, other: Tally) -> Tally:
        seeds = {k: [*v] for k, v in self.hand_seeds.items()}
        for label, more in other.hand_seeds.items():
            seeds[label] = sorted([*seeds.get(label, []), *more])
        return Tally(
            seeds,
            self.hand_tries + other.hand_tries,
            self.fingers + other.fingers,
            self.finger_tries + other.finger_tries,
        )


def gestures(stack: Stack) -> list[tuple[bool, str, Gesture]]:
    """Each gesture of one stack's sweep: (is a hand, its label, the gesture)."""
    hands = [
        (True, f"hand {h:g} mm in {d:g} s", hand_hover(stack, STANDARD, h, duration_s=d))
        for h in HAND_HEIGHTS_MM
        for d in HAND_DURATIONS_S
    ]
    fingers = [
        (False, f"finger at {s / 10:g} cm/s", finger_press(stack, STANDARD, speed_mm_s=s))
        for s in FINGER_SPEEDS_MM_S
    ]
    return [*hands, *fingers]


def sweep(reads: str, seed: int) -> Tally:
    """Every gesture on every supported stack, one at a time over a fifth of the cards, with
    chip noise and starved timers drawn from `seed`."""
    table = starved_table(reads, seed, noise_seed=seed)
    tally = Tally({}, Counter(), Counter(), Counter())
    cards = ALL_COORDS[seed % 5 :: 5]
    index = 0
    try:
        for stack_name, stack in SUPPORTED_STACKS.items():
            for is_hand, label, gesture in gestures(stack):
                card = cards[index % len(cards)]
                index += 1
                table.events.clear()
                table.panel.move_over(card, gesture)
                table.wait(GESTURE_S)
                counted = bool(table.guesses())
                if is_hand:
                    tally.hand_tries[label] += 1
                    if counted:
                        tally.hand_seeds.setdefault(label, []).append(seed)
                else:
                    name = f"{label} through {stack_name}"
                    tally.finger_tries[name] += 1
                    tally.fingers[name] += counted
                table.panel.release_switch(card)
                table.wait(REST_S)
    finally:
        table.close()
    return tally


def rates(tally: Tally, seeds: Sequence[int]) -> dict[str, Any]:
    """The figures of one way of reading: shares in percent with their 95 % interval."""
    hands = sum(len(seeds) for seeds in tally.hand_seeds.values())
    fingers = sum(tally.fingers.values())
    hand_tries, finger_tries = sum(tally.hand_tries.values()), sum(tally.finger_tries.values())
    return {
        "hands_counted": [hands, hand_tries],
        "hands_counted_percent": rate_interval(hands, hand_tries),
        "hands_that_counted": {k: {"seeds": v} for k, v in sorted(tally.hand_seeds.items())},
        "fingers_seen": [fingers, finger_tries],
        "fingers_seen_percent": rate_interval(fingers, finger_tries),
        "fingers_missed": {
            k: tally.finger_tries[k] - v
            for k, v in sorted(tally.fingers.items())
            if v < tally.finger_tries[k]
        },
        "seeds": [min(seeds), max(seeds)],
    }


def measure(reads: Sequence[str], seeds: Sequence[int], jobs: int) -> dict[str, Any]:
    """Sweep every seed for every way of reading, `jobs` processes at a time."""
    work = [(way, seed) for way in reads for seed in seeds]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        tallies = list(pool.map(sweep, *zip(*work, strict=True)))
    figures: dict[str, Any] = {}
    for way in reads:
        mine = [t for (w, _), t in zip(work, tallies, strict=True) if w == way]
        figures[way] = rates(sum(mine[1:], mine[0]), seeds)
    return figures


def parse_seeds(text: str) -> range:
    """Seeds as `first:end` (end excluded), e.g. 0:60.

    >>> parse_seeds("60:120")
    range(60, 120)
    """
    first, _, end = text.partition(":")
    try:
        seeds = range(int(first), int(end))
    except ValueError:
        raise argparse.ArgumentTypeError(f"seeds are first:end, e.g. 0:60, not {text!r}") from None
    if not seeds:
        raise argparse.ArgumentTypeError(f"no seed in {text!r}")
    return seeds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.touch_rule_rates",
        description="Hands counted and fingers seen by the finger's rule, over noise seeds.",
    )
    parser.add_argument(
        "--seeds", type=parse_seeds, default=DEFAULT_SEEDS, help="first:end (default 0:60)"
    )
    parser.add_argument(
        "--reads", choices=READS, action="append", help="a way of reading (default: every one)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="processes at once (default 2)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be 1 or more")
    figures = measure(args.reads or READS, args.seeds, args.jobs)
    json.dump(figures, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
