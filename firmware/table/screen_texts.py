"""Every text the table shows, in one place, written for translation.

Functions here take a catalog (`gettext.GNUTranslations`) and return the text in its language;
team and identity phrases are whole sentences per team, so that each language can make its
words agree.
"""

from __future__ import annotations

from gettext import GNUTranslations

from board_rules.codenames import (
    UNLIMITED,
    ClueNumber,
    Coord,
    Cover,
    Done,
    EndReason,
    GiveClue,
    Identity,
    Penalty,
    PlayAction,
    Reason,
    Team,
    Timeout,
    Touch,
)
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
from firmware.table.i18n import N_
from firmware.table.store_faults import SaveFault

CLUE_TITLES = {Team.RED: N_("Red spymaster"), Team.BLUE: N_("Blue spymaster")}
GUESS_TITLES = {Team.RED: N_("Red team guesses"), Team.BLUE: N_("Blue team guesses")}
PENALTY_TITLES = {Team.RED: N_("Penalty: red covers"), Team.BLUE: N_("Penalty: blue covers")}
WIN_TITLES = {Team.RED: N_("Red team wins"), Team.BLUE: N_("Blue team wins")}
ASSASSIN_LINES = {
    Team.RED: N_("Red met the assassin"),
    Team.BLUE: N_("Blue met the assassin"),
}
IDENTITY_NAMES = {
    Identity.RED: N_("Red agent"),
    Identity.BLUE: N_("Blue agent"),
    Identity.BYSTANDER: N_("Bystander"),
    Identity.ASSASSIN: N_("The assassin!"),
}

REASONS = {
    Reason.NO_CLUE_YET: N_("Wait for the clue"),
    Reason.CLUE_ALREADY_GIVEN: N_("The clue is given"),
    Reason.ALREADY_COVERED: N_("Already covered"),
    Reason.MUST_GUESS_FIRST: N_("Guess once first"),
    Reason.NOT_YOUR_WORD: N_("Not your word"),
    Reason.NOT_ENEMY_WORD: N_("Not an enemy agent"),
    Reason.NOT_IN_COOP: N_("No penalty in co-op"),
    Reason.NOT_COVERING: N_("Nothing to cover now"),
    Reason.ENEMY_MUST_COVER: N_("Cover an enemy first"),
    Reason.GAME_OVER: N_("The game is over"),
    Reason.NOTHING_TO_UNDO: N_("Nothing to undo"),
}

NOT_SAVING = {
    SaveFault.FULL: N_("Not saving: disk full"),
    SaveFault.LOCKED: N_("Not saving: locked"),
    SaveFault.READ_ONLY: N_("Not saving: read-only"),
    SaveFault.NO_PERMISSION: N_("Not saving: no access"),
    SaveFault.IO_ERROR: N_("Not saving: I/O error"),
}
"""The footer while actions cannot be written, with the reason (the journal has the detail)."""

LED_OFF = {
    LedFault.UNSUPPORTED: N_("LED key off: unknown Pi"),
    LedFault.SPI_OFF: N_("LED key off: SPI off"),
    LedFault.NO_ACCESS: N_("LED key off: no access"),
    LedFault.NOT_INSTALLED: N_("LED key off: no driver"),
    LedFault.FAILED: N_("LED key off: error"),
    LedFault.NO_SUPPLY: N_("LED key off: no power"),
}
"""The footer while the LED key is dark: its strip is not open, or its supply is off, with the
reason (the journal has the detail and the fix)."""

TOUCH_FAULT = N_("Touch pads: no answer")
"""The footer while a touch chip of the capacitive table does not answer (the journal names it)."""

RANK_LINES = {
    "narrow-escape": N_("Made it, just!"),
    "steady-hands": N_("A solid mission"),
    "well-drilled": N_("Well drilled team"),
    "sharp-minds": N_("Sharp minds"),
    "field-experts": N_("Field experts"),
    "elite-unit": N_("An elite unit"),
    "master-spies": N_("Master spies"),
    "flawless": N_("Flawless. Legendary."),
}

