"""Every screen the table's OLED shows, by name, composed by the firmware's own code.

Game screens come from `firmware.table.screens.compose` on states reached by playing real actions
on a known key; menu screens from `firmware.table.menu.Menu.view`; notices carry the texts the
table posts for them (`firmware.table.game_loop`), self-test screens those of
`firmware.service.selftest`. `through_the_chip` sends each rendered screen down the real `Oled` to
a virtual SSD1306 and reads its RAM back, so a golden image pins what the chip holds, not only what
the renderer drew.

Golden images: `tests/golden/oled/<language>/<screen>.png`, written by
`python -m tests.make_oled_goldens` and compared by `tests/table/test_oled_goldens.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from gettext import GNUTranslations
from pathlib import Path

from PIL import Image

from board_rules.codenames import UNLIMITED, Coord, GameState, Identity, Mode, Reason, Team
from firmware.drivers.events import ButtonHeld, ConsoleButton, EncoderTurned, MultiplePads
from firmware.table import screen_texts as m
from firmware.table.controls import FIRST_SELECTOR
from firmware.table.menu import Menu
from firmware.table.oled_render import render_screen
from firmware.table.screens import OledScreen, TableView, compose
from firmware.table.settings import TableSettings
from firmware.table.store_faults import SaveFault
from tests.oled_helpers import rig
from tests.rules_helpers import new_game, play

GOLDEN_DIR = Path(__file__).with_name("golden") / "oled"

Compose = Callable[[GNUTranslations, str], OledScreen]
"""A screen in the language of the catalog (the language code is for the menu's own line)."""


def _game(*lines: str, mode: Mode = Mode.STANDARD) -> GameState:
    return play(new_game(mode), *lines)


def _view(state: GameState, **fields: object) -> Callable[[GNUTranslations, str], OledScreen]:
    view = TableView(state=state, selector=FIRST_SELECTOR)
    return lambda catalog, _language: compose(replace(view, **fields), catalog)  # type: ignore[arg-type]


def _notice(
    state: GameState, *texts: str, bar: float | None = None, seconds: int | None = None
) -> Compose:
    # As `Table._show_notice` posts them: each text translated, in order.
    def screen(catalog: GNUTranslations, _language: str) -> OledScreen:
        notice = tuple(catalog.gettext(text) for text in texts)
        view = TableView(state=state, selector=FIRST_SELECTOR, notice=notice, timer_left=bar)
        view = replace(view, timer_seconds=seconds)
        return compose(view, catalog)

    return screen


def _notice_line(state: GameState, line: Callable[[GNUTranslations], str]) -> Compose:
    def screen(catalog: GNUTranslations, _language: str) -> OledScreen:
        view = TableView(state=state, selector=FIRST_SELECTOR, notice=(line(catalog),))
        return compose(view, catalog)

    return screen


def _menu(index: int, **settings: object) -> Compose:
    def screen(catalog: GNUTranslations, language: str) -> OledScreen:
        chosen = replace(TableSettings(language=language), **settings)  # type: ignore[arg-type]
        view = TableView(state=START, selector=FIRST_SELECTOR)
        menu = Menu(index).view(chosen, catalog, START.mode)
        return compose(replace(view, menu=menu), catalog)

    return screen


def _pad_test(line: Callable[[GNUTranslations], str | None]) -> Compose:
    def screen(catalog: GNUTranslations, _language: str) -> OledScreen:
        view = TableView(state=START, selector=FIRST_SELECTOR, pad_test=line(catalog) or "")
        return compose(view, catalog)

    return screen


def _self_test(*lines: str | Callable[[GNUTranslations], str]) -> Compose:
    # As `SelfTest._say` builds them: the self-test title over its lines.
    def screen(catalog: GNUTranslations, _language: str) -> OledScreen:
        texts = tuple(
            catalog.gettext(line) if isinstance(line, str) else line(catalog) for line in lines
        )
        return OledScreen(title=catalog.gettext(m.SELF_TEST), lines=texts)

    return screen


# States on the known key of `tests.rules_helpers` (red A1–E1, A2–D2; blue E2, A3–E3, A4, B4;
# bystanders C4–E4, A5–D5; the assassin E5).
RED_WORDS = ("A1", "B1", "C1", "D1", "E1", "A2", "B2", "C2", "D2")
START = _game()
GUESSING = _game("clue 2")
COOP_BLUE_WORDS = ("E2", "A3", "B3", "C3", "D3", "E3", "A4", "B4")

SCREENS: dict[str, Compose] = {
    # The game
    "clue": _view(START),
    "clue-selector-unlimited": _view(START, selector=UNLIMITED),
    "clue-timer-bar": _view(START, timer_left=0.62, timer_seconds=75),
    "guess-3-left": _view(GUESSING),
    "guess-10-left": _view(_game("clue 9")),
    "guess-extra": _view(_game("clue 2", "touch A1", "touch B1")),
    "guess-unlimited": _view(_game("clue unlimited"), timer_left=0.25, timer_seconds=30),
    "penalty-cover": _view(_game("clue 2", "touch A1", "penalty")),
    "over-all-agents-found": _view(_game("clue unlimited", *(f"touch {w}" for w in RED_WORDS))),
    "over-assassin": _view(_game("clue 1", "touch E5")),
    # Co-op
    "coop-clue": _view(_game(mode=Mode.COOP)),
    "coop-enemy-cover": _view(_game("clue 1", "touch C4", mode=Mode.COOP)),
    "coop-won": _view(_game("clue unlimited", *(f"touch {w}" for w in RED_WORDS), mode=Mode.COOP)),
    "coop-lost-assassin": _view(_game("clue 1", "touch E5", mode=Mode.COOP)),
    "coop-lost-enemy-faster": _view(
        _game(
            *(
                line
                for turn in range(4)
                for line in (
                    "clue 1",
                    f"touch {COOP_BLUE_WORDS[2 * turn]}",
                    f"cover {COOP_BLUE_WORDS[2 * turn + 1]}",
                )
            ),
            mode=Mode.COOP,
        )
    ),
    # Notices, in place of the body
    "notice-guess-again": _notice(
        _game("clue 2", "touch A1"), m.IDENTITY_NAMES[Identity.RED], m.GUESS_AGAIN
    ),
    "notice-turn-over": _notice(
        _game("clue 2", "touch C4"), m.IDENTITY_NAMES[Identity.BYSTANDER], m.TURN_OVER
    ),
    "notice-blue-agent": _notice(
        _game("clue 2", "touch E2"), m.IDENTITY_NAMES[Identity.BLUE], m.TURN_OVER
    ),
    "notice-two-cards": _notice(GUESSING, m.TWO_CARDS, m.PRESS_ONE),
    "notice-stuck": _notice_line(GUESSING, lambda catalog: m.stuck_line(catalog, "C3")),
    "notice-hold": _notice_line(
        GUESSING, lambda catalog: m.hold_line(catalog, m.switch_name(ConsoleButton.PENALTY))
    ),
    "notice-new-game": _notice(START, m.NEW_GAME),
    "notice-undone": _notice(START, m.UNDONE_NEW_GAME),
    "notice-time-up": _notice(GUESSING, m.TIME_UP, bar=0.0, seconds=0),
    "notice-time-up-turn-over": _notice(_game("clue 2", "timeout"), m.TIME_UP, m.TURN_OVER),
    "notice-timer-paused": _notice(GUESSING, m.TIMER_PAUSED, bar=0.4, seconds=48),
    "notice-timer-off": _notice(START, *m.TIMER_OFF_NOTICE),
    **{
        f"rejected-{reason.name.lower().replace('_', '-')}": _notice(START, m.REASONS[reason])
        for reason in Reason
    },
    # The footer while games cannot be saved
    **{
        f"not-saving-{fault.name.lower().replace('_', '-')}": _view(START, not_saving=fault)
        for fault in SaveFault
    },
    # A fault's footer beside the running timer: the footer keeps its line, the seconds move up
    "fault-footer-timer-clue": _view(
        START, not_saving=SaveFault.READ_ONLY, timer_left=0.62, timer_seconds=75
    ),
    "fault-footer-timer-guess": _view(
        _game("clue 9"), input_fault=True, timer_left=0.4, timer_seconds=48
    ),
    # The menu, a page at the top, in the middle and at the bottom
    "menu-top": _menu(0, mode=Mode.COOP),
    "menu-middle": _menu(4, brightness=5, colour_blind=Team.BLUE, timer_s=90),
    "menu-bottom": _menu(8, timer_autostart=True, strict=True),
    # The pad test
    "pad-test": _pad_test(lambda _catalog: None),
    "pad-test-two-pads": _pad_test(
        lambda catalog: m.pad_test_line(
            catalog, MultiplePads(coords=(Coord.parse("A1"), Coord.parse("C3")), at=0.0)
        )
    ),
    "pad-test-held": _pad_test(
        lambda catalog: m.pad_test_line(catalog, ButtonHeld(button=ConsoleButton.UNDO, at=0.0))
    ),
    "pad-test-knob": _pad_test(
        lambda catalog: m.pad_test_line(catalog, EncoderTurned(steps=-3, at=0.0))
    ),
    # The self-test
    "self-test-led-check": _self_test(m.LED_CHECK),
    "self-test-press": _self_test(lambda catalog: m.press_line(catalog, "DONE")),
    "self-test-turn": _self_test(m.TURN_CLOCKWISE),
    "self-test-push": _self_test(m.PUSH_ENCODER),
    "self-test-all-working": _self_test(m.ALL_WORKING),
    "self-test-faults": _self_test(m.FAULTS_FOUND, m.SEE_TERMINAL),
}
"""Every screen, by the name of its golden image."""


def rendered(catalog: GNUTranslations, language: str) -> dict[str, Image.Image]:
    """Each screen as the renderer draws it."""
    return {name: render_screen(screen(catalog, language)) for name, screen in SCREENS.items()}


def through_the_chip(images: dict[str, Image.Image]) -> Iterator[tuple[str, Image.Image]]:
    """Each image shown in turn on the real `Oled` over a virtual SSD1306, as its RAM reads back.

    One display for all, in order, as on the table: after the first screen, each goes out as a
    partial update of the one before.
    """
    with rig() as table:
        for name, image in images.items():
            table.oled.show(image)
            yield name, table.chip.to_image()


def golden_path(language: str, name: str) -> Path:
    """Where the golden image of screen `name` in `language` lives."""
    return GOLDEN_DIR / language / f"{name}.png"
