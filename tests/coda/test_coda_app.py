"""The on-screen Coda game driven through Textual's pilot, with keys and clicks.

Computers play at once (`delay_s=0`) or, where a test watches every step, on a timer that never
fires in time and is stepped by hand (`computer_step`), so no test waits on real time. The tests
play the person's side with the full state in hand (an X-ray the person does not have), so that
they can aim for a right or a wrong attack, a long game or a short one.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from string import Formatter
from typing import Any

import pytest
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Log, Static

from board_rules.coda import (
    DASH,
    Arrange,
    Color,
    GameState,
    Level,
    Phase,
    TakeTiles,
    Tile,
    Value,
    strategy,
)
from firmware.coda.app import CodaApp
from firmware.coda.controller import HUMAN
from firmware.coda.help import HelpScreen
from firmware.coda.scene import scene
from firmware.coda.seat import SeatOption, SeatScreen
from firmware.coda.texts import ENGLISH, ITALIAN, TEXTS, CodaTexts
from firmware.coda.widgets import COLOUR_MARKS, PileView, TileView, ValueKey, marked_face
from tests.coda_helpers import play, row, stacked
from tests.coda_person_helpers import act, disguised
from tests.coda_person_helpers import hidden_value as x_ray
from tests.coda_person_helpers import wrong_value as wrong
from tests.pilot_waits import wait_until

SIZE = (100, 36)
SEED = 3

Scenario = Callable[[Pilot[None], CodaApp], Awaitable[None]]


def make_app(*levels: Level, **options: Any) -> CodaApp:
    settings: dict[str, Any] = {"rng": random.Random(SEED), "delay_s": 0}
    settings.update(options)
    return CodaApp(levels or (Level.EASY,), **settings)


def drive(app: CodaApp, scenario: Scenario) -> None:
    """Run `app` headless at a fixed size and play `scenario` on it."""

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await scenario(pilot, app)

    asyncio.run(main())


# The person's hands


def value_keys(value: Value) -> list[str]:
    """The keys that name `value`: a digit, 1 then 0 or 1, or the minus key for the dash."""
    if value == DASH:
        return ["minus"]
    return ["1", str(value - 10)] if value >= 10 else [str(value)]


async def move_until(pilot: Pilot[None], done: Callable[[], bool], key: str = "right") -> None:
    """Press `key` until `done()`; a choice that the arrows never reach fails the test."""
    for _ in range(30):
        if done():
            return
        await pilot.press(key)
    assert done()


async def attack(
    pilot: Pilot[None], app: CodaApp, player: int, index: int, value: Value, *, mouse: bool = False
) -> None:
    """Attack (player, index) naming `value`: with the arrows and the digit keys, or by
    clicking the tile and the value key."""
    if mouse:
        assert await pilot.click(f"#tile-{player}-{index}")
        name = "dash" if value == DASH else value
        assert await pilot.click(f"#value-{name}")
    else:
        await move_until(pilot, lambda: app.game.choices.target == (player, index))
        await pilot.press(*value_keys(value))
    assert (app.game.choices.target, app.game.choices.value) == ((player, index), value)
    await pilot.press("enter")


def hidden_value(app: CodaApp, player: int, index: int) -> Value:
    """The true value of a tile: the test's X-ray."""
    return x_ray(app.game.state, player, index)


def wrong_value(app: CodaApp, player: int, index: int) -> Value:
    """A number that tile does not have, and that nobody named against it yet."""
    return wrong(app.game.state, player, index)


# What the screen shows


def text(app: CodaApp, selector: str) -> str:
    return str(app.query_one(selector, Static).content)


def tile(app: CodaApp, player: int, index: int) -> TileView:
    return app.query_one(f"#tile-{player}-{index}", TileView)


def faces(app: CodaApp, count: int) -> list[str]:
    """What the first `count` tiles of the person's row show."""
    shown = [tile(app, HUMAN, index) for index in range(count)]
    for view in shown:  # each face starts with the mark of its colour, then the value
        color = Color.BLACK if view.has_class("-black") else Color.WHITE
        assert str(view.content).startswith(COLOUR_MARKS[color])
    return [str(view.content)[1:] for view in shown]


