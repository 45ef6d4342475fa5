"""The HTTP API's success answers, for its published interface (docs/openapi.json): the shape of
every 200, 201 and 202 body, as pydantic models that only declare (the handlers return plain
dicts; nothing here changes what is sent). Each route names its answer with :func:`ok` next to
its errors (web/responses.py): ``responses={**ok(Summary), **errors("not_found")}``; the
handler's return type stays ``dict[str, Any]`` (FastAPI's fast serializer; web/responses.py drops
the shapeless schema FastAPI makes of it).

Every field the server sends is declared, and no other (``additionalProperties: false``), except
where a body is large, open-ended and described elsewhere: the game's ``view``
(docs/protocol.md §5.2) and the save's ``state`` (docs/formats.md) declare their key fields and
allow the rest. The field names and meanings are those of docs/protocol.md §3 and §5.

Modules: ``base`` (what shapes are made of), ``server`` (the server, its texts, the rules and
the data), ``game`` (a game's summary, state and seats), ``review`` (replay, story, win chance,
save), ``learn`` (Learn to play)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from .game import (
    Created,
    Games,
    GameState,
    Handed,
    Legal,
    MyGames,
    Notices,
    Notify,
    NotifyInfo,
    Played,
    PushSeat,
    Reclaimed,
    Renamed,
    SeatLink,
    SeatTaken,
    Summary,
)
from .learn import LearnState, Lessons, Solution
from .review import Computing, Replay, Save, Story, WinChance
from .server import Bots, Data, Languages, Meta, Ok, RulesReference, Texts


def ok(model: type[BaseModel], status: int = 200) -> dict[int | str, dict[str, Any]]:
    """A route's ``responses`` entry for its success answer: ``model``'s shape, described by
    the first line of its docstring."""
    doc = (model.__doc__ or model.__name__).strip().splitlines()[0]
    return {status: {"model": model, "description": doc}}


__all__ = ["Bots", "Computing", "Created", "Data", "GameState", "Games", "Handed", "Languages",
           "LearnState", "Legal", "Lessons", "Meta", "MyGames", "Notices", "Notify", "NotifyInfo",
           "Ok", "Played", "PushSeat", "Reclaimed", "Renamed", "Replay", "RulesReference", "Save",
           "SeatLink", "SeatTaken", "Solution", "Story", "Summary", "Texts", "WinChance", "ok"]
