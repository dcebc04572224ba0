"""Every text the OLED draws, in every language, whole in the place the layout gives it.

Two sweeps, each with the table's own font:

- every screen the table composes (the golden screens; each game state with every fault, with and
  without the sand timer at its widest seconds; every notice; the menu at every line with every
  value; last actions of every kind on every card; the pad test and the self-test on every
  switch) is laid out by `oled_render.layout`, and no text may be shortened, nor come within
  `MIN_SPARE` pixels of it;
- every OLED text of each catalog, its placeholders filled with their widest values, must fit a
  full line with `MIN_SPARE` to spare: a text added to the catalogs is held to this without
  being named here.

Each sweep is also run on a catalog with one text made too long, and must catch it.
"""

from __future__ import annotations

import functools
import gettext
import re
from collections.abc import Iterable, Iterator
from dataclasses import replace

import pytest
from babel.messages.catalog import Catalog

from board_rules.codenames import (
    UNLIMITED,
    Coord,
    Game,
    GameState,
    Identity,
    Mode,
    Phase,
    Reason,
    Team,
    Undo,
)
from firmware.cafe.texts import CONTEXT as CAFE_CONTEXT
from firmware.drivers.events import (
    ButtonHeld,
    ButtonPressed,
    ConsoleButton,
    EncoderPushed,
    EncoderTurned,
    InputEvent,
    MultiplePads,
    PadPressed,
    PadStuck,
)
from firmware.drivers.led_strip import LedFault
from firmware.sim.texts import CONTEXT as SIM_CONTEXT
from firmware.table import screen_texts as m
from firmware.table.controls import FIRST_SELECTOR
from firmware.table.font import DEFAULT_FONT
from firmware.table.i18n import LANGUAGES, translations
from firmware.table.last_actions import last_actions_view
from firmware.table.menu import ITEMS, PALETTES, Menu, MenuItem
from firmware.table.oled_render import FOOTER_TOP, LINE_ROOM, layout, seconds_text
from firmware.table.screens import OledScreen, TableView, compose
from firmware.table.settings import BRIGHTNESS_LEVELS, TIMER_CHOICES, TableSettings
from firmware.table.store_faults import SaveFault
from tests.oled_screens import SCREENS
from tests.rules_helpers import new_game, play

from .test_i18n import PLACEHOLDER, catalog, texts

MIN_SPARE = 2
"""Pixels every text must leave in its place: a glyph redrawn a pixel wider must not cut it."""

CARDS = tuple(str(Coord.from_index(index)) for index in range(25))
BUTTONS = tuple(m.switch_name(button) for button in ConsoleButton)


def widest(values: Iterable[object]) -> str:
    """The value drawn widest by the table's font."""
    return max((str(value) for value in values), key=DEFAULT_FONT.text_width)


WIDEST_SECONDS = max(
    range(max(TIMER_CHOICES) + 1), key=lambda s: DEFAULT_FONT.text_width(seconds_text(s))
)
PLACEHOLDER_VALUES = {
    "n": widest(range(11)),  # guesses left: up to a clue of 9 and its extra guess
    "card": widest(CARDS),
    "number": widest([*map(m.clue_text, range(10)), m.clue_text(UNLIMITED)]),
    "red": widest(range(100)),  # agents left, or games won in a match (two digits)
    "blue": widest(range(100)),
    "own": widest(range(10)),
    "enemy": widest(range(10)),
    "score": widest(range(1, 9)),
    "switch": widest(CARDS + BUTTONS),
    "steps": widest(f"{steps:+d}" for steps in range(-9, 10)),
}
"""The widest value each placeholder of an OLED text takes on the table."""


def crowded(screens: Iterable[OledScreen]) -> list[str]:
    """Each text of `screens` the layout shortens, or leaves less than `MIN_SPARE` pixels."""
    found: dict[str, None] = {}
    for screen in set(screens):
        for placed in layout(screen):
            room, spare = placed.room, placed.spare
            if placed.top == FOOTER_TOP and not placed.own_width:
                # A footer too long for the room beside the seconds moves them up: its whole
                # line is what it must fit.
                spare += LINE_ROOM - room
                room = LINE_ROOM
            # The seconds and the selector's number get a room of their own width.
            if spare < (0 if placed.own_width else MIN_SPARE):
                found[f"{placed.text!r}: {spare} px to spare of {room}"] = None
    return sorted(found)


