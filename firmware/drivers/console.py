"""The console: the switches (matrix or touch pads), the rotary encoder with its push switch and
the LED supply's sense input, as one input queue.

The spymaster turns the encoder to choose the clue number and pushes it to announce the clue; a
long push opens the menu. The five console buttons sit in the switch matrix with the card pads.
The console turns all of them into plain `firmware.drivers.events` on a queue for the application's
loop, adds the holds (a `ButtonHeld` fired by a clock timer while the finger is still down, so the
table reacts before the release), and knows nothing of the rules.

The switches come ready to open (`SwitchesOpener`: the matrix or the touch pads as the config
wires them, `firmware.table.devices`); the buzzer, an output, is `firmware.drivers.buzzer`.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Protocol

from gpiozero import DigitalInputDevice, RotaryEncoder
from gpiozero.pins import Factory

from firmware.drivers.clock import Clock, Timer
from firmware.drivers.events import (
    ButtonHeld,
    ButtonPressed,
    ButtonReleased,
    ConsoleButton,
    EncoderHeld,
    EncoderPushed,
    EncoderTurned,
    InputEvent,
    LedSupplyChanged,
    MatrixEvent,
)
from firmware.drivers.led_supply import LedSupplySense
from firmware.drivers.matrix import RELEASE_DEBOUNCE_MS, SwitchMatrix
from firmware.drivers.pinout import DEFAULT_PIN_MAP

DEFAULT_HOLDS: Mapping[ConsoleButton, float] = MappingProxyType(
    {
        ConsoleButton.PENALTY: 1.0,
        ConsoleButton.UNDO: 1.0,
        ConsoleButton.NEW: 2.0,
        ConsoleButton.TIMER: 1.0,
    }
)
"""Seconds each button must stay down to be held; DONE has no hold."""

PUSH_HOLD_S = 1.0
"""Seconds the encoder push must stay down to be held (which opens the menu)."""


class Switches(Protocol):
    """What reports the pads and buttons: the switch matrix, or the capacitive pads."""

    def close(self) -> None:
        """Stop reporting and release what it holds."""


SwitchesOpener = Callable[[Callable[[MatrixEvent], None]], Switches]
"""Opens the pads and buttons reporting to the callable it is handed (`TouchPads`' way)."""


class EventSink(Protocol):
    """Where events go: a `queue.Queue`, also one that carries other messages of the caller's."""

    def put_nowait(self, item: InputEvent, /) -> None:
        """Take one event without blocking."""


class Console:
    """The table's input hardware, reporting `InputEvent`s on a queue.

    The queue is `events`, unless the caller hands in its own (`events=`, for instance a queue
    that the application's loop also feeds with its own messages). Events are put from gpiozero's
    callback thread (encoder) and the clock's thread (matrix, holds); `queue.Queue` makes that
    safe. Pins come from `pin_factory` (gpiozero's default when `None`), wired as the default pin
    map unless told otherwise. `switches` opens the pads and buttons reporting to the console;
    without it, a `SwitchMatrix` on the default pins and timing. `led_sense` is the LED
    supply's sense input (`firmware.drivers.led_supply`), whose changes come on the queue too.

    The encoder push is debounced here with the clock for `debounce_ms`, read once it has been
    still that long (so a glitch, over by then, changes nothing). It is a plain input and not a
    gpiozero `Button`, whose hold thread wakes every 100 ms even while nothing happens.
    """

    def __init__(
        self,
        clock: Clock,
        *,
        switches: SwitchesOpener | None = None,
        pin_factory: Factory | None = None,
        events: EventSink | None = None,
        encoder_a: int = DEFAULT_PIN_MAP.encoder_a,
        encoder_b: int = DEFAULT_PIN_MAP.encoder_b,
        encoder_push: int = DEFAULT_PIN_MAP.encoder_push,
        led_sense: int | None = None,
        debounce_ms: float = RELEASE_DEBOUNCE_MS,
        holds: Mapping[ConsoleButton, float] = DEFAULT_HOLDS,
        push_hold_s: float = PUSH_HOLD_S,
    ) -> None:
        if any(seconds <= 0 for seconds in holds.values()) or push_hold_s <= 0:
            raise ValueError("hold times must be more than 0 s")
        self._clock = clock
        self._own_events: queue.Queue[InputEvent] | None = None
        if events is None:
            self._own_events = queue.Queue()
            events = self._own_events
        self._sink: EventSink = events
        self._holds = dict(holds)
        self._push_hold_s = push_hold_s
        self._debounce_s = debounce_ms / 1000
        self._lock = threading.Lock()
        self._closed = False
        # Button holds: the press time of each button now down, and its pending hold timer.
        self._pressed_at: dict[ConsoleButton, float] = {}
        self._hold_timers: dict[ConsoleButton, Timer] = {}
        # The encoder push: debounced state, last edge, and its timers.
        self._push_down = False
        self._push_edge_at = 0.0
        self._push_pressed_at = 0.0
        self._push_held = False
        self._push_settle: Timer | None = None
        self._push_hold: Timer | None = None
        self._matrix: Switches | None = None
        self._encoder: RotaryEncoder | None = None
        self._push: DigitalInputDevice | None = None
        self._led_supply: LedSupplySense | None = None
        try:
            self._encoder = RotaryEncoder(
                encoder_a, encoder_b, max_steps=0, pin_factory=pin_factory
            )
            self._encoder.when_rotated_clockwise = self._turned_clockwise
            self._encoder.when_rotated_counter_clockwise = self._turned_counter_clockwise
            self._push = DigitalInputDevice(encoder_push, pull_up=True, pin_factory=pin_factory)
            self._push.when_activated = self._push_edge
            self._push.when_deactivated = self._push_edge
            if led_sense is not None:
                self._led_supply = LedSupplySense(
                    clock, led_sense, self._supply_changed, pin_factory=pin_factory
                )
            if switches is None:
                self._matrix = SwitchMatrix(clock, self._matrix_event, pin_factory=pin_factory)
            else:
                self._matrix = switches(self._matrix_event)
        except BaseException:
            self.close()
            raise

    @property
    def events(self) -> queue.Queue[InputEvent]:
        """The console's own queue of input events, in the order they happened."""
        if self._own_events is None:
            raise RuntimeError("this console puts its events on the queue it was given")
        return self._own_events

    @property
    def switches_busy(self) -> bool:
        """True while the switch matrix scans or waits out a switch's time, or the encoder's
        push waits out its debounce; the capacitive pads have no such state and are never busy."""
        with self._lock:  # the push's event is queued under it, with its timer cleared
            if self._push_settle is not None:
                return True
        return isinstance(self._matrix, SwitchMatrix) and self._matrix.scanning

    @property
    def led_supply(self) -> bool | None:
        """Whether the LED supply is there now; None when the table does not watch it."""
        return None if self._led_supply is None else self._led_supply.present

    def close(self) -> None:
        """Stop every timer and release the pins. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for timer in (*self._hold_timers.values(), self._push_settle, self._push_hold):
                if timer is not None:
                    timer.cancel()
            self._hold_timers.clear()
        # Outside the lock: closing a device may wait for its callback thread, which may be
        # waiting for this lock.
        if self._matrix is not None:
            self._matrix.close()
        for device in (self._push, self._encoder, self._led_supply):
            if device is not None:
                device.close()

    def __enter__(self) -> Console:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _put(self, event: InputEvent) -> None:
        self._sink.put_nowait(event)

    def _supply_changed(self, event: LedSupplyChanged) -> None:
        with self._lock:
            if not self._closed:
                self._put(event)

    def _matrix_event(self, event: MatrixEvent) -> None:
        with self._lock:
            if self._closed:
                return
            self._put(event)
            if isinstance(event, ButtonPressed):
                self._pressed_at[event.button] = event.at
                hold_s = self._holds.get(event.button)
                if hold_s is not None:
                    due = event.at + hold_s
                    self._hold_timers[event.button] = self._clock.call_later(
                        due - self._clock.monotonic(),
                        lambda: self._button_held(event.button, event.at),
                    )
            elif isinstance(event, ButtonReleased):
                self._pressed_at.pop(event.button, None)
                timer = self._hold_timers.pop(event.button, None)
                if timer is not None:
                    timer.cancel()

    def _button_held(self, button: ConsoleButton, pressed_at: float) -> None:
        with self._lock:
            # The press time tells a late timer from the one of a newer press of the button.
            if self._closed or self._pressed_at.get(button) != pressed_at:
                return
            self._hold_timers.pop(button, None)
            self._put(ButtonHeld(button, pressed_at + self._holds[button]))

    def _turned_clockwise(self) -> None:
        self._turned(+1)

    def _turned_counter_clockwise(self) -> None:
        self._turned(-1)

    def _turned(self, steps: int) -> None:
        # gpiozero's quadrature state machine already rejects contact bounce: a step needs the
        # full four-edge cycle, and any wiggle back within it cancels.
        with self._lock:
            if not self._closed:
                self._put(EncoderTurned(steps, self._clock.monotonic()))

    def _push_edge(self) -> None:
        # An edge callback (gpiozero's thread on the Pi): wait until the contact has been still
        # for the debounce time, then read it once.
        with self._lock:
            if self._closed:
                return
            self._push_edge_at = self._clock.monotonic()
            if self._push_settle is not None:
                self._push_settle.cancel()
            self._push_settle = self._clock.call_later(self._debounce_s, self._push_settled)

    def _push_settled(self) -> None:
        with self._lock:
            if self._closed or self._push is None:
                return
            self._push_settle = None
            down = bool(self._push.is_active)
            if down == self._push_down:
                return  # chatter that came back to where it was
            self._push_down = down
            at = self._push_edge_at
            if down:
                self._push_pressed_at = at
                self._push_held = False
                self._push_hold = self._clock.call_later(
                    at + self._push_hold_s - self._clock.monotonic(),
                    lambda: self._push_hold_reached(at),
                )
                return
            if self._push_hold is not None:
                self._push_hold.cancel()
                self._push_hold = None
            if not self._push_held:
                self._put(EncoderPushed(at))

    def _push_hold_reached(self, pressed_at: float) -> None:
        with self._lock:
            if self._closed or not self._push_down or self._push_pressed_at != pressed_at:
                return
            self._push_hold = None
            self._push_held = True
            self._put(EncoderHeld(pressed_at + self._push_hold_s))
