"""The console: switch matrix, rotary encoder with push switch and buzzer, as one input queue.

The spymaster turns the encoder to choose the clue number and pushes it to announce the clue; a
long push opens the menu. The five console buttons sit in the switch matrix with the card pads.
The console turns all of them into plain `firmware.drivers.events` on a queue for the application's
loop, adds the holds (a `ButtonHeld` fired by a clock timer while the finger is still down, so the
table reacts before the release), and knows nothing of the rules.

The buzzer's pin is driven low first thing when the console opens and last thing before it is
released: the Pi keeps a released output at its last level, and how a software PWM stops is the
backend's business, so a table stopped mid-tone (or restarted after the watchdog killed it) must
never leave the buzzer's transistor switched on.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Protocol

from gpiozero import DigitalInputDevice, RotaryEncoder, TonalBuzzer
from gpiozero.pins import Factory
from gpiozero.tones import Tone

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
    MatrixEvent,
)
from firmware.drivers.matrix import PRESS_CONFIRM_MS, RELEASE_DEBOUNCE_MS, SwitchMatrix
from firmware.drivers.matrix_wires import SETTLE_S, busy_wait
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


BUZZER_TONE = Tone("A6")
"""The buzzer's middle tone (1760 Hz); a beep may go an octave either side."""


class Console:
    """The table's input hardware, reporting `InputEvent`s on a queue.

    The queue is `events`, unless the caller hands in its own (`events=`, for instance a queue
    that the application's loop also feeds with its own messages). Events are put from gpiozero's
    callback thread (encoder) and the clock's thread (matrix, holds); `queue.Queue` makes that
    safe. Pins come from `pin_factory` (gpiozero's default when `None`), wired as the default pin
    map unless told otherwise; `buzzer` is the pin of an optional passive buzzer, which needs a
    PWM-capable pin. `settle_s` and `settle_wait` go to the switch matrix (`SwitchMatrix`): the
    config derives the settle time from the table's column pull-ups.

    `debounce_ms` and `press_confirm_ms` go to the matrix as well; the encoder push is debounced
    here with the clock for `debounce_ms`, read once it has been still that long (so a glitch,
    over by then, changes nothing). It is a plain input and
    not a gpiozero `Button`, whose hold thread wakes every 100 ms even while nothing happens.
    """

    def __init__(
        self,
        clock: Clock,
        *,
        pin_factory: Factory | None = None,
        events: EventSink | None = None,
        matrix_rows: Sequence[int] = DEFAULT_PIN_MAP.matrix_rows,
        matrix_columns: Sequence[int] = DEFAULT_PIN_MAP.matrix_columns,
        encoder_a: int = DEFAULT_PIN_MAP.encoder_a,
        encoder_b: int = DEFAULT_PIN_MAP.encoder_b,
        encoder_push: int = DEFAULT_PIN_MAP.encoder_push,
        buzzer: int | None = None,
        debounce_ms: float = RELEASE_DEBOUNCE_MS,
        press_confirm_ms: float = PRESS_CONFIRM_MS,
        stuck_after_s: float = 10.0,
        holds: Mapping[ConsoleButton, float] = DEFAULT_HOLDS,
        push_hold_s: float = PUSH_HOLD_S,
        switches: SwitchesOpener | None = None,
        settle_s: float = SETTLE_S,
        settle_wait: Callable[[float], None] = busy_wait,
    ) -> None:
        if any(seconds <= 0 for seconds in holds.values()) or push_hold_s <= 0:
            raise ValueError("hold times must be more than 0 s")
        if debounce_ms < 0:
            raise ValueError("debounce_ms must be 0 or more")
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
        self._beep_timers: list[Timer] = []
        self._matrix: Switches | None = None
        self._encoder: RotaryEncoder | None = None
        self._push: DigitalInputDevice | None = None
        self._buzzer: TonalBuzzer | None = None
        try:
            # The buzzer first: a pin left high by a run that was killed mid-tone is driven
            # low even when a later device fails to open.
            if buzzer is not None:
                self._buzzer = TonalBuzzer(
                    buzzer, mid_tone=BUZZER_TONE, octaves=1, pin_factory=pin_factory
                )
                self._silence()
            self._encoder = RotaryEncoder(
                encoder_a, encoder_b, max_steps=0, pin_factory=pin_factory
            )
            self._encoder.when_rotated_clockwise = self._turned_clockwise
            self._encoder.when_rotated_counter_clockwise = self._turned_counter_clockwise
            self._push = DigitalInputDevice(encoder_push, pull_up=True, pin_factory=pin_factory)
            self._push.when_activated = self._push_edge
            self._push.when_deactivated = self._push_edge
            if switches is not None:
                # The capacitive pads replace the whole matrix, console buttons included.
                self._matrix = switches(self._matrix_event)
            else:
                self._matrix = SwitchMatrix(
                    clock,
                    self._matrix_event,
                    rows=matrix_rows,
                    columns=matrix_columns,
                    pin_factory=pin_factory,
                    debounce_ms=debounce_ms,
                    press_confirm_ms=press_confirm_ms,
                    stuck_after_s=stuck_after_s,
                    settle_s=settle_s,
                    settle_wait=settle_wait,
                )
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
    def has_buzzer(self) -> bool:
        """True when a buzzer is fitted."""
        return self._buzzer is not None

    def beep(
        self, on_s: float = 0.08, *, count: int = 1, off_s: float = 0.08, hz: float = 1760.0
    ) -> None:
        """Sound `count` beeps of `on_s` seconds, `off_s` apart; replaces a beep still playing.

        Does nothing without a buzzer. `hz` must lie within an octave of `BUZZER_TONE`.
        """
        if on_s <= 0 or off_s < 0 or count < 1:
            raise ValueError("a beep needs on_s > 0, off_s >= 0 and count >= 1")
        buzzer = self._buzzer
        if buzzer is None:
            return
        tone = Tone.from_frequency(hz)
        if not buzzer.min_tone.frequency <= tone.frequency <= buzzer.max_tone.frequency:
            raise ValueError(
                f"the buzzer plays {buzzer.min_tone.frequency:.0f} to "
                f"{buzzer.max_tone.frequency:.0f} Hz, not {hz:.0f} Hz"
            )
        with self._lock:
            if self._closed:
                return
            for timer in self._beep_timers:
                timer.cancel()
            self._beep_timers = []
            buzzer.play(tone)
            period = on_s + off_s
            for index in range(count):
                if index > 0:
                    self._beep_timers.append(
                        self._clock.call_later(index * period, lambda: self._sound(tone))
                    )
                self._beep_timers.append(
                    self._clock.call_later(index * period + on_s, lambda: self._sound(None))
                )

    def _sound(self, tone: Tone | None) -> None:
        with self._lock:
            if self._closed or self._buzzer is None:
                return
            if tone is None:
                self._silence()
            else:
                self._buzzer.play(tone)

    def _silence(self) -> None:
        """Stop the tone and drive the buzzer's pin low (not merely stop the PWM)."""
        if self._buzzer is not None and not self._buzzer.closed:
            self._buzzer.stop()
            self._buzzer.pwm_device.off()

    def close(self) -> None:
        """Stop every timer, drive the buzzer low and release the pins. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            timers = [
                *self._hold_timers.values(),
                *self._beep_timers,
                self._push_settle,
                self._push_hold,
            ]
            for timer in timers:
                if timer is not None:
                    timer.cancel()
            self._hold_timers.clear()
            self._beep_timers = []
            # Under the lock, after `_closed`: no beep timer can start the tone again.
            self._silence()
        # Outside the lock: closing a device may wait for its callback thread, which may be
        # waiting for this lock.
        if self._matrix is not None:
            self._matrix.close()
        for device in (self._buzzer, self._push, self._encoder):
            if device is not None:
                device.close()

    def __enter__(self) -> Console:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _put(self, event: InputEvent) -> None:
        self._sink.put_nowait(event)

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
