"""The email notices over HTTP (docs/protocol.md §3.10; when they go: web/hub/notices.py):

- ``POST /api/games/{id}/seats/{seat}/notify`` ``{"email": "…" | null, "lang": "en"}`` with the
  seat's own token: the seat's address (null: no emails). 409 ``no_mail`` when the server sends
  none (no ``--smtp``). ``GET`` the same path (same token): what the seat asked for.
- ``/unsubscribe/{secret}`` (the link in every email): GET shows a page whose button stops the
  emails (a mail program's link preview must not stop them); POST stops them (the button, and
  RFC 8058's one-click ``List-Unsubscribe-Post`` of mail programs).
- ``/confirm/{secret}`` (the link of the confirmation email an address gets for a game,
  web/mail.py): GET asks whether the address may get that game's turn emails; POST
  ``?answer=yes`` or ``?answer=never`` (no email at all) answers. Pages for people, not API
  operations: they are not in the OpenAPI document.
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Path, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from ..i18n import Catalog, available, catalog
from .answers import Notify, NotifyInfo, ok
from .hub import Hub
from .mail import (
    Link,
    Mailer,
    answer,
    confirming,
    consented,
    playing,
    seat_of,
    subscribe,
    subscription,
    unsubscribe,
)
from .protocol import ProtocolError
from .responses import errors

# white space spelled out: ``\s`` is not the same set in ECMA-262 (the schema's readers: it has
# U+FEFF) and in the server's regex engine (Unicode's White_Space: U+0085)
SPACE = r"\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
# An address as it goes on an envelope: one @, no spaces, none of <>()[],;:"\ (so "<a@b.org>",
# "a@[127.0.0.1]" are refused: they would be other addresses for the same mailbox, round a
# "never"), a dotted domain whose last label does not begin with a digit (no "a@127.0.0.1").
NOT = rf'@<>()\[\],;:"\\{SPACE}'  # (no \": an escape ECMA-262's unicode mode refuses)
EMAIL = rf"^[^{NOT}]{{1,64}}@(?:[^{NOT}.]+\.)+[^{NOT}.0-9][^{NOT}.]*$"
SECRET = r"^[A-Za-z0-9_-]{16,64}$"
Auth = Annotated[str | None, Header()]
Secret = Annotated[str, Path(max_length=128)]  # its shape checked by the page (_shaped)


class NotifyBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    email: str | None = Field(..., max_length=254, pattern=EMAIL,
                              description="where to send the notices; null: none")
    lang: str = Field("en", pattern="^(" + "|".join(available()) + ")$",
                      description="the language of the emails")


def _shaped(secret: str) -> bool:
    """Whether ``secret`` could be a link's: a page answers any other as an unknown link (a
    cut-off link in a mail program must not show a JSON error)."""
    return re.fullmatch(SECRET, secret) is not None


def _page(cat: Catalog, text: str, button: str | None = None,
          game: str | None = None, forms: str = "", status: int = 200) -> HTMLResponse:
    """A small page of an email's link (the form posts to the same address), in ``cat``'s
    language, with a link to ``game``. Its addresses are relative to /unsubscribe/{secret} or
    /confirm/{secret}: they hold under a root path too."""
    e = html.escape
    title = cat.raw("mail", "stop_title")
    form = (f"<form method='post'><button class='btn primary' type='submit' "
            f"data-testid='unsubscribe-confirm'>{e(button)}</button></form>" if button else forms)
    back = (f"<p><a data-testid='unsubscribe-game' class='btn' style='text-decoration:none' "
            f"href='../g/{e(game)}'>"
            f"{e(cat.get('web_me', 'open_label', id=game))}</a></p>" if game else "")
    return HTMLResponse(
        f"<!doctype html><html lang='{e(cat.code)}'><head><meta charset='utf-8'><meta name='viewport' "
        f"content='width=device-width, initial-scale=1'><title>{e(title)}</title>"
        f"<link rel='icon' href='../static/img/favicon.svg' type='image/svg+xml'>"
        f"<link rel='stylesheet' href='../static/css/app.css'></head>"
        f"<body style='padding:0 1rem'><main class='card' "
        f"style='max-width:32rem;margin:3rem auto;padding:1.5rem'><h1>{e(title)}</h1>"
        f"<p data-testid='unsubscribe-text'>{e(text)}</p>{form}{back}</main></body></html>",
        status_code=status,
        headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})


def _answers(cat: Catalog) -> str:
    """The confirmation page's two buttons: yes, or never."""
    e = html.escape
    return "".join(
        f"<form method='post' action='?answer={a}&amp;lang={e(cat.code)}' "
        f"style='margin:.5rem 0'><button "
        f"class='btn{' primary' if a == 'yes' else ''}' type='submit' data-testid='confirm-{a}'>"
        f"{e(cat.raw('mail', f'confirm_{a}'))}</button></form>" for a in ("yes", "never"))