GIVE_CLUE = N_("Turn, then push")
COVER_OR_CLUE = N_("Cover a word, or push")
COVER_ENEMY = N_("Cover an enemy agent")
COVER_LOST = N_("Cover lost: push")
"""A penalty cover whose choosing is over (`firmware.table.cover_choice`): the team gives its
clue."""
OPPONENTS_TURN = N_("Opponent's turn")
EXTRA_GUESS = N_("Extra guess")
CLUE_LABEL = N_("clue")
"""Under the clue's big number while guessing."""
EXTRA_LABEL = N_("extra")
"""Under the big 1 of the guess beyond the clue's number."""
NO_LIMIT = N_("No limit")
MISSION_WON = N_("Mission accomplished")
MISSION_LOST = N_("Mission failed")
ENEMY_FOUND_ALL = N_("The enemy was faster")
ALL_AGENTS_FOUND = N_("All agents found")
NEW_GAME_HINT = N_("Hold NEW: new game")
GUESS_AGAIN = N_("Guess again")
TURN_OVER = N_("Turn over")
UNDONE_NEW_GAME = N_("Undone: new game")
LIFT_COVER = N_("Lift its cover")
UNDONE_STOP = N_("Undone: stop")
UNDONE_PENALTY = N_("Undone: penalty")
UNDONE_TIMEOUT = N_("Undone: timeout")
NEW_GAME = N_("New game")
TWO_CARDS = N_("Two cards at once")
PRESS_ONE = N_("Press one card only")
TIME_UP = N_("Time is up!")
TIMER_PAUSED = N_("Timer paused")
TIMER_OFF = N_("The timer is off")
PAD_TEST = N_("Pad test")
PRESS_ANY_PAD = N_("Press pads and buttons")
HOLD_PUSH_TO_EXIT = N_("Hold the knob: exit")
KNOB_PUSHED = N_("Knob pushed")
MENU = N_("Menu")
MENU_HINT = N_("Turn: move · Push: set")
FROM_NEXT_GAME = N_("From the next game")
NEW_MATCH = N_("New match")
LAST_ACTIONS = N_("Last actions")
NOTHING_PLAYED = N_("Nothing played yet")
LAST_ACTIONS_HINT = N_("Turn: scroll · Push: back")
ACTED_CLUE = {Team.RED: N_("Red: clue {number}"), Team.BLUE: N_("Blue: clue {number}")}
ACTED_TOUCH = {Team.RED: N_("Red: {card}"), Team.BLUE: N_("Blue: {card}")}
"""A guess whose card is no longer covered: its identity is not shown, it may be secret."""
ACTED_TOUCH_SEEN = {
    (Team.RED, Identity.RED): N_("Red: {card} red agent"),
    (Team.RED, Identity.BLUE): N_("Red: {card} blue agent"),
    (Team.RED, Identity.BYSTANDER): N_("Red: {card} bystander"),
    (Team.RED, Identity.ASSASSIN): N_("Red: {card} assassin"),
    (Team.BLUE, Identity.RED): N_("Blue: {card} red agent"),
    (Team.BLUE, Identity.BLUE): N_("Blue: {card} blue agent"),
    (Team.BLUE, Identity.BYSTANDER): N_("Blue: {card} bystander"),
    (Team.BLUE, Identity.ASSASSIN): N_("Blue: {card} assassin"),
}
"""A guess whose card is covered: the team that guessed, the card and what it was."""
ACTED_STOP = {Team.RED: N_("Red: stop"), Team.BLUE: N_("Blue: stop")}
ACTED_PENALTY = {Team.RED: N_("Red: penalty"), Team.BLUE: N_("Blue: penalty")}
ACTED_COVER = {Team.RED: N_("Red: covers {card}"), Team.BLUE: N_("Blue: covers {card}")}
ACTED_TIMEOUT = {Team.RED: N_("Red: time up"), Team.BLUE: N_("Blue: time up")}
TEAM_NAMES = {Team.RED: N_("red"), Team.BLUE: N_("blue")}
"""A team as a menu value (the colour-blind palette's blinking team)."""
TIMER_IN_MENU = N_("Turn it on in the menu")
MENU_BY_HOLDING = N_("Menu: hold the knob")
TIMER_OFF_NOTICE = (TIMER_OFF, TIMER_IN_MENU, MENU_BY_HOLDING)
"""What a press or a hold of TIMER says while the timer is off: where to turn it on."""
SELF_TEST = N_("Self-test")
TURN_CLOCKWISE = N_("Turn right one click")
PUSH_ENCODER = N_("Push the knob")
LED_CHECK = N_("Check every LED")
ALL_WORKING = N_("All working")
FAULTS_FOUND = N_("Faults found")
SEE_TERMINAL = N_("Details in the terminal")
MODE_STANDARD = N_("Standard")
MODE_COOP = N_("Co-op")
ON = N_("on")
OFF = N_("off")


def clue_text(number: ClueNumber | None) -> str:
    """A clue number as shown: digits, or ∞ for unlimited."""
    return "∞" if number == UNLIMITED else str(number)


def guesses_left_line(catalog: GNUTranslations, left: ClueNumber, clue: ClueNumber | None) -> str:
    """`3 guesses left`, `Extra guess` for the one beyond the clue's number, or `No limit`."""
    if left == UNLIMITED:
        return catalog.gettext(NO_LIMIT)
    if left == 1 and isinstance(clue, int) and clue > 0:
        return catalog.gettext(EXTRA_GUESS)
    return catalog.ngettext("{n} guess left", "{n} guesses left", left).format(n=left)


