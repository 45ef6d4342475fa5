"""A tiny HTTP/1.1 reverse proxy for the root-path tests: what a reverse proxy in front of
``rednovember serve --root-path /rn`` does. Requests under the prefix go to the server, with the
prefix stripped (Caddy's ``handle_path /rn/*``, nginx's ``location /rn/ { proxy_pass …/; }``) or
passed on (``strip=False``); anything else is answered 404 here and never reaches the server.
Keep-alive connections and WebSocket upgrades pass through. Every request line it received is
kept in ``seen``.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator


class StripProxy:
    def __init__(self, upstream_port: int, prefix: str = "/rn", strip: bool = True) -> None:
        self.upstream_port = upstream_port
        self.prefix = prefix
        self.strip = strip
        self.seen: list[str] = []  # "METHOD /path?query" as the browser sent it
        self.refused: list[str] = []  # those outside the prefix (answered 404)
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.Server | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.prefix}"

    def start(self) -> StripProxy:
        self._thread.start()
        self._server = asyncio.run_coroutine_threadsafe(
            asyncio.start_server(self._client, "127.0.0.1", 0), self._loop).result(10)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    def stop(self) -> None:
        async def close() -> None:  # the server, then every connection's task
            if self._server is not None:
                self._server.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    def _target(self, target: str) -> str | None:
        path = target.split("?", 1)[0]
        if path != self.prefix and not path.startswith(self.prefix + "/"):
            return None
        if not self.strip:
            return target
        rest = target[len(self.prefix):]
        return rest if rest.startswith("/") else "/" + rest

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader: asyncio.StreamReader | None = None
        up_writer: asyncio.StreamWriter | None = None
        pump: asyncio.Task[None] | None = None
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                lines = head.decode("latin-1").split("\r\n")
                method, target, version = lines[0].split(" ", 2)
                headers = {k.strip().lower(): v.strip()
                           for k, v in (line.split(":", 1) for line in lines[1:] if ":" in line)}
                length = int(headers.get("content-length", "0") or 0)
                body = await reader.readexactly(length) if length else b""
                self.seen.append(f"{method} {target}")
                new_target = self._target(target)
                if new_target is None:
                    self.refused.append(f"{method} {target}")
                    writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\n"
                                 b"Content-Length: 9\r\n\r\nnot here\n")
                    await writer.drain()
                    continue
                if up_writer is None:
                    up_reader, up_writer = await asyncio.open_connection("127.0.0.1",
                                                                         self.upstream_port)
                    pump = asyncio.create_task(_pipe(up_reader, writer))
                lines[0] = f"{method} {new_target} {version}"
                up_writer.write("\r\n".join(lines).encode("latin-1") + body)
                await up_writer.drain()
                if headers.get("upgrade", "").lower() == "websocket":
                    await _pipe(reader, up_writer)  # the rest is WebSocket frames, both ways
                    return
        finally:
            if up_writer is not None:
                up_writer.close()
            if pump is not None:
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(pump, 2)
            writer.close()


async def _pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
    try:
        while data := await src.read(65536):
            dst.write(data)
            await dst.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        with contextlib.suppress(Exception):
            dst.close()


@contextlib.contextmanager
def strip_proxy(upstream_port: int, prefix: str = "/rn", strip: bool = True) -> Iterator[StripProxy]:
    proxy = StripProxy(upstream_port, prefix, strip).start()
    try:
        yield proxy
    finally:
        proxy.stop()
