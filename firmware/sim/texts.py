"""The simulation window's own texts (panel titles, key help, the input line, the size and quit
messages), in the table's language.

They are in the table's catalogs (`firmware/table/locale/*/LC_MESSAGES/table.po`, compiled by
`make translations`) under the context `sim`: that marks them as the terminal's, which the
catalog's tests do not hold to the OLED's width and glyphs. The window follows the language the
table shows, so changing it in the menu changes both at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from gettext import GNUTranslations
from typing import Final

from firmware.drivers.events import (
    ButtonReleased,
    EncoderHeld,
    InputEvent,
    LedSupplyChanged,
    PadReleased,
)
from firmware.table import screen_texts as m
from firmware.table.i18n import NC_, translated
from firmware.table.store_faults import SaveFault

CONTEXT: Final = "sim"
"""The catalogs' context of every text here."""


CARDS = NC_("sim", "Cards")
LED_KEY = NC_("sim", "LED key")
OLED = NC_("sim", "OLED")
CONSOLE = NC_("sim", "Console")
LONG_PRESS = NC_("sim", "Shift+key, or mouse held: long press")
CARD_PROMPT = NC_("sim", "Card: type c3 ⏎")
CARD_TYPED = NC_("sim", "Card: {entry}▏ ⏎ presses it")
UNKNOWN_KEY = NC_("sim", "{key} does nothing: see the keys below")
INPUT = NC_("sim", "Input: {events}")
NO_INPUT = NC_("sim", "none yet")
RELEASED = NC_("sim", "{switch} released")
KNOB_HELD = NC_("sim", "Knob held")
LED_POWER_OFF = NC_("sim", "LED power off")
LED_POWER_BACK = NC_("sim", "LED power back")
SPYMASTER_VIEW = NC_("sim", "spymaster view")
TOO_SMALL = NC_(
    "sim",
    "The table needs a window of {needed} characters; this one is {width} × {height}.\n"
    "Enlarge it (or make the font smaller) and the table comes back. q quits; the game stays "
    "saved.",
)
QUIT_UNSAVED = NC_(
    "sim",
    "{not_saving}. Quitting now loses what was not saved: press q again to quit anyway.",
)
SAVED_IN = NC_(
    "sim",
    "The game is saved in {folder}; it goes on when the simulation starts again with that "
    "state directory.",
)
NOT_SAVED = NC_(
    "sim",
    "{not_saving}. What was played since saving failed is lost. State directory: {folder}",
)
NO_WORD_LIST = NC_("sim", "No word list for {language}: {error}")

PANEL_TITLES: Final = {
    "cards-panel": CARDS,
    "led-panel": LED_KEY,
    "oled-panel": OLED,
    "console-panel": CONSOLE,
}
"""The title of each panel of the window, by its id."""

# The footer's keys.
CARD_KEY = NC_("sim", "card")
ENCODER = NC_("sim", "encoder")
ENCODER_DOWN = NC_("sim", "encoder −")
ENCODER_UP = NC_("sim", "encoder +")
PUSH = NC_("sim", "push")
MENU = NC_("sim", "menu")
HOLD = NC_("sim", "hold {button}")
SPYMASTER = NC_("sim", "spymaster")
LED_POWER = NC_("sim", "LED power")
"""The key that cuts the LED key's supply, or brings it back."""
QUIT = NC_("sim", "quit")


def sim_text(catalog: GNUTranslations, message: str, **fields: object) -> str:
    """`message` of this module in `catalog`'s language, its placeholders filled with `fields`."""
    return translated(catalog, message, CONTEXT, **fields)


def event_text(catalog: GNUTranslations, event: InputEvent) -> str:
    """An input as the input line names it: as the pad test does, and a release too."""
    if isinstance(event, PadReleased):
        return sim_text(catalog, RELEASED, switch=m.switch_name(event.coord))
    if isinstance(event, ButtonReleased):
        return sim_text(catalog, RELEASED, switch=m.switch_name(event.button))
    if isinstance(event, EncoderHeld):
        return sim_text(catalog, KNOB_HELD)
    if isinstance(event, LedSupplyChanged):
        return sim_text(catalog, LED_POWER_BACK if event.present else LED_POWER_OFF)
    line = m.pad_test_line(catalog, event)
    return str(event) if line is None else line


def input_line(catalog: GNUTranslations, recent: Iterable[InputEvent]) -> str:
    """The input line: the latest inputs, newest first."""
    shown = " · ".join(event_text(catalog, event) for event in recent)
    return sim_text(catalog, INPUT, events=shown or sim_text(catalog, NO_INPUT))


def not_saving_line(catalog: GNUTranslations, fault: SaveFault | None) -> str | None:
    """Why games are not saved, in the words of the OLED's footer; None while they are."""
    return None if fault is None else catalog.gettext(m.NOT_SAVING[fault])


def entry_line(catalog: GNUTranslations, entry: str) -> str:
    """The line of the card coordinate typed so far (`entry`), or how to type one."""
    return sim_text(catalog, CARD_TYPED, entry=entry) if entry else sim_text(catalog, CARD_PROMPT)
