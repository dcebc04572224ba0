"""Time, injected: every timing of the table (debounce, holds, timers, back-off) reads a `Clock`.

`SystemClock` is the real one, with one scheduler thread for delayed calls. `VirtualClock` runs
only when told to advance, firing what falls due in order, so tests and scripted simulations
cover minutes of play without sleeping and give the same result every time.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

log = logging.getLogger(__name__)


class Timer(Protocol):
    """A delayed call that can still be cancelled."""

    def cancel(self) -> None:
        """Stop the call if it has not run yet; harmless afterwards."""


class Clock(Protocol):
    """Monotonic time in seconds and delayed calls."""

    def monotonic(self) -> float:
        """Seconds since an arbitrary start; never goes back."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        """Run `callback` once, `delay` seconds from now."""


@dataclass(order=True)
class _Scheduled:
    due: float
    sequence: int
    callback: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class VirtualClock:
    """A clock that moves only in `advance`; delayed calls run inside it, in time order."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._queue: list[_Scheduled] = []
        self._sequence = itertools.count()

    def monotonic(self) -> float:
        return self._now

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        entry = _Scheduled(self._now + max(delay, 0.0), next(self._sequence), callback)
        heapq.heappush(self._queue, entry)
        return entry

    def advance(self, seconds: float) -> None:
        """Let `seconds` pass, running each call as its time comes (calls it schedules too)."""
        end = self._now + seconds
        while self._queue and self._queue[0].due <= end:
            entry = heapq.heappop(self._queue)
            if not entry.cancelled:
                self._now = max(self._now, entry.due)
                entry.callback()
        self._now = end

    @property
    def next_due(self) -> float | None:
        """When the next delayed call falls due, or None when none waits."""
        while self._queue and self._queue[0].cancelled:
            heapq.heappop(self._queue)
        return self._queue[0].due if self._queue else None

    @property
    def pending(self) -> int:
        """Delayed calls still waiting (cancelled ones not counted)."""
        return sum(1 for entry in self._queue if not entry.cancelled)


class SystemClock:
    """The real monotonic clock; delayed calls run on one daemon scheduler thread."""

    def __init__(self) -> None:
        self._queue: list[_Scheduled] = []
        self._sequence = itertools.count()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False

    def monotonic(self) -> float:
        return time.monotonic()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        entry = _Scheduled(time.monotonic() + max(delay, 0.0), next(self._sequence), callback)
        with self._wake:
            if self._closed:
                raise RuntimeError("the clock is closed")
            heapq.heappush(self._queue, entry)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="clock", daemon=True)
                self._thread.start()
            self._wake.notify()
        return entry

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._closed and (
                    not self._queue or self._queue[0].due > time.monotonic()
                ):
                    timeout = self._queue[0].due - time.monotonic() if self._queue else None
                    self._wake.wait(timeout)
                if self._closed:
                    return
                entry = heapq.heappop(self._queue)
            if not entry.cancelled:
                try:
                    entry.callback()
                except Exception:
                    # One failing call must not stop every later timer of the table.
                    log.exception("a delayed call failed")

    def close(self) -> None:
        """Stop the scheduler thread; pending calls are dropped. Idempotent."""
        with self._wake:
            self._closed = True
            self._wake.notify()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()

    def __enter__(self) -> SystemClock:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
