"""Decisions made for a seat by the server, not by its player: a bot's move (the seat handed to
it, or taken by it while its player was away), the turn timer's or a deadline's choice. The
action log keeps who made each action (``LiveGame.actors``): the seat, or ``-1 - seat`` for a
stand-in's; a seat's state names the log entries of the stand-in's actions (``standins``), so a
page's recap starts after its player's own last decision and says what was decided for them."""

from __future__ import annotations

from ...rules.serialize import replay
from ..seatcode import server_for
from .live import LiveGame


def actor_code(seat: int, by_player: bool) -> int:
    """How the action log records who made a seat's action (:mod:`rednovember.web.seatcode`)."""
    return seat if by_player else server_for(seat)


def note_action(lg: LiveGame, log_length: int) -> None:
    """An action is being added: the log was ``log_length`` long before it."""
    if lg.log_marks is not None:
        lg.log_marks.append(log_length)


def drop_action(lg: LiveGame) -> None:
    """The last action was taken back."""
    if lg.log_marks:
        lg.log_marks.pop()


def log_marks(lg: LiveGame) -> list[int]:
    """How long the log was before each action: kept as actions come, else found by replaying
    the game's actions once."""
    if lg.log_marks is None or len(lg.log_marks) != len(lg.texts):
        marks: list[int] = []
        replay(lg.game.data, lg.config, None, list(lg.texts), lambda g: marks.append(len(g.log)))
        lg.log_marks = marks
    return lg.log_marks


def standin_entries(lg: LiveGame, seat: int) -> list[list[int]]:
    """The log ranges ``[start, end)`` of the actions a stand-in made for ``seat``."""
    code = actor_code(seat, False)
    found = [i for i, a in enumerate(lg.actors) if a == code]
    if not found:
        return []
    marks = [*log_marks(lg), len(lg.game.log)]
    return [[marks[i], marks[i + 1]] for i in found]


__all__ = ["actor_code", "drop_action", "log_marks", "note_action",
           "standin_entries"]
