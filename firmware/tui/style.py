"""The look shared by the terminal apps, the desktop simulation, the Coda game and the café
view: one palette and the style sheets in `firmware/tui/styles/`.

The colours are named once here and handed to Textual as theme variables, so the `.tcss` files
say `$console-gold` rather than a hex code; an app adds its own numbers to them (the Coda board's
widths, which its Python code also needs). Every style sheet lives in a `.tcss` file, none in a
Python string: the widgets of both apps carry no default CSS of their own and take their look
from the style sheets of the app that shows them.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path, PurePath
from typing import Final

from textual.app import App

STYLES: Final = Path(__file__).parent / "styles"
"""The style sheets, shipped as package data."""

PALETTE: Final[Mapping[str, str]] = {
    "console-backdrop": "#15171c",
    "console-frame": "#5a606c",
    "console-label": "#c8ccd4",
    "console-text": "#f0f0f0",
    "console-faint": "#9aa0ab",
    "console-dim": "#6b7280",
    "console-gold": "#ffd24a",
    "console-alarm": "#ff6666",
    "console-ink": "#141414",
    "console-key": "#30343c",
    "console-key-edge": "#50555f",
    "console-key-hover": "#8a92a0",
    "tile-black": "#1b1b1f",
    "tile-black-ink": "#f2f2f2",
    "tile-white": "#ecebe6",
}
"""Every colour of the terminal apps' shared look: the panels' backdrop, frames and labels, the
highlight (`console-gold`), what staff must act on (`console-alarm`, the café web page's red for
an offline table), the keys, and the two colours of a Coda tile (with their ink)."""


def style_sheets(*names: str) -> list[str | PurePath]:
    """An app's `CSS_PATH`: the shared `console.tcss`, then its own sheets (`names`, in
    `firmware/tui/styles/`). Absolute paths, as Textual reads relative ones beside the app's
    module."""
    return [STYLES / name for name in ("console.tcss", *names)]


class StyledApp(App[None]):
    """A Textual app whose style sheets may use the palette; it names them in its `CSS_PATH`
    with `style_sheets`."""

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {**super().get_theme_variable_defaults(), **PALETTE, **self.style_numbers()}

    @classmethod
    def style_numbers(cls) -> Mapping[str, str]:
        """Numbers the app's style sheets share with its code, as theme variables."""
        return {}
