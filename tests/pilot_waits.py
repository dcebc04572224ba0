"""Waiting on a Textual app under test for what the test means (a widget composed, a value
shown), within a bound that a loaded machine keeps: never a fixed pause."""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.pilot import Pilot

APP_WAIT_S = 30.0
"""The bound on a wait for the app, for a loaded machine."""


async def wait_until(pilot: Pilot[None], check: Callable[[], object], what: str = "it") -> None:
    """Let the app run until `check()` is true; fails, naming `what`, after `APP_WAIT_S`."""
    end = time.monotonic() + APP_WAIT_S
    while not check():
        assert time.monotonic() < end, f"the app never showed {what}"
        await pilot.pause(0.02)
