"""The desktop simulation: the table's application on virtual hardware, in a Textual window.

Nothing here plays Codenames. A click on a card closes a virtual switch of the matrix that the
real scanner reads through gpiozero's mock pins; the OLED is drawn from the memory of the virtual
SSD1306 that the real driver wrote over the virtual I2C bus; the LED key is what the virtual strip
shows now. The only thing the simulation adds is words on the cards (`firmware.table.words`).

The table runs on a `VirtualClock`. A Textual interval timer moves it on by the real time that
passed, so holds, blinking and the sand timer run at their real speed; tests build the app with
`realtime=False` and move the clock themselves with `advance`, so every picture is repeatable.
Everything happens on Textual's event loop, so the table needs no locks here. What the window
shows follows reactive attributes (the widgets' in `firmware.sim.widgets`, the spymaster view
and the coordinate being typed here), so a tick redraws only what changed; the widgets are held
from their making, never looked up by name, and the clock's timer stops before they go.

The cards keep the words of the language their game was dealt in (`firmware.table.words`
notes it beside the saved games): changing the language mid-game changes the OLED at once and
the words with the next game. A window under `MIN_SIZE` shows only what size the table needs,
and the table again once the window is large enough. `q` says, once the window is gone, where
the game is saved; while saving fails it warns first, and a second `q` quits anyway. The
window's own texts (`firmware.sim.texts`) follow the language of the table, as the OLED does.

What a key or the mouse does to the switches is in `firmware.sim.fingers` (no Textual) and
`firmware.sim.keys` (the key bindings); the widgets are in `firmware.sim.widgets`. This module
lays them out, keeps the time and redraws.
"""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar, Final, get_args

from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Footer, Static

from board_rules.codenames import Coord, Game, InvalidCoordError, Key
from firmware.drivers.clock import VirtualClock
from firmware.drivers.events import ConsoleButton, InputEvent
from firmware.drivers.led_layout import Light, Side
from firmware.sim import texts as t
from firmware.sim.fingers import EncoderPush, Fingers, Switch
from firmware.sim.keys import LED_POWER_KEY, console_bindings, describe_keys, press_time
from firmware.sim.widgets import (
    BUTTON_LABELS,
    GLASS_ROWS,
    LIGHTS,
    CardGrid,
    CardLook,
    ConsoleKey,
    Knob,
    KnobTurned,
    LedKeyView,
    OledView,
    SwitchDown,
    SwitchUp,
    screen_colour,
)
from firmware.table.config import TableConfig
from firmware.table.i18n import LANGUAGE_NAMES, translations
from firmware.table.modes import Playing
from firmware.table.words import GameWords, WordListError, WordSource
from firmware.tui.style import StyledApp, style_sheets
from firmware.virtual.table import VirtualTable

TICK_S: Final = 0.04
"""How often the virtual clock catches up with real time: well under a blink or a hold."""
MAX_STEP_S: Final = 0.5
"""The most real time one tick hands on: after the window was stopped (a laptop's sleep, a
debugger), the table goes on from where it was rather than replaying the gap in one burst."""
RECENT_EVENTS: Final = 8
"""Input events kept for the events line."""
MIN_SIZE: Final = (120, 38)
"""The smallest window, in characters, that shows the whole table."""

_INPUT_EVENTS = get_args(InputEvent)


