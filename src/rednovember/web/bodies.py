"""The HTTP API's request bodies (pydantic; docs/protocol.md §3): each refuses unknown fields
and wrong types (422 ``bad_message``), and the settings a create request asks for.

Their JSON schemas (docs/openapi.json) refuse what the server refuses: the closed sets (variants,
colours, bots) as enums, and the rules the server checks after the shape (the gnomes of one or two
players, a turn timer's range, a name's printable characters) written out for the schema too."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.config import JsonDict

from ..bots import BOTS
from ..rules import COLOURS, VARIANTS
from .protocol import MAX_NAME_CHARS, ProtocolError
from .tables import (
    DEFAULT_MOVE_DEADLINE,
    MAX_MOVE_DEADLINE,
    MAX_TURN_TIMER,
    MIN_MOVE_DEADLINE,
    MIN_TURN_TIMER,
    OPEN_TABLE_DEFAULT,
    ORIGIN_RE,
    TableSettings,
    blank,
    check_turn_timer,
)


def _bmp_class(keep: Callable[[str], bool]) -> str:
    """A regex character class's ranges (``\\uXXXX`` escapes, read alike by Python and
    ECMA-262) of the Basic Multilingual Plane's characters that ``keep``."""
    out: list[str] = []
    start = None
    for code in range(0x10000 + 1):
        inside = code <= 0xFFFF and keep(chr(code))
        if inside and start is None:
            start = code
        elif not inside and start is not None:
            out.append(f"\\u{start:04x}" + (f"-\\u{code - 1:04x}" if code - 1 > start else ""))
            start = None
    return "".join(out)


def _printable_pattern() -> str:
    """What player_name (web/tables.py) takes, as a schema's pattern: printable characters and
    white space, at least one neither white space nor blank (web/tables.blank) (exact within the
    Basic Multilingual Plane; of the other planes the server refuses only the few format
    characters, web/tables.printable)."""
    bad = _bmp_class(lambda c: not c.isprintable() and not c.isspace())
    unseen = _bmp_class(lambda c: c.isspace() or blank(c))
    return f"^[^{bad}]*[^{bad}{unseen}][^{bad}]*$"


PRINTABLE = _printable_pattern()


def _one_of(values: tuple[str, ...]) -> Any:
    """A closed set of names: checked by the server after the shape, an enum in the schema."""
    return Field(json_schema_extra={"enum": list(values)})


def _timer(schema: dict[str, Any]) -> None:
    """A turn timer's schema: null or 0 (off), else MIN_TURN_TIMER..MAX_TURN_TIMER seconds
    (check_turn_timer; a server started with another ``--turn-timer-min`` says its own in its
    document: web/responses.timer_minimum)."""
    schema.pop("anyOf", None)
    schema["anyOf"] = [{"type": "null"}, {"const": 0},
                       {"type": "integer", "minimum": MIN_TURN_TIMER, "maximum": MAX_TURN_TIMER}]


# with 3 or more players one gnome each, 2 players two each (R16), a solo player 3..8
GNOMES_RULE: JsonDict = {"anyOf": [
    {"properties": {"gnomes_per_player": {"type": "null"}}},
    {"properties": {"players": {"minimum": 3}, "gnomes_per_player": {"const": 1}}},
    {"required": ["players", "gnomes_per_player"],
     "properties": {"players": {"const": 2}, "gnomes_per_player": {"const": 2}}},
    {"required": ["players", "gnomes_per_player"],
     "properties": {"players": {"const": 1}, "gnomes_per_player": {"minimum": 3}}}]}


# a move deadline only at a turn-based table, which has neither turn timer nor away_bot (issue 20)
PACE_RULE: JsonDict = {"anyOf": [
    {"properties": {"pace": {"const": "real-time"}, "move_deadline": {"type": "null"}}},
    {"required": ["pace"], "properties": {"pace": {"const": "turn-based"},
                                          "turn_timer": {"enum": [None, 0]},
                                          "away_bot": {"enum": [None, 0]}}}]}


