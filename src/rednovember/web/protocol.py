"""The wire protocol (docs/protocol.md): validation of client messages, errors, and the
machine-friendly description of legal actions and results sent to the browser."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Annotated, Any, Literal, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from ..bots.heuristic import best_plans
from ..i18n.describe import action_cost, keeper_walk, low_water_penalty, repair_chance, repair_doomed
from ..i18n.warnings import action_warnings
from ..rules import Action, Game, outcome
from ..rules.action import ITEM_ARG, ROOM_ARG
from ..rules.data import REPAIRS
from ..rules.state import MOVE

MAX_MESSAGE_BYTES = 16 * 1024  # a WebSocket text message (larger: error too_large)
MAX_FRAME_BYTES = 1024 * 1024  # uvicorn closes the socket (1009) above this
MAX_BODY_BYTES = 64 * 1024  # an HTTP request body
MAX_TOKENS = 8
MAX_NAME_CHARS = 40
MAX_ACTION_CHARS = 64
MAX_ID_CHARS = 64
MAX_BOT_CHARS = 32

CLIENT_TYPES = ("hello", "act", "undo", "bot", "reclaim", "sync", "ping", "chat", "rematch",
                "hint")
MAX_CHAT_CHARS = 2000  # a chat message as sent (web/chat.py keeps 300 after trimming)

HTTP_STATUS = {
    "bad_json": 400, "too_large": 413, "bad_message": 422, "unknown_type": 422, "not_found": 404,
    "unauthorised": 401, "forbidden": 403, "not_started": 409, "not_your_turn": 409,
    "illegal": 409, "stale": 409, "game_over": 409, "cannot_undo": 409, "seat_taken": 409,
    "unknown_bot": 422, "bad_config": 422, "unknown_language": 404, "internal": 500,
    "rate_limited": 429,
    "not_over": 409,  # the story of a game (GET /api/games/{id}/story) before its end
    "busy": 503,  # too many win-chance curves being computed (GET /api/games/{id}/winchance)
    "unavailable": 503,  # the database does not answer (GET /api/ready)
    "no_mail": 409,  # the server sends no emails (POST /api/games/{id}/seats/{seat}/notify)
    "no_push": 409,  # the server sends no pushes (POST /api/games/{id}/seats/{seat}/push)
}


class ProtocolError(Exception):
    """A refused request: ``code`` (docs/protocol.md §6), a readable English ``message``, and for
    a client to say it in its own language: ``detail`` (which case of the code, or None) and
    ``params`` (the numbers and names in it; seats are 0-based, as everywhere in the protocol)."""

    def __init__(self, code: str, message: str, detail: str | None = None,
                 **params: int | str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail
        self.params = params

    @property
    def status(self) -> int:
        return HTTP_STATUS.get(self.code, 400)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.detail is not None:
            out["detail"] = self.detail
        if self.params:
            out["params"] = dict(self.params)
        return out


@dataclass(frozen=True)
class ClientMessage:
    """A validated message from a browser."""

    type: str
    id: str | int | None = None
    seat: int | None = None
    action: str | None = None
    version: int | None = None
    bot: str | None = None
    tokens: tuple[str, ...] = ()
    creator: str | None = None
    text: str | None = None
    token: str | None = None
    name: str | None = None
    target: tuple[str, int | str] | None = None  # a board ping's (kind, id); None: a keep-alive
    what: str | None = None  # a board ping's kind: go / help / danger


# --- the shapes of client messages (pydantic: strict types, no unknown field) -------------------
def _nonblank(v: str) -> str:
    if not v.strip():
        raise ValueError("must not be blank")
    return v


Filled = AfterValidator(_nonblank)
ActionText = Annotated[str, Field(min_length=1, max_length=MAX_ACTION_CHARS), Filled]
BotName = Annotated[str, Field(min_length=1, max_length=MAX_BOT_CHARS), Filled]
ChatText = Annotated[str, Field(min_length=1, max_length=MAX_CHAT_CHARS), Filled]
SeatToken = Annotated[str, Field(min_length=1, max_length=128), Filled]
PlayerName = Annotated[str, Field(min_length=1, max_length=MAX_NAME_CHARS), Filled]
SeatNo = Annotated[int, Field(ge=0, le=7)]
Version = Annotated[int, Field(ge=0, le=2**53)]
Token = Annotated[str, Field(max_length=128)]


class _Shape(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class _Bare(_Shape):
    """sync, rematch, a keep-alive ping: no fields."""


class _Hello(_Shape):
    tokens: list[Token] = Field(default_factory=list, max_length=MAX_TOKENS)
    creator: Token | None = None


class _Act(_Shape):
    seat: SeatNo
    action: ActionText
    version: Version | None = None


class _Undo(_Shape):
    seat: SeatNo
    version: Version | None = None


class _Bot(_Shape):
    seat: SeatNo
    bot: BotName


class _Chat(_Shape):
    seat: SeatNo
    text: ChatText


class _Hint(_Shape):  # the advisor (web/hub/hints.py)
    seat: SeatNo


class _Reclaim(_Shape):
    seat: SeatNo
    token: SeatToken
    name: PlayerName | None = None


PingWhat = Literal["go", "help", "danger"]
PingKind = Literal["room", "hatch", "space", "token"]
PING_WHATS: tuple[str, ...] = get_args(PingWhat)
PING_TARGETS: tuple[str, ...] = get_args(PingKind)


class _Target(_Shape):
    kind: PingKind
    id: Annotated[int, Field(ge=0, le=999)] | Annotated[str, Field(min_length=1,
                                                                   max_length=MAX_ID_CHARS)]


class _BoardPing(_Shape):
    """A ``ping`` with a target marks it on everyone's board (a bare ``ping`` is a keep-alive).
    The shape is checked here; whether the target exists, by the hub against the game's data."""

    seat: SeatNo
    target: _Target
    what: PingWhat


