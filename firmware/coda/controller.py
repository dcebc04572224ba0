"""The on-screen Coda game without the screen: the games, the computers' turns, the log and the
person's choices in the making, driven by plain method calls. It knows no Textual, so a whole
game can be played and checked in a test without a window; `firmware.coda.app` only turns keys
and clicks into these calls and draws what `firmware.coda.scene` reads from here.

The person is player 0 (`HUMAN`) and the computers follow in the order of play. The rules are
`board_rules.coda`'s. The full state is read only by the rules, the computers (each through its
own view) and the end of the game; everything else reads the person's `view`.

The computers' pacing is data: with `delay_s` 0 they play at once, inside the person's move;
otherwise `computer_to_play` says that one waits, and whoever owns a clock (the app's timer, a
test) calls `computer_step` after `delay_s` seconds. Nothing here waits on real time.

Where the rules leave the person no choice, the controller makes it for them: an advanced
opening without a dash is laid out as it is, and a tile with a single legal place goes there.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final, TypeVar

from board_rules.coda import (
    DASH,
    Action,
    Arrange,
    Attack,
    Color,
    Draw,
    GameState,
    IllegalActionError,
    InconsistentViewError,
    Level,
    Phase,
    Place,
    PlayerView,
    Reveal,
    Stop,
    Strategy,
    TakeTiles,
    Timeout,
    Value,
    apply,
    deduce,
    opening_size,
    strategy,
    view_of,
)
from board_rules.coda.master import reading_persons
from firmware.coda.narration import LABEL, colour_name, describe, value_name
from firmware.coda.texts import CodaTexts

_T = TypeVar("_T")

HUMAN: Final = 0
"""The person's seat: the first in the order of play."""
MAX_OPPONENTS: Final = 3
OPPONENT_LEVELS: Final = (Level.EASY, Level.HARD, Level.EXPERT, Level.MASTER)
"""The levels a person plays against (the random player is for headless matches only)."""
TIME_RULE_S: Final = 80.0
"""The optional time rule: a minute to attack, then the 20 seconds more the others grant."""
COMPUTER_DELAY_S: Final = 0.8
"""The pause before each computer action: long enough to read the log line it adds."""

