"""Time, injected: every timing of the table (debounce, holds, timers, back-off) reads a `Clock`.

`SystemClock` is the real one, with one scheduler thread for delayed calls. `VirtualClock` runs
only when told to advance, firing what falls due in order, so tests and scripted simulations
cover minutes of play without sleeping and give the same result every time.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from firmware.drivers.liveness import Progress

log = logging.getLogger(__name__)

LONGEST_WAIT_S = 3600.0
"""The scheduler looks at its queue at least this often, however far off the next call is."""
SCHEDULER_RETRY_S = 1.0
"""Back-off of a scheduler that keeps failing."""


class Timer(Protocol):
    """A delayed call that can still be cancelled."""

    @property
    def due(self) -> float:
        """When the call falls due, on its clock's `monotonic` time."""

    def cancel(self) -> None:
        """Stop the call if it has not run yet; harmless afterwards."""


class Clock(Protocol):
    """Monotonic time in seconds and delayed calls."""

    def monotonic(self) -> float:
        """Seconds since an arbitrary start; never goes back."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        """Run `callback` once, `delay` seconds from now."""


@dataclass(eq=False, slots=True)
class _Scheduled:
    due: float
    callback: Callable[[], None]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


_Entry = tuple[float, int, _Scheduled]
"""A delayed call in a clock's heap: its due time, then the order it was made in (calls due
together run in that order), compared as a tuple of numbers in C rather than by a method."""


class VirtualClock:
    """A clock that moves only in `advance`; delayed calls run inside it, in time order."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._queue: list[_Entry] = []
        self._sequence = itertools.count()

    def monotonic(self) -> float:
        return self._now

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        entry = _Scheduled(_due(self._now, delay), callback)
        heapq.heappush(self._queue, (entry.due, next(self._sequence), entry))
        return entry

    def advance(self, seconds: float) -> None:
        """Let `seconds` pass, running each call as its time comes (calls it schedules too)."""
        end = self._now + seconds
        while self._queue and self._queue[0][0] <= end:
            entry = heapq.heappop(self._queue)[2]
            if not entry.cancelled:
                self._now = max(self._now, entry.due)
                entry.callback()
        self._now = end

    @property
    def next_due(self) -> float | None:
        """When the next delayed call falls due, or None when none waits."""
        while self._queue and self._queue[0][2].cancelled:
            heapq.heappop(self._queue)
        return self._queue[0][0] if self._queue else None

    @property
    def pending(self) -> int:
        """Delayed calls still waiting (cancelled ones not counted)."""
        return sum(1 for _, _, entry in self._queue if not entry.cancelled)


class SystemClock:
    """The real monotonic clock; delayed calls run on one daemon scheduler thread.

    The thread survives whatever a call raises, and a delay of any size (`inf` is never): it
    logs a failure and goes on. Its `progress` mark tells `firmware.drivers.liveness.Liveness`
    whether it still runs, and when a call (or a failing scheduler) holds it up. `monotonic` is
    injected for tests; the waits themselves are real.
    """

    def __init__(
        self,
        monotonic: Callable[[], float] = time.monotonic,
        *,
        retry_s: float = SCHEDULER_RETRY_S,
    ) -> None:
        self._monotonic = monotonic
        self._retry_s = retry_s
        self._queue: list[_Entry] = []
        self._sequence = itertools.count()
        self._lock = threading.Lock()
        """Guards the queue and `_closed`; never held while the thread waits."""
        self._signal = threading.Lock()
        """Released to wake the scheduler, held while no wake-up is pending: one plain lock
        acquired with a timeout is the cheapest wait there is (a `Condition` allocates a lock and
        takes two more on every wait), and the thread waits once per delayed call."""
        self._signal.acquire()
        self._thread: threading.Thread | None = None
        self._closed = False
        self.progress = Progress("clock")
        """The scheduler thread's progress mark (`firmware.drivers.liveness`)."""

    def monotonic(self) -> float:
        return self._monotonic()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        entry = _Scheduled(_due(self._monotonic(), delay), callback)
        with self._lock:
            if self._closed:
                raise RuntimeError("the clock is closed")
            heapq.heappush(self._queue, (entry.due, next(self._sequence), entry))
            if self._thread is None:
                self._thread = self.progress.start(self._run)
            first = self._queue[0][2] is entry
        # Only a call that is now the first to fall due changes how long the scheduler waits:
        # any later one would wake its thread for nothing (a wake-up costs far more than most
        # calls). A call made on the scheduler's own thread is seen as it looks again.
        if first and threading.get_ident() != self._thread_ident():
            self._wake()
        return entry

    def _thread_ident(self) -> int | None:
        thread = self._thread
        return None if thread is None else thread.ident

    def _wake(self) -> None:
        """Wake the scheduler, or have its next wait return at once."""
        with contextlib.suppress(RuntimeError):  # a wake-up is pending already
            self._signal.release()

    def _run(self) -> None:
        failing = False
        while True:
            try:
                entry = self._next_due()
            except Exception:
                # A scheduler that fails must not take every later timer of the table with it.
                # The first failure of a run is logged and retried at once; further ones are
                # retried on a back-off, with the mark still busy, so that a scheduler that
                # keeps failing counts as stuck rather than spinning unseen.
                if not failing:
                    failing = True
                    self.progress.working("the clock's scheduler, failing")
                    log.exception("the clock's scheduler failed; it goes on")
                    continue
                if not self._closed:
                    self._signal.acquire(timeout=self._retry_s)
                continue
            failing = False
            if entry is None:
                return
            if not entry.cancelled:
                self.progress.working(entry.callback)
                try:
                    entry.callback()
                except Exception:
                    # One failing call must not stop every later timer of the table.
                    log.exception("a delayed call failed")

    def _next_due(self) -> _Scheduled | None:
        """Wait until the first call falls due and take it off the queue; None once closed."""
        while True:
            with self._lock:
                if self._closed:
                    return None
                now = self._monotonic()
                if self._queue and self._queue[0][0] <= now:
                    return heapq.heappop(self._queue)[2]
                # A far (or infinite) due time would overflow the lock's timeout: wake up now
                # and then to look again instead.
                timeout = min(self._queue[0][0] - now, LONGEST_WAIT_S) if self._queue else -1
            self.progress.waiting()
            # A call made meanwhile that falls due first has released the signal: no wait then.
            self._signal.acquire(timeout=timeout)

    def close(self) -> None:
        """Stop the scheduler thread; pending calls are dropped. Idempotent."""
        with self._lock:
            self._closed = True
        self._wake()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()

    def __enter__(self) -> SystemClock:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _due(now: float, delay: float) -> float:
    """When a call `delay` seconds after `now` falls due; a negative delay is now."""
    if math.isnan(delay):
        raise ValueError("a delay must be a number of seconds, not NaN")
    return now + max(delay, 0.0)
