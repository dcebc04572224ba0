"""Widgets of the desktop simulation: the word cards, the LED key, the OLED and the console.

They only draw what they are handed and report what the mouse does to them (`SwitchDown`,
`SwitchUp`, `KnobTurned`); `firmware.sim.app` has `firmware.sim.fingers` close and open the
virtual switches and hands back what the virtual hardware shows, by setting the widgets'
reactive attributes (a card's `look`, a light's `colour`, the OLED's `glasses`): Textual redraws
a widget only when its value changes, and a widget the window no longer shows is never looked
up by name, so a late tick of the clock finds nothing missing. A press lasts from the mouse
button going down to it coming up, so holding a console button with the mouse is a long press,
as on the table.
Their look is in `firmware/tui/styles/sim.tcss`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from PIL import Image
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.color import Color
from textual.containers import Grid
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from board_rules.codenames import ALL_COORDS, Coord, Identity
from firmware.drivers.events import ConsoleButton
from firmware.drivers.led_layout import Light, Side
from firmware.sim.fingers import EncoderPush, Switch


class SwitchDown(Message):
    """The mouse went down on a switch."""

    def __init__(self, switch: Switch) -> None:
        self.switch = switch
        super().__init__()


class SwitchUp(Message):
    """The mouse came up from a switch it had pressed."""

    def __init__(self, switch: Switch) -> None:
        self.switch = switch
        super().__init__()


class KnobTurned(Message):
    """The encoder's knob was clicked round by `steps` detents (+ clockwise)."""

    def __init__(self, steps: int) -> None:
        self.steps = steps
        super().__init__()


class Pressable(Static):
    """A switch under the mouse: pressed while the left button is down on it."""

    def __init__(self, switch: Switch, label: str = "", *, id: str | None = None) -> None:
        super().__init__(label, id=id)
        self.switch = switch

    def on_mouse_down(self, event: events.MouseDown) -> None:
        if event.button != 1:
            return
        event.stop()
        # Captured, so that letting go outside the widget still opens the switch.
        self.capture_mouse()
        self.add_class("-down")
        self.post_message(SwitchDown(self.switch))

    def on_mouse_up(self, event: events.MouseUp) -> None:
        event.stop()
        self.release_mouse()
        if self.has_class("-down"):
            self.remove_class("-down")
            self.post_message(SwitchUp(self.switch))


class Knob(Static):
    """One side of the encoder: a click turns it one detent."""

    def __init__(self, steps: int, label: str, *, id: str | None = None) -> None:
        super().__init__(label, id=id)
        self.steps = steps

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(KnobTurned(self.steps))


# Cards


@dataclass(frozen=True)
class CardLook:
    """What one word card shows."""

    word: str
    covered: Identity | None = None
    """The card that covers the word, if one does."""
    key: Identity | None = None
    """The identity shown on an uncovered card (spymaster view, game over)."""


class CardView(Pressable):
    """A word card as the operatives see it; covered, the word sits on the covering card's
    colour. The look is in CSS classes (`-covered-red`, `-key-blue`, …) for the theme to draw."""

    look: reactive[CardLook | None] = reactive(None, repaint=False)
    """What the card shows; setting the one shown redraws nothing."""

    def __init__(self, coord: Coord) -> None:
        super().__init__(coord, id=f"card-{coord}")
        self.coord = coord

    def watch_look(self, look: CardLook | None) -> None:
        if look is None:
            return
        for identity in Identity:
            self.set_class(look.covered is identity, f"-covered-{identity.value}")
            key_shown = look.covered is None and look.key is identity
            self.set_class(key_shown, f"-key-{identity.value}")
        self.update(Text(look.word, no_wrap=True, overflow="ellipsis", justify="center"))


class CardGrid(Grid):
    """The 5 × 5 cards with the column letters and row numbers the coordinates use."""

    def __init__(self) -> None:
        super().__init__()
        self.cards = {coord: CardView(coord) for coord in ALL_COORDS}
        """Every card's widget, by its coordinate."""

    def compose(self) -> ComposeResult:
        yield Static("", classes="label")
        for letter in "ABCDE":
            yield Static(letter, classes="label")
        for row in range(5):
            yield Static(str(row + 1), classes="label")
            for column in range(5):
                yield self.cards[Coord(row, column)]


