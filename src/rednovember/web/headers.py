"""Security headers on every HTTP answer: a Content-Security-Policy that allows only this site's
own scripts, styles, images and WebSocket, plus the usual hardening headers. A pure ASGI
middleware (no request buffering, WebSockets pass untouched)."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

# Inline style attributes are used by the board's SVG (positions, colours); inline scripts are not.
# 'self' in connect-src also covers ws:/wss: on the same host (CSP level 3). The web manifest and
# the service worker (web/pwa.py) are this site's own.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; "
       "manifest-src 'self'; worker-src 'self'; "
       "base-uri 'self'; form-action 'self'; frame-ancestors 'none'")

HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
    (b"cross-origin-opener-policy", b"same-origin"),
)

# FastAPI's interactive API pages load their scripts from a CDN: they keep no CSP of ours.
NO_CSP_PATHS = ("/docs", "/redoc")


class SecurityHeaders:
    def __init__(self, app: ASGIApp, csp: str = CSP) -> None:
        self.app = app
        self.csp = csp.encode("ascii")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        root = str(scope.get("root_path", ""))
        if root and path.startswith(root):
            path = path[len(root):]
        with_csp = not path.startswith(NO_CSP_PATHS)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers.extend(h for h in HEADERS if h[0] not in present)
                if with_csp and b"content-security-policy" not in present:
                    headers.append((b"content-security-policy", self.csp))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


__all__ = ["CSP", "HEADERS", "SecurityHeaders"]
