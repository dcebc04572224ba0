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
`rise_samples` samples, exceeding `sharpness` times the rise over the samples before it by at
least `noise_pf` (the readings' noise), after which the signal moves by less than
`still_share` of that rise over `still_samples` samples.

The windows are times (the chip's samples are 2 ms apart), not reads: a table whose thread is
starved reads late and skips samples, and a hand's rise that slows over 30 ms, read at its two
ends, looks like a finger's step. Each read carries the driver's clock; the signal at each of the
rule's four instants is taken on the line between the two reads around it, where those are no
further apart than a sample and `gap_margin_ms`. Across a longer gap the signal is unknown: the
still window must have none, and a rise's start or the instant before it that falls in one is
taken at whichever of the gap's two reads makes the rise smaller and the rise before it larger.
A gap in the reads can thus lose a touch (tap again) but not make one: the signal in it is
never taken as sharper than its reads allow.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Callable
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

    size_pf: float = 0.25
    """The least rise into the stop: over a hand's that the readings' counts (0.03–0.045 pF
    each) make look sharp, under a finger's on every supported stack and wire."""
    rise_samples: int = 4
    """8 ms at 2 ms a sample: the second filter's span (SFI 4), over which a step spreads."""
    sharpness: float = 1.5
    """How many times the rise over the window before it the rise must be: a fingertip's
    signal grows as 1/distance into the card, a hand's slows into its rest."""
    noise_pf: float = 0.05
    """How far the rise must clear `sharpness` times the one before it: a reading is a count or
    two off either way (the chips' noise, 0.03–0.045 pF a count), so a rise that seems faster
    by no more than that is still taken as a hand's."""
    still_samples: int = 2
    """The samples after the rise in which the signal must have stopped."""
    still_share: float = 0.12
    """How much of the rise the signal may still move in those samples: a finger stopped by the
    card stops at once, a hand slowing to rest keeps rising for tens of milliseconds."""
    sample_ms: float = 2.0
    """The chips' sample period (ESI 2, `firmware.drivers.touch_pads`): the windows' unit."""
    gap_margin_ms: float = 4.0
    """How much later than a sample period a read may follow the one before it and the signal
    between them still count as known (a line between the two); past that it is a gap."""

    def __post_init__(self) -> None:
        if self.size_pf <= 0:
            raise ValueError("the touch rule's size must be more than 0 pF")
        if self.noise_pf < 0:
            raise ValueError("the touch rule's noise allowance cannot be negative")
        if min(self.rise_samples, self.still_samples) < 1:
            raise ValueError("the touch rule's windows must be 1 sample or more")
        if not 0 < self.still_share < 1:
            raise ValueError("the touch rule's still share must be between 0 and 1")
        if self.sample_ms <= 0 or self.gap_margin_ms < 0:
            raise ValueError("the touch rule's sample period must be more than 0 ms")

    @property
    def span_s(self) -> float:
        """The time the rule looks back over: two rise windows and the still one."""
        return (2 * self.rise_samples + self.still_samples) * self.sample_ms / 1000

    @property
    def max_gap_s(self) -> float:
        """The longest time between two reads that leaves the signal between them known."""
        return (self.sample_ms + self.gap_margin_ms) / 1000


class RiseWatch:
    """One electrode's signal, read by read with the driver's clock, from the moment its chip saw
    something near."""

    def __init__(
        self,
        rule: TouchRule,
        size_pf: float | None = None,
        near_pf: float = math.inf,
        since: float | None = None,
    ) -> None:
        self._rule = rule
        self._size_pf = rule.size_pf if size_pf is None else size_pf
        self._near_pf = near_pf
        self._since = since
        self._reads: deque[tuple[float, float]] = deque()
        """(time, signal) of the reads the rule's span still needs, oldest first."""

    def add(self, signal_pf: float, at: float) -> bool:
        """Take the signal read at `at` (seconds, the driver's clock); True once the finger's
        rule holds."""
        rule = self._rule
        sample_s = rule.sample_ms / 1000
        if not self._reads:
            # Before the chip's status changed (`since`), the signal was low (`near_pf`: the
            # chip's baseline has followed whatever crept up slowly, MHD passes small changes):
            # it is taken as that, or as this first read if it is lower, a sample apart up to
            # then, so that a finger's step read a few milliseconds late still counts whole. A
            # first read long after the status changed leaves a gap: what rose in it is unknown.
            since = at if self._since is None else min(self._since, at)
            start = min(signal_pf, self._near_pf)
            count = math.ceil(rule.span_s / sample_s) + 1
            self._reads.extend((since - k * sample_s, start) for k in range(count, -1, -1))
            if self._reads[-1][0] >= at:
                self._reads.pop()
        elif at <= self._reads[-1][0]:
            return False  # the clock has not moved: nothing new to judge
        self._reads.append((at, signal_pf))
        while len(self._reads) > 3 and self._reads[1][0] <= at - rule.span_s - rule.max_gap_s:
            self._reads.popleft()
        # Judged at this read and at every sample's time since the one before it, as regular
        # reads would have been: a window sliding only from read to read would step over a
        # finger's stop.
        previous = self._reads[-2][0]
        anchor = at
        while anchor > previous:
            if self._holds(anchor):
                return True
            anchor -= sample_s
        return False

    def _holds(self, now: float) -> bool:
        """Whether the finger's rule holds for the signal up to `now`."""
        rule = self._rule
        sample_s = rule.sample_ms / 1000
        still_s, rise_s = rule.still_samples * sample_s, rule.rise_samples * sample_s
        instants = (now, now - still_s, now - still_s - rise_s, now - still_s - 2 * rise_s)
        signal, stop = self._signal_at(instants[0]), self._signal_at(instants[1])
        if signal is None or stop is None or not self._regular_since(instants[1]):
            return False
        # Inside a gap the signal is only known to lie between the reads around it (a hand's
        # or a finger's signal rises): the rise's start is taken at the later read and the
        # earlier instant at the former one, so that the rise is no larger, and the rise before
        # it no smaller, than regular reads would have shown. Measuring a rise from the read
        # before a stall, however short, lets a hand's whole slow rise pass for a finger's.
        start = self._signal_at(instants[2], within_gap=max)
        earlier = self._signal_at(instants[3], within_gap=min)
        if start is None or earlier is None:
            return False
        rise, before, after = stop - start, start - earlier, abs(signal - stop)
        # A rise that grew faster than the one before it (a fingertip's 1/distance into the
        # card) and then stopped at once; a hand that slows to rest rises less and less.
        return (
            rise >= self._size_pf
            and rise >= rule.sharpness * before + rule.noise_pf
            and after <= rule.still_share * rise
        )

    def _signal_at(
        self, when: float, within_gap: Callable[[float, float], float] | None = None
    ) -> float | None:
        """The signal at `when`, on the line between the reads around it; inside a gap,
        `within_gap` of those two reads (None: unknown)."""
        newer = next((i for i, (t, _) in enumerate(self._reads) if t >= when), None)
        if newer is None or (newer == 0 and self._reads[0][0] > when):
            return None
        t1, v1 = self._reads[newer]
        if t1 == when:
            return v1
        t0, v0 = self._reads[newer - 1]
        if t1 - t0 > self._rule.max_gap_s:
            return None if within_gap is None else within_gap(v0, v1)
        return v0 + (v1 - v0) * (when - t0) / (t1 - t0)

    def _regular_since(self, when: float) -> bool:
        """Whether the reads from `when` on follow each other without a gap: the signal cannot
        have moved unseen while it is said to be still."""
        times = [t for t, _ in self._reads]
        first = max(0, next(i for i, t in enumerate(times) if t >= when) - 1)
        gaps = (b - a for a, b in itertools.pairwise(times[first:]))
        return all(gap <= self._rule.max_gap_s for gap in gaps)
