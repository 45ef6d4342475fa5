"""Serving under a sub-path (``rednovember serve --root-path /rn``) behind a reverse proxy.

Both ways a proxy may forward a request work: with the prefix stripped (``/rn/api/x`` arrives as
``/api/x``: uvicorn's ``root_path`` semantics) and with it kept (``/rn/api/x`` arrives as is; the
same as opening the server directly under the prefix). :class:`RootPath` brings every request,
HTTP or WebSocket, to the ASGI form: ``root_path`` = the prefix, ``path`` = prefix + the app's
path. The app's own routes never start with a root path (web/options.root_path refuses those), so
the two cases cannot be confused.

The browser learns the prefix from the page: :func:`page_html` writes it into
``<html data-root="/rn">`` (read by static/js/root.js, through which the front-end builds every
URL) and prefixes the page's own absolute ``href``/``src`` attributes.
"""

from __future__ import annotations

import html
import re

from starlette.types import ASGIApp, Receive, Scope, Send

_ABSOLUTE_ATTR = re.compile(r"""\b(href|src)=(["'])/(?!/)""")
_HTML_TAG = re.compile(r"<html\b", re.IGNORECASE)


def strip_root(path: str, root: str) -> str | None:
    """``path`` without the prefix ``root`` ("/" for the prefix alone), None if not under it."""
    if path == root:
        return "/"
    if path.startswith(root + "/"):
        return path[len(root):]
    return None


class RootPath:
    """Pure ASGI middleware: the app served under ``root`` whether the proxy strips it or not."""

    def __init__(self, app: ASGIApp, root: str = "") -> None:
        self.app = app
        self.root = root

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.root and scope["type"] in ("http", "websocket"):
            scope = dict(scope)
            path = str(scope.get("path", ""))
            raw = scope.get("raw_path")
            # what the server received: uvicorn --root-path prepends its root_path to the path
            outer = str(scope.get("root_path", ""))
            if outer and path.startswith(outer):
                path = path[len(outer):] or "/"
                if isinstance(raw, bytes) and raw.startswith(outer.encode()):
                    raw = raw[len(outer.encode()):] or b"/"
            inner = strip_root(path, self.root)
            if inner is not None:  # the prefix was passed on (or the server opened directly)
                path = inner
                if isinstance(raw, bytes):
                    raw = raw[len(self.root.encode()):] if raw != self.root.encode() else b"/"
            scope["root_path"] = self.root
            scope["path"] = self.root + path
            if isinstance(raw, bytes):
                scope["raw_path"] = self.root.encode() + raw
        await self.app(scope, receive, send)


def page_html(text: str, root: str) -> str:
    """The front-end's page for a server under ``root``: ``data-root`` on ``<html>`` and every
    absolute ``href``/``src`` attribute under the prefix."""
    text = _HTML_TAG.sub(f'<html data-root="{html.escape(root)}"', text, count=1)
    if root:
        text = _ABSOLUTE_ATTR.sub(lambda m: f"{m[1]}={m[2]}{root}/", text)
    return text


__all__ = ["RootPath", "page_html", "strip_root"]
