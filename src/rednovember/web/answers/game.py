"""A game's answers: its summary (docs/protocol.md §3.3), what a seat sees of it (the ``state``
object, §5.2), its seats, and its email notices (§3.11)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from .base import (
    ActionKind,
    BotName,
    Cause,
    Colour,
    Instant,
    LogEntry,
    Open,
    Pace,
    Phase,
    Shape,
    Status,
    Variant,
    WarningCode,
)


class Config(Shape):
    players: int
    gnomes_per_player: int
    variants: list[Variant]
    seed: int


class PublicConfig(Shape):
    """A game's configuration as its summary shows it (docs/protocol.md §3.3)."""

    players: int
    gnomes_per_player: int
    variants: list[Variant]
    seed: int | None = Field(description=(
        "null until the game is over (with it and the moves anyone could rebuild the hidden "
        "hands and the decks' order)"))


class Seat(Shape):
    seat: int
    colour: Colour
    colours: list[Colour]
    gnomes: list[int]
    kind: Literal["free", "human", "bot"]
    name: str | None = Field(description="the person's name; the bot's for a bot; null: free")
    bot: BotName | None
    owner: str | None = Field(default=None, description=(
        "a bot's seat that its player handed over (or the server for them) and may take back: "
        "that player's name; else null"))
    connected: bool
    handover_in: float | None = Field(default=None, description=(
        "a person's seat whose player has no connection open: seconds until anyone seated (or "
        "the game's creator) may give it to a bot (0: now; counted from when the message was "
        "made); null while its player is connected, and for a free or a bot's seat"))


class Settings(Shape):
    listed: bool
    turn_timer: int | None
    hints: bool
    hints_used: list[int]
    away_bot: int | None
    pace: Pace
    move_deadline: int | None


class Clock(Shape):
    """The turn timer of the decision in play (docs/protocol.md §3.5)."""

    seat: int
    seconds: int
    remaining: float


class Away(Shape):
    """The absent player to move (docs/protocol.md §3.9)."""

    seat: int
    name: str | None
    handover_in: float
    bot_in: float | None


class Deadline(Shape):
    """A turn-based table's deadline of the decision in play (docs/protocol.md §3.10)."""

    seat: int
    at: float = Field(description="seconds since 1970, UTC")
    seconds: int
    remaining: float
    missed: int


class GnomeResult(Shape):
    number: int
    colour: Colour
    seat: int
    won: bool
    abandoned: bool


class Result(Shape):
    """The end of a game (docs/protocol.md §5.2)."""

    won: bool
    cause: Cause
    gnomes: list[GnomeResult]


class Summary(Shape):
    """A game's public summary (docs/protocol.md §3.3)."""

    id: str
    link: str
    config: PublicConfig
    status: Status
    version: int
    created: Instant
    turn: int
    to_move: int = Field(description="the seat that must decide; -1 when over")
    result: Result | None
    seats: list[Seat]
    settings: Settings
    clock: Clock | None
    away: Away | None
    deadline: Deadline | None
    rematch: str | None = Field(None, description="the id of this game's rematch, once one "
                                                  "started (§3.3, §4.1); else null")


class Created(Shape):
    """The new game, and its creator's token."""

    game: Summary
    creator_token: str


class Games(Shape):
    """The open tables, newest first."""

    games: list[Summary]


class SeatTaken(Shape):
    """The seat taken, its token, and the game."""

    seat: int
    token: str
    game: Summary


class Renamed(Shape):
    """The seat bears its new name."""

    ok: Literal[True]
    game: Summary


class Handed(Shape):
    """The seat is a bot's now."""

    ok: Literal[True]
    game: Summary


class Reclaimed(Shape):
    """The token holds its seat again."""

    ok: Literal[True]
    seat: int
    game: Summary


class SeatLink(Shape):
    """The holder's seat link and its QR code (docs/protocol.md §3.6)."""

    seat: int
    link: str = Field(description="/g/{id}#seat=TOKEN")
    url: str
    qr_svg: str = Field(description="an SVG document")


class Activity(Shape):
    at: Instant
    chat: int = Field(description="how many chat lines the game has")


class MyGame(Summary):
    activity: Activity


class MyGames(Shape):
    """The games asked for, with their activity, and the ids of those that do not exist."""

    games: list[MyGame]
    missing: list[str]


# --- a game: what a seat sees --------------------------------------------------------------------
class ViewGnome(Open):
    number: int
    colour: Colour
    player: int
    room: int = Field(description="0 the Sea, -1 dead")
    alive: bool
    fainted: bool
    intoxication: int
    hand: list[str] | None = Field(description="item ids; null: a hand hidden from this seat")
    hand_size: int
    keeper: int
    abandoned: bool


