"""The search's rollouts: the heuristic crew playing on from a candidate (:class:`Follower`)
until every gnome has moved the horizon's minutes, scored by :func:`rednovember.bots.leaf.evaluate`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..rules import Action, Game
from ..rules.state import MOVE, OPENED
from .facts import SEED_MASK
from .heuristic import decide
from .leaf import evaluate
from .planning import Analysis, Plan, Weights
from .plans import plan_turn, sound
from .value import valued

# --- rollouts ----------------------------------------------------------------------------------

JITTER_PLANS = 3  # a jittered rollout turn picks among the heuristic's this many best plans


class Follower:
    """The rollout policy: the heuristic, planning once per turn and following the plan. With a
    ``temperature`` (in the plans' value units) a turn's plan is drawn among the
    :data:`JITTER_PLANS` best, each weighed ``exp(-gap / temperature)`` by its value gap to the
    best, with a draw fixed by the position (so a rollout repeats exactly)."""

    def __init__(self, weights: Weights, temperature: float = 0.0) -> None:
        self.w = weights
        self.t = temperature
        self.steps: list[Action] = []
        self.key: tuple[int, int] = (-1, -1)

    def act(self, g: Game) -> Action:
        legal = g.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if g.phase in (MOVE, OPENED) and self.steps and self.key == (g.turn, len(g.history)):
            a = self.steps.pop(0)
            if a in legal:
                self.key = (g.turn, len(g.history) + 1)
                return a
        self.steps = []
        if g.phase == MOVE:
            an = Analysis.of(g, g.player_to_move, g.active, self.w)
            plans = sound(g, plan_turn(an), JITTER_PLANS if self.t > 0 else 1)
            if plans and plans[0].steps[0] in legal:
                plan = plans[0] if self.t <= 0.0 else \
                    self._pick(g, [p for p in plans if p.steps[0] in legal])
                self.steps = list(plan.steps[1:])
                self.key = (g.turn, len(g.history) + 1)
                return plan.steps[0]
        return decide(g, g.player_to_move, self.w)

    def _pick(self, g: Game, plans: list[Plan]) -> Plan:
        """The best plan, or with a temperature one drawn by its value gap to the best."""
        if self.t <= 0.0 or len(plans) == 1:
            return plans[0]
        weights = [math.exp((p.value - plans[0].value) / self.t) for p in plans]
        u = position_unit(g) * sum(weights)
        for p, wt in zip(plans, weights, strict=True):
            u -= wt
            if u < 0.0:
                return p
        return plans[-1]


def position_unit(g: Game) -> float:
    """A number in [0, 1) fixed by the position (history length, turn, ghost, tracks, fires):
    the jittered rollout's draw, so the same rollout repeats exactly without a random state."""
    h = len(g.history) * 40503 + g.turn * 7919 + g.ghost * 97 + g.active
    for x in g.tracks:
        h = (h * 31 + x) & SEED_MASK
    h = (h * 31 + sum(g.fire)) & SEED_MASK
    return ((h * 2654435761) & SEED_MASK) / float(SEED_MASK + 1)


Rollout = Callable[[Game, tuple[Action, ...], int, int, Weights], float | None]


def play_steps(sim: Game, steps: tuple[Action, ...]) -> bool:
    """Apply ``steps`` to ``sim`` (until the game ends); False if one is not legal there."""
    for a in steps:
        if sim.result is not None:
            break
        if a not in sim.legal_actions():
            return False
        sim.apply(a)
    return True


def rollout(sim: Game, steps: tuple[Action, ...], player: int, stop: int, w: Weights,
            max_steps: int = 3000, leaf: tuple[float, ...] = (), power: float = 1.0,
            temperature: float = 0.0, value: tuple[float, ...] = ()) -> float | None:
    """Play ``steps`` (None if one is not legal), then the heuristic until every keeper is at or
    below ``stop`` at the start of a turn (or the game ends); return
    :func:`rednovember.bots.leaf.evaluate`."""
    if not play_steps(sim, steps):
        return None
    policy = Follower(w, temperature)
    turn = sim.turn
    n = 0
    while sim.result is None and n < max_steps:
        if sim.turn != turn:
            turn = sim.turn
            if sim.phase == MOVE and sim.gnomes[sim.active].keeper <= stop:
                break  # the gnome furthest back is past the horizon: so is everyone
        sim.apply(policy.act(sim))
        n += 1
    if value:
        return valued(sim, player, w, value)
    return evaluate(sim, player, w, leaf, power)
