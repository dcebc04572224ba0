"""`codenames-table cafe`: subscribe to the broker and show every table, in the terminal (the
Textual view) or, with `--no-terminal`, only on the web page of `--http` (a server for the
counter's tablet, and the browser test's)."""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import TYPE_CHECKING

from firmware.cafe import texts as t
from firmware.cafe.model import Cafe
from firmware.cafe.subscriber import Subscriber
from firmware.cafe.texts import cafe_text
from firmware.cafe.web import CafeWeb
from firmware.fleet.broker import BrokerAddress, Credentials

if TYPE_CHECKING:
    from firmware.cafe.app import CafeApp

log = logging.getLogger(__name__)


def run_cafe(
    address: BrokerAddress,
    credentials: Credentials,
    listen: tuple[str, int] | None,
    terminal: bool,
    language: str,
) -> int:
    """Run the café in `language` until quit (the terminal view) or SIGTERM/SIGINT
    (`terminal=False`)."""
    cafe = Cafe(language)
    web = CafeWeb(cafe) if listen is not None else None
    if terminal:
        return _run_terminal(cafe, web, address, credentials, listen)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    asyncio.run(_serve(cafe, web, address, credentials, listen))
    return 0


def _run_terminal(
    cafe: Cafe,
    web: CafeWeb | None,
    address: BrokerAddress,
    credentials: Credentials,
    listen: tuple[str, int] | None,
) -> int:
    app, subscriber = terminal_view(cafe, web, address, credentials, listen)
    try:
        app.run()
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
    """The Textual view and its subscription, which starts once the view is up and hands each
    message to the view's loop; the caller runs the app, then closes the subscriber."""
    from firmware.cafe.app import CafeApp

    def ready() -> None:
        subscriber.start()

    app = CafeApp(cafe, web, listen, on_ready=ready)
    app.connection = cafe_text(cafe.catalog, t.CONNECTING, broker=address)
    subscriber = Subscriber(
        address,
        credentials,
        lambda topic, payload: app.call_from_thread(app.receive, topic, payload),
        lambda text: app.call_from_thread(app.connection_changed, text),
        cafe.catalog,
    )
    return app, subscriber


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

    def receive(topic: str, payload: bytes) -> None:
        before = cafe.rejected
        cafe.receive(topic, payload)
        if cafe.rejected != before:
            log.warning("ignored a message: %s", cafe.last_rejection)
        if web is not None:
            web.changed()

    subscriber = Subscriber(
        address,
        credentials,
        lambda topic, payload: loop.call_soon_threadsafe(receive, topic, payload),
        lambda text: loop.call_soon_threadsafe(log.info, "%s", text),
        cafe.catalog,
    )
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
