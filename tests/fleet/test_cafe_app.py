"""The café's terminal view, driven by Textual's pilot: rows appear and change as messages
arrive, an ignored message is said on the status line, and every text of the view is in the
café's language."""

from __future__ import annotations

import asyncio
import os
import random
import time
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Static
from textual.widgets._footer import FooterKey
from textual.widgets.data_table import ColumnKey

from board_rules.codenames import Mode
from firmware.cafe.app import CafeApp, same_shape
from firmware.cafe.model import Cafe
from firmware.cafe.run import terminal_view
from firmware.cafe.texts import UNREACHABLE, cafe_text
from firmware.fleet.broker import BrokerAddress, Credentials
from firmware.fleet.messages import encode, envelope, status_fields
from firmware.table.i18n import translations
from firmware.virtual.table import VirtualTable

from ..pilot_waits import wait_until
from ..table_scripts import STILL, announce
from .broker_helpers import Mosquitto
from .test_cafe_model import game_payload
from .test_cafe_web_staff import HEALTHY, game
from .test_publisher import publisher_for


def test_rows_follow_the_messages() -> None:
    async def scenario() -> None:
        app = CafeApp()
        async with app.run_test(size=(150, 14)) as pilot:
            app.connection_changed(True, "connected to mqtt://127.0.0.1")
            app.receive("codenames/t1/status", encode(envelope("t1", 1, status="online")))
            app.receive("codenames/t1/game", game_payload())
            app.receive("codenames/t2/status", encode(envelope("t2", 1, status="offline")))
            await pilot.pause()
            table = app.query_one("#tables", DataTable)
            assert table.row_count == 2
            assert str(table.get_row("t1")[1]) == "online"
            assert "clue 2" in str(table.get_row("t1")[3])
            assert str(table.get_row("t2")[1]).startswith("OFFLINE since ")
            app.receive("codenames/t1/events", b"{not json")
            await pilot.pause()
            status = str(app.query_one("#status", Static).render())
            assert "Tables: 2" in status and "Messages ignored: 1" in status
            assert "not JSON" in status
            if os.environ.get("CAFE_SCREENSHOT"):
                await several_tables(app, pilot)
                app.save_screenshot("cafe-terminal.svg", str(Path(__file__).parents[2] / "docs"))
            await pilot.press("q")

    asyncio.run(scenario())


def test_news_of_a_row_out_of_sight_is_written_when_it_comes_into_view() -> None:
    def event(table: str, action: str) -> None:
        payload = encode(envelope(table, time.time(), action=action, words=[]))
        if app.cafe.inbox.put(f"codenames/{table}/events", payload):
            app.arrived()

    app = CafeApp()

    async def scenario() -> None:
        async with app.run_test(size=(150, 12)) as pilot:
            tables = [f"t{n:02d}" for n in range(30)]
            for table in tables:
                event(table, "clue 1")
            grid = app.query_one("#tables", DataTable)
            await wait_until(pilot, lambda: grid.row_count == 30, "30 rows")
            first, last = tables[0], tables[-1]
            assert first in app._on_screen(grid) and last not in app._on_screen(grid)
            event(first, "touch A1")
            event(last, "touch E5")
            await wait_until(pilot, lambda: str(grid.get_row(first)[-1]) == "touch A1", "touch A1")
            # The page knows both at once; the table wrote only the row it shows.
            assert app.cafe.tables[last].last_event == "touch E5"
            assert str(grid.get_row(last)[-1]) == "clue 1"
            grid.scroll_end(animate=False)
            await wait_until(pilot, lambda: str(grid.get_row(last)[-1]) == "touch E5", "touch E5")
            await pilot.press("q")

    asyncio.run(scenario())


def test_a_count_written_over_keeps_the_lines_shape() -> None:
    assert same_shape("Tables: 500 · dropped: 41", "Tables: 500 · dropped: 97")
    assert not same_shape("Tables: 500 · dropped: 99", "Tables: 500 · dropped: 100")
    assert not same_shape("connected to a", "connected to b")


