"""Saving and catch-up: every accepted action is written before any feedback, and a disk that
refuses (full, locked, read-only…) never stops play.

While writing fails, `Saver` keeps what the disk has not got (new games taken back by UNDO, the
games left with NEW and the matches begun, the menu settings, the game in play), tries again on
a back-off, and once the disk takes it writes it all in order: the games taken back are deleted
first, then the games left and the matches begun, then the settings, then the game in play.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from board_rules.codenames import Game
from firmware.drivers.clock import Clock
from firmware.table.store import GameStore, SavedGame, StoreError, TimedAction
from firmware.table.store_faults import SaveFault
from firmware.table.unsaved import transcript_text, write_unsaved

log = logging.getLogger(__name__)

RETRY_FIRST_S = 1.0
RETRY_LONGEST_S = 30.0
"""Writing is tried again this long after a failure, doubling up to the longest."""


@dataclass
class RecordedGame:
    """A game and its accepted actions, with its id in the store once its row is written."""

    game: Game
    log: list[TimedAction]
    started_at: float
    """Wall-clock time the game began, for a row written late."""
    game_id: int | None = None
    database: int = 0
    """Which database gave `game_id` (the store's `fresh_starts` then): an id from a damaged
    database since replaced names nothing, or another game, in the fresh one."""


@dataclass(frozen=True)
class MatchStart:
    """A new match begun at wall-clock time `at`, with `moving`, the game in play, in it (a
    game nothing was played in yet), or with the next game (None)."""

    at: float
    moving: RecordedGame | None


def recorded(store: GameStore, saved: SavedGame, now: float) -> RecordedGame:
    """A game read from `store` to play on, rebuilt through the rules core (which raises
    `IllegalActionError` on a record it rejects); `now` is its start when it has no action."""
    started = saved.actions[0].at if saved.actions else now
    game = saved.replay()
    return RecordedGame(game, list(saved.actions), started, saved.game_id, store.fresh_starts)


class Saver:
    """Writes the table's games and settings to `store`, retrying after a failure.

    `schedule(delay)` asks the game loop to look again after `delay` seconds; the loop then calls
    `on_tick`.
    """

    def __init__(self, store: GameStore, clock: Clock, schedule: Callable[[float], None]) -> None:
        self._store = store
        self._clock = clock
        self._schedule = schedule
        self._fault: SaveFault | None = store.fault
        self._backlog: list[RecordedGame | MatchStart] = []
        """Games left (NEW) and matches begun while the disk failed, to write in order before
        the game in play: a game belongs to the match under way when its row is written."""
        self._discards: list[tuple[int, int]] = []
        """Saved games taken back by UNDO while the disk failed, to delete before anything:
        their ids and databases, as in `RecordedGame`."""
        self._unsaved_settings: dict[str, object] = {}
        self._retry_s = RETRY_FIRST_S
        self._retry_due: float | None = None
        self._stopped = False
        """Whether `save_before_stop` has run: the files it writes are written once."""

    @property
    def fault(self) -> SaveFault | None:
        """Why accepted actions are not being written, while they are not."""
        return self._fault

    def begin(self, new: RecordedGame, left: RecordedGame | None = None) -> None:
        """Record `new`, the game in play from now on, which replaces `left` (if any)."""
        if self._fault is None:
            # Written at once so that a restart resumes it.
            self.save(new)
        elif left is not None:
            # Behind a failing disk, the new game waits its turn after the games left unsaved.
            self._backlog.append(left)

    def take_back(self, new: RecordedGame, restored: RecordedGame) -> None:
        """Forget `new`, a game taken back by UNDO, for `restored`, the game it replaced, which
        is in play again: `new` is deleted from the disk (if it got there) before anything else
        is written, so that a restart resumes `restored`."""
        # Left while the disk failed, `restored` waits as the game in play now, not as a game left;
        # but a row written before a match began keeps it in the match it was played in.
        starts = [n for n, item in enumerate(self._backlog) if isinstance(item, MatchStart)]
        cut = starts[-1] + 1 if starts else 0
        self._backlog[cut:] = [item for item in self._backlog[cut:] if item is not restored]
        if new.game_id is not None:
            self._discards.append((new.game_id, new.database))
            new.game_id = None
        self.save(restored)

    def open_match(self, at: float, current: RecordedGame, *, moving: bool) -> None:
        """Begin a new match at wall-clock time `at`, with `current`, the game in play, in it
        when `moving`, else from the next game on; written in order with the rest."""
        if not moving:
            # Its row first, so that it stays in the match it was played in.
            self._backlog.append(current)
        self._backlog.append(MatchStart(at, current if moving else None))
        self.save(current)

    def save_settings(self, changed: dict[str, object], current: RecordedGame) -> None:
        """Write menu settings that changed, after anything the disk has not got yet."""
        self._unsaved_settings.update(changed)
        self.save(current)

    def save(self, current: RecordedGame) -> None:
        """Write all the disk has not got yet, oldest first: the deletions of games taken back,
        the games left while it failed, the menu settings, then `current`, the game in play."""
        try:
            while self._discards:
                game_id, database = self._discards[0]
                if database == self._store.fresh_starts:
                    self._store.discard_game(game_id)
                self._discards.pop(0)
            while self._backlog:
                item = self._backlog[0]
                if isinstance(item, MatchStart):
                    self._store.open_match(item.at, self._saved_id(item.moving))
                else:
                    self._record(item)
                self._backlog.pop(0)
            while self._unsaved_settings:
                name, value = next(iter(self._unsaved_settings.items()))
                self._store.save_setting(name, value)
                del self._unsaved_settings[name]
            self._record(current)
        except StoreError as error:
            self._saving_failed(error)
            return
        if self._fault is not None:
            log.warning("saving works again: every action missed is written")
        self._fault = None
        self._retry_s = RETRY_FIRST_S
        self._retry_due = None

    def retry_later(self) -> None:
        """Try writing again after the back-off; one pending retry at a time."""
        now = self._clock.monotonic()
        if self._retry_due is not None and self._retry_due > now:
            return
        self._retry_due = now + self._retry_s
        self._schedule(self._retry_s)
        # Each failure waits longer, up to RETRY_LONGEST_S.
        self._retry_s = min(self._retry_s * 2, RETRY_LONGEST_S)

    def on_tick(self, now: float, current: RecordedGame) -> None:
        """Retry writing if a retry is due."""
        if self._retry_due is None or now < self._retry_due:
            return
        self._retry_due = None
        # A damaged database replaced by a fresh one: `_record` writes every game anew.
        self._store.recover()
        self.save(current)

    def save_before_stop(self, current: RecordedGame, at: float) -> None:
        """On a clean stop at wall-clock time `at`, with writes held back by a fault: one last
        try, reopening the database read-write, and if the disk still refuses, every game it has
        not got written as a transcript file (`firmware.table.unsaved`), the journal saying
        where. Nothing is dropped in silence; a second call does nothing."""
        if self._fault is None or self._stopped:
            return
        self._stopped = True
        self._store.recover()
        self.save(current)
        if self._fault is None:
            return
        games = [item for item in self._backlog if isinstance(item, RecordedGame)]
        texts = [
            transcript_text(None, game.game.key, game.game.mode, game.log)
            for game in (*games, current)
        ]
        runtime = os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
        folders = [self._store.state_dir, *([Path(runtime)] if runtime else [])]
        written = write_unsaved(texts, folders, at)
        if written:
            log.error(
                "stopping without saving (%s): the games not saved are kept as %s, which "
                "`codenames-table replay` reads",
                self._fault.value,
                ", ".join(map(str, written)),
            )
        else:
            log.error(
                "stopping without saving (%s), and no folder (%s) takes the games not saved: "
                "their actions are lost",
                self._fault.value,
                ", ".join(map(str, folders)),
            )

    def _record(self, recorded: RecordedGame) -> None:
        if recorded.game_id is None or recorded.database != self._store.fresh_starts:
            game = recorded.game
            recorded.game_id = self._store.start_game(game.key, game.mode, recorded.started_at)
            recorded.database = self._store.fresh_starts
        self._store.save(recorded.game_id, recorded.game, recorded.log)

    def _saved_id(self, recorded: RecordedGame | None) -> int | None:
        """The id of `recorded`'s row in the database open now, None when it has none yet."""
        if recorded is None or recorded.database != self._store.fresh_starts:
            return None
        return recorded.game_id

    def _saving_failed(self, error: StoreError) -> None:
        if self._fault is not error.fault:
            log.error("not saving (%s), playing on in memory: %s", error.fault.value, error)
        self._fault = error.fault
        self.retry_later()
