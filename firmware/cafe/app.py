"""The café's terminal view (Textual): one row per table, updated as messages arrive, and a line
saying how the broker connection is and which message was last ignored.

The app owns the `Cafe` on its event loop; paho's thread hands each message over with
`call_from_thread`, so the model needs no lock. With `--http`, the web page is served from the
same loop (`firmware.cafe.web`), so both views always show the same rows.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import App, ComposeResult
from textual.widgets import DataTable, Footer, Static

from firmware.cafe import texts as t
from firmware.cafe.model import Cafe
from firmware.cafe.texts import cafe_text
from firmware.cafe.web import CafeWeb


class CafeApp(App[None]):
    """Every table of the café at a glance, in the café's language (`Cafe.language`)."""

    # Textual's palette would speak English only, and a view for the staff has no use for it.
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        cafe: Cafe | None = None,
        web: CafeWeb | None = None,
        listen: tuple[str, int] | None = None,
        on_ready: Callable[[], object] | None = None,
    ) -> None:
        super().__init__()
        self.cafe = Cafe() if cafe is None else cafe
        self.title = self._text(t.TITLE)
        # Bound here, not in BINDINGS: its description is in the café's language.
        self.bind("q", "quit", description=self._text(t.QUIT))
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
        for name, heading in t.HEADINGS.items():
            table.add_column(self._text(heading), key=name)
        self._redraw()
        if self.web is not None and self._listen is not None:
            await self.web.start(*self._listen)
            url = f"http://{self._listen[0]}:{self._listen[1]}/"
            self.notify(self._text(t.WEB_PAGE, url=url))
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
        for row in self.cafe.rows():
            table.add_row(*row.cells(self.cafe.catalog).values(), key=row.table)
        status = " · ".join(filter(None, (self.cafe.summary(), self.connection)))
        self.query_one("#status", Static).update(status)

    def _text(self, message: str, **fields: object) -> str:
        return cafe_text(self.cafe.catalog, message, **fields)
