"""The LED key as the game loop drives it: its brightness for each menu level and the palette
chosen in the menu, dimmed while the table sleeps, and redrawn when its blinking next changes the
picture rather than on a frame rate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from board_rules.codenames import GameState, Team
from firmware.drivers.key_picture import KeyColours
from firmware.table.cover_choice import CoverMark
from firmware.table.led_pattern import LedStyle, key_pattern, next_blink_edge

BRIGHTNESS_STEPS = {1: 110, 2: 140, 3: 175, 4: 215, 5: 255}
"""LED brightness (1–255) for each menu level: level 1 is near the dimmest at which a spymaster
can still tell every cell state apart (`make key-contrast`: ΔE00 ≥ 12 for every pair, also as
colour-blind eyes see it; 14 at level 1). At brightness 110 the brightest channel sends 40 of
255, a sixth of the light of level 5. Below about 95 there is too little light for every pair:
at 90 a deuteranope's red agents come within ΔE00 11.6 of the bystanders, at 80 a protanope's
come within 10 of the covered cells, whose lit channels are already at the wire's lowest step. The
steps are in the pattern's perceptual scale, so they look about even to the eye."""
SLEEP_DIM = 0.15
"""Share of its level the LED key keeps while the table sleeps. A deliberate exception to the
key's contrast goal: nobody has touched the table for minutes, the dim key only says a game is
laid out, and the input that wakes it does nothing else, so the key is legible again before
anyone can act on it."""


class KeyLights(Protocol):
    """The LED key as the table uses it (`firmware.table.led_key.LedKey`)."""

    style: LedStyle

    def render(self, state: GameState, t: float, mark: CoverMark | None = None) -> bool: ...

    def show(self, picture: KeyColours) -> bool: ...

    def forget_shown(self) -> None: ...


class KeyFeedback:
    """Draws game states on `lights`.

    `schedule(delay)` asks the game loop to look again after `delay` seconds; the loop then
    redraws when `due` says the blinking has moved on.
    """

    def __init__(self, lights: KeyLights, schedule: Callable[[float], None]) -> None:
        self._lights = lights
        self._schedule = schedule
        self._due: float | None = None
        """When the blinking next changes the picture."""

    def set_look(self, level: int, colour_blind: Team | None) -> None:
        """Light the key at a menu brightness level (`BRIGHTNESS_STEPS`), in the colour-blind
        palette with `colour_blind`'s lights blinking, or in the normal one for None; the next
        draw shows it."""
        style = self._lights.style
        look = replace(
            style,
            brightness=BRIGHTNESS_STEPS[level],
            colour_blind=colour_blind is not None,
            colour_blind_team=style.colour_blind_team if colour_blind is None else colour_blind,
        )
        if look != style:
            self._lights.style = look

    def forget_shown(self) -> None:
        """The pixels lost their picture (their supply was cut): the next draw writes it all."""
        self._lights.forget_shown()

    def due(self, now: float) -> bool:
        """True when the picture has changed by itself since it was drawn."""
        return self._due is not None and now >= self._due

    def draw(
        self, state: GameState, now: float, *, asleep: bool, mark: CoverMark | None = None
    ) -> None:
        """Show `state` as it looks at `now`, with the card chosen for a cover marked, dimmed
        while the table sleeps."""
        style = self._lights.style
        if asleep:
            self._lights.show(key_pattern(state, now, style, mark).dimmed(SLEEP_DIM))
        else:
            self._lights.render(state, now, mark)
        # One pending redraw at a time, at the earliest blink edge still to come.
        edge = next_blink_edge(now, style, marked=mark is not None)
        if self._due is None or self._due <= now or edge < self._due:
            self._due = edge
            self._schedule(edge - now)
