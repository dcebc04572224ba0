"""What an MPR121 electrode's counts say in picofarads, and the rule that tells a finger on a
card from a hand held above it.

The chip charges an electrode with a current I for a time T and reads its voltage with a 10-bit
ADC: counts = 1024 × I × T / (C × VDD) (MPR121 datasheet, "Capacitance Sensing"). With the
charge that auto-configuration chose read back from the chip, the counts of the baseline and of
the data give the capacitance a touch added, whatever the pad's own capacitance:
ΔC = 1024 × I × T / VDD × (1/data − 1/baseline).

A finger is stopped by the card: its signal arrives at once, most of it in the last millimetre
(a fingertip couples as 1/distance, and the card leaves it a fraction of a millimetre). A hand
held over a card couples more (its area is the pad's), but it is brought there and slows to
rest, so its signal creeps up. The chip's baseline filter passes small changes
straight into the baseline (MHD, datasheet "Baseline System"), so what crept up slowly is
already gone from the signal. The rule, chosen on the physical model of the virtual chip
(`firmware.virtual.mpr121_physics`, tests/virtual/test_mpr121_physics.py): a guess is a jump of
at least `size_pf` within `rise_samples` samples, on `confirm` samples in a row.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

VDD = 3.3
"""The chips' supply: the Pi's 3.3 V rail."""
ADC_FULL_SCALE = 1024


def charge_time_us(code: int) -> float:
    """The charge time a 3-bit CDT code stands for: 0.5 µs × 2^(code − 1), 1 to 7.

    >>> charge_time_us(1), charge_time_us(7)
    (0.5, 32.0)
    """
    return 0.5 * 2 ** (code - 1) if code else 0.0


def added_pf(current_ua: int, time_us: float, baseline: int, data: int) -> float:
    """The capacitance added since the baseline, from the charge and the two readings.

    >>> round(added_pf(16, 0.5, 124, 114), 2)
    1.76
    """
    if baseline <= 0 or data <= 0:
        return 0.0
    charge_pc = current_ua * time_us  # µA × µs = pC
    return ADC_FULL_SCALE * charge_pc / VDD * (1.0 / data - 1.0 / baseline)


@dataclass(frozen=True)
class TouchRule:
    """A finger's signal, as opposed to a hand's (see the module's docstring)."""

    size_pf: float = 0.4
    """The jump a finger gives: over a hand's fastest rise, under a finger's on every supported
    stack once the chip's baseline has followed the slow part of its approach."""
    rise_samples: int = 4
    """8 ms at 2 ms a sample: the second filter's span (SFI 4), which spreads a step."""
    confirm: int = 2
    """Samples in a row that pass: one noisy sample does not make a touch."""

    def __post_init__(self) -> None:
        if self.size_pf <= 0:
            raise ValueError("the touch rule's size must be more than 0 pF")
        if min(self.rise_samples, self.confirm) < 1:
            raise ValueError("the touch rule's windows must be 1 sample or more")


class RiseWatch:
    """One electrode's signal, sample by sample, from the moment its chip saw something near."""

    def __init__(
        self, rule: TouchRule, size_pf: float | None = None, near_pf: float = math.inf
    ) -> None:
        self._rule = rule
        self._size_pf = rule.size_pf if size_pf is None else size_pf
        self._near_pf = near_pf
        self._signal: deque[float] = deque(maxlen=rule.rise_samples + 1)
        self._passed = 0

    def add(self, signal_pf: float) -> bool:
        """Take the next sample's signal; True once the finger's rule holds."""
        if not self._signal:
            # Before the chip's status changed, the signal was under its threshold (`near_pf`):
            # what came before is taken as that, or as this first sample if it is lower, so
            # that a finger's step read a few milliseconds late still counts whole, and a hand
            # that crept up to the threshold shows only what it rises from there. The chip's
            # baseline has followed whatever crept up slowly before (MHD passes small changes).
            start = min(signal_pf, self._near_pf)
            self._signal.extend([start] * self._rule.rise_samples)
        self._signal.append(signal_pf)
        jump = signal_pf - self._signal[0]
        self._passed = self._passed + 1 if jump >= self._size_pf else 0
        return self._passed >= self._rule.confirm
