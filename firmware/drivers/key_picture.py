"""A picture of the LED key, as the driver takes it: a colour for each light, and the colour
curve from those (perceptual) colours to the values on the wire.

What a picture shows (the game, a dimmed key, the wiring chase) is the application's business;
here are only the types it hands the driver, which knows no game.

>>> from board_rules.codenames import Coord
>>> picture = KeyColours.uniform((1, 2, 3))
>>> picture[Coord.parse("C3")], picture[Side.LEFT]
((1, 2, 3), (1, 2, 3))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from board_rules.codenames.grid import ALL_COORDS
from firmware.drivers.led_layout import CELLS, EDGES, Light, Side

Colour = tuple[int, int, int]
"""Red, green and blue, each 0–255."""

BLACK: Colour = (0, 0, 0)

_SIDES = tuple(Side)


@dataclass(frozen=True)
class KeyColours:
    """One picture of the key: a colour for each cell and each edge light."""

    cells: tuple[Colour, ...]
    """In reading order, A1 to E5."""
    edges: tuple[Colour, ...]
    """In the order top, right, bottom, left."""

    def __post_init__(self) -> None:
        if len(self.cells) != CELLS or len(self.edges) != EDGES:
            raise ValueError(
                f"a key picture has {CELLS} cells and {EDGES} edges,"
                f" not {len(self.cells)} and {len(self.edges)}"
            )

    @classmethod
    def uniform(cls, colour: Colour) -> KeyColours:
        """Every light the same colour."""
        return cls((colour,) * CELLS, (colour,) * EDGES)

    @classmethod
    def build(cls, colour_of: Callable[[Light], Colour]) -> KeyColours:
        """A picture from a colour for each light."""
        return cls(
            tuple(colour_of(coord) for coord in ALL_COORDS),
            tuple(colour_of(side) for side in _SIDES),
        )

    def __getitem__(self, light: Light) -> Colour:
        if isinstance(light, Side):
            return self.edges[_SIDES.index(light)]
        return self.cells[light.index]

    def dimmed(self, factor: float) -> KeyColours:
        """This picture at `factor` of its level (0 turns it off); lit channels stay lit."""
        return KeyColours(
            tuple(scale(c, factor) for c in self.cells),
            tuple(scale(c, factor) for c in self.edges),
        )


ALL_OFF = KeyColours.uniform(BLACK)
"""Every light off: the table asleep, or the key hidden."""


def scale(colour: Colour, factor: float) -> Colour:
    """`colour` at `factor` of its level; with a factor above 0 a lit channel stays lit."""
    if factor <= 0:
        return BLACK
    r, g, b = (0 if c == 0 else max(1, min(255, round(c * factor))) for c in colour)
    return (r, g, b)


def wire_curve(brightness: int, gamma: float) -> tuple[int, ...]:
    """Wire value for each perceptual channel value 0–255: `brightness` (1–255), then `gamma`.

    A channel that is lit stays at 1 or more: at low brightness the curve would round the
    dimmed assassin, and every covered cell, to off.

    >>> curve = wire_curve(20, 2.2)
    >>> curve[0], curve[1], curve[255]
    (0, 1, 1)
    """
    level = brightness / 255
    return tuple(
        0 if v == 0 else max(1, round(255 * (v / 255 * level) ** gamma)) for v in range(256)
    )


LINEAR = wire_curve(255, 1.0)
"""The curve that sends every value as it is."""