# --- Every screen the table composes ----------------------------------------------------------

RED_WORDS = ("A1", "B1", "C1", "D1", "E1", "A2", "B2", "C2", "D2")
BLUE_WORDS = ("E2", "A3", "B3", "C3", "D3", "E3", "A4", "B4")
BLUE_TURN = ("clue 1", "touch C4")
"""Red's turn ends on a bystander: blue's turn (or the enemy's cover, in co-op)."""


def _game(*lines: str, mode: Mode = Mode.STANDARD) -> Game:
    game = new_game(mode)
    play(game, *lines)
    return game


def _states() -> Iterator[GameState]:
    """A state of every phase, each team acting, both modes, and every way a game ends."""
    for prefix in ((), BLUE_TURN):
        for clue in ("0", "9", "unlimited"):
            yield _game(*prefix, f"clue {clue}").state
        yield _game(*prefix).state
    yield _game("clue 1", "touch A1").state  # the extra guess
    yield _game("clue 2", "touch A1", "penalty").state
    yield _game(*BLUE_TURN, "clue 2", "touch E2", "penalty").state
    yield _game("clue unlimited", *(f"touch {card}" for card in RED_WORDS)).state
    yield _game("clue 1", "touch E5").state
    yield _game(*BLUE_TURN, "clue 1", "touch E5").state
    yield _game(mode=Mode.COOP).state
    yield _game(*BLUE_TURN, mode=Mode.COOP).state
    yield _game("clue 1", "touch E5", mode=Mode.COOP).state
    won = _game("clue unlimited", *(f"touch {card}" for card in RED_WORDS), mode=Mode.COOP).state
    for card in BLUE_WORDS[:-1]:  # every co-op score, 8 down to 1
        yield won
        won = won.cover(Coord.parse(card))
    enemy_faster = (
        line
        for turn in range(4)
        for line in ("clue 1", f"touch {BLUE_WORDS[2 * turn]}", f"cover {BLUE_WORDS[2 * turn + 1]}")
    )
    yield _game(*enemy_faster, mode=Mode.COOP).state


@functools.cache
def _acted_games() -> tuple[Game, ...]:
    """Games whose actions make every kind of last-action line, for each team and card."""
    return tuple(_acting())


def _acting() -> Iterator[Game]:
    for prefix in ((), BLUE_TURN):
        yield from (_game(*prefix, f"clue {n}", "undo") for n in ("9", "unlimited"))
        for card in CARDS:
            if card not in prefix[-1:] and f"touch {card}" not in prefix:
                yield _game(*prefix, "clue 9", f"touch {card}", "undo")
                yield _game(*prefix, "clue 9", f"touch {card}")
        guessed = "touch E2" if prefix else "touch A1"
        yield _game(*prefix, "clue 2", guessed, "done", "undo")
        yield _game(*prefix, "clue 2", guessed, "timeout", "undo")
        enemies = RED_WORDS if prefix else BLUE_WORDS
        for card in enemies:
            yield _game(*prefix, "clue 2", guessed, "penalty", f"cover {card}", "undo")
    for card in BLUE_WORDS:
        yield _game(*BLUE_TURN, f"cover {card}", mode=Mode.COOP)


def _notices(catalog_: gettext.GNUTranslations) -> Iterator[tuple[str, ...]]:
    """Every notice the game loop posts, translated, cards and buttons of every name."""
    _ = catalog_.gettext
    yield from ((_(m.REASONS[reason]),) for reason in Reason)
    for identity in Identity:
        for outcome in (m.GUESS_AGAIN, m.TURN_OVER):
            yield _(m.IDENTITY_NAMES[identity]), _(outcome)
    for notice in (
        (m.TWO_CARDS, m.PRESS_ONE),
        m.TIMER_OFF_NOTICE,
        (m.TIME_UP, m.TURN_OVER),
        (m.TIME_UP,),
        (m.TIMER_PAUSED,),
        (m.NEW_GAME,),
        (m.UNDONE_NEW_GAME,),
        (m.NEW_MATCH, m.FROM_NEXT_GAME),
        (m.NEW_MATCH,),
    ):
        yield tuple(map(_, notice))
    yield from ((m.stuck_line(catalog_, card),) for card in CARDS)
    yield from ((m.hold_line(catalog_, button),) for button in BUTTONS)
    # What an undo takes back: every action those games play.
    played = {action for game in _acted_games() for action in game.applied}
    yield from sorted({m.undone_lines(catalog_, a) for a in played if not isinstance(a, Undo)})


