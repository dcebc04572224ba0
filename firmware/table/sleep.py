"""Sleep and wake: after a while without input the table dims; the input that wakes it counts for
nothing else.

The waking press lasts until its button opens, whatever else happens meanwhile, so holding NEW to
wake the table never also starts a new game.
"""

from __future__ import annotations

from collections.abc import Callable

from firmware.drivers.events import (
    ButtonHeld,
    ButtonPressed,
    ButtonReleased,
    ConsoleButton,
    InputEvent,
)


class SleepWatch:
    """Whether the table sleeps, from the time of its last input.

    `schedule(delay)` asks the game loop to look again after `delay` seconds; the loop then calls
    `falls_asleep`. One check is pending at a time: inputs only move the time of the last one.
    """

    def __init__(self, after_s: float, now: float, schedule: Callable[[float], None]) -> None:
        self._after_s = after_s
        self._schedule = schedule
        self._asleep = False
        self._waking_button: ConsoleButton | None = None
        self._last_input = now
        self._check = 0.0
        self._check_at(now, self._last_input + after_s)

    @property
    def asleep(self) -> bool:
        """True while the table is dimmed for want of input."""
        return self._asleep

    def input_seen(self, now: float) -> None:
        """Any input keeps the table awake for another `after_s`."""
        self._last_input = now

    def wake(self, event: InputEvent, now: float) -> None:
        """Wake up on `event`; if it pressed a button, the rest of that press is swallowed."""
        self._asleep = False
        self._waking_button = event.button if isinstance(event, ButtonPressed) else None
        self._check_at(now, self._last_input + self._after_s)

    def rest_of_waking_press(self, event: InputEvent) -> bool:
        """True for the hold and the release of the button that woke the table: they count for
        nothing (a pad touched while NEW is still down must not let the hold of NEW count)."""
        if not isinstance(event, ButtonHeld | ButtonReleased):
            return False
        if event.button is not self._waking_button:
            return False
        if isinstance(event, ButtonReleased):
            self._waking_button = None
        return True

    def falls_asleep(self, now: float) -> bool:
        """True when the table goes to sleep at `now`; re-arms the check while it stays awake."""
        if self._asleep:
            return False
        sleep_at = self._last_input + self._after_s
        if now >= sleep_at:
            self._asleep = True
            return True
        if self._check <= now:
            self._check_at(now, sleep_at)
        return False

    def _check_at(self, now: float, at: float) -> None:
        self._check = at
        self._schedule(at - now)
