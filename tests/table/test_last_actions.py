"""The menu's "Last actions": the game's actions newest first in the table's words, a card's
identity told only while the card is covered."""

import random

import pytest

from board_rules.codenames import (
    ALL_COORDS,
    Action,
    Coord,
    Cover,
    Done,
    Game,
    GiveClue,
    IllegalActionError,
    Penalty,
    Timeout,
    Touch,
    Undo,
    parse_action,
)
from firmware.table import screen_texts as m
from firmware.table.font import DEFAULT_FONT
from firmware.table.i18n import LANGUAGES, translations
from firmware.table.last_actions import last_actions
from firmware.table.menu import ITEMS, MenuItem
from firmware.table.oled_render import MARGIN, WIDTH
from firmware.table.screens import compose
from firmware.virtual.table import VirtualTable

from ..conftest import TableFactory
from ..rules_helpers import KEY
from ..table_scripts import announce

EN = translations("en")
RED_CARD, BYSTANDER = Coord.parse("A1"), Coord.parse("C4")
IDENTITY_WORDS = ("agent", "bystander", "assassin")


def played(lines: list[str]) -> Game:
    game = Game(KEY)
    for line in lines:
        game.play(parse_action(line))
    return game


def test_the_actions_are_told_newest_first_with_the_team_that_acted() -> None:
    # Red: A1 is red's, C4 a bystander (undone, so open again), B1 red's; then blue.
    game = played(["clue 2", "touch A1", "touch C4", "undo", "touch B1", "done"])
    game.play(parse_action("clue unlimited"))
    game.play(parse_action("penalty"))
    game.play(parse_action("cover C1"))
    assert last_actions(game, EN) == (
        "Red: covers C1",
        "Blue: penalty",
        "Blue: clue ∞",
        "Red: stop",
        "Red: B1 red agent",
        "Undone: C4",
        "Red: C4",  # open again: its identity is not told
        "Red: A1 red agent",
        "Red: clue 2",
    )


def test_a_timeout_and_the_assassin_in_the_words_of_each_language() -> None:
    game = played(["clue 1", "timeout", "clue 1", "touch E5"])
    assert last_actions(game, EN)[:2] == ("Blue: E5 assassin", "Blue: clue 1")
    assert last_actions(game, EN)[2] == "Red: time up"
    assert last_actions(game, translations("pt"))[:3] == (
        "Azul: E5 assassino",
        "Azul: pista 1",
        "Vermelho: fim do tempo",
    )


def test_no_identity_is_ever_told_of_a_card_that_is_not_covered() -> None:
    rng = random.Random(13)
    clues: list[Action] = [GiveClue(n) for n in range(4)]
    moves = [*clues, Done(), Penalty(), Timeout(), Undo()]
    for _ in range(30):
        game = Game(KEY)
        for _ in range(60):
            coord = rng.choice(ALL_COORDS)
            action = rng.choice([*moves, Touch(coord), Touch(coord), Cover(coord)])
            try:
                game.play(action)
            except IllegalActionError:
                continue
        covered = {str(coord) for coord in game.state.covered}
        for line in last_actions(game, EN):
            if any(word in line for word in IDENTITY_WORDS):
                card = line.split()[1]
                assert card in covered, (line, game.applied)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_guess_with_its_card_fits_beside_the_arrow(language: str) -> None:
    catalog = translations(language)
    room = WIDTH - 2 * MARGIN - DEFAULT_FONT.text_width("→ ")
    for text in m.ACTED_TOUCH_SEEN.values():
        line = catalog.gettext(text).format(card="E5")
        assert DEFAULT_FONT.text_width(line) <= room, (language, line)


def screen(vt: VirtualTable) -> list[str]:
    return compose(vt.table.view(vt.clock.monotonic()), EN).text_lines


def test_the_menu_entry_scrolls_through_the_last_actions(virtual_table: TableFactory) -> None:
    with virtual_table() as vt:
        vt.push(hold_s=1.2)
        vt.turn(ITEMS.index(MenuItem.LAST_ACTIONS))
        vt.push()
        assert screen(vt)[:2] == ["Last actions", "→ Nothing played yet"]
        vt.push()  # back to play
        announce(vt)  # red: clue 2
        vt.press_pad(RED_CARD)
        vt.press_pad(BYSTANDER)
        vt.push(hold_s=1.2)
        vt.turn(ITEMS.index(MenuItem.LAST_ACTIONS))
        vt.push()
        shown = screen(vt)
        assert shown[:4] == [
            "Last actions",
            "→ Red: C4 bystander",
            "  Red: A1 red agent",
            "  Red: clue 2",
        ]
        assert shown[-1] == "Turn: scroll · Push: back"
        vt.press_pad(ALL_COORDS[12])  # the pads do nothing meanwhile
        vt.turn(5)  # stops at the oldest
        assert screen(vt)[1:4] == ["  Red: C4 bystander", "  Red: A1 red agent", "→ Red: clue 2"]
        vt.push()
        assert len(vt.table.game.applied) == 3
        assert screen(vt)[0] != "Last actions"