def game_screens(catalog_: gettext.GNUTranslations) -> Iterator[OledScreen]:
    """Each state with every fault, each notice with and without one; each with and without
    the running timer."""
    faults: list[dict[str, object]] = [{}, {"input_fault": True}]
    faults += [{"not_saving": fault} for fault in SaveFault]
    faults += [{"led_fault": fault} for fault in LedFault]
    timers: list[dict[str, object]] = [{}, {"timer_left": 0.5, "timer_seconds": WIDEST_SECONDS}]
    views = []
    for state in _states():
        dialling = state.phase in (Phase.CLUE, Phase.PENALTY_COVER)
        for selector in (FIRST_SELECTOR, 9, UNLIMITED) if dialling else (FIRST_SELECTOR,):
            views += [replace(TableView(state, selector), **fault) for fault in faults]  # type: ignore[arg-type]
        if state.phase in (Phase.PENALTY_COVER, Phase.ENEMY_COVER):
            # The card chosen for the cover, of every name; the lost penalty cover.
            chosen = [TableView(state, UNLIMITED, cover_card=Coord.parse(card)) for card in CARDS]
            chosen.append(TableView(state, UNLIMITED, cover_lost=True))
            views += [replace(view, **fault) for view in chosen for fault in faults]  # type: ignore[arg-type]
    views += [replace(view, match=(99, 99)) for view in views if view.state.is_over]
    start = new_game().state
    for notice in _notices(catalog_):
        views += [replace(TableView(start, FIRST_SELECTOR, notice), **f) for f in faults[:2]]  # type: ignore[arg-type]
    for view in views:
        yield from (compose(replace(view, **timer), catalog_) for timer in timers)  # type: ignore[arg-type]


def menu_screens(catalog_: gettext.GNUTranslations) -> Iterator[OledScreen]:
    """The menu at every line, with every value of every setting, in and out of a co-op game."""
    start = TableView(new_game().state, FIRST_SELECTOR)
    values: list[dict[str, object]] = [{"mode": mode} for mode in Mode]
    values += [{"language": language} for language in LANGUAGES]
    values += [{"brightness": level} for level in BRIGHTNESS_LEVELS]
    values += [{"colour_blind": team} for team in PALETTES]
    values += [{"timer_s": seconds} for seconds in TIMER_CHOICES]
    values += [{"timer_autostart": on, "strict": on} for on in (False, True)]
    for value in values:
        settings = replace(TableSettings(), **value)  # type: ignore[arg-type]
        for playing in Mode:
            for index in range(len(ITEMS)):
                menu = Menu(index).view(settings, catalog_, playing)
                yield compose(replace(start, menu=menu), catalog_)


def last_actions_screens(catalog_: gettext.GNUTranslations) -> Iterator[OledScreen]:
    """Every line of last actions, each marked in turn; and the list of a game not begun."""
    start = TableView(new_game().state, FIRST_SELECTOR)
    for game in (*_acted_games(), new_game()):
        for index in range(max(len(game.applied), 1)):
            view = last_actions_view(game, index, catalog_)
            yield compose(replace(start, menu=view), catalog_)


def _inputs() -> Iterator[InputEvent]:
    for card in CARDS:
        yield PadPressed(Coord.parse(card), 0.0)
        yield PadStuck(Coord.parse(card), 0.0)
    # Pressed together: the widest pair and three, as a hand on the grid presses them.
    yield MultiplePads(tuple(Coord.parse(card) for card in ("D4", "D5")), 0.0)
    yield MultiplePads(tuple(Coord.parse(card) for card in ("C4", "D4", "D5")), 0.0)
    for button in ConsoleButton:
        yield ButtonPressed(button, 0.0)
        yield ButtonHeld(button, 0.0)
    yield from (EncoderTurned(steps, 0.0) for steps in range(-9, 10) if steps)
    yield EncoderPushed(0.0)


