"""What an MPR121 electrode's counts say in picofarads, and the rule that tells a finger on a
card from a hand held above it.

The chip charges an electrode with a current I for a time T and reads its voltage with a 10-bit
ADC: counts = 1024 × I × T / (C × VDD) (MPR121 datasheet, "Capacitance Sensing"). With the
charge that auto-configuration chose read back from the chip, the counts of the baseline and of
the data give the capacitance a touch added, whatever the pad's own capacitance:
ΔC = 1024 × I × T / VDD × (1/data − 1/baseline).

A finger is stopped by the card: its signal grows as 1/distance to the very end, faster and
faster, and stops at once, most of it in the last millimetre (the card leaves it a fraction of
one). A hand held over a card is brought there and slows to rest, as reaching movements do: its
signal, however large (its area is the pad's), rises more and more slowly into its rest. The
chip's baseline filter passes small changes straight into the baseline (MHD, datasheet
"Baseline System"), so what crept up slowly is already gone from the signal. The rule, chosen on
the physical model of the virtual chip (`firmware.virtual.mpr121_physics`,
tests/virtual/test_mpr121_physics.py): a guess is a rise of at least `size_pf` over
`rise_samples` samples, no smaller than the rise over the samples before it, after which the
signal moves by less than `still_share` of that rise over `still_samples` samples.
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

    size_pf: float = 0.2
    """The least rise into the stop: over a hand's that the readings' counts (0.03–0.045 pF
    each) make look sharp, under a finger's on every supported stack and wire."""
    rise_samples: int = 4
    """8 ms at 2 ms a sample: the second filter's span (SFI 4), over which a step spreads."""
    sharpness: float = 1.5
    """How many times the rise over the window before it the rise must be: a fingertip's
    signal grows as 1/distance into the card, a hand's slows into its rest."""
    still_samples: int = 2
    """The samples after the rise in which the signal must have stopped."""
    still_share: float = 0.12
    """How much of the rise the signal may still move in those samples: a finger stopped by the
    card stops at once, a hand slowing to rest keeps rising for tens of milliseconds."""

    def __post_init__(self) -> None:
        if self.size_pf <= 0:
            raise ValueError("the touch rule's size must be more than 0 pF")
        if min(self.rise_samples, self.still_samples) < 1:
            raise ValueError("the touch rule's windows must be 1 sample or more")
        if not 0 < self.still_share < 1:
            raise ValueError("the touch rule's still share must be between 0 and 1")


class RiseWatch:
    """One electrode's signal, sample by sample, from the moment its chip saw something near."""

    def __init__(
        self, rule: TouchRule, size_pf: float | None = None, near_pf: float = math.inf
    ) -> None:
        self._rule = rule
        self._size_pf = rule.size_pf if size_pf is None else size_pf
        self._near_pf = near_pf
        self._span = 2 * rule.rise_samples + rule.still_samples
        self._signal: deque[float] = deque(maxlen=self._span + 1)

    def add(self, signal_pf: float) -> bool:
        """Take the next sample's signal; True once the finger's rule holds."""
        if not self._signal:
            # Before the chip's status changed, the signal was low (`near_pf`: the chip's
            # baseline has followed whatever crept up slowly, MHD passes small changes): what
            # came before is taken as that, or as this first sample if it is lower, so that a
            # finger's step read a few milliseconds late still counts whole.
            start = min(signal_pf, self._near_pf)
            self._signal.extend([start] * self._span)
        self._signal.append(signal_pf)
        rule = self._rule
        now, stop = self._signal[-1], self._signal[-1 - rule.still_samples]
        start = self._signal[-1 - rule.still_samples - rule.rise_samples]
        earlier = self._signal[0]
        rise, before, after = stop - start, start - earlier, abs(now - stop)
        # A rise that grew faster than the one before it (a fingertip's 1/distance into the
        # card) and then stopped at once; a hand that slows to rest rises less and less.
        return (
            rise >= self._size_pf
            and rise >= rule.sharpness * before
            and after <= rule.still_share * rise
        )