SHAPES: dict[str, type[_Shape]] = {
    "hello": _Hello, "act": _Act, "undo": _Undo, "bot": _Bot, "chat": _Chat, "hint": _Hint,
    "reclaim": _Reclaim, "sync": _Bare, "rematch": _Bare, "ping": _Bare,
}


def request_id(msg: Any) -> str | int | None:
    """The client's ``id`` to echo, if it is a valid one (else None)."""
    if not isinstance(msg, dict):
        return None
    v = msg.get("id")
    if isinstance(v, str) and len(v) <= MAX_ID_CHARS:
        return v
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) <= 2**53:
        return int(v)
    return None


def decode(text: str | bytes) -> dict[str, Any]:
    """Parse one raw frame into a JSON object (size and syntax checks only)."""
    if isinstance(text, bytes):
        if len(text) > MAX_MESSAGE_BYTES:
            raise ProtocolError("too_large", f"message larger than {MAX_MESSAGE_BYTES} bytes")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad_json", "message is not UTF-8 text") from None
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"message larger than {MAX_MESSAGE_BYTES} bytes")
    try:
        msg = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "message is not valid JSON") from None
    if not isinstance(msg, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object with a 'type'")
    return msg


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def validate(msg: dict[str, Any]) -> ClientMessage:
    """Check a decoded message's type and shape; raises :class:`ProtocolError`."""
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "a message must have a string field 'type'")
    if kind not in CLIENT_TYPES:
        shown = kind[:40]
        raise ProtocolError("unknown_type",
                            f"unknown message type {shown!r}; known: {', '.join(CLIENT_TYPES)}")
    if "id" in msg and msg["id"] is not None and request_id(msg) is None:
        raise ProtocolError("bad_message",
                            f"'id' must be a string of at most {MAX_ID_CHARS} characters or an integer")
    shape = SHAPES[kind]
    if kind == "ping" and set(msg) & {"seat", "target", "what"}:
        shape = _BoardPing
    fields = {k: v for k, v in msg.items() if k not in ("type", "id")}
    try:
        m = shape.model_validate(fields)
    except ValidationError as exc:
        raise _refusal(kind, exc) from None
    return _message(kind, request_id(msg), m)


def _refusal(kind: str, exc: ValidationError) -> ProtocolError:
    """The first problem of a message, said plainly: ``act: 'seat': Input should be ...``."""
    err = exc.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(x) for x in err["loc"])[:60]
    if where.startswith("target.id"):  # one of two shapes: say both
        text = f"{kind}: the target's 'id' must be a number 0..999 or a name"
    elif err["type"] == "extra_forbidden":
        text = f"{kind}: unknown field {where!r}"
    elif err["type"] == "missing":
        text = f"{kind}: missing field {where!r}"
    else:
        text = f"{kind}: {where!r}: {err['msg']}"
    return ProtocolError("bad_message", text, "bad_target" if where.startswith("target") else None)


