"""A game's win-chance curve and its turning points: what swung the crew's chance most.

:func:`analyse` replays a game from its origin and estimates the crew's chance to win
(:func:`rednovember.analysis.winchance.win_chance`, from one seat's view or a spectator's) at
every *point*: the start, the start of every following turn (after the events) and the end
(exactly 1 or 0): the rows of ``analyse``'s table. Every point uses the same rollout seeds, so
the differences between points are much steadier than the points; a point stops its rollouts
once it is as precise as ``rollouts`` rollouts at an even chance (``adaptive``: a nearly decided
position needs few).

The *turning points* are the ``limit`` biggest swings between consecutive points (at least
:data:`MIN_SWING`, and more than the rollouts' noise: :data:`Z_SWING` standard errors of the
difference), in game order: from one row of the table to the next, told with the minute of the
row it arrives at and both rows' chances, so every figure of a turning point is in the table.
Each names the log entries that made it: the most telling of the turn (a loss, a death, a
destruction token, a repair, a fire or flood, a track rising...; good news for a rise, bad news
for a fall; none of that kind: "nothing in particular"), told with
:mod:`rednovember.i18n.describe` and the catalog's ``analyse`` section, e.g.
``Minute 31: Fire breaks out in the Engine room: 48% → 22%``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..i18n import DEFAULT, catalog
from ..i18n.describe import describe_entry
from ..rules import Game
from ..rules.serialize import plain, replay
from .winchance import WinChance, collector_paused, win_chance

ANALYSE_ROLLOUTS = 64  # per point at most (an even chance; fewer once precise): 15-50 points

MIN_SWING = 0.05  # a smaller swing is never a turning point
Z_SWING = 1.96  # nor one within this many standard errors of the rollouts' noise
TURNING_LIMIT = 5
# How telling a log entry is for a swing (lower first); ids not listed never headline.
PRIORITY: dict[str, int] = {
    "lost": 0, "won": 0, "death": 1, "token": 2, "repair": 3, "fire": 4, "fire_spreads": 4,
    "leak": 4, "undercurrent": 4, "track": 4, "hatch_blocked": 5, "track_reset": 5,
    "token_cleared": 5, "faint_check": 6, "abandon": 6, "attack": 6, "fight": 6, "fire_out": 7,
    "event": 8, "draw": 9, "trade": 9, "item_icon": 9, "no_action": 9,
}
HEADLINES = 2  # log entries told per turning point
GOOD_NEWS = frozenset({"won", "token_cleared", "track_reset", "fire_out", "draw", "trade",
                       "item_icon"})


@dataclass(frozen=True)
class Point:
    """The estimate after ``step`` actions: ``kind`` is start, turn (a new turn begins, the
    events resolved) or end."""

    step: int
    turn: int
    minute: int
    kind: str
    estimate: WinChance

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.step, "turn": self.turn, "minute": self.minute, "kind": self.kind,
                **self.estimate.to_dict()}


@dataclass(frozen=True)
class TurningPoint:
    """A swing from the point at ``from_step`` to the one at ``step`` (``minute``: that one's),
    with the entries behind it (``entries``: log entries with the minute each happened)."""

    from_step: int
    step: int
    minute: int
    before: float
    after: float
    entries: tuple[tuple[int, tuple[Any, ...]], ...]

    @property
    def delta(self) -> float:
        return self.after - self.before


@dataclass
class GameAnalysis:
    """The curve (:class:`Point` list) and the turning points of one game."""

    game: Game
    seat: int | None
    rollouts: int
    seed: int
    points: list[Point] = field(default_factory=list)
    turning: list[TurningPoint] = field(default_factory=list)

    def sentence(self, tp: TurningPoint, lang: str = DEFAULT) -> str:
        """The turning point in words, e.g. "Minute 31 (space 29): Fire in the Engine room: 48% →
        22%" (the time track's space beside the minute: the game's log names spaces)."""
        cat = catalog(lang)
        what = cat.join(clause(describe_entry(e, self.game, lang, self.seat))
                         for _, e in tp.entries) or cat.raw("analyse", "quiet")
        return cat.get("analyse", "swing", minute=tp.minute, space=self.space(tp.minute),
                       what=what, before=percent(tp.before, lang), after=percent(tp.after, lang))

    def space(self, minute: int) -> int:
        """The time track's space ``minute`` minutes after the game's start."""
        return self.game.start_space - minute

    def to_dict(self, lang: str = DEFAULT) -> dict[str, Any]:
        g = self.game
        return {
            "config": g.config.to_dict(), "seat": self.seat, "rollouts": self.rollouts,
            "seed": self.seed, "steps": len(g.history),
            "result": None if g.result is None else {"won": g.result.won,
                                                      "cause": g.result.cause},
            "points": [p.to_dict() for p in self.points],
            "turning": [{"from_step": t.from_step, "step": t.step, "minute": t.minute,
                         "space": self.space(t.minute),
                         "before": round(t.before, 4), "after": round(t.after, 4),
                         "delta": round(t.delta, 4),
                         "entries": [plain(e) for _, e in t.entries],
                         "text": self.sentence(t, lang)} for t in self.turning],
        }


def clause(sentence: str) -> str:
    """A log sentence as one clause of a list: without its closing stop or exclamation mark
    (and the ¡ that opens a Spanish one, wherever it stands: "— ¡éxito!"), so "Fire in room 4!;
    …: 40% → 15%" reads "Fire in room 4; …: 40% → 15%" (winchart.js's ``clause`` alike)."""
    text = sentence.rstrip(". ")
    if not text.endswith("!"):
        return text
    text = text.rstrip("! ")
    opened = text.rfind("¡")
    return text[:opened] + text[opened + 1:] if opened >= 0 else text


def percent(x: float, lang: str = DEFAULT) -> str:
    """``x`` (0..1) as a whole percentage in the language's style."""
    return catalog(lang).get("analyse", "percent", value=round(100 * x))


def _kind(entries: Sequence[tuple[Any, ...]], over: bool) -> str | None:
    if over:
        return "end"
    if any(e[0] == "turn" for e in entries):
        return "turn"
    return None


def positions(game: Game) -> list[tuple[int, str, Game, list[tuple[int, tuple[Any, ...]]]]]:
    """Every point of ``game``: (step, kind, the position, the log entries since the point
    before, each with its minute). The positions are copies; ``game`` is not changed."""
    data = game.data
    start = game.start_space
    g = replay(data, game.config, game.origin, [])
    out: list[tuple[int, str, Game, list[tuple[int, tuple[Any, ...]]]]] = [
        (0, "start", g.copy(keep_log=False), [])]
    segment: list[tuple[int, tuple[Any, ...]]] = []
    minute = _minute(g, start)
    for step, action in enumerate(game.history, start=1):
        mark = len(g.log)
        g.apply(action)
        new = g.log[mark:]
        for e in new:
            if e[0] in ("event", "turn", "item_icon", "charm") and isinstance(e[2], int):
                minute = max(minute, start - e[2])
            segment.append((minute, tuple(e)))
        kind = _kind(new, g.result is not None)
        if kind is not None:
            out.append((step, kind, g.copy(keep_log=False), segment))
            segment = []
            minute = max(minute, _minute(g, start))
    return out


def _minute(g: Game, start: int) -> int:
    if g.result is not None or not 0 <= g.active < len(g.gnomes):
        return max(0, start - min((gn.keeper for gn in g.gnomes), default=start))
    return max(0, start - g.gnomes[g.active].keeper)


def analyse(game: Game, seat: int | None = None, *, rollouts: int = ANALYSE_ROLLOUTS,
            seed: int = 0, limit: int = TURNING_LIMIT,
            progress: Callable[[int, int], None] | None = None) -> GameAnalysis:
    """The win-chance curve of ``game`` (finished or not) from ``seat``'s view (None: a
    spectator's) and its ``limit`` turning points. ``progress(done, total)`` is called before
    the first point and after every point. Reproducible: the same game, seat, ``rollouts`` and
    ``seed`` give the same analysis."""
    result = GameAnalysis(game, seat, rollouts, seed)
    pos = positions(game)
    if progress is not None:
        progress(0, len(pos))
    segments: list[list[tuple[int, tuple[Any, ...]]]] = []
    start = game.start_space
    with collector_paused():
        for i, (step, kind, g, segment) in enumerate(pos):
            est = win_chance(g, seat, rollouts=rollouts, seed=seed, adaptive=True)
            result.points.append(Point(step, g.turn, _minute(g, start), kind, est))
            segments.append(segment)
            if progress is not None:
                progress(i + 1, len(pos))
    result.turning = turning_points(result.points, segments, limit)
    return result


def turning_points(points: Sequence[Point],
                   segments: Sequence[Sequence[tuple[int, tuple[Any, ...]]]],
                   limit: int = TURNING_LIMIT) -> list[TurningPoint]:
    """The ``limit`` biggest swings between consecutive points (at least :data:`MIN_SWING`), in
    game order, each at the minute of the point it arrives at; ``segments[i]`` holds the log
    entries between point ``i - 1`` and point ``i``."""
    swings = []
    for i in range(1, len(points)):
        a, b = points[i - 1].estimate.chance, points[i].estimate.chance
        if abs(b - a) >= MIN_SWING and abs(b - a) >= Z_SWING * _spread(points[i - 1], points[i]):
            swings.append((abs(b - a), i))
    chosen = sorted(i for _, i in sorted(swings, key=lambda s: (-s[0], s[1]))[:limit])
    out = []
    for i in chosen:
        told = headline(segments[i], points[i].estimate.chance > points[i - 1].estimate.chance)
        out.append(TurningPoint(points[i - 1].step, points[i].step, points[i].minute,
                                points[i - 1].estimate.chance, points[i].estimate.chance,
                                tuple(told)))
    return out


def _spread(a: Point, b: Point) -> float:
    """The standard error of the difference between two points' chances (rollout noise)."""
    var = 0.0
    for p in (a, b):
        e = p.estimate
        if e.rollouts:
            q = (e.wins + 0.5) / (e.rollouts + 1)
            var += q * (1 - q) / e.rollouts
    return math.sqrt(var)


def good_news(entry: Sequence[Any]) -> bool:
    """Whether a log entry is good for the crew (a repair made, a token cleared, a track reset,
    a fire out, items drawn, traded or picked up at an item icon, the rescue)."""
    if entry[0] == "repair":
        return bool(entry[6])
    return entry[0] in GOOD_NEWS


def headline(segment: Sequence[tuple[int, tuple[Any, ...]]],
             up: bool | None = None) -> list[tuple[int, tuple[Any, ...]]]:
    """The most telling entries of a segment (at most :data:`HEADLINES`), in game order; with
    ``up`` (the chance rose) or not, only the entries of that kind of news: a rise is never
    credited to bad news (a segment without any is told as the crew's own moves)."""
    told = [k for k, (_, e) in enumerate(segment)
            if e[0] in PRIORITY and not (e[0] == "faint_check" and not e[4])]
    if up is not None:
        told = [k for k in told if good_news(segment[k][1]) == up]
    ranked = sorted((PRIORITY[segment[k][1][0]], k) for k in told)
    keep = sorted(k for _, k in ranked[:HEADLINES])
    return [segment[k] for k in keep]


__all__ = ["ANALYSE_ROLLOUTS", "GameAnalysis", "MIN_SWING", "Point", "TurningPoint", "analyse",
           "good_news", "headline", "percent", "positions", "turning_points"]
