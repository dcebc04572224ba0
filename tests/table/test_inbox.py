"""The game thread's inbox: a pad's release waits, unannounced, for the thread's next wake-up,
and nothing comes out of order."""

from __future__ import annotations

import threading

from board_rules.codenames.grid import Coord
from firmware.drivers.events import (
    ButtonReleased,
    ConsoleButton,
    PadPressed,
    PadReleased,
)
from firmware.table.inbox import Inbox

C3 = Coord.parse("C3")


class CountingCondition(threading.Condition):
    """A condition that counts the wake-ups it is asked for."""

    def __init__(self, lock: threading.Lock) -> None:
        super().__init__(lock)
        self.notified = 0

    def notify(self, n: int = 1) -> None:
        self.notified += 1
        super().notify(n)


def counted(inbox: Inbox[object]) -> CountingCondition:
    condition = CountingCondition(inbox.mutex)
    inbox.not_empty = condition
    return condition


def test_a_pad_release_is_queued_without_waking_the_thread() -> None:
    inbox: Inbox[object] = Inbox()
    condition = counted(inbox)
    inbox.put_nowait(PadReleased(C3, 1.0, 0.2))
    assert condition.notified == 0
    assert inbox.qsize() == 1


def test_every_other_event_wakes_the_thread() -> None:
    inbox: Inbox[object] = Inbox()
    condition = counted(inbox)
    inbox.put_nowait(PadPressed(C3, 1.0))
    inbox.put(ButtonReleased(ConsoleButton.TIMER, 2.0, 0.1))
    assert condition.notified == 2


def test_a_release_comes_out_before_the_event_that_wakes_the_thread() -> None:
    inbox: Inbox[object] = Inbox()
    released, pressed = PadReleased(C3, 1.0, 0.2), PadPressed(Coord.parse("A1"), 2.0)
    got: list[object] = []
    reader = threading.Thread(target=lambda: got.extend(inbox.get(timeout=60) for _ in range(2)))
    reader.start()
    inbox.put_nowait(released)
    inbox.put_nowait(pressed)
    reader.join()
    assert got == [released, pressed]


def test_a_release_alone_is_read_once_the_wait_ends() -> None:
    # The loop's heartbeat bounds the wait: a get with a timeout returns the release then.
    inbox: Inbox[object] = Inbox()
    released = PadReleased(C3, 1.0, 0.2)
    inbox.put_nowait(released)
    assert inbox.get(timeout=0.01) == released
