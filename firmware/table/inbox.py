"""The game thread's inbox: input events, timer ticks and markers, in the order they came.

A pad's release is queued without waking the game thread. It changes nothing that anyone sees
(the menu's pad test names presses, not releases), and waking a thread costs the Pi more than
handling the release does, so it waits for the thread's next wake-up: the next input, a timer, or
the loop's heartbeat (`Table.run_forever`, once a second). Events stay in order: the release is
handled before whatever woke the thread, and `Table.caught_up` still waits for it.
"""

from __future__ import annotations

import queue
from typing import TypeVar

from firmware.drivers.events import PadReleased

Event = TypeVar("Event")


class Inbox(queue.Queue[Event]):
    """An unbounded `queue.Queue` whose `put` leaves the waiting thread asleep for a pad's
    release; every other event wakes it as usual."""

    def put(self, item: Event, block: bool = True, timeout: float | None = None) -> None:
        if not isinstance(item, PadReleased):
            super().put(item, block, timeout)
            return
        with self.mutex:
            self._put(item)
            self.unfinished_tasks += 1
