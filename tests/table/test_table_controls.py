"""What an input means in play (`controls`) and how the staff modes change (`modes`), without a
table: the game loop carries these out, and the scripted tests play them end to end."""

import pytest

from board_rules.codenames import (
    UNLIMITED,
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
)
from firmware.table import screen_texts as m
from firmware.table.controls import (
    FIRST_SELECTOR,
    Act,
    ChooseCover,
    ConfirmCover,
    Dial,
    Intent,
    OpenMenu,
    PauseTimer,
    PlayControls,
    StartNewGame,
    StartTimer,
    Tell,
    dialled,
)
from firmware.table.i18n import translations
from firmware.table.menu import ITEMS, Menu, MenuItem
from firmware.table.modes import PLAYING, MenuOpen, PadTest
from firmware.table.settings import TableSettings

EN = translations("en")
A1 = Coord.parse("A1")


def meaning(
    event: InputEvent, phase: Phase = Phase.CLUE, controls: PlayControls | None = None
) -> Intent | None:
    controls = controls or PlayControls()
    controls.note(event)
    return controls.meaning(event, phase, FIRST_SELECTOR, EN)


@pytest.mark.parametrize(
    ("phase", "intent"),
    [
        (Phase.GUESS, Act(Touch(A1))),
        (Phase.PENALTY_COVER, ChooseCover(A1)),
        (Phase.ENEMY_COVER, ChooseCover(A1)),
    ],
)
def test_a_pad_guesses_or_chooses_the_card_to_cover_by_phase(phase: Phase, intent: Intent) -> None:
    assert meaning(PadPressed(A1, 0.0), phase) == intent


@pytest.mark.parametrize("phase", [Phase.PENALTY_COVER, Phase.ENEMY_COVER])
def test_done_covers_the_card_chosen_in_a_cover_phase(phase: Phase) -> None:
    assert meaning(ButtonPressed(ConsoleButton.DONE, 0.0), phase) == ConfirmCover()
    assert meaning(ButtonPressed(ConsoleButton.DONE, 0.0), Phase.GUESS) == Act(Done())


def test_the_encoder_dials_and_announces_only_while_a_clue_is_due() -> None:
    assert meaning(EncoderTurned(2, 0.0), Phase.CLUE) == Dial(2)
    assert meaning(EncoderPushed(0.0), Phase.PENALTY_COVER) == Act(GiveClue(FIRST_SELECTOR))
    assert meaning(EncoderTurned(2, 0.0), Phase.GUESS) is None
    assert meaning(EncoderPushed(0.0), Phase.GUESS) is None
    assert meaning(EncoderHeld(0.0), Phase.GUESS) == OpenMenu()


def test_the_selector_stops_at_both_ends() -> None:
    assert dialled(FIRST_SELECTOR, 2) == 3
    assert dialled(FIRST_SELECTOR, -5) == 0
    assert dialled(FIRST_SELECTOR, 30) == UNLIMITED


def test_held_buttons_act_and_their_release_is_no_short_press() -> None:
    controls = PlayControls()
    held = {
        ConsoleButton.PENALTY: Act(Penalty()),
        ConsoleButton.UNDO: Act(Undo()),
        ConsoleButton.NEW: StartNewGame(),
        ConsoleButton.TIMER: PauseTimer(),
    }
    for button, intent in held.items():
        assert meaning(ButtonPressed(button, 0.0), Phase.GUESS, controls) is None
        assert meaning(ButtonHeld(button, 1.0), Phase.GUESS, controls) == intent
        assert meaning(ButtonReleased(button, 2.0, 2.0), Phase.GUESS, controls) is None


def test_short_presses() -> None:
    controls = PlayControls()
    assert meaning(ButtonPressed(ConsoleButton.DONE, 0.0), Phase.GUESS, controls) == Act(Done())
    assert meaning(ButtonReleased(ConsoleButton.DONE, 0.1, 0.1), Phase.GUESS, controls) is None
    tap = ButtonReleased(ConsoleButton.TIMER, 0.1, 0.1)
    assert meaning(tap, Phase.GUESS, controls) == StartTimer()
    # A hold of TIMER is forgotten at its next press: the next tap starts the timer again.
    meaning(ButtonHeld(ConsoleButton.TIMER, 1.0), Phase.GUESS, controls)
    meaning(ButtonPressed(ConsoleButton.TIMER, 2.0), Phase.GUESS, controls)
    assert meaning(tap, Phase.GUESS, controls) == StartTimer()
    undo_tap = meaning(ButtonReleased(ConsoleButton.UNDO, 0.1, 0.1), Phase.GUESS, controls)
    assert undo_tap == Tell((m.hold_line(EN, m.switch_name(ConsoleButton.UNDO)),))


def test_two_pads_at_once_are_told_apart_from_a_guess() -> None:
    both = MultiplePads((A1, Coord.parse("B1")), 0.0)
    assert meaning(both, Phase.GUESS) == Tell((m.TWO_CARDS, m.PRESS_ONE))


def test_the_menu_moves_changes_and_leaves() -> None:
    settings = TableSettings()
    mode, after = MenuOpen().on(EncoderTurned(ITEMS.index(MenuItem.STRICT), 0.0), settings)
    assert mode == MenuOpen(Menu(ITEMS.index(MenuItem.STRICT))) and after == settings
    mode, after = mode.on(EncoderPushed(0.0), settings)
    assert isinstance(mode, MenuOpen) and after.strict is not settings.strict
    assert MenuOpen().on(EncoderHeld(0.0), settings) == (PLAYING, settings)
    exit_line = MenuOpen(Menu(ITEMS.index(MenuItem.EXIT)))
    assert exit_line.on(EncoderPushed(0.0), settings) == (PLAYING, settings)
    pad_test = MenuOpen(Menu(ITEMS.index(MenuItem.PAD_TEST)))
    assert pad_test.on(EncoderPushed(0.0), settings) == (PadTest(), settings)


def test_the_pad_test_names_each_input_until_a_long_push() -> None:
    mode = PadTest().on(PadPressed(A1, 0.0), EN)
    assert mode == PadTest("A1")
    # A release keeps the press on the screen.
    assert mode.on(ButtonReleased(ConsoleButton.NEW, 0.1, 0.1), EN) == mode
    assert mode.on(EncoderHeld(0.2), EN) == PLAYING
