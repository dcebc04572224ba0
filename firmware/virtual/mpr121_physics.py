"""The physics under a virtual MPR121 electrode: what a card pad, its wire and the strays measure
to ground, and what a finger on the card or a hand held above it adds through the stack.

The stack is what lies between the finger and the copper: the card, the table top (a material
and a thickness) and an air gap if the pads are not stuck to the top's underside. Each layer of
thickness t and relative permittivity εr counts as t / εr of air, so a plate of area A at a
height h above the card couples C = ε0 A / (h + Σ t/εr): the parallel-plate formula that the
touch design guides use for a finger through an overlay (Microchip's touch sensor design guide,
"Touch Capacitance Model"; Cypress AN64846, "Getting Started with CapSense", equation 1). It
overstates nothing: the field's fringe, which this leaves out, adds to small plates far away,
and the model is used to show what a pad does not see.

A finger is the guides' 8 mm disc (Microchip, same section) with its palm above it; a hand held
over a card is a plate the size of the pad (the palm covers it) at its height. Both reach the
electrode in series with the body's own capacitance to earth, the 150 pF of the human-body
model (IEC 61000-4-2).

A finger comes down at a steady speed and is stopped by the card; a hand held over a card is
brought there and slows to rest, as reaching movements do (the minimum-jerk profile, Flash and
Hogan, J. Neurosci. 5(7), 1985). That difference is what tells a touch from a hover.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

EPSILON_0 = 8.854e-12
"""The permittivity of free space, F/m."""
PERMITTIVITY: dict[str, float] = {
    "air": 1.0,
    # Paper and card stock are 2–3.5 in the usual tables; the lowest, as the thinnest signal.
    "card": 2.0,
    # The overlay table of Cypress AN64846 ("Getting Started with CapSense", overlay materials):
    # the lowest figure of each range, so that a stack said to work works with any sheet.
    "polycarbonate": 2.9,
    "acrylic": 2.6,
    "glass": 7.6,
    "wood": 1.2,
    # PVC wire insulation, as its makers give it at 1 MHz (3–4); the loom is part air: 2.
    "wire_loom": 2.0,
}
"""Relative permittivities (εr at about 1 MHz), every figure the model uses in one place."""
FINGER_DIAMETER_MM = 8.0
"""The fingertip as the touch design guides model it (Microchip, "Touch Capacitance Model")."""
PALM_ABOVE_FINGER_MM = 50.0
"""The palm behind a pointing finger: about a finger's length above the fingertip."""
BODY_PF = 150.0
"""The body's capacitance to earth, in series with every coupling (IEC 61000-4-2 HBM)."""
WIRE_DIAMETER_MM = 0.32
"""28 AWG, the builder's guide's electrode wire."""
WIRE_TO_GROUND_MM = 1.0
"""A wire in a loom lies about its own insulation's width from a grounded neighbour: the MPR121
holds every electrode it is not measuring at ground (datasheet, "Capacitance Sensing")."""
STRAY_PF = 5.0
"""The breakout's trace, its header and the chip's pin: a few pF (an estimate, not a figure
from a data sheet; the calibration measures the real total)."""


@dataclass(frozen=True)
class Stack:
    """What lies between a finger on the card and the electrode, top to bottom."""

    top: str = "polycarbonate"
    top_mm: float = 0.5
    card_mm: float = 0.4
    gap_mm: float = 0.0
    """Air between the top's underside and the electrode (pads on a board under the top)."""

    def __post_init__(self) -> None:
        if self.top not in PERMITTIVITY:
            raise ValueError(f"no permittivity for {self.top!r}: one of {', '.join(PERMITTIVITY)}")
        if min(self.top_mm, self.card_mm, self.gap_mm) < 0:
            raise ValueError("a layer's thickness cannot be negative")

    @property
    def air_mm(self) -> float:
        """The stack's thickness as air: Σ t / εr."""
        return (
            self.card_mm / PERMITTIVITY["card"] + self.top_mm / PERMITTIVITY[self.top] + self.gap_mm
        )

    def __str__(self) -> str:
        gap = f" + {self.gap_mm:g} mm air" if self.gap_mm else ""
        return f"{self.card_mm:g} mm card on {self.top_mm:g} mm {self.top}{gap}"


@dataclass(frozen=True)
class Pad:
    """One electrode as built: its copper, its wire to the chip."""

    width_mm: float = 60.0
    depth_mm: float = 35.0
    wire_m: float = 0.3

    @property
    def area_mm2(self) -> float:
        return self.width_mm * self.depth_mm


def series(*capacitances_pf: float) -> float:
    """Capacitors in series.

    >>> round(series(2.0, 2.0), 3)
    1.0
    """
    return 1.0 / sum(1.0 / c for c in capacitances_pf)


def plate_pf(area_mm2: float, air_mm: float) -> float:
    """A plate of `area_mm2` at `air_mm` (air-equivalent) from the electrode: ε0 A / d."""
    return EPSILON_0 * area_mm2 * 1e-6 / (air_mm * 1e-3) * 1e12


def pad_self_pf(pad: Pad) -> float:
    """The copper alone to its surroundings: an isolated thin disc of the same area, 8 ε0 r
    (the disc's capacitance, as in Smythe, "Static and Dynamic Electricity")."""
    radius_m = math.sqrt(pad.area_mm2 / math.pi) * 1e-3
    return 8 * EPSILON_0 * radius_m * 1e12


