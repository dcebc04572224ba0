"""The key's lights on a strip: a picture (`KeyColours`) through the wiring (`LedLayout`) and the
colour curve to the pixels, writing the strip only when a pixel changed.

A strip fault never stops the table: a failing `show()` is logged once per outage and the frame
is written again in full on the next picture.

>>> from firmware.drivers.key_picture import ALL_OFF, KeyColours
>>> from firmware.virtual.strip import open_virtual_strip
>>> with KeyStrip(open_virtual_strip(29)) as lights:
...     lights.show(KeyColours.uniform((9, 9, 9))), lights.show(KeyColours.uniform((9, 9, 9)))
(True, False)

Not thread-safe: draw from one loop.
"""

from __future__ import annotations

import logging

from firmware.drivers.key_picture import BLACK, LINEAR, Colour, KeyColours
from firmware.drivers.led_layout import CELLS, LedConfigError, LedLayout, Side
from firmware.drivers.led_strip import STRIP_FAULTS, LedStrip

log = logging.getLogger(__name__)


class KeyStrip:
    """Shows pictures of the key on `strip`, wired as `layout`, through `curve` (the wire value
    of each channel value 0–255, `key_picture.wire_curve`)."""

    def __init__(
        self,
        strip: LedStrip,
        layout: LedLayout | None = None,
        curve: tuple[int, ...] = LINEAR,
    ) -> None:
        self._layout = layout or LedLayout()
        if strip.count < self._layout.pixel_count:
            raise LedConfigError(
                "count",
                f"the layout needs {self._layout.pixel_count} pixels, the strip has {strip.count}",
            )
        self._strip = strip
        self._sources = _picture_sources(self._layout)
        """For each pixel, its light's place in the picture's cells then edges; None if dark."""
        self.curve = curve
        """Takes effect at the next picture, which writes whatever pixels the new curve
        changes."""
        self._shown: tuple[Colour, ...] | None = None
        """The frame on the pixels; None when unknown (nothing shown yet, or a write failed)."""
        self._failing = False
        self._closed = False

    @property
    def strip(self) -> LedStrip:
        """The strip drawn on."""
        return self._strip

    @property
    def layout(self) -> LedLayout:
        """The wiring in use."""
        return self._layout

    @property
    def failing(self) -> bool:
        """True from a failed write until one goes out again."""
        return self._failing

    def show(self, picture: KeyColours) -> bool:
        """Draw `picture`; True when a frame went out, False when nothing changed or the strip
        failed."""
        if self._closed:
            return False
        frame = self._wire_frame(picture)
        if frame == self._shown:
            return False
        try:
            for index, colour in enumerate(frame):
                if self._shown is None or self._shown[index] != colour:
                    self._strip.set_pixel(index, colour)
            self._strip.show()
        except STRIP_FAULTS as error:
            # Forget what the pixels hold: a half-sent frame leaves them unknown, so the next
            # picture writes every pixel again.
            self._shown = None
            if not self._failing:
                self._failing = True
                log.error("LED strip failed; the key goes on, retrying every frame: %s", error)
            return False
        self._shown = frame
        if self._failing:
            self._failing = False
            log.info("LED strip works again")
        return True

    def forget_shown(self) -> None:
        """The pixels lost what they held (their supply was off): the next picture writes
        every one, even one equal to the last."""
        self._shown = None

    def _wire_frame(self, picture: KeyColours) -> tuple[Colour, ...]:
        curve = self.curve
        # A picture holds a few colours: each is put through the curve once.
        wired: dict[Colour, Colour] = {}
        colours = picture.cells + picture.edges
        frame = [BLACK] * self._strip.count
        for index, source in enumerate(self._sources):
            if source is not None:
                colour = colours[source]
                wire = wired.get(colour)
                if wire is None:
                    r, g, b = colour
                    wire = wired[colour] = (curve[r], curve[g], curve[b])
                frame[index] = wire
        return tuple(frame)

    def close(self) -> None:
        """Turn the key off and close the strip. Idempotent."""
        if self._closed:
            return
        self._closed = True
        self._strip.close()

    def __enter__(self) -> KeyStrip:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _picture_sources(layout: LedLayout) -> tuple[int | None, ...]:
    sides = tuple(Side)
    return tuple(
        None
        if light is None
        else CELLS + sides.index(light)
        if isinstance(light, Side)
        else light.index
        for light in layout.wire_order()
    )
