"""Headless scripts: the whole table on virtual hardware and a virtual clock, driven by text.

    key RRRRR/RRRRB/BBBBB/BBNNN/NNNNA   # optional, before the first step: the first game's key
    mode coop           # optional, before the first step: the first game's mode (or standard)
    press C3            # press card pad C3, release after 0.1 s (or: press C3 2.5)
    button done         # done | penalty | undo | new | timer, optional hold seconds
    turn +3             # encoder detents, + or -
    push                # encoder push, optional hold seconds
    wait 2.5            # virtual time passes
    power-cut           # the table dies without shutting down and starts again
    dump                # print one JSON line: game, leds, strip, oled, words

`key` and `mode` are read as a transcript reads them (`board_rules.codenames.transcript`); games
after the first draw their own key and take the menu's mode. The words of a dump are the cards'
words of the game in play, dealt as the desktop simulation deals them (`firmware.table.words`).

A script of minutes runs in well under a second and prints the same every time. A line that
cannot be read raises `ScriptError` with its number before anything runs. Lines end at `\n`,
`\r\n` or `\r` only. Every amount is bounded, and so is the whole script (`MAX_STEPS` steps,
`MAX_SCRIPT_S` of virtual time), so that no script can keep a run going for long.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from board_rules.codenames import ALL_COORDS, Coord, InvalidCoordError, Key, Mode
from board_rules.codenames.transcript import parse_mode
from board_rules.text import LineError, content_lines
from firmware.drivers.clock import VirtualClock
from firmware.drivers.events import ConsoleButton
from firmware.drivers.led_layout import Side
from firmware.errors import FirmwareError
from firmware.table.config import TableConfig
from firmware.table.words import GameWords, WordSource
from firmware.virtual.table import PRESS_S, VirtualTable

VERBS = ("key", "mode", "press", "button", "turn", "push", "wait", "power-cut", "dump")
MAX_HOLD_S = 600.0
"""Longest press a line may ask for."""
MAX_WAIT_S = 3_600.0
"""Longest wait a line may ask for (an hour of virtual time, about a second of real time)."""
MAX_SCRIPT_S = 6 * 3_600.0
"""Most virtual time a whole script may ask for, its waits and holds together."""
MAX_DETENTS = 1_000
"""Most encoder detents one `turn` line may ask for, either way."""
MAX_STEPS = 10_000
"""Most steps (lines other than the key, comments and blanks) in a script."""
_DETENTS = re.compile(r"[+-][0-9]+", re.ASCII)
_TIMED = ("press", "button", "push", "wait")


class ScriptError(FirmwareError, LineError):
    """A script line that cannot be read, or cannot be played where it is played: `line` names it
    (from 1), `message` says why."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(line, message)


class PictureError(FirmwareError, RuntimeError):
    """An OLED picture asked for by `oled_png_dir` could not be written (the folder went away,
    the disk filled up); the message is one line."""


@dataclass(frozen=True)
class Step:
    """One line of a script: what to do, and where it stands."""

    line: int
    verb: str
    argument: Any = None
    seconds: float = PRESS_S


def _seconds(text: str, what: str, limit: float = MAX_HOLD_S) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{what} must be a number of seconds") from None
    if not 0 <= value <= limit:
        raise ValueError(f"{what} must be from 0 to {limit:g} seconds")
    return value


def _optional_hold(args: list[str]) -> float:
    if len(args) > 1:
        raise ValueError("takes at most one hold time")
    return _seconds(args[0], "a hold") if args else PRESS_S


def _parse_step(number: int, verb: str, args: list[str]) -> Step:
    if verb == "press":
        if not args:
            raise ValueError("press takes a card, as in: press C3")
        try:
            coord = Coord.parse(args[0])
        except InvalidCoordError as error:
            raise ValueError(str(error)) from None
        return Step(number, verb, coord, _optional_hold(args[1:]))
    if verb == "button":
        names = ", ".join(button.value for button in ConsoleButton)
        if not args or args[0].lower() not in {b.value for b in ConsoleButton}:
            raise ValueError(f"button takes one of {names}")
        return Step(number, verb, ConsoleButton(args[0].lower()), _optional_hold(args[1:]))
    if verb == "turn":
        if len(args) != 1 or not _DETENTS.fullmatch(args[0]):
            raise ValueError("turn takes signed detents, as in: turn +3 or turn -1")
        digits = args[0][1:].lstrip("0")
        if len(digits) > len(str(MAX_DETENTS)) or int(digits or "0") > MAX_DETENTS:
            raise ValueError(f"turn takes at most {MAX_DETENTS} detents either way")
        return Step(number, verb, int(args[0]))
    if verb == "push":
        return Step(number, verb, None, _optional_hold(args))
    if verb == "wait":
        if len(args) != 1:
            raise ValueError("wait takes seconds, as in: wait 2.5")
        return Step(number, verb, None, _seconds(args[0], "a wait", MAX_WAIT_S))
    if verb in ("power-cut", "dump"):
        if args:
            raise ValueError(f"{verb} takes no argument")
        return Step(number, verb)
    # What the line holds is not quoted: a file read by mistake must not be shown (under sudo).
    raise ValueError("unknown command: expected press, button, turn, push, wait, power-cut or dump")


@dataclass(frozen=True)
class Script:
    """A parsed script: the first game's key and mode if it names them, and the steps."""

    key: Key | None = None
    mode: Mode | None = None
    steps: list[Step] = field(default_factory=list)


