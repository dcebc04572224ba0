"""The café's terminal view, driven by Textual's pilot: rows appear and change as messages
arrive, and an ignored message is said on the status line."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from textual.widgets import DataTable, Static

from firmware.cafe.app import CafeApp
from firmware.fleet.messages import encode, envelope

from .test_cafe_model import game_payload


def test_rows_follow_the_messages() -> None:
    async def scenario() -> None:
        app = CafeApp()
        async with app.run_test(size=(120, 12)) as pilot:
            app.receive("codenames/t1/status", encode(envelope("t1", 1, status="online")))
            app.receive("codenames/t1/game", game_payload())
            app.receive("codenames/t2/status", encode(envelope("t2", 1, status="offline")))
            await pilot.pause()
            table = app.query_one("#tables", DataTable)
            assert table.row_count == 2
            assert table.get_row("t1")[1] == "online"
            assert "clue 2" in str(table.get_row("t1")[2])
            assert table.get_row("t2")[1] == "OFFLINE"
            app.receive("codenames/t1/events", b"{not json")
            await pilot.pause()
            status = str(app.query_one("#status", Static).render())
            assert "2 tables" in status and "1 messages ignored" in status
            assert "not JSON" in status
            if os.environ.get("CAFE_SCREENSHOT"):
                app.save_screenshot("cafe-terminal.svg", str(Path(__file__).parents[2] / "docs"))
            await pilot.press("q")

    asyncio.run(scenario())
