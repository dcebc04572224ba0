"""The OLED's worker: always draws the latest screen, never holding up the game loop.

A full frame can take 92 ms on the Pi's default I2C speed and a loose wire makes writes fail;
the game thread only hands over the newest `OledScreen` and goes on. `DisplayWorker` draws on its
own thread (the Pi); `ImmediateDisplay` draws at once, for headless scripts and tests, where
the same screens must come out in the same order every time.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import partial
from typing import Protocol

from PIL import Image

from firmware.drivers.liveness import Progress
from firmware.table.oled_render import render_screen
from firmware.table.screens import OledScreen

log = logging.getLogger(__name__)


class Panel(Protocol):
    """What the worker draws on: `firmware.drivers.oled.Oled`."""

    def show(self, image: Image.Image) -> None: ...

    def set_dimmed(self, dimmed: bool) -> None: ...


class ImmediateDisplay:
    """Renders and sends each screen on the caller's thread; skips a screen already shown."""

    def __init__(
        self,
        oled: Panel,
        render: Callable[[OledScreen], Image.Image] = render_screen,
    ) -> None:
        self._oled = oled
        self._render = render
        self.screen: OledScreen | None = None
        """The screen last handed over."""

    def show(self, screen: OledScreen) -> None:
        if screen != self.screen:
            self.screen = screen
            self._oled.show(self._render(screen))

    def set_dimmed(self, dimmed: bool) -> None:
        self._oled.set_dimmed(dimmed)

    def close(self) -> None:
        """Nothing to stop; here for symmetry with `DisplayWorker`."""


class DisplayWorker:
    """Renders and sends screens on its own thread; screens handed over while it is busy are
    replaced by the newest, so a slow bus never builds a backlog."""

    def __init__(
        self,
        oled: Panel,
        render: Callable[[OledScreen], Image.Image] = render_screen,
    ) -> None:
        self._oled = oled
        self._render = render
        self._wake = threading.Condition()
        self._latest: OledScreen | None = None
        self._drawn: OledScreen | None = None
        self._tasks: list[Callable[[], None]] = []
        self._busy = False
        self._closed = False
        self.progress = Progress("display")
        """The worker thread's progress mark (`firmware.drivers.liveness`): a draw that hangs on the
        bus, or a worker that died, stops the watchdog's heartbeats."""
        self._thread = self.progress.start(self._run)

    @property
    def screen(self) -> OledScreen | None:
        """The screen last handed over."""
        return self._latest

    def show(self, screen: OledScreen) -> None:
        with self._wake:
            # Most events leave the screen as it was (a card's release, a tick with nothing
            # due): waking the worker only to find that out costs more than the comparison.
            if screen == self._latest:
                return
            self._latest = screen
            self._wake.notify()

    def set_dimmed(self, dimmed: bool) -> None:
        # On the worker like every other transfer: the game thread never waits for the bus.
        self.run_soon(lambda: self._oled.set_dimmed(dimmed))

    def run_soon(self, task: Callable[[], None]) -> None:
        """Run `task` on the worker's thread (the OLED's own timed redraws go through here)."""
        with self._wake:
            self._tasks.append(task)
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._closed and not self._tasks and self._latest == self._drawn:
                    self._wake.wait()
                if self._closed:
                    return
                tasks, self._tasks = self._tasks, []
                screen = self._latest
                self._busy = True
            for task in tasks:
                self.progress.working(task)
                _survive(task)
            if screen is not None and screen != self._drawn:
                self.progress.working(self._draw)
                _survive(partial(self._draw, screen))
            with self._wake:
                # Under the lock, with `_busy`: once `wait_idle` sees the worker idle, so does
                # the mark.
                self.progress.waiting()
                self._drawn = screen
                self._busy = False
                self._wake.notify_all()

    def _draw(self, screen: OledScreen) -> None:
        self._oled.show(self._render(screen))

    def wait_idle(self, timeout: float) -> bool:
        """Wait until the latest screen is drawn and no task waits (tests and benchmarks);
        True if that happened in time."""
        with self._wake:
            return self._wake.wait_for(
                lambda: not self._busy and not self._tasks and self._drawn == self._latest,
                timeout,
            )

    def close(self) -> None:
        """Stop the thread; idempotent."""
        with self._wake:
            self._closed = True
            self._wake.notify()
        self._thread.join()

    def __enter__(self) -> DisplayWorker:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _survive(work: Callable[[], None]) -> None:
    # The OLED never raises for the bus; anything else is a bug, which must not leave the
    # screen frozen for the rest of the evening.
    try:
        work()
    except Exception:
        log.exception("the display worker failed; it goes on with the next screen")
