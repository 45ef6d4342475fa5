"""The advisor (issue 10): for the seat to move, privately, the top plans for this turn.

:func:`advise` answers "what should I do now?" for one seat from what that seat may see::

    advice = advise(game, seat=0, budget_s=1.5)
    for tip in advice.tips:          # best first, at most three
        tip.steps, tip.chance.chance, tip.threat, tip.repair_chance, tip.meets

How it works:

1. The candidates: :func:`rednovember.bots.plans.plan_turn` on a determinisation of the
   position for ``seat`` (:func:`rednovember.bots.facts.public_twin`, which depends only on what
   the seat may see) lists every sensible plan of the active gnome's turn (route, items, action,
   minutes) with the heuristic's estimated value; the best :data:`DEFAULT_CANDIDATES` distinct ones
   are kept.
2. Each candidate is played on rollout ``i``'s determinisation (``public_twin`` for ``seat``,
   seeded by ``(seed, i)``: the same futures for every candidate, common random numbers), then the
   heuristic crew (:class:`rednovember.bots.rollout.Follower`, as in
   :func:`rednovember.analysis.winchance.win_chance`) plays the game to its end. Rounds go on
   (one rollout per candidate each) until ``rollouts`` rounds or the time budget.
3. The candidates are ranked by their estimated win chance
   (:func:`rednovember.analysis.winchance.estimate`: corrected, with its 95% interval), ties by
   the heuristic's value; the first :data:`TIPS` are the advice, each with a short *why*: the threat
   it answers (a track, a destruction token, a fire, a flood, a blocked hatch), the repair's chance
   with the chosen minutes and items, and the icons the active gnome's keeper meets afterwards.

Hidden information is never read: every game the advisor looks at is a ``public_twin`` for
``seat``, so two positions that differ only in cards the seat cannot see get the same advice.
With ``budget_s=None`` the advice depends only on the position, the seat, ``seed`` and
``rollouts``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..bots.facts import public_twin
from ..bots.heuristic import best_plans
from ..bots.planning import DEFAULT_WEIGHTS, Plan
from ..bots.rollout import Follower, play_steps
from ..rules import Action, Game
from ..rules.apply import doomed_token, low_water_penalty
from ..rules.data import REPAIRS
from ..rules.state import MOVE, OPENED
from .simulate import derive_seed
from .winchance import WinChance, estimate, finish

TIPS = 3  # plans the advice shows
DEFAULT_CANDIDATES = 4  # plans of the heuristic tried by rollouts
DEFAULT_ROLLOUTS = 40  # rounds at most (one rollout per candidate each)
# the default time budget: a hint within 1 s at every player count (issue 21; the bots' compiled
# rollouts play about as many rounds in 0.8 s as the pure ones did in 1.6 s; the last round may
# run past the budget by a round's spread)
DEFAULT_BUDGET_S = 0.8
MIN_ROUNDS = 2  # a time budget never stops before this many rounds

Progress = Callable[[int, int], None]  # (rollouts done, rollouts planned at most)


class AdvisorError(ValueError):
    """The advisor cannot advise here (not this seat's turn, not the move phase, game over)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Tip:
    """One plan of the advice: its steps (the actions to take, in order) and why."""

    steps: tuple[Action, ...]
    action: Action  # the turn's action (the last step)
    route: tuple[int, ...]  # the rooms walked through, the start room first
    items: tuple[str, ...]  # item ids played, in order
    minutes: int  # minutes the plan costs the gnome (walk, penalties and the action)
    chance: WinChance  # the crew's estimated chance to win after this plan
    value: float  # the heuristic's estimate of the plan
    threat: dict[str, Any] | None  # what it answers: {"kind": track/token/fire/flood/hatch, ...}
    repair_chance: int | None  # percent, for a repair (0 when R7 dooms it)
    meets: dict[str, int]  # {"events", "items"} the keeper meets walking to the ghost after
    ghost_after: int

    def to_dict(self, game: Game) -> dict[str, Any]:
        data = game.data
        return {"steps": [s.text(data) for s in self.steps], "action": self.action.text(data),
                "kind": self.action.kind, "arg": self.action.arg,
                "minutes_action": self.action.minutes, "route": list(self.route),
                "items": list(self.items), "minutes": self.minutes,
                "chance": self.chance.to_dict(), "value": round(self.value, 2),
                "threat": self.threat, "repair_chance": self.repair_chance, "meets": self.meets,
                "ghost_after": self.ghost_after}


@dataclass(frozen=True)
class Advice:
    """The advice for ``seat``: ``tips`` best first; ``rounds`` rollouts per candidate."""

    seat: int
    gnome: int
    tips: tuple[Tip, ...]
    candidates: int
    rounds: int
    seconds: float
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self, game: Game) -> dict[str, Any]:
        return {"seat": self.seat, "gnome": self.gnome, "candidates": self.candidates,
                "rounds": self.rounds, "seconds": round(self.seconds, 3),
                "plans": [t.to_dict(game) for t in self.tips]}