def shown_keys(app: CodaApp) -> dict[str, str]:
    """The footer's keys now: key → description."""
    return {
        key: active.binding.description
        for key, active in app.screen.active_bindings.items()
        if active.binding.show
    }


async def settled_screenshot(pilot: Pilot[None], app: CodaApp) -> str:
    """The screen once it has stopped changing: the footer redraws its keys a few messages
    after the bindings change, later than one pause on a loaded machine."""
    screen = app.export_screenshot()
    for _ in range(100):
        await pilot.pause()
        again = app.export_screenshot()
        if again == screen:
            return screen
        screen = again
    raise AssertionError("the screen kept changing")


async def assert_no_secret_on_screen(
    pilot: Pilot[None], app: CodaApp, *, whole_screen: bool = True
) -> None:
    """The computers' hidden tiles show only their backs, and (`whole_screen`) the whole screen
    stays the same when every secret of the game is changed: it is drawn from what the person
    may know."""
    state = app.game.state
    for player in range(1, state.players):
        for index in state.hidden(player):
            assert tile(app, player, index).has_class("-back")
            mark = COLOUR_MARKS[state.rows[player][index].tile.color]
            assert str(tile(app, player, index).content) == mark
        if state.turn == player and state.hand:
            hand = app.query_one(f"#hand-{player}", TileView)
            marks = ("", *COLOUR_MARKS.values())  # not drawn, or a back
            assert str(hand.content) in marks or state.face_up
    if not whole_screen:
        return
    screen = await settled_screenshot(pilot, app)
    app.game.state = disguised(state)
    app.redraw()
    assert await settled_screenshot(pilot, app) == screen
    app.game.state = state
    app.redraw()


# A whole game against the easy opponent


async def take_with_the_colour_keys(pilot: Pilot[None], app: CodaApp) -> None:
    """The opening: b and w choose the colours, Enter takes the tiles."""
    assert text(app, "#status").startswith("Take your 4 tiles")
    await pilot.press("b")
    assert "(3 black, 1 white)" in text(app, "#status")
    await pilot.press("w", "w")
    assert "(1 black, 3 white)" in text(app, "#status")
    await pilot.press("enter")
    assert app.game.history[0] == "You: opening tiles, 1 black and 3 white"
    assert len(app.game.state.rows[1]) == 4  # the computer took its tiles at once
    assert (app.game.state.turn, app.game.state.phase) == (HUMAN, Phase.DRAW)


async def draw_the_fuller_colour(pilot: Pilot[None], app: CodaApp, *, mouse: bool) -> None:
    color = max(Color, key=app.game.state.pool.count)
    if mouse:
        assert await pilot.click(f"#pile-{color.value}")
    else:
        await pilot.press(color.letter)
    assert app.game.state.phase is Phase.ATTACK and app.game.state.hand[0].color is color
    assert app.game.history[-1] == f"You: drawn tile, {color.value}"


async def right_attack(
    pilot: Pilot[None], app: CodaApp, target: tuple[int, int], *, mouse: bool
) -> None:
    """A right attack: the tile turns face up and the person may attack again or stop."""
    await attack(pilot, app, *target, hidden_value(app, *target), mouse=mouse)
    if app.game.state.is_over:
        return
    assert app.game.history[-1].endswith("? right")
    assert app.game.state.rows[target[0]][target[1]].revealed
    assert tile(app, *target).has_class("-up")
    color = app.game.state.rows[target[0]][target[1]].tile.color
    assert str(tile(app, *target).content) == marked_face(color, hidden_value(app, *target))
    assert text(app, "#status").startswith("Right! Attack again")
    assert shown_keys(app)["s"] == "stop"


async def stop_and_hide(pilot: Pilot[None], app: CodaApp) -> None:
    """A stop: the drawn tile goes into the row hidden, and the computer plays."""
    drawn, logged = app.game.state.hand[0], len(app.game.history)
    await pilot.press("s")
    assert app.game.history[logged] == "You: stop, end of turn"
    # In the row (the computer, which has played since, may have found it), not face up.
    assert drawn in [slot.tile for slot in app.game.state.rows[HUMAN]]
    assert f"You: {drawn.color.value} {drawn.value} face up into the row" not in app.game.history


