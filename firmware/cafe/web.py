"""The café's read-only web page (aiohttp): `/` is a page that shows every table and keeps up
by server-sent events from `/events`, each a snapshot of `Cafe.snapshot()`; no page reload,
no input taken, in the café's language (`<html lang>` says which). The page writes every text
with `textContent`, so a hostile message that got past the checks still cannot inject markup."""

from __future__ import annotations

import asyncio
import json
from html import escape
from string import Template
from typing import Final

from aiohttp import web

from firmware.cafe import texts as t
from firmware.cafe.model import Cafe
from firmware.cafe.texts import cafe_text

PAGE: Final = Template("""<!doctype html>
<html lang="$lang"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title</title>
<style>
body { font-family: sans-serif; margin: 1em; background: #111; color: #eee; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #444; padding: .4em .6em; text-align: left; }
td.offline { color: #f66; font-weight: bold; }
td.problem { color: #fc4; font-weight: bold; }
#status { color: #999; margin-top: 1em; }
</style></head>
<body><h1>$title</h1>
<table><thead><tr>$headings</tr></thead><tbody id="tables"></tbody></table>
<p id="status" data-reconnecting="$reconnecting">$status</p>
<script>
const columns = $columns;
function show(snapshot) {
  const body = document.getElementById("tables");
  body.replaceChildren();
  for (const row of snapshot.tables) {
    const tr = document.createElement("tr");
    tr.id = "table-" + row.id;
    row.cells.forEach((text, i) => {
      const td = document.createElement("td");
      td.textContent = text;
      td.className = columns[i];
      if (columns[i] === "online" && row.offline) td.classList.add("offline");
      if (columns[i] === "health" && row.problem) td.classList.add("problem");
      tr.appendChild(td);
    });
    body.appendChild(tr);
  }
  document.getElementById("status").textContent = snapshot.status;
}
const source = new EventSource("events");
source.onmessage = (event) => show(JSON.parse(event.data));
source.onerror = () => {
  const status = document.getElementById("status");
  status.textContent = status.dataset.reconnecting;
};
</script></body></html>
""")
"""The page, its texts filled in the café's language by `page`: the script words nothing itself,
every text it writes comes from the server (the snapshot's, or the page's `data-` attribute)."""


def page(cafe: Cafe) -> str:
    """The page in `cafe`'s language, showing its status line until the first snapshot."""
    catalog = cafe.catalog
    headings = "".join(
        f"<th>{escape(cafe_text(catalog, heading))}</th>" for heading in t.HEADINGS.values()
    )
    return PAGE.substitute(
        lang=cafe.language,
        title=escape(cafe_text(catalog, t.TITLE)),
        headings=headings,
        reconnecting=escape(cafe_text(catalog, t.RECONNECTING)),
        status=escape(cafe.summary()),
        columns=json.dumps(list(t.HEADINGS)),
    )


class CafeWeb:
    """Serves `cafe` on HOST:PORT inside the running asyncio loop; call `changed` on that loop
    after each change."""

    def __init__(self, cafe: Cafe) -> None:
        self.cafe = cafe
        self._listeners: set[asyncio.Queue[str | None]] = set()
        self._runner: web.AppRunner | None = None
        self.app = web.Application()
        self.app.router.add_get("/", self._page)
        self.app.router.add_get("/events", self._events)

    async def start(self, host: str, port: int) -> None:
        """Listen on `host:port`."""
        self._runner = web.AppRunner(self.app, handle_signals=False, shutdown_timeout=2.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()

    def changed(self) -> None:
        """Send the new snapshot to every open page; a page that lags gets only the latest."""
        data = json.dumps(self.cafe.snapshot(), ensure_ascii=False)
        for listener in self._listeners:
            while listener.full():
                listener.get_nowait()
            listener.put_nowait(data)

    async def _page(self, request: web.Request) -> web.Response:
        return web.Response(
            text=page(self.cafe),
            content_type="text/html",
            headers={"Content-Security-Policy": "default-src 'self' 'unsafe-inline'"},
        )

    async def _events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        listener: asyncio.Queue[str | None] = asyncio.Queue(maxsize=1)
        self._listeners.add(listener)
        try:
            data: str | None = json.dumps(self.cafe.snapshot(), ensure_ascii=False)
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
        for listener in self._listeners:
            while listener.full():
                listener.get_nowait()
            listener.put_nowait(None)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


def parse_listen(text: str) -> tuple[str, int]:
    """`HOST:PORT`, `:PORT` or `PORT` (localhost); ValueError naming the problem."""
    host, _, port = text.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--http {text!r}: expected HOST:PORT with a port of 1-65535")
    return host.strip("[]") or "127.0.0.1", int(port)
