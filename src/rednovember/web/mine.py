"""My games (issue 20 §2): the page ``/me`` lists the games this browser holds a seat in. The
browser keeps the seat tokens and sends none here: it asks ``POST /api/me`` with the games' ids
(in the body, never in a URL that a log could keep) and gets each one's public summary and its
activity: when it last changed or was talked in, and how many chat lines it has (the browser
remembers how many it has shown, so it can tell the unread ones)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from fastapi import FastAPI, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import func, select

from .answers import MyGames, ok
from .hub import Hub
from .responses import errors
from .security import valid_game_id
from .store import Store, chat_table, games_table

MAX_GAMES = 60  # games one request may ask about


class MyGamesBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    games: list[str] = Field(..., max_length=MAX_GAMES,
                             description=f"the games' ids (at most {MAX_GAMES})")


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def activity(store: Store, ids: list[str]) -> dict[str, dict[str, Any]]:
    """Per stored game: ``at``, the latest of its last change and its last chat line (ISO), and
    ``chat``, how many chat lines it has (their indices run 0, 1, … with no gap)."""
    if not ids:
        return {}
    chats = (select(chat_table.c.game_id, func.max(chat_table.c.idx).label("last"),
                    func.max(chat_table.c.at).label("at"))
             .where(chat_table.c.game_id.in_(ids)).group_by(chat_table.c.game_id))
    games = select(games_table.c.id, games_table.c.updated).where(games_table.c.id.in_(ids))
    with store.engine.connect() as c:
        talk = {r.game_id: (r.last, r.at) for r in c.execute(chats)}
        out = {}
        for r in c.execute(games):
            last, said = talk.get(r.id, (-1, 0.0))
            out[r.id] = {"at": _iso(max(r.updated, said)), "chat": last + 1}
    return out


def add_routes(app: FastAPI, hub_of: Callable[[Request], Hub],
               page: Callable[[Request], Response],
               limit: Callable[[Request], Awaitable[None]] | None = None) -> None:
    """``POST /api/me`` and the page ``/me`` (``page``: the front-end's index page; ``limit``
    raises ``rate_limited`` when the client asked too often: each lookup rebuilds its games)."""

    @app.post("/api/me", responses={**ok(MyGames), **errors("rate_limited")})
    async def my_games(body: MyGamesBody, request: Request) -> dict[str, Any]:
        """The summaries of the games asked for, each with its ``activity``; the ids of those
        that do not exist (any more) in ``missing``. No token: summaries are public."""
        if limit is not None:
            await limit(request)
        hub = hub_of(request)
        ids = [g for g in dict.fromkeys(body.games) if valid_game_id(g)]
        known = await hub.db(activity, hub.store, ids)
        games, missing = [], [g for g in dict.fromkeys(body.games) if g not in known]
        for gid in ids:
            lg = await hub.find(gid) if gid in known else None
            if lg is None:
                if gid in known:
                    missing.append(gid)
                continue
            games.append({**hub.summary(lg), "activity": known[gid]})
            hub.release(lg)
        return {"games": games, "missing": missing}

    @app.api_route("/me", methods=["GET", "HEAD"], include_in_schema=False)
    async def my_games_page(request: Request) -> Response:
        return page(request)


__all__ = ["MAX_GAMES", "activity", "add_routes"]
