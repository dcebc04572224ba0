"""The menu's footer says what a push does on each line, in each language, as the OLED shows it.

A line with a value says that a push changes it; an action line (last actions, new match, pad
test, exit) says what the push does there instead.
"""

from dataclasses import replace

import pytest

from firmware.table.i18n import LANGUAGES, translations
from firmware.table.menu import ITEMS, MenuItem
from firmware.table.oled_render import render_screen
from firmware.table.settings import TableSettings
from firmware.virtual.table import VirtualTable

from ..conftest import TableFactory
from ..table_scripts import STILL

SET = {
    "en": "Turn: move · Push: set",
    "es": "Gira: elige · Pulsa: cambia",
    "pt": "Rodar: ir · Premir: mudar",
    "it": "Gira: muovi · Premi: cambia",
}
ACTIONS = {
    MenuItem.LAST_ACTIONS: {
        "en": "Turn: move · Push: show",
        "es": "Gira: elige · Pulsa: ver",
        "pt": "Rodar: ir · Premir: ver",
        "it": "Gira: muovi · Premi: vedi",
    },
    MenuItem.NEW_MATCH: {
        "en": "Turn: move · Push: begin",
        "es": "Gira: elige · Pulsa: iniciar",
        "pt": "Rodar: ir · Premir: iniciar",
        "it": "Gira: muovi · Premi: inizia",
    },
    MenuItem.PAD_TEST: {
        "en": "Turn: move · Push: start",
        "es": "Gira: elige · Pulsa: abrir",
        "pt": "Rodar: ir · Premir: testar",
        "it": "Gira: muovi · Premi: prova",
    },
    MenuItem.EXIT: {
        "en": "Turn: move · Push: leave",
        "es": "Gira: elige · Pulsa: salir",
        "pt": "Rodar: ir · Premir: sair",
        "it": "Gira: muovi · Premi: esci",
    },
}


def footer(vt: VirtualTable) -> str:
    """The footer of the screen the display last drew."""
    screen = vt.display.screen
    assert screen is not None and screen.footer is not None
    return screen.footer


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_menu_line_has_the_footer_of_what_its_push_does(
    virtual_table: TableFactory, language: str
) -> None:
    config = replace(STILL, settings=TableSettings(language=language))
    with virtual_table(config=config) as vt:
        catalog = translations(language)
        vt.push(hold_s=1.2)  # the menu opens on its first line
        seen = {}
        for number, item in enumerate(ITEMS):
            if number:
                vt.turn(1)
            screen = vt.display.screen
            assert screen is not None
            (arrowed,) = (line for line in screen.lines if line.startswith("→ "))
            assert arrowed[2:].startswith(catalog.gettext(item.value))
            seen[item] = footer(vt)
            # Drawn on the chip: the screen with this footer is what the OLED's memory holds.
            assert vt.chip.to_image().tobytes() == render_screen(screen).tobytes()
    expected = {
        item: ACTIONS[item][language] if item in ACTIONS else SET[language] for item in ITEMS
    }
    assert seen == expected
