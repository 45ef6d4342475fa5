"""Warnings before a choice that harms the chooser or the crew, for every interface.

Each warning is a code with its fields (the web client renders it from the catalog's ``warnings``
section; the terminal with :func:`warning_texts`). They tell the player what the rules will do,
before the click: a burning room needs Grog or a Fire Extinguisher to go in, high water floods the
room one opens from, a gnome left in fire or high water dies in the Updates phase (§10): after
its action it can no longer move, so one that enters fire must put it out; a failed
Extinguish Fire with no way out kills (P8), Fire Spreads into a fainted gnome's room kills it,
an attack kills its loser, and Abandon Comrades inverts the win condition."""

from __future__ import annotations

from typing import Any

from ..rules import SEA, Action, Game
from ..rules.apply import can_escape
from ..rules.legal import reflow_result
from ..rules.state import HIGH
from . import DEFAULT, catalog
from . import names as n
from .describe import action_cost

Warning = tuple[str, dict[str, Any]]


def action_warnings(action: Action, game: Game) -> list[Warning]:
    """The warnings for a legal action of ``game`` (codes and fields; empty when harmless)."""
    k = action.kind
    if k == "open":
        return _open_warnings(action.arg, game)
    if k == "extinguish_fire":
        return _extinguish_warnings(action, game)
    if k == "spread":
        return [("spread_fainted", {"gnome": gn.number}) for gn in game.gnomes
                if gn.on_board and gn.fainted and gn.room == action.arg]
    if k == "attack":
        return [("attack", {"gnome": action.arg})]
    if k == "abandon":
        return [("abandon", {})]
    if k == "enter" and game.opened != SEA and game.fire[game.opened]:
        return [("enter_fire", {"room": game.opened})]
    if k in ("end", "no_action"):  # after the action the gnome can no longer move (§5)
        return _hazard_at_updates(game)
    return []


def warning_texts(action: Action, game: Game, lang: str = DEFAULT) -> list[str]:
    """The warnings as sentences in ``lang``."""
    cat = catalog(lang)
    out = []
    for code, fields in action_warnings(action, game):
        shown = {key: n.gnome(cat, game, v) if key == "gnome" else
                 n.room(cat, game, v) if key == "room" else v for key, v in fields.items()}
        out.append(cat.get("warnings", code, **shown))
    return out


def _open_warnings(room: int, game: Game) -> list[Warning]:
    here = game.gnomes[game.active].room
    if room == SEA:
        return []
    level = reflow_result(game, here, room)[1] if here != SEA else game.water[room]
    out: list[Warning] = []
    if here != SEA and game.water[room] == HIGH and level != HIGH:
        out.append(("floods_here", {"room": room}))
    if game.fire[room] and not level and not game.can_enter_fire():
        out.append(("fire_needs_item", {"room": room}))
    return out


def _extinguish_warnings(action: Action, game: Game) -> list[Warning]:
    twin = game.copy(keep_log=False)
    twin.ghost -= action_cost(action, game) or 0
    return [] if can_escape(twin) else [("no_way_out", {})]


def _hazard_at_updates(game: Game) -> list[Warning]:
    room = game.gnomes[game.active].room
    if room == SEA:
        return []
    if game.fire[room]:
        return [("dies_in_fire", {"room": room})]
    if game.water[room] == HIGH:
        return [("dies_in_flood", {"room": room})]
    return []


__all__ = ["Warning", "action_warnings", "warning_texts"]