def _whole(value: Any) -> Any:
    """A whole number written as a float (``6.0``) is that integer, as in JSON Schema."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


MAX_SEED = 2**53 - 1  # the largest integer every JSON reader keeps exactly


class _Body(BaseModel):
    """Strict (no ``"6"`` for 6, no ``true`` for 1), but ``6.0`` is 6 (JSON Schema's integer)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    @model_validator(mode="before")
    @classmethod
    def _wholes(cls, data: Any) -> Any:
        return {k: _whole(v) for k, v in data.items()} if isinstance(data, dict) else data


class CreateGame(_Body):
    model_config = ConfigDict(json_schema_extra={"allOf": [GNOMES_RULE, PACE_RULE]})

    players: int = Field(4, ge=1, le=8, description="number of players (seats) 1..8")
    gnomes_per_player: int | None = Field(None, ge=1, le=8,
                                          description="1 player: 3..8 (default 3); 2: 2 "
                                                      "(R16); 3..8: 1")
    variants: list[Annotated[str, _one_of(VARIANTS)]] = Field(default_factory=list,
                                                              max_length=len(VARIANTS))
    seed: int | None = Field(None, ge=0, le=MAX_SEED, description="null: a random seed")
    listed: bool = Field(False, description="an open table, shown in the lobby while it waits "
                                            "(default: unlisted, reachable only by its link)")
    turn_timer: int | None = Field(None, ge=0, le=MAX_TURN_TIMER,
                                   description="seconds per decision (30, 60, 120, 300); null or "
                                               "0: no clock; left out: 120 on an open table, "
                                               "else none", json_schema_extra=_timer)
    away_bot: int | None = Field(None, ge=0, le=MAX_TURN_TIMER,
                                 description="seconds an absent player's decision waits before a "
                                             "bot takes their seat (60, 120, 300, 600); null or "
                                             "0: never; left out: 120 on an open table, else "
                                             "never", json_schema_extra=_timer)
    hints: bool = Field(True, description="players may ask the advisor for hints (WebSocket "
                                          "'hint'); false: nobody can")
    pace: Literal["real-time", "turn-based"] = Field(
        "real-time", description="real-time: everyone plays at once (the default); turn-based: "
                                 "a move when it suits you, each decision within move_deadline")
    move_deadline: int | None = Field(None, ge=MIN_MOVE_DEADLINE, le=MAX_MOVE_DEADLINE,
                                      description="a turn-based table's seconds per decision, "
                                                  "3600 (1 hour) to 604800 (7 days); default "
                                                  "86400 (1 day)")


def table_settings(body: CreateGame, minimum: float) -> TableSettings:
    """The settings a create request asks for; an open table has a turn timer and gives absent
    players' seats to a bot unless the request says otherwise (issue 18). A turn-based table
    (issue 20) has a deadline per decision instead of either."""
    if body.pace == "turn-based":
        return _turn_based(body)
    if body.move_deadline is not None:
        raise ProtocolError("bad_config", "move_deadline: only a turn-based table has one "
                                          "(pace: turn-based)")
    default = OPEN_TABLE_DEFAULT if body.listed else None
    given = body.model_fields_set
    timer = body.turn_timer if "turn_timer" in given else default
    away = body.away_bot if "away_bot" in given else default
    return TableSettings(body.listed, check_turn_timer(timer, minimum), body.hints,
                         away_bot=check_turn_timer(away, minimum, "away_bot"))


def _turn_based(body: CreateGame) -> TableSettings:
    for name in ("turn_timer", "away_bot"):
        if getattr(body, name):
            raise ProtocolError("bad_config", f"{name}: a turn-based table has move_deadline "
                                              "instead")
    return TableSettings(body.listed, None, body.hints, pace="turn-based",
                         move_deadline=body.move_deadline or DEFAULT_MOVE_DEADLINE)


class TakeSeat(_Body):
    model_config = ConfigDict(json_schema_extra={"anyOf": [  # the seat, the colour or both
        {"required": ["seat"], "properties": {"seat": {"type": "integer"}}},
        {"required": ["colour"], "properties": {"colour": {"type": "string"}}}]})

    seat: int | None = Field(None, ge=0, le=7, description="the seat to take (or the colour's)")
    colour: Annotated[str, _one_of(COLOURS)] | None = Field(None, max_length=16)
    name: str = Field(..., min_length=1, max_length=MAX_NAME_CHARS,
                      json_schema_extra={"pattern": PRINTABLE},
                      description="required: the name the other players see")


class ActBody(_Body):
    action: str = Field(..., min_length=1, max_length=64, description="text form, e.g. 'open 5'")
    version: int | None = Field(None, ge=0, le=2**53)


class UndoBody(_Body):
    version: int | None = Field(None, ge=0, le=2**53)


class RenameBody(_Body):
    name: str = Field(..., min_length=1, max_length=MAX_NAME_CHARS,
                      json_schema_extra={"pattern": PRINTABLE},
                      description="the seat's new name, which the other players see")


class BotBody(_Body):
    bot: Annotated[str, _one_of(tuple(sorted(BOTS)))] = Field(..., min_length=1, max_length=32)


class SeatLinkBody(_Body):
    origin: str | None = Field(None, max_length=240, json_schema_extra={"pattern": ORIGIN_RE.pattern},
                               description="the page's origin for the QR code's link "
                                           "(default: the request's)")
    seat: int | None = Field(None, ge=0, le=7, description="the seat meant (must be the token's)")


class ReclaimBody(_Body):
    name: str | None = Field(None, min_length=1, max_length=MAX_NAME_CHARS,
                             json_schema_extra={"pattern": PRINTABLE})


__all__ = ["ActBody", "BotBody", "CreateGame", "ReclaimBody", "RenameBody", "SeatLinkBody",
           "TakeSeat",
           "UndoBody", "table_settings"]
