"""Learn to play's answers (docs/protocol.md §3.7)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Args, Colour, Shape
from .game import GameState, Result


class Lesson(Shape):
    id: str
    kind: Literal["lesson", "puzzle"]
    steps: int


class Lessons(Shape):
    """The lessons (in teaching order) and the puzzles."""

    lessons: list[Lesson]
    puzzles: list[Lesson]


class Guidance(Shape):
    key: str = Field(description="a key of the catalog section learn")
    args: Args


class Check(Shape):
    verdict: Literal["right", "wrong", "free", "goal", "failed"]
    key: str
    args: Args


class LearnState(Shape):
    """The lesson now: its guidance, the last play's check and the game (docs/protocol.md
    §3.7)."""

    lesson: Lesson
    plays: list[str]
    status: Literal["playing", "goal", "failed"]
    guidance: Guidance
    check: Check | None
    step: int | None
    steps_done: list[int]
    off_path: bool
    wanted: list[str] = Field(description="the legal plays the lesson's step accepts now (the "
                              "page makes them the main choice); empty off the path and in puzzles")
    state: GameState


class SolutionPlay(Shape):
    text: str
    gnome: int
    colour: Colour
    ghost: int
    sentence: str


class Solution(Shape):
    """The solution's plays from the start position, each as a sentence: a puzzle's as the search
    bot plays it (``bot`` "search"), a lesson's its scripted play (``bot`` "script")."""

    lesson: str
    bot: str
    reached: bool
    plays: list[SolutionPlay]
    result: Result | None


__all__ = ["Check", "Guidance", "LearnState", "Lesson", "Lessons", "Solution", "SolutionPlay"]
