"""The Web Push notices over HTTP (docs/protocol.md §3.12; what is sent and when: web/push.py,
web/hub/notices.py):

- ``GET /api/notices``: what this server can tell a seat: its VAPID public key for
  ``pushManager.subscribe`` and whether it sends emails.
- ``POST /api/games/{id}/seats/{seat}/push`` with the seat's own token and the browser's
  ``PushSubscription`` JSON (plus ``lang``): the seat's browser gets pushes.
- ``POST /api/games/{id}/seats/{seat}/push/off`` ``{"endpoint"}`` (same token): no more.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..i18n import available
from .hub import Hub
from .mail_api import Auth, own_seat
from .protocol import ProtocolError
from .push import Target, add, endpoint_problem, public_point, remove, unb64url
from .responses import errors

B64URL = r"^[A-Za-z0-9_-]+={0,2}$"
Bearer = Callable[[str | None, str | None], str | None]


class PushKeys(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    p256dh: str = Field(..., max_length=100, pattern=B64URL,
                        description="the browser's public key: a P-256 point, base64url")
    auth: str = Field(..., max_length=32, pattern=B64URL,
                      description="the browser's 16-byte authentication secret, base64url")

    @field_validator("p256dh")
    @classmethod
    def _on_the_curve(cls, value: str) -> str:
        public_point(value)  # ValueError: not a P-256 point
        return value

    @field_validator("auth")
    @classmethod
    def _sixteen_bytes(cls, value: str) -> str:
        if len(unb64url(value)) != 16:
            raise ValueError("auth must be 16 bytes")
        return value


class PushBody(BaseModel):
    """The browser's ``PushSubscription.toJSON()``, and the language of the notices."""

    model_config = ConfigDict(extra="forbid", strict=True)
    endpoint: str = Field(..., min_length=12, max_length=1024,
                          description="the push service's address for this browser")
    expirationTime: float | None = Field(None, description="(as the browser gives it; unused)")  # noqa: N815
    keys: PushKeys
    lang: str = Field("en", pattern="^(" + "|".join(available()) + ")$",
                      description="the language of the notices")


class PushOff(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    endpoint: str = Field(..., min_length=1, max_length=1024,
                          description="the subscription to forget")


def add_routes(app: FastAPI, hub_of: Callable[[Request], Hub], bearer: Bearer,
               mail: bool, test_hosts: frozenset[str]) -> None:
    """The public key, and a seat's subscribe and unsubscribe (``hub_of``, ``bearer``: app.py's;
    ``mail``: whether the server sends emails; ``test_hosts``: web/push.endpoint_problem)."""

    @app.get("/api/notices")
    async def notices(request: Request) -> dict[str, Any]:
        """What this server can tell a seat whose player is away: the VAPID public key to
        subscribe with (base64url), and whether it sends emails."""
        keys = await hub_of(request).notices.keys()
        return {"push_key": keys.public, "mail": mail}

    @app.post("/api/games/{game_id}/seats/{seat}/push",
              responses=errors("unauthorised", "not_found"))
    async def push_on(game_id: str, seat: int, body: PushBody, request: Request,
                      authorization: Auth = None, x_seat_token: Auth = None) -> dict[str, Any]:
        """The seat's browser gets a push when the seat must decide while away."""
        hub = await own_seat(hub_of(request), bearer, game_id, seat, authorization,
                             x_seat_token)
        problem = endpoint_problem(body.endpoint, test_hosts)
        if problem is not None:
            raise ProtocolError("bad_message", problem, "bad_endpoint")
        target = Target(body.endpoint, body.keys.p256dh, body.keys.auth, body.lang)
        count = await hub.db(add, hub.store.engine, game_id, seat, target)
        hub.notices.schedule(await hub.get(game_id))  # the seat may be waiting already
        return {"game": game_id, "seat": seat, "subscriptions": count}

    @app.post("/api/games/{game_id}/seats/{seat}/push/off",
              responses=errors("unauthorised", "not_found"))
    async def push_off(game_id: str, seat: int, body: PushOff, request: Request,
                       authorization: Auth = None, x_seat_token: Auth = None) -> dict[str, Any]:
        """The browser at ``endpoint`` gets no more pushes for this seat."""
        hub = await own_seat(hub_of(request), bearer, game_id, seat, authorization,
                             x_seat_token)
        count = await hub.db(remove, hub.store.engine, game_id, seat, body.endpoint)
        return {"game": game_id, "seat": seat, "subscriptions": count}


__all__ = ["PushBody", "PushKeys", "PushOff", "add_routes"]
