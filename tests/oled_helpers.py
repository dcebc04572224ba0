"""Shared by the OLED tests: the display on a virtual bus, test images, and screen edits.

`rig()` puts the real `Oled` over Adafruit's driver on a `VirtualI2C` carrying a
`VirtualSSD1306`; the strategies change screens the way UIs do, in patches, with the odd full
repaint.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from hypothesis import strategies as st
from PIL import Image, ImageDraw

from firmware.drivers.clock import VirtualClock
from firmware.drivers.oled import Oled, OledConfig
from firmware.virtual.i2c import VirtualI2C
from firmware.virtual.ssd1306 import VirtualSSD1306

ADDRESS = 0x3C
SIZE = (128, 64)
STILL = OledConfig(shift_every_s=0)
"""No timers of its own: the picture on the chip is exactly the last image shown."""


@dataclass
class Rig:
    clock: VirtualClock
    bus: VirtualI2C
    chip: VirtualSSD1306
    oled: Oled


@contextmanager
def rig(
    config: OledConfig = STILL,
    *,
    plugged: bool = True,
    pace: Callable[[float], None] | None = None,
    clock: VirtualClock | None = None,
    strict: bool = True,
    before: Callable[[VirtualSSD1306], None] | None = None,
) -> Iterator[Rig]:
    """The OLED on a virtual bus; `strict=False` for a chip that sees cut-off writes."""
    clock = clock or VirtualClock()
    bus = VirtualI2C(record=True, pace=pace)
    chip = VirtualSSD1306(strict=strict)
    if before is not None:
        before(chip)
    bus.attach(ADDRESS, chip)
    if not plugged:
        bus.unplug(ADDRESS)
    with Oled(clock, i2c=bus, config=config) as oled:
        bus.reset_counters()
        yield Rig(clock, bus, chip, oled)


def blank() -> Image.Image:
    return Image.new("1", SIZE, 0)


def with_pixels(*points: tuple[int, int]) -> Image.Image:
    image = blank()
    for point in points:
        image.putpixel(point, 1)
    return image


def shows(chip: VirtualSSD1306, image: Image.Image) -> bool:
    """Whether the chip's RAM holds exactly `image`, read back by the model's own decoder."""
    return chip.to_image().tobytes() == image.tobytes()


def page_spans(old: bytes, new: bytes) -> list[tuple[int, int]]:
    spans = []
    for page in range(8):
        changed = [c for c in range(128) if old[page * 128 + c] != new[page * 128 + c]]
        if changed:
            spans.append((changed[0], changed[-1]))
    return spans


# Strategies

rectangles = st.tuples(
    st.integers(0, 127), st.integers(0, 63), st.integers(1, 48), st.integers(1, 24), st.booleans()
)
noise = st.binary(min_size=1024, max_size=1024).map(lambda raw: Image.frombytes("1", SIZE, raw))
edits = st.one_of(st.lists(rectangles, max_size=4), noise)


def apply(
    canvas: Image.Image, edit: list[tuple[int, int, int, int, bool]] | Image.Image
) -> Image.Image:
    if isinstance(edit, Image.Image):
        return edit.copy()
    image = canvas.copy()
    draw = ImageDraw.Draw(image)
    for x, y, width, height, colour in edit:
        draw.rectangle((x, y, x + width - 1, y + height - 1), fill=int(colour))
    return image
