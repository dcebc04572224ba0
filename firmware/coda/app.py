"""The on-screen Coda game: one person against 1 to 3 computer opponents, in a Textual window.

This module is only the window: the game itself, the computers and the person's choices are
`firmware.coda.controller`'s, what is shown is `firmware.coda.scene`'s, the texts are
`firmware.coda.texts`', the look is `firmware/tui/styles/coda.tcss`. Keys and clicks become calls
of the controller; after each, the scene is drawn again and the log gets its new lines.

Computers play one action at a time after `delay_s` seconds (a Textual timer), so that a person
can follow the log. With `delay_s=0` they play at once, inside the person's own move; tests use
that, or a long delay and `computer_step`, so that no test waits on real time. With the
optional time rule, another timer calls `time_up` when the person has been deciding one attack
for `TIME_RULE_S` seconds; it starts again at each attack.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Log, Static

from board_rules.coda import DASH, Color, GameState, Level, Phase, game_tiles, opening_size
from firmware.coda.controller import COMPUTER_DELAY_S, TIME_RULE_S, CodaController
from firmware.coda.help import HelpScreen
from firmware.coda.scene import scene
from firmware.coda.seat import SeatScreen
from firmware.coda.texts import CodaTexts, coda_texts
from firmware.coda.widgets import (
    TILE_WIDTH,
    PileClicked,
    PileView,
    TileClicked,
    TileView,
    ValueClicked,
    ValueKey,
)
from firmware.tui.style import StyledApp, style_sheets

MAX_TILES: Final = len(game_tiles(advanced=True)) - opening_size(2) + 1
"""The most tiles a row can show: the longest row (every tile but the other player's opening
four), plus the tile being placed."""
BOARD_FRAME: Final = 4
"""The columns the board's border and padding take."""
LABEL_WIDTH: Final = 20
"""The players' names, left of their rows."""
HAND_WIDTH: Final = TILE_WIDTH + 1
"""The drawn tile, between the name and the row."""
MIN_COLUMNS: Final = 4
"""The fewest tiles on a line of a row, however narrow the window."""
LOG_LINES: Final = 500
"""Log lines kept on screen; a game has far fewer."""

_LINES: Final = ("title", "status", "target", "odds")


def _bindings(texts: CodaTexts) -> list[BindingType]:
    enter = "⏎"
    return [
        Binding("b", "app.colour('black')", texts["key_black"]),
        Binding("w", "app.colour('white')", texts["key_white"]),
        Binding("left", "app.move(-1)", texts["key_previous"], key_display="←"),
        Binding("right", "app.move(1)", texts["key_next"], key_display="→"),
        Binding("up", "app.step_value(1)", texts["key_value_up"], key_display="↑"),
        Binding("down", "app.step_value(-1)", texts["key_value_down"], key_display="↓"),
        *(Binding(str(digit), f"app.digit({digit})", show=False) for digit in range(10)),
        Binding("minus", "app.dash", texts["key_dash"], key_display="-"),
        # One key, one meaning per phase: the first binding whose action is allowed now runs.
        Binding("enter", "app.take", texts["key_take"], key_display=enter),
        Binding("enter", "app.lay_out", texts["key_lay_out"], key_display=enter),
        Binding("enter", "app.attack", texts["key_attack"], key_display=enter),
        Binding("enter", "app.place", texts["key_place"], key_display=enter),
        Binding("enter", "app.reveal", texts["key_reveal"], key_display=enter),
        Binding("s", "app.stop", texts["key_stop"]),
        Binding("n", "app.new_game", texts["key_new_game"]),
        Binding("h", "app.help", texts["key_help"]),
        Binding("o", "app.odds", texts["key_odds"]),
        Binding("question_mark", "app.help", show=False),
        Binding("q", "app.leave", texts["key_quit"]),
    ]