def left_label(catalog: GNUTranslations, left: ClueNumber, clue: ClueNumber | None) -> str:
    """Under the big number of guesses left: `left`, or `extra` for the one beyond the clue."""
    if left == 1 and isinstance(clue, int) and clue > 0:
        return catalog.gettext(EXTRA_LABEL)
    return catalog.ngettext("left", "left", 2 if left == UNLIMITED else left)


def clue_line(catalog: GNUTranslations, number: ClueNumber | None) -> str:
    """`Clue: 2`."""
    return catalog.gettext("Clue: {number}").format(number=clue_text(number))


def agents_line(catalog: GNUTranslations, red: int, blue: int) -> str:
    """Agents left per team, for the footer."""
    return catalog.gettext("Red {red} · Blue {blue}").format(red=red, blue=blue)


def match_line(catalog: GNUTranslations, red: int, blue: int) -> str:
    """Games won per team in the match under way, for the footer between games."""
    return catalog.gettext("Match: red {red} · blue {blue}").format(red=red, blue=blue)


def coop_agents_line(catalog: GNUTranslations, own: int, enemy: int) -> str:
    """Co-op footer: the players' agents left and the enemy's."""
    return catalog.gettext("Ours {own} · Theirs {enemy}").format(own=own, enemy=enemy)


def score_line(catalog: GNUTranslations, score: int) -> str:
    """The co-op score."""
    return catalog.gettext("Score: {score}").format(score=score)


def press_line(catalog: GNUTranslations, switch: str) -> str:
    """The self-test's request for one switch: a card (`C3`) or a button (`DONE`)."""
    return catalog.gettext("Press {switch}").format(switch=switch)


def cover_chosen_line(catalog: GNUTranslations, card: Coord) -> str:
    """`Cover C3? Press DONE`: the same for any card chosen in a cover phase, so the screen never
    tells whether it may be covered."""
    return catalog.gettext("Cover {card}? Press DONE").format(card=switch_name(card))


def stuck_line(catalog: GNUTranslations, card: str) -> str:
    """A pad held down too long."""
    return catalog.gettext("Card {card} is stuck").format(card=card)


def hold_line(catalog: GNUTranslations, switch: str) -> str:
    """A button that acts only when held was only tapped."""
    return catalog.gettext("Hold {switch} down").format(switch=switch)


def undone_lines(catalog: GNUTranslations, action: PlayAction) -> tuple[str, ...]:
    """What an undo took back, and for a card what to do at the table: the card's cover comes
    off (`Undone: C3`, `Lift its cover`)."""
    _ = catalog.gettext
    match action:
        case Touch(coord) | Cover(coord):
            card = catalog.gettext("Undone: {card}").format(card=switch_name(coord))
            return card, _(LIFT_COVER)
        case GiveClue(number):
            return (catalog.gettext("Undone: clue {number}").format(number=clue_text(number)),)
        case Done():
            return (_(UNDONE_STOP),)
        case Penalty():
            return (_(UNDONE_PENALTY),)
        case Timeout():
            return (_(UNDONE_TIMEOUT),)


def switch_name(switch: Coord | ConsoleButton) -> str:
    """`C3` for a pad, `DONE` for a button: the names printed on the table, in every language."""
    return str(switch) if isinstance(switch, Coord) else switch.value.upper()


def pad_test_line(catalog: GNUTranslations, event: InputEvent) -> str | None:
    """What the pad test shows for an input, or None for a release (the press stays shown)."""
    if isinstance(event, PadPressed):
        return switch_name(event.coord)
    if isinstance(event, MultiplePads):
        return " + ".join(switch_name(coord) for coord in event.coords)
    if isinstance(event, PadStuck):
        return stuck_line(catalog, switch_name(event.coord))
    if isinstance(event, ButtonPressed):
        return switch_name(event.button)
    if isinstance(event, ButtonHeld):
        return catalog.gettext("{switch} held").format(switch=switch_name(event.button))
    if isinstance(event, EncoderTurned):
        return catalog.gettext("Knob {steps}").format(steps=f"{event.steps:+d}")
    if isinstance(event, EncoderPushed):
        return catalog.gettext(KNOB_PUSHED)
    return None


def end_reason_line(catalog: GNUTranslations, reason: EndReason, loser: Team) -> str:
    """Why a standard game ended."""
    if reason is EndReason.ASSASSIN:
        return catalog.gettext(ASSASSIN_LINES[loser])
    return catalog.gettext(ALL_AGENTS_FOUND)
