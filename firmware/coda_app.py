"""The on-screen Coda game: one person against 1 to 3 computer opponents, in a Textual window.

The person is player 0 and the computers follow in the order of play. The rules are
`board_rules.coda`'s; this module only asks for the person's choices and shows the game.

What is drawn comes from the person's `PlayerView` alone, never from the full state, so a
computer's hidden number cannot reach the screen before the end; only once the game is over are
the full rows shown. The log is built the same way: from the views before and after each action
and the public part of the action (a computer's `Arrange` tells where its dashes are, so the log
never reads it).

Computers play one action at a time after `delay_s` seconds (a Textual timer), so that a person
can follow the log. With `delay_s=0` they play at once, inside the person's own move; tests use
that, or a long delay and `computer_step`, so that no test waits on real time.

Where the rules leave the person no choice, the app makes it for them: an advanced opening
without a dash is laid out as it is, and a tile with a single legal place goes there. The
optional time rule is left out (the help says so).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar, Final, TypeVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Footer, Log, Static

from board_rules.coda import (
    DASH,
    Action,
    Arrange,
    Attack,
    Color,
    Draw,
    GameState,
    IllegalActionError,
    Level,
    Phase,
    Place,
    PlayerView,
    Reveal,
    SeenTile,
    Stop,
    Strategy,
    TakeTiles,
    Tile,
    Value,
    apply,
    game_tiles,
    opening_size,
    strategy,
)
from board_rules.coda.tiles import value_order
from firmware.coda_texts import CodaTexts, coda_texts
from firmware.coda_widgets import (
    TILE_WIDTH,
    PileClicked,
    PileView,
    TileClicked,
    TileFace,
    TileView,
    ValueClicked,
    ValueKey,
)
from firmware.tui_style import StyledApp, style_sheets

_T = TypeVar("_T")

HUMAN: Final = 0
"""The person's seat: the first in the order of play."""
MAX_OPPONENTS: Final = 3
OPPONENT_LEVELS: Final = (Level.EASY, Level.HARD)
"""The levels a person plays against (the random player is for headless matches only)."""
COMPUTER_DELAY_S: Final = 0.8
"""The pause before each computer action: long enough to read the log line it adds."""
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

_LINES: Final = ("title", "status", "target")
_PLAY_ACTIONS: Final[dict[str, tuple[Phase, ...]]] = {
    "colour": (Phase.TAKE, Phase.DRAW),
    "move": (Phase.ARRANGE, Phase.ATTACK, Phase.PLACE, Phase.REVEAL),
    "step_value": (Phase.ATTACK,),
    "digit": (Phase.ATTACK,),
    "dash": (Phase.ATTACK,),
    "take": (Phase.TAKE,),
    "lay_out": (Phase.ARRANGE,),
    "attack": (Phase.ATTACK,),
    "stop": (Phase.ATTACK,),
    "place": (Phase.PLACE,),
    "reveal": (Phase.REVEAL,),
}
"""The person's actions and the phases of their own turn in which they make sense."""


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
        Binding("question_mark", "app.help", show=False),
        Binding("q", "app.quit", texts["key_quit"]),
    ]


def _game_screen(texts: CodaTexts) -> Screen[None]:
    """The main screen, carrying the key bindings in the language of `texts`.

    Textual reads a screen's `BINDINGS` from its class, footer descriptions included, so each
    language gets its own subclass.
    """
    cls = type("CodaScreen", (Screen,), {"BINDINGS": _bindings(texts)})
    return cast(Screen[None], cls(id="_default"))


