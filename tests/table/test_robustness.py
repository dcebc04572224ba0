"""Robustness, shown: power cuts, an I2C fault storm, stuck, chattering and mashed pads.

After each of them the game is exactly the fold of the actions the table applied and saved, and
the counts add up. The power cuts are real: the table runs as its own process
(`tools.soak`) and is killed with SIGKILL, no clean-up, at seeded random moments: 12 in each
run of the suite, each run with a new seed that the test prints, and 50 in `make soak` (CI runs
both). The service test runs the game loop on its thread with a real clock, as on the Pi, and
checks that its watchdog heartbeat keeps coming through the abuse.

Nothing here asserts how fast anything is; the waits are bounded only so that a hang fails.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from board_rules.codenames import ALL_COORDS, Coord, Cover, Game, Phase, Team, Touch
from firmware.drivers.clock import SystemClock
from firmware.drivers.matrix import PRESS_CONFIRM_MS, switch_position
from firmware.table.config import InputConfig
from firmware.table.oled_render import render_screen
from firmware.table.store import GameStore, SavedGame
from firmware.virtual.i2c import VirtualI2C
from firmware.virtual.table import VirtualTable
from tools.soak import random_move

from ..conftest import TableFactory
from ..paths import REPO
from ..rules_helpers import KEY
from ..table_scripts import STILL, announce

BOUND_S = 10.0
"""Longest wait for anything in real time: reached only when something hangs."""


def assert_consistent(game: Game, saved: SavedGame | None) -> None:
    """The state is the fold of the applied actions, the disk holds exactly them, and the
    counts add up: every covered card was covered by exactly one action that still stands."""
    state = game.state
    assert Game.replay(state.key, state.mode, game.applied).state == state
    assert saved is not None and saved.key == state.key and saved.mode == state.mode
    assert tuple(timed.action for timed in saved.actions) == game.applied
    assert saved.replay().state == state
    covering = [a.coord for a in game.standing if isinstance(a, Touch | Cover)]
    assert len(covering) == len(set(covering)) == len(state.covered)
    assert set(covering) == state.covered


def play_for(
    vt: VirtualTable, rng: random.Random, seconds: float, pads: Sequence[Coord] = ALL_COORDS
) -> int:
    """Random moves for `seconds` of virtual time, each game checked when the next replaces it;
    returns the actions applied in all of them."""
    applied = 0
    end = vt.clock.monotonic() + seconds
    ids = vt.store.game_ids()
    while vt.clock.monotonic() < end:
        game = vt.table.game
        random_move(vt, rng, pads)
        if vt.table.game is not game:
            applied += len(game.applied)
            left, ids = ids[-1], vt.store.game_ids()
            if left in ids:  # NEW: the game left is kept as it was
                assert_consistent(game, vt.store.game(left))
            else:  # UNDO took back a new game: gone, and the game it replaced is in play again
                assert not game.standing
                assert_consistent(vt.table.game, vt.store.latest_game())
    return applied + len(vt.table.game.applied)


def touches_of(game: Game, coord: Coord) -> int:
    return sum(1 for action in game.applied if action == Touch(coord))


# Power cuts


@dataclass
class Ledger:
    """What the killed processes confirmed, per game, in order."""

    confirmed: dict[int, list[str]] = field(default_factory=dict)
    latest: SavedGame | None = None
    """The disk's latest game after the last kill: what the next start must resume."""
    cuts: int = 0

    def read(self, line: str) -> None:
        kind, rest = line.split(" ", 1)
        if kind == "resumed":
            game_id, count, state = rest.split(" ", 2)
            self.resumed(int(game_id), int(count), json.loads(state))
        elif kind == "game":
            game_id = int(rest)
            assert game_id not in self.confirmed, f"game {game_id} started twice"
            self.confirmed[game_id] = []
        elif kind == "back":
            # UNDO took back the latest game, deleted from the disk: the one before is in play.
            back, taken = int(rest), max(self.confirmed)
            assert back < taken and back in self.confirmed, line
            del self.confirmed[taken]
        else:
            assert kind == "action", line
            game_id, seq, text = rest.split(" ", 2)
            actions = self.confirmed[int(game_id)]
            # A line for each action, each once, in order: none skipped, none doubled.
            assert int(seq) == len(actions), f"action {seq} of game {game_id} after {actions}"
            actions.append(text)

    def resumed(self, game_id: int, count: int, state: dict[str, object]) -> None:
        saved = self.latest
        if saved is None:  # the very first start, on an empty directory
            assert count == 0
            self.confirmed[game_id] = []
            return
        assert game_id == saved.game_id
        assert count == len(saved.actions)  # exactly what the disk holds, nothing replayed twice
        expected = saved.replay().state.to_dict()
        assert state == json.loads(json.dumps(expected, sort_keys=True))
        # The action in flight at the kill, if any, is on the disk: the game goes on with it.
        self.confirmed[game_id] = [str(timed.action) for timed in saved.actions]

    def check_disk(self, state_dir: Path) -> None:
        """After a kill: every confirmed action is saved, in order, and at most one beyond."""
        with GameStore(state_dir) as store:
            latest = store.latest_game()
            if latest is None:  # killed before its first game was even written
                assert not any(self.confirmed.values())
                self.cuts += 1
                return
            for game_id in store.game_ids():
                saved = [str(timed.action) for timed in store.game(game_id).actions]
                confirmed = self.confirmed.get(game_id)
                if confirmed is None:
                    # Started just before the kill, before its line: nothing played in it yet.
                    assert game_id == latest.game_id and saved == []
                elif game_id == latest.game_id:
                    # The one action in flight may have been saved, not yet confirmed.
                    assert saved[: len(confirmed)] == confirmed
                    assert len(saved) <= len(confirmed) + 1
                else:
                    assert saved == confirmed
            missing = set(self.confirmed) - set(store.game_ids())
            # Only a new game taken back by UNDO just before the kill, before its line: the
            # latest confirmed, with nothing of it standing (each undo took back one action).
            assert missing <= {max(self.confirmed)}
            for game_id in missing:
                actions = self.confirmed.pop(game_id)
                assert 2 * actions.count("undo") == len(actions)
        self.latest = latest
        self.cuts += 1