def wire_pf(pad: Pad) -> float:
    """The wire beside grounded neighbours: 2π ε0 εr / acosh(h / r) per metre, a wire over a
    ground at height h (the transmission-line formula)."""
    radius = WIRE_DIAMETER_MM / 2
    per_m = 2 * math.pi * EPSILON_0 * PERMITTIVITY["wire_loom"]
    per_m /= math.acosh(WIRE_TO_GROUND_MM / radius)
    return per_m * pad.wire_m * 1e12


def electrode_pf(pad: Pad) -> float:
    """What the chip measures on an untouched pad: copper, wire and strays."""
    return pad_self_pf(pad) + wire_pf(pad) + STRAY_PF


def finger_pf(stack: Stack, pad: Pad, height_mm: float = 0.0) -> float:
    """A fingertip `height_mm` above the card (0: on it), with its palm above, in series with
    the body."""
    finger_area = min(math.pi * (FINGER_DIAMETER_MM / 2) ** 2, pad.area_mm2)
    tip = plate_pf(finger_area, height_mm + stack.air_mm)
    palm = plate_pf(pad.area_mm2, height_mm + PALM_ABOVE_FINGER_MM + stack.air_mm)
    return series(tip + palm, BODY_PF)


def hand_pf(stack: Stack, pad: Pad, height_mm: float) -> float:
    """A flat hand `height_mm` above the card, covering the pad, in series with the body."""
    return series(plate_pf(pad.area_mm2, height_mm + stack.air_mm), BODY_PF)


@dataclass(frozen=True)
class Gesture:
    """What a movement adds to an electrode, `added_pf(t)` at `t` seconds from its start; it
    changes until `settles_s`, then stays."""

    added_pf: Callable[[float], float]
    settles_s: float


def finger_press(
    stack: Stack, pad: Pad, *, speed_mm_s: float = 150.0, from_mm: float = 60.0
) -> Gesture:
    """A finger coming down at `speed_mm_s` from `from_mm` and stopped by the card."""
    if speed_mm_s <= 0:
        raise ValueError("a finger that does not move never arrives")
    arrive_s = from_mm / speed_mm_s
    return Gesture(
        lambda t: finger_pf(stack, pad, max(from_mm - speed_mm_s * t, 0.0)),
        arrive_s,
    )


def minimum_jerk(start: float, end: float, duration_s: float, t: float) -> float:
    """Where a reaching movement from `start` to `end` in `duration_s` is at `t` (Flash and
    Hogan 1985): it leaves and arrives at rest.

    >>> minimum_jerk(100.0, 10.0, 0.5, 0.25)
    55.0
    """
    tau = min(max(t / duration_s, 0.0), 1.0)
    return start + (end - start) * (10 * tau**3 - 15 * tau**4 + 6 * tau**5)


def hand_hover(
    stack: Stack, pad: Pad, height_mm: float, *, from_mm: float = 150.0, duration_s: float = 0.4
) -> Gesture:
    """A hand brought from `from_mm` to rest `height_mm` above the card in `duration_s`."""
    return Gesture(
        lambda t: hand_pf(stack, pad, minimum_jerk(from_mm, height_mm, duration_s, t)),
        duration_s,
    )


SLOWEST_FINGER_MM_S = 100.0
"""The slowest touch the supported stacks promise to see: a deliberate tap, 10 cm/s onto the
card. Slower fingers are seen on the thinnest tops; on the others the chip's baseline can follow
the last millimetre of a slow enough finger, and the touch is missed (tap again)."""
FASTEST_HOVER_S = 0.1
"""The quickest a hand is brought from 15 cm to rest above a card: 0.1 s is a peak speed of
2.6 m/s (minimum jerk: 1.875 × distance / duration), a swing rather than a reach. A hand
stopped above a card after a slap quicker than that can rise as sharply as a finger."""
SUPPORTED_STACKS: dict[str, Stack] = {
    "polycarbonate 0.5 mm": Stack("polycarbonate", 0.5),
    "glass 2 mm": Stack("glass", 2.0),
}
"""The tops the builder's guide lists as working, under a 0.4 mm card (a thick card; thinner
ones do better): every pad, on a wire of up to 30 cm, sees every finger from
`SLOWEST_FINGER_MM_S` up and never a hand held still over a card
(tests/virtual/test_mpr121_physics.py). Between these and the unsupported ones (polycarbonate
1 mm, acrylic 1 mm, glass 3 mm) a pad sees most touches but not every slow one."""
UNSUPPORTED_STACKS: dict[str, Stack] = {
    "polycarbonate 2 mm": Stack("polycarbonate", 2.0),
    "acrylic 2 mm": Stack("acrylic", 2.0),
    "glass 4 mm": Stack("glass", 4.0),
    "wood 3 mm": Stack("wood", 3.0),
}
"""Tops too thick for a fingertip's signal (with the card, their thickness as air, Σ t/εr, is
0.7 mm or more): its last millimetre, all that the chip's baseline leaves of a deliberate touch,
is too small or too slow to stand out, and some touches are missed. A larger pad does not help: the
fingertip's 8 mm disc is all of it that couples."""


def build_from_mechanics(path: Path) -> tuple[Stack, Pad]:
    """The stack and the pad of `[touch]` in `hardware/mechanics.toml`, the card of `[card]`."""
    with path.open("rb") as file:
        mechanics = tomllib.load(file)
    touch, card = mechanics["touch"], mechanics["card"]
    stack = Stack(
        top=touch["top"],
        top_mm=float(touch["top_thickness"]),
        card_mm=float(card["thickness"]),
        gap_mm=float(touch.get("air_gap", 0.0)),
    )
    pad = Pad(float(touch["pad_width"]), float(touch["pad_depth"]), touch["wire_cm"] / 100)
    return stack, pad