def _asking(cat: Catalog, link: Link) -> str:
    """The confirmation page's question, naming the game(s) its yes is for."""
    ask = cat.get("mail", "confirm_ask", email=link.address)
    return " ".join([ask, *(cat.get("mail", "confirm_for", game=g) for g in link.games[:3])])


async def own_seat(hub: Hub, bearer: Callable[[str | None, str | None], str | None],
                   game_id: str, seat: int, authorization: str | None,
                   x_seat_token: str | None) -> Hub:
    """The hub, once the request carries the seat's own token (else 401; 404 for no such seat)."""
    lg = await hub.get(game_id)
    if not 0 <= seat < len(lg.seats):
        raise ProtocolError("not_found", f"no seat {seat} in this game", seat=seat)
    if lg.seat_for_token(bearer(authorization, x_seat_token)) != seat:
        raise ProtocolError("unauthorised", "send this seat's own token (Authorization: "
                                            "Bearer …)")
    return hub


def add_routes(app: FastAPI, mailer: Mailer | None, hub_of: Callable[[Request], Hub],
               bearer: Callable[[str | None, str | None], str | None],
               client_of: Callable[[Request], str]) -> None:
    """The notify endpoint and the unsubscribe page (``hub_of``, ``bearer`` and ``client_of``:
    app.py's)."""

    async def own(request: Request, game_id: str, seat: int, authorization: str | None,
                  x_seat_token: str | None) -> Hub:
        return await own_seat(hub_of(request), bearer, game_id, seat, authorization, x_seat_token)

    @app.post("/api/games/{game_id}/seats/{seat}/notify",
              responses={**ok(Notify), **errors("unauthorised", "not_found", "no_mail",
                                                 "rate_limited")})
    async def notify(game_id: str, seat: int, body: NotifyBody, request: Request,
                     authorization: Auth = None, x_seat_token: Auth = None) -> dict[str, Any]:
        """The seat's email notices: an address, or null for none."""
        hub = await own(request, game_id, seat, authorization, x_seat_token)
        if mailer is None:
            raise ProtocolError("no_mail", "this server sends no emails (started without --smtp)")
        if body.email is not None and \
                not await hub.db(consented, hub.store.engine, game_id, seat, body.email):
            # (each may cost a stranger a confirmation email: limited per client)
            await hub.db(hub.rates.addresses.check, client_of(request), time.time())
        consent = await hub.db(subscribe, hub.store.engine, game_id, seat, body.email, body.lang)
        went = None
        if body.email is not None and consent is not None and not consent[1]:
            went = await hub.notices.ask_owner(body.email, body.lang, consent[0], game_id)
        await hub.notices.asked(await hub.get(game_id))  # the seat may be waiting already
        asked = await hub.db(subscription, hub.store.engine, game_id, seat)
        if went:
            asked["confirmation"] = "sent"
        return {"game": game_id, "seat": seat, **asked}

    @app.get("/api/games/{game_id}/seats/{seat}/notify",
             responses={**ok(NotifyInfo), **errors("unauthorised", "not_found")})
    async def notify_info(game_id: str, seat: int, request: Request, authorization: Auth = None,
                          x_seat_token: Auth = None) -> dict[str, Any]:
        """What the seat asked for (``email`` null: no emails); ``mail``: whether the server
        sends any."""
        hub = await own(request, game_id, seat, authorization, x_seat_token)
        asked = await hub.db(subscription, hub.store.engine, game_id, seat)
        return {"game": game_id, "seat": seat, "mail": mailer is not None, **asked}

    @app.get("/unsubscribe/{secret}", response_class=HTMLResponse, include_in_schema=False)
    async def unsubscribe_page(secret: Secret, request: Request,
                               lang: str | None = None) -> HTMLResponse:
        """Asks before it stops them, naming the game, in the seat's language (or ``lang``)."""
        hub = hub_of(request)
        found = await hub.db(seat_of, hub.store.engine, secret) if _shaped(secret) else None
        code = lang if lang in available() else found[1] if found else "en"
        cat = catalog(code)
        if found is None:
            return _page(cat, cat.raw("mail", "unknown"), status=200 if _shaped(secret) else 404)
        return _page(cat, cat.get("mail", "stop_ask_game", game=found[0]),
                     cat.raw("mail", "stop_button"), found[0])

    @app.get("/confirm/{secret}", response_class=HTMLResponse, include_in_schema=False)
    async def confirm_page(secret: Secret, request: Request,
                           lang: str | None = None) -> HTMLResponse:
        """Asks the address's owner (a link preview answers nothing)."""
        hub = hub_of(request)
        found = await hub.db(confirming, hub.store.engine, secret) if _shaped(secret) else None
        cat = catalog(lang if lang in available() else found.lang if found else "en")
        if found is None:
            return _page(cat, cat.raw("mail", "confirm_unknown"),
                         status=200 if _shaped(secret) else 404)
        game = found.games[0] if len(found.games) == 1 else None  # (to see whose it is)
        return _page(cat, _asking(cat, found), game=game, forms=_answers(cat))

    @app.post("/confirm/{secret}", response_class=HTMLResponse, include_in_schema=False)
    async def confirm_now(secret: Secret, request: Request,
                          answer_: Annotated[Literal["yes", "never"], Query(alias="answer")],
                          lang: str | None = None) -> HTMLResponse:
        """The answer, in the language the question was read in (``lang``), else the seat's."""
        hub = hub_of(request)
        found = await hub.db(answer, hub.store.engine, secret, answer_ == "yes") \
            if _shaped(secret) else None
        cat = catalog(lang if lang in available() else found.lang if found else "en")
        if found is None:
            return _page(cat, cat.raw("mail", "confirm_unknown"),
                         status=200 if _shaped(secret) else 404)
        if answer_ == "yes":  # a seat that gave it may be waiting now: tell it
            for game_id in await hub.db(playing, hub.store.engine, found.games):
                await hub.notices.asked(await hub.get(game_id))
        game = found.games[0] if answer_ == "yes" and len(found.games) == 1 else None
        return _page(cat, cat.get("mail", f"confirmed_{answer_}", email=found.address), game=game)

    @app.post("/unsubscribe/{secret}", response_class=HTMLResponse, include_in_schema=False)
    async def unsubscribe_now(secret: Secret, request: Request) -> HTMLResponse:
        hub = hub_of(request)
        found = await hub.db(unsubscribe, hub.store.engine, secret) if _shaped(secret) else None
        cat = catalog(found[1] if found else "en")
        if found is None:
            return _page(cat, cat.raw("mail", "unknown"), status=200 if _shaped(secret) else 404)
        return _page(cat, cat.get("mail", "stopped", game=found[0]), game=found[0])


__all__ = ["Auth", "NotifyBody", "add_routes", "own_seat"]
