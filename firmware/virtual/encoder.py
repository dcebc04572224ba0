"""A rotary encoder with push switch, played on gpiozero `MockFactory` pins: the console's twin.

A KY-040-style encoder has two contacts to ground, A and B, pulled up; one detent closes and
opens both, a quarter cycle apart. Clockwise, A closes first: A low, B low, A high, B high. That
is the full cycle gpiozero's `RotaryEncoder` needs to count one step (its state machine goes
idle → cw1 → cw2 → cw3 → +1), so a detent is four edges, not one.
"""

from __future__ import annotations

from typing import Any

from gpiozero.pins.mock import MockFactory

from firmware.drivers.pinout import DEFAULT_PIN_MAP


class VirtualEncoder:
    """Turns and pushes the encoder by driving its mock pins, as a hand would.

    Every edge reaches the console through gpiozero's edge callbacks, exactly as on the Pi. The
    push switch has no built-in timing: advance the clock between `press` and `release`.
    """

    def __init__(
        self,
        factory: MockFactory,
        *,
        a: int = DEFAULT_PIN_MAP.encoder_a,
        b: int = DEFAULT_PIN_MAP.encoder_b,
        push: int = DEFAULT_PIN_MAP.encoder_push,
    ) -> None:
        self._a: Any = factory.pin(a)
        self._b: Any = factory.pin(b)
        self._push: Any = factory.pin(push)

    def turn(self, detents: int) -> None:
        """Turn `detents` clicks: positive clockwise, negative counter-clockwise."""
        first, second = (self._a, self._b) if detents > 0 else (self._b, self._a)
        for _ in range(abs(detents)):
            first.drive_low()
            second.drive_low()
            first.drive_high()
            second.drive_high()

    def wiggle(self) -> None:
        """Start a clockwise detent and roll back before it clicks: no step."""
        self._a.drive_low()
        self._b.drive_low()
        self._b.drive_high()
        self._a.drive_high()

    def press(self) -> None:
        """Close the push switch (its contact pulls the pin to ground)."""
        self._push.drive_low()

    def release(self) -> None:
        """Open the push switch; the pull-up takes the pin high again."""
        self._push.drive_high()
