"""The café view against what anyone on the broker may publish: texts shown exactly as sent,
never read as markup nor made clickable; a message that breaks a callback never stops the
subscription (a real Mosquitto); tables and messages bounded, what is dropped counted and said;
the terminal view shows news under 10,000 tables' messages and a flood, and SIGTERM stops it
under a flood (how fast is `make cafe-flood-bench`'s to say)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pty
import signal
import sys
import threading
import time
from pathlib import Path

from textual.widgets import DataTable, Static

from firmware.cafe.app import CafeApp
from firmware.cafe.inbox import Inbox
from firmware.cafe.model import MAX_PAYLOAD, Cafe
from firmware.cafe.run import terminal_view
from firmware.cafe.subscriber import Subscriber
from firmware.fleet.broker import BrokerAddress, Credentials
from firmware.fleet.messages import encode, envelope

from .broker_helpers import WAIT_S, Mosquitto, until
from .test_cafe_app import wait_until
from .test_cafe_model import game_payload
from .test_cafe_web import REPO

MARKUP = ["[/]", "[b]bold[/b]", "[@click=app.quit]quit[/]", "[red on red]hidden"]


def event(table: str, action: str, at: float = 1.0) -> bytes:
    return encode(envelope(table, at, action=action, words=[]))


def test_texts_from_the_broker_are_shown_as_sent_never_as_markup() -> None:
    async def scenario() -> None:
        app = CafeApp()
        async with app.run_test(size=(160, 14)) as pilot:
            app.connection_changed(True, "connected")
            for n, text in enumerate(MARKUP):
                app.receive(f"codenames/t{n}/events", event(f"t{n}", text))
            # A topic level that would be an action on the status line.
            app.receive("codenames/[@click=app.quit]/game", game_payload())
            await pilot.pause()
            table = app.query_one("#tables", DataTable)
            for n, text in enumerate(MARKUP):
                cell = table.get_row(f"t{n}")[-1]
                assert cell.plain == text and not cell.spans  # as sent, unstyled
            status = app.query_one("#status", Static).render()
            assert "codenames/[@click=app.quit]/game: not a table id" in str(status)
            assert app.is_running
            await pilot.press("q")

    asyncio.run(scenario())


def test_a_message_that_breaks_the_callback_never_stops_the_subscription(
    broker: Mosquitto,
) -> None:
    from paho.mqtt import publish

    heard: list[str] = []
    states: list[bool] = []

    def take(topic: str, payload: bytes) -> None:
        heard.append(topic)
        if b"[/]" in payload:
            raise ValueError("a view that cannot show it")

    subscriber = Subscriber(
        BrokerAddress.parse(broker.url), Credentials(), take, lambda up, _: states.append(up)
    )
    subscriber.start()
    try:
        assert until(lambda: states[-1:] == [True])
        publish.single("codenames/t1/game", b'{"schema": "[/]"}', port=broker.port)
        publish.single("codenames/t2/status", b"{}", port=broker.port)
        assert until(lambda: "codenames/t2/status" in heard), heard
        assert subscriber.faults == 1
        assert states[-1] is True
    finally:
        subscriber.close()


def test_the_view_survives_a_hostile_schema_through_a_real_broker(broker: Mosquitto) -> None:
    from paho.mqtt import publish

    async def scenario() -> None:
        app, subscriber = terminal_view(
            Cafe(), None, BrokerAddress.parse(broker.url), Credentials(), None
        )
        try:
            async with app.run_test(size=(160, 14)) as pilot:
                await wait_until(pilot, lambda: app.broker_up)
                publish.single("codenames/t1/game", b'{"schema": "[/]"}', port=broker.port)
                status = encode(envelope("t2", time.time(), status="online"))
                publish.single("codenames/t2/status", status, port=broker.port)
                table = app.query_one("#tables", DataTable)
                await wait_until(pilot, lambda: "t2" in table.rows)
                shown = str(app.query_one("#status", Static).render())
                assert "schema '[/]', not 1" in shown
                assert app.broker_up and subscriber.faults == 0
        finally:
            subscriber.close()

    asyncio.run(scenario())


def test_tables_beyond_the_cap_are_dropped_counted_and_said() -> None:
    cafe = Cafe(max_tables=100)
    for n in range(10_000):
        cafe.inbox.put(f"codenames/t{n}/status", encode(envelope(f"t{n}", 1, status="online")))
    cafe.take()
    assert len(cafe.tables) == 100
    assert cafe.dropped_total == 9_900
    assert "Messages dropped: 9900 (more than 100 tables)" in cafe.summary()
    # A retired table (its retained messages cleared) makes room for another.
    cafe.inbox.put("codenames/t0/status", b"")
    cafe.take()
    assert "t0" not in cafe.tables
    cafe.inbox.put("codenames/t-new/status", encode(envelope("t-new", 1, status="online")))
    cafe.take()
    assert "t-new" in cafe.tables


def test_the_inbox_keeps_only_the_latest_per_topic_and_never_a_large_body() -> None:
    inbox = Inbox(max_tables=10, max_payload=MAX_PAYLOAD)
    assert inbox.put("codenames/t1/events", b"1")  # the first wakes the loop
    assert not inbox.put("codenames/t1/events", b"2")
    assert not inbox.put("codenames/t1/game", b"x" * 10_000_000)
    taken = inbox.take()
    assert [(d.topic, d.payload, d.size) for d in taken] == [
        ("codenames/t1/events", b"2", 1),
        ("codenames/t1/game", b"", 10_000_000),
    ]
    cafe = Cafe()
    assert cafe.receive("codenames/t1/game", b"", size=10_000_000) is None
    assert "10000000 bytes, more than" in cafe.last_rejection
    for n in range(100):  # kinds no table has, under one table id
        inbox.put(f"codenames/t1/kind{n}", b"{}")
    assert len(inbox.take()) == 40 and inbox.dropped == 60


def test_the_terminal_view_shows_news_under_a_flood() -> None:
    """10,000 tables' retained messages, then 1,000 messages a second, handed over as paho's
    thread does; each of a shown table's new actions reaches the screen."""
    cafe = Cafe()
    app = CafeApp(cafe)
    stop = threading.Event()

    def keep(topic: str, payload: bytes) -> None:
        if cafe.inbox.put(topic, payload):
            app.arrived()

    game = json.loads(game_payload())
    retained = [
        (f"codenames/t{n}/{kind}", payload)
        for n in range(10_000)
        for kind, payload in (
            ("status", encode(envelope(f"t{n}", 1, status="online"))),
            ("game", encode(game | {"table": f"t{n}"})),
            ("health", b"{}"),
        )
    ]
    # News for 400 of the 500 tables shown; the one watched is not among them.
    news = [(f"codenames/t{n}/events", event(f"t{n}", f"touch {n}")) for n in range(400)]

    loaded = threading.Event()

    def flood() -> None:
        for topic, payload in retained:
            keep(topic, payload)
        loaded.set()
        n = 0
        while not stop.is_set():
            started = time.monotonic()
            for _ in range(100):
                n += 1
                keep(*news[n % 400])
            time.sleep(max(0.0, 0.1 - (time.monotonic() - started)))  # 1,000 a second

    async def scenario() -> None:
        async with app.run_test(size=(160, 20)) as pilot:
            app.connection_changed(True, "connected")
            feeder = threading.Thread(target=flood)
            feeder.start()
            try:
                table = app.query_one("#tables", DataTable)
                # The retained messages read (each table's bad `health` among them counted),
                # then news timed under the flood.
                await wait_until(pilot, lambda: loaded.is_set() and cafe.rejected >= 500)
                # News is written into the table at most every WRITE_EVERY_S: waited for.
                await wait_until(pilot, lambda: table.row_count == 500)
                # The watched row brought on screen: rows out of sight are written only once
                # they are scrolled into view.
                table.move_cursor(row=table.get_row_index("t450"))
                for n in range(5):
                    sent, news = time.monotonic(), f"clue {n}"
                    keep("codenames/t450/events", event("t450", news))
                    # Looked at every 10 ms on the app's own loop (a pilot's pause would wait
                    # for the flooded app to go idle).
                    while str(table.get_row("t450")[-1]) != news:
                        assert time.monotonic() - sent < WAIT_S
                        await asyncio.sleep(0.01)
                status = app.query_one("#status", Static)
                await wait_until(pilot, lambda: "more than 500 tables" in str(status.render()))
                assert table.row_count == 500  # the cap holds under the flood
            finally:
                stop.set()
                feeder.join(WAIT_S)

    asyncio.run(scenario())


