"""`codenames-table cafe`: subscribe to the broker and show every table, in the terminal (the
Textual view) or, with `--no-terminal`, only on the web page of `--http` (a server for the
counter's tablet, and the browser test's)."""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from firmware.cafe import texts as t
from firmware.cafe.history_page import history_handlers
from firmware.cafe.model import Cafe
from firmware.cafe.record import CafeRecord
from firmware.cafe.subscriber import Subscriber
from firmware.cafe.texts import cafe_text
from firmware.cafe.web import CafeWeb
from firmware.collector import settle_garbage_collector
from firmware.fleet.broker import BrokerAddress, Credentials

if TYPE_CHECKING:
    from firmware.cafe.app import CafeApp

log = logging.getLogger(__name__)

IGNORED_LOG_EVERY_S: Final = 60.0


@dataclass(frozen=True)
class PageOptions:
    """How the web page is served: where, under which names, with which token."""

    listen: tuple[str, int]
    names: tuple[str, ...] = ()
    token: str | None = None


def run_cafe(
    address: BrokerAddress,
    credentials: Credentials,
    page: PageOptions | None,
    terminal: bool,
    language: str,
    *,
    record_path: Path | None = None,
) -> int:
    """Run the café in `language` until quit (the terminal view) or SIGTERM/SIGINT
    (`terminal=False`), keeping every finished game in the record at `record_path`."""
    cafe = Cafe(language)
    record = None if record_path is None else CafeRecord(record_path)
    if record is not None:
        cafe.on_finished = record.finished
    web = None
    if page is not None:
        history, history_csv = (None, None) if record is None else history_handlers(cafe, record)
        web = CafeWeb(
            cafe, names=page.names, token=page.token, history=history, history_csv=history_csv
        )
    listen = None if page is None else page.listen
    try:
        if terminal:
            return run_terminal(cafe, web, address, credentials, listen)
        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
        # What start-up built (modules, catalogs, the view) stays out of later collections: under
        # a flood a full one would hold the loop and paho's thread alike.
        settle_garbage_collector()
        asyncio.run(_serve(cafe, web, address, credentials, listen))
    finally:
        if record is not None:
            record.close()
    return 0


def run_terminal(
    cafe: Cafe,
    web: CafeWeb | None,
    address: BrokerAddress,
    credentials: Credentials,
    listen: tuple[str, int] | None,
    *,
    headless: bool = False,
) -> int:
    """The terminal view until `q` or SIGTERM (`headless`: drawn nowhere, as a benchmark runs
    it)."""
    app, subscriber = terminal_view(cafe, web, address, credentials, listen)
    settle_garbage_collector()

    def stop_on_signal() -> None:
        # SIGTERM (systemd's stop) ends the view as `q` does, terminal restored.
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, app.exit)

    app.call_later(stop_on_signal)
    try:
        app.run(headless=headless)
    finally:
        subscriber.close()
    return 0


def terminal_view(
    cafe: Cafe,
    web: CafeWeb | None,
    address: BrokerAddress,
    credentials: Credentials,
    listen: tuple[str, int] | None,
) -> tuple[CafeApp, Subscriber]:
    """The Textual view and its subscription, which starts once the view is up and leaves each
    message in the café's inbox, waking the view; the caller runs the app, then closes the
    subscriber."""
    from firmware.cafe.app import CafeApp

    def ready() -> None:
        subscriber.start()

    def keep(topic: str, payload: bytes) -> None:
        if cafe.inbox.put(topic, payload):
            app.arrived()

    app = CafeApp(cafe, web, listen, on_ready=ready)
    cafe.broker(False, cafe_text(cafe.catalog, t.CONNECTING, broker=address))
    subscriber = Subscriber(address, credentials, keep, app.connection_changed, cafe.catalog)
    return app, subscriber


class IgnoredLog:
    """One log line for messages turned away, at most every `every_s` seconds, saying how many
    since the last line: a flood of bad messages must not fill the journal."""

    def __init__(self, every_s: float = IGNORED_LOG_EVERY_S) -> None:
        self.every_s = every_s
        self._logged_at = -every_s
        self._logged = 0

    def seen(self, cafe: Cafe, now: float) -> None:
        """Log the messages `cafe` turned away since the last line, when it is time."""
        if cafe.rejected > self._logged and now - self._logged_at >= self.every_s:
            log.warning(
                "ignored %d message(s), the latest: %s",
                cafe.rejected - self._logged,
                cafe.last_rejection,
            )
            self._logged, self._logged_at = cafe.rejected, now


async def _serve(
    cafe: Cafe,
    web: CafeWeb | None,
    address: BrokerAddress,
    credentials: Credentials,
    listen: tuple[str, int] | None,
) -> None:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    ignored = IgnoredLog()

    def take() -> None:
        cafe.take()
        ignored.seen(cafe, time.monotonic())
        if web is not None:
            web.changed()

    def keep(topic: str, payload: bytes) -> None:
        if cafe.inbox.put(topic, payload):
            loop.call_soon_threadsafe(take)

    def broker(up: bool, text: str) -> None:
        cafe.broker(up, text)
        log.info("%s", text)
        if web is not None:
            web.changed()

    subscriber = Subscriber(
        address,
        credentials,
        keep,
        lambda up, text: loop.call_soon_threadsafe(broker, up, text),
        cafe.catalog,
    )
    cafe.broker(False, cafe_text(cafe.catalog, t.CONNECTING, broker=address))
    if web is not None and listen is not None:
        await web.start(*listen)
        log.info("web page on http://%s:%d/", *listen)
    subscriber.start()
    try:
        await stop.wait()
    finally:
        subscriber.close()
        if web is not None:
            await web.close()
