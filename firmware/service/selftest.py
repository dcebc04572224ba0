"""`codenames-table selftest`: staff check the table's hardware, guided by the OLED.

Each LED lights red, then green, then blue, one after the other (a wrong order or a swapped colour
channel shows at once), or, when the strip did not open or its supply's sense input reads no 5 V,
the OLED says why and the test fails; the OLED shows a test pattern; then the OLED asks for each of
the 30 matrix switches and for the encoder in turn. The report names missing switches (no press in
time), stuck ones (closed before they were asked for, or held past the stuck limit), ghosting
(another switch closing with the one asked for: a short or a failed diode) and a reversed encoder (A
and B swapped). Any fault makes the command exit 1. Ghosts in the asked switch's own column, on row
1 or the row after its own, are what too short a settle time makes (the column still rising when the
scan reads the next row, `firmware.drivers.matrix_wires`): the report then names the scan's wait and
the config key that sets it, `[input] column_pullup_ohms`.

This module is the check itself, over any `Rig`; `firmware.service.selftest_pi` is the command
that runs it on the Pi's own devices.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from dataclasses import dataclass, field
from gettext import GNUTranslations
from typing import Protocol

from PIL import Image, ImageDraw

from board_rules.codenames import ALL_COORDS, Coord
from firmware.drivers.events import (
    ButtonPressed,
    ButtonReleased,
    ConsoleButton,
    EncoderHeld,
    EncoderPushed,
    EncoderTurned,
    InputEvent,
    MultiplePads,
    PadPressed,
    PadReleased,
    PadStuck,
)
from firmware.drivers.key_picture import KeyColours
from firmware.drivers.led_layout import CELLS, EDGES
from firmware.drivers.led_strip import LedBackendError, LedFault
from firmware.drivers.matrix import MatrixSwitch, switch_position
from firmware.drivers.matrix_wires import settle_for_pull_up
from firmware.table import screen_texts as m
from firmware.table.led_pattern import wiring_pattern
from firmware.table.oled_render import HEIGHT, WIDTH, render_screen
from firmware.table.screen_texts import switch_name
from firmware.table.screens import OledScreen

LED_STEP_S = 0.05
"""Each LED stays lit this long in each colour of the chase."""
PATTERN_S = 1.0
"""The OLED test pattern stays this long."""
SETTLE_S = 0.5
"""Quiet time at the start, to catch switches already closed."""
SWITCHES: tuple[MatrixSwitch, ...] = (*ALL_COORDS, *ConsoleButton)
"""Every matrix switch, in the order they are asked for."""
NO_LED_SUPPLY = (
    "the LED supply is off: its sense input (pin map led.sense) reads no 5 V; check the LED "
    "supply's mains switch and lead, the PTC fuse F1 (it resets once cool, with the supply "
    "off), and the 5 V at the LED terminals"
)
"""The report's line for a dead LED supply, after `LED key off: `."""


class Rig(Protocol):
    """The hardware under test, and a way to wait for its input events."""

    def show_leds(self, picture: KeyColours) -> None: ...

    def show_oled(self, image: Image.Image) -> None: ...

    def next_event(self, timeout: float) -> InputEvent | None:
        """The next input event, or None once `timeout` seconds pass without one."""

    def pause(self, seconds: float) -> None:
        """Let `seconds` pass (LED chase, test pattern)."""


@dataclass
class Report:
    """What the self-test found."""

    missing: list[str] = field(default_factory=list)
    stuck: list[str] = field(default_factory=list)
    ghosting: list[str] = field(default_factory=list)
    encoder: list[str] = field(default_factory=list)
    leds: list[str] = field(default_factory=list)
    """Why the LED key is off: its strip did not open, or its supply is off."""
    notes: list[str] = field(default_factory=list)
    """What may explain the faults; not faults themselves."""

    @property
    def ok(self) -> bool:
        """True when nothing is wrong."""
        return not (self.missing or self.stuck or self.ghosting or self.encoder or self.leds)

    def lines(self) -> list[str]:
        """The report for people."""
        if self.ok:
            return ["all 30 switches and the encoder work"]
        found = [f"LED key off: {problem}" for problem in self.leds]
        if self.missing:
            found.append(f"missing (no press seen): {', '.join(self.missing)}")
        if self.stuck:
            found.append(f"stuck (closed when not pressed): {', '.join(self.stuck)}")
        if self.ghosting:
            found.extend(f"ghosting: {ghost}" for ghost in self.ghosting)
        found.extend(f"encoder: {problem}" for problem in self.encoder)
        found.extend(self.notes)
        return found


def _read_while_rising(ghost: MatrixSwitch, asked: MatrixSwitch) -> bool:
    """Whether `ghost` is where a scan reads `asked`'s column before it has risen: on its
    column, on the first row read (a scan starts from all rows low) or the row after `asked`'s."""
    ghost_row, ghost_column = switch_position(ghost)
    asked_row, asked_column = switch_position(asked)
    return (
        ghost_column == asked_column and ghost_row != asked_row and ghost_row in (0, asked_row + 1)
    )


