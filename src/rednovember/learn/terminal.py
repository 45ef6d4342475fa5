"""``rednovember learn [LESSON]``: the lessons and puzzles in the terminal, line by line (standard
input and output, so it can be piped).

Each position prints the lesson's idea, goal and the step to take, the state that matters and the
legal plays, numbered; the learner answers with a number or an action text. After each play the
lesson's check is printed. ``retry`` starts again, ``back`` takes the last play back, ``solution``
shows the bot's solution of a finished puzzle, ``quit`` leaves. After a lesson, Enter goes on to the
next one (after the last puzzle, back to the menu).
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from rich.console import Console

from ..i18n import Catalog, UnknownLanguage, catalog
from ..i18n import names as n
from ..i18n.describe import describe_action, describe_log
from ..rules import Game, parse_action
from ..terminal import board, screen
from ..terminal.app import EXIT_OK, EXIT_UNFINISHED, NO_WIDTH
from ..terminal.lines import width_of, wrap
from .lessons import ALL, Args
from .session import Check, LessonError, Session
from .solution import solution

MENU = ""  # what Learner.lesson returns to show the menu again


def _lesson_id(text: str) -> str:
    """A lesson's name, or its number as the menu shows it (``learn 1`` is ``learn moving``)."""
    order = list(ALL)
    if text.isdigit() and 1 <= int(text) <= len(order):
        return order[int(text) - 1]
    if text in ALL:
        return text
    raise argparse.ArgumentTypeError(
        f"no lesson {text!r}: give its number 1-{len(order)} or its name ({', '.join(order)})")


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The ``learn`` subcommand (cli.py's hook)."""
    p = sub.add_parser("learn", help="learn to play: lessons and puzzles, line by line")
    p.add_argument("lesson", nargs="?", type=_lesson_id, metavar="LESSON",
                   help=f"the lesson or puzzle to start with, by name or by its number in the "
                        f"menu (1-{len(ALL)}): {', '.join(ALL)} (asked if omitted)")
    p.add_argument("--lang", default="en",
                   help="language of the texts: en, de, fr, pl, ru or es (default en)")


class Learner:
    """The line-mode lesson loop, reading ``inp`` and writing ``out``, its lines wrapped to
    ``width`` (a terminal's; None on a pipe or in a file, whose reader wraps them)."""

    def __init__(self, cat: Catalog, inp: TextIO, out: TextIO, width: int | None = None) -> None:
        self.cat = cat
        self.inp = inp
        self.out = out
        self.width = width
        self.ended = False  # the input ended (not quit)
        self.puzzle = False  # the lesson being played is a puzzle

    def say(self, text: str = "") -> None:
        print(wrap(text, self.width), file=self.out)

    def t(self, key: str, args: Args | None = None) -> str:
        fields: dict[str, object] = dict(args or {})
        if "item" in fields:
            fields["item"] = self.cat.raw("items", str(fields["item"]))
        if "cause" in fields:
            fields["cause"] = self.cat.raw("loss_causes", str(fields["cause"]))
        return self.cat.get("learn", key, **fields)

    def label(self, word: str) -> str:
        """``word`` followed by a colon, as the language writes it ("Goal:", "Objectif :")."""
        return self.cat.get("learn", "label", label=word)

    def ask(self, prompt: str) -> str | None:
        self.out.write(wrap(prompt, self.width))
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.ended = True
            self.say()
            self.say(self.cat.raw("term_plain", "input_ended"))
            return None
        return line.strip()

    # --- choosing ---------------------------------------------------------------------------------
    def pick(self) -> str | None:
        order = list(ALL)
        self.say(self.cat.raw("learn", "title"))
        self.say(self.cat.raw("learn", "intro"))
        for i, lid in enumerate(order, 1):
            kind = "puzzles" if ALL[lid].kind == "puzzle" else "lessons"
            if i == 1 or ALL[order[i - 2]].kind != ALL[lid].kind:
                self.say("\n" + self.label(self.cat.raw("learn", kind)))
            self.say(f"  {i}. {self.t(lid + '_title')} ({lid})")
        while True:
            answer = self.ask(self.cat.raw("learn", "term_pick"))
            if not answer or answer in ("quit", "q"):
                return None
            if answer.isdigit() and 1 <= int(answer) <= len(order):
                return order[int(answer) - 1]
            if answer in ALL:
                return answer
            self.say(self.t("term_pick_unknown", {"text": answer, "count": len(order)}))

    # --- one lesson -------------------------------------------------------------------------------
    def status(self, g: Game) -> None:
        cat = self.cat
        d = g.decider
        if d >= 0:
            gn = g.gnomes[d]
            tracks = {name: g.tracks[i] for i, name in enumerate(g.data.tracks)}
            self.say(self.t("term_status", {"gnome": n.gnome(cat, g, d), "room": n.room(cat, g, gn.room),
                                            "keeper": gn.keeper, "ghost": max(g.ghost, 0),
                                            **tracks}))
            if gn.hand:
                self.say("  " + ", ".join(n.item(cat, g, k) for k in gn.hand))
            if self.puzzle:  # a lesson's other gnomes only stand by (keepers on 1)
                self.crew(g, d)
        none = cat.raw("learn", "term_none")
        fire = n.rooms(cat, g, [r for r, f in enumerate(g.fire) if f]) or none
        levels = {1: cat.raw("ui", "low_water"), 2: cat.raw("ui", "high_water")}
        water = ", ".join(f"{r} ({levels[w]})" for r, w in enumerate(g.water) if w) or none
        self.say(self.t("term_board", {"fire": fire, "water": water}))
        tokens = [f"{n.token(cat, g, i)} {space}" for i, space in enumerate(g.tokens) if space >= 0]
        if tokens:
            self.say(self.t("term_tokens", {"tokens": ", ".join(tokens)}))

    def crew(self, g: Game, decider: int) -> None:
        """The other gnomes, a line each with their hands: a puzzle with a crew is planned
        with them (where they stand, when they move, what they carry)."""
        viewer = g.gnomes[decider].player
        for gn in g.gnomes:
            if gn.number == decider:
                continue
            where, _, hand = board.crew_parts(g, self.cat, viewer, gn.number)
            self.say(self.t("term_aboard", {"gnome": n.gnome(self.cat, g, gn.number),
                                            "room": where.plain,
                                            "keeper": gn.keeper if gn.on_board else "—"}))
            self.say("  " + hand.plain)

    def show_board(self, g: Game) -> None:
        """The whole table as ``play --plain`` draws it: the submarine with its hatches, the
        disaster tracks, decks and stock, the crew, and the time track with its icons."""
        width = self.width or 100
        console = Console(file=self.out, width=self.width or NO_WIDTH, highlight=False,
                          color_system=None, soft_wrap=self.width is None)
        viewer = g.gnomes[max(g.decider, 0)].player
        console.print(screen.board_view(g, self.cat, viewer, {}, console, width))

    def show_check(self, check: Check) -> None:
        labels = {"right": "right", "wrong": "wrong", "goal": "solved", "failed": "lost"}
        label = labels.get(check.verdict)
        if check.key:
            head = f"{self.label(self.cat.raw('learn', label))} " if label else ""
            self.say(f">> {head}{self.t(check.key, check.args)}")

    def show_solution(self, lid: str) -> None:
        sol = solution(lid)
        self.say(self.label(self.cat.raw("learn", "solution_title")))
        s = Session.start(lid)
        for text in sol.plays:
            action = parse_action(text, s.game.data)
            self.say(f"  [{s.game.ghost:>2}] {n.gnome(self.cat, s.game, s.game.decider)}: "
                     f"{describe_action(action, s.game, self.cat.code)}")
            s.play(text)
        self.say(self.cat.raw("learn", "solution_reached" if sol.reached else "solution_missed"))

    def lesson(self, lid: str) -> str | None:
        """Play one lesson; returns the next lesson to play, MENU, or None to leave."""
        s = Session.start(lid)
        self.puzzle = s.lesson.kind == "puzzle"
        self.say(f"\n== {self.t(lid + '_title')} ==")
        self.say(self.t(lid + "_intro"))
        self.say(f"{self.label(self.cat.raw('learn', 'goal'))} {self.t(lid + '_goal')}")
        if s.lesson.kind == "puzzle":
            self.say(self.cat.raw("learn", "puzzle_note"))
        self.say(self.cat.raw("learn", "term_help"))
        seen = len(s.game.log)
        while True:
            for line in describe_log(s.game, seen, self.cat.code):
                self.say(f"   · {line}")
            seen = len(s.game.log)
            if s.finished:
                return self.after(s)
            self.say()
            self.status(s.game)
            key, args = s.guidance()
            if s.lesson.kind == "lesson":
                self.say(f"-> {self.t(key, args)}")
            actions = s.game.legal_actions()
            for i, a in enumerate(actions, 1):
                self.say(f"  {i:>2}. {describe_action(a, s.game, self.cat.code)}")
            answer = self.ask(self.cat.raw("learn", "term_prompt"))
            if answer is None or answer in ("quit", "q"):
                return None
            if not answer:  # an empty line: what may be typed, not "Not a play here: "
                self.say(self.cat.raw("learn", "term_help"))
                continue
            if answer == "board":
                self.show_board(s.game)
                continue
            if answer == "solution" and self.puzzle:  # offered at its end
                self.say(self.cat.raw("learn", "solution_after"))
                continue
            if answer in ("retry", "back"):
                plays = [] if answer == "retry" else s.plays[:-1]
                s = Session.replay(lid, plays)
                seen = len(s.game.log)
                continue
            text = actions[int(answer) - 1].text(s.game.data) if (
                answer.isdigit() and 1 <= int(answer) <= len(actions)) else answer
            try:
                check = s.play(text)
            except LessonError:
                self.say(self.t("term_unknown", {"text": answer}))
                continue
            self.show_check(check)

    def after(self, s: Session) -> str | None:
        """The lesson is over, won or lost: Enter goes on to the next lesson (after the last one,
        back to the menu), ``retry`` plays it again, ``solution`` shows a puzzle's solution."""
        lid = s.lesson.id
        order = list(ALL)
        nxt = order[order.index(lid) + 1] if order.index(lid) + 1 < len(order) else None
        if nxt:
            self.say(self.t("term_next", {"title": self.t(nxt + "_title"), "id": nxt}))
        else:
            self.say(self.cat.raw("learn", "term_course_done"))
        puzzle = s.lesson.kind == "puzzle"
        choices = self.after_choices(nxt is not None, puzzle)
        self.say(choices)
        while True:
            answer = self.ask("> ")
            if answer is None or answer in ("quit", "q"):
                return None
            if answer == "" or (answer in ("next", "n") and nxt):
                return nxt or MENU
            if answer == "solution" and puzzle:
                self.show_solution(lid)
            elif answer == "retry":
                return lid
            elif answer in ALL:
                return answer
            else:
                self.say(self.t("term_after_unknown", {"text": answer}))
                self.say(choices)

    def after_choices(self, more: bool, puzzle: bool) -> str:
        """The answers the end of a lesson takes, on one line."""
        keys = ["term_after_next" if more else "term_after_menu", "term_after_retry"]
        if puzzle:
            keys.append("term_after_solution")
        return " · ".join(self.cat.raw("learn", k) for k in [*keys, "term_after_quit"])


def run_learn(args: argparse.Namespace, inp: TextIO | None = None,
              out: TextIO | None = None) -> int:
    try:
        cat = catalog(args.lang)
    except UnknownLanguage as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    out = out or sys.stdout
    learner = Learner(cat, inp or sys.stdin, out, width_of(out))
    lid: str | None = args.lesson or learner.pick()
    while lid is not None:
        lid = learner.lesson(lid) if lid != MENU else learner.pick()
    return EXIT_UNFINISHED if learner.ended else EXIT_OK  # as `play --plain`

__all__ = ["Learner", "add_parser", "run_learn"]
