"""The café's terminal view (Textual): one row per table, those needing a look first, updated
as messages arrive, and lines saying how the broker is and which message was last ignored.

The app owns the `Cafe` on its event loop; paho's thread only stores each message in the café's
inbox and, for the first since the last look, posts `Arrived` (thread-safe, never waiting), so
a flood costs one pass per wake-up and the model needs no lock. Only the cells that changed are
written, in the rows on screen (a row out of sight is written once it is scrolled into view).
Every text from the broker is shown as plain text (`rich.text.Text`), never read as markup.
With `--http`, the web page is served from the same loop (`firmware.cafe.web`), so both views
always show the same rows.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.css.query import NoMatches
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable, Footer, Static

from firmware.cafe import texts as t
from firmware.cafe.model import Cafe
from firmware.cafe.texts import cafe_text
from firmware.cafe.web import CafeWeb
from firmware.tui.style import StyledApp, style_sheets

TICK_S = 1.0
"""How often the times (game length, idle) are brought up to date."""
WRITE_EVERY_S = 0.5
"""News is written into the table at most this often: Textual repaints every row on screen
for any cell written, so a flood costs two repaints a second (and the tick's), not one per
message."""


class CafeApp(StyledApp):
    """Every table of the café at a glance, in the café's language (`Cafe.language`)."""

    # Textual's palette would speak English only, and a view for the staff has no use for it.
    ENABLE_COMMAND_PALETTE = False
    CSS_PATH = style_sheets("cafe.tcss")

    status: reactive[str] = reactive("")
    """The status line: tables, messages dropped or ignored."""
    connection: reactive[str] = reactive("")
    """The broker's state in words."""
    broker_up: reactive[bool] = reactive(False)

    class Arrived(Message):
        """Messages wait in the café's inbox."""

    class BrokerChanged(Message):
        """The subscriber's news of the broker."""

        def __init__(self, up: bool, text: str) -> None:
            super().__init__()
            self.up = up
            self.text = text

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
        self._waiting: set[str] = set()
        """Tables whose news waits for the next write."""
        self._written = 0.0
        """When news was last written (the loop's clock)."""
        self._write_due = False
        self._shown: dict[str, tuple[str, ...]] = {}
        """Each row's cells as written in the table, to write only what changed."""
        self._order: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static(id="broker")
        yield DataTable(id="tables", cursor_type="row", zebra_stripes=True)
        yield Static(id="status")
        yield Footer()

    async def on_mount(self) -> None:
        table = self.query_one("#tables", DataTable)
        for name, heading in t.HEADINGS.items():
            table.add_column(self._text(heading), key=name)
        self._refresh()
        self.set_interval(TICK_S, self._tick)
        if self.web is not None and self._listen is not None:
            await self.web.start(*self._listen)
            url = f"http://{self._listen[0]}:{self._listen[1]}/"
            self.notify(self._text(t.WEB_PAGE, url=url), markup=False)
        if self._on_ready is not None:
            self._on_ready()

    async def on_unmount(self) -> None:
        if self.web is not None:
            await self.web.close()

    def receive(self, topic: str, payload: bytes) -> None:
        """Take one message now (on the app's loop)."""
        table = self.cafe.receive(topic, payload)
        self._refresh(set() if table is None else {table})

    def on_cafe_app_arrived(self, message: Arrived) -> None:
        self._waiting |= self.cafe.take()
        if self.web is not None:
            # The page has its own pace; it does not wait for the table's next write.
            self.web.changed()
        if self._write_due:
            return
        wait = self._written + WRITE_EVERY_S - self._loop_time()
        if wait <= 0:
            self._write_news()
        else:
            self._write_due = True
            self.set_timer(wait, self._write_news)

    def _write_news(self) -> None:
        self._write_due = False
        self._written = self._loop_time()
        try:
            table = self.query_one("#tables", DataTable)
        except NoMatches:
            return
        # Only the rows on screen (and new ones) are written now: a cell written anywhere
        # makes the table paint every row it shows again, so news of rows out of sight waits
        # until they are scrolled into view (the tick writes the rows shown).
        shown = self._on_screen(table) | (self._waiting - self._shown.keys())
        self._refresh(self._waiting & shown)
        self._waiting -= shown

    def _loop_time(self) -> float:
        return asyncio.get_running_loop().time()

    def on_cafe_app_broker_changed(self, message: BrokerChanged) -> None:
        self.cafe.broker(message.up, message.text)
        self._refresh()

    def connection_changed(self, up: bool, text: str) -> None:
        """The broker's state, from any thread."""
        self.post_message(self.BrokerChanged(up, text))

    def arrived(self) -> None:
        """Messages wait in the café's inbox; from any thread."""
        self.post_message(self.Arrived())

    def watch_connection(self, old: str, text: str) -> None:
        for line in self.query("#broker").results(Static):
            line.update(Text(text), layout=not same_shape(old, text))

    def watch_broker_up(self, up: bool) -> None:
        for line in self.query("#broker").results(Static):
            line.set_class(not up, "down")

    def watch_status(self, old: str, text: str) -> None:
        for line in self.query("#status").results(Static):
            line.update(Text(text), layout=not same_shape(old, text))

    def _tick(self) -> None:
        """The times move: the rows on screen are worded again (a row scrolled into view is
        at most a tick behind), so that hundreds of tables cost a screenful per second."""
        try:
            table = self.query_one("#tables", DataTable)
        except NoMatches:
            return
        shown = self._on_screen(table)
        self._waiting -= shown
        self._refresh(shown)

    def _on_screen(self, table: DataTable[Text]) -> set[str]:
        """The tables whose rows the table shows now."""
        first = int(table.scroll_y)
        return {str(row.key.value) for row in table.ordered_rows[first : first + table.size.height]}

    def _refresh(self, changed: set[str] | None = None) -> None:
        """Bring the rows (all, or only the `changed` tables'), their order and the lines up to
        date, writing only the cells that changed."""
        try:
            table = self.query_one("#tables", DataTable)
        except NoMatches:  # news before the view is composed, or after it closed
            return
        with self.batch_update():  # one repaint for all the cells written
            self._write_rows(table, changed)
        cafe = self.cafe
        self.status = cafe.summary()
        self.connection = cafe.broker_line()
        self.broker_up = cafe.broker_up
        if self.web is not None:
            self.web.changed()

    def _write_rows(self, table: DataTable[Text], changed: set[str] | None) -> None:
        """Add, change and remove rows as the café's tables did, and sort them when the order
        changed."""
        cafe = self.cafe
        catalog, now = cafe.catalog, cafe.clock()
        for gone in self._shown.keys() - cafe.tables.keys():
            table.remove_row(gone)
            del self._shown[gone]
        names = cafe.tables.keys() if changed is None else changed & cafe.tables.keys()
        for name in names:
            cells = tuple(cafe.tables[name].cells(catalog, now, cafe.broker_up).values())
            before = self._shown.get(name)
            if before is None:
                table.add_row(*map(Text, cells), key=name)
            else:
                for column, old, new in zip(t.HEADINGS, before, cells, strict=True):
                    if old != new:
                        table.update_cell(name, column, Text(new))
            self._shown[name] = cells
        order = [row.table for row in cafe.rows()]
        if order != self._order:
            rank = {name: n for n, name in enumerate(order)}
            table.sort("table", key=lambda cell: rank[cell.plain])
            self._order = order

    def _text(self, message: str, **fields: object) -> str:
        return cafe_text(self.cafe.catalog, message, **fields)


def same_shape(old: str, new: str) -> bool:
    """Whether `new` differs from `old` only in digits written over digits (a count that
    grew): it wraps as `old` did, so the screen's layout need not be worked out again (which
    would paint the table's rows again too)."""
    return len(old) == len(new) and all(
        a == b or (a.isdigit() and b.isdigit()) for a, b in zip(old, new, strict=True)
    )