def _kill_after(child: subprocess.Popen[str], rng: random.Random) -> list[str]:
    """Let the table play, kill it at a random moment, return every line it wrote."""
    assert child.stdout is not None
    lines: list[str] = []
    if rng.random() < 0.2:
        # Anywhere from start-up (opening the database, resuming) to the first moves.
        time.sleep(rng.uniform(0.0, 0.5))
    else:
        wanted = rng.randint(1, 25)  # the resumed line, then a few actions
        while len(lines) < wanted and (line := child.stdout.readline()):
            lines.append(line)
        # At once half of the time: right after a confirmation is where a table that gave
        # feedback before saving would lose the action.
        time.sleep(rng.choice((0.0, rng.uniform(0.0, 0.01))))
    child.send_signal(signal.SIGKILL)
    child.wait(BOUND_S)
    # What was written before the kill was confirmed to the players too.
    lines.extend(child.stdout.readlines())
    return [line.rstrip("\n") for line in lines]


def _soak_setting(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    return int(value) if value else default


def test_sigkill_at_random_moments_loses_and_doubles_no_confirmed_action(tmp_path: Path) -> None:
    kills = _soak_setting("SOAK_KILLS", 12)
    # A new seed each run, so that the runs between them kill at ever new moments; printed (shown
    # with a failure, and always by `make soak`) so that a failure can be played again.
    seed = _soak_setting("SOAK_SEED", random.SystemRandom().randrange(1 << 32))
    print(f"power cuts: seed {seed}; again with: make soak SOAK_SEED={seed} SOAK_KILLS={kills}")
    rng = random.Random(seed)
    state_dir = tmp_path / "state"
    ledger = Ledger()
    repo = REPO

    def confirmed() -> int:
        return sum(len(actions) for actions in ledger.confirmed.values())

    def covered() -> bool:
        """Enough was played across the cuts: four confirmed actions a kill, and games ended
        and new ones started. Random moments may fall short of it in `kills` kills: a few more
        are made then, up to twice as many."""
        return confirmed() > 4 * kills and len(ledger.confirmed) > 1

    while ledger.cuts < kills or (not covered() and ledger.cuts < 2 * kills):
        cut = ledger.cuts
        with (tmp_path / f"stderr-{cut}").open("w+") as errors:
            child = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tools.soak",
                    str(state_dir),
                    str(rng.randrange(1 << 30)),
                ],
                stdout=subprocess.PIPE,
                stderr=errors,
                text=True,
                cwd=repo,
            )
            # Should the child hang, this kill ends the wait instead of the test run.
            guard = threading.Timer(60.0, child.kill)
            guard.start()
            try:
                lines = _kill_after(child, rng)
            finally:
                guard.cancel()
            assert child.returncode == -signal.SIGKILL, _text(errors)
        for line in lines:
            ledger.read(line)
        ledger.check_disk(state_dir)
        assert ledger.cuts == cut + 1
    print(f"{ledger.cuts} kills, {confirmed()} confirmed actions in {len(ledger.confirmed)} games")
    assert confirmed() > 4 * kills
    assert len(ledger.confirmed) > 1  # games ended and new ones started across the cuts


def _text(file: IO[str]) -> str:
    file.seek(0)
    return file.read()


# Faults in one process, on the virtual clock


