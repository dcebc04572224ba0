"""`make bench`'s capacitive run: touch → LED on the capacitive pads, and hands held over cards.

The table runs as in `tools.bench` (real clock, loop and OLED threads, the paced bus) with
`[input] backend = "mpr121"`: three virtual MPR121s under the real driver, each sampling every
2 ms with its two filters, its baseline filter and its release debounce as the datasheet gives
them (`firmware.virtual.mpr121`). A touch is a finger coming down onto the card at 10 to 40 cm/s
through the reference stack (`firmware.virtual.mpr121_physics`); its latency runs from the moment
the finger reaches the card to the LED frame that shows the card covered.

Then, in a guessing turn, hands are brought over uncovered cards and held there, 10 to 40 mm
above them, at every pace from a swing to a slow reach, while each chip's readings carry noise;
then the noise alone. Every card covered during that run is a false guess (one could be the
assassin). `tools.bench` runs this module as a child, since it imports that module: it reads the
bench's figures on standard input and prints them with its own added.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from board_rules.codenames import ALL_COORDS, Coord, Phase
from firmware.virtual.mpr121 import VirtualTouchPanel
from firmware.virtual.mpr121_physics import (
    FASTEST_HOVER_S,
    SLOWEST_FINGER_MM_S,
    Gesture,
    Pad,
    Stack,
    finger_press,
    hand_hover,
)
from tools.bench import (
    SEED,
    TOUCHES,
    Player,
    bench_config,
    next_move,
    pi_like_table,
    spread,
    wait_until,
)

LED_MEDIAN_BUDGET_MS = 20.0
"""The capacitive pads' goal: the chips sample every 2 ms and spread a step over four samples."""
FASTEST_FINGER_MM_S = 400.0
FINGER_FROM_MM = 20.0
"""Where each finger starts down from: higher up, the chip's baseline follows it anyway."""
HOVERS = 24
HOVER_HEIGHTS_MM = (10.0, 20.0, 40.0)
HOVER_DURATIONS_S = (FASTEST_HOVER_S, 0.2, 0.4, 0.8)
HOLD_S = 0.6
"""How long a hand stays over a card once it has come to rest."""
NOISE_COUNTS = 3.0
"""Each reading's rms noise during the hover run, as in the physical model's tests."""
NOISE_ALONE_S = 3.0
STACK = Stack()
PAD = Pad()


class FingerPlayer(Player):
    """`tools.bench`'s player, whose fingers come down onto the cards as the physical model has
    them: each touch's figures are counted from the moment the finger that counted reaches the
    card, and a card that does not light is touched again."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._speeds = random.Random(SEED)
        self._approach_s: list[float] = []
        self._tapped_at: list[float] = []
        self._arrival_s: list[float] = []
        """Per touch, from the first finger's start to the arrival of the one that counted."""

    def _wait_lit(self, coord: Coord, frames: int) -> None:
        first = len(self._tapped_at) - 1
        super()._wait_lit(coord, frames)
        counted = self._tapped_at[-1] - self._tapped_at[first] + self._approach_s[-1]
        self._arrival_s.append(counted)

    def _move_pad(self, coord: Coord, *, closed: bool) -> None:
        panel = self._vt.circuit
        if not isinstance(panel, VirtualTouchPanel):
            raise TypeError("the capacitive run needs the capacitive pads")
        if not closed:
            panel.release_pad(coord)
            return
        speed = self._speeds.uniform(SLOWEST_FINGER_MM_S, FASTEST_FINGER_MM_S)
        finger = finger_press(STACK, PAD, speed_mm_s=speed, from_mm=FINGER_FROM_MM)
        self._approach_s.append(finger.settles_s)
        self._tapped_at.append(time.perf_counter())
        panel.move_over(coord, finger)

    def latencies_ms(self) -> tuple[list[float], list[float]]:
        """Touch → LED and touch → OLED of each touch, from the finger's arrival on the card."""
        arrivals = [s * 1000 for s in self._arrival_s]
        led = [t.led_ms - a for t, a in zip(self.touches, arrivals, strict=True)]
        oled = [t.oled_ms - a for t, a in zip(self.touches, arrivals, strict=True)]
        return led, oled


