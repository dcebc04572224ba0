"""The passive buzzer: beeps of a given length, count and pitch, timed on the clock.

Its pin is driven low first thing when the buzzer opens and last thing before it is released:
the Pi keeps a released output at its last level, and how a software PWM stops is the backend's
business, so a table stopped mid-tone (or restarted after the watchdog killed it) must never
leave the buzzer's transistor switched on.
"""

from __future__ import annotations

import threading

from gpiozero import TonalBuzzer
from gpiozero.pins import Factory
from gpiozero.tones import Tone

from firmware.drivers.clock import Clock, Timer

BUZZER_TONE = Tone("A6")
"""The buzzer's middle tone (1760 Hz); a beep may go an octave either side."""


class Buzzer:
    """A passive buzzer on `pin` (a PWM-capable one), through a transistor.

    Pins come from `pin_factory` (gpiozero's default when `None`). Use as a context manager, or
    call `close()`.
    """

    def __init__(self, clock: Clock, pin: int, *, pin_factory: Factory | None = None) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._closed = False
        self._timers: list[Timer] = []
        self._device = TonalBuzzer(pin, mid_tone=BUZZER_TONE, octaves=1, pin_factory=pin_factory)
        try:
            self._silence()
        except BaseException:
            self._device.close()
            raise

    def beep(
        self, on_s: float = 0.08, *, count: int = 1, off_s: float = 0.08, hz: float = 1760.0
    ) -> None:
        """Sound `count` beeps of `on_s` seconds, `off_s` apart; replaces a beep still playing.

        `hz` must lie within an octave of `BUZZER_TONE`.
        """
        if on_s <= 0 or off_s < 0 or count < 1:
            raise ValueError("a beep needs on_s > 0, off_s >= 0 and count >= 1")
        device = self._device
        tone = Tone.from_frequency(hz)
        if not device.min_tone.frequency <= tone.frequency <= device.max_tone.frequency:
            raise ValueError(
                f"the buzzer plays {device.min_tone.frequency:.0f} to "
                f"{device.max_tone.frequency:.0f} Hz, not {hz:.0f} Hz"
            )
        with self._lock:
            if self._closed:
                return
            for timer in self._timers:
                timer.cancel()
            self._timers = []
            device.play(tone)
            period = on_s + off_s
            for index in range(count):
                if index > 0:
                    self._timers.append(
                        self._clock.call_later(index * period, lambda: self._sound(tone))
                    )
                self._timers.append(
                    self._clock.call_later(index * period + on_s, lambda: self._sound(None))
                )

    def _sound(self, tone: Tone | None) -> None:
        with self._lock:
            if self._closed:
                return
            if tone is None:
                self._silence()
            else:
                self._device.play(tone)

    def _silence(self) -> None:
        """Stop the tone and drive the pin low (not merely stop the PWM)."""
        if not self._device.closed:
            self._device.stop()
            self._device.pwm_device.off()

    def close(self) -> None:
        """Stop every timer, drive the pin low and release it. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for timer in self._timers:
                timer.cancel()
            self._timers = []
            # Under the lock, after `_closed`: no beep timer can start the tone again.
            self._silence()
        self._device.close()

    def __enter__(self) -> Buzzer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