def test_a_minute_of_i2c_fault_storm_leaves_the_game_consistent(
    virtual_table: TableFactory,
) -> None:
    rng = random.Random(61)
    with virtual_table() as vt:
        vt.bus.fail_fraction(0.1, random.Random(62))
        assert play_for(vt, rng, 60.0) > 20
        assert vt.bus.failed_writes > 0
        assert_consistent(vt.table.game, vt.store.latest_game())
        vt.bus.fail_fraction(0.0, rng)
        vt.wait(35.0)  # longer than the longest back-off
        screen = vt.display.screen
        assert screen is not None
        assert vt.chip.to_image().tobytes() == render_screen(screen).tobytes()


def test_a_pad_stuck_for_minutes_counts_once_and_play_goes_on(
    virtual_table: TableFactory,
) -> None:
    stuck = Coord.parse("C2")  # a red agent
    others = [coord for coord in ALL_COORDS if coord != stuck]
    rng = random.Random(7)
    with virtual_table() as vt:
        announce(vt, 9)  # unlimited
        vt.circuit.press_pad(stuck)
        vt.wait(10.5)
        screen = vt.display.screen
        assert screen is not None and screen.lines[0] == "Card C2 is stuck"
        first_game = vt.table.game
        assert touches_of(first_game, stuck) == 1  # the press itself counted, once
        assert play_for(vt, rng, 20.0, others) > 30  # the other pads kept working
        assert vt.table.game is not first_game  # games ended and new ones began around it
        # Minutes with nobody playing (they cost little: with only a stuck pad down the scan
        # slows), then play again: the other pads still work.
        vt.wait(100.0)
        game, before = vt.table.game, len(vt.table.game.applied)
        play_for(vt, rng, 10.0, others)
        assert vt.table.game is not game or len(game.applied) > before
        assert switch_position(stuck) in vt.circuit.pressed  # held down all along
        vt.circuit.release_pad(stuck)
        vt.wait(1.0)
        assert touches_of(first_game, stuck) == 1
        assert touches_of(vt.table.game, stuck) == 0  # later games never saw it pressed
        assert_consistent(vt.table.game, vt.store.latest_game())


def _chatter(vt: VirtualTable, coord: Coord, rng: random.Random, *, end_closed: bool) -> None:
    """Bounce the contact open and closed, each state shorter than the press confirmation (and
    so than the release debounce)."""
    closed = False
    for _ in range(rng.randint(4, 30)):
        closed = not closed
        if closed:
            vt.circuit.press_pad(coord)
        else:
            vt.circuit.release_pad(coord)
        vt.wait(rng.uniform(0.0005, 0.9 * PRESS_CONFIRM_MS / 1000))
    if closed != end_closed:
        if end_closed:
            vt.circuit.press_pad(coord)
        else:
            vt.circuit.release_pad(coord)


def test_a_chattering_pad_never_makes_a_touch_and_a_bouncing_press_makes_one(
    virtual_table: TableFactory,
) -> None:
    rng = random.Random(30)
    with virtual_table() as vt:
        announce(vt, 9)  # unlimited: red guesses on
        red = sorted(KEY.agents_of(Team.RED))
        for coord in red[:4]:
            _chatter(vt, coord, rng, end_closed=False)  # a loose contact, nobody pressing
            vt.wait(0.2)
            assert touches_of(vt.table.game, coord) == 0
        for coord in red[4:8]:
            _chatter(vt, coord, rng, end_closed=True)  # a press that bounces going down
            vt.wait(0.2)
            _chatter(vt, coord, rng, end_closed=False)  # and coming up
            vt.wait(0.2)
            assert touches_of(vt.table.game, coord) == 1
        assert vt.table.state.covered == frozenset(red[4:8])
        assert_consistent(vt.table.game, vt.store.latest_game())


MASH = st.lists(
    st.tuples(
        # A tap (down, then up after the time given), a press left down, the release of one
        # held down, or a clue when one is due.
        st.sampled_from(("tap", "tap", "tap", "press", "release", "clue")),
        st.integers(0, len(ALL_COORDS) - 1),
        st.integers(0, 80),  # milliseconds: a tap's length, or the pause after the move
    ),
    min_size=5,
    max_size=80,
)


def mash_pads(vt: VirtualTable, mash: list[tuple[str, int, int]]) -> set[Coord]:
    """Play `mash` on the pads; returns every pad that was ever down."""
    held: list[Coord] = []
    pressed: set[Coord] = set()
    for move, index, ms in mash:
        coord = ALL_COORDS[index]
        if move in ("tap", "press"):
            vt.circuit.press_pad(coord)
            pressed.add(coord)
            if move == "press":
                held.append(coord)
            else:
                vt.wait(ms / 1000)
                vt.circuit.release_pad(coord)
        elif move == "release" and held:
            vt.circuit.release_pad(held.pop(index % len(held)))
        elif move == "clue" and vt.table.state.phase is Phase.CLUE:
            announce(vt, 9)
        vt.wait(ms / 1000)
    for coord in held:
        vt.circuit.release_pad(coord)
    vt.wait(0.5)
    return pressed


