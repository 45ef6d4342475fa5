"""What every answer's shape is made of: closed and open bodies, and the enumerated values of
the game (colours, variants, bots, statuses, phases, action kinds, warnings)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from ...bots import BOTS
from ...rules import COLOURS, VARIANTS
from ...rules.action import KINDS

Colour = Annotated[str, Field(json_schema_extra={"enum": list(COLOURS)})]
Variant = Annotated[str, Field(json_schema_extra={"enum": list(VARIANTS)})]
BotName = Annotated[str, Field(json_schema_extra={"enum": sorted(BOTS)})]
Status = Literal["waiting", "playing", "over"]
Pace = Literal["real-time", "turn-based"]
Phase = Literal["move", "opened", "after_action", "extra_move", "decide", "over"]
ActionKind = Annotated[str, Field(json_schema_extra={"enum": sorted(KINDS)})]
WarningCode = Literal["fire_needs_item", "sea_needs_item", "floods_here", "enter_fire", "dies_in_fire",
                      "dies_in_flood", "no_way_out", "spread_fainted", "attack", "abandon",
                      "loses_token", "loses_track", "loses_crew"]
PluralForm = Literal["zero", "one", "two", "few", "many", "other"]
Instant = Annotated[str, Field(json_schema_extra={"format": "date-time"},
                               description="UTC, e.g. 2026-11-22T10:05:00Z")]
LogEntry = Annotated[list[Any], WithJsonSchema({
    "type": "array", "minItems": 1, "prefixItems": [{"type": "string"}],
    "description": "[message_id, arg, …]: GET /api/meta's log_messages names the arguments "
                   "(docs/protocol.md §5.3)"})]
Cause = Annotated[str, Field(description="rescued, or a loss cause (catalog section "
                                         "loss_causes)")]
Args = dict[str, int | str]


class Shape(BaseModel):
    """A body whose every field is declared."""

    model_config = ConfigDict(extra="forbid")


class Open(BaseModel):
    """A body whose key fields are declared; it may hold more (a client ignores what it does
    not know)."""

    model_config = ConfigDict(extra="allow")


__all__ = ["ActionKind", "Args", "BotName", "Cause", "Colour", "Instant", "LogEntry", "Open",
           "Pace", "Phase", "PluralForm", "Shape", "Status", "Variant", "WarningCode"]