def _settle_note(column_pullup_ohms: float) -> str:
    """Why such ghosts may be a settle time too short for the columns' pull-ups."""
    setting = '"internal"' if column_pullup_ohms == 0 else f"{column_pullup_ohms:g}"
    wait_us = settle_for_pull_up(column_pullup_ohms) * 1e6
    return (
        f"ghosts in the pressed switch's column, on row 1 or the row after its own: the column "
        f"may still be rising when the scan reads them, {wait_us:.0f} microseconds after each row "
        f"change for [input] column_pullup_ohms = {setting}; set it to the resistors fitted "
        f'("internal" if none)'
    )


def _closed(event: InputEvent) -> MatrixSwitch | None:
    if isinstance(event, PadPressed):
        return event.coord
    if isinstance(event, ButtonPressed):
        return event.button
    return None


def _opened(event: InputEvent) -> MatrixSwitch | None:
    if isinstance(event, PadReleased):
        return event.coord
    if isinstance(event, ButtonReleased):
        return event.button
    return None


def test_pattern() -> Image.Image:
    """A frame, a checkerboard and a cross: dead rows, columns and pixels stand out."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    for y in range(0, HEIGHT, 8):
        for x in range((y // 8) % 2 * 8, WIDTH, 16):
            draw.rectangle((x, y, x + 7, y + 7), fill=1)
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=1)
    draw.line((0, 0, WIDTH - 1, HEIGHT - 1), fill=1)
    draw.line((0, HEIGHT - 1, WIDTH - 1, 0), fill=1)
    return image


class SelfTest:
    """Runs the checks on a rig, asking on its OLED."""

    def __init__(
        self,
        rig: Rig,
        catalog: GNUTranslations,
        wait_s: float = 10.0,
        stuck_after_s: float = 10.0,
        column_pullup_ohms: float | None = None,
        *,
        led_error: LedBackendError | None = None,
        led_supply: Callable[[], bool | None] = lambda: None,
    ) -> None:
        self._rig = rig
        self._led_error = led_error
        self._led_supply = led_supply
        """Whether the LED supply is there now (the console's sense); None when unwatched."""
        """Why the LED strip did not open (the rig's LEDs are then a virtual strip)."""
        self._column_pullup_ohms = column_pullup_ohms
        """The matrix's `input.column_pullup_ohms`, named when ghosts look like too short a
        settle time; None on a table without the matrix (touch pads have no settle time)."""
        self._slow_ghosts = False
        self._catalog = catalog
        self._wait_s = wait_s
        self._stuck_after_s = stuck_after_s
        """The scanner's stuck limit (`input.stuck_after_s` of the config)."""
        self._down: set[MatrixSwitch] = set()
        """Switches seen closed and not yet opened."""
        self._given_up: set[Coord] = set()
        """Pads the scanner reported stuck and now ignores."""
        self.report = Report()

    def run(self, on_prompt: Callable[[str], None] | None = None) -> Report:
        """Every check in turn; `on_prompt` hears each request (`C3`, `DONE`, `encoder +1`…)."""
        self._leds()
        self._screen()
        self._settle()
        for switch in SWITCHES:
            self._ask(switch, on_prompt)
        self._encoder(on_prompt)
        if self._slow_ghosts and self._column_pullup_ohms is not None:
            self.report.notes.append(_settle_note(self._column_pullup_ohms))
        _ = self._catalog.gettext
        if self.report.ok:
            self._say(_(m.ALL_WORKING))
        else:
            # The details are in English, for whoever fixes the wiring: on the terminal.
            self._say(_(m.FAULTS_FOUND), _(m.SEE_TERMINAL))
        return self.report

    def _say(self, *lines: str) -> None:
        _ = self._catalog.gettext
        self._rig.show_oled(render_screen(OledScreen(title=_(m.SELF_TEST), lines=lines)))

    def _leds(self) -> None:
        if self._led_supply() is False:
            # A chase on unpowered pixels shows nothing: the OLED says where to look instead.
            self._say(self._catalog.gettext(m.LED_OFF[LedFault.NO_SUPPLY]))
            self.report.leds.append(NO_LED_SUPPLY)
            if self._led_error is not None:
                self.report.leds.append(str(self._led_error))
            self._rig.pause(PATTERN_S)
            return
        if self._led_error is not None:
            # Nothing to look at: the OLED says why instead, while it would have chased.
            self._say(self._catalog.gettext(m.LED_OFF[self._led_error.fault]))
            self.report.leds.append(str(self._led_error))
            self._rig.pause(PATTERN_S)
            return
        self._say(self._catalog.gettext(m.LED_CHECK))
        lights = CELLS + EDGES
        for step in range(3 * lights):
            # Sample mid-step: a time on a step's edge could round to the step before.
            self._rig.show_leds(wiring_pattern((step + 0.5) * LED_STEP_S, LED_STEP_S))
            self._rig.pause(LED_STEP_S)
        self._rig.show_leds(KeyColours.uniform((0, 0, 0)))

    def _screen(self) -> None:
        self._rig.show_oled(test_pattern())
        self._rig.pause(PATTERN_S)

    def _settle(self) -> None:
        # A switch that closes before anything was asked for is stuck (or shorted).
        for early in self._events_for(SETTLE_S):
            self._note(early, expected=None)
        # While a pad is down no other pad counts, until the scanner gives up on it as stuck:
        # wait for that before asking for anything.
        while any(isinstance(s, Coord) and s not in self._given_up for s in self._down):
            later = self._rig.next_event(self._stuck_after_s + 1.0)
            if later is None:
                break
            self._note(later, expected=None)

    def _events_for(self, seconds: float) -> list[InputEvent]:
        events = []
        while (event := self._rig.next_event(seconds)) is not None:
            events.append(event)
        return events

    def _note(self, event: InputEvent, expected: MatrixSwitch | None) -> bool:
        """Record what `event` says; True when it is the press asked for."""
        if isinstance(event, PadStuck):
            self._given_up.add(event.coord)
            self._add(self.report.stuck, switch_name(event.coord))
            return False
        if isinstance(event, MultiplePads):
            others = [switch_name(c) for c in event.coords if c != expected]
            if expected in event.coords and others:
                self._slow_ghosts |= all(
                    _read_while_rising(c, expected) for c in event.coords if c != expected
                )
                self._add(
                    self.report.ghosting, f"{switch_name(expected)} also closes {', '.join(others)}"
                )
            return False
        opened = _opened(event)
        if opened is not None:
            self._down.discard(opened)
            return False
        closed = _closed(event)
        if closed is None:
            return False
        self._down.add(closed)
        if closed == expected:
            return True
        if expected is None:
            self._add(self.report.stuck, switch_name(closed))
        else:
            self._slow_ghosts |= _read_while_rising(closed, expected)
            self._add(
                self.report.ghosting, f"{switch_name(expected)} also closes {switch_name(closed)}"
            )
        return False

    @staticmethod
    def _add(found: list[str], text: str) -> None:
        if text not in found:
            found.append(text)

    def _ask(self, switch: MatrixSwitch, on_prompt: Callable[[str], None] | None) -> None:
        name = switch_name(switch)
        self._say(m.press_line(self._catalog, name))
        if on_prompt is not None:
            on_prompt(name)
        seen = False
        remaining = self._wait_s
        while not seen:
            event = self._rig.next_event(remaining)
            if event is None:
                break
            seen = self._note(event, expected=switch)
        if not seen:
            if name not in self.report.stuck:
                self._add(self.report.missing, name)
            return
        # Wait for the release, and see what else closes meanwhile (a ghost).
        while switch in self._down:
            event = self._rig.next_event(self._wait_s)
            if event is None:
                self._add(self.report.stuck, name)
                return
            self._note(event, expected=switch)

    def _encoder(self, on_prompt: Callable[[str], None] | None) -> None:
        _ = self._catalog.gettext
        self._say(_(m.TURN_CLOCKWISE))
        if on_prompt is not None:
            on_prompt("encoder +1")
        turned = self._first(EncoderTurned)
        if turned is None:
            self.report.encoder.append("no turn seen")
        elif isinstance(turned, EncoderTurned) and turned.steps < 0:
            self.report.encoder.append("reversed: swap the A and B wires (or pins)")
        self._say(_(m.PUSH_ENCODER))
        if on_prompt is not None:
            on_prompt("encoder push")
        if self._first(EncoderPushed, EncoderHeld) is None:
            self.report.encoder.append("no push seen")

    def _first(self, *kinds: type) -> InputEvent | None:
        remaining = self._wait_s
        while (event := self._rig.next_event(remaining)) is not None:
            if isinstance(event, kinds):
                # Let the rest of a turn (several detents) drain before the next question.
                self._events_for(0.3)
                return event
            self._note(event, expected=None)
        return None


class QueueRig:
    """A rig over live devices: events arrive on `events` from the drivers' threads."""

    def __init__(
        self,
        events: queue.Queue[InputEvent],
        show_leds: Callable[[KeyColours], object],
        show_oled: Callable[[Image.Image], object],
        sleep: Callable[[float], None],
    ) -> None:
        self._events = events
        self._show_leds = show_leds
        self._show_oled = show_oled
        self._sleep = sleep

    def show_leds(self, picture: KeyColours) -> None:
        self._show_leds(picture)

    def show_oled(self, image: Image.Image) -> None:
        self._show_oled(image)

    def next_event(self, timeout: float) -> InputEvent | None:
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    def pause(self, seconds: float) -> None:
        self._sleep(seconds)
