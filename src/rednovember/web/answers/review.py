"""A game looked back on: a step of its replay (docs/protocol.md §3), its story (§3.4), its
win-chance curve (§3.8) and its save (docs/formats.md)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from .base import Cause, Colour, LogEntry, Open, Phase, Shape
from .game import Config, Result, View


class Replay(Shape):
    """The game after its first ``step`` actions (docs/protocol.md §3)."""

    game: str
    step: int
    steps: int
    over: bool = Field(description="the game is over now (the same at every step)")
    actor: int | None
    view: View
    result: Result | None
    log: list[LogEntry]


class Ending(Shape):
    won: bool
    cause: Cause


class Death(Shape):
    gnome: int
    colour: Colour
    cause: str
    room: int
    turn: int
    minute: int
    replaced: bool


class Tries(Shape):
    tried: int
    made: int


class GnomeStory(Shape):
    number: int
    colour: Colour
    seat: int
    turns: int
    actions: int
    moves: int
    repairs_tried: int
    repairs_made: int
    items_used: int
    faints: int
    deaths: int
    alive: bool
    abandoned: bool
    won: bool


class Moment(Shape):
    minute: int
    turn: int
    tracks: list[int]
    fires: int
    floods: int


class Story(Shape):
    """A finished game's story for the end screen (docs/protocol.md §3.4)."""

    game: str
    result: Result
    start: int
    minutes: int
    turns: int
    steps: int
    deaths: list[Death]
    repairs: dict[str, Tries]
    gnomes: list[GnomeStory]
    tracks: list[str]
    track_length: int
    timeline: list[Moment]


class Progress(Shape):
    done: int
    total: int


class Computing(Shape):
    """Being computed: ask again (docs/protocol.md §3.8)."""

    game: str
    status: Literal["computing"]
    progress: Progress | None = Field(description="the positions evaluated; null while it "
                                                  "waits for the worker")


class Point(Shape):
    step: int
    turn: int
    minute: int
    kind: Literal["start", "action", "turn", "end"]
    chance: float
    low: float
    high: float
    wins: int
    rollouts: int
    raw: float
    policy: str


class Turning(Shape):
    from_step: int
    step: int
    minute: int
    space: int = Field(description="the time track's space of that minute (the log names spaces)")
    before: float
    after: float
    delta: float
    entries: list[LogEntry]
    text: str


class WinChance(Shape):
    """A finished game's win-chance curve and turning points (docs/protocol.md §3.8)."""

    game: str
    status: Literal["done"]
    config: Config
    seat: int | None
    rollouts: int
    seed: int
    steps: int
    result: Ending | None
    points: list[Point]
    turning: list[Turning]


class DataSet(Shape):
    name: str
    digest: str


class SavedState(Open):
    """The complete state (docs/formats.md; the key fields declared here)."""

    rng: dict[str, Any]
    gnomes: list[dict[str, Any]]
    event_deck: list[int]
    item_deck: list[str]
    phase: Phase
    result: Ending | None


class Save(Shape):
    """The complete save of a finished game (docs/formats.md, version 1)."""

    format: Literal["rednovember-save"]
    version: Literal[1]
    data_set: DataSet
    config: Config
    origin: dict[str, Any] | None
    history: list[str]
    log: list[LogEntry]
    state: SavedState


__all__ = ["Computing", "DataSet", "Death", "Ending", "GnomeStory", "Moment", "Point", "Progress",
           "Replay", "Save", "SavedState", "Story", "Tries", "Turning", "WinChance"]