def _message(kind: str, rid: str | int | None, m: _Shape) -> ClientMessage:
    if isinstance(m, _Hello):
        return ClientMessage(kind, rid, tokens=tuple(m.tokens), creator=m.creator)
    if isinstance(m, _BoardPing):
        return ClientMessage(kind, rid, seat=m.seat, target=(m.target.kind, m.target.id),
                             what=m.what)
    if isinstance(m, _Reclaim):
        name = None if m.name is None else " ".join(m.name.split())
        return ClientMessage(kind, rid, seat=m.seat, token=m.token, name=name)
    return ClientMessage(kind, rid, seat=getattr(m, "seat", None),
                         action=getattr(m, "action", None), version=getattr(m, "version", None),
                         bot=getattr(m, "bot", None), text=getattr(m, "text", None))


def parse_message(text: str | bytes) -> ClientMessage:
    return validate(decode(text))


# --- what the client receives --------------------------------------------------------------------
def action_info(action: Action, game: Game) -> dict[str, Any]:
    """One legal action, broken down for a program (docs/protocol.md §5.2)."""
    data = game.data
    k = action.kind
    info: dict[str, Any] = {
        "text": action.text(data), "kind": k, "arg": action.arg, "minutes": action.minutes,
        "item": data.items[action.arg].id if k in ITEM_ARG else None,
        "room": action.arg if k in ROOM_ARG or k == "unblock_hatch" else None,
        "gnome": action.arg if k in ("trade", "attack") else None,
        "count": action.arg if k == "draw" else None,
        "cost": None, "penalty": 0, "repair": k in REPAIRS, "bonus": None, "chance": None,
        "doomed": False, "token_lost": None, "warnings": [], "ghost_after": None,
        "meets": None,
    }
    try:
        info["cost"] = action_cost(action, game)
        if info["cost"] is not None and (k in REPAIRS or k in ("draw", "trade", "attack")):
            info["penalty"] = low_water_penalty(game, k)
        if info["cost"] is not None and k not in ("open", "enter", "exit"):  # the turn's last cost
            info["ghost_after"] = game.ghost - info["cost"]
            events, items = keeper_walk(game, info["ghost_after"])
            info["meets"] = {"events": events, "items": items}
        if k in REPAIRS:
            doomed, token = repair_doomed(action, game)
            info["doomed"] = doomed
            info["token_lost"] = data.tokens[token] if token >= 0 else None
            info["bonus"] = game.bonus(k)
            info["chance"] = repair_chance(action, game)
        info["warnings"] = [{"code": code, **fields} for code, fields in action_warnings(action, game)]
    except (IndexError, KeyError, ValueError):  # pragma: no cover - a describe helper's blind spot
        pass
    return info


def repair_key(a: Action) -> str:
    """A repair's group on the web page: its ``kind``, or ``unblock_hatch:ROOM``."""
    return f"{a.kind}:{a.arg}" if a.kind == "unblock_hatch" else a.kind


def suggestions(game: Game) -> dict[str, dict[str, Any]]:
    """For each repair the active gnome can make where it stands, what a sensible player would
    pick (the heuristic bot's best plan for it): minutes and the items to play first, and
    ``best``: whether that plan is the heuristic's best plan for the whole turn (the page styles
    only that repair as the main choice). The web page's default; keyed like the page groups
    repairs (``kind`` or ``unblock_hatch:ROOM``)."""
    if game.phase != MOVE or game.result is not None:
        return {}
    out: dict[str, dict[str, Any]] = {}
    for rank, plan in enumerate(best_plans(game, game.player_to_move)):
        a = plan.action
        if a.kind not in REPAIRS or any(s.kind != "play" for s in plan.steps[:-1]):
            continue
        key = repair_key(a)
        if key not in out:
            out[key] = {"minutes": a.minutes, "items": [game.data.items[s.arg].id
                                                         for s in plan.steps[:-1]],
                        "best": rank == 0}
    return out


def result_info(game: Game) -> dict[str, Any] | None:
    if game.result is None:
        return None
    return {"won": game.result.won, "cause": game.result.cause,
            "gnomes": [{"number": gn.number, "colour": gn.colour, "seat": gn.player,
                        "won": outcome(game, gn.number), "abandoned": gn.abandoned}
                       for gn in game.gnomes]}


def jsonable(x: Any) -> Any:
    """Tuples (log entries) to lists, recursively; floats that JSON cannot hold to None."""
    if isinstance(x, tuple | list):
        return [jsonable(v) for v in x]
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


__all__ = ["CLIENT_TYPES", "ClientMessage", "HTTP_STATUS", "MAX_BODY_BYTES", "MAX_FRAME_BYTES",
           "MAX_MESSAGE_BYTES", "MAX_NAME_CHARS", "MAX_TOKENS", "ProtocolError", "action_info",
           "decode", "jsonable", "parse_message", "request_id", "result_info", "validate"]
