"""The sand timer: started or restarted by a TIMER press, paused and resumed by a long press.

`SandTimer` is a value type over injected times; `TableTimer` drives it on the clock for the
table, so tests move time by hand.
"""

from __future__ import annotations

from collections.abc import Callable
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


class TableTimer:
    """The table's sand timer on the clock: none or one, with one pending tick at a time that
    redraws its bar every `redraw_s` and finds its end.

    `schedule(delay)` asks the game loop to look again after `delay` seconds; every tick of the
    loop (blinking, notices…) then calls `ran_out`, so only the timer's own tick re-arms it.
    """

    def __init__(self, redraw_s: float, schedule: Callable[[float], None]) -> None:
        self._redraw_s = redraw_s
        self._schedule = schedule
        self._timer: SandTimer | None = None
        self._due = 0.0
        """When the pending tick comes (a redraw of the bar, or the end)."""

    def start(self, length_s: float, now: float) -> None:
        """Start (or restart) a full timer."""
        self._timer = SandTimer.started(length_s, now)
        self._arm(self._timer, now)

    def stop(self) -> None:
        """No timer any more (a new turn, a new game)."""
        self._timer = None

    def toggle_pause(self, now: float) -> bool:
        """Pause a running timer or resume a paused one; True when this paused it."""
        if self._timer is None:
            return False
        self._timer = self._timer.toggled_pause(now)
        if self._timer.running:
            self._arm(self._timer, now)
            return False
        return True

    def ran_out(self, now: float) -> bool:
        """True once, when the running timer reaches its end (and is gone)."""
        timer = self._timer
        if timer is None or not timer.running or now < self._due:
            return False
        if timer.left(now) <= 0:
            self._timer = None
            return True
        self._arm(timer, now)
        return False

    def fraction_left(self, now: float) -> float | None:
        """The share of the sand left, or None without a timer."""
        return None if self._timer is None else self._timer.fraction_left(now)

    def _arm(self, timer: SandTimer, now: float) -> None:
        delay = min(self._redraw_s, timer.left(now))
        due = now + delay  # as the clock adds it up, so that the tick finds itself due
        if now < self._due <= due:
            return  # the pending tick comes first and re-arms
        self._due = due
        self._schedule(delay)
