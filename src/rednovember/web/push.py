"""Web Push notices (issue 20 §3; docs/protocol.md §3.12): a seat's browser is told that the seat
must decide, even with the game's page closed, through the browser's own push service.

- The server's VAPID key pair (RFC 8292) is made once and kept in the database (``rn_vapid``), so
  every process signs with the same key; the page subscribes with its public half
  (``GET /api/notices``).
- A seat subscribes with its own token (web/push_api.py): the browser's ``PushSubscription``
  (endpoint and keys) is kept in ``rn_push``, a few per seat (one per device).
- When the seat must decide while away, web/hub/notices.py claims the notice (the compare-and-set
  of web/mail.py: once on all processes) and sends one push to each subscription with pywebpush
  (the payload encrypted as RFC 8291 ``aes128gcm``). The payload holds the game, the gnome, the
  player and the game page's path; never a token. A push service that answers 404 or 410 has
  forgotten the subscription: it is dropped.
- ``rednovember serve --push`` turns them on (off by default, like the emails). A server only
  posts to the push services of browsers (:data:`PUSH_SERVICES`, ``https://``; more with
  ``--push-service HOST``): a seat cannot make it post anywhere else, into the server's own
  network or the world. Tests add a plain ``http://`` host of their own (``--push-test-host``).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from ..i18n import catalog
from .store import mail_table, push_table, vapid_table

PUSH_TIMEOUT = 15.0  # seconds for the push service to answer
PUSH_TTL = 24 * 3600  # seconds a push service keeps a notice for a browser that is off
MAX_PER_SEAT = 5  # subscriptions kept per seat (the newest)
DEFAULT_CONTACT = "mailto:crew@localhost"  # the VAPID ``sub`` without --public-url/--mail-from


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    """Decodes base64url with or without its padding (ValueError when it is not)."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("not base64url") from None


# The push services of today's browsers (Chrome and its kin, Firefox, Safari, Edge on Windows):
# an endpoint's host is one of them or a subdomain.
PUSH_SERVICES = ("fcm.googleapis.com", "push.services.mozilla.com", "push.apple.com",
                 "notify.windows.com")


def endpoint_pattern(services: Iterable[str] = PUSH_SERVICES,
                     test_hosts: Iterable[str] = ()) -> str:
    """The endpoints the server posts to, as a regular expression (the request's schema says it:
    what it allows is what is taken)."""
    https = "|".join(re.escape(h) for h in sorted(services))
    http = "".join(f"|http://{re.escape(h)}" for h in sorted(test_hosts))
    return rf"^(?:https://(?:[A-Za-z0-9-]+\.)*(?:{https}){http})(?:/[^\s]*)?$"


def endpoint_problem(url: str, pattern: str) -> str | None:
    """Why the server will not post to ``url`` (None: it will)."""
    if re.fullmatch(pattern, url) is None:
        return "the endpoint is not a push service's https:// address"
    return None


@dataclass(frozen=True)
class Keys:
    """The server's VAPID key pair: the private scalar and the public point, base64url."""

    private: str
    public: str


@dataclass(frozen=True)
class Target:
    """One subscription of a seat: where to post and how to encrypt for it."""

    endpoint: str
    p256dh: str
    auth: str
    lang: str

    def info(self) -> dict[str, Any]:
        """The subscription as pywebpush takes it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def payload(lang: str, game_id: str, gnome: str, player: str) -> str:
    """What the service worker shows (static/sw/worker.js): no token, only the game's path."""
    return _notice(lang, game_id, "title", "body", player=player, gnome=gnome)


def taken_payload(lang: str, game_id: str, gnome: str, player: str, misses: int) -> str:
    """What the service worker shows when a bot took the seat after ``misses`` deadlines in a
    row (the same tag: it replaces the seat's turn notice)."""
    return _notice(lang, game_id, "taken_title", "taken_body", player=player, gnome=gnome,
                   misses=misses)


def _notice(lang: str, game_id: str, title: str, body: str, **words: Any) -> str:
    """A notice of ``game_id``: its title and body (keys of the catalog's ``push`` section, in
    ``lang``), the game's path and the tag that makes each notice of a game replace the last."""
    cat = catalog(lang)
    return json.dumps({"title": cat.get("push", title),
                       "body": cat.get("push", body, game=game_id, **words),
                       "url": f"g/{game_id}", "game": game_id, "tag": f"rn-turn-{game_id}"},
                      ensure_ascii=False)


class Gone(Exception):
    """The push service forgot the subscription (404 or 410): drop it."""


class PushFailed(Exception):
    """The push service did not take the notice (another status, or no answer)."""


