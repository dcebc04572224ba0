"""Widgets of the on-screen Coda game: tiles, the value keys and the pool's two piles.

They draw only what they are handed (a `firmware.coda.scene.TileFace`, a value, a count) and
report clicks as messages (`TileClicked`, `ValueClicked`, `PileClicked`); `firmware.coda.app`
decides what a click means in the phase of the game. A tile's look is in CSS classes, so that
the style sheet (`firmware/tui/styles/coda.tcss`, which holds every rule of these widgets) draws it
and tests can read it: `-black`/`-white` (also marked on the face by a filled or an empty
circle, for a screen or an eye without colour), `-back` (a hidden tile of someone else: its colour
only), `-mine` (the person's own hidden tile, its number seen only by them), `-up` (face up),
`-selected` (under the cursor), `-placing` (the tile being put into the row).
"""

from __future__ import annotations

from typing import Final

from textual import events
from textual.message import Message
from textual.widgets import Static

from board_rules.coda import DASH, Color, Value
from firmware.coda.scene import TileFace

TILE_WIDTH: Final = 7
"""A tile's width on screen, frame included: room for a two-digit label on its frame."""
FACE_DASH: Final = "—"
"""How a dash shows on a tile and a key: wider than a hyphen, so it reads as a tile face."""


COLOUR_MARKS: Final = {Color.BLACK: "●", Color.WHITE: "○"}
"""A tile's colour as a shape, before its face: read without telling colours apart."""


def face_text(value: Value | None) -> str:
    """The face of a tile: its number, the dash, or nothing for a tile seen from the back."""
    if value is None:
        return ""
    return FACE_DASH if value == DASH else str(value)


def marked_face(color: Color, value: Value | None) -> str:
    """A tile's face after the mark of its colour: `●7`, `○—`, `●` for a black back."""
    return COLOUR_MARKS[color] + face_text(value)


class TileClicked(Message):
    """A tile was clicked: `player`'s row at `index`, or its drawn tile (`index` None)."""

    def __init__(self, player: int, index: int | None) -> None:
        self.player = player
        self.index = index
        super().__init__()


class ValueClicked(Message):
    """A value key was clicked."""

    def __init__(self, value: Value) -> None:
        self.value = value
        super().__init__()


class PileClicked(Message):
    """One of the pool's piles was clicked."""

    def __init__(self, color: Color) -> None:
        self.color = color
        super().__init__()


class TileView(Static):
    """One tile of a row, or a drawn tile; hidden (`display: none`) when it shows nothing."""

    _LOOKS: Final = ("-black", "-white", "-back", "-mine", "-up", "-selected", "-placing")

    def __init__(self, player: int, index: int | None, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.player = player
        self.index = index
        self.face: TileFace | None = None
        self.display = False

    def show(self, face: TileFace | None) -> None:
        """Draw `face`, or nothing at all (None). Only a change repaints."""
        if face == self.face:
            return
        self.face = face
        self.display = face is not None
        if face is None:
            return
        looks = {
            "-black": face.color is Color.BLACK,
            "-white": face.color is Color.WHITE,
            "-back": face.value is None,
            "-mine": face.value is not None and not face.revealed,
            "-up": face.revealed,
            "-selected": face.selected,
            "-placing": face.placing,
        }
        for name in self._LOOKS:
            self.set_class(looks[name], name)
        self.border_title = "" if face.label is None else str(face.label)
        self.update(marked_face(face.color, face.value))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        if self.face is not None:
            self.post_message(TileClicked(self.player, self.index))


class ValueKey(Static):
    """A value to name in an attack: 0–11, or the dash."""

    def __init__(self, value: Value, *, id: str | None = None) -> None:
        super().__init__(face_text(value), id=id)
        self.value = value

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(ValueClicked(self.value))


class PileView(Static):
    """One colour's face-down tiles in the pool, with how many are left."""

    def __init__(self, color: Color, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.color = color
        self.add_class(f"-{color.value}")

    def show(self, text: str, count: int) -> None:
        """Write the pile's label; an empty pile looks struck out."""
        self.set_class(count == 0, "-empty")
        if str(self.content) != text:
            self.update(text)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(PileClicked(self.color))
