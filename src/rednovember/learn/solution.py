"""A puzzle's solution as the search bot plays it: ``search`` (not ``search:strong``, which takes
about 1.7 times as long: a page waits for it) makes every decision from the puzzle's start position
until the goal is reached or the game is lost. The search is sampled, so a seed can miss a goal
another seed reaches: the solution is the first of :data:`TRIES` seeds that reaches it (or the
last try). The only part of learn/ that uses a bot (the lessons and their checks need the rules
alone).

A lesson's solution is its own scripted play (:attr:`Lesson.solution`, bot ``"script"``): the
search bot took about 16 s of CPU on two lessons, which anybody could ask of a fresh server
process; a puzzle's takes under a second."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..bots import make_bot
from .lessons import ALL
from .session import LessonError, Session

BOT = "search"
SCRIPT = "script"  # the bot name of a lesson's scripted solution
MAX_DECISIONS = 300
TRIES = 4  # seeds tried, in order, for a solution that reaches the goal


@dataclass(frozen=True)
class Solution:
    """The bot's plays (action texts, in order) and whether they reached the goal."""

    lesson: str
    bot: str
    plays: tuple[str, ...]
    reached: bool


@cache
def solution(lesson_id: str, seed: int = 0) -> Solution:
    """The bot's solution of a lesson or puzzle (the same every time: the bot is seeded), from the
    first of seeds ``seed``, ``seed + 1``, … (:data:`TRIES` of them) that reaches the goal."""
    if lesson_id not in ALL:
        raise LessonError(f"no lesson {lesson_id!r}")
    if ALL[lesson_id].solution:
        return scripted(lesson_id)
    tried = attempt(lesson_id, seed)
    for other in range(seed + 1, seed + TRIES):
        if tried.reached:
            break
        tried = attempt(lesson_id, other)
    return tried


def scripted(lesson_id: str) -> Solution:
    """A lesson's scripted play, replayed to say whether it reaches the goal."""
    session = Session.replay(lesson_id, list(ALL[lesson_id].solution))
    return Solution(lesson_id, SCRIPT, tuple(session.plays), session.reached)


def attempt(lesson_id: str, seed: int) -> Solution:
    """The bot with ``seed`` playing the lesson from its start to its end (or MAX_DECISIONS)."""
    session = Session.start(lesson_id)
    bot = make_bot(BOT, seed)
    for _ in range(MAX_DECISIONS):
        if session.finished:
            break
        action = bot.choose(session.game.copy())
        session.play(action.text(session.game.data))
    return Solution(lesson_id, BOT, tuple(session.plays), session.reached)


__all__ = ["BOT", "SCRIPT", "TRIES", "Solution", "attempt", "scripted", "solution"]