async def several_tables(app: CafeApp, pilot: Pilot[None]) -> None:
    """A busy evening, for the screenshot: games in play in both modes, a stuck pad, a table
    stopped and one vanished."""
    now = time.time()
    for table, kind, fields in (
        ("t1", "game", game(Mode.STANDARD, ["clue 2", "touch E3"], 1, now - 400)),
        ("t1", "health", HEALTHY | {"events_dropped": 0, "cpu_temp_c": 51.0}),
        ("t3", "status", status_fields(online=True)),
        ("t3", "game", game(Mode.COOP, ["clue 1"], 2, now - 90)),
        ("t3", "health", HEALTHY | {"stuck_pads": ["C3"], "events_dropped": 0}),
        ("t4", "status", status_fields(online=False, stopped=True)),
        ("t4", "game", game(Mode.STANDARD, [], 3, None)),
    ):
        app.receive(f"codenames/{table}/{kind}", encode(envelope(table, now, **fields)))
    await pilot.pause()


VIEW = {
    "en": ("Codenames café", "Quit", "Last action", "online", "Tables: 1", "connecting to"),
    "es": ("Café Codenames", "Salir", "Última jugada", "conectada", "Mesas: 1", "conectando con"),
    "pt": ("Café Codenames", "Sair", "Última jogada", "ligada", "Mesas: 1", "a ligar a"),
    "it": ("Caffè Codenames", "Esci", "Ultima mossa", "connesso", "Tavoli: 1", "connessione a"),
}
"""Per language: the title, the footer's quit, the last heading, a table online, the status
line and the connection's first words."""


@pytest.mark.parametrize("language", VIEW)
def test_the_view_speaks_the_cafes_language(language: str) -> None:
    title, quit_, heading, online, tables, connecting = VIEW[language]

    async def scenario() -> None:
        app, subscriber = terminal_view(
            Cafe(language), None, BrokerAddress.parse("mqtt://127.0.0.1:9"), Credentials(), None
        )
        empty = Cafe(language).summary()
        # Not started: the subscriber only words the connection here.
        async with app.run_test(size=(132, 12)) as pilot:
            status = app.query_one("#status", Static)
            broker = app.query_one("#broker", Static)
            # The connection's words: "connecting" until paho's first attempt fails (nothing
            # listens on port 9), then "cannot reach": both in the café's language.
            unreachable = cafe_text(
                translations(language), UNREACHABLE, broker="mqtt://127.0.0.1:9"
            )
            connection = (f"{connecting} mqtt://127.0.0.1:9", unreachable)
            assert str(status.render()) == empty
            assert str(broker.render()).startswith(connection)
            app.receive("codenames/t1/status", encode(envelope("t1", 1, status="online")))
            await pilot.pause()
            table = app.query_one("#tables", DataTable)
            assert str(table.columns[ColumnKey("last")].label) == heading
            app.connection_changed(True, "")
            # The broker's news goes through the app's queue: waited for, not one pause.
            await wait_until(pilot, lambda: str(table.get_row("t1")[1]) == online)
            await wait_until(pilot, lambda: str(status.render()) == tables)
            assert app.title == title

            # The footer offers quitting, and nothing of Textual's own (its words are English);
            # Textual composes its keys after the screen's bindings settle, so it is waited for.
            def footer() -> list[str]:
                return [key.description for key in app.screen.query(FooterKey)]

            await wait_until(pilot, lambda: bool(footer()))
            assert footer() == [quit_]
            await pilot.press("q")
        subscriber.close()

    asyncio.run(scenario())


def test_the_view_follows_a_table_through_a_real_broker(broker: Mosquitto, tmp_path: Path) -> None:
    async def scenario() -> None:
        app, subscriber = terminal_view(
            Cafe(), None, BrokerAddress.parse(broker.url), Credentials(), None
        )
        try:
            async with app.run_test() as pilot:
                await wait_until(pilot, lambda: app.broker_up)
                with (
                    VirtualTable(STILL, tmp_path / "state", rng=random.Random(2)) as vt,
                    publisher_for(broker, tmp_path) as publisher,
                ):
                    publisher.show(vt.table.state, vt.table.match_score)
                    vt.table.observer = publisher
                    announce(vt, detents=2)
                    table = app.query_one("#tables", DataTable)
                    await wait_until(pilot, lambda: "clue 3" in _row(table, "table-3"))
                    # The status and the game are separate messages, each passing through the
                    # app's queue, so the row may show the game a moment before it shows online.
                    await wait_until(pilot, lambda: "online" in _row(table, "table-3"))
                await wait_until(pilot, lambda: "OFFLINE" in _row(table, "table-3"))
        finally:
            subscriber.close()

    asyncio.run(scenario())


def _row(table: DataTable[str], key: str) -> str:
    return " ".join(map(str, table.get_row(key))) if key in table.rows else ""
