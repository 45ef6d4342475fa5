"""The FastAPI application: HTTP API, WebSocket endpoint, static front-end, rules reference.

``create_app(db_url, …)`` builds it; ``rednovember serve`` runs it on uvicorn. The protocol is
described in docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketState

from .. import __version__ as package_version
from ..rules import GameData, load_data
from ..rules.serialize import to_dict
from .answers import (
    Computing,
    Created,
    Games,
    GameState,
    Handed,
    Legal,
    Played,
    Reclaimed,
    Renamed,
    Replay,
    Save,
    SeatLink,
    SeatTaken,
    Story,
    Summary,
    WinChance,
    ok,
)
from .assets import Assets, HashedStatic
from .bodies import (
    ActBody,
    BotBody,
    CreateGame,
    ReclaimBody,
    RenameBody,
    SeatLinkBody,
    TakeSeat,
    UndoBody,
    table_settings,
)
from .datajson import data_json
from .guards import BodyLimit, HeadAsGet, allowed_methods
from .headers import SecurityHeaders
from .hub import Connection, Hub, LiveGame
from .hub.cluster import nodes_for
from .hub.live import Clock
from .hub.notices import MAIL_AFTER
from .info_api import add_routes as add_info_routes
from .learn_api import add_routes as add_learn_routes
from .limits import Limits, OpenSockets, client_key, client_message_window, message_window
from .mail import Mailer
from .mail_api import add_routes as add_mail_routes
from .mail_api import own_seat
from .mine import add_routes as add_my_games_routes
from .protocol import ProtocolError
from .push import Pusher
from .push_api import add_routes as add_push_routes
from .pwa import add_routes as add_app_routes
from .pwa import offline_texts
from .replay import replay_step
from .responses import errors, install
from .rootpath import RootPath, page_html
from .socket import handle, send_close, serve_socket
from .store import Store
from .story import StoryCache
from .tables import (
    DEFAULT_WAITING_EXPIRY,
    MIN_TURN_TIMER,
    origin_of,
    player_name,
    seat_link,
)
from .winchance import WEB_ROLLOUTS, WinChanceService

log = logging.getLogger("rednovember.web")

# what playing can be refused with (hub/writer.py)
PLAY_ERRORS = ("not_started", "not_your_turn", "illegal", "stale", "game_over")
STATIC_DIR = Path(str(resources.files("rednovember.web").joinpath("static")))


Auth = Annotated[str | None, Header(description="Bearer SEAT_TOKEN")]
SeatTok = Annotated[str | None, Header(description="SEAT_TOKEN (alternative)")]
CreatorTok = Annotated[str | None, Header(description="the creator token")]


def _error(code: str, message: str, status: int | None = None) -> JSONResponse:
    err = ProtocolError(code, message)
    return JSONResponse({"error": err.to_dict()}, status_code=status or err.status)


def _validation_message(exc: RequestValidationError) -> tuple[str, str]:
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return "bad_json", "the request body is not valid JSON"
    parts = []
    for e in errors[:5]:
        where = ".".join(str(x) for x in e.get("loc", ()) if x != "body") or "body"
        parts.append(f"{where}: {e.get('msg', 'invalid')}")
    return "bad_message", "; ".join(parts) or "invalid request"


# --- the application -----------------------------------------------------------------------------
def create_app(db_url: str = "sqlite:///rednovember.db", *, data: GameData | None = None,
               bot_delay: float = 0.6, takeover_grace: float = 30.0,
               static_dir: Path | None = None, limits: Limits | None = None,
               waiting_expiry: float = DEFAULT_WAITING_EXPIRY,
               min_turn_timer: float = MIN_TURN_TIMER, root_path: str = "",
               winchance_rollouts: int = WEB_ROLLOUTS, clock: Clock | None = None,
               mailer: Mailer | None = None, mail_after: float = MAIL_AFTER,
               pusher: Pusher | None = None) -> FastAPI:
    """The ASGI application. The database is opened (and migrated) on startup. ``limits``:
    per-client limits (web/limits.py); None, none (``rednovember serve`` sets them).
    ``root_path``: the sub-path it is served under (web/rootpath.py), "" for none. ``clock``:
    the time of turn-based deadlines (a test's, to move days on). ``pusher``: how Web Push notices
    are sent (web/push.py; None: none)."""
    static = static_dir or STATIC_DIR
    assets = Assets(static)
    game_data = data or load_data()
    limit = limits or Limits.none()
    winchances = WinChanceService(winchance_rollouts)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(db_url)
        log.info("database schema at revision %s", store.schema)
        hub = Hub(store, game_data, bot_delay, takeover_grace, waiting_expiry, min_turn_timer,
                  nodes_for(store.shared, db_url, store.node), limit, clock, mailer, mail_after,
                  pusher)
        app.state.hub = hub
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            winchances.close()
            store.close()

    app = FastAPI(title="Red November", version=package_version, lifespan=lifespan,
                  description="Play Red November in the browser, together (docs/protocol.md).")
    install(app, min_turn_timer)  # every route's errors in /openapi.json (web/responses.py)
    app.add_middleware(BodyLimit)
    app.add_middleware(HeadAsGet)
    app.add_middleware(GZipMiddleware, minimum_size=1000)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(RootPath, root=root_path)  # outermost: every layer sees the app's paths

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    @app.exception_handler(ProtocolError)
    async def _protocol_error(_: Request, exc: ProtocolError) -> JSONResponse:
        wait = exc.params.get("seconds")
        headers = {"Retry-After": str(wait)} if exc.status in (429, 503) and wait else None
        return JSONResponse({"error": exc.to_dict()}, status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        code, message = _validation_message(exc)
        return _error(code, message)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {400: "bad_json", 404: "not_found", 405: "bad_message",  # 400: a body unparsed
                401: "unauthorised"}.get(exc.status_code, "bad_message")
        out = _error(code, str(exc.detail), exc.status_code)
        out.headers.update(exc.headers or {})
        if exc.status_code == 405:  # every method of the path, not only the first route's
            out.headers["Allow"] = ", ".join(allowed_methods(app.router.routes, request.scope))
        return out

    @app.exception_handler(Exception)
    async def _crash(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=exc)
        return _error("internal", "internal error; nothing changed")

    # --- auth helpers ---------------------------------------------------------------------------
    def root_of(request: Request) -> str:
        """The sub-path the app is served under ("" for none; web/rootpath.py)."""
        return str(request.scope.get("root_path", "")).rstrip("/")

    def client_of(request: Request | WebSocket) -> str:
        """The client (web/limits.client_key) of the address uvicorn gives (a trusted proxy's
        X-Forwarded-For there, from --forwarded-allow-ips only)."""
        return client_key(request.client.host if request.client else "unknown")

    def bearer(authorization: str | None, x_seat_token: str | None) -> str | None:
        if x_seat_token:
            return x_seat_token.strip()
        if authorization and authorization.lower().startswith("bearer "):
            return authorization[7:].strip()
        return None

    def seat_of(lg: LiveGame, token: str | None) -> int:
        if not token:
            raise ProtocolError("unauthorised", "send your seat token (Authorization: Bearer …)")
        seat = lg.seat_for_token(token)
        if seat is None:
            raise ProtocolError("unauthorised", "this token holds no seat in this game")
        return seat

    add_info_routes(app, game_data, hub_of, root_of)  # health, meta, texts, rules (web/info_api.py)

    # --- games ----------------------------------------------------------------------------------
    @app.post("/api/games", status_code=201,
              responses={**ok(Created, 201), **errors("bad_config", "rate_limited")})
    async def create_game(body: CreateGame, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        who = client_of(request)
        await hub.db(hub.rates.new_game, who, time.time())
        settings = table_settings(body, hub.min_turn_timer)
        lg, token = await hub.create_game(body.players, body.gnomes_per_player, body.variants,
                                          body.seed, settings=settings, client=who)
        return {"game": hub.summary(lg), "creator_token": token}

    @app.get("/api/games", responses=ok(Games))
    async def list_games(request: Request,
                         limit: Annotated[int, Query(ge=1, le=200)] = 50) -> dict[str, Any]:
        """The open tables: listed games waiting for players (unlisted ones only by link)."""
        hub = hub_of(request)
        out = []
        for gid in hub.store.listed_waiting_ids(limit):
            lg = await hub.find(gid)
            if lg is not None:
                out.append(hub.summary(lg))
                hub.release(lg)
        return {"games": out}

    @app.get("/api/games/{game_id}",
             responses={**ok(Summary), **errors("not_found")})
    async def game_summary(game_id: str, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        return hub.summary(await hub.get(game_id))

    @app.post("/api/games/{game_id}/seats", responses={
        **ok(SeatTaken), **errors("not_found", "seat_taken", "game_over", "rate_limited")})
    async def take_seat(game_id: str, body: TakeSeat, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        lg = await hub.get(game_id)
        name = player_name(body.name)
        await hub.db(hub.rates.seats.check, client_of(request), time.time())
        seat, token = await hub.take_seat(lg, body.seat, body.colour, name)
        return {"seat": seat, "token": token, "game": hub.summary(lg)}

    @app.get("/api/games/{game_id}/state",
             responses={**ok(GameState), **errors("not_found", "unauthorised")})
    async def game_state(game_id: str, request: Request, authorization: Auth = None,
                         x_seat_token: SeatTok = None) -> dict[str, Any]:
        hub = hub_of(request)
        lg = await hub.get(game_id)
        token = bearer(authorization, x_seat_token)
        seat = seat_of(lg, token) if token else None
        return hub.state(lg, seat)

    @app.get("/api/games/{game_id}/legal",
             responses={**ok(Legal), **errors("not_found", "unauthorised")})
    async def legal(game_id: str, request: Request, authorization: Auth = None,
                    x_seat_token: SeatTok = None) -> dict[str, Any]:
        hub = hub_of(request)
        lg = await hub.get(game_id)
        seat = seat_of(lg, bearer(authorization, x_seat_token))
        st = hub.state(lg, seat, len(lg.game.log))
        return {"seat": seat, "version": lg.version, "actions": st["actions"]}

    @app.post("/api/games/{game_id}/act", responses={
        **ok(Played), **errors("not_found", "unauthorised", "forbidden", *PLAY_ERRORS,
                               "rate_limited")})
    async def act(game_id: str, body: ActBody, request: Request, authorization: Auth = None,
                  x_seat_token: SeatTok = None) -> dict[str, Any]:
        hub = hub_of(request)
        lg = await hub.get(game_id)
        seat = seat_of(lg, bearer(authorization, x_seat_token))
        await hub.db(hub.rates.moves.check, client_of(request), time.time())
        await hub.act(lg, seat, body.action, body.version)
        return {"ok": True, "version": lg.version, "state": hub.state(lg, seat)}

    @app.post("/api/games/{game_id}/undo", responses={
        **ok(Played),
        **errors("not_found", "unauthorised", "forbidden", "cannot_undo", *PLAY_ERRORS,
                 "rate_limited")})
    async def undo(game_id: str, request: Request, body: UndoBody | None = None,
                   authorization: Auth = None, x_seat_token: SeatTok = None) -> dict[str, Any]:
        hub = hub_of(request)
        lg = await hub.get(game_id)
        seat = seat_of(lg, bearer(authorization, x_seat_token))
        await hub.db(hub.rates.moves.check, client_of(request), time.time())
        await hub.undo(lg, seat, body.version if body else None)
        return {"ok": True, "version": lg.version, "state": hub.state(lg, seat)}

    @app.post("/api/games/{game_id}/seats/{seat}/bot", responses={
        **ok(Handed), **errors("not_found", "unauthorised", "forbidden", "game_over",
                               "unknown_bot", "rate_limited")})
    async def seat_to_bot(game_id: str, seat: int, body: BotBody, request: Request,
                          authorization: Auth = None, x_seat_token: SeatTok = None,
                          x_creator_token: CreatorTok = None) -> dict[str, Any]:
        hub = hub_of(request)
        lg = await hub.get(game_id)
        await hub.db(hub.rates.moves.check, client_of(request), time.time())
        token = bearer(authorization, x_seat_token)
        by: set[int] = set()
        if token:
            held = lg.seat_for_token(token)
            if held is None:
                raise ProtocolError("unauthorised", "this token holds no seat in this game")
            by.add(held)
        creator = lg.is_creator(x_creator_token)
        if x_creator_token and not creator:
            raise ProtocolError("unauthorised", "this is not the game's creator token")
        await hub.hand_to_bot(lg, seat, body.bot, by, creator)
        return {"ok": True, "game": hub.summary(lg)}

    @app.post("/api/games/{game_id}/seat-link", responses={
        **ok(SeatLink), **errors("not_found", "unauthorised", "forbidden")})
    async def make_seat_link(game_id: str, request: Request, body: SeatLinkBody | None = None,
                             authorization: Auth = None,
                             x_seat_token: SeatTok = None) -> dict[str, Any]:
        """The holder's seat link (token in the URL fragment) and its QR code (SVG)."""
        hub = hub_of(request)
        lg = await hub.get(game_id)
        token = bearer(authorization, x_seat_token)
        seat = seat_of(lg, token)
        assert token is not None
        if body is not None and body.seat is not None and body.seat != seat:
            raise ProtocolError("forbidden", f"this token holds seat {seat}, not seat {body.seat}",
                                "no_token_for_seat", seat=body.seat)
        origin = origin_of(body.origin if body else None, str(request.base_url))
        if body is not None and body.origin is not None:  # base_url has the root path already
            origin += root_of(request)
        return seat_link(lg.id, seat, token, origin)

    @app.get("/api/games/{game_id}/replay/{step}",
             responses={**ok(Replay), **errors("not_found")})
    async def replay_at(game_id: str, step: int, request: Request) -> dict[str, Any]:
        """The game after its first ``step`` actions (spectator's rights while it runs)."""
        lg = await hub_of(request).get(game_id)
        return await asyncio.to_thread(replay_step, lg, step)  # a replay: not on the loop

    stories = StoryCache()

    @app.get("/api/games/{game_id}/story",
             responses={**ok(Story), **errors("not_found", "not_over")})
    async def story(game_id: str, request: Request) -> dict[str, Any]:
        """A finished game's story for the end screen (409 ``not_over`` before the end)."""
        lg = await hub_of(request).get(game_id)
        return await asyncio.to_thread(stories.story, lg)  # a replay: not on the loop

    @app.get("/api/games/{game_id}/winchance", responses={
        **ok(WinChance), **ok(Computing, 202),
        **errors("not_found", "not_over", "rate_limited", "busy")})
    async def winchance(game_id: str, request: Request, response: Response) -> dict[str, Any]:
        """A finished game's win-chance curve and turning points (web/winchance.py): 202
        ``computing`` until it is ready (ask again) with how far the worker is, 409 ``not_over``
        before the end; starting a computation counts against the client's
        ``winchances_per_hour``."""
        hub = hub_of(request)
        lg = await hub.get(game_id)

        async def admit() -> None:
            await hub.db(hub.rates.winchances.check, client_of(request), time.time())

        found = await winchances.get(lg, hub.db, hub.store.engine, admit)
        if found is None:  # with how far the worker is, when it is on this game
            response.status_code = 202
            return {"game": game_id, "status": "computing",
                    "progress": winchances.progress(lg)}
        return found

    @app.post("/api/games/{game_id}/seats/{seat}/reclaim", responses={
        **ok(Reclaimed), **errors("not_found", "unauthorised", "forbidden", "game_over")})
    async def reclaim(game_id: str, seat: int, request: Request, body: ReclaimBody | None = None,
                      authorization: Auth = None, x_seat_token: SeatTok = None) -> dict[str, Any]:
        hub = hub_of(request)
        lg = await hub.get(game_id)
        token = bearer(authorization, x_seat_token)
        if not token:
            raise ProtocolError("unauthorised", "send the seat's original token (Authorization: "
                                                "Bearer …)")
        name = player_name(body.name) if body and body.name else None
        await hub.reclaim(lg, seat, token, name)
        return {"ok": True, "seat": seat, "game": hub.summary(lg)}

    @app.post("/api/games/{game_id}/seats/{seat}/name", responses={
        **ok(Renamed), **errors("not_found", "unauthorised", "forbidden", "game_over",
                                "rate_limited")})
    async def rename_seat(game_id: str, seat: int, body: RenameBody, request: Request,
                          authorization: Auth = None,
                          x_seat_token: SeatTok = None) -> dict[str, Any]:
        """The seat's player gives it another name (with the seat's own token; counted as
        taking a seat for the per-client limit)."""
        hub = await own_seat(hub_of(request), bearer, game_id, seat, authorization, x_seat_token)
        name = player_name(body.name)
        await hub.db(hub.rates.seats.check, client_of(request), time.time())
        lg = await hub.get(game_id)
        await hub.rename(lg, seat, name)
        return {"ok": True, "game": hub.summary(lg)}

    @app.get("/api/games/{game_id}/export",
             responses={**ok(Save), **errors("not_found", "forbidden")})
    async def export(game_id: str, request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        lg = await hub.get(game_id)
        if lg.status != "over":
            raise ProtocolError("forbidden", "the save is available once the game is over (it "
                                             "holds the order of the decks)")
        return to_dict(lg.game)

    # --- WebSocket ------------------------------------------------------------------------------
    sockets = OpenSockets(limit.sockets_per_client)  # --limit-sockets-per-client
    client_messages = client_message_window(limit)  # --limit-client-messages-per-10s

    @app.websocket("/ws/games/{game_id}")
    async def ws_game(ws: WebSocket, game_id: str) -> None:
        who = client_of(ws)
        refusal = sockets.refusal(who)
        if refusal is not None:
            await ws.accept()
            await send_close(ws, {"type": "error", **refusal.to_dict()}, 4429)
            return
        with sockets.held(who):
            await ws.accept()
            await _ws_game(ws, game_id)

    async def _ws_game(ws: WebSocket, game_id: str) -> None:
        hub = hub_of(ws)
        try:
            lg = await hub.find(game_id)
        except Exception:  # pragma: no cover - a broken record
            log.exception("loading game %s", game_id)
            lg = None
        if lg is None:
            await send_close(ws, {"type": "error", "code": "not_found",
                                   "message": "no such game"}, 4404)
            return
        conn = Connection(ws.send_text, client_of(ws))
        conn.limit = message_window(limit)
        conn.client_limit = client_messages
        writer = asyncio.create_task(conn.writer())
        try:
            await serve_socket(hub, lg, ws, conn, writer)
        finally:
            hub.detach(lg, conn)
            if not writer.done():
                conn.outbox.put_nowait(None)
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(writer, 2.0)
            writer.cancel()
            if conn.close_code is not None and ws.application_state != WebSocketState.DISCONNECTED:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(ws.close(conn.close_code), 2.0)

    # --- static front-end -------------------------------------------------------------------------
    if static.is_dir():
        app.mount("/static", HashedStatic(assets, str(static)), name="static")

    # the front-end's page and its CSP per root path (web/rootpath.page_html, web/assets.py)
    pages: dict[str, tuple[str, str]] = {}

    def index(request: Request) -> Response:
        root = root_of(request)
        if root not in pages:
            page = static / "index.html"
            if not page.is_file():
                return HTMLResponse(
                    "<!doctype html><title>Red November</title><h1>Red November</h1>"
                    "<p>The browser front-end is not installed. The API is at "
                    f"<a href='{root}/docs'>{root}/docs</a>.</p>")
            text = offline_texts(page.read_text(encoding="utf-8"))
            pages[root] = assets.page(page_html(text, root), root)
        text, csp = pages[root]
        return HTMLResponse(text, headers={"Cache-Control": "no-cache",
                                           "Content-Security-Policy": csp})

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def root(request: Request) -> Response:
        return index(request)

    @app.api_route("/g/{game_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def game_page(request: Request, game_id: str) -> Response:
        return index(request)

    @app.api_route("/g/{game_id}/replay", methods=["GET", "HEAD"], include_in_schema=False)
    async def replay_page(request: Request, game_id: str) -> Response:
        return index(request)

    async def learn_limit(request: Request) -> None:
        hub = hub_of(request)
        await hub.db(hub.rates.learn.check, client_of(request), time.time())

    add_mail_routes(app, mailer, hub_of, bearer, client_of)  # email notices: …/notify, /unsubscribe/…
    add_push_routes(app, hub_of, bearer, mailer is not None, pusher)  # Web Push: …/push
    add_learn_routes(app, index, learn_limit)  # Learn to play: /api/learn…, /learn, /learn/{id}
    add_app_routes(app, assets, root_of)  # the installable app: manifest, /sw.js (web/pwa.py)
    async def lookup_limit(request: Request) -> None:
        hub = hub_of(request)
        await hub.db(hub.rates.lookups.check, client_of(request), time.time())

    add_my_games_routes(app, hub_of, index, lookup_limit)  # My games: POST /api/me, /me

    return app


__all__ = ["create_app", "data_json", "handle"]
