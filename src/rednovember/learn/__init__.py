"""Learn to play: lessons (one idea each, step by step, every play checked) and puzzles
(positions to survive, the bot's solution shown afterwards), built on scenarios."""

from .lessons import ALL, LESSONS, PUZZLES, Lesson, Step
from .session import MAX_PLAYS, Check, LessonError, Session

__all__ = ["ALL", "LESSONS", "MAX_PLAYS", "PUZZLES", "Check", "Lesson", "LessonError", "Session",
           "Step"]