def parse_script(text: str) -> Script:
    """Read a whole script; the first bad line raises `ScriptError`."""
    key: Key | None = None
    mode: Mode | None = None
    steps: list[Step] = []
    total_s = 0.0
    for number, content in content_lines(text):
        words = content.split()
        verb, args = words[0].lower(), words[1:]
        try:
            if verb in ("key", "mode") and steps:
                raise ValueError(f"{verb} must come before the first step")
            if verb == "key":
                if key is not None:
                    raise ValueError("the key is given twice")
                key = Key.parse(" ".join(args))
            elif verb == "mode":
                if mode is not None:
                    raise ValueError("the mode is given twice")
                mode = parse_mode(" ".join(args))
            else:
                step = _parse_step(number, verb, args)
                total_s += step.seconds if verb in _TIMED else 0.0
                if total_s > MAX_SCRIPT_S:
                    raise ValueError(
                        f"the script asks for more than {MAX_SCRIPT_S / 3600:g} hours of "
                        "virtual time in all"
                    )
                if len(steps) == MAX_STEPS:
                    raise ValueError(f"a script has at most {MAX_STEPS} steps")
                steps.append(step)
        except ValueError as error:  # `Key.parse`'s InvalidKeyError is one
            raise ScriptError(number, str(error)) from error
    return Script(key, mode, steps)


@dataclass
class _Rejected:
    line: int
    action: str
    reason: str
    key: str


class ScriptRunner:
    """Plays steps on a virtual table, writing each dump as one JSON line to `out`."""

    def __init__(
        self,
        config: TableConfig,
        state_dir: Path,
        *,
        seed: int | None,
        out: TextIO,
        oled_png_dir: Path | None = None,
        first_key: Key | None = None,
        first_mode: Mode | None = None,
        language: str | None = None,
        words: WordSource | None = None,
    ) -> None:
        self._config = config
        self._language = language
        self._state_dir = state_dir
        self._rng = random.Random(seed)
        self._out = out
        self._png_dir = oled_png_dir
        self._dumps = 0
        self._rejected: list[_Rejected] = []
        self._words = GameWords(words or WordSource(), state_dir)
        self.table = self._boot(VirtualClock(), first_key, first_mode)

    def _boot(
        self, clock: VirtualClock, first_key: Key | None = None, first_mode: Mode | None = None
    ) -> VirtualTable:
        return VirtualTable(
            self._config,
            self._state_dir,
            rng=self._rng,
            clock=clock,
            first_key=first_key,
            first_mode=first_mode,
            language=self._language,
        )

    def run(self, steps: list[Step]) -> None:
        """Play every step in order."""
        for step in steps:
            seen = len(self.table.table.rejections)
            self._play(step)
            for rejection in self.table.table.rejections[seen:]:
                key = str(self.table.table.state.key)
                self._rejected.append(
                    _Rejected(step.line, str(rejection.action), rejection.reason.value, key)
                )

    def _play(self, step: Step) -> None:
        table = self.table
        if step.verb == "press":
            table.press_pad(step.argument, step.seconds)
        elif step.verb == "button":
            table.press_button(step.argument, step.seconds)
        elif step.verb == "turn":
            table.turn(step.argument)
        elif step.verb == "push":
            table.push(step.seconds)
        elif step.verb == "wait":
            table.wait(step.seconds)
        elif step.verb == "power-cut":
            # No close(): the devices simply stop. Time goes on from where it was.
            self.table = self._boot(VirtualClock(start=table.clock.monotonic()))
        else:
            self._dump()

    def _dump(self) -> None:
        self._out.write(json.dumps(self.snapshot(), ensure_ascii=False) + "\n")
        # A reader of the pipe sees each dump when it happens, not when the run ends.
        self._out.flush()
        self._dumps += 1
        if self._png_dir is not None:
            path = self._png_dir / f"dump-{self._dumps:03d}.png"
            try:
                self._png_dir.mkdir(parents=True, exist_ok=True)
                self.table.chip.visible_image().save(path)
            except OSError as error:
                raise PictureError(f"cannot write {path}: {error.strerror or error}") from error

    def snapshot(self) -> dict[str, Any]:
        """What a `dump` prints now."""
        table = self.table
        state = table.table.state
        key = str(state.key)
        rejected = [
            {"line": r.line, "action": r.action, "reason": r.reason}
            for r in self._rejected
            if r.key == key
        ]
        shown = table.pixel_strip.shown_rgb()
        layout = table.lights.layout

        def hex_colour(index: int) -> str:
            r, g, b = shown[index]
            return f"#{r:02x}{g:02x}{b:02x}"

        leds = {str(coord): hex_colour(layout.index(coord)) for coord in ALL_COORDS}
        leds["edge"] = hex_colour(layout.edge_index(Side.TOP))
        screen = table.display.screen
        return {
            "game": {**state.to_dict(), "rejected": rejected},
            "leds": leds,
            "strip": [hex_colour(index) for index in range(len(shown))],
            "oled": [] if screen is None else screen.text_lines,
            "words": {str(coord): word for coord, word in self.words().items()},
        }

    def words(self) -> Mapping[Coord, str]:
        """The words on the cards of the game in play."""
        table = self.table
        language = table.table.settings.language
        return self._words.deal(table.game_id, table.table.state.key, language)

    def close(self) -> None:
        """Stop the virtual table; idempotent."""
        self.table.close()
