"""What the OLED shows, as data: a pure function from the table's view to an `OledScreen`.

Drawing the screen into pixels is `firmware.table.oled_render`'s job; the text lines here are also
what a headless script's `dump` reports, so tests read the screen without decoding pixels.
"""

from __future__ import annotations

from dataclasses import dataclass
from gettext import GNUTranslations

from board_rules.codenames import (
    ClueNumber,
    Coord,
    EndReason,
    GameState,
    Identity,
    Mode,
    Phase,
    Team,
)
from firmware.drivers.led_strip import LedFault
from firmware.table import screen_texts as m
from firmware.table.cover_choice import COVERING
from firmware.table.store_faults import SaveFault


@dataclass(frozen=True)
class BigNumber:
    """A number read from the seats: big numerals (digits or ∞) over a small label."""

    value: str
    label: str


@dataclass(frozen=True)
class OledScreen:
    """One OLED screen: an inverted title bar, up to three lines, an optional big clue selector
    (`big`, its number), a footer, and the sand timer (the fraction left as a bar, and the
    seconds left).

    `lines` say the screen in words (what a headless script's `dump` reports); when `numbers`
    are given, the screen shows those side by side in big numerals instead of the lines.
    """

    title: str
    lines: tuple[str, ...] = ()
    big: str | None = None
    numbers: tuple[BigNumber, ...] = ()
    footer: str | None = None
    bar: float | None = None
    seconds: int | None = None

    @property
    def text_lines(self) -> list[str]:
        """Every text on the screen, top to bottom (the selector as « n »), then the sand
        timer's seconds while it runs (`0:45`)."""
        texts = [self.title, *self.lines]
        if self.big is not None:
            texts.append(selector_text(self.big))
        if self.footer is not None:
            texts.append(self.footer)
        if self.seconds is not None:
            texts.append(seconds_text(self.seconds))
        return texts


def seconds_text(seconds: int) -> str:
    """The sand timer's time left as a countdown shows it: `1:05`, `0:09`."""
    minutes, rest = divmod(max(seconds, 0), 60)
    return f"{minutes}:{rest:02d}"


def selector_text(number: str) -> str:
    """The clue selector in words: the number between the arrows that say it turns."""
    return f"« {number} »"


@dataclass(frozen=True)
class MenuView:
    """The menu as shown: a title, the items with their values, the highlighted one and a hint
    for the footer (how to use the menu, or what the highlighted value means)."""

    title: str
    items: tuple[str, ...]
    index: int
    hint: str | None = None


@dataclass(frozen=True)
class TableView:
    """Everything the screen depends on."""

    state: GameState
    selector: ClueNumber
    notice: tuple[str, ...] = ()
    """A short message shown for a moment in place of the body (a result, a rejection)."""
    timer_left: float | None = None
    """The fraction of the sand timer left, while it runs."""
    timer_seconds: int | None = None
    """The sand timer's whole seconds left (rounded up), while it runs."""
    not_saving: SaveFault | None = None
    """Why actions are not being written, while they are not."""
    input_fault: bool = False
    """A touch chip does not answer: some pads cannot be touched until it does."""
    led_fault: LedFault | None = None
    """Why the LED key's strip did not open, when it did not: the key is dark."""
    match: tuple[int, int] | None = None
    """Games won (red, blue) in the match under way, shown once a game is over."""
    menu: MenuView | None = None
    pad_test: str | None = None
    """In the pad test: the last input seen ("" before the first)."""
    cover_card: Coord | None = None
    """In a cover phase: the card chosen to be covered, if one is."""
    cover_lost: bool = False
    """In a penalty cover: the choosing is over (`firmware.table.cover_choice`)."""


def compose(view: TableView, catalog: GNUTranslations) -> OledScreen:
    """The screen for `view`, in the language of `catalog`."""
    _ = catalog.gettext
    if view.pad_test is not None:
        return OledScreen(
            title=_(m.PAD_TEST),
            lines=(_(m.PRESS_ANY_PAD), view.pad_test),
            footer=_(m.HOLD_PUSH_TO_EXIT),
        )
    if view.menu is not None:
        return _menu_screen(view.menu)
    state = view.state
    footer = _footer(state, catalog)
    if view.match is not None and state.is_over:
        footer = m.match_line(catalog, *view.match)
    if view.not_saving is not None:
        footer = _(m.NOT_SAVING[view.not_saving])
    if view.led_fault is not None:
        footer = _(m.LED_OFF[view.led_fault])
    if view.input_fault:
        footer = _(m.TOUCH_FAULT)
    title, lines, big = _phase_body(state, view.selector, catalog)
    if state.phase in COVERING:
        lines = _cover_lines(view, catalog) or lines
    numbers = _guess_numbers(state, catalog)
    if view.notice:
        lines, big, numbers = view.notice[:3], None, ()
    return OledScreen(
        title=title,
        lines=lines,
        big=big,
        numbers=numbers,
        footer=footer,
        bar=view.timer_left,
        seconds=view.timer_seconds if view.timer_left is not None else None,
    )


