"""The café's web server against a hostile network: every answer carries a strict policy (no
inline script, no framing, no sniffing, no version), a `Host` it does not serve is refused, a
connection that never finishes its headers is closed, the page needs the token beyond
loopback, and a flood of bad messages makes one log line, not one per message."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import pytest

from firmware.cafe.model import Cafe
from firmware.cafe.run import IgnoredLog
from firmware.cafe.web import CafeWeb
from tools import mosquitto

Scenario = Callable[[CafeWeb, int], Awaitable[None]]


def serve(scenario: Scenario, host: str = "127.0.0.1", **options: object) -> None:
    """Run `scenario(web, port)` against a page served on `host`."""

    async def run() -> None:
        web = CafeWeb(Cafe(), **options)  # type: ignore[arg-type]
        port = mosquitto.free_port()
        await web.start(host, port)
        try:
            await scenario(web, port)
        finally:
            await web.close()

    asyncio.run(run())


async def ask(port: int, request: str) -> tuple[int, dict[str, str], bytes]:
    """Send a raw request; the status, headers (lower-case names) and body of the answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request.encode())
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


def get(path: str, host: str = "127.0.0.1", extra: str = "") -> str:
    return f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{extra}\r\n"


@pytest.mark.parametrize("path", ["/", "/cafe.js", "/cafe.css"])
def test_every_answer_carries_a_strict_policy(path: str) -> None:
    async def scenario(web: CafeWeb, port: int) -> None:
        status, headers, body = await ask(port, get(path))
        assert status == 200
        policy = headers["content-security-policy"]
        assert "'unsafe-inline'" not in policy
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert headers["x-content-type-options"] == "nosniff"
        assert "aiohttp" not in headers["server"].lower()
        assert "python" not in headers["server"].lower()
        if path == "/":
            assert b"<script>" not in body and b"<style>" not in body
            assert b'<script src="cafe.js"' in body

    serve(scenario)


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "10.0.0.1", ""])
def test_a_host_the_page_does_not_serve_is_refused(host: str) -> None:
    async def scenario(web: CafeWeb, port: int) -> None:
        status, _, _ = await ask(port, get("/", host=host))
        assert status == 421
        for served in ("127.0.0.1", f"127.0.0.1:{port}", f"localhost:{port}"):
            status, _, _ = await ask(port, get("/", host=served))
            assert status == 200

    serve(scenario)


def test_a_name_given_is_served_on_every_address() -> None:
    async def scenario(web: CafeWeb, port: int) -> None:
        token = "Authorization: Bearer s3cret\r\n"
        status, _, _ = await ask(port, get("/", host=f"counter.cafe:{port}", extra=token))
        assert status == 200
        status, _, _ = await ask(port, get("/", host="0.0.0.0", extra=token))
        assert status == 421

    serve(scenario, host="0.0.0.0", names=["counter.cafe"], token="s3cret")


def test_connections_that_never_finish_their_headers_are_closed() -> None:
    async def scenario(web: CafeWeb, port: int) -> None:
        slow = []
        for _ in range(300):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the blank line
            slow.append((reader, writer))
        # The page still answers while they hang…
        status, _, _ = await ask(port, get("/"))
        assert status == 200
        # …and each is closed once its time for the headers is over.
        closed = await asyncio.wait_for(
            asyncio.gather(*(reader.read() for reader, _ in slow)), timeout=10
        )
        assert all(data == b"" or data.startswith(b"HTTP/1.1 4") for data in closed)
        for _, writer in slow:
            writer.close()

    serve(scenario, header_timeout_s=1.0)


def test_beyond_loopback_the_page_needs_the_token() -> None:
    with pytest.raises(ValueError, match="token"):
        serve(lambda web, port: asyncio.sleep(0), host="0.0.0.0")

    async def scenario(web: CafeWeb, port: int) -> None:
        for path in ("/", "/events", "/cafe.js"):
            status, _, _ = await ask(port, get(path))
            assert status == 401
        status, _, _ = await ask(port, get("/", extra="Authorization: Bearer wrong\r\n"))
        assert status == 401
        status, headers, _ = await ask(port, get("/?token=s3cret"))
        assert status == 303 and headers["location"] == "/"
        cookie = headers["set-cookie"].split(";")[0]
        assert "httponly" in headers["set-cookie"].lower()
        status, _, body = await ask(port, get("/", extra=f"Cookie: {cookie}\r\n"))
        assert status == 200 and b"<table>" in body

    serve(scenario, host="0.0.0.0", names=["127.0.0.1"], token="s3cret")


def test_ignored_messages_make_one_log_line_a_period(caplog: pytest.LogCaptureFixture) -> None:
    cafe = Cafe()
    ignored = IgnoredLog(every_s=60.0)
    with caplog.at_level(logging.WARNING, logger="firmware.cafe.run"):
        for n in range(1000):
            cafe.receive("codenames/t1/game", b"{not json")
            ignored.seen(cafe, now=n / 100)  # 1,000 in 10 s
        ignored.seen(cafe, now=61.0)
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2
    assert lines[0].startswith("ignored 1 message(s)")
    assert lines[1].startswith("ignored 999 message(s)") and "not JSON" in lines[1]
