"""Pure ASGI middleware at the HTTP edge: request bodies over the limit get 413 however they
arrive (``Content-Length`` or chunked), and ``HEAD`` is answered for every page that answers
``GET`` (the same headers, no body)."""

from __future__ import annotations

import contextlib

from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .protocol import MAX_BODY_BYTES


class BodyTooLarge(Exception):
    """Raised from ``receive`` once a streamed body passes the limit."""


class BodyLimit:
    """Refuses HTTP request bodies larger than ``limit`` bytes with 413 ``too_large``, streamed
    (chunked) or not. A streamed body is counted as it is read: past the limit, whatever the
    application made of the error it got while reading (a 400 of its body parser) is replaced
    by the 413."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await self._refuse(scope, receive, send)
                    return
        seen = 0
        over = False
        started = False

        async def limited() -> Message:
            nonlocal seen, over
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.limit:
                    over = True
                    raise BodyTooLarge(f"request body larger than {self.limit} bytes")
            return msg

        async def guarded(message: Message) -> None:
            nonlocal started
            if over:  # the application's answer to the failed read: ours instead
                if not started:
                    started = True
                    await self._refuse(scope, receive, send)
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        with contextlib.suppress(BodyTooLarge):
            await self.app(scope, limited, guarded)
        if over and not started:
            await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        resp = JSONResponse({"error": {"code": "too_large", "message":
                                       f"request body larger than {self.limit} bytes"}}, 413,
                            headers={"Connection": "close"})
        await resp(scope, receive, send)


class HeadAsGet:
    """``HEAD`` on any path is answered as ``GET`` would be, without the body (RFC 9110 §9.3.2):
    the pages, the rules, the API's reads and the static files alike."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "HEAD":
            await self.app(scope, receive, send)
            return

        async def no_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {"type": "http.response.body", "body": b"",
                           "more_body": message.get("more_body", False)}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, no_body)


def allowed_methods(routes: list[BaseRoute], scope: Scope) -> list[str]:
    """Every method some route answers at this request's path (for a 405's ``Allow``); HEAD
    wherever GET is (HeadAsGet)."""
    methods: set[str] = set()
    for route in routes:
        match, _ = route.matches({**scope, "type": "http"})
        if match != Match.NONE:
            methods.update(getattr(route, "methods", None) or ())
    if "GET" in methods:
        methods.add("HEAD")
    return sorted(methods)


__all__ = ["BodyLimit", "BodyTooLarge", "HeadAsGet", "allowed_methods"]
