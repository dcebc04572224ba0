"""`make bench`: the table's latency, bus traffic, idle cost, start-up time and memory, measured.

Everything runs in this process on virtual hardware but in real time, as on the Pi: a
`SystemClock`, the game loop on its own thread, the threaded OLED worker, and the virtual I2C
bus paced like a real one at 400 kHz (each transfer sleeps for its bus time). Touches are real
games played on known keys: the bench reads each game's key, as a spymaster would, and plays
the longest legal game on it (23 touches), then holds NEW for the next one.

It prints one JSON object on standard output and the comparison with the budgets on standard
error, and exits 0 whatever the figures: it measures, the reader judges. The start-up time and
the memory are those of a separate process (`--startup-probe`), from its start to "ready".

The tests run the same functions in a tiny configuration and check only the shape of the
output: timing figures belong here, never in a test.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from board_rules.codenames import ALL_COORDS, Coord, GameState, Identity, Phase
from firmware.drivers.clock import SystemClock
from firmware.drivers.console import DEFAULT_HOLDS
from firmware.drivers.events import ConsoleButton
from firmware.drivers.led_strip import DATA_PIN, Ws281xStrip
from firmware.drivers.matrix import HELD_SCAN_MS, SWITCH_BOUNCE_MS
from firmware.drivers.oled import FULL_FRAME_BYTES
from firmware.table.config import TableConfig
from firmware.virtual.i2c import VirtualI2C
from firmware.virtual.matrix_circuit import SwitchMatrixCircuit, bounce_toggles, move_bouncing
from firmware.virtual.mpr121 import VirtualTouchPanel
from firmware.virtual.strip import VirtualPixelStrip
from firmware.virtual.table import ObservedPixelStrip, VirtualTable
from tools.systemd_unit import TABLE_UNIT, unit_values

BUS_HZ = 400_000
"""The OLED's I2C clock on the Pi (config.txt: dtparam=i2c_arm_baudrate=400000)."""
TOUCHES = 500
IDLE_S = 5.0
STARTUP_RUNS = 3
SEED = 6
TIMEOUT_S = 10.0
"""Bound on every wait for the table: a hung table stops the bench instead of hanging it."""
RETAP_AFTER_S = 1.0
"""How long a player waits for a card to light before touching it again (capacitive pads)."""
RETAP_PAUSE_S = 0.3
"""How long the finger is off the card between two touches."""
RETAPS = 3
GIVE_UPS = 20
"""Cards a player may leave unlit after every retap before the bench stops (capacitive pads):
on a machine so loaded that the table's reads keep stalling over the fingers' arrival, the
table refuses to guess (`firmware.drivers.touch_signal`); the player then lifts the finger and
touches the card again later, and the bench counts it (`unlit`)."""
POLL_S = 0.001
"""How often the driving thread looks; the figures come from timestamps, not from polling."""
SCAN_S = HELD_SCAN_MS / 1000
"""The matrix's scan period while a switch is held: a release is seen at most this late."""
SCAN_QUIET_S = SCAN_S
"""No pin read for a held switch's scan period, once the release's debounce time is over: the
scanner has gone back to waiting for an edge (it reads the columns when that time falls due)."""
PUSH_S = 0.06
"""How long the encoder is pushed to announce a clue: past its debounce, far from its hold."""
NEW_HOLD_MARGIN_S = 0.2
OLED_SHARE_BUDGET = 0.35
CPU_BUDGET_PERCENT = 1.0
STARTUP_BUDGET_S = 2.0
RSS_BUDGET_MB = 60.0
HELD_S = 3.0
HELD_SETTLE_S = 0.2
"""Past the debounce and the press's own event: the held figure is the steady scanning alone."""
TOUCH_CPU_BUDGET_MS = 1.5
HELD_CPU_BUDGET_PERCENT = 2.0
TOUCH_LED_MEDIAN_BUDGET_MS = 10.0
TOUCH_LED_P99_BUDGET_MS = 15.0
WEAR_GAMES = 40
"""Games played for the SD card's wear (`tools.bench_sd_wear`)."""
GLITCHES = 3000
"""Glitches in the glitch run (`tools.bench_glitches`): half while nobody touches, half during
play."""


class BenchError(RuntimeError):
    """The table did not do what the bench waited for: a hang, or a touch that changed nothing."""


# The game the bench plays


Move = Coord | Literal["clue", "new"]
"""A card to touch, a clue to announce (always 0: any number of guesses), or a new game."""


def next_move(state: GameState) -> Move:
    """The next move of the longest legal game: 23 touches out of 25 cards.

    Each team takes all of its agents but one (covering the last would win), then every turn
    ends on a bystander, and once those are gone the assassin ends the game. Clue 0 allows any
    number of guesses, so a turn lasts exactly as long as this plan wants.

    >>> from board_rules.codenames import Key
    >>> state = GameState.start(Key.parse("RRRRR/RRRRB/BBBBB/BBNNN/NNNNA"))
    >>> next_move(state)
    'clue'
    """
    if state.phase is Phase.OVER:
        return "new"
    if state.phase is not Phase.GUESS:
        return "clue"
    left = sorted(state.key.agents_of(state.turn) - state.covered)
    if len(left) > 1:
        return left[0]
    open_cards = [coord for coord in ALL_COORDS if coord not in state.covered]
    bystanders = [c for c in open_cards if state.key[c] is Identity.BYSTANDER]
    if bystanders:
        return bystanders[0]
    return next(c for c in open_cards if state.key[c] is Identity.ASSASSIN)