# The LED key


def screen_colour(wire: Sequence[int], gamma: float) -> Color:
    """The screen colour that looks like an LED driven with `wire` (a duty cycle: linear light).

    The key's gamma curve is undone, so the cells compare on screen as the LEDs do on the table
    and the brightness setting shows.

    >>> screen_colour((255, 58, 0), 2.2).rgb
    (255, 130, 0)
    """
    red, green, blue = (round(255 * (channel / 255) ** (1 / gamma)) for channel in wire)
    return Color(red, green, blue)


class LedCell(Static):
    """One light of the key, drawn in the colour it shows now (`colour`)."""

    colour: reactive[Color] = reactive(Color(0, 0, 0), repaint=False)
    """The light's colour on screen; the text takes it, so only a change repaints."""

    def __init__(self, light: Light, glyph: str) -> None:
        name = light.value if isinstance(light, Side) else str(light)
        super().__init__(glyph, id=f"led-{name}", classes="edge" if isinstance(light, Side) else "")
        self.light = light

    def watch_colour(self, colour: Color) -> None:
        self.styles.color = colour


_CELL_GLYPH = "████\n▀▀▀▀"
"""A cell is nearly square, with half a row of dark below it, so that cells do not merge."""
_EDGE_GLYPHS = {Side.TOP: "▀▀▀▀", Side.BOTTOM: "▀▀▀▀", Side.LEFT: "██\n▀▀", Side.RIGHT: "██\n▀▀"}
_EDGE_PLACES = {(0, 3): Side.TOP, (3, 6): Side.RIGHT, (6, 3): Side.BOTTOM, (3, 0): Side.LEFT}


class LedKeyView(Grid):
    """The spymasters' LED key: 25 cells and an edge light in the middle of each side."""

    colours: reactive[Mapping[Light, Color]] = reactive(dict, repaint=False)
    """Every light's colour; each cell repaints only when its own colour changes."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: dict[Light, LedCell] = {}
        """Every light's cell, made here so that none is ever looked up by name."""
        for row in range(7):
            for column in range(7):
                side = _EDGE_PLACES.get((row, column))
                if side is not None:
                    self.cells[side] = LedCell(side, _EDGE_GLYPHS[side])
                elif 1 <= row <= 5 and 1 <= column <= 5:
                    coord = Coord(row - 1, column - 1)
                    self.cells[coord] = LedCell(coord, _CELL_GLYPH)

    def compose(self) -> ComposeResult:
        for row in range(7):
            for column in range(7):
                side = _EDGE_PLACES.get((row, column))
                if side is not None:
                    yield self.cells[side]
                elif 1 <= row <= 5 and 1 <= column <= 5:
                    yield self.cells[Coord(row - 1, column - 1)]
                else:
                    yield Static("")

    def cell(self, light: Light) -> LedCell:
        """The widget of one light."""
        return self.cells[light]

    def watch_colours(self, colours: Mapping[Light, Color]) -> None:
        for light, colour in colours.items():
            self.cells[light].colour = colour


LIGHTS: tuple[Light, ...] = (*ALL_COORDS, *Side)
"""Every light of the key."""


# The OLED

_BRAILLE_DOTS: tuple[tuple[int, int, int], ...] = (
    (0, 0, 0x01),
    (0, 1, 0x02),
    (0, 2, 0x04),
    (1, 0, 0x08),
    (1, 1, 0x10),
    (1, 2, 0x20),
    (0, 3, 0x40),
    (1, 3, 0x80),
)
"""Unicode braille: the bit of each dot of a 2 × 4 cell, by column and row inside the cell."""


