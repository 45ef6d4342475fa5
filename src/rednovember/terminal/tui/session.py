"""The game behind the full-screen terminal app, without any widget: whose turn, the options of
the pending decision (from the engine's legal actions), applying one, undo, bots, saving.

The app (``tui/app.py``) only asks this object "what are the options" and "choose this one"; tests
drive it directly too."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...bots import Bot
from ...bots.heuristic import best_plans
from ...i18n import Catalog, catalog
from ...i18n import names as n
from ...i18n.describe import action_cost, describe_action, keeper_walk, repair_chance
from ...i18n.warnings import LETHAL, action_warnings, warning_texts
from ...rules import SEA, Action, ActionError, Game, can_undo, undo
from ...rules.state import AFTER_ACTION, DECIDE, MOVE
from ..app import default_autosave as autosave_path
from ..menu import Entry, action_label, build_menu, minutes_menu
from ..newgame import HUMAN, save_text

# LETHAL: the warnings that mean a gnome dies or the game is lost or thrown away (shared with the
# web page): the app asks before applying them.
END = Action("end")
NO_PREVIEW = frozenset({"open", "enter", "exit", "stay", "play"})
LONG_SHOT = 30  # percent: a repair less likely than this is never suggested (★)


@dataclass
class Option:
    """One line of the options list: one action, a move of two steps (open, enter), or a repair
    whose minutes are chosen next (``group``)."""

    label: str
    section: str
    actions: list[Action] = field(default_factory=list)
    group: Entry | None = None
    warnings: list[str] = field(default_factory=list)
    lethal: bool = False
    warn: bool = False
    preview: str = ""  # where the ghost ends and what the keeper meets

    @property
    def is_group(self) -> bool:
        return self.group is not None


def _notes(action: Action, game: Game, lang: str) -> list[str]:
    """The notes of an action's menu line after its cost: ``Open … (1 min; high water will
    flow; low water)`` gives the last two."""
    text = describe_action(action, game, lang)
    if not text.endswith(")") or " (" not in text:
        return []
    return text[text.index(" (") + 2:-1].split(catalog(lang).raw("meta", "list_sep"))[1:]


class Session:
    """One game shared by humans (at this keyboard) and bots."""

    def __init__(self, game: Game, bots: dict[int, Bot] | None = None,
                 bot_names: dict[int, str] | None = None, lang: str = "en",
                 save_path: Path | None = None) -> None:
        self.game = game
        self.bots = dict(bots or {})
        self.bot_names = dict(bot_names or {})
        self.lang = lang
        self.cat: Catalog = catalog(lang)
        self.save_path = save_path or autosave_path()
        self.marks: dict[int, int] = {}  # seat -> log length when it last acted
        self.humans = [s for s in range(game.config.players) if s not in self.bots]
        self.steps: list[int] = []  # actions applied by each human choice (undo takes a choice)
        self.at_keyboard = -1  # the human seat that chose last: still at the keyboard as bots move

    # --- whose turn ------------------------------------------------------------------------------
    def set_lang(self, lang: str) -> None:
        self.lang = lang
        self.cat = catalog(lang)

    @property
    def seat(self) -> int:
        return self.game.player_to_move

    @property
    def bot_to_move(self) -> bool:
        return not self.game.is_over and self.seat in self.bots

    @property
    def viewer(self) -> int:
        """The seat whose hidden cards may be shown: the human to move, else (a bot moves) the
        human who chose last, who is still at the keyboard (Mad Gnomes: never another human's
        hand), else the only human; -1 (no hand shown) while nobody has chosen yet in a Mad
        Gnomes game of several humans (its start, or a loaded save), since nobody knows who sits
        at the keyboard."""
        if not self.game.is_over and self.seat in self.humans:
            return self.seat
        if self.at_keyboard in self.humans:
            return self.at_keyboard
        if len(self.humans) > 1 and self.game.config.has("mad-gnomes"):
            return -1
        return self.humans[0] if self.humans else -1

    def since(self) -> int:
        """Log index of the viewer's last action (what happened since is highlighted)."""
        return self.marks.get(self.viewer, 0)

    # --- options ---------------------------------------------------------------------------------
    def options(self) -> list[Option]:
        g = self.game
        if g.is_over:
            return []
        out = []
        entries = build_menu(g, self.lang)
        goes = self._go_options() if g.phase == MOVE else []
        for e in entries:
            if e.is_group:
                out.append(Option(e.label, e.section, list(e.actions), group=e, warn=e.warn))
            else:
                out.append(self._single(e, e.actions[0]))
            if goes and e.section == "section_move" and e.actions[0].kind == "open":
                match = [o for o in goes if o.actions[0] == e.actions[0]]
                out.extend(match)
        return out

    def minute_options(self, option: Option) -> list[Option]:
        assert option.group is not None
        return [self._single(e, e.actions[0], short=True)
                for e in minutes_menu(option.group, self.game, self.lang)]

    def suggestion(self, option: Option) -> tuple[int, str]:
        """For a repair's minutes: the line a sensible player picks (the heuristic bot's best
        plan, as the web page's default) and a note naming the items to play first; (-1, "")
        when there is none."""
        g = self.game
        if not option.is_group or g.phase != MOVE or g.is_over:
            return -1, ""
        for plan in best_plans(g, g.player_to_move):
            a = plan.action
            if a not in option.actions or any(step.kind != "play" for step in plan.steps[:-1]):
                continue
            if self._chance_after(plan.steps) < LONG_SHOT:
                return -1, ""  # never a long shot as advice (issue 18 §10: a 10% repair starred)
            items = [step.arg for step in plan.steps[:-1]]
            note = self.cat.get("term_tui", "suggested_items", items=n.items(self.cat, g, items)) \
                if items else self.cat.raw("term_tui", "suggested")
            return option.actions.index(a), note
        return -1, ""

    def _chance_after(self, steps: tuple[Action, ...] | list[Action]) -> int:
        """The repair's chance in percent (R7) once the plan's items before it are played."""
        sim = self.game.copy(keep_log=False)
        for step in steps[:-1]:
            sim.apply(step)
        return repair_chance(steps[-1], sim)

    def _single(self, e: Entry, a: Action, short: bool = False) -> Option:
        """One action: its menu sentence and warnings (the line mode's entry gives the grouping
        and the section; the label is built here, with the preview kept apart)."""
        g = self.game
        codes = [code for code, _ in action_warnings(a, g)]
        warnings = warning_texts(a, g, self.lang)
        label = action_label(a, g, self.lang, short) + "".join(f" ⚠ {w}" for w in warnings)
        return Option(label, e.section, [a], warnings=warnings,
                      lethal=any(c in LETHAL for c in codes), warn=e.warn,
                      preview=self.preview(a))

    @staticmethod
    def numbers(options: list[Option]) -> list[int]:
        """The key of each option: "End the turn" is always 0 (a 1 typed a moment too late never
        opens a hatch in the next turn), the others count from 1 (as in the line mode)."""
        out, number = [], 1
        for o in options:
            if o.actions == [END]:
                out.append(0)
            else:
                out.append(number)
                number += 1
        return out

    def preview(self, a: Action) -> str:
        """``◆ 39 · 2 E · 1 I``: the ghost's space after ``a`` ends the turn, and the event and
        item icons the keeper meets walking there (empty for moves and items)."""
        g = self.game
        if g.phase == DECIDE or a.kind in NO_PREVIEW or g.active < 0:
            return ""
        if a.kind == "end":
            after = g.ghost if g.phase in (MOVE, AFTER_ACTION) else -1
        else:
            cost = action_cost(a, g)
            after = g.ghost - cost if cost is not None else -1
        if after < 0 and a.kind != "abandon":
            return ""
        events, items = keeper_walk(g, max(after, 0))
        return self.cat.get("term_tui", "preview", space=max(after, 0), events=events, items=items)

    def _go_options(self) -> list[Option]:
        """"Go to room N": open the hatch and enter in one choice, when entering is legal."""
        g = self.game
        out = []
        for a in g.legal_actions():
            if a.kind != "open" or a.arg == SEA:
                continue
            twin = g.copy()
            twin.apply(a)
            enter = [b for b in twin.legal_actions() if b.kind == "enter"]
            if not enter:
                continue
            warns = warning_texts(a, g, self.lang) + warning_texts(enter[0], twin, self.lang)
            codes = [c for c, _ in action_warnings(a, g) + action_warnings(enter[0], twin)]
            cost = 1 + (action_cost(enter[0], twin) or 0)
            label = self.cat.get("term_tui", "go_to", room=n.room(self.cat, g, a.arg), minutes=cost)
            label = self.cat.join([label[:-1], *_notes(a, g, self.lang)]) + ")"
            label += "".join(f" ⚠ {w}" for w in warns)
            out.append(Option(label, "section_move", [a, enter[0]], warnings=warns,
                              lethal=any(c in LETHAL for c in codes), warn=bool(warns)))
        return out

    # --- acting ----------------------------------------------------------------------------------
    def choose(self, option: Option) -> None:
        """Apply a human's option (every step of it)."""
        assert not option.is_group
        seat = self.seat
        mark = len(self.game.log)
        steps = 0
        for a in option.actions:
            if a not in self.game.legal_actions():  # a step's premise changed: stop there
                break
            self.game.apply(a)
            steps += 1
        self.marks[seat] = mark
        self.steps.append(steps)
        self.at_keyboard = seat

    def bot_step(self) -> Action:
        seat = self.seat
        action = self.bots[seat].choose(self.game)
        self.game.apply(action)
        self.steps.clear()
        return action

    def can_undo(self) -> bool:
        return not self.game.is_over and can_undo(self.game) and not self.bot_to_move

    def undo(self) -> bool:
        """Take back the last choice (within the turn, back to the last roll or reveal); False
        when there is nothing to take back."""
        if not self.can_undo():
            return False
        steps = self.steps.pop() if self.steps else 1
        try:
            for _ in range(steps):  # a whole choice: "go to room N" is two actions
                if not can_undo(self.game):
                    break
                self.game = undo(self.game)
        except ActionError:
            return False
        for seat, mark in self.marks.items():
            self.marks[seat] = min(mark, len(self.game.log))
        return True

    def save(self, path: Path | None = None) -> Path:
        """Write the game to ``path`` (the autosave file by default); OSError on failure."""
        target = path or self.save_path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(save_text(self.game, self.bot_names), "utf-8")
        return target


__all__ = ["END", "HUMAN", "LETHAL", "Option", "Session", "autosave_path", "save_text"]
