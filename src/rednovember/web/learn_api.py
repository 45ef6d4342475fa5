"""Learn to play over HTTP (docs/protocol.md §3.7): the lessons and puzzles, a play checked by the
lesson, and a puzzle's solution as the search bot plays it; the pages /learn and /learn/{id}.

Stateless: the browser keeps the plays made so far and sends them with each new play; the server
rebuilds the lesson from its scenario and those plays (checking every one again), so nothing is
stored, a restart loses nothing, and "try again" is simply an empty list.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import FastAPI, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from ..i18n import UnknownLanguage, catalog
from ..i18n.describe import describe_action
from ..learn import ALL, LESSONS, MAX_PLAYS, PUZZLES, LessonError, Session
from ..learn.solution import solution
from ..rules import Game, parse_action
from ..rules.view import log_for
from .answers import LearnState, Lessons, Solution, ok
from .protocol import ProtocolError, action_info, jsonable, repair_key, result_info, suggestions
from .responses import errors

LessonId = Annotated[str, Path(json_schema_extra={"enum": sorted(ALL)})]  # else 404 not_found
PLAYER = 0  # every lesson is a solo game: the learner's one seat runs every gnome


class LearnBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    plays: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(
        default_factory=list, max_length=MAX_PLAYS,
        description="the plays made so far, in order (action texts); empty: the start position")
    action: str | None = Field(None, min_length=1, max_length=64,
                               description="the new play to make and check; null: none")


def lesson_info(lesson_id: str) -> dict[str, Any]:
    lesson = ALL[lesson_id]
    return {"id": lesson.id, "kind": lesson.kind, "steps": len(lesson.steps)}


def session_for(lesson_id: str, plays: list[str]) -> Session:
    if lesson_id not in ALL:
        raise ProtocolError("not_found", f"no lesson {lesson_id!r}")
    try:
        return Session.replay(lesson_id, plays)
    except LessonError as exc:
        raise ProtocolError("illegal", f"plays: {exc}") from None


def learn_state(s: Session, check: dict[str, Any] | None = None) -> dict[str, Any]:
    """The lesson now: its guidance, the last check, and the game as the game page's ``state``
    message has it (docs/protocol.md §5.2), for the learner's seat."""
    g = s.game
    your_turn = not g.is_over and not s.finished
    legal = g.legal_actions() if your_turn else []
    view = g.view(PLAYER)
    if not your_turn:
        view["legal"] = []
    key, args = s.guidance()
    status = "goal" if s.reached else "failed" if s.failed else "playing"
    colours = [gn.colour for gn in g.gnomes]
    return {
        "lesson": lesson_info(s.lesson.id), "plays": list(s.plays), "status": status,
        "guidance": {"key": key, "args": args}, "check": check,
        "step": s.next_step(), "steps_done": sorted(s.done), "off_path": s.off is not None,
        "wanted": [a.text(g.data) for a in legal if s.accepts(a)],
        "state": {
            "type": "state", "game": f"learn-{s.lesson.id}", "seat": PLAYER,
            "version": len(s.plays), "status": "over" if g.is_over else "playing", "view": view,
            "to_move": -1 if g.is_over else g.player_to_move, "decider": g.decider,
            "your_turn": your_turn,
            "actions": [action_info(a, g) for a in legal],
            "can_undo": bool(s.plays), "suggest": lesson_suggestions(s) if your_turn else {},
            "log_start": 0, "log": jsonable(lesson_log(g)), "result": result_info(g),
            "seats": [{"seat": PLAYER, "colour": colours[0], "colours": colours,
                       "gnomes": list(range(len(g.gnomes))), "kind": "human", "name": None,
                       "bot": None, "connected": True}],
            "clock": None,
        },
    }


def lesson_log(g: Game) -> list[Any]:
    """The lesson's log from its arranged position on: without the set-up's line ("keepers start
    on space 60", where no keeper of a lesson is) and the scenario's name (English; the page
    shows the lesson's translated title)."""
    log = log_for(g, PLAYER)
    arranged = [i for i, e in enumerate(log) if e[0] == "scenario"]
    return log[arranged[-1] + 1:] if arranged else log


