"""Python's garbage collector settled for a long-running program: what lives once a phase is over
(start-up, a game) is collected and then left out of every later collection, so that a full pass
walks only what is new and never holds the program up for long."""

from __future__ import annotations

import gc


def settle_garbage_collector() -> None:
    """Collect the garbage, then leave every object still alive out of every later collection.
    Objects left out are still freed when dropped; only reference cycles among them would stay."""
    gc.collect()
    gc.freeze()
