"""The café's terminal view (Textual): one row per table, updated as messages arrive, and a line
saying how the broker connection is and which message was last ignored.

The app owns the `Cafe` on its event loop; paho's thread hands each message over with
`call_from_thread`, so the model needs no lock. With `--http`, the web page is served from the
same loop (`firmware.cafe.web`), so both views always show the same rows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.widgets import DataTable, Footer, Static

from firmware.cafe.model import Cafe
from firmware.cafe.web import CafeWeb

COLUMNS = ("table", "online", "state", "score", "health", "last")
HEADINGS = ("Table", "Online", "Game", "Score", "Health", "Last action")


class CafeApp(App[None]):
    """Every table of the café at a glance."""

    TITLE = "Codenames café"
    BINDINGS: ClassVar[list[BindingType]] = [("q", "quit", "Quit")]

    def __init__(
        self,
        cafe: Cafe | None = None,
        web: CafeWeb | None = None,
        listen: tuple[str, int] | None = None,
        on_ready: Callable[[], object] | None = None,
    ) -> None:
        super().__init__()
        self.cafe = Cafe() if cafe is None else cafe
        self.web = web
        self._listen = listen
        self._on_ready = on_ready
        self.connection = ""

    def compose(self) -> ComposeResult:
        yield DataTable(id="tables", cursor_type="row", zebra_stripes=True)
        yield Static(id="status")
        yield Footer()

    async def on_mount(self) -> None:
        table = self.query_one("#tables", DataTable)
        for name, heading in zip(COLUMNS, HEADINGS, strict=True):
            table.add_column(heading, key=name)
        self._redraw()
        if self.web is not None and self._listen is not None:
            await self.web.start(*self._listen)
            self.notify(f"web page on http://{self._listen[0]}:{self._listen[1]}/")
        if self._on_ready is not None:
            self._on_ready()

    async def on_unmount(self) -> None:
        if self.web is not None:
            await self.web.close()

    def receive(self, topic: str, payload: bytes) -> None:
        """Take one message (on the app's loop: paho's thread uses `call_from_thread`)."""
        if self.cafe.receive(topic, payload) is not None or self.cafe.rejected:
            self._redraw()
            if self.web is not None:
                self.web.changed()

    def connection_changed(self, text: str) -> None:
        """The broker connection, in words."""
        self.connection = text
        self._redraw()

    def _redraw(self) -> None:
        table = self.query_one("#tables", DataTable)
        table.clear()
        for name in sorted(self.cafe.tables):
            cells = self.cafe.tables[name].cells()
            table.add_row(*(cells[column] for column in COLUMNS), key=name)
        status = f"{len(self.cafe.tables)} tables · {self.connection}"
        if self.cafe.rejected:
            status += f" · {self.cafe.rejected} messages ignored, last: {self.cafe.last_rejection}"
        self.query_one("#status", Static).update(status)