@dataclass(frozen=True)
class Pusher:
    """Sends pushes: the VAPID contact (``sub``), the push services it posts to, and the hosts
    tests may post to over http."""

    contact: str = DEFAULT_CONTACT
    services: frozenset[str] = frozenset(PUSH_SERVICES)
    test_hosts: frozenset[str] = frozenset()

    @property
    def pattern(self) -> str:
        return endpoint_pattern(self.services, self.test_hosts)

    @staticmethod
    def contact_of(public_url: str | None, mail_from: str | None) -> str:
        """The VAPID ``sub``: the server's https address, else its mail sender, else a default."""
        if public_url and public_url.startswith("https://"):
            return public_url.rstrip("/")
        return f"mailto:{mail_from}" if mail_from else DEFAULT_CONTACT

    def send(self, keys: Keys, target: Target, data: str) -> None:
        """Encrypts and posts one notice (blocking: run it in a thread); :class:`Gone` or
        :class:`PushFailed` when it was not taken."""
        from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]

        if endpoint_problem(target.endpoint, self.pattern) is not None:
            raise Gone  # (a server started with other services since it was stored)
        try:
            webpush(target.info(), data, vapid_private_key=keys.private,
                    vapid_claims={"sub": self.contact}, timeout=PUSH_TIMEOUT, ttl=PUSH_TTL,
                    headers={"Urgency": "high"})
        except WebPushException as exc:
            if exc.response is not None and exc.response.status_code in (404, 410):
                raise Gone from None
            raise PushFailed(str(exc).splitlines()[0]) from None
        except OSError as exc:  # (requests' errors are OSErrors)
            raise PushFailed(str(exc)) from None
        except ValueError:  # the browser's key is no P-256 point: it can never be sent to
            raise Gone from None


# --- the database (run in the hub's database threads) ---------------------------------------------

def new_keys() -> Keys:
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(serialization.Encoding.X962,
                                           serialization.PublicFormat.UncompressedPoint)
    return Keys(b64url(private), b64url(public))


def server_keys(engine: Engine) -> Keys:
    """The server's VAPID keys, made by the first process that asks (another process making them
    at the same moment loses the insert and reads the winner's)."""
    query = select(vapid_table.c.private, vapid_table.c.public).where(vapid_table.c.id == 1)
    with engine.connect() as c:
        row = c.execute(query).first()
    if row is None:
        made = new_keys()
        try:
            with engine.begin() as c:
                c.execute(insert(vapid_table).values(id=1, private=made.private,
                                                     public=made.public, created=time.time()))
        except IntegrityError:
            pass
        with engine.connect() as c:
            row = c.execute(query).one()
    return Keys(row.private, row.public)


def add(engine: Engine, game_id: str, seat: int, target: Target) -> int:
    """Keeps the subscription for the seat (the newest :data:`MAX_PER_SEAT`); the number kept.
    The seat gets its notices row (web/mail.py) if it had none: its ``sent`` flag is the one
    decision of each wait, for emails and pushes alike."""
    t = push_table
    with engine.begin() as c:
        c.execute(delete(t).where(t.c.game_id == game_id, t.c.seat == seat,
                                  t.c.endpoint == target.endpoint))
        c.execute(insert(t).values(game_id=game_id, seat=seat, endpoint=target.endpoint,
                                   p256dh=target.p256dh, auth=target.auth, lang=target.lang,
                                   created=time.time()))
        old = c.execute(select(t.c.endpoint).where(t.c.game_id == game_id, t.c.seat == seat)
                        .order_by(t.c.created.desc()).offset(MAX_PER_SEAT)).scalars().all()
        if old:
            c.execute(delete(t).where(t.c.game_id == game_id, t.c.seat == seat,
                                      t.c.endpoint.in_(old)))
        count = c.execute(select(func.count()).select_from(t).where(
            t.c.game_id == game_id, t.c.seat == seat)).scalar_one()
    _notices_row(engine, game_id, seat, target.lang)
    return int(count)


def _notices_row(engine: Engine, game_id: str, seat: int, lang: str) -> None:
    m = mail_table
    with engine.connect() as c:
        if c.execute(select(m.c.seat).where(m.c.game_id == game_id, m.c.seat == seat)).first():
            return
    try:
        with engine.begin() as c:
            c.execute(insert(m).values(game_id=game_id, seat=seat, email=None, lang=lang,
                                       unsub=secrets.token_urlsafe(24), sent=False))
    except IntegrityError:  # (made meanwhile: by an email opt-in, or another process)
        pass


def remove(engine: Engine, game_id: str, seat: int, endpoint: str) -> int:
    """Drops the seat's subscription at ``endpoint``; the number left."""
    t = push_table
    with engine.begin() as c:
        c.execute(delete(t).where(t.c.game_id == game_id, t.c.seat == seat,
                                  t.c.endpoint == endpoint))
        return int(c.execute(select(func.count()).select_from(t).where(
            t.c.game_id == game_id, t.c.seat == seat)).scalar_one())


def drop(engine: Engine, endpoint: str) -> None:
    """Forgets a subscription its push service forgot (for every seat of that browser)."""
    with engine.begin() as c:
        c.execute(delete(push_table).where(push_table.c.endpoint == endpoint))


def targets(engine: Engine, game_id: str, seat: int) -> list[Target]:
    t = push_table
    with engine.connect() as c:
        rows = c.execute(select(t.c.endpoint, t.c.p256dh, t.c.auth, t.c.lang).where(
            t.c.game_id == game_id, t.c.seat == seat).order_by(t.c.created)).all()
    return [Target(r.endpoint, r.p256dh, r.auth, r.lang) for r in rows]


__all__ = ["PUSH_SERVICES", "Gone", "Keys", "MAX_PER_SEAT", "PushFailed", "Pusher", "Target", "add",
           "drop", "endpoint_pattern", "endpoint_problem", "payload", "remove", "server_keys",
           "taken_payload", "targets"]