def lesson_suggestions(s: Session) -> dict[str, dict[str, Any]]:
    """The repairs' starting minutes (the game page's ``suggest``): the heuristic bot's, unless the
    lesson's pending steps would refuse that repair; then the fewest minutes they accept (after
    the suggested items), so a repair never starts at a choice the lesson then rejects. A repair
    the lesson asks for is the main choice (``best``)."""
    out = suggestions(s.game)
    if s.lesson.kind != "lesson" or s.off is not None or s.next_step() is None:
        return out
    for key, tip in out.items():  # (the lesson's own judgement after the suggested items)
        after = Session.replay(s.lesson.id, [*s.plays, *(f"play {i}" for i in tip["items"])]) \
            if tip["items"] else s
        options = [a for a in after.game.legal_actions()
                   if a.is_repair and repair_key(a) == key]
        accepted = [a.minutes for a in options if after.accepts(a)]
        if accepted and tip["minutes"] not in accepted:
            tip["minutes"] = min(accepted)
        tip["best"] = bool(accepted)
    return out


def solution_info(lesson_id: str, lang: str) -> dict[str, Any]:
    """The bot's solution with each play as a sentence in ``lang``."""
    sol = solution(lesson_id)
    s = Session.start(lesson_id)
    steps = []
    for text in sol.plays:
        g = s.game
        action = parse_action(text, g.data)
        steps.append({"text": text, "gnome": g.decider, "colour": g.gnomes[g.decider].colour,
                      "ghost": g.ghost, "sentence": describe_action(action, g, lang)})
        s.play(text)
    return {"lesson": lesson_id, "bot": sol.bot, "reached": sol.reached, "plays": steps,
            "result": result_info(s.game)}


def add_routes(app: FastAPI, page: Callable[[Request], Response],
               limit: Callable[[Request], Awaitable[None]] | None = None) -> None:
    """The learn endpoints and pages (``page``: the front-end's index page; ``limit`` raises
    ``rate_limited`` when the client has sent too many plays: each one replays the lesson)."""

    @app.get("/api/learn", responses=ok(Lessons))
    async def lessons() -> dict[str, Any]:
        """The lessons (in teaching order) and the puzzles."""
        return {"lessons": [lesson_info(x) for x in LESSONS],
                "puzzles": [lesson_info(x) for x in PUZZLES]}

    @app.post("/api/learn/{lesson_id}", responses={
        **ok(LearnState), **errors("not_found", "illegal", "rate_limited")})
    async def learn_play(request: Request, lesson_id: LessonId, body: LearnBody) -> dict[str, Any]:
        """Rebuild the lesson from its ``plays``, make ``action`` if given and check it."""
        if limit is not None:
            await limit(request)
        s = session_for(lesson_id, body.plays)
        check = None
        if body.action is not None:
            try:
                check = s.play(body.action).to_dict()
            except LessonError as exc:
                raise ProtocolError("illegal", str(exc)) from None
        return learn_state(s, check)

    @app.get("/api/learn/{lesson_id}/solution", responses={
        **ok(Solution), **errors("not_found", "unknown_language", "rate_limited")})
    async def learn_solution(request: Request, lesson_id: LessonId,
                             lang: Annotated[str, Query(max_length=8)] = "en") -> dict[str, Any]:
        """A puzzle's (or lesson's) solution as the search bot plays it, in sentences."""
        if limit is not None:
            await limit(request)
        if lesson_id not in ALL:
            raise ProtocolError("not_found", f"no lesson {lesson_id!r}")
        try:
            catalog(lang)
        except UnknownLanguage:
            raise ProtocolError("unknown_language", f"no language {lang!r}") from None
        return await asyncio.to_thread(solution_info, lesson_id, lang)

    @app.api_route("/learn", methods=["GET", "HEAD"], include_in_schema=False)
    async def learn_index(request: Request) -> Response:
        return page(request)

    @app.api_route("/learn/{lesson_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def learn_page(request: Request, lesson_id: str) -> Response:
        return page(request)


__all__ = ["LearnBody", "add_routes", "learn_state", "solution_info"]