class View(Open):
    """``game.view(seat)``: the fields of docs/protocol.md §5.2 (the key ones declared here; a
    client ignores those it does not know)."""

    gnomes: list[ViewGnome]
    fire: list[int]
    water: dict[str, int]
    blocked: list[list[int]]
    tracks: dict[str, int]
    tokens: dict[str, int]
    active: int
    ghost: int
    phase: Phase
    opened: int
    played: dict[str, int]
    pending: list[list[Any]]
    turn: int
    stock: int
    result: dict[str, Any] | None
    event_deck_size: int
    item_deck_size: int
    event_discard_top: int | None
    data_set: str
    decider: int
    player_to_move: int
    legal: list[str]


class ActionWarning(Shape):
    code: WarningCode
    room: int | None = None
    gnome: int | None = None
    token: int | None = None
    space: int | None = None
    track: int | None = None


class Meets(Shape):
    events: int
    items: int


class Action(Shape):
    """A legal action, broken down for a program (docs/protocol.md §5.2)."""

    text: str = Field(description="what to send back in act")
    kind: ActionKind
    arg: int
    minutes: int
    item: str | None
    room: int | None
    gnome: int | None
    count: int | None
    cost: int | None
    penalty: int
    repair: bool
    bonus: int | None
    chance: int | None
    doomed: bool
    token_lost: str | None
    warnings: list[ActionWarning]
    ghost_after: int | None
    meets: Meets | None


class Suggestion(Shape):
    minutes: int
    items: list[str]
    best: bool


class GameState(Shape):
    """What one seat (or a spectator) sees of a game: the ``state`` object (docs/protocol.md
    §5.2)."""

    type: Literal["state"]
    game: str
    seat: int | None = Field(description="the seat it is for; null: a spectator")
    version: int
    status: Status
    view: View
    to_move: int
    decider: int
    your_turn: bool
    actions: list[Action]
    can_undo: bool
    suggest: dict[str, Suggestion]
    log_start: int
    log: list[LogEntry]
    standins: list[list[int]] = Field(default_factory=list, description=(
        "the log ranges [start, end) of the actions made for this seat by a stand-in (a bot, "
        "the turn timer, a deadline), not by its player; empty for a spectator"))
    result: Result | None
    seats: list[Seat]
    clock: Clock | None
    away: Away | None = Field(None, description="null, or the absent player to move; not in "
                                                "a lesson's state")
    deadline: Deadline | None = Field(None, description="null, or a turn-based table's deadline; "
                                                        "not in a lesson's state")


class Legal(Shape):
    """The seat's legal actions (empty unless it must decide)."""

    seat: int
    version: int
    actions: list[Action]


class Played(Shape):
    """Done: the game's new version and the seat's new state."""

    ok: Literal[True]
    version: int
    state: GameState


Confirmation = Literal["confirmed", "unconfirmed", "refused"]
CONFIRMATION_DOC = ("whether the address's owner confirmed it for this game through the link of "
                    "its confirmation email (only then do emails go), refused all emails, or not "
                    "yet; null: no address")
SENT_DOC = ("the confirmation email to the address: \"sent\" (by this request), \"failed\" (the "
            "last one could not be sent, e.g. a mistyped address: the next POST tries again at "
            "once), null (none due: confirmed for this game, refused, or asked within 10 minutes "
            "or 5 times today)")


class Notify(Shape):
    """The seat's email notices as asked (docs/protocol.md §3.11)."""

    game: str
    seat: int
    email: str | None
    lang: str
    address: Confirmation | None = Field(description=CONFIRMATION_DOC)
    confirmation: Literal["sent", "failed"] | None = Field(description=SENT_DOC)


class NotifyInfo(Shape):
    """What the seat asked for; ``mail``: whether this server sends emails at all."""

    game: str
    seat: int
    mail: bool
    email: str | None
    lang: str | None
    address: Confirmation | None = Field(description=CONFIRMATION_DOC)
    confirmation: Literal["sent", "failed"] | None = Field(description=SENT_DOC)


class Notices(Shape):
    """What this server can tell an away seat (docs/protocol.md §3.12): the VAPID public key
    to subscribe with (base64url; null: no pushes) and whether it sends emails."""

    push_key: str | None
    mail: bool


class PushSeat(Shape):
    """The seat's push subscriptions after the change: how many browsers it has."""

    game: str
    seat: int
    subscriptions: int


__all__ = ["Action", "ActionWarning", "Activity", "Away", "Clock", "Config", "Created", "Deadline",
           "GameState", "Games", "GnomeResult", "Handed", "Legal", "Meets", "MyGame", "MyGames",
           "Notices", "Notify", "NotifyInfo", "Played", "PublicConfig", "PushSeat", "Reclaimed",
           "Renamed", "Result", "Seat", "SeatLink", "SeatTaken", "Settings", "Suggestion", "Summary",
           "View", "ViewGnome"]
