"""The server's own answers: health, what it speaks, its languages and texts, the rules and
the component tables (docs/protocol.md §3, §3.1, §3.2)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .base import BotName, Colour, PluralForm, Shape, Variant


class Ok(Shape):
    """The server answers (GET /api/health: the process; /api/ready: its database too)."""

    ok: Literal[True]


class Limits(Shape):
    message_bytes: int
    body_bytes: int
    name_chars: int
    tokens_per_hello: int


class Meta(Shape):
    """What the server speaks (docs/protocol.md §3.1)."""

    protocol: int
    server: str
    colours: list[Colour]
    variants: list[Variant]
    bots: list[BotName]
    languages: list[str]
    limits: Limits
    log_messages: dict[str, list[str]] = Field(description="per log message id, its arguments "
                                                           "as name:type")
    log_variants: dict[str, list[str]]


class Bots(Shape):
    """The bots a seat can be given to."""

    bots: list[BotName]


class Language(Shape):
    code: str
    name: str


class Languages(Shape):
    """The languages of the interface."""

    default: str
    languages: list[Language]


class Texts(Shape):
    """A language's every text (GET /api/i18n/{lang}), English filled in where it lacks one."""

    lang: str
    plural_forms: list[PluralForm] = Field(description="the order of the plural forms of "
                                                       "{n:a|b} templates")
    catalog: dict[str, dict[str, str]] = Field(description="section -> key -> template")


# --- the rules -----------------------------------------------------------------------------------
class TextBlock(Shape):
    type: Literal["p", "h"]
    text: str


class ListBlock(Shape):
    type: Literal["ul", "ol"]
    items: list[str]


class TableBlock(Shape):
    type: Literal["table"]
    id: Literal["odds", "faint"]
    caption: str
    head: list[str]
    rows: list[list[str]]


class Chapter(Shape):
    id: str
    title: str
    blocks: list[TextBlock | ListBlock | TableBlock]


class Entry(Shape):
    key: str
    name: str
    text: str
    count: int | None = Field(None, description="how many cards (items, events); absent for "
                                                "the others")


class Section(Shape):
    id: Literal["items", "actions", "events", "variants", "losses"]
    title: str
    entries: list[Entry]


class RulesReference(Shape):
    """The complete rules and the card reference in one language (docs/protocol.md §3)."""

    lang: str
    title: str
    intro: str
    back: str
    brand: str
    page: dict[str, str]
    chapters: list[Chapter]
    sections: list[Section]


class Room(Shape):
    number: int
    key: str
    x: float
    y: float


class ItemCard(Shape):
    index: int
    id: str
    count: int
    bonus: dict[str, int] = Field(description="repair kind (or *) -> bonus")
    enters_fire: bool
    enables_sea: bool
    enables_attack: bool
    intoxication: int
    faint_check: bool
    ignore_event_icons: int


class EventCard(Shape):
    id: int
    kind: str
    faint: int | None


class RoomRepair(Shape):
    room: int
    track: str | None
    token: str | None


class Data(Shape):
    """The component tables a client needs to draw and name things (docs/protocol.md §3.2)."""

    name: str
    digest: str
    describe: str
    rooms: list[Room]
    hatches: list[Annotated[list[int], Field(min_length=2, max_length=2)]]
    interior_hatches: int
    tracks: list[str]
    track_length: int
    reset_stars: list[int]
    tokens: list[str]
    items: list[ItemCard]
    events: list[EventCard]
    event_icons: list[int]
    item_icons: list[int]
    start_spaces: dict[str, int]
    abandon_below: int
    draw_rooms: dict[str, tuple[str, int]]
    room_repairs: dict[str, RoomRepair]
    stock_item: str
    stock_count: int
    blocked_hatch_tokens: int
    track_start: int


__all__ = ["Bots", "Chapter", "Data", "Entry", "EventCard", "ItemCard", "Language", "Languages",
           "Limits", "ListBlock", "Meta", "Ok", "Room", "RoomRepair", "RulesReference", "Section",
           "TableBlock", "TextBlock", "Texts"]