def _phase_body(
    state: GameState, selector: ClueNumber, catalog: GNUTranslations
) -> tuple[str, tuple[str, ...], str | None]:
    _ = catalog.gettext
    if state.phase is Phase.CLUE:
        return _(m.CLUE_TITLES[state.turn]), (_(m.GIVE_CLUE),), _selector(selector)
    if state.phase is Phase.GUESS:
        left = state.guesses_left
        assert left is not None  # always set while guessing
        lines = (m.clue_line(catalog, state.clue), m.guesses_left_line(catalog, left, state.clue))
        return _(m.GUESS_TITLES[state.turn]), lines, None
    if state.phase is Phase.PENALTY_COVER:
        return _(m.PENALTY_TITLES[state.turn]), (_(m.COVER_OR_CLUE),), _selector(selector)
    if state.phase is Phase.ENEMY_COVER:
        return _(m.OPPONENTS_TURN), (_(m.COVER_ENEMY),), None
    return _game_over(state, catalog)


def _cover_lines(view: TableView, catalog: GNUTranslations) -> tuple[str, ...]:
    """The line of a cover phase once a card is chosen, or the choosing is over."""
    if view.cover_lost and view.state.phase is Phase.PENALTY_COVER:
        return (catalog.gettext(m.COVER_LOST),)
    if view.cover_card is not None:
        return (m.cover_chosen_line(catalog, view.cover_card),)
    return ()


def _guess_numbers(state: GameState, catalog: GNUTranslations) -> tuple[BigNumber, ...]:
    """While guessing: the clue and the guesses left, as numbers for the seats."""
    left = state.guesses_left
    if state.phase is not Phase.GUESS or left is None:
        return ()
    clue = BigNumber(m.clue_text(state.clue), catalog.gettext(m.CLUE_LABEL))
    return clue, BigNumber(m.clue_text(left), m.left_label(catalog, left, state.clue))


def _game_over(state: GameState, catalog: GNUTranslations) -> tuple[str, tuple[str, ...], None]:
    _ = catalog.gettext
    assert state.winner is not None and state.reason is not None  # set when the game is over
    if state.mode is Mode.COOP:
        if state.score is not None and state.rank is not None:
            lines = (m.score_line(catalog, state.score), _(m.RANK_LINES[state.rank]))
            return _(m.MISSION_WON), (*lines, _(m.NEW_GAME_HINT)), None
        players = state.key.starting_team
        reason = (
            m.end_reason_line(catalog, state.reason, players)
            if state.reason is EndReason.ASSASSIN
            else _(m.ENEMY_FOUND_ALL)
        )
        return _(m.MISSION_LOST), (reason, _(m.NEW_GAME_HINT)), None
    reason = m.end_reason_line(catalog, state.reason, state.winner.other)
    return _(m.WIN_TITLES[state.winner]), (reason, _(m.NEW_GAME_HINT)), None


def _footer(state: GameState, catalog: GNUTranslations) -> str:
    red, blue = _agents_left(state)
    if state.mode is Mode.COOP:
        players = state.key.starting_team
        return m.coop_agents_line(catalog, *((red, blue) if players is Team.RED else (blue, red)))
    return m.agents_line(catalog, red, blue)


def _agents_left(state: GameState) -> tuple[int, int]:
    """`GameState.remaining` of red and blue, from the key's counts less the covered cards
    (composed on every touch)."""
    identities = state.key.identities
    red, blue = identities.count(Identity.RED), identities.count(Identity.BLUE)
    for coord in state.covered:
        identity = identities[coord.index]
        if identity is Identity.RED:
            red -= 1
        elif identity is Identity.BLUE:
            blue -= 1
    return red, blue


def _selector(number: ClueNumber) -> str:
    return m.clue_text(number)


def _menu_screen(menu: MenuView) -> OledScreen:
    # Three items fit under the title: keep the highlighted one in view, marked with an arrow.
    first = min(max(menu.index - 1, 0), max(len(menu.items) - 3, 0))
    shown = menu.items[first : first + 3]
    lines = tuple(
        ("→ " if first + n == menu.index else "  ") + item for n, item in enumerate(shown)
    )
    return OledScreen(title=menu.title, lines=lines, footer=menu.hint)