def braille_rows(image: Image.Image) -> tuple[str, ...]:
    """A 1-bit picture as braille characters: each character shows 2 × 4 pixels.

    >>> picture = Image.new("1", (4, 4), 0)
    >>> picture.putpixel((0, 0), 1); picture.putpixel((3, 3), 1)
    >>> braille_rows(picture)
    ('⠁⢀',)
    """
    picture = image.convert("1")
    width, height = picture.size
    packed = picture.tobytes()
    stride = (width + 7) // 8

    def lit(x: int, y: int) -> bool:
        if x >= width or y >= height:
            return False
        return bool(packed[y * stride + x // 8] >> (7 - x % 8) & 1)

    return tuple(
        "".join(
            chr(0x2800 + sum(bit for dx, dy, bit in _BRAILLE_DOTS if lit(x + dx, y + dy)))
            for x in range(0, width, 2)
        )
        for y in range(0, height, 4)
    )


OLED_LIT = (214, 236, 255)
"""A white OLED's lit pixel at full contrast, slightly cold as the glass looks."""


def oled_colour(contrast: int) -> Color:
    """The lit pixels' colour at the chip's `contrast` (0–255): dimmed, never invisible, as a
    sleeping OLED still shows its picture faintly."""
    level = 0.3 + 0.7 * contrast / 255
    red, green, blue = (round(channel * level) for channel in OLED_LIT)
    return Color(red, green, blue)


GLASS_ROWS = 64 // 4
"""Lines of one glass in braille (four pixel rows a character)."""


class Glass(NamedTuple):
    """One display's glass as drawn: its braille rows in the colour of its contrast."""

    rows: tuple[str, ...]
    colour: Color


class OledView(Static):
    """The OLED, pixel for pixel, in braille: 64 × 16 characters for 128 × 64 pixels; with a
    second display, its glass under the first, as the chip shows it (turned, when it faces the
    other side of the table)."""

    glasses: reactive[tuple[Glass, ...]] = reactive((), repaint=False)
    """Each display's glass, the first on top; drawn again only when one changes."""

    def __init__(self) -> None:
        super().__init__("", id="oled")

    @property
    def rows(self) -> tuple[str, ...]:
        """Every line drawn, a blank one between two glasses."""
        return tuple(row for glass in self.glasses for row in (*glass.rows, ""))[:-1]

    def show(self, image: Image.Image, contrast: int) -> None:
        """Draw the glass: `image` as the chip shows it, at its contrast."""
        self.show_all([(image, contrast)])

    def show_all(self, glasses: Sequence[tuple[Image.Image, int]]) -> None:
        """Draw each display's glass, the first on top, a dark row between them."""
        self.glasses = tuple(
            Glass(braille_rows(image), oled_colour(contrast)) for image, contrast in glasses
        )

    def watch_glasses(self, glasses: tuple[Glass, ...]) -> None:
        text = Text(no_wrap=True)
        for number, glass in enumerate(glasses):
            style = Style(color=glass.colour.rich_color, bgcolor="#000000")
            if number:
                text.append("\n\n")
            text.append("\n".join(glass.rows), style=style)
        self.update(text)


# The console

BUTTON_LABELS = {
    ConsoleButton.DONE: "DONE",
    ConsoleButton.PENALTY: "PENALTY",
    ConsoleButton.UNDO: "UNDO",
    ConsoleButton.NEW: "NEW",
    ConsoleButton.TIMER: "TIMER",
}


class ConsoleKey(Pressable):
    """A console button or the encoder push, to hold with the mouse."""

    def __init__(self, switch: ConsoleButton | EncoderPush, label: str) -> None:
        super().__init__(switch, label, id=f"switch-{switch.value}")


__all__ = [
    "BUTTON_LABELS",
    "GLASS_ROWS",
    "LIGHTS",
    "CardGrid",
    "CardLook",
    "CardView",
    "ConsoleKey",
    "Glass",
    "Knob",
    "KnobTurned",
    "LedCell",
    "LedKeyView",
    "OledView",
    "Pressable",
    "SwitchDown",
    "SwitchUp",
    "braille_rows",
    "oled_colour",
    "screen_colour",
]