def _game_screen(texts: CodaTexts) -> Screen[None]:
    """The main screen, carrying the key bindings in the language of `texts`.

    Textual reads a screen's `BINDINGS` from its class, footer descriptions included, so each
    language gets its own subclass.
    """
    cls = type("CodaScreen", (Screen,), {"BINDINGS": _bindings(texts)})
    return cast(Screen[None], cls(id="_default"))


class CodaApp(StyledApp):
    """Coda against computer opponents; the person is player 0 and plays the first game first,
    or in the seat they choose at the start (`choose_seat`)."""

    ENABLE_COMMAND_PALETTE = False
    CSS_PATH = style_sheets("coda.tcss")

    @classmethod
    def style_numbers(cls) -> dict[str, str]:
        widths = {"tile": TILE_WIDTH, "label": LABEL_WIDTH, "hand": HAND_WIDTH}
        return {f"coda-{name}-width": str(width) for name, width in widths.items()}

    def __init__(
        self,
        opponents: Sequence[Level],
        *,
        advanced: bool = False,
        language: str = "en",
        rng: random.Random | None = None,
        delay_s: float = COMPUTER_DELAY_S,
        first_game: GameState | None = None,
        rotate: bool = False,
        time_rule: bool = False,
        choose_seat: bool = False,
    ) -> None:
        """The options are `CodaController`'s; `language` chooses the texts; with
        `choose_seat` the person first chooses their seat in the order of play (`SeatScreen`).
        """
        texts = coda_texts(language)
        self.game = CodaController(
            opponents,
            texts,
            advanced=advanced,
            rng=rng,
            delay_s=delay_s,
            first_game=first_game,
            rotate=rotate,
            time_rule=time_rule,
        )
        """The game, the computers and the person's choices."""
        super().__init__()
        self.texts = texts
        self.title = texts["title"]
        self._timer: Timer | None = None
        self._clock: tuple[Timer, tuple[int, int]] | None = None
        """The time rule's timer, and the attack it times (the game and its log's length)."""
        self._logged: list[str] = []
        """The log lines on screen."""
        self._mounted = False
        self.asks_seat = choose_seat
        """True when the person chooses their seat at the start."""
        self.leaving = False
        """q was pressed during a game in play: a second q leaves, any other input plays on."""

    # Layout

    def get_default_screen(self) -> Screen[None]:
        return _game_screen(self.texts)

    def compose(self) -> ComposeResult:
        texts, players = self.texts, self.game.players
        yield Static(id="title", markup=False)
        with Horizontal(id="top"):
            with Horizontal(id="pool", classes="panel") as pool:
                pool.border_title = texts["pool"]
                yield PileView(Color.BLACK, id="pile-black")
                yield PileView(Color.WHITE, id="pile-white")
            with Vertical(id="status-panel", classes="panel"):
                yield Static(id="status", markup=False)
        with Vertical(id="board", classes="panel") as board:
            board.border_title = texts["rows"]
            for player in range(players):
                with Horizontal(classes="row", id=f"row-{player}"):
                    yield Static(id=f"label-{player}", classes="label", markup=False)
                    with Horizontal(classes="hand-slot"):
                        yield TileView(player, None, id=f"hand-{player}")
                    with Container(classes="tiles"):
                        for index in range(MAX_TILES):
                            yield TileView(player, index, id=f"tile-{player}-{index}")
            yield Static(texts["legend"], id="legend", markup=False)
        with Vertical(id="attack", classes="panel") as attack:
            attack.border_title = texts["value"]
            with Horizontal(id="values"):
                for value in self.game.view.nameable():
                    yield ValueKey(value, id=f"value-{'dash' if value == DASH else value}")
            yield Static(id="target", markup=False)
            yield Static(id="odds", markup=False)
        with Vertical(id="log-panel", classes="panel") as log_panel:
            log_panel.border_title = texts["log_title"]
            log = Log(id="log", max_lines=LOG_LINES)
            # Focused, the log would take the arrow keys for scrolling: they choose tiles here.
            log.can_focus = False
            yield log
        yield Footer()

    def on_mount(self) -> None:
        players = self.game.players
        # Looked up once: a redraw touches every tile, and a query walks the whole tree.
        self._tiles = {
            (player, index): self.query_one(f"#tile-{player}-{index}", TileView)
            for player in range(players)
            for index in range(MAX_TILES)
        }
        self._hands = [self.query_one(f"#hand-{p}", TileView) for p in range(players)]
        self._labels = [self.query_one(f"#label-{p}", Static) for p in range(players)]
        self._piles = {color: self.query_one(f"#pile-{color.value}", PileView) for color in Color}
        self._value_keys = list(self.query(ValueKey))
        self._lines = {name: self.query_one(f"#{name}", Static) for name in _LINES}
        """The texts: the title, the status, the target and the odds view."""
        self._log_view = self.query_one(Log)
        self._mounted = True
        self._go_on()
        if self.asks_seat and self.game.seat_open:
            self.push_screen(SeatScreen(self.game), self._seated)

    def _seated(self, seat: int | None) -> None:
        """The seat chosen on `SeatScreen`: the first game dealt again if the person does not
        play first (the computers before them then play)."""
        if seat is not None and self.game.choose_seat(seat):
            self._go_on()

    def on_resize(self) -> None:
        # The tiles wrap onto a second line rather than run off a narrow window.
        room = self.size.width - BOARD_FRAME - LABEL_WIDTH - HAND_WIDTH
        columns = max(MIN_COLUMNS, room // TILE_WIDTH)
        for tiles in self.query(".tiles"):
            tiles.styles.grid_size_columns = columns

    # The computers' pace

    def _go_on(self) -> None:
        """After any change: start the pause before a waiting computer's action, and redraw."""
        if self.game.computer_to_play and self._timer is None and self._mounted:
            self._timer = self.set_timer(self.game.delay_s, self._on_timer)
        self._time_the_attack()
        self.redraw()

    def _time_the_attack(self) -> None:
        """Under the time rule, a fresh timer for each attack the person decides."""
        timed = (self.game.games, len(self.game.history))
        if self._clock is not None and (self._clock[1] != timed or not self.game.attack_timed):
            self._clock[0].stop()
            self._clock = None
        if self._clock is None and self.game.attack_timed and self._mounted:
            self._clock = (self.set_timer(TIME_RULE_S, self.time_up), timed)

    @property
    def attack_clock_running(self) -> bool:
        """True while the time rule's timer runs for the person's attack."""
        return self._clock is not None

    def time_up(self) -> bool:
        """The time rule's timer ran out (tests call this themselves): see
        `CodaController.time_up`."""
        if self._clock is not None:
            self._clock[0].stop()
            self._clock = None
        played = self.game.time_up()
        self._go_on()
        return played

    def _on_timer(self) -> None:
        self._timer = None
        self.computer_step()

    def computer_step(self) -> bool:
        """Play the next action of the computer in turn now, then go on as after any move;
        False when no computer is to play. The timer calls it; tests may call it themselves."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        played = self.game.computer_step()
        self._go_on()
        return played

    @property
    def waiting_for_computer(self) -> bool:
        """True while a computer's next action waits for its timer."""
        return self._timer is not None

    # What the keys and clicks do: the controller decides, a refused move rings the bell

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show and allow a key only when it means something now (None: shown, greyed)."""
        return self.game.allows(action, parameters[0] if parameters else None)

    def _input(self, accepted: Callable[[], bool]) -> None:
        self.leaving = False
        if not accepted():
            self.bell()
        self._go_on()

    def action_colour(self, name: str) -> None:
        """b / w: draw a tile of that colour, or in the opening take one more of it."""
        self._input(lambda: self.game.colour(Color(name)))

    def action_move(self, step: int) -> None:
        """← / →: the previous or next choice of the phase (target, place, dash, own tile)."""
        self._input(lambda: self.game.move(step))

    def action_step_value(self, step: int) -> None:
        """↑ / ↓: the next or previous value to name."""
        self._input(lambda: self.game.step_value(step))

    def action_digit(self, digit: int) -> None:
        """A digit names that number; 1 then 0 or 1 names 10 or 11."""
        self._input(lambda: self.game.digit(digit))

    def action_dash(self) -> None:
        """-: name the dash (advanced game)."""
        self._input(self.game.dash)

    def action_take(self) -> None:
        """⏎ in the opening: take the tiles of the colours chosen."""
        self._input(self.game.take)

    def action_lay_out(self) -> None:
        """⏎ in the advanced opening: leave the dash where it is; after the last, lay out."""
        self._input(self.game.lay_out)

    def action_attack(self) -> None:
        """⏎ while attacking: name the value chosen against the tile chosen."""
        self._input(self.game.attack)

    def action_odds(self) -> None:
        """o: show or hide the odds view."""
        self._input(self.game.toggle_odds)

    def action_stop(self) -> None:
        """s after a right attack: end the turn."""
        self._input(self.game.stop)

    def action_place(self) -> None:
        """⏎ while placing: put the drawn tile where chosen."""
        self._input(self.game.place)

    def action_reveal(self) -> None:
        """⏎ after a wrong attack with nothing drawn: turn the chosen own tile face up."""
        self._input(self.game.reveal)

    def action_leave(self) -> None:
        """q: quit once the game is over; during a game, a first q asks and a second leaves."""
        if self.leaving or self.game.view.phase is Phase.OVER:
            self.exit()
            return
        self.leaving = True
        self.redraw()

    def action_new_game(self) -> None:
        """n once a game is over: the next game, started by the winner, as the rules say."""
        self.leaving = False
        if self.game.new_game():
            self._go_on()

    def action_help(self) -> None:
        """h or ?: the rules in short and the keys."""
        self.push_screen(HelpScreen(self.texts))

    def on_tile_clicked(self, message: TileClicked) -> None:
        self.leaving = False
        if message.index is not None:
            self.game.choose_tile(message.player, message.index)
            self.redraw()

    def on_value_clicked(self, message: ValueClicked) -> None:
        self.leaving = False
        self.game.choose_value(message.value)
        self.redraw()

    def on_pile_clicked(self, message: PileClicked) -> None:
        self.action_colour(message.color.value)

    # Drawing

    def redraw(self) -> None:
        """Draw the game as it stands (`firmware.coda.scene`), and the log's new lines."""
        if not self._mounted:
            return
        shown = scene(self.game)
        self._text(self._lines["title"], shown.title)
        for color, (text, count) in shown.piles.items():
            self._piles[color].show(text, count)
        self._text(
            self._lines["status"], self.texts["status_leave"] if self.leaving else shown.status
        )
        for player, label in enumerate(shown.labels):
            widget = self._labels[player]
            widget.set_class(label.turn, "-turn")
            widget.set_class(label.out, "-out")
            self._text(widget, label.text)
            self._hands[player].show(shown.hands[player])
            faces = shown.rows[player]
            for index in range(MAX_TILES):
                self._tiles[(player, index)].show(faces[index] if index < len(faces) else None)
        for key in self._value_keys:
            key.set_class(shown.attacking and key.value == shown.value, "-chosen")
            key.set_class(not shown.attacking, "-idle")
        self._text(self._lines["target"], shown.target)
        self._text(self._lines["odds"], shown.odds)
        self._lines["odds"].display = bool(shown.odds)
        self._write_log()
        self.refresh_bindings()

    def _write_log(self) -> None:
        """Add the log's new lines; start it again when a new game began."""
        lines = self.game.history
        shown = self._logged
        if lines[: len(shown)] != shown:
            self._log_view.clear()
            shown = []
        if len(lines) > len(shown):
            self._log_view.write_lines(lines[len(shown) :])
        self._logged = lines

    def _text(self, widget: Static, text: str) -> None:
        if str(widget.content) != text:
            widget.update(text)