def check_can_advise(game: Game, seat: int) -> None:
    """Raises :class:`AdvisorError` unless ``seat`` is to move in the move phase (a hatch just
    opened included: the turn's moves go on)."""
    if game.result is not None:
        raise AdvisorError("game_over", "the game is over")
    if not 0 <= seat < game.config.players:
        raise AdvisorError("bad_seat", f"seat must be 0..{game.config.players - 1}")
    if game.phase not in (MOVE, OPENED) or game.player_to_move != seat:
        raise AdvisorError("not_your_turn", "a hint is for the seat to move, at its turn's moves")


def candidates(game: Game, seat: int, n: int = DEFAULT_CANDIDATES,
               seed: int = 0) -> list[Plan]:
    """The heuristic's ``n`` best distinct plans for the active gnome, seen by ``seat``."""
    view = public_twin(game, seat, derive_seed(seed, "advice-plans"))
    # the heuristic's own list: distinct, and no long-shot repair that keeps its item unplayed
    if view.phase == MOVE:
        return best_plans(view, seat, DEFAULT_WEIGHTS, n)
    # a hatch is open: the plans after going through it (with an item first where one is needed
    # to go in) and after staying, those first steps added
    plans: list[Plan] = []
    for first in _ways_on(view):
        twin = view.copy(keep_log=False)
        for a in first:
            twin.apply(a)
        plans += [p._replace(steps=(*first, *p.steps))
                  for p in best_plans(twin, seat, DEFAULT_WEIGHTS, n)]
    plans.sort(key=lambda p: -p.value)
    return plans[:n]


def _ways_on(g: Game) -> list[tuple[Action, ...]]:
    """With a hatch open: go in, stay, or play an item that lets the gnome go in, then go in."""
    legal = g.legal_actions()
    ways: list[tuple[Action, ...]] = [(a,) for a in legal if a.kind in ("enter", "stay")]
    if any(a.kind == "enter" for a in legal):
        return ways
    for play in (a for a in legal if a.kind == "play"):
        twin = g.copy(keep_log=False)
        twin.apply(play)
        if Action("enter") in twin.legal_actions():
            ways.append((play, Action("enter")))
    return ways


def play_out(game: Game, seat: int, steps: tuple[Action, ...], seed: int) -> bool | None:
    """One rollout: ``steps`` then the heuristic crew to the end on a determinisation for
    ``seat``; whether the crew won (None: a step is not legal there)."""
    sim = public_twin(game, seat, seed)
    if not play_steps(sim, steps):
        return None
    return finish(sim, Follower(DEFAULT_WEIGHTS).act)


def advise(game: Game, seat: int, *, n_candidates: int = DEFAULT_CANDIDATES,
           rollouts: int = DEFAULT_ROLLOUTS, seed: int = 0, budget_s: float | None = None,
           progress: Progress | None = None, min_rounds: int = MIN_ROUNDS,
           clock: Callable[[], float] = time.perf_counter) -> Advice:
    """The advice for ``seat`` (the seat to move); ``game`` is not changed.

    ``rollouts``: rounds at most (each plays every candidate once); ``budget_s`` stops earlier on
    the clock, after ``min_rounds`` (:data:`MIN_ROUNDS`): a round is not begun when the last
    one's time would take the answer past the budget (so the budget is kept, not overrun);
    ``progress(done, total)`` is called after each round."""
    check_can_advise(game, seat)
    start = clock()
    plans = candidates(game, seat, n_candidates, seed)
    if not plans:
        raise AdvisorError("no_plans", "no plan to advise")
    wins = [0] * len(plans)
    valid = [True] * len(plans)
    rounds = 0
    deadline = None if budget_s is None else start + budget_s
    last = 0.0  # the last round's time
    while rounds < rollouts:
        began = clock()
        if deadline is not None and rounds >= min_rounds and began + last >= deadline:
            break
        rseed = derive_seed(seed, "advice", rounds)
        for i, p in enumerate(plans):
            if not valid[i]:
                continue
            won = play_out(game, seat, p.steps, rseed)
            if won is None:
                valid[i] = False
            else:
                wins[i] += won
        rounds += 1
        last = clock() - began
        if progress is not None:
            progress(rounds, rollouts)
    ranked = sorted((i for i in range(len(plans)) if valid[i]),
                    key=lambda i: (-wins[i], -plans[i].value, i))
    gnome = game.active
    tips = tuple(describe_plan(game, seat, plans[i], estimate(wins[i], rounds), seed)
                 for i in ranked[:TIPS])
    return Advice(seat, gnome, tips, len(plans), rounds, clock() - start)