async def wrong_attack(
    pilot: Pilot[None], app: CodaApp, target: tuple[int, int], *, mouse: bool
) -> None:
    """A wrong attack: the drawn tile goes into the row face up and the turn ends."""
    drawn, logged = app.game.state.hand[0], len(app.game.history)
    await attack(pilot, app, *target, wrong_value(app, *target), mouse=mouse)
    assert app.game.history[logged].endswith("? wrong")
    name = f"{drawn.color.value} {drawn.value}"
    assert app.game.history[logged + 1] == f"You: {name} face up into the row"
    assert any(slot.tile == drawn and slot.revealed for slot in app.game.state.rows[HUMAN])


def test_a_short_game_with_keys_and_clicks() -> None:
    """The window's side of a game (whole games are played without it, in
    `tests/coda/test_coda_controller.py`): the colour keys, a draw by click, a right attack by
    clicks and one by keys, a stop, a draw by key and a wrong attack by keys."""

    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        await take_with_the_colour_keys(pilot, app)
        await draw_the_fuller_colour(pilot, app, mouse=True)
        await right_attack(pilot, app, (1, app.game.state.hidden(1)[0]), mouse=True)
        await right_attack(pilot, app, (1, app.game.state.hidden(1)[-1]), mouse=False)
        assert app.game.state.hits == 2
        await stop_and_hide(pilot, app)
        assert (app.game.state.turn, app.game.state.phase) == (HUMAN, Phase.DRAW)
        await draw_the_fuller_colour(pilot, app, mouse=False)
        await wrong_attack(pilot, app, (1, app.game.state.hidden(1)[0]), mouse=False)
        assert not app.game.state.is_over

    drive(make_app(), scenario)


async def miss_until_the_computer_wins(pilot: Pilot[None], app: CodaApp) -> None:
    """Take the opening, then attack the computer's tiles with wrong values until it has won."""
    await pilot.press("enter")
    while not app.game.state.is_over:
        state = app.game.state
        if state.phase is Phase.DRAW:
            await pilot.press("b" if state.pool.count(Color.BLACK) else "w")
        elif state.phase is Phase.REVEAL:
            await pilot.press("enter")
        else:
            target = (1, state.hidden(1)[0])
            await attack(pilot, app, *target, wrong_value(app, *target))


def test_a_computer_that_wins_starts_the_next_game() -> None:
    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        await miss_until_the_computer_wins(pilot, app)
        assert app.game.state.winner == 1 and app.game.wins == [0, 1]
        assert app.game.history[-2:] == ["You: out of the game", "Winner: Computer A"]
        assert text(app, "#status") == (
            "Winner: Computer A. n starts a new game, and Computer A plays first"
        )
        await pilot.press("n")
        # The computer took its tiles first; now the person takes theirs.
        assert app.game.state.starter == 1
        assert app.game.history[:2] == [
            "New game; first to play: Computer A",
            app.game.history[1],
        ] and app.game.history[1].startswith("Computer A: opening tiles")
        assert (app.game.state.turn, app.game.state.phase) == (HUMAN, Phase.TAKE)
        assert "Wins: You 0 · Computer A 1" in text(app, "#title")

    drive(make_app(), scenario)


# No secret on screen


def test_no_computer_hidden_number_reaches_the_screen_before_the_end() -> None:
    """A whole advanced game against two computers, the person playing like the easy player;
    after every single action, the person's and each computer's, the computers' hidden tiles
    show only their backs; at the first moment of each kind (whose turn, the phase, a tile in
    hand or not), the whole screen is compared with the one drawn when every secret changes.
    (`tests/coda/test_coda_controller.py` compares the scene, all the screen shows, at every
    step.)"""
    person = strategy(Level.EASY)
    person_rng = random.Random(7)
    checks, kinds = 0, set()

    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        nonlocal checks
        while not app.game.state.is_over:
            if app.game.state.turn == HUMAN:
                # Through the controller: the keys are tested on their own above.
                act(app.game, person(app.game.view, person_rng))
                app.redraw()
            else:
                # The timer of a computer's pause is tested on its own below.
                assert app.game.computer_to_play
                assert app.computer_step()
            state = app.game.state
            if not state.is_over:
                kind = (state.turn, state.phase, bool(state.hand), state.face_up)
                await assert_no_secret_on_screen(pilot, app, whole_screen=kind not in kinds)
                kinds.add(kind)
                checks += 1
        # At the end, every tile is shown with its number.
        for player in (1, 2):
            for index, slot in enumerate(app.game.state.rows[player]):
                face = marked_face(slot.tile.color, slot.tile.value)
                assert str(tile(app, player, index).content) == face

    app = make_app(Level.EASY, Level.HARD, advanced=True, delay_s=3600)
    drive(app, scenario)
    assert checks > 40 and len(kinds) > 10


