"""The staff menu on the OLED: turn the encoder to move, push to change a value or choose.

A long encoder push opens it. Mode, language, LED brightness, the colour-blind palette (off, or
which team's lights blink), timer length, auto timer and strict timer cycle through their values
on each push; last actions shows the game's actions, new match (the match's score starts again)
closes the menu, and pad test and exit leave it. The footer says how to use it: on a value, that
a push changes it; on an action, what a push does; on a mode that differs from the game in play,
that the mode applies from the next game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from gettext import GNUTranslations
from typing import TypeVar

from board_rules.codenames import Mode, Team
from firmware.table import screen_texts as m
from firmware.table.i18n import LANGUAGE_NAMES, LANGUAGES, N_
from firmware.table.screens import MenuView
from firmware.table.settings import BRIGHTNESS_LEVELS, TIMER_CHOICES, TableSettings


class MenuItem(Enum):
    """The menu's lines, top to bottom."""

    MODE = N_("Mode")
    LANGUAGE = N_("Language")
    BRIGHTNESS = N_("Brightness")
    COLOUR_BLIND = N_("Colour-blind")
    TIMER = N_("Timer")
    AUTOSTART = N_("Auto timer")
    STRICT = N_("Strict timer")
    LAST_ACTIONS = m.LAST_ACTIONS
    NEW_MATCH = m.NEW_MATCH
    PAD_TEST = N_("Pad test")
    EXIT = N_("Exit")


class MenuChoice(Enum):
    """What a push in the menu asks the table to do beyond changing a setting."""

    STAY = "stay"
    NEW_MATCH = "new-match"
    LAST_ACTIONS = "last-actions"
    PAD_TEST = "pad-test"
    EXIT = "exit"


ACTION_HINTS = {
    MenuItem.LAST_ACTIONS: N_("Turn: move · Push: show"),
    MenuItem.NEW_MATCH: N_("Turn: move · Push: begin"),
    MenuItem.PAD_TEST: N_("Turn: move · Push: start"),
    MenuItem.EXIT: N_("Turn: move · Push: leave"),
}
"""The footer on each line where a push acts rather than changes a value (`m.MENU_HINT`)."""

ITEMS = tuple(MenuItem)
PALETTES: tuple[Team | None, ...] = (None, Team.BLUE, Team.RED)
"""The colour-blind choices in menu order: off, then the team whose lights blink."""


T = TypeVar("T")


def _next(values: tuple[T, ...], current: T) -> T:
    index = values.index(current) if current in values else -1
    return values[(index + 1) % len(values)]


@dataclass(frozen=True)
class Menu:
    """The menu's position; the settings it edits stay with the table."""

    index: int = 0

    @property
    def item(self) -> MenuItem:
        """The highlighted line."""
        return ITEMS[self.index]

    def turned(self, steps: int) -> Menu:
        """Move the highlight, stopping at the first and last line."""
        return replace(self, index=min(max(self.index + steps, 0), len(ITEMS) - 1))

    def pushed(self, settings: TableSettings) -> tuple[TableSettings, MenuChoice]:
        """Change the highlighted setting to its next value, or choose the highlighted action."""
        item = self.item
        if item is MenuItem.PAD_TEST:
            return settings, MenuChoice.PAD_TEST
        if item is MenuItem.NEW_MATCH:
            return settings, MenuChoice.NEW_MATCH
        if item is MenuItem.LAST_ACTIONS:
            return settings, MenuChoice.LAST_ACTIONS
        if item is MenuItem.EXIT:
            return settings, MenuChoice.EXIT
        if item is MenuItem.MODE:
            mode = Mode.COOP if settings.mode is Mode.STANDARD else Mode.STANDARD
            return replace(settings, mode=mode), MenuChoice.STAY
        if item is MenuItem.LANGUAGE:
            language = _next(LANGUAGES, settings.language)
            return replace(settings, language=language), MenuChoice.STAY
        if item is MenuItem.BRIGHTNESS:
            level = _next(BRIGHTNESS_LEVELS, settings.brightness)
            return replace(settings, brightness=level), MenuChoice.STAY
        if item is MenuItem.COLOUR_BLIND:
            team = _next(PALETTES, settings.colour_blind)
            return replace(settings, colour_blind=team), MenuChoice.STAY
        if item is MenuItem.TIMER:
            seconds = _next(TIMER_CHOICES, settings.timer_s)
            return replace(settings, timer_s=seconds), MenuChoice.STAY
        if item is MenuItem.AUTOSTART:
            return replace(settings, timer_autostart=not settings.timer_autostart), MenuChoice.STAY
        return replace(settings, strict=not settings.strict), MenuChoice.STAY

    def view(self, settings: TableSettings, catalog: GNUTranslations, playing: Mode) -> MenuView:
        """The menu as the screen shows it, values included, while a game of mode `playing`
        is in play."""
        _ = catalog.gettext
        palette = settings.colour_blind
        values = {
            MenuItem.MODE: _(m.MODE_COOP if settings.mode is Mode.COOP else m.MODE_STANDARD),
            MenuItem.LANGUAGE: LANGUAGE_NAMES[settings.language],
            MenuItem.BRIGHTNESS: f"{settings.brightness}/{len(BRIGHTNESS_LEVELS)}",
            MenuItem.COLOUR_BLIND: _(m.OFF if palette is None else m.TEAM_NAMES[palette]),
            MenuItem.TIMER: f"{settings.timer_s} s" if settings.timer_s else _(m.OFF),
            MenuItem.AUTOSTART: _(m.ON if settings.timer_autostart else m.OFF),
            MenuItem.STRICT: _(m.ON if settings.strict else m.OFF),
        }
        items = tuple(
            f"{_(item.value)}: {values[item]}" if item in values else _(item.value)
            for item in ITEMS
        )
        # The game in play keeps its mode: say so while the menu shows another one.
        next_game = self.item is MenuItem.MODE and settings.mode is not playing
        hint = _(m.FROM_NEXT_GAME if next_game else ACTION_HINTS.get(self.item, m.MENU_HINT))
        return MenuView(title=_(m.MENU), items=items, index=self.index, hint=hint)
