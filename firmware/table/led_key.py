"""The spymasters' key on the LED strip: a game state at a time, in the table's look.

`LedKey` draws `led_pattern.key_pattern` with its `LedStyle` through the driver
(`firmware.drivers.key_strip.KeyStrip`), which maps the picture to the wire and rides out strip
faults.

>>> from board_rules.codenames import GameState, Key
>>> from firmware.virtual.strip import open_virtual_strip
>>> state = GameState.start(Key.parse("RRRRR/RRRRB/BBBBB/BBNNN/NNNNA"))
>>> with LedKey(open_virtual_strip(29)) as key:
...     key.render(state, t=0.0), key.render(state, t=0.1)
(True, False)

Not thread-safe: draw from one loop.
"""

from __future__ import annotations

from board_rules.codenames.state import GameState
from firmware.drivers.key_picture import ALL_OFF, KeyColours
from firmware.drivers.key_strip import KeyStrip
from firmware.drivers.led_layout import LedLayout
from firmware.drivers.led_strip import LedStrip
from firmware.table.cover_choice import CoverMark
from firmware.table.led_pattern import LedStyle, gamma_table, key_pattern


class LedKey:
    """The key card in light on `strip`, wired as `layout`, looking as `style`."""

    def __init__(
        self, strip: LedStrip, layout: LedLayout | None = None, style: LedStyle | None = None
    ) -> None:
        self._style = style or LedStyle()
        self._lights = KeyStrip(strip, layout, gamma_table(self._style))

    @property
    def strip(self) -> LedStrip:
        """The strip drawn on."""
        return self._lights.strip

    @property
    def layout(self) -> LedLayout:
        """The wiring in use."""
        return self._lights.layout

    @property
    def style(self) -> LedStyle:
        """The look in use."""
        return self._style

    @style.setter
    def style(self, style: LedStyle) -> None:
        # Takes effect at the next render, which writes whatever pixels the new look changes.
        self._style = style
        self._lights.curve = gamma_table(style)

    @property
    def failing(self) -> bool:
        """True from a failed write until one goes out again."""
        return self._lights.failing

    def render(self, state: GameState, t: float, mark: CoverMark | None = None) -> bool:
        """Draw the key of `state` at time `t`, with the card chosen for a cover marked; True
        when a frame went out."""
        return self.show(key_pattern(state, t, self._style, mark))

    def blank(self) -> bool:
        """Turn every light off (the table asleep); True when a frame went out."""
        return self.show(ALL_OFF)

    def show(self, picture: KeyColours) -> bool:
        """Draw any picture (the key, a dimmed key, the wiring chase); True when a frame went
        out, False when nothing changed or the strip failed."""
        return self._lights.show(picture)

    def forget_shown(self) -> None:
        """The pixels came back dark from a supply cut: the next draw writes them all."""
        self._lights.forget_shown()

    def close(self) -> None:
        """Turn the key off and close the strip. Idempotent."""
        self._lights.close()

    def __enter__(self) -> LedKey:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
