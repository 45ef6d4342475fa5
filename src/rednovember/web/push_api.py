"""The Web Push notices over HTTP (docs/protocol.md §3.12; what is sent and when: web/push.py,
web/hub/notices.py):

- ``GET /api/notices``: what this server can tell a seat: its VAPID public key for
  ``pushManager.subscribe`` (null without ``--push``) and whether it sends emails.
- ``POST /api/games/{id}/seats/{seat}/push`` with the seat's own token and the browser's
  ``PushSubscription`` JSON (plus ``lang``): the seat's browser gets pushes. 409 ``no_push`` from
  a server started without ``--push``.
- ``POST /api/games/{id}/seats/{seat}/push/off`` ``{"endpoint"}`` (same token): no more.

The request's schema says all that is checked: an endpoint of a push service this server posts
to (web/push.endpoint_pattern, with this server's ``--push-service`` and test hosts), a
``p256dh`` of an uncompressed P-256 point's length, an ``auth`` of 16 bytes.
"""

# (no `from __future__ import annotations`: the body's model is made per app, in add_routes, and
# FastAPI reads the handlers' annotations as objects)

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field

from ..i18n import available
from .answers import Notices, PushSeat, ok
from .hub import Hub
from .mail_api import Auth, own_seat
from .protocol import ProtocolError
from .push import Pusher, Target, add, endpoint_pattern, remove
from .responses import errors

P256DH = r"^B[A-Za-z0-9_-]{86}=?$"  # 65 bytes, the first 0x04: an uncompressed point, base64url
AUTH = r"^[A-Za-z0-9_-]{21}[AQgw](==)?$"  # 16 bytes, base64url
Bearer = Callable[[str | None, str | None], str | None]


class PushKeys(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    p256dh: str = Field(..., pattern=P256DH,
                        description="the browser's public key: an uncompressed P-256 point, "
                                    "base64url")
    auth: str = Field(..., pattern=AUTH,
                      description="the browser's 16-byte authentication secret, base64url")


class PushOff(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    endpoint: str = Field(..., min_length=1, max_length=1024,
                          description="the subscription to forget")


def add_routes(app: FastAPI, hub_of: Callable[[Request], Hub], bearer: Bearer,
               mail: bool, pusher: Pusher | None) -> None:
    """The public key, and a seat's subscribe and unsubscribe (``hub_of``, ``bearer``: app.py's;
    ``mail``: whether the server sends emails; ``pusher``: None without ``--push``)."""
    pattern = pusher.pattern if pusher is not None else endpoint_pattern()

    class PushBody(BaseModel):
        """The browser's ``PushSubscription.toJSON()``, and the language of the notices."""

        model_config = ConfigDict(extra="forbid", strict=True)
        endpoint: str = Field(..., max_length=1024, pattern=pattern,
                              description="the push service's address for this browser: https, "
                                          "a browser's push service")
        expirationTime: float | None = Field(  # noqa: N815 (the browser's name)
            None, description="(as the browser gives it; unused)")
        keys: PushKeys
        lang: str = Field("en", pattern="^(" + "|".join(available()) + ")$",
                          description="the language of the notices")

    @app.get("/api/notices", responses=ok(Notices))
    async def notices(request: Request) -> dict[str, Any]:
        """What this server can tell a seat whose player is away: the VAPID public key to
        subscribe with (base64url; null: no pushes), and whether it sends emails."""
        key = (await hub_of(request).notices.keys()).public if pusher is not None else None
        return {"push_key": key, "mail": mail}

    @app.post("/api/games/{game_id}/seats/{seat}/push",
              responses={**ok(PushSeat), **errors("unauthorised", "not_found", "no_push")})
    async def push_on(game_id: str, seat: int, body: PushBody, request: Request,
                      authorization: Auth = None, x_seat_token: Auth = None) -> dict[str, Any]:
        """The seat's browser gets a push when the seat must decide while away."""
        hub = await own_seat(hub_of(request), bearer, game_id, seat, authorization,
                             x_seat_token)
        if pusher is None:
            raise ProtocolError("no_push", "this server sends no pushes (started without --push)")
        target = Target(body.endpoint, body.keys.p256dh, body.keys.auth, body.lang)
        count = await hub.db(add, hub.store.engine, game_id, seat, target)
        await hub.notices.asked(await hub.get(game_id))  # the seat may be waiting already
        return {"game": game_id, "seat": seat, "subscriptions": count}

    @app.post("/api/games/{game_id}/seats/{seat}/push/off",
              responses={**ok(PushSeat), **errors("unauthorised", "not_found")})
    async def push_off(game_id: str, seat: int, body: PushOff, request: Request,
                       authorization: Auth = None, x_seat_token: Auth = None) -> dict[str, Any]:
        """The browser at ``endpoint`` gets no more pushes for this seat."""
        hub = await own_seat(hub_of(request), bearer, game_id, seat, authorization,
                             x_seat_token)
        count = await hub.db(remove, hub.store.engine, game_id, seat, body.endpoint)
        return {"game": game_id, "seat": seat, "subscriptions": count}


__all__ = ["PushKeys", "PushOff", "add_routes"]