# The advanced game: the dashes


def test_the_advanced_opening_lays_out_each_dash_where_the_person_puts_it() -> None:
    # The person takes b-, b3, w-, w5: two dashes to lay out, the black one first.
    pool = stacked("b- b3", "w- w5", advanced=True)
    first = GameState.start(pool, players=2, starter=HUMAN)

    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        await pilot.press("enter")
        assert app.game.state.phase is Phase.ARRANGE
        assert text(app, "#status").startswith("Lay out your row: ← → move your black dash")
        # The dash being laid out starts on the left, the other waits at the right end.
        assert faces(app, 4) == ["—", "3", "5", "—"]
        assert tile(app, HUMAN, 0).has_class("-placing")
        assert await pilot.click("#tile-0-2")
        assert app.game.choices.dash_cursor == 2 and faces(app, 4) == ["3", "5", "—", "—"]
        await pilot.press("left")
        assert app.game.choices.dash_cursor == 1 and faces(app, 4) == ["3", "—", "5", "—"]
        await pilot.press("enter")
        assert text(app, "#status").startswith("Lay out your row: ← → move your white dash")
        # The white dash skips the place the black one took.
        assert app.game.choices.dash_cursor == 0
        await pilot.press("right")
        assert app.game.choices.dash_cursor == 2
        await pilot.press("enter")
        assert row(app.game.state, HUMAN) == "b3 b- w- w5"
        assert app.game.state.turn == HUMAN and app.game.state.phase is Phase.DRAW

    drive(make_app(advanced=True, first_game=first), scenario)


def test_a_drawn_dash_goes_where_the_person_places_it() -> None:
    # Both openings are played by the rules before the app opens: black tiles only, so the
    # first white tile is the white dash, and the person draws first.
    pool = stacked("b0 b2 b4 b6 b8 b10 b1 b3", "w-", advanced=True)
    first = play(
        GameState.start(pool, players=2, starter=HUMAN),
        TakeTiles(4, 0),
        Arrange(),
        TakeTiles(4, 0),
        Arrange(),
    )

    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        await pilot.press("w")
        assert app.game.state.hand == (Tile(Color.WHITE, DASH),)
        assert str(app.query_one("#hand-0", TileView).content) == "○—"
        await attack(pilot, app, 1, 0, 1)  # right: the computer's row is b1 b3 b8 b10
        await pilot.press("s")
        assert app.game.state.phase is Phase.PLACE
        assert text(app, "#status") == (
            "Place your drawn tile white dash: ← → choose where, ⏎ puts it there, hidden"
        )
        # A dash may go anywhere: the row shows it where it would go.
        assert app.game.view.place_slots() == (0, 1, 2, 3, 4)
        assert faces(app, 5) == ["—", "0", "2", "4", "6"]
        assert tile(app, HUMAN, 0).has_class("-placing")
        await pilot.press("left")
        assert app.game.choices.slot == 4 and faces(app, 5) == ["0", "2", "4", "6", "—"]
        assert await pilot.click("#tile-0-1")
        assert app.game.choices.slot == 1 and faces(app, 5) == ["0", "—", "2", "4", "6"]
        await pilot.press("enter")
        assert row(app.game.state, HUMAN) == "b0 w- b2 b4 b6"
        # A hidden placement says nothing in the log: where the dash went is the person's secret.
        assert app.game.history[-2:] == [
            "You → Computer A, tile 1 (black): 1? right",
            "You: stop, end of turn",
        ]
        assert app.game.state.turn == 1 and app.waiting_for_computer

    drive(make_app(advanced=True, first_game=first, delay_s=3600), scenario)


# Keys, clicks and timers


