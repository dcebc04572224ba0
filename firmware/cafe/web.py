"""The café's read-only web page (aiohttp): `/` shows every table and keeps up by server-sent
events from `/events`, each a snapshot of `Cafe.snapshot()`; no page reload, no input taken, in
the café's language (`<html lang>` says which).

What a hostile network or broker could do to it is bounded: the script is a file of its own
(`/cafe.js`) under a Content-Security-Policy that allows no inline script nor framing; every
text is written with `textContent`, never as markup; a request must name this server in its
`Host` (no DNS rebinding); a connection that has not sent its request headers within
`HEADER_TIMEOUT_S` is closed, and so are the oldest such beyond `MAX_CONNECTIONS`; at most
`MAX_LISTENERS` pages follow at once; snapshots go out at most every `SEND_EVERY_S`, however
many messages arrive; the `Server` header names no version. Served beyond loopback, the page
asks for the café's token (`?token=`, then a cookie; or `Authorization: Bearer`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import json
from collections.abc import Awaitable, Callable, Iterable
from html import escape
from string import Template
from typing import Final

from aiohttp import web

from firmware.cafe import texts as t
from firmware.cafe.model import Cafe
from firmware.cafe.texts import cafe_text

HEADER_TIMEOUT_S: Final = 10.0
"""Longest a connection may take to send its request's headers (a slow-loris is closed)."""
KEEPALIVE_S: Final = 15.0
"""An idle kept-alive connection is closed after this."""
MAX_CONNECTIONS: Final = 200
"""Connections beyond this that have not sent a request yet are closed at once."""
MAX_LISTENERS: Final = 64
"""Pages following at once; one more is told to come back later (503)."""
SEND_EVERY_S: Final = 0.25
"""Snapshots go out at most this often: a flood of messages costs one snapshot per period."""
TICK_S: Final = 1.0
"""A snapshot goes out at least this often, for the times (game length, idle)."""
COOKIE: Final = "cafe_token"

SECURITY_HEADERS: Final = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "Server": "codenames-cafe",
}
"""Sent with every answer; `Server` replaces aiohttp's, which names its version."""

PAGE: Final = Template("""<!doctype html>
<html lang="$lang"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title</title>
<link rel="stylesheet" href="cafe.css">
<script src="cafe.js" defer></script>
</head>
<body><h1>$title</h1>
<p id="broker" class="$broker_class">$broker</p>
<table><thead><tr>$headings</tr></thead>
<tbody id="tables" data-columns="$columns"></tbody></table>
<p id="status" data-reconnecting="$reconnecting">$status</p>
<p id="links"><a href="history">$history</a></p>
</body></html>
""")
"""The page, its texts filled in the café's language by `page`: the script words nothing itself,
every text it writes comes from the server (the snapshot's, or the page's `data-` attributes)."""

STYLE: Final = """
body { font-family: sans-serif; margin: 1em; background: #111; color: #eee; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #444; padding: .4em .6em; text-align: left; }
td.table, td.mode { white-space: nowrap; }
td.offline { color: #f66; font-weight: bold; }
td.problem { color: #fc4; font-weight: bold; }
tr.alert td.table { border-left: .3em solid #fc4; }
#broker { padding: .4em .6em; background: #234; }
#broker.down { background: #811; color: #fff; font-weight: bold; }
#status { color: #999; margin-top: 1em; }
a { color: #9cf; }
.board { display: grid; grid-template-columns: repeat(5, .9em); gap: 2px; }
.board span { width: .9em; height: .6em; background: #555; border-radius: 1px; }
.board span.red { background: #d33; }
.board span.blue { background: #38f; }
.board span.bystander { background: #dcb; }
.board span.assassin { background: #000; outline: 1px solid #eee; }
"""

