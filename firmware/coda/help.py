"""The help of the on-screen Coda game: the rules in short and the keys, over the game.

Its look is in `firmware/tui/styles/coda.tcss`.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Static

from firmware.coda.texts import CodaTexts


class HelpScreen(ModalScreen[None]):
    """The rules in short and the keys; Esc, h, ?, q or a click closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,h,question_mark,q", "dismiss", show=False)
    ]

    def __init__(self, texts: CodaTexts) -> None:
        super().__init__()
        self.texts = texts

    def compose(self) -> ComposeResult:
        help_text = Static(self.texts["help"], id="help", markup=False)
        help_text.border_title = self.texts["help_title"]
        help_text.border_subtitle = f"Esc: {self.texts['key_close']}"
        yield help_text

    def on_click(self) -> None:
        self.dismiss()
