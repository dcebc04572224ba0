"""The help of the on-screen Coda game: the rules in short and the keys, over the game.

The text scrolls (arrows, Page Up/Down, Home/End, the wheel) where the window is shorter than
it, as in an 80 × 24 terminal. Its look is in `firmware/tui/styles/coda.tcss`.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from firmware.coda.texts import CodaTexts


class HelpScreen(ModalScreen[None]):
    """The rules in short and the keys; Esc, h, ?, q or a click closes it, the arrows scroll it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,h,question_mark,q", "dismiss", show=False)
    ]

    def __init__(self, texts: CodaTexts) -> None:
        super().__init__()
        self.texts = texts

    def compose(self) -> ComposeResult:
        # The frame, not the text, scrolls and carries the border, so that the title and the
        # way out stay in view while the text moves under them.
        frame = VerticalScroll(id="help-frame")
        frame.border_title = self.texts["help_title"]
        frame.border_subtitle = f"Esc: {self.texts['key_close']}"
        with frame:
            yield Static(self.texts["help"], id="help", markup=False)

    def on_click(self) -> None:
        self.dismiss()