class HelpScreen(ModalScreen[None]):
    """The rules in short and the keys; Esc, h, ?, q or a click closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,h,question_mark,q", "dismiss", show=False)
    ]

    def __init__(self, texts: CodaTexts) -> None:
        super().__init__()
        self.texts = texts

    def compose(self) -> ComposeResult:
        help_text = Static(self.texts["help"], id="help", markup=False)
        help_text.border_title = self.texts["help_title"]
        help_text.border_subtitle = f"Esc: {self.texts['key_close']}"
        yield help_text

    def on_click(self) -> None:
        self.dismiss()


def describe(
    texts: CodaTexts,
    names: Sequence[str],
    before: PlayerView,
    action: Action,
    after: PlayerView,
) -> list[str]:
    """The log lines of `action`, played by the player in turn in `before`: only what anyone at
    the table sees, read from two views (any player's) and the public part of the action."""
    actor = before.turn
    player = names[actor]
    lines: list[str] = []
    if isinstance(action, TakeTiles):
        lines.append(
            texts["log_take"].format(player=player, black=action.black, white=action.white)
        )
    elif isinstance(action, Draw):
        lines.append(
            texts["log_draw"].format(player=player, colour=colour_name(texts, action.color))
        )
    elif isinstance(action, Attack):
        target = before.rows[action.player][action.index]
        right = after.rows[action.player][action.index].revealed
        lines.append(
            texts["log_attack"].format(
                attacker=player,
                target=names[action.player],
                position=action.index + 1,
                colour=colour_name(texts, target.color),
                value=value_name(texts, action.value),
                verdict=texts["right" if right else "wrong"],
            )
        )
    elif isinstance(action, Stop):
        lines.append(texts["log_stop"].format(player=player))
    elif isinstance(action, Reveal):
        turned = after.rows[actor][action.index]
        lines.append(
            texts["log_reveal"].format(
                player=player, position=action.index + 1, tile=seen_name(texts, turned)
            )
        )
    if not isinstance(action, Reveal):
        # A drawn tile that went into the row face up: after a wrong attack, at once in the
        # basic game, at its placing in the advanced one.
        known = {seen.tile for seen in before.rows[actor] if seen.revealed}
        for seen in after.rows[actor]:
            if seen.revealed and seen.tile not in known:
                lines.append(
                    texts["log_face_up"].format(player=player, tile=seen_name(texts, seen))
                )
    for other in range(after.players):
        if after.is_out(other) and not before.is_out(other):
            lines.append(texts["log_out"].format(player=names[other]))
    if after.winner is not None and before.winner is None:
        lines.append(texts["log_winner"].format(player=names[after.winner]))
    return lines


def colour_name(texts: CodaTexts, color: Color) -> str:
    """The colour of a tile, in words."""
    return texts["black"] if color is Color.BLACK else texts["white"]


def value_name(texts: CodaTexts, value: Value) -> str:
    """A named value, in words: the number, or the dash."""
    return texts["dash"] if value == DASH else str(value)


def tile_name(texts: CodaTexts, tile: Tile) -> str:
    """A tile whose value is known, in words ("black 7")."""
    return texts["tile"].format(
        colour=colour_name(texts, tile.color), value=value_name(texts, tile.value)
    )


def seen_name(texts: CodaTexts, seen: SeenTile) -> str:
    """A tile seen face up (or one's own), in words."""
    tile = seen.tile
    return colour_name(texts, seen.color) if tile is None else tile_name(texts, tile)


def arrange_preview(hand: Sequence[Tile], positions: Sequence[int]) -> list[Tile]:
    """The opening row that `Arrange(positions)` lays out from `hand`: the dashes (black first)
    at their positions, the numbers in order in the others. Dashes without a position yet
    wait at the right end."""
    dashes = sorted((t for t in hand if t.is_dash), key=lambda t: t.color is Color.WHITE)
    numbers = iter(sorted((t for t in hand if t.rank is not None), key=lambda t: t.rank or 0))
    chosen = list(positions)
    free = [p for p in reversed(range(len(hand))) if p not in chosen]
    chosen.extend(free[: len(dashes) - len(chosen)])
    at = dict(zip(chosen, dashes, strict=True))
    return [at[i] if i in at else next(numbers) for i in range(len(hand))]


def _cycle(items: Sequence[_T], current: _T | None, step: int) -> _T:
    """The item `step` places from `current` in `items`, round the end; the first if
    `current` is not there."""
    if current not in items:
        return items[0]
    return items[(items.index(current) + step) % len(items)]


class CodaApp(StyledApp):
    """Coda against computer opponents; the person is player 0 and plays the first game first."""

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
    ) -> None:
        """`rng` deals every game and gives each computer its own stream; `first_game`, a game
        with one seat per player, replaces the first deal (tests stage positions with it)."""
        if not 1 <= len(opponents) <= MAX_OPPONENTS:
            raise ValueError(f"1 to {MAX_OPPONENTS} computer opponents, not {len(opponents)}")
        if any(level not in OPPONENT_LEVELS for level in opponents):
            raise ValueError(f"the opponents are easy or hard, not {list(opponents)}")
        super().__init__()
        self.texts = coda_texts(language)
        self.levels = tuple(opponents)
        self.advanced = advanced
        self.delay_s = delay_s
        self.rng = rng if rng is not None else random.Random()
        self.players = len(opponents) + 1
        self.names = [
            self.texts["you"],
            *(self.texts["computer"].format(number=n) for n in range(1, self.players)),
        ]
        self._computers: dict[int, tuple[Strategy, random.Random]] = {
            seat: (strategy(level), random.Random(self.rng.getrandbits(64)))
            for seat, level in enumerate(opponents, start=1)
        }
        if first_game is not None and first_game.players != self.players:
            raise ValueError(f"the first game has {first_game.players} seats, not {self.players}")
        self.state = first_game or self._deal(starter=HUMAN)
        """The whole game: only the rules, the computers and the end of the game read it."""
        self._view: tuple[GameState, PlayerView] | None = None
        self.wins = [0] * self.players
        self.history: list[str] = []
        """Every log line of this game."""
        self.title = self.texts["title"]
        # The person's choices in the making.
        self.take_black = 0
        self.target: tuple[int, int] | None = None
        self.value: Value = 0
        self._digits = ""
        self.slot = 0
        self.dash_positions: list[int] = []
        self.dash_cursor = 0
        self.reveal_index = 0
        self._timer: Timer | None = None
        self._logged = 0
        self._mounted = False
        self._sync_choices()

    @property
    def view(self) -> PlayerView:
        """What the person may know of the game now: everything on screen comes from here."""
        if self._view is None or self._view[0] is not self.state:
            self._view = (self.state, self.state.view(HUMAN))
        return self._view[1]

    # Layout

    def get_default_screen(self) -> Screen[None]:
        return _game_screen(self.texts)

    def compose(self) -> ComposeResult:
        texts = self.texts
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
            for player in range(self.players):
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
                for value in self.view.nameable():
                    yield ValueKey(value, id=f"value-{'dash' if value == DASH else value}")
            yield Static(id="target", markup=False)
        with Vertical(id="log-panel", classes="panel") as log_panel:
            log_panel.border_title = texts["log_title"]
            log = Log(id="log", max_lines=LOG_LINES)
            # Focused, the log would take the arrow keys for scrolling: they choose tiles here.
            log.can_focus = False
            yield log
        yield Footer()

    def on_mount(self) -> None:
        # Looked up once: a redraw touches every tile, and a query walks the whole tree.
        self._tiles = {
            (player, index): self.query_one(f"#tile-{player}-{index}", TileView)
            for player in range(self.players)
            for index in range(MAX_TILES)
        }
        self._hands = [self.query_one(f"#hand-{p}", TileView) for p in range(self.players)]
        self._labels = [self.query_one(f"#label-{p}", Static) for p in range(self.players)]
        self._piles = {color: self.query_one(f"#pile-{color.value}", PileView) for color in Color}
        self._value_keys = list(self.query(ValueKey))
        self._lines = {name: self.query_one(f"#{name}", Static) for name in _LINES}
        """The one-line texts: the title, the status and the target."""
        self._log_view = self.query_one(Log)
        self._mounted = True
        self._settle()

    def on_resize(self) -> None:
        # The tiles wrap onto a second line rather than run off a narrow window.
        room = self.size.width - BOARD_FRAME - LABEL_WIDTH - HAND_WIDTH
        columns = max(MIN_COLUMNS, room // TILE_WIDTH)
        for tiles in self.query(".tiles"):
            tiles.styles.grid_size_columns = columns

    # Playing

    def _deal(self, starter: int) -> GameState:
        game_rng = random.Random(self.rng.getrandbits(64))
        return GameState.new(self.players, game_rng, advanced=self.advanced, starter=starter)

    def _play(self, action: Action) -> None:
        """Apply `action` of the player in turn and log it; raises `IllegalActionError` and
        changes nothing when the rules refuse it."""
        before = self.view
        self.state = apply(self.state, action)
        self.history.extend(describe(self.texts, self.names, before, action, self.view))
        if self.state.winner is not None and before.winner is None:
            self.wins[self.state.winner] += 1
        self._sync_choices()

    def _settle(self) -> None:
        """Go on until the person has a choice to make: play their forced moves, and the
        computers' moves at once (no delay) or one by one on a timer. Then redraw."""
        while not self.state.is_over:
            if self.state.turn == HUMAN:
                forced = self._forced_move()
                if forced is None:
                    break
                self._play(forced)
            elif self.delay_s <= 0:
                self._play_computer()
            else:
                if self._timer is None and self._mounted:
                    self._timer = self.set_timer(self.delay_s, self._on_timer)
                break
        self.redraw()

    def _on_timer(self) -> None:
        self._timer = None
        self.computer_step()

    def computer_step(self) -> bool:
        """Play the next action of the computer in turn now, then go on as after any move;
        False when no computer is to play. The timer calls it; tests may call it themselves."""
        if self.state.is_over or self.state.turn == HUMAN:
            return False
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._play_computer()
        self._settle()
        return True

    @property
    def waiting_for_computer(self) -> bool:
        """True while a computer's next action waits for its timer."""
        return self._timer is not None

    def _play_computer(self) -> None:
        seat = self.state.turn
        play, rng = self._computers[seat]
        self._play(play(self.state.view(seat), rng))

    def _forced_move(self) -> Action | None:
        """The person's move when the rules leave them no choice, else None."""
        view = self.view
        if view.phase is Phase.ARRANGE and not any(s.value == DASH for s in view.hand):
            return Arrange()
        if view.phase is Phase.PLACE and len(slots := view.place_slots()) == 1:
            return Place(slots[0])
        return None

    def _human(self, action: Action) -> None:
        """Play the person's `action`; the keys offer only legal ones, but a bell is safer
        than a crash if one slips through."""
        try:
            self._play(action)
        except IllegalActionError:
            self.bell()
            return
        self._settle()

    def _person_to_play(self, *phases: Phase) -> bool:
        view = self.view
        return view.turn == HUMAN and view.phase in phases

    def _sync_choices(self) -> None:
        """Keep the person's choices among the legal ones after every change of the game."""
        view = self.view
        if view.turn != HUMAN:
            return
        phase = view.phase
        if phase is Phase.TAKE:
            low, high = self._take_range()
            self.take_black = min(max(opening_size(view.players) // 2, low), high)
        elif phase is Phase.ARRANGE:
            self.dash_positions = []
            self.dash_cursor = 0
        elif phase is Phase.ATTACK:
            targets = view.targets()
            if self.target not in targets:
                # After a right attack, the next hidden tile along rather than the first.
                later = [t for t in targets if self.target is None or t > self.target]
                self.target = (later or list(targets))[0] if targets else None
            self._digits = ""
        elif phase is Phase.PLACE:
            slots = view.place_slots()
            if self.slot not in slots:
                self.slot = slots[0]
        elif phase is Phase.REVEAL:
            hidden = view.hidden(HUMAN)
            if self.reveal_index not in hidden:
                self.reveal_index = hidden[0]

    def _take_range(self) -> tuple[int, int]:
        """How many black tiles the opening may take: the rest are white, and neither colour
        can give more than it has."""
        size = opening_size(self.view.players)
        return max(0, size - self.view.pool_white), min(size, self.view.pool_black)

    def _dashes_in_hand(self) -> list[Tile]:
        tiles = [tile for seen in self.view.hand if (tile := seen.tile) is not None]
        return sorted((t for t in tiles if t.is_dash), key=lambda t: t.color is Color.WHITE)

    def _arrange_free(self) -> list[int]:
        """Where the dash being laid out may go: any position no earlier dash took."""
        return [p for p in range(len(self.view.hand)) if p not in self.dash_positions]

    # What the keys do

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show and allow a key only when it means something now (None: shown, greyed)."""
        if action == "new_game":
            return self.view.phase is Phase.OVER
        phases = _PLAY_ACTIONS.get(action)
        if phases is None:
            return True
        if not self._person_to_play(*phases):
            return False
        if action == "stop":
            return self.view.hits > 0
        if action == "dash":
            return self.view.advanced
        if action == "colour" and self.view.phase is Phase.DRAW:
            return self.view.pool_count(Color(str(parameters[0]))) > 0 or None
        return True

    def action_colour(self, name: str) -> None:
        """b / w: draw a tile of that colour, or in the opening take one more of it."""
        color = Color(name)
        if self._person_to_play(Phase.DRAW):
            if self.view.pool_count(color):
                self._human(Draw(color))
            return
        if self._person_to_play(Phase.TAKE):
            low, high = self._take_range()
            step = 1 if color is Color.BLACK else -1
            self.take_black = min(max(self.take_black + step, low), high)
            self.redraw()

    def action_move(self, step: int) -> None:
        """← / →: the previous or next choice of the phase (target, place, dash, own tile)."""
        view = self.view
        if view.phase is Phase.ATTACK:
            self.target = _cycle(view.targets(), self.target, step)
            self._digits = ""
        elif view.phase is Phase.PLACE:
            self.slot = _cycle(view.place_slots(), self.slot, step)
        elif view.phase is Phase.REVEAL:
            self.reveal_index = _cycle(view.hidden(HUMAN), self.reveal_index, step)
        elif view.phase is Phase.ARRANGE:
            self.dash_cursor = _cycle(self._arrange_free(), self.dash_cursor, step)
        self.redraw()

    def action_step_value(self, step: int) -> None:
        """↑ / ↓: the next or previous value to name."""
        self.value = _cycle(self.view.nameable(), self.value, step)
        self._digits = ""
        self.redraw()

    def action_digit(self, digit: int) -> None:
        """A digit names that number; 1 then 0 or 1 names 10 or 11."""
        if self._digits == "1" and digit in (0, 1):
            self.value = 10 + digit
            self._digits = ""
        else:
            self.value = digit
            self._digits = str(digit)
        self.redraw()

    def action_dash(self) -> None:
        """-: name the dash (advanced game)."""
        self.value = DASH
        self._digits = ""
        self.redraw()

    def action_take(self) -> None:
        """⏎ in the opening: take the tiles of the colours chosen."""
        size = opening_size(self.view.players)
        self._human(TakeTiles(self.take_black, size - self.take_black))

    def action_lay_out(self) -> None:
        """⏎ in the advanced opening: leave the dash where it is; after the last, lay out."""
        if self.dash_cursor not in self._arrange_free():
            self.dash_cursor = self._arrange_free()[0]
        self.dash_positions.append(self.dash_cursor)
        if len(self.dash_positions) < len(self._dashes_in_hand()):
            self.dash_cursor = self._arrange_free()[0]
            self.redraw()
            return
        self._human(Arrange(tuple(self.dash_positions)))

    def action_attack(self) -> None:
        """⏎ while attacking: name the value chosen against the tile chosen."""
        if self.target is not None:
            player, index = self.target
            self._human(Attack(player, index, self.value))

    def action_stop(self) -> None:
        """s after a right attack: end the turn."""
        self._human(Stop())

    def action_place(self) -> None:
        """⏎ while placing: put the drawn tile where chosen."""
        self._human(Place(self.slot))

    def action_reveal(self) -> None:
        """⏎ after a wrong attack with nothing drawn: turn the chosen own tile face up."""
        self._human(Reveal(self.reveal_index))

    def action_new_game(self) -> None:
        """n once a game is over: the next game, started by the winner, as the rules say."""
        winner = self.state.winner
        if winner is None:
            return
        self.state = self._deal(starter=winner)
        self.history = [self.texts["log_new_game"].format(player=self.names[winner])]
        self._logged = 0
        if self._mounted:
            self._log_view.clear()
        self._sync_choices()
        self._settle()

    def action_help(self) -> None:
        """h or ?: the rules in short and the keys."""
        self.push_screen(HelpScreen(self.texts))

    # What clicks do

    def on_tile_clicked(self, message: TileClicked) -> None:
        view, player, index = self.view, message.player, message.index
        if view.turn != HUMAN or index is None:
            return
        if view.phase is Phase.ATTACK and (player, index) in view.targets():
            self.target = (player, index)
            self._digits = ""
        elif player != HUMAN:
            return
        elif view.phase is Phase.REVEAL and index in view.hidden(HUMAN):
            self.reveal_index = index
        elif view.phase is Phase.PLACE and index in view.place_slots():
            # The row shows the tile in its place: a click puts it where the clicked one is.
            self.slot = index
        elif view.phase is Phase.ARRANGE and index in self._arrange_free():
            self.dash_cursor = index
        self.redraw()

    def on_value_clicked(self, message: ValueClicked) -> None:
        if self._person_to_play(Phase.ATTACK):
            self.value = message.value
            self._digits = ""
            self.redraw()

    def on_pile_clicked(self, message: PileClicked) -> None:
        if self._person_to_play(Phase.TAKE, Phase.DRAW):
            self.action_colour(message.color.value)

    # Drawing: from the person's view only, but for the full rows at the end

    def redraw(self) -> None:
        """Draw the game as it stands: from the person's view, or every row once it is over."""
        if not self._mounted:
            return
        view, texts = self.view, self.texts
        over = view.phase is Phase.OVER
        rows = self._final_rows() if over else view.rows
        tally = " · ".join(
            f"{name} {wins}" for name, wins in zip(self.names, self.wins, strict=True)
        )
        kind = texts["advanced" if view.advanced else "basic"]
        self._text(
            self._lines["title"], f"{texts['title']} · {kind} · {texts['wins'].format(tally=tally)}"
        )
        for color, template in (
            (Color.BLACK, texts["pile_black"]),
            (Color.WHITE, texts["pile_white"]),
        ):
            count = view.pool_count(color)
            self._piles[color].show(template.format(count=count), count)
        self._text(self._lines["status"], self._status())
        for player in range(view.players):
            hand = self._hand_face(player, over)
            self._draw_label(player, over, drawn=hand is not None)
            self._hands[player].show(hand)
            faces = self._row_faces(player, rows[player])
            for index in range(MAX_TILES):
                self._tiles[(player, index)].show(faces[index] if index < len(faces) else None)
        attacking = self._person_to_play(Phase.ATTACK)
        for key in self._value_keys:
            key.set_class(attacking and key.value == self.value, "-chosen")
            key.set_class(not attacking, "-idle")
        self._text(self._lines["target"], self._target_line() if attacking else "")
        log = self._log_view
        if self._logged < len(self.history):
            log.write_lines(self.history[self._logged :])
            self._logged = len(self.history)
        self.refresh_bindings()

    def _text(self, widget: Static, text: str) -> None:
        if str(widget.content) != text:
            widget.update(text)

    def _final_rows(self) -> tuple[tuple[SeenTile, ...], ...]:
        """Every row with every value: the game is over, nothing is secret any more."""
        return tuple(
            tuple(SeenTile(s.tile.color, s.tile.value, s.revealed, s.misses) for s in row)
            for row in self.state.rows
        )

    def _draw_label(self, player: int, over: bool, drawn: bool) -> None:
        view, texts = self.view, self.texts
        marks = [] if player == HUMAN else [self._level_name(self.levels[player - 1])]
        if view.is_out(player):
            marks.append(texts["out"])
        if view.winner == player:
            marks.append(texts["winner_mark"])
        turn = view.turn == player and not over
        label = self._labels[player]
        label.set_class(turn, "-turn")
        label.set_class(view.is_out(player), "-out")
        lines = [f"{'▶ ' if turn else '  '}{self.names[player]}", f"  {' · '.join(marks)}"]
        if drawn:
            lines.append(f"  {texts['drawn']} ▸")
        self._text(label, "\n".join(lines))

    def _level_name(self, level: Level) -> str:
        return self.texts["easy"] if level is Level.EASY else self.texts["hard"]

    def _row_faces(self, player: int, row: Sequence[SeenTile]) -> list[TileFace]:
        view = self.view
        faces = [
            TileFace(seen.color, seen.value, seen.revealed, position=index + 1)
            for index, seen in enumerate(row)
        ]
        if view.turn != HUMAN or view.phase is Phase.OVER:
            return faces
        phase = view.phase
        if phase is Phase.ATTACK and self.target is not None and self.target[0] == player:
            index = self.target[1]
            faces[index] = replace(faces[index], selected=True)
        elif player != HUMAN:
            return faces
        elif phase is Phase.REVEAL:
            faces[self.reveal_index] = replace(faces[self.reveal_index], selected=True)
        elif phase is Phase.PLACE:
            drawn = view.hand[0]
            new = TileFace(drawn.color, drawn.value, view.face_up, placing=True)
            faces.insert(self.slot, new)
        elif phase is Phase.ARRANGE:
            hand = [tile for seen in view.hand if (tile := seen.tile) is not None]
            cursor = self.dash_cursor if self.dash_cursor in self._arrange_free() else None
            positions = [*self.dash_positions, *([] if cursor is None else [cursor])]
            faces = [
                TileFace(tile.color, tile.value, False, placing=index == cursor)
                for index, tile in enumerate(arrange_preview(hand, positions))
            ]
        return [replace(face, position=index + 1) for index, face in enumerate(faces)]

    def _hand_face(self, player: int, over: bool) -> TileFace | None:
        """The drawn tile, beside its owner's row while it lies apart (not while the person
        places it: then it is shown in the row)."""
        view = self.view
        if view.turn != player or view.phase not in (Phase.ATTACK, Phase.PLACE, Phase.OVER):
            return None
        if player == HUMAN and view.phase is Phase.PLACE:
            return None
        if over:
            hand = self.state.hand
            return TileFace(hand[0].color, hand[0].value, False) if hand else None
        if not view.hand:
            return None
        drawn = view.hand[0]
        return TileFace(drawn.color, drawn.value, view.phase is Phase.PLACE and view.face_up)

    def _status(self) -> str:
        view, texts = self.view, self.texts
        if view.phase is Phase.OVER:
            if view.winner == HUMAN:
                return texts["status_you_win"]
            return texts["status_other_wins"].format(player=self.names[view.winner or 0])
        if view.turn != HUMAN:
            return texts["status_waiting"].format(player=self.names[view.turn])
        phase = view.phase
        if phase is Phase.TAKE:
            size = opening_size(view.players)
            return texts["status_take"].format(
                count=size, black=self.take_black, white=size - self.take_black
            )
        if phase is Phase.ARRANGE:
            dashes = self._dashes_in_hand()
            current = dashes[min(len(self.dash_positions), len(dashes) - 1)]
            return texts["status_arrange"].format(colour=colour_name(texts, current.color))
        if phase is Phase.DRAW:
            return texts["status_draw"]
        if phase is Phase.ATTACK:
            if view.hits:
                return texts["status_again" if view.hand else "status_again_no_draw"]
            hint = texts["dash_hint"] if view.advanced else ""
            return texts["status_attack"].format(dash_hint=hint)
        if phase is Phase.PLACE:
            tile = view.hand[0].tile
            name = "" if tile is None else tile_name(texts, tile)
            return texts["status_place_up" if view.face_up else "status_place_hidden"].format(
                tile=name
            )
        return texts["status_reveal"]

    def _target_line(self) -> str:
        if self.target is None:
            return ""
        texts = self.texts
        player, index = self.target
        seen = self.view.rows[player][index]
        parts = [
            texts["target"].format(
                player=self.names[player],
                position=index + 1,
                colour=colour_name(texts, seen.color),
            )
        ]
        if seen.misses:
            values = ", ".join(value_name(texts, v) for v in sorted(seen.misses, key=value_order))
            parts.append(texts["misses"].format(values=values))
        parts.append(f"{texts['value']}: {value_name(texts, self.value)}?")
        return " · ".join(parts)