def test_values_by_digits_arrows_clicks_and_the_dash_key() -> None:
    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        await pilot.press("enter", "b")
        assert app.game.state.phase is Phase.ATTACK
        for keys, value in ((["1", "0"], 10), (["1", "1"], 11), (["1", "5"], 5), (["7"], 7)):
            await pilot.press(*keys)
            assert app.game.choices.value == value
        await pilot.press("up")
        assert app.game.choices.value == 8
        await pilot.press("1", "1", "up")
        assert app.game.choices.value == DASH  # the advanced game names the dash after 11
        await pilot.press("up")
        assert app.game.choices.value == 0
        await pilot.press("minus")
        assert app.game.choices.value == DASH
        assert await pilot.click("#value-4")
        assert app.game.choices.value == 4
        assert app.query_one("#value-4", ValueKey).has_class("-chosen")
        assert "Value: 4?" in text(app, "#target")

    drive(make_app(advanced=True), scenario)


def test_the_basic_game_has_no_dash_to_name_and_keys_only_work_in_their_phase() -> None:
    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        assert set(shown_keys(app)) == {"b", "w", "enter", "h", "q"}
        await pilot.press("s", "left", "5")  # nothing to stop, choose or name yet
        assert app.game.state.phase is Phase.TAKE and app.game.choices.value == 0
        await pilot.press("enter", "b", "9", "minus")
        assert app.game.choices.value == 9
        assert "minus" not in shown_keys(app) and "s" not in shown_keys(app)
        assert shown_keys(app)["enter"] == "attack"

    drive(make_app(), scenario)


async def footer_key(pilot: Pilot[None], app: CodaApp, description: str) -> Widget:
    """The footer's key of that description (`FooterKey` is not exported: found by name), once
    the footer has composed it, a few messages after the bindings change."""

    def keys() -> list[Widget]:
        return [k for k in app.query("FooterKey") if getattr(k, "description", "") == description]

    await wait_until(pilot, keys, f"the footer's {description!r}")
    (key,) = keys()
    return key


def test_footer_keys_are_clickable() -> None:
    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        assert await pilot.click(await footer_key(pilot, app, "take"))
        assert app.game.state.phase is Phase.DRAW
        assert await pilot.click(await footer_key(pilot, app, "white"))
        assert app.game.state.hand[0].color is Color.WHITE

    drive(make_app(), scenario)


def test_computers_wait_for_their_timer_and_computer_step_plays_one_action() -> None:
    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        await pilot.press("enter")
        # The computer's opening waits for the timer: the person's keys do nothing meanwhile.
        assert app.game.state.turn == 1 and app.waiting_for_computer
        assert text(app, "#status") == "Turn: Computer A…"
        assert set(shown_keys(app)) == {"h", "q"}
        await pilot.press("b", "enter")
        assert app.game.state.turn == 1
        assert app.computer_step()
        await pilot.pause()
        assert app.game.history[-1].startswith("Computer A: opening tiles")
        assert app.game.state.turn == HUMAN and not app.waiting_for_computer
        assert not app.computer_step()  # not a computer's turn
        await pilot.press("b")
        target = (1, app.game.state.hidden(1)[0])
        await attack(pilot, app, *target, wrong_value(app, *target))
        # Each computer action is a step of its own: draw, then attack.
        assert app.computer_step()
        assert app.game.history[-1].startswith("Computer A: drawn tile")
        logged = len(app.game.history)
        assert app.computer_step()
        assert app.game.history[logged].startswith("Computer A → You")

    drive(make_app(delay_s=3600), scenario)


def test_the_help_tells_the_keys_and_the_time_rule() -> None:
    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        await pilot.press("h")
        assert isinstance(app.screen, HelpScreen)
        help_text = str(app.screen.query_one("#help", Static).content)
        assert "time rule" in help_text and "--timer" in help_text
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)

    drive(make_app(), scenario)


def test_the_help_scrolls_to_its_last_line_in_an_80_by_24_terminal() -> None:
    async def main() -> None:
        async with make_app().run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("h")
            await pilot.pause()
            frame = pilot.app.screen.query_one("#help-frame", VerticalScroll)
            assert frame.max_scroll_y > 0, "the help fits: the test no longer shows the scroll"
            assert frame.scroll_y == 0
            await pilot.press("end")
            await pilot.pause()
            assert frame.scroll_y == frame.max_scroll_y
            assert frame.region.bottom <= 24
            await pilot.press("escape")
            assert not isinstance(pilot.app.screen, HelpScreen)

    asyncio.run(main())


