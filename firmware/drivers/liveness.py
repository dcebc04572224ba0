"""Which threads the table needs, and whether each is alive and getting on with its work.

systemd's watchdog only proves what sends `WATCHDOG=1`. The game loop sends it, so a hung or
dead loop is caught by systemd alone; but the loop can go on while a thread it relies on has
died or hangs, and then the table looks alive and is deaf or blind. So the loop asks `Liveness`
before every heartbeat, and feeds the watchdog only while every watched thread is healthy.

The threads that matter, and why:
- the clock's scheduler (`firmware.drivers.clock.SystemClock`): it runs every timer, and the switch
  matrix scans on it, as do the button holds and the encoder push's debounce; without it no pad
  or button reaches the game;
- the display worker (`firmware.table.display_worker.DisplayWorker`): it draws every screen and
runs the
  OLED's timed redraws; without it the OLED freezes on a stale turn.
- The game loop itself is proven by the heartbeat it sends (see `firmware.service.serve`).
- Not watched: the pin library's callback threads, on which gpiozero calls the matrix's edge
  wake-up and the encoder's callbacks. They belong to the pin library (lgpio's notification
  thread on the Pi, the caller's thread on mock pins), there is no backend-neutral handle on
  them, and our callbacks on them only take a short lock and queue work (`call_later`,
  `put_nowait`), with no I/O that could hang; the work they hand over runs on the clock's
  thread, which is watched. There is no scanner thread of our own.

A healthy thread is either waiting for work (for as long as the table is idle) or inside one
piece of work for less than `stuck_after_s`. Each watched thread keeps a `Progress` mark: it
says when it takes up a piece of work and when it goes back to waiting, and the mark records
how the thread ended. `Liveness` samples the marks on its own (injected) clock: a piece of work
it sees in hand for `stuck_after_s` is stuck, whatever the thread's own sense of time. Time the
loop itself did not look is not held against a thread: after a gap between two samples longer
than the bound (the whole process held up, say by a stalled SD card), every piece of work in
hand is timed afresh, since the thread may not have had a chance to run either.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

log = logging.getLogger(__name__)

STUCK_AFTER_S = 5.0
"""No piece of work of a watched thread takes this long when the hardware works: a matrix scan
takes under a millisecond, a full OLED frame 92 ms at the Pi's default I2C speed. With the
service's 10 s watchdog, a stuck thread has the table restarted within about 16 s."""


class Progress:
    """The progress mark of one worker thread, kept by the thread itself.

    The thread is started with `start`; it calls `working` as it takes up a piece of work and
    `waiting` as it goes back to waiting for the next. Plain attribute writes, no lock: the mark
    costs next to nothing on the clock's thread, which runs a scan every few milliseconds while
    a pad is down, and `Liveness` only needs a consistent enough sample (see `Liveness.fault`).
    """

    def __init__(self, name: str) -> None:
        self.name = name
        """The thread's name, as logs and `systemctl status` show it."""
        self._thread: threading.Thread | None = None
        self._taken = 0
        self._task: object | None = None
        self._death: BaseException | None = None

    def start(self, target: Callable[[], None]) -> threading.Thread:
        """Run `target` on a new daemon thread named after the mark, and watch that thread."""
        thread = threading.Thread(target=self._main, args=(target,), name=self.name, daemon=True)
        self._thread = thread
        thread.start()
        return thread

    def _main(self, target: Callable[[], None]) -> None:
        try:
            target()
        except BaseException as error:
            self._death = error
            # Not raised on: threading's hook would only print the same traceback again.
            log.critical("the %s thread died", self.name, exc_info=error)

    def working(self, task: object) -> None:
        """The thread takes up `task` (what it runs: named in the log if it hangs there)."""
        self._task = task
        self._taken += 1

    def waiting(self) -> None:
        """The thread goes back to waiting for work, however long that lasts."""
        self._task = None

    @property
    def thread(self) -> threading.Thread | None:
        """The watched thread, or None before `start`."""
        return self._thread

    def sample(self) -> tuple[int, object | None]:
        """How many pieces of work were taken up, and the one in hand (None while waiting)."""
        return self._taken, self._task

    def ended(self) -> str | None:
        """Why the started thread is no longer running, or None while it runs (or never
        started: a thread started on first use has had nothing to do yet)."""
        thread = self._thread
        if thread is None or thread.is_alive():
            return None
        death = self._death
        if death is None:
            return "has stopped"
        return f"died: {type(death).__name__}: {death}"


@dataclass
class _Seen:
    taken: int
    since: float


class Liveness:
    """The registry of the threads the table needs; `fault` says whether one has failed.

    Call `fault` from one thread (the game loop). Once a fault is found it stays: a thread that
    died does not come back, and one stuck that long has already cost the table its inputs or
    its screen, so the table is to be restarted rather than trusted again.
    """

    def __init__(
        self,
        marks: Iterable[Progress],
        *,
        stuck_after_s: float = STUCK_AFTER_S,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        if not stuck_after_s > 0:
            raise ValueError(f"stuck_after_s must be more than 0, not {stuck_after_s}")
        self.marks = tuple(marks)
        self._stuck_after_s = stuck_after_s
        self._monotonic = monotonic
        self._seen: dict[str, _Seen] = {}
        self._last_look: float | None = None
        self._fault: str | None = None

    def fault(self) -> str | None:
        """The first failed thread and why (`the clock thread died: …`), or None while every
        watched thread is alive and either waiting or not stuck in one piece of work."""
        if self._fault is None:
            now = self._monotonic()
            if self._last_look is not None and now - self._last_look > self._stuck_after_s:
                self._seen.clear()
            self._last_look = now
            for mark in self.marks:
                found = self._check(mark, now)
                if found is not None:
                    self._fault = f"the {mark.name} thread {found}"
                    break
        return self._fault

    def _check(self, mark: Progress, now: float) -> str | None:
        ended = mark.ended()
        if ended is not None:
            return ended
        taken, task = mark.sample()
        if task is None:
            self._seen.pop(mark.name, None)
            return None
        seen = self._seen.get(mark.name)
        if seen is None or seen.taken != taken:
            # The count read may be one behind the task read: at worst the stuck time starts
            # one sample late.
            self._seen[mark.name] = _Seen(taken, now)
            return None
        held_s = now - seen.since
        if held_s < self._stuck_after_s:
            return None
        return f"is stuck: {held_s:.1f} s in {_describe(task)}"


def _describe(task: object) -> str:
    if isinstance(task, str):
        return task
    name = getattr(task, "__qualname__", None)
    return name if isinstance(name, str) else repr(task)