PERSON_ACTIONS: Final[dict[str, tuple[Phase, ...]]] = {
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
"""The person's inputs, by the name of the method that takes them, and the phases of their own
turn in which they mean something."""


@dataclass(frozen=True)
class Choices:
    """The person's choices in the making; the controller keeps them among the legal ones."""

    take_black: int = 0
    """The opening: how many of the tiles to take are black (the rest are white)."""
    dash_positions: tuple[int, ...] = ()
    """The advanced opening: where the dashes laid out so far go, the black one first."""
    dash_cursor: int = 0
    """The advanced opening: where the dash being laid out would go."""
    target: tuple[int, int] | None = None
    """The attack: the (player, position) of the tile to attack."""
    value: Value = 0
    """The attack: the value to name."""
    digits: str = ""
    """The digits typed so far: a "1" may still become 10 or 11."""
    slot: int = 0
    """The place phase: where the drawn tile goes."""
    reveal_index: int = 0
    """After a wrong attack with nothing drawn: the own tile to turn face up."""


def cycle(items: Sequence[_T], current: _T | None, step: int) -> _T:
    """The item `step` places from `current` in `items`, round the end; the first if
    `current` is not there."""
    if current not in items:
        return items[0]
    return items[(items.index(current) + step) % len(items)]


def _opponent(level: Level) -> Strategy:
    """The computer player of `level`; `master` reads the person as a person, who names a
    likely value rather than always the likeliest."""
    return reading_persons({HUMAN}) if level is Level.MASTER else strategy(level)


def player_names(texts: CodaTexts, players: int) -> tuple[str, ...]:
    """The names of the seats: the person, then the computers, lettered rather than numbered
    ("Computer B 2" in the wins, or "Computer B, tile 3" in the log, would read as one more
    number)."""
    return (texts["you"], *(texts["computer"].format(letter="ABC"[n]) for n in range(players - 1)))


class CodaController:
    """Coda against computer opponents; the person plays the first game first, or in the seat
    they choose before its first move (`choose_seat`)."""

    def __init__(
        self,
        opponents: Sequence[Level],
        texts: CodaTexts,
        *,
        advanced: bool = False,
        rng: random.Random | None = None,
        delay_s: float = COMPUTER_DELAY_S,
        first_game: GameState | None = None,
        rotate: bool = False,
        time_rule: bool = False,
    ) -> None:
        """`rng` deals every game and gives each computer its own stream; `first_game`, a game
        with one seat per player, replaces the first deal (tests stage positions with it).
        With `rotate` each new game is started by the next player in order rather than by the
        winner: the first seat wins least often with four players (see the README). With
        `time_rule` whoever owns a clock calls `time_up` when the person has been deciding an
        attack for `TIME_RULE_S` seconds."""
        if not 1 <= len(opponents) <= MAX_OPPONENTS:
            raise ValueError(f"1 to {MAX_OPPONENTS} computer opponents, not {len(opponents)}")
        if any(level not in OPPONENT_LEVELS for level in opponents):
            raise ValueError(
                f"the opponents are easy, hard, expert or master, not {list(opponents)}"
            )
        self.texts = texts
        self.levels = tuple(opponents)
        self.advanced = advanced
        self.rotate = rotate
        self.time_rule = time_rule
        self.delay_s = delay_s
        self.rng = rng if rng is not None else random.Random()
        self.players = len(opponents) + 1
        self.names = player_names(texts, self.players)
        self._computers: dict[int, tuple[Strategy, random.Random]] = {
            seat: (_opponent(level), random.Random(self.rng.getrandbits(64)))
            for seat, level in enumerate(opponents, start=1)
        }
        if first_game is not None and first_game.players != self.players:
            raise ValueError(f"the first game has {first_game.players} seats, not {self.players}")
        self.state = first_game or self._deal(starter=HUMAN)
        """The whole game: only the rules, the computers and the end of the game read it."""
        self._seat_open = first_game is None
        """True until the first move: see `choose_seat`."""
        self._view: tuple[GameState, PlayerView] | None = None
        self.wins = [0] * self.players
        self.games = 1
        """How many games were dealt: a new one starts a new log."""
        self._log: list[str] = []
        """Every log line of this game."""
        self.show_odds = False
        """The odds view is on: the chances of the opponents' hidden tiles, from the person's
        view (see `odds`)."""
        self._review: list[str] = []
        """This game's attacks of the person that did not name the likeliest tile."""
        self.choices = Choices()
        self._sync_choices()
        self.settle()

    @property
    def history(self) -> list[str]:
        """Every log line of this game."""
        return list(self._log)

    def tile_label(self, player: int, index: int) -> int:
        """The label of the tile at `index` of `player`'s row (`RowTile.label`: its number in
        the order the row received its tiles), written on its frame and used by the log, so
        that a tile inserted to its left changes neither; a staged row without labels is
        labelled by position."""
        return self.state.rows[player][index].label or index + 1

    def next_label(self, player: int) -> int:
        """The label the next tile to go into `player`'s row will get."""
        return len(self.state.rows[player]) + 1

    def toggle_odds(self) -> bool:
        """Show or hide the odds view."""
        self.show_odds = not self.show_odds
        return True

    def odds(self) -> list[str]:
        """For each hidden tile of the opponents, the values it can still have and the
        likeliest, with its chance: what the exact deduction makes of the person's view (the
        tiles face up, the misses, the colours, the person's own tiles), nothing more."""
        view, texts = self.view, self.texts
        if view.phase is Phase.OVER or not any(view.rows):
            return []
        try:
            found = deduce(view)
        except InconsistentViewError:
            return []
        lines = []
        for player, index in view.targets():
            chances = found.distribution(player, index)
            likeliest = max(chances, key=lambda value: chances[value])
            lines.append(
                texts["odds_line"].format(
                    player=self.names[player],
                    position=self.tile_label(player, index),
                    colour=colour_name(texts, view.rows[player][index].color),
                    values=" ".join(value_name(texts, value) for value in chances),
                    value=value_name(texts, likeliest),
                    percent=round(100 * chances[likeliest]),
                )
            )
        return lines

    @property
    def review(self) -> list[str]:
        """This game's attacks of the person that did not name the likeliest (tile, value) of
        their view, each with the likeliest one."""
        return list(self._review)

    def _review_attack(self, view: PlayerView, action: Attack) -> None:
        try:
            found = deduce(view)
        except InconsistentViewError:
            return
        best, (player, index), value = found.guesses()[0]
        chance = found.probability(action.player, action.index, action.value)
        if chance >= best:
            return
        texts = self.texts
        self._review.append(
            texts["review_line"].format(
                player=self.names[action.player],
                position=self.tile_label(action.player, action.index),
                value=value_name(texts, action.value),
                percent=round(100 * chance),
                best_player=self.names[player],
                best_position=self.tile_label(player, index),
                best_value=value_name(texts, value),
                best_percent=round(100 * best),
            )
        )

    @property
    def view(self) -> PlayerView:
        """What the person may know of the game now: everything on screen comes from here."""
        if self._view is None or self._view[0] is not self.state:
            self._view = (self.state, view_of(self.state, HUMAN))
        return self._view[1]

    def person_to_play(self, *phases: Phase) -> bool:
        """True when it is the person's turn, in one of `phases`."""
        view = self.view
        return view.turn == HUMAN and view.phase in phases

    # Playing

    def _deal(self, starter: int) -> GameState:
        game_rng = random.Random(self.rng.getrandbits(64))
        return GameState.new(self.players, game_rng, advanced=self.advanced, starter=starter)

    def _play(self, action: Action) -> None:
        """Apply `action` of the player in turn and log it; raises `IllegalActionError` and
        changes nothing when the rules refuse it."""
        before, state = self.view, self.state
        self.state = apply(self.state, action)
        self._seat_open = False
        label = None
        if isinstance(action, Attack) and state.turn == HUMAN:
            self._review_attack(before, action)
        if isinstance(action, Attack):
            label = self.tile_label(action.player, action.index)
        elif isinstance(action, Reveal):
            label = self.tile_label(state.turn, action.index)
        for line in describe(self.texts, self.names, before, action, self.view):
            self._log.append(line if label is None else line.replace(LABEL, str(label)))
        if self.state.winner is not None and before.winner is None:
            self.wins[self.state.winner] += 1
        self._sync_choices()

    def settle(self) -> None:
        """Go on until someone has to wait: play the person's forced moves, and the computers'
        at once when their pause is 0."""
        while not self.state.is_over:
            if self.state.turn == HUMAN:
                forced = self._forced_move()
                if forced is None:
                    return
                self._play(forced)
            elif self.delay_s <= 0:
                self._play_computer()
            else:
                return

    @property
    def computer_to_play(self) -> bool:
        """True while a computer's next action waits for its pause (`delay_s`) to pass."""
        return not self.state.is_over and self.state.turn != HUMAN

    def computer_step(self) -> bool:
        """Play the next action of the computer in turn now, then go on as after any move;
        False when no computer is to play."""
        if not self.computer_to_play:
            return False
        self._play_computer()
        self.settle()
        return True

    def _play_computer(self) -> None:
        seat = self.state.turn
        play, rng = self._computers[seat]
        self._play(play(view_of(self.state, seat), rng))

    def _forced_move(self) -> Action | None:
        """The person's move when the rules leave them no choice, else None."""
        view = self.view
        if view.phase is Phase.ARRANGE and not view.held_dashes():
            return Arrange()
        if view.phase is Phase.PLACE and len(slots := view.place_slots()) == 1:
            return Place(slots[0])
        return None

    def _person(self, action: Action) -> bool:
        """Play the person's `action` and go on; False, and nothing changes, when the rules
        refuse it (the inputs offer only legal ones, but a refusal is safer than a crash)."""
        try:
            self._play(action)
        except IllegalActionError:
            return False
        self.settle()
        return True

    @property
    def next_starter(self) -> int | None:
        """Who starts the next game once this one is over: the winner, as the rules say, or
        with `rotate` the player after this game's starter."""
        if self.state.winner is None:
            return None
        if self.rotate:
            return (self.state.starter + 1) % self.players
        return self.state.winner

    @property
    def seat_open(self) -> bool:
        """True until the first move of the first game: the person may still choose a seat."""
        return self.games == 1 and self._seat_open

    def seat_order(self, seat: int) -> tuple[int, ...]:
        """The players in the order of play when the person takes `seat` (1: first)."""
        starter = (HUMAN - (seat - 1)) % self.players
        return tuple((starter + step) % self.players for step in range(self.players))

    def choose_seat(self, seat: int) -> bool:
        """Before the first move: deal the first game again so that the person plays
        `seat`-th (1: first, as dealt); False, and nothing changes, once play has begun or for
        a seat the table does not have."""
        if not self.seat_open or not 1 <= seat <= self.players:
            return False
        starter = self.seat_order(seat)[0]
        if starter != self.state.starter:
            self.state = self._deal(starter=starter)
            self._log = [self.texts["log_new_game"].format(player=self.names[starter])]
            self._review = []
            self._sync_choices()
            self.settle()
        return True

    def new_game(self) -> bool:
        """Once a game is over: the next game, started by `next_starter`."""
        starter = self.next_starter
        if starter is None:
            return False
        self.state = self._deal(starter=starter)
        self.games += 1
        self._log = [self.texts["log_new_game"].format(player=self.names[starter])]
        self._review = []
        self._sync_choices()
        self.settle()
        return True

    # The person's choices

    def _sync_choices(self) -> None:
        """Keep the person's choices among the legal ones after every change of the game."""
        view, chosen = self.view, self.choices
        if view.turn != HUMAN:
            return
        phase = view.phase
        if phase is Phase.TAKE:
            fewest, most = view.take_range()
            self.choices = replace(
                self.choices, take_black=min(max(opening_size(view.players) // 2, fewest), most)
            )
        elif phase is Phase.ARRANGE:
            self.choices = replace(self.choices, dash_positions=(), dash_cursor=0)
        elif phase is Phase.ATTACK:
            targets = view.targets()
            target = chosen.target
            if target not in targets:
                # After a right attack, the next hidden tile along rather than the first.
                later = [t for t in targets if target is None or t > target]
                target = (later or list(targets))[0] if targets else None
            self.choices = self._aimed_at(target)
        elif phase is Phase.PLACE:
            slots = view.place_slots()
            if chosen.slot not in slots:
                self.choices = replace(self.choices, slot=slots[0])
        elif phase is Phase.REVEAL:
            hidden = view.hidden(HUMAN)
            if chosen.reveal_index not in hidden:
                self.choices = replace(self.choices, reveal_index=hidden[0])

    def _aimed_at(self, target: tuple[int, int] | None) -> Choices:
        """The choices with `target` to attack and, to name, its likeliest value by the
        person's own view (the lowest of equals): never a value already missed on it."""
        value = self.choices.value
        if target is not None:
            odds = deduce(self.view).distribution(*target)
            value = max(odds, key=lambda v: odds[v])
        return replace(self.choices, target=target, value=value, digits="")

    def arrange_free(self) -> list[int]:
        """Where the dash being laid out may go: any position no earlier dash took."""
        taken = self.choices.dash_positions
        return [p for p in range(len(self.view.hand)) if p not in taken]

    def arrange_positions(self) -> tuple[int, ...]:
        """Where the opening's dashes would go now: those laid out, the one being laid out at
        the cursor, and those still to come waiting at the right end."""
        free = self.arrange_free()
        cursor = self.choices.dash_cursor
        chosen = [*self.choices.dash_positions, *([cursor] if cursor in free else [])]
        waiting = [p for p in reversed(free) if p not in chosen]
        return (*chosen, *waiting[: len(self.view.held_dashes()) - len(chosen)])

    def allows(self, name: str, argument: object = None) -> bool | None:
        """Whether the input `name` (a method of the person's, see `PERSON_ACTIONS`,
        "new_game" or "odds") means something now; None: not now, but it may later in this phase."""
        if name == "new_game":
            return self.view.phase is Phase.OVER
        if name == "odds":  # while there are opponents' hidden tiles to read
            return self.view.phase is not Phase.OVER and bool(self.view.targets())
        phases = PERSON_ACTIONS.get(name)
        if phases is None:
            return True
        if not self.person_to_play(*phases):
            return False
        if name == "stop":
            return self.view.hits > 0
        if name == "dash":
            return self.view.advanced
        if name == "colour" and self.view.phase is Phase.DRAW:
            return self.view.pool_count(Color(str(argument))) > 0 or None
        return True

    # The person's inputs: each returns False when the rules refused the move it made

    def colour(self, color: Color) -> bool:
        """Draw a tile of `color`, or in the opening take one more of it."""
        if self.person_to_play(Phase.DRAW):
            # An empty pile draws nothing: not a refusal, there is just nothing there.
            return self._person(Draw(color)) if self.view.pool_count(color) else True
        if self.person_to_play(Phase.TAKE):
            fewest, most = self.view.take_range()
            step = 1 if color is Color.BLACK else -1
            self.choices = replace(
                self.choices, take_black=min(max(self.choices.take_black + step, fewest), most)
            )
        return True

    def move(self, step: int) -> bool:
        """The previous or next choice of the phase: target, place, dash, own tile."""
        view, chosen = self.view, self.choices
        if view.phase is Phase.ATTACK:
            self.choices = self._aimed_at(cycle(view.targets(), chosen.target, step))
        elif view.phase is Phase.PLACE:
            self.choices = replace(self.choices, slot=cycle(view.place_slots(), chosen.slot, step))
        elif view.phase is Phase.REVEAL:
            self.choices = replace(
                self.choices, reveal_index=cycle(view.hidden(HUMAN), chosen.reveal_index, step)
            )
        elif view.phase is Phase.ARRANGE:
            self.choices = replace(
                self.choices, dash_cursor=cycle(self.arrange_free(), chosen.dash_cursor, step)
            )
        return True

    def step_value(self, step: int) -> bool:
        """The next or previous value to name."""
        self.choices = replace(
            self.choices, value=cycle(self.view.nameable(), self.choices.value, step), digits=""
        )
        return True

    def digit(self, digit: int) -> bool:
        """A digit names that number; 1 then 0 or 1 names 10 or 11."""
        if self.choices.digits == "1" and digit in (0, 1):
            self.choices = replace(self.choices, value=10 + digit, digits="")
        else:
            self.choices = replace(self.choices, value=digit, digits=str(digit))
        return True

    def dash(self) -> bool:
        """Name the dash (advanced game)."""
        self.choices = replace(self.choices, value=DASH, digits="")
        return True

    def take(self) -> bool:
        """Take the opening tiles of the colours chosen."""
        black = self.choices.take_black
        return self._person(TakeTiles(black, opening_size(self.view.players) - black))

    def lay_out(self) -> bool:
        """Leave the dash being laid out where it is; after the last, lay the row out."""
        free = self.arrange_free()
        cursor = self.choices.dash_cursor if self.choices.dash_cursor in free else free[0]
        positions = (*self.choices.dash_positions, cursor)
        if len(positions) < len(self.view.held_dashes()):
            next_free = next(p for p in free if p != cursor)
            self.choices = replace(self.choices, dash_positions=positions, dash_cursor=next_free)
            return True
        return self._person(Arrange(positions))

    def attack(self) -> bool:
        """Name the value chosen against the tile chosen."""
        if self.choices.target is None:
            return True  # nothing to attack: the game is over
        player, index = self.choices.target
        return self._person(Attack(player, index, self.choices.value))

    @property
    def attack_timed(self) -> bool:
        """True while the person decides an attack under the time rule."""
        return self.time_rule and self.person_to_play(Phase.ATTACK)

    def time_up(self) -> bool:
        """The person's time to attack ran out: before a right attack it counts as a wrong
        one, after one as a stop (`Timeout`). False when no attack was being timed."""
        return self.attack_timed and self._person(Timeout())

    def stop(self) -> bool:
        """End the turn after a right attack."""
        return self._person(Stop())

    def place(self) -> bool:
        """Put the drawn tile where chosen."""
        return self._person(Place(self.choices.slot))

    def reveal(self) -> bool:
        """Turn the chosen own tile face up (a wrong attack with nothing drawn)."""
        return self._person(Reveal(self.choices.reveal_index))

    def choose_tile(self, player: int, index: int) -> None:
        """A tile was pointed at (clicked): choose it, if it is a choice of the phase."""
        view = self.view
        if view.turn != HUMAN:
            return
        if view.phase is Phase.ATTACK and (player, index) in view.targets():
            self.choices = self._aimed_at((player, index))
        elif player != HUMAN:
            return
        elif view.phase is Phase.REVEAL and index in view.hidden(HUMAN):
            self.choices = replace(self.choices, reveal_index=index)
        elif view.phase is Phase.PLACE and index in view.place_slots():
            # The row shows the tile in its place: pointing puts it where the pointed one is.
            self.choices = replace(self.choices, slot=index)
        elif view.phase is Phase.ARRANGE and index in self.arrange_free():
            self.choices = replace(self.choices, dash_cursor=index)

    def choose_value(self, value: Value) -> None:
        """A value was pointed at (clicked): name it, while attacking."""
        if self.person_to_play(Phase.ATTACK):
            self.choices = replace(self.choices, value=value, digits="")