def _hover(panel: VirtualTouchPanel, coord: Coord, gesture: Gesture) -> None:
    panel.move_over(coord, gesture)
    time.sleep(gesture.settles_s + HOLD_S)
    panel.release_pad(coord)
    time.sleep(HOLD_S / 2)


def measure_touch_pads(
    state_dir: Path,
    *,
    touches: int = TOUCHES,
    paced: bool = True,
    hovers: int = HOVERS,
    durations_s: Sequence[float] = HOVER_DURATIONS_S,
) -> dict[str, Any]:
    """Touch → LED over `touches` fingers; then `hovers` hands held over cards, one at each
    height of `HOVER_HEIGHTS_MM` brought there in the first of `durations_s`, the next round in
    the next, and so on; then the noise alone. Returns the figures and the false guesses made."""
    with pi_like_table(state_dir, paced=paced, config=bench_config("mpr121")) as (vt, bus, leds):
        player = FingerPlayer(vt, bus, leds)
        player.play(touches)
        while vt.table.state.phase is not Phase.GUESS or next_move(vt.table.state) == "new":
            player.step()
        panel = vt.circuit
        assert isinstance(panel, VirtualTouchPanel)  # the config's backend
        covered = vt.table.state.covered
        open_cards = [coord for coord in ALL_COORDS if coord not in covered]
        rng = random.Random(SEED)
        for chip in panel.chips:
            chip.noise_counts = NOISE_COUNTS
        began = time.perf_counter()
        for index in range(hovers):
            height = HOVER_HEIGHTS_MM[index % len(HOVER_HEIGHTS_MM)]
            duration = durations_s[index // len(HOVER_HEIGHTS_MM) % len(durations_s)]
            gesture = hand_hover(STACK, PAD, height, duration_s=duration)
            _hover(panel, rng.choice(open_cards), gesture)
        time.sleep(NOISE_ALONE_S)
        hover_s = time.perf_counter() - began
        # Whatever the table took is in its state once its loop has caught up.
        wait_until(lambda: not vt.console.switches_busy, "the pads to rest")
        false_guesses = len(vt.table.state.covered - covered)
    led, oled = player.latencies_ms()
    return {
        "touch_to_led_ms_mpr121": spread(led),
        "touch_to_oled_ms_mpr121": spread(oled),
        "hover_run_mpr121": {
            "hovers": hovers,
            "heights_mm": list(HOVER_HEIGHTS_MM),
            "durations_s": list(durations_s),
            "noise_counts": NOISE_COUNTS,
            "seconds": round(hover_s, 1),
        },
        "false_guesses_mpr121": false_guesses,
        "retaps_mpr121": player.retaps,
        "unlit_mpr121": player.unlit,
        "samples_mpr121": {"touches": len(led)},
    }


def with_touch_pads(
    figures: dict[str, Any], *, touches: int, paced: bool, hovers: int = HOVERS
) -> None:
    """Add the capacitive run's figures and budgets to `figures` (a `tools.bench` run's)."""
    with tempfile.TemporaryDirectory(prefix="codenames-bench-") as state:
        figures.update(measure_touch_pads(Path(state), touches=touches, paced=paced, hovers=hovers))
    figures["budgets"]["touch_to_led_ms_mpr121_median"] = LED_MEDIAN_BUDGET_MS
    figures["within_budget"]["touch_to_led_ms_mpr121_median"] = (
        figures["touch_to_led_ms_mpr121"]["median"] <= LED_MEDIAN_BUDGET_MS
    )
    figures["budgets"]["false_guesses_mpr121"] = 0
    figures["within_budget"]["false_guesses_mpr121"] = figures["false_guesses_mpr121"] == 0


def main(argv: Sequence[str] | None = None) -> int:
    """Read a `tools.bench` run's figures on standard input, print them with the capacitive
    run's."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench_touch_pads",
        description="Add the capacitive pads' touch → LED and hover run to make bench's figures.",
    )
    parser.add_argument("--touches", type=int, required=True)
    parser.add_argument("--unpaced", action="store_true")
    args = parser.parse_args(argv)
    if args.touches < 1:
        parser.error("--touches must be 1 or more")
    figures = json.load(sys.stdin)
    with_touch_pads(figures, touches=args.touches, paced=not args.unpaced)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
