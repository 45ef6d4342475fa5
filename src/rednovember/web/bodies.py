"""The HTTP API's request bodies (pydantic; docs/protocol.md §3): each refuses unknown fields
and wrong types (422 ``bad_message``), and the settings a create request asks for."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..rules import VARIANTS
from .protocol import MAX_NAME_CHARS, ProtocolError
from .tables import (
    DEFAULT_MOVE_DEADLINE,
    MAX_MOVE_DEADLINE,
    MAX_TURN_TIMER,
    MIN_MOVE_DEADLINE,
    OPEN_TABLE_DEFAULT,
    TableSettings,
    check_turn_timer,
)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class CreateGame(_Body):
    players: int = Field(4, ge=1, le=8, description="number of players (seats) 1..8")
    gnomes_per_player: int | None = Field(None, ge=1, le=8,
                                          description="1 player: 3..8 (default 3); 2: 2..4 (2)")
    variants: list[str] = Field(default_factory=list, max_length=len(VARIANTS))
    seed: int | None = Field(None, ge=0, lt=2**63, description="null: a random seed")
    listed: bool = Field(False, description="an open table, shown in the lobby while it waits "
                                            "(default: unlisted, reachable only by its link)")
    turn_timer: int | None = Field(None, ge=0, le=MAX_TURN_TIMER,
                                   description="seconds per decision (30, 60, 120, 300); null or "
                                               "0: no clock; left out: 120 on an open table, "
                                               "else none")
    away_bot: int | None = Field(None, ge=0, le=MAX_TURN_TIMER,
                                 description="seconds an absent player's decision waits before a "
                                             "bot takes their seat (60, 120, 300, 600); null or "
                                             "0: never; left out: 120 on an open table, else "
                                             "never")
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
    seat: int | None = Field(None, ge=0, le=7)
    colour: str | None = Field(None, max_length=16)
    name: str = Field(..., min_length=1, max_length=MAX_NAME_CHARS)


class ActBody(_Body):
    action: str = Field(..., min_length=1, max_length=64, description="text form, e.g. 'open 5'")
    version: int | None = Field(None, ge=0)


class UndoBody(_Body):
    version: int | None = Field(None, ge=0)


class BotBody(_Body):
    bot: str = Field(..., min_length=1, max_length=32)


class SeatLinkBody(_Body):
    origin: str | None = Field(None, max_length=240,
                               description="the page's origin for the QR code's link "
                                           "(default: the request's)")
    seat: int | None = Field(None, ge=0, le=7, description="the seat meant (must be the token's)")


class ReclaimBody(_Body):
    name: str | None = Field(None, min_length=1, max_length=MAX_NAME_CHARS)


__all__ = ["ActBody", "BotBody", "CreateGame", "ReclaimBody", "SeatLinkBody", "TakeSeat",
           "UndoBody", "table_settings"]