def read_screen(terminal: int, seen: bytearray) -> None:
    """Keep what the view writes on its pseudo-terminal, until it closes."""
    while True:
        try:
            chunk = os.read(terminal, 65536)
        except OSError:
            return
        if not chunk:
            return
        seen.extend(chunk)


def flood_broker(broker: Mosquitto, stop: threading.Event) -> None:
    """About 1,000 messages a second on 700 tables' topics (each ignored: the wrong table)."""
    from paho.mqtt import publish

    n = 0
    while not stop.is_set():
        messages = [
            {"topic": f"codenames/t{(n + k) % 700}/events", "payload": event("t", "x")}
            for k in range(100)
        ]
        n += 100
        publish.multiple(messages, port=broker.port)
        stop.wait(0.1)


def test_sigterm_stops_the_terminal_view_under_a_flood(broker: Mosquitto, tmp_path: Path) -> None:
    """The terminal view in a pseudo-terminal, as on the counter's screen, flooded through a
    real broker: SIGTERM (systemd's stop) ends it, with exit 0 and the terminal given back."""
    command = [sys.executable, "-m", "firmware.cli", "cafe", "--broker", broker.url]
    command += ["--lang", "en", "--record", str(tmp_path / "record.sqlite3")]
    pid, terminal = pty.fork()
    if pid == 0:  # the child: the view, on the pseudo-terminal
        os.chdir(REPO)
        os.environ.update(TERM="xterm-256color", COLUMNS="150", LINES="30")
        os.execv(sys.executable, command)
    seen = bytearray()
    stop = threading.Event()
    threading.Thread(target=read_screen, args=(terminal, seen), daemon=True).start()
    flooding = threading.Thread(target=flood_broker, args=(broker, stop))
    try:
        assert until(lambda: b"connected to" in seen), bytes(seen[-500:])
        flooding.start()
        assert until(lambda: b"Messages ignored" in seen)  # the flood is being taken
        os.kill(pid, signal.SIGTERM)
        ended: list[int] = []

        def exited() -> bool:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                ended.append(status)
            return bool(done)

        assert until(exited)
        # Stopped by the view itself (exit 0), not killed by the signal mid-frame.
        assert os.waitstatus_to_exitcode(ended[0]) == 0
    finally:
        stop.set()
        if flooding.is_alive():
            flooding.join(WAIT_S)
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(terminal)