SCRIPT: Final = """"use strict";
const IDENTITIES = ["red", "blue", "bystander", "assassin"];
function board(cards) {
  const grid = document.createElement("div");
  grid.className = "board";
  for (const card of cards || []) {
    const span = document.createElement("span");
    if (IDENTITIES.includes(card)) span.classList.add(card);
    grid.appendChild(span);
  }
  return grid;
}
function show(snapshot) {
  const body = document.getElementById("tables");
  const columns = JSON.parse(body.dataset.columns);
  const broker = document.getElementById("broker");
  broker.textContent = snapshot.broker.text;
  broker.className = snapshot.broker.up ? "up" : "down";
  const rows = [];
  for (const row of snapshot.tables) {
    const tr = document.createElement("tr");
    tr.id = "table-" + row.id;
    if (row.alert) tr.className = "alert";
    row.cells.forEach((text, i) => {
      const td = document.createElement("td");
      td.textContent = text;
      td.className = columns[i];
      if (columns[i] === "online" && row.offline) td.classList.add("offline");
      if (columns[i] === "health" && row.problem) td.classList.add("problem");
      tr.appendChild(td);
    });
    const picture = document.createElement("td");
    picture.className = "picture";
    if (row.board) picture.appendChild(board(row.board));
    tr.appendChild(picture);
    rows.push(tr);
  }
  body.replaceChildren(...rows);
  document.getElementById("status").textContent = snapshot.status;
}
const source = new EventSource("events");
source.onmessage = (event) => show(JSON.parse(event.data));
source.onerror = () => {
  const status = document.getElementById("status");
  status.textContent = status.dataset.reconnecting;
};
"""


def page(cafe: Cafe) -> str:
    """The page in `cafe`'s language, showing its status line until the first snapshot."""
    catalog = cafe.catalog
    headings = "".join(
        f"<th>{escape(cafe_text(catalog, heading))}</th>"
        for heading in (*t.HEADINGS.values(), t.BOARD)
    )
    return PAGE.substitute(
        lang=cafe.language,
        title=escape(cafe_text(catalog, t.TITLE)),
        broker=escape(cafe.broker_line()),
        broker_class="up" if cafe.broker_up else "down",
        headings=headings,
        reconnecting=escape(cafe_text(catalog, t.RECONNECTING)),
        status=escape(cafe.summary()),
        columns=escape(json.dumps(list(t.HEADINGS))),
        history=escape(cafe_text(catalog, t.HISTORY)),
    )


def is_loopback(host: str) -> bool:
    """Whether `host` (a name or an address) is this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_names(listen_host: str, names: Iterable[str]) -> frozenset[str]:
    """The names a request's `Host` may give for a page served on `listen_host`: that host (but
    not a wildcard address), the loopback names when it is loopback, and `names` (the café's
    own, for a page served on every address)."""
    allowed = {name.lower() for name in names}
    if listen_host not in ("0.0.0.0", "::", ""):
        allowed.add(listen_host.lower())
    if is_loopback(listen_host):
        allowed |= {"localhost", "127.0.0.1", "::1"}
    return frozenset(allowed)


def request_host(host_header: str) -> str:
    """The host of a `Host` header, without its port or an IPv6 address's brackets."""
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