def pad_and_self_test_screens(catalog_: gettext.GNUTranslations) -> Iterator[OledScreen]:
    """The pad test on every input, and the self-test's requests for every switch."""
    start = new_game().state
    for event in _inputs():
        line = m.pad_test_line(catalog_, event) or ""
        yield compose(TableView(start, FIRST_SELECTOR, pad_test=line), catalog_)
    _ = catalog_.gettext
    requests: list[tuple[str, ...]] = [(m.press_line(catalog_, s),) for s in CARDS + BUTTONS]
    requests += [(_(m.LED_CHECK),), (_(m.TURN_CLOCKWISE),), (_(m.PUSH_ENCODER),)]
    requests += [(_(m.ALL_WORKING),), (_(m.FAULTS_FOUND), _(m.SEE_TERMINAL))]
    yield from (OledScreen(title=_(m.SELF_TEST), lines=lines) for lines in requests)


def every_screen(catalog_: gettext.GNUTranslations, language: str) -> Iterator[OledScreen]:
    """Every screen the table composes, in the language of `catalog_`."""
    yield from (screen(catalog_, language) for screen in SCREENS.values())
    yield from game_screens(catalog_)
    yield from menu_screens(catalog_)
    yield from last_actions_screens(catalog_)
    yield from pad_and_self_test_screens(catalog_)


class OneTextChanged(gettext.GNUTranslations):
    """`catalog_` with one text replaced: a translator's edit, without touching the files."""

    def __init__(self, catalog_: gettext.GNUTranslations, message: str, text: str) -> None:
        super().__init__()
        self._base, self._message, self._text = catalog_, message, text

    def gettext(self, message: str) -> str:
        return self._text if message == self._message else self._base.gettext(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self._base.ngettext(msgid1, msgid2, n)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_text_is_whole_in_its_place(language: str) -> None:
    assert crowded(every_screen(translations(language), language)) == []


@pytest.mark.parametrize(
    ("message", "text"),
    [
        (m.NOT_SAVING[SaveFault.FULL], "Sin guardar: el disco está lleno del todo"),
        (MenuItem.AUTOSTART.value, "Reloj automático de arena"),
        (m.ACTED_COVER[Team.RED], "Rojo: cubre de nuevo {card}"),
        (m.CLUE_LABEL, "la pista dada"),
    ],
)
def test_a_text_too_long_for_its_place_is_caught(message: str, text: str) -> None:
    # A fault's footer, a menu line with its value, a last-actions line, a label under a number.
    catalog_ = OneTextChanged(translations("es"), message, text)
    found = crowded(every_screen(catalog_, "es"))
    assert found and all(text.partition("{")[0] in line for line in found), found


# --- Every OLED text of the catalogs ----------------------------------------------------------


def oled_texts(po: Catalog) -> Iterator[tuple[str, str]]:
    """Each OLED text of a catalog (every plural form), its placeholders at their widest."""
    for message in po:
        if not message.id or message.context in (SIM_CONTEXT, CAFE_CONTEXT):
            continue  # the simulation window's and the café's texts are not the OLED's
        for text in texts(message):
            names = set(PLACEHOLDER.findall(text))
            unknown = names - PLACEHOLDER_VALUES.keys()
            assert not unknown, f"{text!r}: give the widest value of {unknown} on the table"
            yield text, PLACEHOLDER.sub(lambda match: PLACEHOLDER_VALUES[match.group(1)], text)


def too_wide(po: Catalog) -> list[str]:
    """The OLED texts of `po` that leave less than `MIN_SPARE` pixels of a full line."""
    return [
        f"{text!r}: {LINE_ROOM - DEFAULT_FONT.text_width(filled)} px to spare of {LINE_ROOM}"
        for text, filled in oled_texts(po)
        if DEFAULT_FONT.text_width(filled) > LINE_ROOM - MIN_SPARE
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_oled_text_of_the_catalog_fits_a_line_with_room_to_spare(language: str) -> None:
    assert too_wide(catalog(language)) == []


def test_a_catalog_text_too_long_for_a_line_is_caught() -> None:
    po = catalog("it")
    po["Nothing to undo"].string = "Non c'è proprio niente da annullare"
    found = too_wide(po)
    assert len(found) == 1 and "Non c'è proprio niente da annullare" in found[0], found


def test_a_placeholder_without_a_widest_value_is_caught() -> None:
    po = catalog("pt")
    po.add("Table {table}", "Mesa {table}")
    with pytest.raises(AssertionError, match=re.escape("widest value of {'table'}")):
        too_wide(po)
