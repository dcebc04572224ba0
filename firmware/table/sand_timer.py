"""The sand timer: started or restarted by a TIMER press, paused and resumed by a long press.

A value type over injected times, so the table schedules its end on the clock and tests move
time by hand.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SandTimer:
    """A running or paused countdown of `length_s` seconds."""

    length_s: float
    deadline: float | None = None
    """When it runs out, while running."""
    paused_left: float | None = None
    """Seconds left, while paused."""

    @classmethod
    def started(cls, length_s: float, now: float) -> SandTimer:
        """A full timer, running from `now`."""
        return cls(length_s=length_s, deadline=now + length_s)

    @property
    def running(self) -> bool:
        """True while counting down."""
        return self.deadline is not None

    def left(self, now: float) -> float:
        """Seconds left, never below zero."""
        if self.deadline is not None:
            return max(self.deadline - now, 0.0)
        return self.paused_left or 0.0

    def fraction_left(self, now: float) -> float:
        """The share of the sand still at the top, 1.0 when full."""
        return self.left(now) / self.length_s

    def toggled_pause(self, now: float) -> SandTimer:
        """Paused if running, running again if paused."""
        if self.deadline is not None:
            return SandTimer(self.length_s, paused_left=self.left(now))
        return SandTimer(self.length_s, deadline=now + self.left(now))