def test_the_person_chooses_a_seat_at_the_start_by_key_or_click() -> None:
    async def by_key(pilot: Pilot[None], app: CodaApp) -> None:
        assert isinstance(app.screen, SeatScreen)
        lines = [str(option.content) for option in app.screen.query(SeatOption)]
        assert lines == [
            "1: You → Computer A → Computer B",
            "2: Computer B → You → Computer A",
            "3: Computer A → Computer B → You",
        ]
        await pilot.press("4")  # no fourth seat with three players
        assert isinstance(app.screen, SeatScreen)
        await pilot.press("2")
        await pilot.pause()
        assert not isinstance(app.screen, SeatScreen)
        assert app.game.state.starter == 2 and len(app.game.state.rows[2]) == 4
        assert text(app, "#status").startswith("Take your 4 tiles")
        assert app.query_one(Log).lines[0] == "New game; first to play: Computer B"

    async def by_click(pilot: Pilot[None], app: CodaApp) -> None:
        await pilot.click("#seat-3")
        await pilot.pause()
        assert not isinstance(app.screen, SeatScreen) and app.game.state.starter == 1

    async def by_escape(pilot: Pilot[None], app: CodaApp) -> None:
        await pilot.press("escape")
        assert not isinstance(app.screen, SeatScreen) and app.game.state.starter == HUMAN
        await pilot.press("enter")  # the opening, now that the seat is taken
        assert len(app.game.state.rows[HUMAN]) == 4

    for scenario in (by_key, by_click, by_escape):
        drive(make_app(Level.EASY, Level.HARD, choose_seat=True), scenario)


def test_without_the_choice_the_game_opens_on_the_board() -> None:
    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        assert not isinstance(app.screen, SeatScreen)

    drive(make_app(), scenario)


def test_a_game_with_three_computers_deals_three_tiles_each_and_names_them() -> None:
    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        assert text(app, "#status").startswith("Take your 3 tiles")
        await pilot.press("enter")
        assert [len(r) for r in app.game.state.rows] == [3, 3, 3, 3]
        assert text(app, "#label-3").splitlines()[:2] == ["  Computer C", "  hard"]

    drive(make_app(Level.EASY, Level.HARD, Level.HARD), scenario)


# Languages


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name}


@pytest.mark.parametrize("language", sorted(TEXTS))
def test_every_language_has_every_text_with_the_english_placeholders(language: str) -> None:
    texts = TEXTS[language]
    assert set(texts) == set(CodaTexts.__annotations__)
    for key, english in ENGLISH.items():
        assert placeholders(texts[key]) == placeholders(english), key  # type: ignore[literal-required]
        assert texts[key].strip(), key  # type: ignore[literal-required]


def test_the_app_speaks_the_language_asked_for() -> None:
    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        assert text(app, "#title").startswith("Coda · gioco base · Vittorie: Tu 0")
        assert text(app, "#status").startswith("Prendi le tue 4 tessere")
        assert shown_keys(app)["enter"] == ITALIAN["key_take"]
        await pilot.press("enter", "w")
        assert app.game.history[-1] == "Tu: tessera pescata, bianca"
        assert str(app.query_one("#pile-white", PileView).content).startswith("bianche: ")

    drive(make_app(language="it"), scenario)


# The main screen


def test_snapshot_main_screen(snap_compare: Any) -> None:
    async def before(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, CodaApp)
        await pilot.press("enter", "b")
        target = (1, app.game.state.hidden(1)[0])
        await attack(pilot, app, *target, wrong_value(app, *target))
        await pilot.press("w")

    app = make_app(Level.EASY, Level.HARD)
    assert snap_compare(app, terminal_size=SIZE, run_before=before)