# Instruments at the lowest boundary: the strip's show() and the bus's transfers


class BusTimer:
    """The bus's `pace`: sleeps each transfer's bus time (when `paced`) and notes when it ended."""

    def __init__(self, *, paced: bool) -> None:
        self._paced = paced
        self.transfers = 0
        self.last_end = 0.0

    def __call__(self, seconds: float) -> None:
        if self._paced:
            time.sleep(seconds)
        self.last_end = time.perf_counter()
        self.transfers += 1


class TableCpu:
    """CPU time of the table's own threads (every thread but the bench's driving one), less the
    virtual hardware's work done on them: the matrix circuit's settle, the virtual I2C bus's
    transfers and the virtual strip's show, each timed with `time.thread_time` from the entry to
    the exit of the bench's wrapper around it.

    Read from outside through each thread's CPU clock (`pthread_getcpuclockid`): no code inside
    the table's threads. The edge callbacks that gpiozero's mock pins run on the thread that moves
    a switch (here the bench's) are not counted; on the Pi they run on lgpio's thread.
    """

    def __init__(self) -> None:
        self._driver = threading.get_ident()
        self._excluded_by: dict[str, float] = {}
        """CPU seconds of the excluded work, by the name of the thread it ran on."""
        self._lock = threading.Lock()
        self._depth = threading.local()

    def exclude(self, owner: object, name: str) -> None:
        """Time `owner.name` (a method of the virtual hardware) apart from the table's CPU."""
        method = getattr(owner, name, None)
        if method is None:
            return
        original: Callable[..., Any] = method

        def timed(*args: Any, **kwargs: Any) -> Any:
            # Timed from entry to exit: this wrapper's own work is the bench's, not the table's.
            began = time.thread_time()
            depth = getattr(self._depth, "value", 0)
            if depth or threading.get_ident() == self._driver:
                return original(*args, **kwargs)
            self._depth.value = 1
            try:
                return original(*args, **kwargs)
            finally:
                self._depth.value = 0
                name = threading.current_thread().name
                with self._lock:
                    spent = time.thread_time() - began
                    self._excluded_by[name] = self._excluded_by.get(name, 0.0) + spent

        setattr(owner, name, timed)

    def seconds(self) -> float:
        """The table's CPU seconds so far: its threads' CPU clocks less the excluded work."""
        return total_cpu(self.by_thread())

    def by_thread(self) -> dict[str, tuple[float, int]]:
        """By table thread's name: its CPU seconds so far, less the excluded work done on it,
        and how often it has slept and been woken (Linux's voluntary context switches)."""
        found: dict[str, tuple[float, int]] = {}
        for thread in threading.enumerate():
            if thread.ident is None or thread.ident == self._driver:
                continue
            with contextlib.suppress(OSError):  # the thread ended between the listing and the read
                cpu = time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
                woken = _wake_ups(thread)
                # Threads of one name (none, as the table names them) count as one.
                before = found.get(thread.name, (0.0, 0))
                found[thread.name] = (before[0] + cpu, before[1] + woken)
        with self._lock:
            return {
                name: (cpu - self._excluded_by.get(name, 0.0), woken)
                for name, (cpu, woken) in found.items()
            }


def total_cpu(threads: dict[str, tuple[float, int]]) -> float:
    """The CPU seconds of every thread of a `TableCpu.by_thread` reading."""
    return sum(cpu for cpu, _ in threads.values())


def _wake_ups(thread: threading.Thread) -> int:
    """How often `thread` has slept and been woken (`voluntary_ctxt_switches` in /proc)."""
    status = Path(f"/proc/self/task/{thread.native_id}/status").read_text()
    return int(status.split("voluntary_ctxt_switches:")[1].split()[0])


def _exclude_virtual_hardware(cpu: TableCpu, vt: VirtualTable, pixels: object) -> None:
    cpu.exclude(vt.circuit, "settle")
    for name in ("writeto", "readfrom_into", "writeto_then_readfrom"):
        cpu.exclude(vt.bus, name)
    cpu.exclude(pixels, "show")