class CafeWeb:
    """Serves `cafe` on HOST:PORT inside the running asyncio loop; call `changed` on that loop
    after each change. `names`: more host names the page answers to; `token`: what a browser
    must show when the page is served beyond loopback (required there)."""

    def __init__(
        self,
        cafe: Cafe,
        *,
        names: Iterable[str] = (),
        token: str | None = None,
        header_timeout_s: float = HEADER_TIMEOUT_S,
        history: Callable[[web.Request], Awaitable[web.StreamResponse]] | None = None,
        history_csv: Callable[[web.Request], Awaitable[web.StreamResponse]] | None = None,
    ) -> None:
        self.cafe = cafe
        self._names = tuple(names)
        self.token = token
        self.header_timeout_s = header_timeout_s
        self._allowed: frozenset[str] = frozenset()
        self._listeners: set[asyncio.Queue[str | None]] = set()
        self._runner: web.AppRunner | None = None
        self._dirty = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        # aiohttp's handlers take no weak reference: both are pruned to the open connections.
        self._served: set[object] = set()
        self._seen: dict[object, float] = {}
        self.app = web.Application(middlewares=[self._guard], client_max_size=1024)
        self.app.on_response_prepare.append(_secure)
        self.app.router.add_get("/", self._page)
        self.app.router.add_get("/cafe.js", _file(SCRIPT, "text/javascript"))
        self.app.router.add_get("/cafe.css", _file(STYLE, "text/css"))
        self.app.router.add_get("/events", self._events)
        if history is not None:
            self.app.router.add_get("/history", history)
        if history_csv is not None:
            self.app.router.add_get("/history.csv", history_csv)

    async def start(self, host: str, port: int) -> None:
        """Listen on `host:port`; ValueError when it is beyond loopback and no token is set."""
        if not is_loopback(host) and not self.token:
            raise ValueError(f"{host}: a page served beyond loopback needs the café's token")
        self._allowed = host_names(host, self._names)
        self._runner = web.AppRunner(
            self.app,
            handle_signals=False,
            shutdown_timeout=1.0,
            keepalive_timeout=KEEPALIVE_S,
            access_log=None,
        )
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        self._tasks = [
            asyncio.create_task(self._send_snapshots()),
            asyncio.create_task(self._close_slow_connections()),
        ]

    def changed(self) -> None:
        """The café changed: a snapshot goes out within `SEND_EVERY_S`."""
        self._dirty.set()

    async def _send_snapshots(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._dirty.wait(), TICK_S)
            self._dirty.clear()
            if self._listeners:
                data = self.cafe.snapshot_json()
                for listener in self._listeners:
                    while listener.full():  # a page that lags gets only the latest
                        listener.get_nowait()
                    listener.put_nowait(data)
            await asyncio.sleep(SEND_EVERY_S)

    async def _close_slow_connections(self) -> None:
        """Close connections that have not sent their request headers in time, and the oldest
        such beyond `MAX_CONNECTIONS`."""
        loop = asyncio.get_running_loop()
        while self._runner is not None and self._runner.server is not None:
            now = loop.time()
            connections = self._runner.server.connections
            self._served &= set(connections)
            self._seen = {h: self._seen[h] for h in connections if h in self._seen}
            waiting = []
            for handler in connections:
                if handler in self._served:
                    continue
                first = self._seen.setdefault(handler, now)
                waiting.append((first, handler))
            waiting.sort(key=lambda pair: pair[0])
            over = len(connections) - MAX_CONNECTIONS
            for n, (first, handler) in enumerate(waiting):
                if n < over or now - first >= self.header_timeout_s:
                    handler.force_close()
            await asyncio.sleep(min(1.0, self.header_timeout_s / 4))

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        self._served.add(request.protocol)
        if request_host(request.host) not in self._allowed:
            raise web.HTTPMisdirectedRequest(text="unknown host\n")
        if self.token:
            given = request.query.get("token")
            if given is not None and _same(given, self.token):
                # Once, from the link the staff were given; the cookie carries it from then on.
                found = web.HTTPSeeOther(request.path)
                found.set_cookie(COOKIE, self.token, httponly=True, samesite="Strict")
                raise found
            bearer = request.headers.get("Authorization", "").removeprefix("Bearer ")
            cookie = request.cookies.get(COOKIE, "")
            if not (_same(bearer, self.token) or _same(cookie, self.token)):
                raise web.HTTPUnauthorized(text="the café's token is needed\n")
        return await handler(request)

    async def _page(self, request: web.Request) -> web.Response:
        return web.Response(text=page(self.cafe), content_type="text/html")

    async def _events(self, request: web.Request) -> web.StreamResponse:
        if len(self._listeners) >= MAX_LISTENERS:
            raise web.HTTPServiceUnavailable(text="too many pages open\n")
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        listener: asyncio.Queue[str | None] = asyncio.Queue(maxsize=1)
        self._listeners.add(listener)
        try:
            data: str | None = self.cafe.snapshot_json()
            while data is not None:  # None: the server is closing
                await response.write(f"data: {data}\n\n".encode())
                data = await listener.get()
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self._listeners.discard(listener)
        return response

    async def close(self) -> None:
        """Stop serving. Idempotent."""
        for task in self._tasks:
            task.cancel()
        self._tasks = []
        for listener in self._listeners:
            while listener.full():
                listener.get_nowait()
            listener.put_nowait(None)
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()


def _same(given: str, token: str) -> bool:
    return bool(given) and hmac.compare_digest(given.encode(), token.encode())


async def _secure(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(SECURITY_HEADERS)


def _file(text: str, content_type: str) -> Callable[[web.Request], Awaitable[web.Response]]:
    body = text.encode()

    async def serve(request: web.Request) -> web.Response:
        return web.Response(body=body, content_type=content_type)

    return serve


def parse_listen(text: str) -> tuple[str, int]:
    """`HOST:PORT`, `:PORT` or `PORT` (localhost); ValueError naming the problem."""
    host, _, port = text.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--http {text!r}: expected HOST:PORT with a port of 1-65535")
    return host.strip("[]") or "127.0.0.1", int(port)
