"""The hand-over from paho's thread to the view's loop: the latest payload per topic, bounded.

paho's thread only stores a message under its topic (a newer one replaces it: a view shows a
table as it is now) and says whether the loop must be woken; the loop takes everything stored in
one go. So a flood costs the loop one pass per wake-up over at most `limit` topics, never one
redraw per message, and paho's thread never waits for the view (a view that blocked it would
also block its pings and its reconnection). What does not fit is dropped and counted: messages
of tables beyond `max_tables`, and the body of one larger than `max_payload`, of which only the
size is kept for the view to say.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Final

KINDS_PER_TABLE: Final = 4
"""Topics a table publishes on (`status`, `game`, `health`, `events`)."""


@dataclass(frozen=True)
class Delivery:
    """One topic's latest message: its payload (empty when it was too large) and its size."""

    topic: str
    payload: bytes
    size: int


class Inbox:
    """Messages waiting for the view's loop; `put` on paho's thread, `take` on the loop."""

    def __init__(self, max_tables: int, max_payload: int) -> None:
        self.max_tables = max_tables
        self.max_payload = max_payload
        self._lock = threading.Lock()
        self._pending: dict[str, Delivery] = {}
        self._tables: set[str] = set()
        self.dropped = 0
        """Messages never handed over: their table was one too many (read on the loop)."""

    def put(self, topic: str, payload: bytes) -> bool:
        """Keep `topic`'s latest message; True when the loop must be woken to take it (the
        first message since its last `take`)."""
        parts = topic.split("/")
        table = parts[1] if len(parts) == 3 else ""
        kept = payload if len(payload) <= self.max_payload else b""
        with self._lock:
            if table not in self._tables:
                if len(self._tables) >= self.max_tables:
                    self.dropped += 1
                    return False
                self._tables.add(table)
            if not payload:  # an empty retained message: the table is leaving
                self._tables.discard(table)
            wake = not self._pending
            self._pending[topic] = Delivery(topic, kept, len(payload))
            if len(self._pending) > self.max_tables * KINDS_PER_TABLE:
                # Topics of kinds no table publishes, under ids kept: the oldest goes.
                del self._pending[next(iter(self._pending))]
                self.dropped += 1
            return wake

    def take(self) -> list[Delivery]:
        """Everything waiting, oldest topic first; the inbox is empty after."""
        with self._lock:
            taken = list(self._pending.values())
            self._pending.clear()
        return taken

    def forget(self, table: str) -> None:
        """`table` has left the view: its place may go to another."""
        with self._lock:
            self._tables.discard(table)
