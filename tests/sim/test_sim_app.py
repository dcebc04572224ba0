"""The desktop simulation driven through Textual's pilot: clicks and keys on the real virtual table.

Every app here runs with `realtime=False`: the virtual clock moves only when a test calls
`app.advance`, so blinking, holds and notices land at the same moment on every run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.color import Color
from textual.pilot import Pilot
from textual.widgets import Static

from board_rules.codenames import ALL_COORDS, Coord, Phase, Team
from firmware.cli.sim import default_state_dir
from firmware.drivers.led_layout import Side
from firmware.sim.app import SimApp
from firmware.sim.widgets import (
    CardLook,
    CardView,
    LedKeyView,
    OledView,
    braille_rows,
    screen_colour,
)
from firmware.table.config import TableConfig
from firmware.table.words import WordSource, language_words

from ..conftest import Cli
from ..rules_helpers import KEY

# Red starts: A1–E1, A2–D2 red; E2, A3–E3, A4, B4 blue; C4–E4, A5–D5 bystanders; E5 assassin.
RED = [Coord.parse(name) for name in ("A1", "B1", "C1", "D1", "E1", "A2", "B2", "C2", "D2")]
_WORD_TEXT = (
    "APPLE BRIDGE CASTLE DRAGON ENGINE FOREST GARDEN HARBOUR ISLAND JUNGLE KETTLE LANTERN "
    "MIRROR NEEDLE ORANGE PENGUIN QUEEN ROCKET SADDLE TABLE UMBRELLA VIOLIN WHISTLE YACHT "
    "ZEBRA ANCHOR BUTTON CANDLE DOLPHIN FEATHER"
)
WORDS = WordSource(_WORD_TEXT.split())
SIZE = (120, 38)
WALL_CLOCK = 1_800_000_000.0

Scenario = Callable[[Pilot[None], SimApp], Awaitable[None]]


def make_app(state_dir: Path, **options: Any) -> SimApp:
    settings: dict[str, Any] = {
        "words": WORDS,
        "seed": 1,
        "first_key": KEY,
        "realtime": False,
        "wall_clock_start": WALL_CLOCK,
    }
    settings.update(options)
    return SimApp(TableConfig(), state_dir, **settings)


def drive(app: SimApp, scenario: Scenario) -> None:
    """Run `app` headless at a fixed size and play `scenario` on it."""

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await scenario(pilot, app)

    asyncio.run(main())


async def keys(pilot: Pilot[None], app: SimApp, *names: str, seconds: float = 0.3) -> None:
    """Press keys one after the other, letting `seconds` of table time pass after each."""
    for name in names:
        await pilot.press(name)
        app.advance(seconds)
    await pilot.pause()


async def click(pilot: Pilot[None], app: SimApp, *cards: str) -> None:
    """Click cards one after the other, as a quick hand would."""
    for card in cards:
        assert await pilot.click(f"#card-{card}")
        app.advance(0.3)
    await pilot.pause()


def card(app: SimApp, name: str) -> CardView:
    return app.query_one(f"#card-{name}", CardView)


def oled_lines(app: SimApp) -> list[str]:
    screen = app.vt.display.screen
    assert screen is not None
    return screen.text_lines


def recent(app: SimApp) -> list[str]:
    """The latest input events the table received, newest first, as the drivers name them."""
    return [str(event) for event in app.recent]


def key_classes(app: SimApp) -> dict[str, set[str]]:
    """The key shown on each card, as its CSS classes."""
    return {
        str(coord): {c for c in card(app, str(coord)).classes if c.startswith("-key-")}
        for coord in ALL_COORDS
    }


# Playing with the mouse and the keyboard


def test_a_clicked_card_is_guessed_and_shows_its_word_on_the_covering_colour(
    tmp_path: Path,
) -> None:
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        await keys(pilot, app, "plus", "space")  # the selector starts at 1: a clue for 2
        assert app.vt.table.state.phase is Phase.GUESS
        await click(pilot, app, "A1")
        state = app.vt.table.state
        assert state.covered == {Coord.parse("A1")}
        assert oled_lines(app)[1:3] == ["Red agent", "Guess again"]
        a1, b1 = card(app, "A1"), card(app, "B1")
        assert a1.has_class("-covered-red")
        assert a1.styles.background == Color.parse("#b3261e")
        assert str(a1.content) == app.deal[Coord.parse("A1")]
        assert not b1.has_class("-covered-red")
        assert b1.styles.background == Color.parse("#e6e4dc")
        # The real scanner saw the pad: the events line shows what it reported.
        assert "pad A1 pressed" in recent(app) and "pad A1 released" in recent(app)
        events = app.query_one("#events", Static).content
        assert str(events).startswith("Input: A1 released · A1 · ")

    drive(make_app(tmp_path), scenario)


def test_every_identity_covers_in_its_own_colour(tmp_path: Path) -> None:
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        await keys(pilot, app, "space")  # red: clue 1
        await click(pilot, app, "A3")  # blue agent: red's turn ends
        await keys(pilot, app, "space")  # blue: clue 1
        await click(pilot, app, "C4")  # a bystander: blue's turn ends
        await keys(pilot, app, "space")
        await click(pilot, app, "E5")  # the assassin
        colours = {name: card(app, name).styles.background for name in ("A3", "C4", "E5", "A1")}
        assert colours == {
            "A3": Color.parse("#1f4fa3"),
            "C4": Color.parse("#d2b48c"),
            "E5": Color.parse("#0c0c0c"),
            "A1": Color.parse("#e6e4dc"),  # still uncovered
        }

    drive(make_app(tmp_path), scenario)


def test_a_typed_coordinate_and_enter_press_the_card(tmp_path: Path) -> None:
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        await keys(pilot, app, "space", "c", "3")
        assert app.card_entry == "C3"
        assert app.vt.table.state.covered == frozenset()  # nothing pressed before Enter
        await keys(pilot, app, "enter")
        assert app.card_entry == ""
        state = app.vt.table.state
        assert state.covered == {Coord.parse("C3")}
        assert state.turn is Team.BLUE  # C3 is blue's: red's turn is over
        assert card(app, "C3").has_class("-covered-blue")

    drive(make_app(tmp_path), scenario)


def test_a_typed_coordinate_can_be_corrected_and_a_bad_one_presses_nothing(
    tmp_path: Path,
) -> None:
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        await keys(pilot, app, "space", "e", "5", "backspace", "a", "1")
        assert app.card_entry == "A1"
        await keys(pilot, app, "escape", "3", "enter")  # a row without a column
        assert app.card_entry == ""
        assert app.vt.table.state.covered == frozenset()
        await keys(pilot, app, "b", "1", "enter")
        assert app.vt.table.state.covered == {Coord.parse("B1")}

    drive(make_app(tmp_path), scenario)


def test_a_short_key_press_does_not_hold_and_shift_holds_past_the_hold_time(
    tmp_path: Path,
) -> None:
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        await keys(pilot, app, "space")
        await click(pilot, app, "A1")
        await keys(pilot, app, "u", seconds=2.0)  # UNDO needs a hold of 1 s
        assert app.vt.table.state.covered == {Coord.parse("A1")}
        await keys(pilot, app, "U", seconds=2.0)
        assert app.vt.table.state.covered == frozenset()
        assert "undo held" in recent(app)
        assert not card(app, "A1").has_class("-covered-red")

    drive(make_app(tmp_path), scenario)


def test_a_console_button_held_with_the_mouse_is_a_long_press(tmp_path: Path) -> None:
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        await keys(pilot, app, "space")
        await click(pilot, app, "A1")
        assert await pilot.mouse_down("#switch-undo")
        app.advance(0.5)
        assert app.vt.table.state.covered == {Coord.parse("A1")}  # not held long enough yet
        app.advance(0.7)
        assert app.vt.table.state.covered == frozenset()
        assert await pilot.mouse_up("#switch-undo")
        app.advance(0.2)
        assert recent(app)[0] == "undo released"

    drive(make_app(tmp_path), scenario)


def test_a_click_during_a_keys_long_press_does_not_cut_it_short(tmp_path: Path) -> None:
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        await keys(pilot, app, "space")
        await click(pilot, app, "A1")
        await pilot.press("U")
        app.advance(0.2)
        assert await pilot.click("#switch-undo")
        app.advance(1.3)
        assert app.vt.table.state.covered == frozenset()
        assert "undo held" in recent(app)

    drive(make_app(tmp_path), scenario)


def test_the_encoder_turns_by_click_and_by_key(tmp_path: Path) -> None:
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        assert oled_lines(app)[2] == "« 1 »"
        assert await pilot.click("#knob-up")
        assert await pilot.click("#knob-up")
        app.advance(0.1)
        assert oled_lines(app)[2] == "« 3 »"
        await keys(pilot, app, "minus")
        assert oled_lines(app)[2] == "« 2 »"
        assert await pilot.click("#switch-push")
        app.advance(0.3)
        assert app.vt.table.state.clue == 2

    drive(make_app(tmp_path), scenario)


def test_a_whole_short_game_then_a_new_one(tmp_path: Path) -> None:
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        await keys(pilot, app, "minus", "space")  # clue 0: no limit on guesses
        await click(pilot, app, *(str(coord) for coord in RED))
        state = app.vt.table.state
        assert state.is_over and state.winner is Team.RED
        assert oled_lines(app)[0] == "Red team wins"
        first_deal = dict(app.deal)
        await keys(pilot, app, "N", seconds=3.0)  # NEW needs a hold of 2 s
        state = app.vt.table.state
        assert not state.is_over and state.covered == frozenset()
        assert app.deal != first_deal  # a new game deals new words
        assert all(not card(app, str(c)).has_class("-covered-red") for c in RED)
        assert all(card(app, str(c)).look == CardLook(app.deal[c]) for c in ALL_COORDS)

    drive(make_app(tmp_path), scenario)


# What the key shows


def test_spymaster_view_shows_the_key_on_the_cards_and_hides_it_again(tmp_path: Path) -> None:
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        assert all(not shown for shown in key_classes(app).values())
        await keys(pilot, app, "k")
        shown = key_classes(app)
        assert {name: classes for name, classes in shown.items() if name in ("A1", "E2")} == {
            "A1": {"-key-red"},
            "E2": {"-key-blue"},
        }
        assert shown["C4"] == {"-key-bystander"} and shown["E5"] == {"-key-assassin"}
        assert card(app, "A1").styles.color == Color.parse("#b3261e")
        await keys(pilot, app, "k")
        assert all(not shown for shown in key_classes(app).values())

    drive(make_app(tmp_path), scenario)


def test_at_game_over_the_cards_show_the_whole_key(tmp_path: Path) -> None:
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        await keys(pilot, app, "space")
        await click(pilot, app, "E5")  # red touches the assassin
        assert app.vt.table.state.winner is Team.BLUE
        assert oled_lines(app)[:2] == ["Blue team wins", "Red met the assassin"]
        assert not app.spymaster_view
        for coord in ALL_COORDS:
            view = card(app, str(coord))
            identity = KEY[coord].value
            if coord == Coord.parse("E5"):
                assert view.has_class("-covered-assassin")
            else:
                assert key_classes(app)[str(coord)] == {f"-key-{identity}"}

    drive(make_app(tmp_path), scenario)


def test_the_led_key_shows_what_the_strip_shows_and_blinks_with_it(tmp_path: Path) -> None:
    def strip_colour(app: SimApp, index: int) -> Color:
        return screen_colour(app.vt.pixel_strip.shown_rgb()[index], app.vt.lights.style.gamma)

    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        leds, layout = app.query_one(LedKeyView), app.vt.lights.layout
        for coord in ALL_COORDS:
            assert leds.cell(coord).colour == strip_colour(app, layout.index(coord))
        for side in Side:
            assert leds.cell(side).colour == strip_colour(app, layout.edge_index(side))
        # The edge lights show the starting team.
        top = leds.cell(Side.TOP).colour
        assert top.r > 0 and top.g == 0 and top.b == 0
        assassin = leds.cell(Coord.parse("E5"))
        high = assassin.colour
        app.advance(0.5)  # the assassin blinks at 1 Hz: now in its low half
        assert assassin.colour != high
        assert assassin.colour.brightness < high.brightness
        assert assassin.styles.color == assassin.colour
        await keys(pilot, app, "space")
        await click(pilot, app, "A1")
        # A covered cell is dimmed on the strip, and so on the screen.
        covered, uncovered = (leds.cell(Coord.parse(name)).colour for name in ("A1", "B1"))
        assert covered.r < uncovered.r

    drive(make_app(tmp_path), scenario)


def test_the_oled_is_the_chips_memory_pixel_for_pixel(tmp_path: Path) -> None:
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        await keys(pilot, app, "plus", "plus")
        glass = app.vt.chip.visible_image()
        rows = app.query_one(OledView).rows
        assert (len(rows), {len(row) for row in rows}) == (16, {64})
        lit = {(x, y) for x in range(128) for y in range(64) if glass.getpixel((x, y))}
        assert lit and _decode_braille(rows) == lit
        assert rows == braille_rows(glass)
        assert oled_lines(app)[2] == "« 3 »"

    drive(make_app(tmp_path), scenario)


def _decode_braille(rows: tuple[str, ...]) -> set[tuple[int, int]]:
    """The lit pixels of braille text, decoded independently of the code under test."""
    dots = {0x01: (0, 0), 0x02: (0, 1), 0x04: (0, 2), 0x08: (1, 0)}
    dots |= {0x10: (1, 1), 0x20: (1, 2), 0x40: (0, 3), 0x80: (1, 3)}
    lit = set()
    for cy, row in enumerate(rows):
        for cx, char in enumerate(row):
            bits = ord(char) - 0x2800
            lit |= {(2 * cx + dx, 4 * cy + dy) for bit, (dx, dy) in dots.items() if bits & bit}
    return lit


# Languages


def test_the_menu_switches_the_oled_at_once_and_the_words_only_with_a_new_game(
    tmp_path: Path,
) -> None:
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        english = dict(app.deal)
        assert set(english.values()) <= set(language_words("en"))
        await keys(pilot, app, "m", seconds=1.5)  # a long push opens the menu
        assert oled_lines(app)[0] == "Menu"
        await keys(pilot, app, "plus", "space")  # to Language, and on to the next: Spanish
        assert app.vt.table.settings.language == "es"
        assert oled_lines(app)[0] == "Menú"
        await keys(pilot, app, "m", seconds=1.5)  # and close it
        assert oled_lines(app)[0] == "Jefe de espías rojo"
        # The game in play keeps the words it was dealt, on screen and in the app.
        assert app.deal == english
        assert {str(card(app, str(c)).content) for c in ALL_COORDS} == set(english.values())
        await keys(pilot, app, "N", seconds=3.0)  # hold NEW (2 s): the next game speaks Spanish
        assert app.vt.table.state.covered == frozenset()
        spanish = set(language_words("es"))
        assert set(app.deal.values()) <= spanish
        assert {str(card(app, str(c)).content) for c in ALL_COORDS} <= spanish

    drive(make_app(tmp_path, words=None), scenario)


def test_a_resumed_game_keeps_the_language_it_was_dealt_in(tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    async def play(pilot: Pilot[None], app: SimApp) -> None:
        seen["deal"] = dict(app.deal)

    drive(make_app(tmp_path, words=None), play)

    async def resume(pilot: Pilot[None], app: SimApp) -> None:
        assert oled_lines(app)[0] == "Capo dell'agenzia rosso"  # the OLED speaks Italian at once
        assert app.deal == seen["deal"]  # the cards keep their English words
        assert set(app.deal.values()) <= set(language_words("en"))

    drive(make_app(tmp_path, words=None, first_key=None, language="it"), resume)


def test_the_lang_option_sets_the_language_of_the_oled_and_of_the_words(tmp_path: Path) -> None:
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        assert oled_lines(app)[0] == "Capo dell'agenzia rosso"
        italian = set(language_words("it"))
        assert {str(card(app, str(c)).content) for c in ALL_COORDS} <= italian

    drive(make_app(tmp_path, words=None, language="it"), scenario)


# Closing and resuming


def test_closing_the_app_and_starting_again_resumes_the_game_and_its_words(
    tmp_path: Path,
) -> None:
    seen: dict[str, Any] = {}

    async def play(pilot: Pilot[None], app: SimApp) -> None:
        await keys(pilot, app, "space")
        await click(pilot, app, "A1", "B1")
        seen.update(state=app.vt.table.state, deal=dict(app.deal))

    first = make_app(tmp_path)
    drive(first, play)
    assert not first.vt.store.available  # leaving the app closed the table and its store

    async def resume(pilot: Pilot[None], app: SimApp) -> None:
        state = app.vt.table.state
        assert state == seen["state"]
        assert state.covered == {Coord.parse("A1"), Coord.parse("B1")}
        assert app.deal == seen["deal"]
        assert card(app, "B1").has_class("-covered-red")
        assert str(card(app, "B1").content) == seen["deal"][Coord.parse("B1")]

    # No first key and another seed: everything comes from the saved game.
    drive(make_app(tmp_path, first_key=None, seed=99), resume)


def test_the_real_time_clock_moves_the_table_on_its_own(tmp_path: Path) -> None:
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        start = app.clock.monotonic()
        # Waits for the clock's own tick, however loaded the machine; the bound only ends a
        # broken run.
        for _ in range(200):
            await pilot.pause(0.05)
            if app.clock.monotonic() > start:
                break
        assert app.clock.monotonic() > start

    drive(make_app(tmp_path, realtime=True), scenario)


# The window and quitting


def test_a_window_too_small_says_the_size_needed_and_the_table_comes_back(tmp_path: Path) -> None:
    async def main() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            message = app.query_one("#too-small", Static)
            assert message.display and not app.query_one("#top").display
            assert "needs a window of 120 × 38 characters; this one is 100 × 30" in str(
                message.content
            )
            await pilot.resize_terminal(119, 40)  # one column short is still too small
            await pilot.pause()
            assert "this one is 119 × 40" in str(message.content)
            await pilot.resize_terminal(*SIZE)
            await pilot.pause()
            assert not message.display and app.query_one("#top").display
            assert card(app, "A1").region.width > 0
            await click(pilot, app, "A1")  # the table is there to play again
            assert "pad A1 pressed" in recent(app)

    asyncio.run(main())


def test_q_quits_saying_where_the_game_is_saved(tmp_path: Path) -> None:
    state_dir = tmp_path / "state"

    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        await keys(pilot, app, "space")
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running

    app = make_app(state_dir)
    drive(app, scenario)
    assert app.goodbye.startswith(f"The game is saved in {state_dir};")
    resumed = make_app(state_dir, first_key=None)
    assert resumed.vt.table.state.clue == 1  # the announced clue was saved
    resumed.close()


def test_q_while_saving_fails_warns_first_and_a_second_q_quits_saying_so(tmp_path: Path) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("not a directory")  # no database can be written here

    app = make_app(blocker)

    async def main() -> None:
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            assert app.vt.table.not_saving is not None
            await pilot.press("q")
            await pilot.pause()
            assert app.is_running and app.goodbye == ""
            toasts = [str(toast.render()) for toast in app.screen.query("Toast")]
            assert any(text.startswith("Not saving: I/O error. Quitting now") for text in toasts)
            await pilot.press("q")
            await pilot.pause()
            assert not app.is_running

    asyncio.run(main())
    assert app.goodbye.startswith("Not saving: I/O error. What was played since saving failed")


# Snapshots of the main screens


def test_snapshot_clue_phase(tmp_path: Path, snap_compare: Any) -> None:
    async def before(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, SimApp)
        await keys(pilot, app, "plus")

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=before)


def test_snapshot_guessing(tmp_path: Path, snap_compare: Any) -> None:
    async def before(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, SimApp)
        await keys(pilot, app, "plus", "space")
        await click(pilot, app, "A1", "A3")  # red then blue: blue's spymaster is next
        await keys(pilot, app, "space")
        await click(pilot, app, "B3")
        app.advance(3.0)  # past the notice

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=before)


def test_snapshot_spymaster_view(tmp_path: Path, snap_compare: Any) -> None:
    async def before(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, SimApp)
        await keys(pilot, app, "space")
        await click(pilot, app, "C1")
        await keys(pilot, app, "k")

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=before)


def test_snapshot_game_over(tmp_path: Path, snap_compare: Any) -> None:
    async def before(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, SimApp)
        await keys(pilot, app, "space")
        await click(pilot, app, "A1", "C4")
        await keys(pilot, app, "space")
        await click(pilot, app, "E5")  # blue meets the assassin

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=before)


# The command


def test_a_custom_word_list_too_short_exits_2_with_a_clear_message(
    tmp_path: Path, cli: Cli
) -> None:
    words = tmp_path / "words.txt"
    words.write_text("ONE\nTWO\n\nONE\n", "utf-8")
    assert cli("sim", "--words", words, "--state-dir", tmp_path / "state") == (
        2,
        "",
        f"codenames-table sim: the word list {words} has 2 distinct words; a game needs 25\n",
    )
    assert not (tmp_path / "state").exists()  # refused before any table was built


def test_script_options_without_headless_and_headless_without_a_script_exit_2(cli: Cli) -> None:
    assert cli("sim", "--script", "game.txt") == (
        2,
        "",
        "codenames-table sim: --script and --oled-png need --headless\n",
    )
    assert cli("sim", "--headless") == (
        2,
        "",
        "codenames-table sim: --headless needs --script FILE\n",
    )


def test_the_state_dir_defaults_to_the_users_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_state_dir() == tmp_path / "data" / "codenames-table"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/path")  # ignored, as the XDG spec says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_state_dir() == tmp_path / "home" / ".local" / "share" / "codenames-table"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_state_dir() == tmp_path / "home" / ".local" / "share" / "codenames-table"


# The window's plain-text aids


def test_the_oled_s_words_stand_as_plain_text_beside_its_picture(tmp_path: Path) -> None:
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        shown = app.query_one("#oled-text", Static)
        assert str(shown.content) == " · ".join(oled_lines(app))
        await keys(pilot, app, "plus", "space")  # clue 2: red guesses
        await click(pilot, app, "A1")
        lines = oled_lines(app)
        assert str(shown.content) == " · ".join(lines)
        assert app.vt.table.state.phase is Phase.GUESS and "Red" in str(shown.content)

    drive(make_app(tmp_path), scenario)


def test_escape_leaves_the_menu_and_clears_a_coordinate_first(tmp_path: Path) -> None:
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        await keys(pilot, app, "m", seconds=1.5)
        assert oled_lines(app)[0] == "Menu"
        await keys(pilot, app, "c")
        await keys(pilot, app, "escape", seconds=1.5)  # the typed "C" goes, the menu stays
        assert app.card_entry == "" and oled_lines(app)[0] == "Menu"
        await keys(pilot, app, "escape", seconds=1.5)
        assert oled_lines(app)[0] == "Red spymaster"
        await keys(pilot, app, "escape", seconds=1.5)  # in play, Esc opens nothing
        assert oled_lines(app)[0] == "Red spymaster"

    drive(make_app(tmp_path), scenario)


@pytest.mark.parametrize("language", ["en", "es", "pt", "it"])
def test_no_word_of_any_list_touches_its_card_s_edge(tmp_path: Path, language: str) -> None:
    longest = max(language_words(language), key=len)
    words = WordSource([longest, *_WORD_TEXT.split()[:24]])

    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        place = next(coord for coord, word in app.deal.items() if word == longest)
        view = card(app, str(place))
        # A blank column at least on each side of the word, inside the card's border.
        assert view.content_region.width >= len(longest) + 2, (longest, view.content_region)

    drive(make_app(tmp_path, words=words), scenario)


def test_an_unknown_key_says_so_where_a_card_is_typed_until_the_next_key(tmp_path: Path) -> None:
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        entry = app.query_one("#entry", Static)
        await keys(pilot, app, "x")
        assert str(entry.content) == "x does nothing: see the keys below"
        assert app.vt.table.state.phase is Phase.CLUE  # and nothing was pressed
        await keys(pilot, app, "c")
        assert str(entry.content).startswith("Card: C")

    drive(make_app(tmp_path), scenario)


def test_drawing_looks_up_no_widget_so_a_late_tick_finds_nothing_missing(tmp_path: Path) -> None:
    # The clock's timer may fire while the window is being taken down, its panels already gone:
    # every redraw (new OLED text, panel titles in a new language, the cards, the typed
    # coordinate) must go to the widgets held, never look one up by name.
    async def scenario(pilot: Pilot[None], app: SimApp) -> None:
        await app.query_one("#top").remove()
        await app.query_one("#bottom").remove()
        await keys(pilot, app, "m", seconds=1.5)  # a long push opens the menu
        await keys(pilot, app, "plus", "space")  # Language: on to Spanish
        await keys(pilot, app, "k", "a", "1")  # the spymaster view, a coordinate typed
        assert app.vt.table.settings.language == "es"
        assert app.spymaster_view and app.card_entry == "A1"

    drive(make_app(tmp_path), scenario)
