"""The lessons and puzzles of "Learn to play": arranged positions (rules/scenario.py), each with a
goal, the steps its guidance walks through, and the checks that say why a play is not the one the
lesson asks for.

Texts are not here: every message is a catalog key of the "learn" section with its arguments
(``learn.{lesson}_{step}``, ``learn.{lesson}_why_{step}``), so each interface says it in its own
language. Everything depends on the rules engine only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..rules import Action, Game

Args = dict[str, int | str]
Why = Callable[[Action, Game], tuple[str, Args] | None]
Says = Callable[[Game, int], Args]  # the game after the play, the gnome that made it


@dataclass(frozen=True)
class Step:
    """One step of a lesson's guidance: the play it asks for (``wants`` sees the game before the
    play), its text key, and the key that says why another play is not it. A ``free`` step (an
    item play) may come before the steps listed ahead of it. A step with ``until`` is asked for
    again after each play until that holds; ``says`` gives the arguments of its right text."""

    key: str
    wants: Callable[[Action, Game], bool]
    free: bool = False
    why: Why | None = None  # a more precise reason than the step's own why-not text
    until: Callable[[Game], bool] | None = None
    says: Says | None = None


@dataclass(frozen=True)
class Lesson:
    """A lesson (``kind`` "lesson": steps and checks) or a puzzle (``kind`` "puzzle": a goal to
    reach on your own, the bot's solution shown afterwards)."""

    id: str
    kind: str
    spec: dict[str, Any]
    goal: Callable[[Game], bool]
    solution: tuple[str, ...]  # a scripted play that reaches the goal (tests, "show me")
    steps: tuple[Step, ...] = ()
    facts: Callable[[Game], Args] = field(default=lambda g: {})  # numbers the texts quote


def _is(text: str) -> Callable[[Action, Game], bool]:
    """The step wants exactly this play (its text form)."""
    return lambda a, g: a.text(g.data) == text


def _kind(kind: str) -> Callable[[Action, Game], bool]:
    return lambda a, g: a.kind == kind


def _repair_enough(kind: str, roll: int, latest: int = -1) -> Callable[[Action, Game], bool]:
    """A repair whose minutes plus the bonus played reach ``roll`` (the die the lesson fixes),
    and, with ``latest``, whose ghost keeper stays on or before that space (R7)."""
    def wants(a: Action, g: Game) -> bool:
        return (a.kind == kind and a.minutes + g.bonus(kind) >= roll
                and (latest < 0 or g.ghost - a.minutes >= latest))
    return wants


def _in_hand_bonus(g: Game, kind: str) -> int:
    """The bonus the active gnome's items still in its hand would give to a repair."""
    items = g.data.items
    return sum(items[k].bonus_to(kind) for k in g.gnomes[g.decider].hand)


def _odds_why(kind: str, roll: int, latest: int = -1) -> Why:
    """Why a repair of the right kind is not enough: R7 first (a doomed repair), then the odds:
    an item that would help is still in the hand, or (every such item played) too few minutes."""
    def why(a: Action, g: Game) -> tuple[str, Args] | None:
        if a.kind != kind:
            return None
        bonus = g.bonus(kind)
        after = g.ghost - a.minutes
        if latest >= 0 and after < latest:
            return "why_doomed", {"minutes": a.minutes, "ghost": after, "token": latest}
        chance = max(0, min(10, a.minutes + bonus)) * 10
        odds: Args = {"minutes": a.minutes, "bonus": bonus, "total": a.minutes + bonus,
                      "chance": chance, "roll": roll}
        if _in_hand_bonus(g, kind):
            return "why_odds", odds
        return "why_odds_more", {**odds, "need": roll - bonus}
    return why


def _play_first(item: str) -> Why:
    """A repair tried before the item that helps it is played."""
    def why(a: Action, g: Game) -> tuple[str, Args] | None:
        if a.is_repair:
            return "why_play_first", {"item": item}
        return None
    return why


def _respites(n: int = 7) -> list[str]:
    return ["respite"] * n


def _keeper(g: Game, n: int = 0) -> int:
    return g.gnomes[n].keeper


def _one_minute_left(g: Game) -> bool:
    """The crew's keepers together are one space from 0: only the last No Action is left."""
    return sum(gn.keeper for gn in g.on_track()) <= 1


def _walked(g: Game, gnome: int) -> Args:
    """Where the keeper of the gnome that played stands now, and how many are not yet on 0."""
    return {"keeper": g.gnomes[gnome].keeper,
            "left": sum(1 for gn in g.on_track() if gn.keeper > 0)}


# --- 1. moving and the time track -----------------------------------------------------------
MOVING = Lesson(
    "moving", "lesson",
    {"name": "Moving and the time track", "config": {"players": 1, "gnomes_per_player": 3, "seed": 1},
     "position": {"gnomes": [{"room": 7, "keeper": 40, "hand": []},
                             {"room": 10, "keeper": 1, "hand": []},
                             {"room": 9, "keeper": 1, "hand": []}]},
     "event_deck": _respites()},
    goal=lambda g: g.gnomes[0].room == 4 and _keeper(g) == 37,
    solution=("open 5", "enter", "open 4", "enter", "no_action"),
    steps=(Step("open5", _is("open 5")), Step("enter5", _is("enter")),
           Step("open4", _is("open 4")), Step("enter4", _is("enter")),
           Step("action", _is("no_action"))),
)

# --- 2. water and reflow ----------------------------------------------------------------------
WATER = Lesson(
    "water", "lesson",
    {"name": "Water and reflow", "config": {"players": 1, "gnomes_per_player": 3, "seed": 2},
     "position": {"gnomes": [{"room": 4, "keeper": 40, "hand": ["water_pump"]},
                             {"room": 10, "keeper": 1, "hand": []},
                             {"room": 9, "keeper": 1, "hand": []}],
                  "water": {"5": "high"}},
     "dice": [5], "event_deck": _respites()},
    goal=lambda g: g.water[5] == 0 and g.gnomes[0].room == 5 and g.gnomes[0].alive,
    solution=("open 5", "enter", "play water_pump", "pump_water 3"),
    steps=(Step("open5", _is("open 5")), Step("enter5", _is("enter")),
           Step("play", _is("play water_pump"), free=True),
           Step("pump", _repair_enough("pump_water", 5), why=_odds_why("pump_water", 5))),
)

# --- 3. fire and Grog -------------------------------------------------------------------------
FIRE = Lesson(
    "fire", "lesson",
    {"name": "Fire and Grog", "config": {"players": 1, "gnomes_per_player": 3, "seed": 3},
     "position": {"gnomes": [{"room": 3, "keeper": 40, "intoxication": 0, "hand": ["grog"]},
                             {"room": 10, "keeper": 1, "hand": []},
                             {"room": 9, "keeper": 1, "hand": []}],
                  "fire": [2]},
     "dice": [6], "event_deck": ["respite/2", *_respites(6)]},
    goal=lambda g: not g.fire[2] and g.gnomes[0].alive and _keeper(g) < 40,
    solution=("play grog", "open 2", "enter", "extinguish_fire 3"),
    steps=(Step("grog", _is("play grog"), free=True), Step("open2", _is("open 2")),
           Step("enter2", _is("enter")),
           Step("extinguish", _repair_enough("extinguish_fire", 6),
                why=_odds_why("extinguish_fire", 6))),
)

# --- 4. repairs and their odds ----------------------------------------------------------------
REPAIRS = Lesson(
    "repairs", "lesson",
    {"name": "Repairs and their odds", "config": {"players": 1, "gnomes_per_player": 3, "seed": 4},
     "position": {"gnomes": [{"room": 4, "keeper": 40, "hand": ["reactor_manual", "toolbox"]},
                             {"room": 10, "keeper": 1, "hand": []},
                             {"room": 9, "keeper": 1, "hand": []}],
                  "tracks": {"heat": 8}},
     "dice": [9], "event_deck": _respites()},
    goal=lambda g: g.tracks[g.data.tracks.index("heat")] <= 5,
    solution=("play reactor_manual", "play toolbox", "fix_reactor 2"),
    steps=(Step("manual", _is("play reactor_manual"), free=True, why=_play_first("reactor_manual")),
           Step("toolbox", _is("play toolbox"), free=True, why=_play_first("toolbox")),
           Step("fix", _repair_enough("fix_reactor", 9), why=_odds_why("fix_reactor", 9))),
)

# --- 5. events and the keeper's walk -----------------------------------------------------------
EVENTS = Lesson(
    "events", "lesson",
    {"name": "Events and the keeper's walk",
     "config": {"players": 1, "gnomes_per_player": 3, "seed": 5},
     "position": {"gnomes": [{"room": 8, "keeper": 40, "hand": ["lucky_charm"]},
                             {"room": 10, "keeper": 1, "hand": []},
                             {"room": 9, "keeper": 1, "hand": []}],
                  "tracks": {"heat": 7}},
     "event_deck": ["reactor_malfunction", "reactor_malfunction", *_respites()]},
    goal=lambda g: g.result is None and _keeper(g) < 40 and len(g.gnomes[0].hand) >= 4,
    solution=("play lucky_charm", "draw 4", "end"),
    steps=(Step("charm", _is("play lucky_charm"), free=True, why=lambda a, g: (
               ("why_walk", {"events": len([s for s in range(g.ghost - a.arg, g.ghost)
                                            if s in g.data.event_icons])})
               if a.kind == "draw" else None)),
           Step("draw", _is("draw 4")), Step("end", _is("end"))),
)

# --- 6. destruction tokens and R7 --------------------------------------------------------------
TOKENS = Lesson(
    "tokens", "lesson",
    {"name": "Destruction tokens and the ghost",
     "config": {"players": 1, "gnomes_per_player": 3, "seed": 6},
     "position": {"gnomes": [{"room": 1, "keeper": 30, "hand": ["engine_manual"]},
                             {"room": 10, "keeper": 1, "hand": []},
                             {"room": 9, "keeper": 1, "hand": []}],
                  "tokens": {"crushed": 27}},
     "dice": [7], "event_deck": _respites()},
    goal=lambda g: g.tokens[g.data.tokens.index("crushed")] < 0 and g.result is None,
    solution=("play engine_manual", "fix_engine 3"),
    steps=(Step("manual", _is("play engine_manual"), free=True, why=_play_first("engine_manual")),
           Step("fix", _repair_enough("fix_engine", 7, latest=27),
                why=_odds_why("fix_engine", 7, latest=27))),
)

# --- 7. the Sea and its air ---------------------------------------------------------------------
SEA = Lesson(
    "sea", "lesson",
    {"name": "The Sea and its air", "config": {"players": 1, "gnomes_per_player": 3, "seed": 8},
     "position": {"gnomes": [{"room": 3, "keeper": 40, "hand": ["aqualung"]},
                             {"room": 10, "keeper": 1, "hand": []},
                             {"room": 7, "keeper": 1, "hand": []}],
                  "fire": [1, 2, 4]},
     "event_deck": _respites()},
    goal=lambda g: g.gnomes[0].room == 9 and g.gnomes[0].alive and _keeper(g) < 40,
    solution=("play aqualung", "open sea", "enter", "open 9", "enter", "no_action"),
    steps=(Step("aqualung", _is("play aqualung"), free=True), Step("opensea", _is("open sea")),
           Step("leave", _is("enter")), Step("open9", _is("open 9")),
           Step("enter9", _is("enter")), Step("action", _is("no_action"))),
)

# --- 8. blocked hatches and the Crowbar ---------------------------------------------------------
def _unblocks(room: int, roll: int) -> Callable[[Action, Game], bool]:
    """Unblock Hatch of the hatch to ``room``, its minutes plus the bonus played reaching ``roll``
    (the die the lesson fixes)."""
    enough = _repair_enough("unblock_hatch", roll)
    return lambda a, g: a.arg == room and enough(a, g)


def _hatch_why(room: int, roll: int) -> Why:
    """Why an Unblock Hatch is not the one asked for: another hatch (the player picks which
    token goes), else the odds."""
    odds = _odds_why("unblock_hatch", roll)

    def why(a: Action, g: Game) -> tuple[str, Args] | None:
        if a.kind == "unblock_hatch" and a.arg != room:
            return "why_other_hatch", {"room": room}
        return odds(a, g)
    return why


HATCHES = Lesson(
    "hatches", "lesson",
    {"name": "Blocked hatches and the Crowbar",
     "config": {"players": 1, "gnomes_per_player": 3, "seed": 9},
     "position": {"gnomes": [{"room": 4, "keeper": 40, "hand": ["crowbar"]},
                             {"room": 10, "keeper": 1, "hand": []},
                             {"room": 9, "keeper": 1, "hand": []}],
                  "blocked": [[4, 5], [3, 4]]},
     "dice": [7], "event_deck": _respites()},
    goal=lambda g: g.gnomes[0].room == 5 and _keeper(g) <= 34 and g.result is None,
    solution=("play crowbar", "unblock_hatch 5 4", "open 5", "enter", "no_action"),
    steps=(Step("crowbar", _is("play crowbar"), free=True, why=_play_first("crowbar")),
           Step("unblock", _unblocks(5, 7), why=_hatch_why(5, 7)),
           Step("open5", _is("open 5")), Step("enter5", _is("enter")),
           Step("action", _is("no_action"))),
)

# --- 9. trading items --------------------------------------------------------------------------
TRADING = Lesson(
    "trading", "lesson",
    {"name": "Trading items", "config": {"players": 1, "gnomes_per_player": 3, "seed": 10},
     "position": {"gnomes": [{"room": 8, "keeper": 40, "hand": ["water_pump"]},
                             {"room": 8, "keeper": 1, "hand": ["fire_extinguisher", "crowbar"]},
                             {"room": 9, "keeper": 1, "hand": []}],
                  "fire": [5]},
     "event_deck": _respites()},
    goal=lambda g: (g.data.item_index["fire_extinguisher"] in g.gnomes[0].hand
                    and g.data.item_index["crowbar"] in g.gnomes[1].hand
                    and g.data.item_index["water_pump"] in g.gnomes[0].hand
                    and _keeper(g) < 40 and g.result is None),
    solution=("trade 1", "done", "give fire_extinguisher", "done", "end"),
    steps=(Step("trade", _is("trade 1")), Step("yours", _is("done")),
           Step("gift", _is("give fire_extinguisher")), Step("gifted", _is("done")),
           Step("end", _is("end"))),
)

# --- 10. drawing items and R10 ------------------------------------------------------------------
DRAWING = Lesson(
    "drawing", "lesson",
    {"name": "Drawing items", "config": {"players": 1, "gnomes_per_player": 3, "seed": 11},
     "position": {"gnomes": [{"room": 8, "keeper": 40, "hand": []},
                             {"room": 3, "keeper": 1, "hand": []},
                             {"room": 9, "keeper": 1, "hand": []}]},
     "event_deck": _respites()},
    goal=lambda g: (g.gnomes[0].room == 10 and len(g.gnomes[0].hand) == 3
                    and g.data.item_index["grog"] in g.gnomes[0].hand and g.result is None),
    solution=("draw 2", "end", "open 10", "enter", "draw 1"),
    steps=(Step("draw2", _is("draw 2")), Step("end", _is("end")), Step("open10", _is("open 10")),
           Step("enter10", _is("enter")), Step("grog", _is("draw 1"))),
)

# --- 11. when the fire wins --------------------------------------------------------------------
TRAPPED = Lesson(
    "trapped", "lesson",
    {"name": "When the fire wins", "config": {"players": 1, "gnomes_per_player": 3, "seed": 12},
     "position": {"gnomes": [{"room": 5, "keeper": 40, "hand": []},
                             {"room": 10, "keeper": 1, "hand": []},
                             {"room": 9, "keeper": 1, "hand": []}],
                  "fire": [5, 6, 7]},
     "dice": [10], "event_deck": _respites()},
    goal=lambda g: (g.gnomes[0].alive and g.gnomes[0].room not in (-1, 5) and _keeper(g) < 40
                    and g.fire[5] and g.result is None),
    solution=("extinguish_fire 3", "exit 4"),
    steps=(Step("try", _is("extinguish_fire 3")), Step("out", _kind("exit"))),
)

# --- 12. the end of the game ---------------------------------------------------------------------
ENDING = Lesson(
    "ending", "lesson",
    {"name": "The end of the game", "config": {"players": 1, "gnomes_per_player": 3, "seed": 7},
     "position": {"gnomes": [{"room": 7, "keeper": 3, "hand": ["deactivation_code"]},
                             {"room": 10, "keeper": 1, "hand": []},
                             {"room": 9, "keeper": 1, "hand": []}],
                  "tokens": {"missile_launch": 1}},
     "dice": [3], "event_deck": _respites()},
    goal=lambda g: g.result is not None and g.result.won,
    solution=("play deactivation_code", "stop_missile_launch 2", "no_action", "no_action",
              "no_action"),
    steps=(Step("code", _is("play deactivation_code"), free=True,
                why=_play_first("deactivation_code")),
           Step("stop", _repair_enough("stop_missile_launch", 3, latest=1),
                why=_odds_why("stop_missile_launch", 3, latest=1)),
           Step("rest", _is("no_action"), until=_one_minute_left, says=_walked),
           Step("last", _is("no_action"))),
)


# --- puzzles -----------------------------------------------------------------------------------
def _survived_to(minute: int) -> Callable[[Game], bool]:
    """Every keeper still on the track is on ``minute`` or below, and the sub still floats."""
    def goal(g: Game) -> bool:
        if g.result is not None:
            return g.result.won
        return all(gn.keeper <= minute for gn in g.on_track())
    return goal


HEAT = Lesson(
    "heat", "puzzle",
    {"name": "Keep the Heat down", "config": {"players": 1, "gnomes_per_player": 3, "seed": 21},
     "position": {"gnomes": [{"room": 5, "keeper": 40, "hand": ["reactor_manual"]},
                             {"room": 2, "keeper": 39, "hand": ["toolbox"]},
                             {"room": 8, "keeper": 38, "hand": ["grog"]}],
                  "tracks": {"heat": 7}, "fire": [1]},
     "event_deck": ["reactor_heating", "fire", "reactor_malfunction", "respite", "dive",
                    "reactor_heating", "leak"]},
    goal=_survived_to(30),
    solution=(),
)

MISSILE = Lesson(
    "missile", "puzzle",
    {"name": "Stop the missile", "config": {"players": 1, "gnomes_per_player": 3, "seed": 22},
     "position": {"gnomes": [{"room": 4, "keeper": 40, "hand": ["deactivation_code"]},
                             {"room": 8, "keeper": 39, "hand": ["water_pump"]},
                             {"room": 1, "keeper": 38, "hand": []}],
                  "water": {"5": "high"}, "tokens": {"missile_launch": 30}},
     "event_deck": ["dive", "respite", "fire", "reactor_heating", "dive", "respite", "leak"]},
    goal=lambda g: g.result is None and g.tokens[g.data.tokens.index("missile_launch")] < 0,
    solution=(),
)

LESSONS: dict[str, Lesson] = {x.id: x for x in (MOVING, WATER, FIRE, REPAIRS, EVENTS, TOKENS, SEA,
                                                 HATCHES, TRADING, DRAWING, TRAPPED, ENDING)}
PUZZLES: dict[str, Lesson] = {x.id: x for x in (HEAT, MISSILE)}
ALL: dict[str, Lesson] = {**LESSONS, **PUZZLES}
