"""The numbered choices at a decision: legal actions, repairs grouped by kind (minutes asked next).

Numbers are stable where it matters: "End the turn" is always 0 (:func:`number_entries`), so a "1"
typed for it never lands on the first choice of the next turn when a turn ends by itself. An
action that ends the movement carries a preview: where the ghost ends and the icons the keeper
meets on its way there (:func:`preview`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..i18n import catalog
from ..i18n import names as n
from ..i18n.describe import (
    action_cost,
    describe_action,
    keeper_walk,
    low_water_penalty,
    repair_chance,
    repair_doomed,
)
from ..i18n.warnings import warning_texts
from ..rules import Action, Game
from ..rules.data import REPAIRS
from ..rules.state import DECIDE

MOVE_KINDS = frozenset({"open", "enter", "stay", "exit"})
# Choices after which the turn's movement is over: the ghost's end is worth a preview.
NO_PREVIEW = MOVE_KINDS | {"play", "abandon"}
END = Action("end")


@dataclass
class Entry:
    """One numbered line: a single action, or a repair whose minutes are asked next."""

    label: str
    section: str
    actions: list[Action] = field(default_factory=list)
    question: str = ""
    warn: bool = False  # a doomed repair (R7) or a harmful choice (i18n.warnings)

    @property
    def is_group(self) -> bool:
        return len(self.actions) > 1


def _section(action: Action, game: Game) -> str:
    if game.phase == DECIDE:
        return "section_decide"
    if action.kind in MOVE_KINDS:
        return "section_move"
    if action.kind == "play":
        return "section_items"
    return "section_action"


def _group_label(actions: list[Action], game: Game, lang: str) -> tuple[str, str]:
    cat = catalog(lang)
    first, last = actions[0], actions[-1]
    kind = n.action_kind(cat, first.kind)
    target = cat.get("ui", "group_target", room=n.room(cat, game, first.arg)) \
        if first.kind == "unblock_hatch" else ""
    chances = [repair_chance(a, game) for a in actions if not repair_doomed(a, game)[0]] or [0]
    low, high = min(chances), max(chances)  # one figure when they agree: no "40–40% chance"
    chance = cat.get("action_notes", "chance", percent=low if low == high else f"{low}–{high}")
    label = cat.get("ui", "group_repair", kind=kind, target=target, low=first.minutes,
                    high=last.minutes, chance=chance)
    if low_water_penalty(game, first.kind):
        label += " (+2 " + cat.raw("action_notes", "low_water") + ")"
    for a in actions:
        doomed, token = repair_doomed(a, game)
        if doomed:
            label += " — " + cat.get("ui", "group_doomed", minutes=a.minutes,
                                     token=n.token(cat, game, token))
            break
    label += _group_warnings(actions, game, lang)
    question = cat.get("ui", "minutes_for", kind=kind, target=target)
    return label, question


def _group_warnings(actions: list[Action], game: Game, lang: str) -> str:
    """Each warning of a group's minute counts once, saying from how many minutes on it holds
    when it does not hold for all of them (more minutes send the ghost further: R9/R12)."""
    cat = catalog(lang)
    minutes: dict[str, list[int]] = {}
    for a in actions:
        for w in warning_texts(a, game, lang):
            minutes.setdefault(w, []).append(a.minutes)
    out = ""
    for w, held in minutes.items():
        if len(held) < len(actions) and held == [a.minutes for a in actions[-len(held):]]:
            out += " ⚠ (" + cat.get("ui", "warn_from_minutes", minutes=held[0]) + ")"
            out += f" {w}"
        else:
            out += f" ⚠ {w}"  # e.g. a failed Extinguish Fire with no way out
    return out


def build_menu(game: Game, lang: str = "en") -> list[Entry]:
    """The choices in display order: movement, the action, then items (decisions as given)."""
    groups: dict[tuple[str, int], list[Action]] = {}
    order: list[tuple[str, int] | Action] = []
    for a in game.legal_actions():
        if a.kind in REPAIRS:
            key = (a.kind, a.arg)
            if key not in groups:
                groups[key] = []
                order.append(key)
            groups[key].append(a)
        else:
            order.append(a)
    entries: list[Entry] = []
    for item in order:
        if isinstance(item, Action):
            entries.append(_single(item, game, lang, _section(item, game)))
            continue
        acts = groups[item]
        if len(acts) == 1:
            entries.append(_single(acts[0], game, lang, "section_action"))
        else:
            label, question = _group_label(acts, game, lang)
            warn = "⚠" in label
            entries.append(Entry(label, "section_action", acts, question, warn))
    rank = {"section_move": 0, "section_action": 1, "section_items": 2, "section_decide": 0}
    entries.sort(key=lambda e: rank[e.section])  # stable: keeps the engine's order inside
    return entries


def preview(a: Action, game: Game, lang: str = "en") -> str:
    """Where the ghost ends after ``a`` and the icons the keeper meets walking there ('' for
    moves, items and decisions, which do not end the movement)."""
    if game.phase == DECIDE or a.kind in NO_PREVIEW or game.active < 0:
        return ""
    cost = 0 if a.kind == "end" else action_cost(a, game)
    if cost is None:
        return ""
    ghost = max(0, game.ghost - cost)
    events, items = keeper_walk(game, ghost)
    if not events and not items:
        return catalog(lang).get("term_plain", "preview_none", ghost=ghost)
    return catalog(lang).get("term_plain", "preview", ghost=ghost, events=events, items=items)


def number_entries(entries: list[Entry]) -> list[tuple[int, Entry]]:
    """The number of every entry: "End the turn" is 0, the others count from 1 in order."""
    out: list[tuple[int, Entry]] = []
    number = 1
    for e in entries:
        if e.actions == [END]:
            out.append((0, e))
        else:
            out.append((number, e))
            number += 1
    return out


def action_label(a: Action, game: Game, lang: str, short: bool = False) -> str:
    """The choice's sentence; a discard says how many of that item the deciding gnome holds
    when more than one (two Fire Extinguishers went by pressing one line twice, issue 18 §10).
    Only the decider sees this line, so a hidden hand (Mad Gnomes) stays hidden."""
    if a.kind == "discard" and game.pending:
        held = game.gnomes[game.pending[0].gnome].hand.count(int(a.arg))
        if held > 1:
            return catalog(lang).get("actions", "discard_held", item=n.item(catalog(lang), game,
                                                                            a.arg), count=held)
    return describe_action(a, game, lang, short)


def _single(a: Action, game: Game, lang: str, section: str, short: bool = False) -> Entry:
    warnings = warning_texts(a, game, lang)
    label = action_label(a, game, lang, short)
    ahead = preview(a, game, lang)
    if ahead:
        label += f" [{ahead}]"
    label += "".join(f" ⚠ {w}" for w in warnings)
    warn = bool(warnings) or (a.kind in REPAIRS and repair_doomed(a, game)[0])
    return Entry(label, section, [a], warn=warn)


def minutes_menu(entry: Entry, game: Game, lang: str = "en") -> list[Entry]:
    """The minute choices of a grouped repair."""
    return [_single(a, game, lang, entry.section, short=True) for a in entry.actions]


__all__ = ["END", "Entry", "build_menu", "minutes_menu", "number_entries", "preview"]
