"""A count of successes out of trials in percent, with its 95 % interval: how the project states
its measured rates (Coda's win rates, the touch rule's hands counted and fingers seen)."""

from __future__ import annotations

import math
from typing import Final

Z_95: Final = 1.959964
"""The standard normal quantile of a two-sided 95 % interval."""


def rate_interval(count: int, trials: int) -> list[float]:
    """`count` out of `trials` in percent, with its 95 % Wilson score interval: [rate, low,
    high], each to one decimal (the interval stays within 0–100 and is not empty at none or
    all, unlike the normal approximation)."""
    share = count / trials
    z2 = Z_95 * Z_95
    centre = (share + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z_95 * math.sqrt(share * (1 - share) / trials + z2 / (4 * trials * trials))
    half /= 1 + z2 / trials
    return [round(100 * x, 1) for x in (share, max(0.0, centre - half), min(1.0, centre + half))]