@dataclass
class _LedLog:
    """Frames the strip showed: when, and the game state the loop had drawn."""

    frames: list[tuple[float, GameState]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    cpu: TableCpu = field(default_factory=TableCpu)
    """The table's CPU time (kept here, beside the frames, since both come with the table)."""

    def note(self, state: GameState) -> None:
        with self.lock:
            self.frames.append((time.perf_counter(), state))

    def covered_since(self, start: int, coord: Coord) -> float | None:
        """When the first frame from index `start` showed `coord` covered, if one did."""
        with self.lock:
            for at, state in self.frames[start:]:
                if coord in state.covered:
                    return at
        return None

    def __len__(self) -> int:
        with self.lock:
            return len(self.frames)


def bench_config(backend: str = "matrix") -> TableConfig:
    """The default table, without the burn-in shift: a full redraw every 3 minutes is not a
    game event, and it would land in whichever touch it met; its pads on `backend` (the switch
    matrix, or the capacitive pads: `[input] backend = "mpr121"`)."""
    config = TableConfig()
    return replace(
        config,
        oled=replace(config.oled, shift_every_s=0),
        inputs=replace(config.inputs, backend=backend),
    )


def input_reads(vt: VirtualTable) -> int:
    """What reading the pads has cost so far: pin levels read (matrix, encoder, push), plus the
    touch status reads of the capacitive pads' chips."""
    reads = vt.pin_reads
    if isinstance(vt.circuit, VirtualTouchPanel):
        reads += sum(chip.reads_of_status for chip in vt.circuit.chips)
    return reads


@contextmanager
def pi_like_table(
    state_dir: Path, *, paced: bool, seed: int = SEED, config: TableConfig | None = None
) -> Iterator[tuple[VirtualTable, BusTimer, _LedLog]]:
    """The table as on the Pi, on virtual hardware: real clock, loop and OLED worker threads."""
    config = config or bench_config()
    timer = BusTimer(paced=paced)
    bus = VirtualI2C(frequency=BUS_HZ, pace=timer)
    pixels = ObservedPixelStrip(config.led_layout.pixel_count, DATA_PIN)
    strip: Ws281xStrip[VirtualPixelStrip] = Ws281xStrip(pixels)
    leds = _LedLog()
    with (
        SystemClock() as clock,
        VirtualTable(
            config,
            state_dir,
            rng=random.Random(seed),
            clock=clock,
            threaded_display=True,
            bus=bus,
            strip=strip,
        ) as vt,
    ):
        pixels.on_show = lambda: leds.note(vt.table.state)
        _exclude_virtual_hardware(leds.cpu, vt, pixels)
        vt.start_loop()
        _display_worker_idle(vt)  # the start-up screen is not a game event
        yield vt, timer, leds


# Driving the table from outside, as hands would


def wait_until(condition: Callable[[], bool], what: str, timeout: float = TIMEOUT_S) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise BenchError(f"gave up waiting {timeout:g} s for {what}")
        time.sleep(POLL_S)


def _scanner_idle(vt: VirtualTable, released_at: float, quiet_s: float = SCAN_QUIET_S) -> None:
    """Wait until the scanner is back to waiting for an edge after the release at
    `released_at` (`time.monotonic`), so that the next press is timed from a table at rest, not
    from one still debouncing the last release: no pin read for `quiet_s`, then the scanner's
    own word that it rests."""
    debounce_s = vt.config.inputs.release_debounce_ms / 1000
    time.sleep(max(released_at + SCAN_S + debounce_s - time.monotonic(), 0.0))
    deadline = time.monotonic() + TIMEOUT_S
    reads, since = input_reads(vt), time.monotonic()
    while time.monotonic() - since < quiet_s:
        if time.monotonic() > deadline:
            raise BenchError("the scanner never went idle")
        time.sleep(POLL_S)
        now_reads = input_reads(vt)
        if now_reads != reads:
            reads, since = now_reads, time.monotonic()
    # Quiet pins may be a starved scanner on a loaded machine: the scanner says when it rests.
    wait_until(lambda: not vt.console.switches_busy, "the scanner to rest")


def _display_worker_idle(vt: VirtualTable) -> None:
    wait_idle = getattr(vt.display, "wait_idle", None)
    if wait_idle is not None and not wait_idle(TIMEOUT_S):
        raise BenchError("the OLED worker never finished its screen")


@dataclass(frozen=True)
class TouchSample:
    """One touch: milliseconds from the switch closing to the LED frame and to the last byte of
    its OLED screen."""

    led_ms: float
    oled_ms: float


PUSH_TRIES = 3
PUSH_ANSWER_S = 1.0


def _push_until(vt: VirtualTable, done: Callable[[], bool], what: str) -> None:
    """Push the encoder until `done`: on a loaded machine the clock's thread can be kept from
    reading the push until it is let go, and a push it never read is pushed again."""
    for attempt in range(PUSH_TRIES):
        vt.encoder.press()
        time.sleep(PUSH_S)
        vt.encoder.release()
        try:
            wait_until(done, what, PUSH_ANSWER_S if attempt < PUSH_TRIES - 1 else TIMEOUT_S)
        except BenchError:
            if attempt == PUSH_TRIES - 1:
                raise
        else:
            return


class _Schedule:
    """A `wait` that sleeps until each planned moment from `began`, so that a late wake-up
    (a loaded machine) does not push every later toggle of a bounce back as well."""

    def __init__(self, began: float) -> None:
        self._began = began
        self._planned = 0.0

    def __call__(self, seconds: float) -> None:
        self._planned += seconds
        time.sleep(max(self._began + self._planned - time.perf_counter(), 0.0))


class Player:
    """Plays the bench's games on a running Pi-like table and keeps what it measured.

    Every move is one game event and changes the screen: a touch (its notice or the next turn),
    a clue (dialled and announced in one go, since a notice may hide the dial), a new game.
    """

    scan_quiet_s: float = SCAN_QUIET_S
    """How long no pin may be read before the scanner counts as at rest after a release."""

    def __init__(self, vt: VirtualTable, bus: BusTimer, leds: _LedLog) -> None:
        self._vt = vt
        self._bus = bus
        self._leds = leds
        self.touches: list[TouchSample] = []
        self.touch_cpu_s = 0.0
        """Table CPU seconds from each press to the scanner's rest after its release."""
        self.touch_threads: dict[str, list[float]] = {}
        """`touch_cpu_s` by table thread: its CPU seconds and its wake-ups, summed over the
        touches."""
        self.event_bytes: list[int] = []
        """OLED bytes sent for each game event."""
        self.bounce = random.Random(SEED)
        """Draws each contact's bounce (the switch matrix's pads bounce as the part does)."""
        self.retaps = 0
        """Cards touched again because the first touch did not light them (capacitive pads)."""
        self.unlit = 0
        """Touches given up after every retap (capacitive pads): see `GIVE_UPS`."""
        self.press_bounce_ms: list[float] = []
        """How long each press's bounce took here: drawn within 5 ms, stretched by late sleeps."""

    def play(self, touches: int) -> None:
        """Play until `touches` touches were measured, starting new games as needed."""
        while len(self.touches) < touches:
            self.step()

    def step(self) -> None:
        """Make the next move of `next_move`."""
        move = next_move(self._vt.table.state)
        if move == "clue":
            self._announce_clue()
        elif move == "new":
            self._new_game()
        else:
            self._touch(move)

    def _shown(self, screen: object, sent: int, what: str) -> None:
        """Wait until the screen of an event is on the OLED; note the bytes it took."""
        vt = self._vt
        wait_until(lambda: vt.display.screen != screen, f"the screen of {what}")
        _display_worker_idle(vt)
        self.event_bytes.append(vt.bus.bytes_written - sent)

    def _touch(self, coord: Coord) -> None:
        vt = self._vt
        screen, sent = vt.display.screen, vt.bus.bytes_written
        frames, transfers = len(self._leds), self._bus.transfers
        threads = self._leds.cpu.by_thread()
        closed_at = time.perf_counter()
        self._move_pad(coord, closed=True)
        try:
            self._wait_lit(coord, frames)
        except BenchError:
            if not isinstance(vt.circuit, VirtualTouchPanel) or self.unlit >= GIVE_UPS:
                raise
            self._move_pad(coord, closed=False)
            self.unlit += 1
            wait_until(lambda: not vt.console.switches_busy, "the pads to rest")
            return
        led_at = self._leds.covered_since(frames, coord)
        assert led_at is not None  # just waited for it
        self._move_pad(coord, closed=False)
        released_at = time.monotonic()
        # The loop hands the screen over right after the LED frame; then the worker draws it.
        self._shown(screen, sent, f"touching {coord}")
        if self._bus.transfers == transfers:
            raise BenchError(f"touching {coord} sent nothing to the OLED")
        oled_at = self._bus.last_end
        self.touches.append(TouchSample((led_at - closed_at) * 1000, (oled_at - closed_at) * 1000))
        _scanner_idle(vt, released_at, self.scan_quiet_s)
        after = self._leds.cpu.by_thread()
        self.touch_cpu_s += total_cpu(after) - total_cpu(threads)
        for name, (spent, woken) in after.items():
            if name in threads:
                total = self.touch_threads.setdefault(name, [0.0, 0.0])
                total[0] += spent - threads[name][0]
                total[1] += woken - threads[name][1]

    def _wait_lit(self, coord: Coord, frames: int) -> None:
        """Wait for the LED frame that shows `coord` covered, after frame `frames`. On the
        capacitive pads a card that does not light is touched again, as a player would: a table
        whose reads stalled over a finger's arrival does not guess on what it did not see
        (`firmware.drivers.touch_signal`). A switch's press is never lost: no second try."""
        taps = RETAPS + 1 if isinstance(self._vt.circuit, VirtualTouchPanel) else 1
        for tap in range(taps):
            last = tap == taps - 1
            try:
                wait_until(
                    lambda: self._leds.covered_since(frames, coord) is not None,
                    f"{coord} lit",
                    timeout=TIMEOUT_S if last else RETAP_AFTER_S,
                )
                return
            except BenchError:
                if last:
                    raise
            self._move_pad(coord, closed=False)
            time.sleep(RETAP_PAUSE_S)
            self.retaps += 1
            self._move_pad(coord, closed=True)

    def _move_pad(self, coord: Coord, *, closed: bool) -> None:
        """Close or open a pad; a matrix pad's contact bounces as the part's does."""
        circuit = self._vt.circuit
        if isinstance(circuit, SwitchMatrixCircuit):
            toggles = bounce_toggles(self.bounce)
            began = time.perf_counter()
            move_bouncing(circuit, coord, closed=closed, toggles=toggles, wait=_Schedule(began))
            if closed:
                self.press_bounce_ms.append((time.perf_counter() - began) * 1000)
        elif closed:
            circuit.press_pad(coord)
        else:
            circuit.release_pad(coord)

    def hold(self, seconds: float) -> float:
        """Hold a covered card's pad (nothing to do but scan) and return the table's CPU share of
        one core while it is held, after the press's own event."""
        vt = self._vt
        covered = sorted(vt.table.state.covered)
        coord = covered[0] if covered else ALL_COORDS[0]
        vt.circuit.press_pad(coord)
        time.sleep(vt.config.inputs.release_debounce_ms / 1000 + HELD_SETTLE_S)
        cpu, wall = self._leds.cpu.seconds(), time.perf_counter()
        time.sleep(seconds)
        share = (self._leds.cpu.seconds() - cpu) / (time.perf_counter() - wall)
        vt.circuit.release_pad(coord)
        _scanner_idle(vt, time.monotonic(), self.scan_quiet_s)
        return 100 * share

    def _announce_clue(self) -> None:
        vt = self._vt
        screen, sent = vt.display.screen, vt.bus.bytes_written
        vt.encoder.turn(-1)  # the selector starts at 1 in every clue phase: now 0
        _push_until(vt, lambda: vt.table.state.phase is Phase.GUESS, "the clue to be announced")
        self._shown(screen, sent, "a clue")

    def _new_game(self) -> None:
        vt = self._vt
        game, screen, sent = vt.table.game, vt.display.screen, vt.bus.bytes_written
        hold = DEFAULT_HOLDS[ConsoleButton.NEW] + NEW_HOLD_MARGIN_S
        # On the capacitive pads a hold the table did not see (its reads stalled over the
        # finger's arrival) is held again, as a player would; a switch's press is never lost.
        holds = RETAPS + 1 if isinstance(vt.circuit, VirtualTouchPanel) else 1
        for attempt in range(holds):
            last = attempt == holds - 1
            vt.circuit.press_button(ConsoleButton.NEW)
            try:
                wait_until(
                    lambda: vt.table.game is not game,
                    "a new game",
                    TIMEOUT_S + hold if last else RETAP_AFTER_S + hold,
                )
            except BenchError:
                if last:
                    raise
                vt.circuit.release_button(ConsoleButton.NEW)
                time.sleep(RETAP_PAUSE_S)
                self.retaps += 1
                continue
            break
        vt.circuit.release_button(ConsoleButton.NEW)
        released_at = time.monotonic()
        self._shown(screen, sent, "a new game")
        _scanner_idle(vt, released_at, self.scan_quiet_s)


# Figures


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with `share` of them at or below it.

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.99)
    5.0
    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.5)
    3.0
    """
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    return ordered[max(math.ceil(share * len(ordered)) - 1, 0)]


def spread(values: Sequence[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(values), 2),
        "p99": round(percentile(values, 0.99), 2),
    }


def measure_play(
    state_dir: Path,
    *,
    touches: int = TOUCHES,
    paced: bool = True,
    idle_s: float = IDLE_S,
    backend: str = "matrix",
    held_s: float = HELD_S,
) -> dict[str, Any]:
    """Touch latency, OLED traffic and the table's CPU over `touches` touches of real games, its
    CPU while a pad is held `held_s` seconds, then the idle cost over `idle_s` seconds without
    input (pin reads, and the touch chips' status reads)."""
    config = bench_config(backend)
    with pi_like_table(state_dir, paced=paced, config=config) as (vt, bus, leds):
        player = Player(vt, bus, leds)
        player.play(touches)
        held_percent = player.hold(held_s)
        time.sleep(min(idle_s, 0.5))  # the last screen has gone out; now nobody touches
        reads, cpu, wall = input_reads(vt), time.process_time(), time.perf_counter()
        time.sleep(idle_s)
        idle_reads = input_reads(vt) - reads
        idle_cpu = time.process_time() - cpu
        idle_wall = time.perf_counter() - wall
    events = player.event_bytes
    return {
        "touch_to_led_ms": spread([s.led_ms for s in player.touches]),
        "touch_to_oled_ms": spread([s.oled_ms for s in player.touches]),
        "oled_bytes_per_event": {
            "sent": round(sum(events) / len(events), 1),
            # Every event changed the screen, and Adafruit's show() sends all of it each time.
            "full_frame": float(FULL_FRAME_BYTES),
        },
        "idle_pin_reads_per_s": round(idle_reads / idle_wall, 3),
        "idle_cpu_percent": round(100 * idle_cpu / idle_wall, 3),
        "cpu_ms_per_touch": round(1000 * player.touch_cpu_s / len(player.touches), 3),
        "cpu_ms_per_touch_by_thread": {
            name: round(1000 * spent / len(player.touches), 3)
            for name, (spent, _) in sorted(player.touch_threads.items())
        },
        "wake_ups_per_touch_by_thread": {
            name: round(woken / len(player.touches), 2)
            for name, (_, woken) in sorted(player.touch_threads.items())
        },
        "held_cpu_percent": round(held_percent, 3),
        "retaps": player.retaps,
        "unlit": player.unlit,
        **({"press_bounce_ms": spread(player.press_bounce_ms)} if player.press_bounce_ms else {}),
        "samples": {"touches": len(player.touches), "oled_events": len(events)},
    }


MEASURES = 2
"""Plays measured per bench: each figure is the worse, so that a loaded machine shows."""


def worst_of(runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One set of figures from several runs of `measure_play`: each the worst of the runs (a
    spread's median and p99 each the worst), the samples added up.

    >>> worst_of([{"a": 1.0, "s": {"median": 2.0, "p99": 9.0}, "samples": {"touches": 3}},
    ...           {"a": 4.0, "s": {"median": 3.0, "p99": 5.0}, "samples": {"touches": 3}}])
    {'a': 4.0, 's': {'median': 3.0, 'p99': 9.0}, 'samples': {'touches': 6}}
    """
    if not runs:
        raise ValueError("no runs")
    worst: dict[str, Any] = {}
    for name, first in runs[0].items():
        values = [run[name] for run in runs]
        if name == "samples":
            worst[name] = {key: sum(value[key] for value in values) for key in first}
        elif name in ("retaps", "unlit"):
            worst[name] = sum(values)
        elif name == "oled_bytes_per_event":
            worst[name] = max(values, key=lambda traffic: traffic["sent"])
        elif isinstance(first, dict):
            # Key by key; a key missing from any run (a thread that had ended) is left out.
            worst[name] = {
                key: max(value[key] for value in values)
                for key in first
                if all(key in value for value in values)
            }
        else:
            worst[name] = max(values)
    return worst


def judge_glitches(figures: dict[str, Any]) -> None:
    """Add the glitch run's budget: no false guess at all."""
    figures["budgets"]["false_guesses"] = 0
    figures["within_budget"]["false_guesses"] = (
        figures["false_guesses"] == 0 and not figures["glitch_run"]["idle_state_changed"]
    )


def judge_wear(figures: dict[str, Any], wear: dict[str, Any]) -> None:
    """Add the SD card's wear (`tools.bench_sd_wear`) and its goal: years of a 16 GB card."""
    figures["sd_wear"] = wear
    figures["budgets"]["card_years"] = wear["card_years_goal"]
    figures["within_budget"]["card_years"] = wear["card_years_met"]


def startup_probe(state_dir: Path, *, paced: bool, backend: str = "matrix") -> int:
    """The child of `measure_startup`: start a table, say "ready", play a little, report memory.

    Ready is what the service reports to systemd: hardware up, last game resumed, loop running.
    """
    with pi_like_table(state_dir, paced=paced, config=bench_config(backend)) as (vt, bus, leds):
        print("ready", flush=True)
        player = Player(vt, bus, leds)
        player.play(3)  # a table in use, not one that has only started
    print(f"peak_rss_kib {peak_rss_kib()}", flush=True)
    return 0


def peak_rss_kib() -> int:
    """This process's peak resident memory in KiB.

    From /proc (VmHWM): `getrusage`'s maxrss would also count the parent's memory, which Linux
    carries over the fork and exec that started this process.
    """
    try:
        for line in Path("/proc/self/status").read_text("ascii").splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def measure_startup(
    runs: int = STARTUP_RUNS, *, paced: bool = True, backend: str = "matrix"
) -> dict[str, float]:
    """Median time from process start to ready over `runs` starts, and the largest peak memory.

    The runs share a state directory, so all but the first resume a saved game, as a table
    switched on in the café does.
    """
    if runs < 1:
        raise ValueError("at least one run")
    starts: list[float] = []
    peaks: list[int] = []
    command = [sys.executable, "-m", "tools.bench", "--backend", backend, "--startup-probe"]
    with tempfile.TemporaryDirectory(prefix="codenames-bench-") as state:
        for _ in range(runs):
            began = time.perf_counter()
            with subprocess.Popen(
                [*command, state, *([] if paced else ["--unpaced"])],
                stdout=subprocess.PIPE,
                text=True,
            ) as child:
                assert child.stdout is not None  # asked for a pipe
                line = child.stdout.readline()
                ready = time.perf_counter() - began
                rest, _ = child.communicate(timeout=60)
            if line.strip() != "ready" or child.returncode != 0:
                raise BenchError(f"the start-up probe failed (exit {child.returncode}): {line!r}")
            starts.append(ready)
            peaks.extend(
                int(w.split()[1]) for w in rest.splitlines() if w.startswith("peak_rss_kib")
            )
    if len(peaks) != runs:
        raise BenchError("the start-up probe did not report its memory")
    return {
        "startup_s": round(statistics.median(starts), 3),
        "rss_mb": round(max(peaks) / 1024, 1),
    }


def budgets(figures: dict[str, Any], debounce_ms: float) -> dict[str, Any]:
    """The budgets of the table and, for each, whether the figures keep within it."""
    limits: dict[str, float] = {
        "touch_to_led_ms_median": TOUCH_LED_MEDIAN_BUDGET_MS,
        "touch_to_led_ms_p99": TOUCH_LED_P99_BUDGET_MS,
        "touch_to_oled_ms_median": debounce_ms + 30,
        "oled_bytes_share": OLED_SHARE_BUDGET,
        "idle_pin_reads_per_s": 0,
        "idle_cpu_percent": CPU_BUDGET_PERCENT,
        "cpu_ms_per_touch": TOUCH_CPU_BUDGET_MS,
        "held_cpu_percent": HELD_CPU_BUDGET_PERCENT,
        "startup_s": STARTUP_BUDGET_S,
        "rss_mb": RSS_BUDGET_MB,
    }
    traffic = figures["oled_bytes_per_event"]
    share = traffic["sent"] / traffic["full_frame"] if traffic["full_frame"] else math.inf
    within = {
        "touch_to_led_ms_median": figures["touch_to_led_ms"]["median"]
        <= limits["touch_to_led_ms_median"],
        "touch_to_led_ms_p99": figures["touch_to_led_ms"]["p99"] <= limits["touch_to_led_ms_p99"],
        "touch_to_oled_ms_median": figures["touch_to_oled_ms"]["median"]
        <= limits["touch_to_oled_ms_median"],
        "oled_bytes_share": share <= limits["oled_bytes_share"],
        "idle_pin_reads_per_s": figures["idle_pin_reads_per_s"] == 0,
        "idle_cpu_percent": figures["idle_cpu_percent"] < limits["idle_cpu_percent"],
        "cpu_ms_per_touch": figures["cpu_ms_per_touch"] <= limits["cpu_ms_per_touch"],
        "held_cpu_percent": figures["held_cpu_percent"] <= limits["held_cpu_percent"],
        "startup_s": figures["startup_s"] < limits["startup_s"],
        "rss_mb": figures["rss_mb"] < limits["rss_mb"],
    }
    return {"budgets": limits, "within_budget": within, "oled_bytes_share": round(share, 3)}


def run_bench(
    *,
    touches: int = TOUCHES,
    paced: bool = True,
    idle_s: float = IDLE_S,
    startup_runs: int = STARTUP_RUNS,
    backend: str = "matrix",
    held_s: float = HELD_S,
    glitches: int = GLITCHES,
    wear_games: int = WEAR_GAMES,
) -> dict[str, Any]:
    """Every figure of `make bench`, with the budgets: the play measured `MEASURES` times, each
    figure the worst of them, and on the switch matrix the glitch run."""
    runs = []
    for _ in range(MEASURES):
        with tempfile.TemporaryDirectory(prefix="codenames-bench-") as state:
            runs.append(
                measure_play(
                    Path(state),
                    touches=touches,
                    paced=paced,
                    idle_s=idle_s,
                    backend=backend,
                    held_s=held_s,
                )
            )
    figures = worst_of(runs)
    figures.update(measure_startup(startup_runs, paced=paced, backend=backend))
    inputs = bench_config().inputs
    figures.update(budgets(figures, inputs.press_confirm_ms + SWITCH_BOUNCE_MS))
    if backend == "matrix" and glitches:
        # Run as a child, since tools.bench_glitches imports this module.
        run = [sys.executable, "-m", "tools.bench_glitches", "--glitches", str(glitches)]
        run += [] if paced else ["--unpaced"]
        child = subprocess.run(run, stdout=subprocess.PIPE, text=True, check=True)
        figures.update(json.loads(child.stdout))
        judge_glitches(figures)
    if wear_games:
        # In a child too: its I/O counters must count the store's writes and nothing else.
        run = [sys.executable, "-m", "tools.bench_sd_wear", "--games", str(wear_games)]
        child = subprocess.run(run, stdout=subprocess.PIPE, text=True, check=True)
        judge_wear(figures, json.loads(child.stdout))
    if backend == "matrix":
        # The capacitive pads beside the matrix (tools/bench_touch_pads.py), run as a child
        # since it imports this module.
        pads = [sys.executable, "-m", "tools.bench_touch_pads", "--touches", str(touches)]
        pads += [] if paced else ["--unpaced"]
        child = subprocess.run(
            pads, input=json.dumps(figures), stdout=subprocess.PIPE, text=True, check=False
        )
        if child.returncode == 0:
            figures.update(json.loads(child.stdout))
        else:
            # Its traceback is on standard error; the switch matrix's figures still count.
            figures["mpr121_run"] = f"failed (exit {child.returncode})"
    # Touch → LED with a fleet's broker down and slow, added by
    # tools/bench_broker_faults.py, run as a child since it imports this module.
    options = ["--touches", str(touches), "--backend", backend, *([] if paced else ["--unpaced"])]
    fleet = [sys.executable, "-m", "tools.bench_broker_faults", *options]
    child = subprocess.run(
        fleet, input=json.dumps(figures), stdout=subprocess.PIPE, text=True, check=True
    )
    figures.update(json.loads(child.stdout))
    figures["backend"] = backend
    return figures


def comparison(figures: dict[str, Any]) -> str:
    """The budget table for a human reader."""
    measured = {
        "touch_to_led_ms_median": figures["touch_to_led_ms"]["median"],
        "touch_to_led_ms_p99": figures["touch_to_led_ms"]["p99"],
        "touch_to_oled_ms_median": figures["touch_to_oled_ms"]["median"],
        "oled_bytes_share": figures["oled_bytes_share"],
        "idle_pin_reads_per_s": figures["idle_pin_reads_per_s"],
        "idle_cpu_percent": figures["idle_cpu_percent"],
        "cpu_ms_per_touch": figures["cpu_ms_per_touch"],
        "held_cpu_percent": figures["held_cpu_percent"],
        "startup_s": figures["startup_s"],
        "rss_mb": figures["rss_mb"],
    }
    if "touch_to_led_ms_mpr121" in figures:
        measured["touch_to_led_ms_mpr121_median"] = figures["touch_to_led_ms_mpr121"]["median"]
    if "false_guesses" in figures:
        measured["false_guesses"] = figures["false_guesses"]
    if "sd_wear" in figures:
        # The goal is a minimum: the line reads "at least".
        measured["card_years"] = figures["sd_wear"]["card_years"]["high_endurance"]
    if "false_guesses_mpr121" in figures:
        measured["false_guesses_mpr121"] = figures["false_guesses_mpr121"]
    fleet = [name for name in figures["budgets"] if name.startswith("touch_to_led_ms_broker_")]
    measured |= {name: figures[name.removesuffix("_median")]["median"] for name in fleet}
    lines = []
    for name, value in measured.items():
        verdict = "ok" if figures["within_budget"][name] else "OVER BUDGET"
        lines.append(f"{name:<26}{value:>10}  budget {figures['budgets'][name]:<6}  {verdict}")
    if "mpr121_run" in figures:
        lines.append(f"{'mpr121_run':<26}{figures['mpr121_run']}")
    return "\n".join(lines)


def service_nice(unit: Path = TABLE_UNIT) -> int:
    """The nice value `unit` runs the table at (its last `Nice=`; 0 when it sets none)."""
    nice = unit_values(unit, "Service", "Nice")
    return int(nice[-1]) if nice else 0


def take_service_priority() -> None:
    """Run this process at the service's priority, as systemd runs the table on the Pi (the
    threads and children it starts afterwards inherit it). Raising a priority needs root
    (CAP_SYS_NICE): otherwise the bench says so and measures at the priority it was started
    with."""
    wanted = service_nice()
    try:
        os.setpriority(os.PRIO_PROCESS, 0, wanted)
    except PermissionError:
        current = os.getpriority(os.PRIO_PROCESS, 0)
        print(
            f"bench: the service's priority (Nice={wanted}) needs root; "
            f"measuring at nice {current}",
            file=sys.stderr,
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench",
        description="Measure the table on virtual hardware in real time; print one JSON object.",
    )
    parser.add_argument("--touches", type=int, default=TOUCHES, help="touches to time")
    parser.add_argument("--idle", type=float, default=IDLE_S, help="seconds of idle to measure")
    parser.add_argument("--held", type=float, default=HELD_S, help="seconds to hold a pad")
    parser.add_argument("--startup-runs", type=int, default=STARTUP_RUNS)
    parser.add_argument(
        "--glitches", type=int, default=GLITCHES, help="glitches on the matrix's columns (0: none)"
    )
    parser.add_argument(
        "--wear-games",
        type=int,
        default=WEAR_GAMES,
        help="games played to measure the SD card's wear (0: none, else 2 or more)",
    )
    parser.add_argument("--unpaced", action="store_true", help="no bus pacing (quick checks)")
    parser.add_argument(
        "--backend",
        choices=("matrix", "mpr121"),
        default="matrix",
        help="the pads: the switch matrix, or the capacitive pads on three MPR121s",
    )
    parser.add_argument("--startup-probe", type=Path, metavar="STATE_DIR", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.startup_probe is not None:
        return startup_probe(args.startup_probe, paced=not args.unpaced, backend=args.backend)
    if args.touches < 1 or args.idle <= 0 or args.held <= 0 or args.startup_runs < 1:
        parser.error(
            "--touches and --startup-runs must be 1 or more, --idle and --held more than 0"
        )
    if args.wear_games == 1 or args.wear_games < 0:
        parser.error("--wear-games must be 0 or 2 or more")
    figures = run_bench(
        touches=args.touches,
        paced=not args.unpaced,
        idle_s=args.idle,
        startup_runs=args.startup_runs,
        backend=args.backend,
        held_s=args.held,
        glitches=max(args.glitches, 0),
        wear_games=args.wear_games,
    )
    # The priority it ran at: the service's when run as `make bench` by root.
    figures["nice"] = os.getpriority(os.PRIO_PROCESS, 0)
    print(json.dumps(figures, indent=2))
    print(comparison(figures), file=sys.stderr)
    return 0


if __name__ == "__main__":
    take_service_priority()
    sys.exit(main())
