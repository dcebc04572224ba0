"""What the controls do right now: play the game, edit the staff menu, or test the pads.

Each mode is a small value type and the table holds exactly one (`ControlMode`), so the menu's
position exists only while the menu is open and the pad test's last line only during the test.
A long encoder push opens the menu from play and closes whichever of the two is open.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from gettext import GNUTranslations

from firmware.drivers.events import EncoderHeld, EncoderPushed, EncoderTurned, InputEvent
from firmware.table import screen_texts as m
from firmware.table.menu import Menu, MenuChoice
from firmware.table.settings import TableSettings


@dataclass(frozen=True)
class Playing:
    """The controls play the game (`firmware.table.game_loop`)."""


PLAYING = Playing()


@dataclass(frozen=True)
class MenuOpen:
    """The staff menu is on the OLED; the encoder moves and changes, the pads do nothing."""

    menu: Menu = field(default_factory=Menu)

    def on(self, event: InputEvent, settings: TableSettings) -> tuple[ControlMode, TableSettings]:
        """The mode after `event` and the settings it leaves (changed by a push on a value)."""
        if isinstance(event, EncoderTurned):
            return MenuOpen(self.menu.turned(event.steps)), settings
        if isinstance(event, EncoderHeld):
            return PLAYING, settings
        if isinstance(event, EncoderPushed):
            changed, choice = self.menu.pushed(settings)
            if choice is MenuChoice.EXIT:
                return PLAYING, settings
            if choice is MenuChoice.PAD_TEST:
                return PadTest(), settings
            if choice is MenuChoice.NEW_MATCH:
                return NEW_MATCH_CHOSEN, settings
            if choice is MenuChoice.LAST_ACTIONS:
                return LastActions(), settings
            return self, changed
        return self, settings


@dataclass(frozen=True)
class NewMatchChosen:
    """For a moment only: the menu's "New match" was pushed; the table begins the match and
    goes back to play."""


NEW_MATCH_CHOSEN = NewMatchChosen()


@dataclass(frozen=True)
class PadTest:
    """The pad test: every input is named on the OLED instead of acting."""

    last: str = ""
    """The last input seen, as shown ("" before the first)."""

    def on(self, event: InputEvent, catalog: GNUTranslations) -> ControlMode:
        """The mode after `event`: a long encoder push ends the test."""
        if isinstance(event, EncoderHeld):
            return PLAYING
        line = m.pad_test_line(catalog, event)
        return self if line is None else PadTest(line)


@dataclass(frozen=True)
class LastActions:
    """The game's last actions on the OLED, newest first: the encoder scrolls, a push goes back
    to play; the pads and buttons do nothing."""

    index: int = 0
    """The line marked, from the newest."""

    def on(self, event: InputEvent, count: int) -> ControlMode:
        """The mode after `event`, with `count` lines to scroll through."""
        if isinstance(event, EncoderTurned):
            return LastActions(min(max(self.index + event.steps, 0), max(count - 1, 0)))
        if isinstance(event, EncoderPushed | EncoderHeld):
            return PLAYING
        return self


ControlMode = Playing | MenuOpen | PadTest | NewMatchChosen | LastActions
"""Exactly one of the table's modes."""