# --- why ---------------------------------------------------------------------------------------

def threat_of(game: Game, action: Action, room: int) -> dict[str, Any] | None:
    """What ``action`` (made in ``room``) answers, for the why of a plan."""
    data = game.data
    k = action.kind
    rep = data.room_repairs.get(k)
    if rep is not None:
        if rep.token >= 0 and game.tokens[rep.token] >= 0:
            return {"kind": "token", "token": data.tokens[rep.token],
                    "space": game.tokens[rep.token],
                    "track": data.tracks[rep.track] if rep.track >= 0 else None,
                    "level": game.tracks[rep.track] if rep.track >= 0 else None}
        if rep.track >= 0:
            return {"kind": "track", "track": data.tracks[rep.track],
                    "level": game.tracks[rep.track], "end": data.track_length}
        return None
    if k == "extinguish_fire":
        return {"kind": "fire", "room": room}
    if k == "pump_water":
        return {"kind": "flood", "room": room}
    if k == "unblock_hatch":
        return {"kind": "hatch", "room": room, "to": action.arg}
    if k == "draw":
        return {"kind": "items", "count": action.arg}
    if k == "trade":
        return {"kind": "trade", "gnome": action.arg}
    return None


def describe_plan(game: Game, seat: int, plan: Plan, chance: WinChance, seed: int) -> Tip:
    """A plan with its why: route, items, minutes, threat, repair chance, keeper's icons."""
    data = game.data
    sim = public_twin(game, seat, derive_seed(seed, "advice-why"))
    start_ghost = sim.ghost
    route = [sim.gnomes[sim.active].room]
    items: list[str] = []
    for a in plan.steps[:-1]:
        if a.kind == "play":
            items.append(data.items[a.arg].id)
        if a not in sim.legal_actions():
            break
        sim.apply(a)
        if a.kind == "enter" or a.kind == "exit":
            route.append(sim.gnomes[sim.active].room)
    act = plan.action
    room = sim.gnomes[sim.active].room
    k = act.kind
    pen = low_water_penalty(sim, k)
    cost = {"draw": act.arg + pen, "trade": 1 + pen, "attack": 1 + pen,
            "no_action": 1}.get(k, act.minutes + pen if k in REPAIRS else 0)
    ghost_after = sim.ghost - cost
    repair_chance: int | None = None
    if k in REPAIRS:
        doomed = doomed_token(sim, k, ghost_after) >= 0
        repair_chance = 0 if doomed else max(0, min(10, act.minutes + sim.bonus(k))) * 10
    keeper = sim.gnomes[sim.active].keeper
    spaces = range(max(0, ghost_after), keeper)
    events = sum(1 for s in spaces if s in data.event_icons)
    icons = sum(1 for s in spaces if s in data.item_icons)
    meets = {"events": max(0, events - sim.charms), "items": icons}
    threat = threat_of(sim, act, room)
    return Tip(plan.steps, act, tuple(route), tuple(items), start_ghost - ghost_after, chance,
               plan.value, threat, repair_chance, meets, ghost_after)


__all__ = ["Advice", "AdvisorError", "DEFAULT_BUDGET_S", "DEFAULT_CANDIDATES", "DEFAULT_ROLLOUTS",
           "TIPS", "Tip", "advise", "candidates", "check_can_advise", "describe_plan", "play_out",
           "threat_of"]