class SimApp(StyledApp):
    """The table on virtual hardware, in a terminal; `close` (or leaving the app) stops it."""

    ENABLE_COMMAND_PALETTE = False
    TITLE = "Codenames table"
    SUB_TITLE = "simulation"
    CSS_PATH = style_sheets("sim.tcss")
    BINDINGS: ClassVar[list[BindingType]] = console_bindings(translations("en"))
    """The keys; each window describes them in the table's language (`_follow_language`)."""

    spymaster_view: reactive[bool] = reactive(False)
    """The key shown on the cards, as the spymasters see it (always, once a game is over)."""
    card_entry: reactive[str] = reactive("")
    """The coordinate typed so far."""

    def __init__(
        self,
        config: TableConfig,
        state_dir: Path,
        *,
        words: WordSource | None = None,
        seed: int | None = None,
        language: str | None = None,
        first_key: Key | None = None,
        realtime: bool = True,
        wall_clock_start: float | None = None,
    ) -> None:
        super().__init__()
        self.words = words or WordSource()
        self.state_dir = state_dir
        self.realtime = realtime
        self.clock = VirtualClock()
        """The table's clock: only `advance` moves it."""
        self.vt = VirtualTable(
            config,
            state_dir,
            rng=random.Random(seed),
            clock=self.clock,
            first_key=first_key,
            language=language,
            wall_clock_start=time.time() if wall_clock_start is None else wall_clock_start,
        )
        for chip in self.vt.chips:
            chip.on_change = self._oled_changed
        # A second display's glass goes under the first, a dark line between them.
        extra_rows = (GLASS_ROWS + 1) * (len(self.vt.chips) - 1)
        self.min_size = (MIN_SIZE[0], MIN_SIZE[1] + extra_rows)
        """The smallest window that shows the whole table, its displays all."""
        self.fingers = Fingers(self.vt, self.clock)
        """The switches the keys and the mouse hold down."""
        self.recent: deque[InputEvent] = deque(maxlen=RECENT_EVENTS)
        """The latest input events the table received, newest first."""
        self.deal: Mapping[Coord, str] = {}
        """The words on the cards."""
        self.goodbye = ""
        """What `q` leaves on the terminal once the window is gone: where the game is saved."""
        self._game_words = GameWords(self.words, state_dir)
        self._language = ""
        """The language the window's own texts are in now."""
        self.catalog = translations(self.vt.table.settings.language)
        """The catalog of the table's language, for the window's own texts."""
        self._dealt: Game | None = None
        self._quit_warned = False
        self._mouse_held: set[Switch] = set()
        """Switches the mouse holds down (a key's press ends by itself)."""
        self._oled_dirty = True
        self._real_last = time.monotonic()
        self._clock_timer: Timer | None = None
        self._closed = False
        self._mounted = False
        self._unknown_key: str | None = None
        """A key pressed that plays nothing, shown until the next key."""
        try:
            self._deal_words()
        except WordListError:
            self.close()
            raise
        # The widgets the clock redraws, held from here on: never looked up while the window
        # is being taken down.
        self._card_grid = CardGrid()
        self._leds = LedKeyView()
        self._oled = OledView()
        self._oled_text = Static("", id="oled-text", classes="line")
        self._long_press = Static("", id="long-press", classes="line")
        self._entry_line = Static("", id="entry", classes="line")
        self._events_line = Static("", id="events", classes="line")
        self._too_small = Static("", id="too-small")
        self._panels = {
            name: Vertical(id=name, classes="panel")
            for name in ("cards-panel", "led-panel", "oled-panel", "console-panel")
        }

    # Layout

    def compose(self) -> ComposeResult:
        panels = self._panels
        with Horizontal(id="top"):
            with panels["cards-panel"]:
                yield self._card_grid
            with panels["led-panel"]:
                yield self._leds
        with Horizontal(id="bottom"):
            with panels["oled-panel"]:
                yield self._oled
                yield self._oled_text
            with panels["console-panel"]:
                with Horizontal():
                    yield Knob(-1, "−", id="knob-down")
                    yield ConsoleKey(EncoderPush.PUSH, "PUSH")
                    yield Knob(+1, "+", id="knob-up")
                with Horizontal():
                    for button in (ConsoleButton.DONE, ConsoleButton.PENALTY, ConsoleButton.UNDO):
                        yield ConsoleKey(button, BUTTON_LABELS[button])
                with Horizontal():
                    for button in (ConsoleButton.NEW, ConsoleButton.TIMER):
                        yield ConsoleKey(button, BUTTON_LABELS[button])
                yield self._long_press
                yield self._entry_line
                yield self._events_line
        yield self._too_small
        yield Footer()

    def on_mount(self) -> None:
        self._real_last = time.monotonic()
        self._mounted = True
        if self.realtime:
            self._clock_timer = self.set_interval(TICK_S, self._tick)
        self._redraw()

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        # Textual would clip the panels without a word: say what is missing instead.
        small = width < self.min_size[0] or height < self.min_size[1]
        self.screen.set_class(small, "-too-small")
        if small:
            needed = f"{self.min_size[0]} × {self.min_size[1]}"
            self._too_small.update(
                self._text(t.TOO_SMALL, needed=needed, width=width, height=height)
            )

    def _follow_language(self) -> None:
        # The window speaks the table's language, which the menu can change at any time.
        language = self.vt.table.settings.language
        if language == self._language:
            return
        self._language = language
        self.catalog = translations(language)
        for panel, title in t.PANEL_TITLES.items():
            self._panels[panel].border_title = self._text(title)
        self._long_press.update(self._text(t.LONG_PRESS))
        self._panels["led-panel"].border_subtitle = f"{LED_POWER_KEY} {self._text(t.LED_POWER)}"
        describe_keys(self._bindings, self.catalog)
        self.refresh_bindings()
        self._fit(self.size.width, self.size.height)

    def _text(self, message: str, **fields: object) -> str:
        return t.sim_text(self.catalog, message, **fields)

    def on_unmount(self) -> None:
        # The clock's timer first: a tick already due must find the table stopped and draw
        # nothing while the widgets go.
        if self._clock_timer is not None:
            self._clock_timer.stop()
        self._mounted = False
        self.close()

    def close(self) -> None:
        """Stop the virtual table; idempotent. The saved game stays in the state directory."""
        if not self._closed:
            self._closed = True
            self.fingers.lift()
            self.vt.close()

    # Time

    def _tick(self) -> None:
        now = time.monotonic()
        elapsed = min(now - self._real_last, MAX_STEP_S)
        self._real_last = now
        self.advance(elapsed)

    def advance(self, seconds: float) -> None:
        """Let `seconds` of virtual time pass, handing every event to the table at its time
        (and noting each input for the events line), then redraw."""
        if self._closed:
            return
        self.vt.wait(seconds, observe=self._note_event)
        if self._mounted:
            self._redraw()

    def _note_event(self, event: object) -> None:
        if isinstance(event, _INPUT_EVENTS):
            self.recent.appendleft(event)

    # The mouse

    def on_switch_down(self, message: SwitchDown) -> None:
        if self.fingers.press(message.switch):
            self._mouse_held.add(message.switch)
        self.advance(0)

    def on_switch_up(self, message: SwitchUp) -> None:
        # Only the mouse's own press: letting go must not cut short a key's long press.
        if message.switch in self._mouse_held:
            self._mouse_held.discard(message.switch)
            self.fingers.release(message.switch)
        self.advance(0)

    def on_knob_turned(self, message: KnobTurned) -> None:
        self.action_turn(message.steps)

    # Actions of the key bindings

    def action_turn(self, steps: int) -> None:
        """Turn the encoder by `steps` detents."""
        if not self._closed:
            self.vt.encoder.turn(steps)
            self.advance(0)

    def action_push(self, long: bool) -> None:
        """Push the encoder; a long push opens or closes the menu."""
        self.fingers.tap(EncoderPush.PUSH, press_time(EncoderPush.PUSH, long))

    def action_button(self, name: str, long: bool) -> None:
        """Press a console button, or hold it past its hold time."""
        button = ConsoleButton(name)
        self.fingers.tap(button, press_time(button, long))

    def action_card_key(self, key: str) -> None:
        """Type the coordinate of a card: a column letter, then a row number."""
        if key == "back":
            self.card_entry = self.card_entry[:-1]
        elif key == "clear":
            # Esc clears a coordinate being typed; with none, it leaves the staff menu (or the
            # pad test, or the last actions) as a long push of the encoder does on the table.
            if not self.card_entry and not isinstance(self.vt.table.control_mode, Playing):
                self.action_push(long=True)
            self.card_entry = ""
        elif key.isalpha():
            self.card_entry = key.upper()
        elif self.card_entry[:1].isalpha():
            self.card_entry = self.card_entry[:1] + key

    def action_enter_card(self) -> None:
        """Press the card typed."""
        try:
            coord = Coord.parse(self.card_entry)
        except InvalidCoordError:
            self.bell()
            return
        self.card_entry = ""
        self.fingers.tap(coord)

    def action_quit(self) -> None:  # type: ignore[override]
        """Quit, saying where the game is saved; while saving fails, warn first."""
        not_saving = t.not_saving_line(self.catalog, self.vt.table.not_saving)
        if not_saving is not None and not self._quit_warned:
            self._quit_warned = True
            self.notify(
                self._text(t.QUIT_UNSAVED, not_saving=not_saving), severity="error", timeout=30
            )
            return
        if not_saving is None:
            self.goodbye = self._text(t.SAVED_IN, folder=self.state_dir)
        else:
            self.goodbye = self._text(t.NOT_SAVED, not_saving=not_saving, folder=self.state_dir)
        self.exit()

    def action_spymaster(self) -> None:
        """Show or hide the key on the cards."""
        self.spymaster_view = not self.spymaster_view

    def watch_spymaster_view(self) -> None:
        if self._mounted:
            self._redraw()

    def watch_card_entry(self) -> None:
        self._redraw_entry()

    def action_led_power(self) -> None:
        """Cut the LED key's supply, or bring it back (a table without the sense: a bell)."""
        supply = self.vt.led_supply
        if supply is None or self._closed:
            self.bell()
            return
        if supply.on:
            supply.cut()
        else:
            supply.restore()
        self.advance(0)

    # Drawing

    def _oled_changed(self) -> None:
        self._oled_dirty = True

    def _deal_words(self) -> None:
        # Only a new game (or one an undo brings back) deals: the language is not looked at
        # again until then, so changing it leaves the words of the game in play alone.
        table = self.vt.table
        game = table.game
        if game is self._dealt:
            return
        self._dealt = game
        language = table.settings.language
        try:
            self.deal = self._game_words.deal(self.vt.game_id, game.key, language)
        except WordListError as error:
            if not self.deal:
                raise
            # Keep the old words rather than stop a game over a list that cannot be read.
            name = LANGUAGE_NAMES[language]
            self.notify(self._text(t.NO_WORD_LIST, language=name, error=error), severity="error")

    def _redraw(self) -> None:
        self._follow_language()
        self._deal_words()
        state = self.vt.table.state
        show_key = self.spymaster_view or state.is_over
        for coord, card in self._card_grid.cards.items():
            identity = state.key[coord]
            covered = identity if coord in state.covered else None
            card.look = CardLook(self.deal[coord], covered, identity if show_key else None)
        subtitle = self._text(t.SPYMASTER_VIEW) if self.spymaster_view else ""
        cards_panel = self._panels["cards-panel"]
        if cards_panel.border_subtitle != subtitle:  # a border title repaints when set
            cards_panel.border_subtitle = subtitle
        self._redraw_leds()
        if self._oled_dirty:
            self._oled_dirty = False
            self._oled.show_all([(chip.visible_image(), chip.contrast) for chip in self.vt.chips])
            # The braille picture is hard to read at a glance: its words again, as plain text.
            screen = self.vt.display.screen
            self._update_line(
                self._oled_text, "" if screen is None else " · ".join(screen.text_lines)
            )
        self._redraw_entry()
        self._update_line(self._events_line, t.input_line(self.catalog, self.recent))

    def _redraw_leds(self) -> None:
        shown = self.vt.pixel_strip.shown_rgb()
        if not shown:
            return
        layout, gamma = self.vt.lights.layout, self.vt.lights.style.gamma

        def index(light: Light) -> int:
            return layout.edge_index(light) if isinstance(light, Side) else layout.index(light)

        self._leds.colours = {light: screen_colour(shown[index(light)], gamma) for light in LIGHTS}

    def _redraw_entry(self) -> None:
        if not self._mounted:
            return
        if self._unknown_key is not None:
            text = self._text(t.UNKNOWN_KEY, key=self._unknown_key)
        else:
            text = t.entry_line(self.catalog, self.card_entry)
        self._update_line(self._entry_line, text)

    def on_key(self, event: events.Key) -> None:
        # A key the table has no use for says so where a card is typed, until the next key.
        bound = event.key in self._bindings.key_to_bindings
        unknown = event.character if event.is_printable and not bound else None
        if unknown != self._unknown_key:
            self._unknown_key = unknown
            self._redraw_entry()

    def _update_line(self, line: Static, text: str) -> None:
        # Only a change: an update repaints the line, and this runs on every tick.
        if line.content != text:
            line.update(text)
