"""The table's game loop: one thread owns the game and turns input events into play.

Driver callbacks and clock timers only `post` events; `run_pending` (headless, tests) or
`run_forever` (the Pi) hands them one at a time to `handle`, on the game thread. Each accepted
action is saved first (`firmware.table.saving`, which plays on when the disk refuses and
catches up later), then shown on the LED key (`firmware.table.key_feedback`), then on the OLED
(whose worker draws the latest screen without holding up the loop).

What an input does depends on the mode (`firmware.table.modes`: play, the staff menu, the pad
test) and, in play, on the phase (`firmware.table.controls`). The sand timer
(`firmware.table.sand_timer`) and sleep (`firmware.table.sleep`) ask for clock ticks, which come
through this loop like inputs.

Near 500 lines: the one place where input events become play. The modes, saving, sleep, the
timer, the key's driving and the controls live in modules of their own; the dispatch, the
notices and the views are what is left here.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from gettext import GNUTranslations
from typing import Protocol

from board_rules.codenames import (
    Action,
    ClueNumber,
    Coord,
    Cover,
    Game,
    GameState,
    GiveClue,
    IllegalActionError,
    Key,
    Mode,
    Phase,
    Reason,
    Timeout,
    Touch,
    Undo,
    apply,
    generate_key,
)
from firmware.drivers.clock import Clock
from firmware.drivers.events import InputEvent, LedSupplyChanged, TouchChipFault
from firmware.drivers.led_strip import LedFault
from firmware.table import controls
from firmware.table import screen_texts as m
from firmware.table.controls import FIRST_SELECTOR, PlayControls
from firmware.table.cover_choice import CoverChoice, choosing, enemy_pick
from firmware.table.i18n import translations
from firmware.table.inbox import Inbox
from firmware.table.key_feedback import KeyFeedback, KeyLights
from firmware.table.last_actions import last_actions_view
from firmware.table.match import MatchTally, saved_tally
from firmware.table.modes import (
    PLAYING,
    ControlMode,
    LastActions,
    MenuOpen,
    NewMatchChosen,
    PadTest,
)
from firmware.table.observer import TableObserver
from firmware.table.sand_timer import END_BEEP, WARNING_BEEP, Beeper, TableTimer, TimerTick, play
from firmware.table.saving import RecordedGame, Saver, recorded
from firmware.table.screens import OledScreen, TableView, compose
from firmware.table.settings import TableSettings
from firmware.table.sleep import SleepWatch
from firmware.table.store import GameStore, StoreError, TimedAction
from firmware.table.store_faults import SaveFault

log = logging.getLogger(__name__)

_SUPPLY_OFF = "the key is dark, the game goes on; check the LED supply, its lead and its fuse"


class ScreenOutput(Protocol):
    """The OLED as the table uses it: takes the latest screen (`firmware.table.display_worker`)."""

    def show(self, screen: OledScreen) -> None: ...

    def set_dimmed(self, dimmed: bool) -> None: ...


@dataclass(frozen=True)
class TimingSettings:
    """How long things last on the table, in seconds."""

    notice_s: float = 2.5
    """A result or warning stays on the OLED this long."""
    sleep_after_s: float = 600.0
    """Without input for this long the table dims."""
    timer_redraw_s: float = 1.0
    """The timer bar is redrawn this often while it runs."""


@dataclass(frozen=True)
class Rejection:
    """An action the rules turned down, for logs and scripted runs."""

    action: Action
    reason: Reason


class _Tick:
    """Posted by a clock timer: something is due (a notice ends, the timer runs out…)."""

    def __str__(self) -> str:
        return "tick"


class _Marker:
    """Posted by `Table.caught_up`: reached once every event queued before it is handled."""

    def __init__(self) -> None:
        self.reached = threading.Event()

    def __str__(self) -> str:
        return "marker"


TableEvent = InputEvent | _Tick | _Marker


class Table:
    """The game, its settings and the feedback of one table."""

    def __init__(
        self,
        *,
        clock: Clock,
        store: GameStore,
        lights: KeyLights,
        screen: ScreenOutput,
        rng: random.Random,
        settings: TableSettings,
        beeper: Beeper | None = None,
        timing: TimingSettings | None = None,
        wall_clock: Callable[[], float] = time.time,
        first_key: Key | None = None,
        first_mode: Mode | None = None,
        language: str | None = None,
        events: queue.Queue[TableEvent] | None = None,
        led_fault: LedFault | None = None,
        led_supply: bool | None = None,
    ) -> None:
        self._clock = clock
        self._strip_fault = led_fault
        """Why the key's strip did not open, for as long as the table runs."""
        self._led_supply = led_supply
        """Whether the LEDs' supply is there, as its sense input last said; None unwatched."""
        if led_supply is False:
            log.error("LED supply off at start: %s", _SUPPLY_OFF)
        self._wall_clock = wall_clock
        self._store = store
        self._key = KeyFeedback(lights, self._schedule)
        self._screen = screen
        self._rng = rng
        self._beeper = beeper
        self._timing = timing or TimingSettings()
        self.events: queue.Queue[TableEvent] = Inbox() if events is None else events
        """Where drivers put input events (the console is handed this queue)."""
        self.settings = settings.with_saved(store.load_settings())
        if language is not None:
            # Chosen for this run on the command line: it wins over the saved menu setting.
            self.settings = replace(self.settings, language=language)
        self._key.set_look(self.settings.brightness, self.settings.colour_blind)
        self.observer: TableObserver | None = None
        """Told of each input and accepted change (`firmware.table.observer`); set before the
        loop runs."""
        self.rejections: list[Rejection] = []
        """Actions turned down since the table started; a scripted run reads them."""
        self._selector: ClueNumber = FIRST_SELECTOR
        self._notice: tuple[str, ...] = ()
        self._notice_until = 0.0
        self._composed: tuple[TableView, GNUTranslations, OledScreen] | None = None
        """The last view composed, in its language, and its screen: most events (a release, a
        blink) change nothing on it, and composing costs more than comparing."""
        self._timer = TableTimer(self._timing.timer_redraw_s, self._schedule)
        self._controls = PlayControls()
        self._mode: ControlMode = PLAYING
        self._cover: CoverChoice | None = None
        """The card chosen in a cover phase (`firmware.table.cover_choice`); it holds only in
        the state it was chosen in."""
        self._saver = Saver(store, clock, self._schedule)
        self._silent_chips: set[int] = set()
        """The touch chips that do not answer now (capacitive pads), shown on the OLED."""
        self._first_key = first_key
        self._first_mode = first_mode
        self._left: tuple[RecordedGame, ClueNumber] | None = None
        """The game NEW replaced and its selector, while UNDO can bring it back."""
        self._match_left = MatchTally()
        """The match's tally as it was for the game NEW replaced, for UNDO to bring back."""
        self._current = self._resume()
        self._match = saved_tally(store, self._current.game_id)
        if self._saver.fault is not None:
            self._saver.retry_later()
        self._sleep = SleepWatch(self._timing.sleep_after_s, clock.monotonic(), self._schedule)
        self._refresh(led=True)

    def _resume(self) -> RecordedGame:
        # A damaged database must not keep the table from starting: a new game begins instead.
        try:
            saved = self._store.latest_game()
            if saved is not None:
                current = recorded(self._store, saved, self._wall_clock())
                if not current.game.standing:
                    # Perhaps NEW dealt it just before the power went: UNDO still brings back
                    # the game it replaced, as it would have without the power cut.
                    self._left = self._saved_before(saved.game_id)
                    if self._left is not None:
                        self._match_left = saved_tally(self._store, self._left[0].game_id)
                return current
        except (StoreError, IllegalActionError) as error:
            log.error("the last game cannot be resumed, starting anew: %s", error)
        return self._new_game()

    def _saved_before(self, game_id: int) -> tuple[RecordedGame, ClueNumber] | None:
        try:
            saved = self._store.game_before(game_id)
            if saved is not None:
                return recorded(self._store, saved, self._wall_clock()), FIRST_SELECTOR
        except (StoreError, IllegalActionError) as error:
            log.error("the game before the last cannot be brought back by UNDO: %s", error)
        return None

    def _new_game(self, left: RecordedGame | None = None) -> RecordedGame:
        # A scripted run may fix the first key and mode; every later game draws its own key
        # and takes the menu's mode.
        key, self._first_key = self._first_key or generate_key(self._rng), None
        mode, self._first_mode = self._first_mode or self.settings.mode, None
        current = RecordedGame(Game(key, mode), [], self._wall_clock())
        self._saver.begin(current, left)
        return current

    def post(self, event: TableEvent) -> None:
        """Queue an input event; safe from any thread (driver callbacks, clock timers)."""
        self.events.put(event)

    def caught_up(self) -> threading.Event:
        """An event set once the game thread has handled every event queued before this call:
        what a script's player waits on before it reads the game (safe from any thread)."""
        marker = _Marker()
        self.post(marker)
        return marker.reached

    def run_pending(self, observe: Callable[[TableEvent], None] | None = None) -> int:
        """Handle every queued event on this thread, showing each to `observe` first (the
        simulation's line of recent inputs); returns how many there were."""
        handled = 0
        while True:
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                return handled
            if observe is not None:
                observe(event)
            self.handle(event)
            handled += 1

    def run_forever(
        self, stop: threading.Event, heartbeat: Callable[[], None], heartbeat_s: float = 1.0
    ) -> None:
        """The game thread on the Pi: handle events until `stop` is set, calling `heartbeat`
        at least every `heartbeat_s` from this very loop (the service watchdog)."""
        while not stop.is_set():
            heartbeat()
            try:
                event = self.events.get(timeout=heartbeat_s)
            except queue.Empty:
                continue
            self.handle(event)

    def save_before_stop(self) -> None:
        """On a clean stop, once the loop has ended: what a fault held back is written, or
        kept as files to recover from (`Saver.save_before_stop`)."""
        self._saver.save_before_stop(self._current, self._wall_clock())

    @property
    def game(self) -> Game:
        """The game in play."""
        return self._current.game

    @property
    def state(self) -> GameState:
        """The state of the game in play."""
        return self._current.game.state

    @property
    def match_score(self) -> tuple[int, int]:
        """Games won (red, blue) in the match under way, the game in play once it is won."""
        return self._match.score(self.state)

    @property
    def saving(self) -> bool:
        """False while actions cannot be written to disk."""
        return self._saver.fault is None

    @property
    def not_saving(self) -> SaveFault | None:
        """Why actions are not being written, while they are not."""
        return self._saver.fault

    @property
    def control_mode(self) -> ControlMode:
        """What the controls do now: play, the staff menu, the pad test or the last actions."""
        return self._mode

    @property
    def led_fault(self) -> LedFault | None:
        """Why the LED key is dark, when it is: its supply is off (the first thing to fix, and
        at the table), or its strip did not open."""
        if self._led_supply is False:
            return LedFault.NO_SUPPLY
        return self._strip_fault

    @property
    def led_supply(self) -> bool | None:
        """Whether the LED key's 5 V is there now; None when the table does not watch it."""
        return self._led_supply

    @property
    def asleep(self) -> bool:
        """True while the table is dimmed for want of input."""
        return self._sleep.asleep

    def handle(self, event: TableEvent) -> None:
        """React to one event, on the game thread."""
        now = self._clock.monotonic()
        if isinstance(event, _Tick):
            self._on_tick(now)
            return
        if isinstance(event, _Marker):
            event.reached.set()
            return
        if isinstance(event, TouchChipFault):
            # A device's fault, not a hand: it neither wakes the table nor counts as input.
            if event.answering:
                self._silent_chips.discard(event.address)
            else:
                self._silent_chips.add(event.address)
            self._refresh(led=False)
            return
        if isinstance(event, LedSupplyChanged):
            self._supply_changed(event.present)
            return
        if self.observer is not None:
            self.observer.seen(event)
        self._sleep.input_seen(now)
        if self._sleep.asleep:
            self._wake(event, now)
            return
        if self._sleep.rest_of_waking_press(event):
            return
        self._controls.note(event)
        led = False
        mode = self._mode
        if isinstance(mode, PadTest):
            self._mode = mode.on(event, self._catalog)
        elif isinstance(mode, LastActions):
            self._mode = mode.on(event, len(self.game.applied))
        elif isinstance(mode, MenuOpen):
            self._mode, settings = mode.on(event, self.settings)
            led = settings != self.settings
            if led:
                self._change_settings(settings)
            if isinstance(self._mode, NewMatchChosen):
                self._mode = PLAYING
                self._new_match(now)
        else:
            led = self._on_play(event, now)
        self._refresh(led=led)

    def _supply_changed(self, present: bool) -> None:
        # Like a silent touch chip, a device's fault: the game goes on, the OLED names it.
        self._led_supply = present
        if present:
            log.info("LED supply back: the key is drawn again")
            # The pixels wake dark from a cut: the whole picture goes out again.
            self._key.forget_shown()
        else:
            log.error("LED supply off: %s", _SUPPLY_OFF)
        self._refresh(led=present)

    def _on_play(self, event: InputEvent, now: float) -> bool:
        intent = self._controls.meaning(event, self.state.phase, self._selector, self._catalog)
        match intent:
            case controls.Act(action):
                return self._play(action, now)
            case controls.ChooseCover(card):
                return self._choose_cover(card, now)
            case controls.ConfirmCover():
                return self._confirm_cover(now)
            case controls.Dial(steps):
                self._selector = controls.dialled(self._selector, steps)
                # The spymaster is dialling: show the selector now, not after the notice.
                self._notice = ()
            case controls.Tell(texts):
                self._show_notice(now, *texts)
            case controls.StartNewGame():
                self._left, self._match_left = (self._current, self._selector), self._match
                self._match = self._match.next_game(self.state)
                self._current = self._new_game(left=self._current)
                self._selector = FIRST_SELECTOR
                self._timer.stop()
                self._show_notice(now, m.NEW_GAME)
                self._tell_observer("new game")
                return True
            case controls.StartTimer():
                self._start_timer(now)
            case controls.PauseTimer():
                self._pause_timer(now)
            case controls.OpenMenu():
                self._mode = MenuOpen()
        return False

    def _play(self, action: Action, now: float) -> bool:
        before, standing = self.state, self.game.standing
        if isinstance(action, Undo) and not standing and self._left is not None:
            return self._undo_new_game(self._left, now)
        try:
            after = self._current.game.play(action)
        except IllegalActionError as error:
            self.rejections.append(Rejection(action, error.reason))
            self._show_notice(now, m.REASONS[error.reason])
            return False
        self._current.log.append(TimedAction(action, self._wall_clock()))
        self._saver.save(self._current)
        self._selector = FIRST_SELECTOR
        if isinstance(action, GiveClue) and self.settings.timer_autostart and self.settings.timer_s:
            self._timer.start(self.settings.timer_s, now)
        if after.turn is not before.turn or after.is_over:
            # The sand timer is turned for the team that is taking too long: its end must not
            # cut the next team's turn short.
            self._timer.stop()
        if isinstance(action, Touch) and not after.is_over:
            identity = before.key[action.coord]
            outcome = m.GUESS_AGAIN if after.phase is Phase.GUESS else m.TURN_OVER
            self._show_notice(now, m.IDENTITY_NAMES[identity], outcome)
        elif isinstance(action, Undo):
            # What was taken back, and the cover to lift off its card if it had one.
            self._show_notice(now, *m.undone_lines(self._catalog, standing[-1]))
        else:
            self._notice = ()
        self._tell_observer(str(action))
        return True

    def _choose_cover(self, card: Coord, now: float) -> bool:
        if card in self.state.covered:
            # Public already: the card lies covered on the table.
            self._show_notice(now, m.REASONS[Reason.ALREADY_COVERED])
            return False
        choice = choosing(self._cover, self.state)
        assert choice is not None  # a pad chooses only in a cover phase
        self._cover = choice.chosen(card)
        # The choice is on the screen at once, whatever the card: "Cover C3? Press DONE".
        self._notice = ()
        return True

    def _confirm_cover(self, now: float) -> bool:
        choice = choosing(self._cover, self.state)
        if choice is None or choice.lost:
            return False
        if choice.card is None:
            cover_hint = (
                m.COVER_OR_CLUE if self.state.phase is Phase.PENALTY_COVER else m.COVER_ENEMY
            )
            self._show_notice(now, cover_hint)
            return False
        try:
            apply(self.state, Cover(choice.card))
        except IllegalActionError as error:
            # Refused: the screen stays exactly as the choice left it; the LED key, which marks
            # the choice as not to be covered, is the only side that tells.
            self.rejections.append(Rejection(Cover(choice.card), error.reason))
            self._cover = choice.refused_once()
            self._notice = ()
            if self._cover.lost and self.state.phase is Phase.ENEMY_COVER:
                return self._enemy_covers(now)
            return True
        return self._play(Cover(choice.card), now)

    def _enemy_covers(self, now: float) -> bool:
        # The co-op opponent's choosing is over: it covers one of its agents itself.
        team, card = self.state.turn, enemy_pick(self.state, self._rng)
        played = self._play(Cover(card), now)
        covers = self._catalog.gettext(m.ACTED_COVER[team])
        self._show_notice(now, covers.format(card=m.switch_name(card)))
        return played

    def _tell_observer(self, action: str) -> None:
        if self.observer is not None:
            self.observer.played(
                action, self.state, self.match_score, self._notice, self._saver.fault
            )

    def _undo_new_game(self, left: tuple[RecordedGame, ClueNumber], now: float) -> bool:
        # One step back only: the game replaced, as it was. The sand timer is not brought back:
        # NEW stopped it, and the time since belongs to no turn; TIMER turns it again.
        self._saver.take_back(self._current, left[0])
        (self._current, self._selector), self._left = left, None
        self._match = self._match_left
        self._timer.stop()
        self._show_notice(now, m.UNDONE_NEW_GAME)
        self._tell_observer("undo new game")
        return True

    def _new_match(self, now: float) -> None:
        # A game nothing was played in yet is the match's first; otherwise the match begins
        # with the next game, and the game in play counts for none.
        moving = not self.game.applied
        self._match = MatchTally(counts_current=moving)
        # UNDO of NEW brings back a game of the match before.
        self._match_left = MatchTally(counts_current=False)
        self._saver.open_match(self._wall_clock(), self._current, moving=moving)
        self._show_notice(now, m.NEW_MATCH, *(() if moving else (m.FROM_NEXT_GAME,)))
        self._tell_observer("new match")

    def _start_timer(self, now: float) -> None:
        if not self.settings.timer_s:
            self._show_notice(now, *m.TIMER_OFF_NOTICE)
            return
        self._timer.start(self.settings.timer_s, now)

    def _pause_timer(self, now: float) -> None:
        if not self.settings.timer_s:
            self._show_notice(now, *m.TIMER_OFF_NOTICE)
        elif self._timer.toggle_pause(now):
            self._show_notice(now, m.TIMER_PAUSED)

    def _timer_ran_out(self, now: float) -> bool:
        # Strict timer: the guessing team's time is up. The timeout is saved like any action,
        # before the beep and the screen tell the table.
        ended = self.settings.strict and self.state.phase is Phase.GUESS
        if ended:
            ended = self._play(Timeout(), now)
        play(self._beeper, END_BEEP)
        self._show_notice(now, m.TIME_UP, *((m.TURN_OVER,) if ended else ()))
        return ended

    def _change_settings(self, settings: TableSettings) -> None:
        changed = {
            name: value
            for name, value in settings.to_saved().items()
            if self.settings.to_saved()[name] != value
        }
        self.settings = settings
        self._key.set_look(settings.brightness, settings.colour_blind)
        if changed:
            self._saver.save_settings(changed, self._current)

    def _wake(self, event: InputEvent, now: float) -> None:
        self._sleep.wake(event, now)
        self._screen.set_dimmed(False)
        self._refresh(led=True)

    def _fall_asleep(self) -> None:
        self._screen.set_dimmed(True)
        # Staff walked away: the table wakes to the game, not to their menu or pad test.
        self._mode = PLAYING
        self._refresh(led=True)

    def _schedule(self, delay: float) -> None:
        # A tick only makes the loop look at what is due, so a spare one does no harm and
        # timers are never cancelled.
        self._clock.call_later(delay, lambda: self.post(_Tick()))

    def _on_tick(self, now: float) -> None:
        led = self._key.due(now)
        self._saver.on_tick(now, self._current)
        match self._timer.tick(now):
            case TimerTick.END:
                led = self._timer_ran_out(now) or led
            case TimerTick.WARNING:
                play(self._beeper, WARNING_BEEP)
        if self._sleep.falls_asleep(now):
            self._fall_asleep()
            return
        self._refresh(led=led)

    def _show_notice(self, now: float, *texts: str) -> None:
        self._notice = tuple(self._catalog.gettext(text) for text in texts)
        self._notice_until = now + self._timing.notice_s
        self._schedule(self._timing.notice_s)

    @property
    def _catalog(self) -> GNUTranslations:
        return translations(self.settings.language)

    def _refresh(self, led: bool) -> None:
        now = self._clock.monotonic()
        if led or self._sleep.asleep:
            choice = choosing(self._cover, self.state)
            mark = None if choice is None else choice.mark
            self._key.draw(self.state, now, asleep=self._sleep.asleep, mark=mark)
        if self._notice and now >= self._notice_until:
            self._notice = ()
        view, catalog = self.view(now), self._catalog
        if self._composed is None or self._composed[:2] != (view, catalog):
            self._composed = (view, catalog, compose(view, catalog))
        self._screen.show(self._composed[2])

    def view(self, now: float) -> TableView:
        """What the screen shows now."""
        mode, choice = self._mode, choosing(self._cover, self.state)
        menu = (
            mode.menu.view(self.settings, self._catalog, self.state.mode)
            if isinstance(mode, MenuOpen)
            else last_actions_view(self.game, mode.index, self._catalog)
            if isinstance(mode, LastActions)
            else None
        )
        return TableView(
            state=self.state,
            selector=self._selector,
            notice=self._notice,
            timer_left=self._timer.fraction_left(now),
            timer_seconds=self._timer.seconds_left(now),
            not_saving=self._saver.fault,
            input_fault=bool(self._silent_chips),
            led_fault=self.led_fault,
            match=self._match.score(self.state),
            menu=menu,
            pad_test=mode.last if isinstance(mode, PadTest) else None,
            cover_card=None if choice is None else choice.card,
            cover_lost=choice is not None and choice.lost,
        )
