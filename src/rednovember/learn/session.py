"""Playing a lesson: the real engine plays every move; after each one the lesson checks it.

A :class:`Session` is rebuilt from the lesson and the plays made so far (``Session.replay``), so an
interface needs to keep nothing but the list of plays: "try again" is an empty list, taking a play
back is the list without its last entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules import Action, ActionError, Game, parse_action
from ..rules.scenario import build
from .lessons import ALL, Args, Lesson

MAX_PLAYS = 400  # a lesson's plays a client may send back (the longest puzzle needs far fewer)


class LessonError(ValueError):
    """An unknown lesson, or a play that cannot be parsed or is not legal (the reason says which)."""


@dataclass(frozen=True)
class Check:
    """What the lesson says about one play: ``verdict`` "right", "wrong" (the play is made, but is
    not the step's; ``key`` says why), "free" (off the lesson's path or a puzzle's move: no
    verdict), "goal" (the goal is reached) or "failed" (the game is lost: try again)."""

    verdict: str
    key: str
    args: Args = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {"verdict": self.verdict, "key": self.key, "args": dict(self.args)}


class Session:
    """One learner's attempt at a lesson or puzzle."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.game: Game = build(lesson.spec)
        self.done: set[int] = set()  # steps done
        self.plays: list[str] = []
        self.off: int | None = None  # index of the first play off the lesson's path
        self.checks: list[Check] = []

    @classmethod
    def start(cls, lesson_id: str) -> Session:
        lesson = ALL.get(lesson_id)
        if lesson is None:
            raise LessonError(f"no lesson {lesson_id!r}; lessons: {', '.join(ALL)}")
        return cls(lesson)

    @classmethod
    def replay(cls, lesson_id: str, plays: list[str]) -> Session:
        """The session after ``plays`` (each checked like the first time)."""
        if len(plays) > MAX_PLAYS:
            raise LessonError(f"at most {MAX_PLAYS} plays")
        s = cls.start(lesson_id)
        for i, text in enumerate(plays):
            try:
                s.play(text)
            except LessonError as exc:
                raise LessonError(f"plays[{i}] {text!r}: {exc}") from None
        return s

    # --- the state of the lesson ------------------------------------------------------------------
    @property
    def reached(self) -> bool:
        return self.lesson.goal(self.game)

    @property
    def failed(self) -> bool:
        return self.game.is_over and not self.reached

    @property
    def finished(self) -> bool:
        return self.reached or self.failed

    def next_step(self) -> int | None:
        """The step the guidance shows now (None: every step done, or a puzzle)."""
        for i in range(len(self.lesson.steps)):
            if i not in self.done:
                return i
        return None

    def guidance(self) -> tuple[str, Args]:
        """The text key (and arguments) of what to do now."""
        lid = self.lesson.id
        if self.reached:
            return f"{lid}_done", {}
        if self.failed:
            return "failed", {}
        if self.off is not None:
            return "off_path", {}
        step = self.next_step()
        if step is None:
            return f"{lid}_goal", {}
        return f"{lid}_{self.lesson.steps[step].key}", {}

    # --- playing ----------------------------------------------------------------------------------
    def accepts(self, action: Action) -> bool:
        """Whether this play would be a step the lesson asks for now (a lesson on its path)."""
        return self.lesson.kind == "lesson" and self.off is None and \
            self._match(action) is not None

    def _match(self, action: Action) -> int | None:
        """The step this play does: the next one, or a free step (an item play) further on."""
        nxt = self.next_step()
        if nxt is None:
            return None
        steps = self.lesson.steps
        if steps[nxt].wants(action, self.game):
            return nxt
        for i in range(nxt + 1, len(steps)):
            if i not in self.done and steps[i].free and steps[i].wants(action, self.game):
                return i
        return None

    def _why(self, action: Action) -> tuple[str, Args]:
        """Why a play is not the one the lesson asks for: the most precise reason a pending step
        knows, else the next step's own why-not text."""
        steps = self.lesson.steps
        pending = [i for i in range(len(steps)) if i not in self.done]
        if not pending:
            return "", {}
        for i in pending:
            why = steps[i].why
            said = why(action, self.game) if why is not None else None
            if said is not None:
                return said
        step = steps[pending[0]]
        return f"{self.lesson.id}_why_{step.key}", {}

    def play(self, text: str) -> Check:
        """Make one play (its action text) and check it; an illegal play changes nothing."""
        if self.game.is_over:
            raise LessonError("the lesson is over: try again")
        try:
            action = parse_action(text, self.game.data)
        except ActionError as exc:
            raise LessonError(str(exc)) from None
        if action not in self.game.legal_actions():
            raise LessonError(f"{action.text(self.game.data)!r} is not legal now")
        step = None
        why: tuple[str, Args] = ("", {})
        if self.lesson.kind == "lesson" and self.off is None:
            step = self._match(action)
            if step is None:
                why = self._why(action)
        actor = self.game.decider
        self.game.apply(action)
        self.plays.append(action.text(self.game.data))
        if step is not None:
            until = self.lesson.steps[step].until
            if until is None or until(self.game):
                self.done.add(step)
        elif self.lesson.kind == "lesson" and self.off is None:
            self.off = len(self.plays) - 1
        check = self._verdict(step, why, actor)
        self.checks.append(check)
        return check

    def _verdict(self, step: int | None, why: tuple[str, Args], actor: int) -> Check:
        lid = self.lesson.id
        if self.reached:
            return Check("goal", f"{lid}_done")
        if self.failed:  # the reason the play was wrong says best why it lost
            if why[0]:
                return Check("failed", why[0], why[1])
            cause = self.game.result.cause if self.game.result is not None else ""
            return Check("failed", "failed_cause", {"cause": cause})
        if self.lesson.kind == "puzzle":
            return Check("free", "")
        if step is not None:
            said = self.lesson.steps[step]
            args = said.says(self.game, actor) if said.says is not None else {}
            return Check("right", f"{lid}_right_{said.key}", args)
        if why[0]:
            return Check("wrong", why[0], why[1])
        return Check("free", "")


__all__ = ["MAX_PLAYS", "Check", "LessonError", "Session"]