@pytest.mark.parametrize("language", sorted(TEXTS))
def test_the_attack_prompt_fits_one_line_of_the_status_at_120_columns(language: str) -> None:
    app = make_app(advanced=True, language=language)

    async def main() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press("enter", "b")
            await pilot.pause()
            assert app.game.state.phase is Phase.ATTACK
            status = app.query_one("#status", Static)
            prompt = str(status.content)
            assert prompt.endswith("⏎") and len(prompt) <= status.content_region.width

    asyncio.run(main())


def test_black_and_white_tiles_are_marked_by_a_shape_as_well_as_a_colour() -> None:
    app = make_app()

    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        await pilot.press("enter")
        await pilot.pause()
        for player, tiles in enumerate(app.game.state.rows):
            for index, slot in enumerate(tiles):
                mark = COLOUR_MARKS[slot.tile.color]
                assert str(tile(app, player, index).content).startswith(mark)
        assert set(COLOUR_MARKS.values()) == {"●", "○"}

    drive(app, scenario)


def test_the_log_on_screen_keeps_its_lines_as_tiles_go_in_before_the_tiles_they_name() -> None:
    app = make_app(Level.HARD, Level.EASY, delay_s=3600)
    person, person_rng = strategy(Level.EASY), random.Random(2)

    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        log = app.query_one(Log)
        before: list[str] = list(app.game.history)
        while not app.game.state.is_over:
            if app.game.state.turn == HUMAN:
                act(app.game, person(app.game.view, person_rng))
                app.redraw()
            else:
                assert app.computer_step()
            await pilot.pause()
            assert list(log.lines) == app.game.history
            assert app.game.history[: len(before)] == before
            before = list(app.game.history)
        rows = app.game.state.rows
        moved = [
            (player, index)
            for player, row in enumerate(rows)
            for index in range(len(row))
            if app.game.tile_label(player, index) != index + 1
        ]
        assert moved and any(f"tile {app.game.tile_label(*m)} " in "".join(before) for m in moved)

    drive(app, scenario)


def test_under_the_time_rule_an_attack_not_made_in_time_turns_the_drawn_tile_face_up() -> None:
    app = make_app(time_rule=True, delay_s=3600)

    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        await pilot.press("enter")
        assert not app.game.attack_timed and not app.time_up()  # nothing to time yet
        while app.game.state.turn != HUMAN:
            assert app.computer_step()
        await pilot.press("b")
        drawn = app.game.state.hand[0]
        assert app.game.attack_timed and app.attack_clock_running
        assert app.time_up() and not app.attack_clock_running
        assert app.game.history[-2:] == [
            "You: time is up",
            f"You: black {drawn.value} face up into the row",
        ]
        assert any(slot.tile == drawn and slot.revealed for slot in app.game.state.rows[HUMAN])

    drive(app, scenario)


def test_without_the_time_rule_no_clock_runs_for_an_attack() -> None:
    app = make_app(delay_s=0)

    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        await pilot.press("enter", "b")
        assert app.game.state.phase is Phase.ATTACK and not app.attack_clock_running
        assert not app.time_up() and app.game.state.phase is Phase.ATTACK

    drive(app, scenario)


def test_q_during_a_game_asks_first_and_any_other_key_plays_on() -> None:
    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        await pilot.press("q")
        assert app.is_running and app.leaving
        assert text(app, "#status") == ENGLISH["status_leave"]
        await pilot.press("b")
        assert app.is_running and not app.leaving
        assert text(app, "#status") != ENGLISH["status_leave"]
        await pilot.press("q", "q")
        await pilot.pause()
        assert not app.is_running

    drive(make_app(), scenario)


def test_q_once_the_game_is_over_leaves_at_once() -> None:
    async def scenario(pilot: Pilot[None], app: CodaApp) -> None:
        await miss_until_the_computer_wins(pilot, app)
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running

    drive(make_app(), scenario)


@pytest.mark.parametrize("language", sorted(TEXTS))
def test_the_wins_read_as_one_number_per_player(language: str) -> None:
    app = make_app(Level.EASY, Level.HARD, Level.EXPERT, language=language)
    title = scene(app.game).title
    tally = title.rsplit(": ", 1)[1]
    # Each entry is a name without a digit and then its wins: one number per player.
    for entry in tally.split(" · "):
        name, wins = entry.rsplit(" ", 1)
        assert wins.isdigit() and not any(ch.isdigit() for ch in name), entry
