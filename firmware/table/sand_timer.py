"""The sand timer: started or restarted by a TIMER press (or by itself when a clue is announced,
if staff chose so in the menu), paused and resumed by a long press; it beeps once, short, ten
seconds before its end and three times, long and lower, at the end.

`SandTimer` is a value type over injected times; `TableTimer` drives it on the clock for the
table, so tests move time by hand.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

WARNING_S = 10.0
"""Seconds before the end at which the timer warns (timers this short or shorter do not)."""


@dataclass(frozen=True)
class BeepPattern:
    """A beep as the console's buzzer plays it (`firmware.drivers.console.Console.beep`)."""

    on_s: float
    count: int = 1
    off_s: float = 0.08
    hz: float = 1760.0


WARNING_BEEP = BeepPattern(on_s=0.08)
"""Ten seconds left: one short beep, so a table deep in thought hears it without alarm."""
END_BEEP = BeepPattern(on_s=0.3, count=3, off_s=0.15, hz=880.0)
"""Time is up: three long beeps an octave lower, unmistakable for the warning even in a noisy
room, since they differ in count, length and pitch."""


class Beeper(Protocol):
    """The optional buzzer (the console's)."""

    def beep(
        self, on_s: float = 0.08, *, count: int = 1, off_s: float = 0.08, hz: float = 1760.0
    ) -> None: ...


def play(beeper: Beeper | None, pattern: BeepPattern) -> None:
    """Sound `pattern` on `beeper`, if one is fitted."""
    if beeper is not None:
        beeper.beep(pattern.on_s, count=pattern.count, off_s=pattern.off_s, hz=pattern.hz)


class TimerTick(Enum):
    """What a tick of the table's timer found."""

    WARNING = "warning"
    """`WARNING_S` seconds are left."""
    END = "end"
    """The time is up (and the timer is gone)."""


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


def _whole_seconds(left: float) -> int:
    # A hair of tolerance: the clock's sums of delays land a rounding error past a second.
    return math.ceil(left - 1e-9)


class TableTimer:
    """The table's sand timer on the clock: none or one, with one pending tick at a time that
    redraws its bar every `redraw_s` and finds its end.

    `schedule(delay)` asks the game loop to look again after `delay` seconds; every tick of the
    loop (blinking, notices…) then calls `tick`, so only the timer's own tick re-arms it.
    """

    def __init__(self, redraw_s: float, schedule: Callable[[float], None]) -> None:
        self._redraw_s = redraw_s
        self._schedule = schedule
        self._timer: SandTimer | None = None
        self._due = 0.0
        """When the pending tick comes (a redraw of the bar, the warning, or the end)."""
        self._warned = True
        """True once the running timer has warned, or when it is too short to."""

    def start(self, length_s: float, now: float) -> None:
        """Start (or restart) a full timer."""
        self._timer = SandTimer.started(length_s, now)
        self._warned = length_s <= WARNING_S
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

    def tick(self, now: float) -> TimerTick | None:
        """`END` once, when the running timer reaches its end (and is gone); `WARNING` once,
        when `WARNING_S` seconds are left; otherwise None."""
        timer = self._timer
        if timer is None or not timer.running or now < self._due:
            return None
        left = timer.left(now)
        if left <= 0:
            self._timer = None
            return TimerTick.END
        self._arm(timer, now)
        if not self._warned and left <= WARNING_S:
            self._warned = True
            return TimerTick.WARNING
        return None

    def fraction_left(self, now: float) -> float | None:
        """The share of the sand left, or None without a timer."""
        return None if self._timer is None else self._timer.fraction_left(now)

    def seconds_left(self, now: float) -> int | None:
        """Whole seconds left, counted up as a countdown shows them (29.2 s is 30), or None
        without a timer."""
        if self._timer is None:
            return None
        return _whole_seconds(self._timer.left(now))

    def _arm(self, timer: SandTimer, now: float) -> None:
        left = timer.left(now)
        # Also when the seconds shown next change, so that a resumed timer's count stays true.
        delay = min(self._redraw_s, left, left - _whole_seconds(left) + 1)
        if not self._warned and left > WARNING_S:
            delay = min(delay, left - WARNING_S)
        due = now + delay  # as the clock adds it up, so that the tick finds itself due
        if now < self._due <= due:
            return  # the pending tick comes first and re-arms
        self._due = due
        self._schedule(delay)