# A table and a folder of its own for each example; the fixtures only build them.
@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(mash=MASH)
def test_random_pad_mashing_keeps_the_game_consistent(
    tmp_path_factory: pytest.TempPathFactory,
    virtual_table: TableFactory,
    mash: list[tuple[str, int, int]],
) -> None:
    with virtual_table(tmp_path_factory.mktemp("mash")) as vt:
        announce(vt, 9)  # unlimited: red guesses until a wrong card
        pressed = mash_pads(vt, mash)
        game = vt.table.game
        touched = [a.coord for a in game.applied if isinstance(a, Touch | Cover)]
        assert set(touched) <= pressed  # no pad counted that nobody pressed
        assert_consistent(game, vt.store.latest_game())


# The service under abuse, in real time


class Heartbeats:
    """The watchdog's side: counts the loop's heartbeats and waits for a fresh one."""

    def __init__(self) -> None:
        self._beat = threading.Condition()
        self.count = 0

    def __call__(self) -> None:
        with self._beat:
            self.count += 1
            self._beat.notify_all()

    def fresh(self, timeout: float = BOUND_S) -> bool:
        """Wait for a heartbeat after now; False if none came within `timeout`."""
        with self._beat:
            seen = self.count
            return self._beat.wait_for(lambda: self.count > seen, timeout)


def _until(check: Callable[[], bool], what: str) -> None:
    """Wait until `check()` holds, looking every 10 ms; fails naming `what` after `BOUND_S`."""
    deadline = time.monotonic() + BOUND_S
    while not check():
        assert time.monotonic() < deadline, f"{what} never happened"
        time.sleep(0.01)


def _settled(vt: VirtualTable) -> None:
    """Wait until the switches are at rest and the loop has handled every event."""
    _until(lambda: not vt.console.switches_busy, "the switches coming to rest")
    assert vt.table.caught_up().wait(BOUND_S), "the loop never handled its events"


def test_the_service_keeps_its_watchdog_fed_through_storm_stuck_chatter_and_mashing(
    tmp_path: Path,
) -> None:
    rng = random.Random(99)
    # A pad is stuck after half a second here, so that real time need not run for ten.
    config = replace(STILL, inputs=InputConfig(stuck_after_s=0.5))
    bus = VirtualI2C(pace=time.sleep)  # 400 kHz, as on the Pi
    beats = Heartbeats()
    with (
        SystemClock() as clock,
        VirtualTable(
            config,
            tmp_path,
            rng=random.Random(5),
            clock=clock,
            first_key=KEY,
            threaded_display=True,
            bus=bus,
        ) as vt,
    ):
        vt.start_loop(beats, heartbeat_s=0.05)
        assert beats.fresh()
        bus.fail_fraction(0.1, random.Random(6))

        # The clue: unlimited.
        vt.encoder.turn(9)
        vt.encoder.press()
        # Held until the console has read it down, however late its debounce timer runs.
        _until(lambda: not vt.console.switches_busy, "the push read down")
        vt.encoder.release()
        _until(lambda: vt.table.state.phase is Phase.GUESS, "the clue's announcement")
        assert beats.fresh()

        # A chattering pad: a loose contact making and breaking every few milliseconds.
        chatter = Coord.parse("A1")
        for _ in range(40):
            vt.circuit.press_pad(chatter)
            time.sleep(rng.uniform(0.001, 0.01))
            vt.circuit.release_pad(chatter)
            time.sleep(rng.uniform(0.001, 0.01))
        assert beats.fresh()

        # A stuck pad, and pads mashed around it.
        stuck = Coord.parse("C2")
        vt.circuit.press_pad(stuck)
        time.sleep(0.7)
        for _ in range(60):
            coord = rng.choice([c for c in ALL_COORDS if c != stuck])
            if rng.random() < 0.5:
                vt.circuit.press_pad(coord)
            else:
                vt.circuit.release_pad(coord)
            time.sleep(rng.uniform(0.0, 0.04))
        assert beats.fresh()
        for coord in ALL_COORDS:
            vt.circuit.release_pad(coord)
        _settled(vt)
        assert beats.fresh()
        assert vt.loop_running
        assert bus.failed_writes > 0
        game = vt.table.game
    # The table is closed: its loop has stopped, its store written to the end. Real time may
    # stretch a bounce past the debounce time, so only the stuck pad's count is certain here.
    assert touches_of(game, stuck) <= 1
    with GameStore(tmp_path) as store:
        assert_consistent(game, store.latest_game())
