"""What each input means while the game is played (see README): card pads guess, or choose the
card to cover in the cover phases, which DONE then covers (`firmware.table.cover_choice`); the
encoder dials and announces the clue number; DONE stops guessing; held PENALTY calls an invalid
clue, held UNDO takes back the last action, held NEW starts a new game; TIMER
starts the sand timer and a long press pauses it; a long encoder push opens the menu.

`PlayControls.meaning` turns an input into one `Intent` for the game loop to carry out; it plays
nothing itself, so the rules core still decides what is legal.
"""

from __future__ import annotations

from dataclasses import dataclass
from gettext import GNUTranslations

from board_rules.codenames import (
    UNLIMITED,
    Action,
    ClueNumber,
    Coord,
    Done,
    GiveClue,
    Penalty,
    Phase,
    Touch,
    Undo,
)
from firmware.drivers.events import (
    ButtonHeld,
    ButtonPressed,
    ButtonReleased,
    ConsoleButton,
    EncoderHeld,
    EncoderPushed,
    EncoderTurned,
    InputEvent,
    MultiplePads,
    PadPressed,
    PadStuck,
)
from firmware.table import screen_texts as m
from firmware.table.cover_choice import COVERING

SELECTOR_VALUES: tuple[ClueNumber, ...] = (*range(10), UNLIMITED)
"""The clue selector runs 0, 1, …, 9, ∞ and stops at both ends."""
FIRST_SELECTOR = 1
"""Where the selector starts, and returns after each action."""
_DIALLING = (Phase.CLUE, Phase.PENALTY_COVER)
"""Phases in which the encoder sets and announces a clue number."""


@dataclass(frozen=True)
class Act:
    """Play `action` through the rules core."""

    action: Action


@dataclass(frozen=True)
class ChooseCover:
    """Choose `card` as the card to cover (a touch in a cover phase)."""

    card: Coord


@dataclass(frozen=True)
class ConfirmCover:
    """Cover the card chosen (DONE in a cover phase)."""


@dataclass(frozen=True)
class Dial:
    """Move the clue selector by `steps`."""

    steps: int


@dataclass(frozen=True)
class Tell:
    """Show a notice (message ids, or lines already translated)."""

    texts: tuple[str, ...]


@dataclass(frozen=True)
class StartNewGame:
    """Leave the game in play for a new one."""


@dataclass(frozen=True)
class StartTimer:
    """Start, or restart, the sand timer."""


@dataclass(frozen=True)
class PauseTimer:
    """Pause the sand timer, or let it run on."""


@dataclass(frozen=True)
class OpenMenu:
    """Open the staff menu."""


Intent = (
    Act
    | ChooseCover
    | ConfirmCover
    | Dial
    | Tell
    | StartNewGame
    | StartTimer
    | PauseTimer
    | OpenMenu
)
"""What an input asks of the game loop."""


class PlayControls:
    """Reads inputs as play; remembers which buttons are held, so that the release that ends a
    hold is not taken for a short press."""

    def __init__(self) -> None:
        self._holds_seen: set[ConsoleButton] = set()
        """Buttons whose latest press was held."""

    def note(self, event: InputEvent) -> None:
        """Follow the buttons' presses and holds; called for every input, in every mode."""
        if isinstance(event, ButtonPressed):
            self._holds_seen.discard(event.button)
        elif isinstance(event, ButtonHeld):
            self._holds_seen.add(event.button)

    def meaning(
        self, event: InputEvent, phase: Phase, selector: ClueNumber, catalog: GNUTranslations
    ) -> Intent | None:
        """What `event` asks for in `phase` with the selector at `selector`; None for nothing."""
        if isinstance(event, PadPressed):
            return ChooseCover(event.coord) if phase in COVERING else Act(Touch(event.coord))
        if isinstance(event, MultiplePads):
            return Tell((m.TWO_CARDS, m.PRESS_ONE))
        if isinstance(event, PadStuck):
            return Tell((m.stuck_line(catalog, str(event.coord)),))
        if isinstance(event, EncoderTurned):
            return Dial(event.steps) if phase in _DIALLING else None
        if isinstance(event, EncoderPushed):
            return Act(GiveClue(selector)) if phase in _DIALLING else None
        if isinstance(event, EncoderHeld):
            return OpenMenu()
        if isinstance(event, ButtonPressed) and event.button is ConsoleButton.DONE:
            return ConfirmCover() if phase in COVERING else Act(Done())
        if isinstance(event, ButtonHeld):
            return _held(event.button)
        if isinstance(event, ButtonReleased) and event.button not in self._holds_seen:
            return _short_press(event.button, phase, catalog)
        return None


def dialled(selector: ClueNumber, steps: int) -> ClueNumber:
    """The clue number `steps` away from `selector`, stopping at both ends."""
    index = SELECTOR_VALUES.index(selector) + steps
    return SELECTOR_VALUES[min(max(index, 0), len(SELECTOR_VALUES) - 1)]


def _held(button: ConsoleButton) -> Intent | None:
    if button is ConsoleButton.PENALTY:
        return Act(Penalty())
    if button is ConsoleButton.UNDO:
        return Act(Undo())
    if button is ConsoleButton.NEW:
        return StartNewGame()
    if button is ConsoleButton.TIMER:
        return PauseTimer()
    return None


def _short_press(button: ConsoleButton, phase: Phase, catalog: GNUTranslations) -> Intent | None:
    if button is ConsoleButton.TIMER:
        return StartTimer()
    if button is ConsoleButton.DONE:
        return None
    if button is ConsoleButton.PENALTY and phase is Phase.PENALTY_COVER:
        # The penalty is already being paid, and holding the button would only be turned down:
        # say what the table waits for instead.
        return Tell((m.COVER_OR_CLUE,))
    # PENALTY, UNDO and NEW act only when held: a tap says so rather than nothing.
    return Tell((m.hold_line(catalog, m.switch_name(button)),))
