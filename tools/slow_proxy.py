"""A slow TCP proxy on 127.0.0.1, for `make bench`'s broker-slow figure: every chunk of bytes,
either way, is passed on `delay_s` after it arrived (in order, without holding back the chunks
behind it), as across a congested link to a far broker."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Final

DELAY_S: Final = 0.2


class SlowProxy:
    """Listens on 127.0.0.1:`port` (a free one) and forwards to 127.0.0.1:`target_port`, each
    chunk `delay_s` late, on an asyncio loop of its own thread; `with` it, or `start`/`close`."""

    def __init__(self, target_port: int, delay_s: float = DELAY_S) -> None:
        self.target_port = target_port
        self.delay_s = delay_s
        self.port = 0
        self.chunks = 0
        """Chunks passed on so far, both ways."""
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name="slow-proxy", daemon=True)

    def start(self) -> SlowProxy:
        """Listen; returns once the port is open."""
        self._thread.start()
        if not self._ready.wait(10.0) or not self.port:
            raise RuntimeError("the slow proxy did not start")
        return self

    def close(self) -> None:
        """Stop listening and drop every connection. Idempotent."""
        if self._stop is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stop.set)
            self._thread.join(timeout=10.0)

    def __enter__(self) -> SlowProxy:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._serve())
        finally:
            self._ready.set()
            self._loop.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        connections: set[asyncio.Task[None]] = set()

        async def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            task = asyncio.current_task()
            assert task is not None  # a server's callback runs as a task
            connections.add(task)
            # Closing cancels it: it returns rather than raise, since Python 3.11's streams log
            # a cancelled callback as an error.
            with contextlib.suppress(asyncio.CancelledError):
                await self._connection(reader, writer)
            connections.discard(task)

        server = await asyncio.start_server(accepted, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        async with server:
            await self._stop.wait()
            for task in list(connections):
                task.cancel()
            await asyncio.gather(*connections, return_exceptions=True)

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        try:
            await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))
        finally:
            for side in (writer, up_writer):
                side.close()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        loop = asyncio.get_running_loop()
        late: asyncio.Queue[tuple[float, bytes] | None] = asyncio.Queue()

        async def send() -> None:
            while (item := await late.get()) is not None:
                due, chunk = item
                await asyncio.sleep(max(due - loop.time(), 0.0))
                writer.write(chunk)
                await writer.drain()
                self.chunks += 1

        sender = asyncio.create_task(send())
        try:
            with contextlib.suppress(ConnectionError):
                while chunk := await reader.read(65536):
                    late.put_nowait((loop.time() + self.delay_s, chunk))
            late.put_nowait(None)
            with contextlib.suppress(ConnectionError):
                await sender
            # The other side hears the end once the last late chunk has gone.
            with contextlib.suppress(OSError, RuntimeError):
                writer.write_eof()
        finally:
            sender.cancel()  # closing: the chunks still late go nowhere
