"""What the game loop tells an onlooker (the fleet's publisher, `firmware.fleet`): each input it
sees and each change of the game it accepts.

The calls come on the game thread, so an observer must return at once: it hands the news to a
thread of its own and never waits for a disk or a network.
"""

from __future__ import annotations

from typing import Protocol

from board_rules.codenames import GameState
from firmware.drivers.events import InputEvent
from firmware.table.store_faults import SaveFault


class TableObserver(Protocol):
    """Told of the table's inputs and accepted changes; must never block."""

    def seen(self, event: InputEvent) -> None:
        """An input reached the game loop (a stuck pad's report among them)."""

    def played(
        self,
        action: str,
        state: GameState,
        match: tuple[int, int],
        words: tuple[str, ...],
        not_saving: SaveFault | None,
    ) -> None:
        """`action` was accepted (or a game dealt or brought back, or a match begun): `state`
        is the game now, which still holds the key, `match` the match's wins (red, blue),
        `words` what the OLED says of it, `not_saving` why it could not be saved, if so."""
