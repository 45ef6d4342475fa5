"""The search bot: Monte Carlo search over determinised futures, with the heuristic as rollout.

At a real choice point — the start of its turn (which action, where, with how many minutes and
which items: a whole turn plan) and event choices (where fire spreads, which hatch to block, what
to keep or discard) — it

1. asks the heuristic for its ``k`` best candidates (plans, or legal actions for event choices);
   long-shot repairs that keep a helping item in the hand are not candidates
   (:func:`rednovember.bots.plans.wasteful`); if the heuristic's best is far ahead of the
   rest (``gap``), it simply takes it;
2. draws ``n`` determinisations of the position for its own seat
   (:func:`rednovember.bots.facts.public_twin`: deck orders, future dice and, in Mad Gnomes,
   the other seats' hands put in a canonical order, then re-sampled with
   :func:`rednovember.rules.determinize` — so the search cannot depend on hidden information);
3. plays every candidate on every determinisation (the same ones for every candidate: common
   random numbers) and then lets the heuristic play on until every gnome has moved ``horizon``
   minutes past the decision point (or the game ends). With ``rounds`` (the default level) the
   budget is spent by sequential halving: every candidate meets the first few determinisations,
   then the better half meets more, and so on down to two, so most rollouts go to telling the
   close candidates apart (see :meth:`SearchBot._halving`);
4. scores the end position with :func:`evaluate` (a win is 1, a loss 0, otherwise an estimate
   of the chance to win from the tracks, tokens against the gnomes' time, fires, water, the crew),
   adds ``prior`` times the heuristic's own value gap to its best plan (in lost games: with a few
   determinisations the rollouts are noisy, and a plan the heuristic rates far lower must beat
   it clearly) and takes the candidate with the best score.

It then follows the chosen plan step by step (open, enter, items, the action); anything else —
forced steps, single options, the items window after the action, a trade's gifts — is the
heuristic's. Strength levels (iterations = determinisations per candidate):

=================  ===  ==========  =======  =====  =====  =====================================
name               k    n / rounds  horizon  gap    prior  time per searched decision, one core
=================  ===  ==========  =======  =====  =====  =====================================
``search:fast``    3    6           6        12     0      ~9 ms mean, 19 ms p95 [#quiet]_
``search``         12   12, 26, 52  10 [*]_  15     0.3    ~250 ms mean, 1.1 s worst (4 players) [#]_
``search:strong``  16   15, 33, 65  10       15     0.3    ~430 ms mean, 1.6 s worst (4 players) [#]_
``search:v1``      4    10          8        12     0      ~25 ms mean, 50 ms p95 [#quiet]_: ``search``
                                                           before issue 10
``search:v2``      5    20          10       15     0.3    ~64 ms mean, 123 ms p95 [#quiet]_: the
                                                           first ``search`` of issue 10
``search:v3``      8    6, 13, 26   10       15     0.3    ``search`` before issue 21 (blind to
                                                           the tokens still in the event deck)
``search:v4``      8    6, 13, 26   10       15     0.3    ~85 ms mean, 0.35 s worst: ``search``
                                                           until stop 28 of issue 21
=================  ===  ==========  =======  =====  =====  =====================================

.. [#] Issue 21 (bench/results/bots.md): compiled, on a quiet core, 400 fresh 4-player deals
   (measured as ``search:deep``, then ``search:strong`` until stop 28), where ``search:v4``'s searched
   decisions took 83 ms mean, 0.35 s worst; over all decisions 74 ms mean against 24. It weighs
   the tokens likely next in every variant (``search:v4`` in Hardest only).
.. [#] Measured as ``search:deeper`` (bench/results/bots.md, stop 28): 130 ms mean over all
   decisions, about 1.7 times ``search``, and **no stronger**: 135 of 200 fresh 4-player deals
   against ``search``'s 139.
.. [#quiet] Stop 30 of issue 21: compiled, on a quiet core, 20 fresh 4-player deals (600-619); the
   worst of all their decisions 43, 103 and 163 ms.
.. [*] 10 minutes up to 5 gnomes, fewer with more (``crew_minutes``: 8 at 6, 7 at 7, 6 at 8),
   so an 8-player decision costs about what a 4-player one does.

``search:ready`` is ``search`` counting 0.7 (not 0.3) of the crew's failure at a coming token as
a lost game in the leaf; ``search:guard`` adds the best plans ending in and next to Missile
Control to the candidates while its card likely comes (:func:`guarded`); ``search:long`` rolls
out 14 minutes a gnome at 4 players (11 at 5, 9 at 6; ``crew_minutes`` 56). All three were
measured at stop 29 of issue 21 and won what ``search`` won (bots.md); ``search:ready`` at 5
and 8 players too (stop 39: 155 of 350 deals against 141 at 5, 83 of 200 fresh ones against 86;
52 of 150 against 52 at 8). ``search:strata`` (stop
30) spreads the first dice and the event deck's order evenly over its determinisations
(:mod:`rednovember.bots.strata`): 134 of 216 fresh 4-player deals against the default's 149.
``search:lean`` (stop 31) weighs the heuristic's value gap less (``prior`` 0.1, not 0.3): 69 of
100 fresh 4-player deals against the default's 68. ``search:spend`` (stop 32) values the items in
hand at 0.6 of the default's (``item_scale``, as the heuristic bot's tuned weights do), since
where the search parts from the heuristic's ranking it mostly plays items the heuristic keeps and
draws fewer cards (``bench/distill.py``): 66 of the same 100 deals against the default's 68.
``search:shades`` (stop 34) also tries the two best repair plans with 2 and 4 minutes less
(:func:`shaded`; the heuristic offers a repair's edge minutes only): 65 of the same 100 against
68. ``search:brace`` is ``search:shades`` with ``search:ready``'s leaf: 141 of 200 (600–799) against
139.

``search:fitted`` (stop 36) is the default with a leaf fitted to how the search's own games end
(``SearchLevel.leaf``, ``bench/fit_leaf.py``): the logistic of :func:`evaluate`'s factors, the
log of each kind weighed by its own coefficient. On held-out deals it predicts the outcome better
than the plain product (Brier 0.167 against 0.174), yet plays no better: 74 of 115 fresh
4-player deals against the default's 80, with more losses to tokens already on the track
(bench/results/bots.md). ``search:floored`` (stop 37) is fitted with the tracks' short-term
danger and the tokens on the track held at a coefficient of 1 or more: 83 of 139 against 99, no
better, since the logistic flattens where the fitted leaves sit (about 0.75, where the product
sits at 0.33), so every term counts for a quarter or less of what it counts in the product
against a game lost within the rollout. ``search:sharp`` and ``search:soft`` raise the product
to 1.5 and to 0.67 (``SearchLevel.leaf_power``), to weigh the position more or less against such
a loss: 124 and 127 of 200 fresh 4-player deals against the default's 139, so the plain
product's balance is the best of the three (bots.md). ``search:jitter`` and ``search:shake``
(stop 38) let the rollouts' heuristic draw each turn's plan among its three best, a plan ``d``
below the best weighed ``exp(-d / T)`` (``SearchLevel.rollout_temperature`` T of 1.5 and 4; the
draw is fixed by the position, :func:`position_unit`), so that a candidate is judged over a
spread of reasonable continuations rather than the heuristic's one: 127 of 200 fresh 4-player
deals against the default's 139 and 133 of 200 (both lost more to Crushed!), so the
heuristic's one continuation judges the candidates as well as a spread of them (bots.md).
``search:varied`` (stop 41) takes at most two plans per task (:func:`varied`), so that its
candidates reach more different jobs: 51 of 75 fresh 4-player deals against the default's 51.
``search:reach`` (stop 41) rolls out 10 minutes a gnome at every crew size (6 at 8 players in
the default) on half the determinisations: at 8 players 121 of 355 deals against the default's
107 (p 0.28), fewer Missile Launch! losses and more of the others (bots.md).

``search:tokens`` is ``search:v4`` weighing the tokens likely next in every variant (``search:v4``
weighs them in Hardest only). ``search:tuned`` is ``search:v4`` with the heuristic bot's own tuned
weights (:data:`rednovember.bots.planning.HEURISTIC_WEIGHTS`; the others keep
``DEFAULT_WEIGHTS``). ``search:wide`` is ``search:v4`` with the heuristic's 12 best plans as
candidates instead of 8. ``search:double`` is ``search:v4`` with twice the determinisations:
``search:strong`` until stop 27 of issue 21 (it won what ``search:v4`` won). ``search:deep`` and
``search:deeper`` are the names ``search`` and ``search:strong`` were measured under.

``search:v1`` to ``search:v4``, ``search:tokens``, ``search:tuned``, ``search:wide``,
``search:double``, ``search:deep``, ``search:deeper``, ``search:ready``, ``search:guard``,
``search:long``, ``search:strata``, ``search:lean``, ``search:spend``, ``search:shades``,
``search:brace``, ``search:fitted``, ``search:floored``, ``search:sharp``, ``search:soft``,
``search:jitter``, ``search:shake``, ``search:varied`` and ``search:reach`` are kept for the
benchmark only (not in :data:`rednovember.bots.base.BOTS`), so the comparisons in
bench/results/bots.md stay reproducible.

Searched decisions are about a quarter of a game's decisions; the rest take the heuristic's ~1 ms.
The budget is in iterations, so a bot's choices depend only on its seed and the game, never on
the clock. ``SearchBot(budget_ms=...)`` (``search:ms=500`` in :func:`make_bot`) instead adds
determinisations round by round until the time is up: stronger on a fast machine, but not
reproducible.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

from ..rules import Action, Game
from ..rules.state import DECIDE, MOVE, OPENED
from .facts import SEED_MASK, decision_seed, poisson_tail, public_twin
from .heuristic import best_plans, decide, safe_action
from .planning import DEFAULT_WEIGHTS, HEURISTIC_WEIGHTS, Analysis, Plan, Weights
from .plans import WASTE_CHANCE, plan_turn, repair_chance, sound, with_minutes
from .strata import stratify


@dataclass(frozen=True)
class SearchLevel:
    """How hard the search looks: candidates, determinisations, rollout horizon (minutes)."""

    k: int
    n: int
    horizon: int
    gap: float = 12.0  # skip the search when the heuristic's best leads the next by this much
    prior: float = 0.0  # weight of the heuristic's own value gap (per lost game) in the score
    # sequential halving: determinisations added per round to every candidate still in; after
    # each round but the last the worse half is dropped (never below two). Empty: ``n`` each.
    rounds: tuple[int, ...] = ()
    weights: Weights | None = None  # the level's own weights (None: the bot's)
    # the variants in which the search prepares for the destruction tokens still in the event
    # deck (the weights' token_soon and token_prepare); elsewhere they are 0. None: everywhere.
    token_variants: frozenset[str] | None = None
    # scale the horizon down with the crew: the rollout covers about this many gnome-minutes
    # (never under 6 minutes a gnome). 0: ``horizon`` at every crew size.
    crew_minutes: int = 0
    # while a Missile Launch! card may come (or its token is on the track), also put the best
    # plans ending in Missile Control and next to it among the candidates (even below the k best)
    guard: bool = False
    # spread the first dice and the event deck's order evenly over the determinisations
    # (:mod:`rednovember.bots.strata`: systematic sampling, each twin alone drawn as before)
    strata: bool = False
    # the heuristic's plans end a repair at the edges only (the minutes that make it certain, or
    # all it has, or 1: its value is linear in the minutes); the search also tries the first
    # ``shade_plans`` repair plans with each of ``fewer`` minutes less (at least WASTE_CHANCE)
    fewer: tuple[int, ...] = ()
    shade_plans: int = 2
    # the leaf's coefficients (an intercept, then one per term of LEAF_TERMS): the logistic of
    # the weighted log-factors of evaluate, fitted to outcomes (bench/fit_leaf.py). Empty: the
    # plain product.
    leaf: tuple[float, ...] = ()
    # the plain product raised to this power: above 1 a worse position counts for more against
    # a lost game within the rollout (a loss costs the leaf's value, a position's difference
    # costs power times its relative size), below 1 for less
    leaf_power: float = 1.0
    # the rollouts' heuristic draws each turn's plan among its best few, the worse ones the
    # less likely the further below the best (Follower): 0, always the best
    rollout_temperature: float = 0.0
    # at most this many candidates share one task (the action's room, kind and object): the
    # heuristic's best plans often reach one task by several routes or with other items, and the
    # search then meets fewer different tasks than ``k``. 0: no cap
    per_task: int = 0

    def horizon_for(self, gnomes: int) -> int:
        """The rollout horizon (minutes each gnome moves) with ``gnomes`` gnomes in the game."""
        if not self.crew_minutes:
            return self.horizon
        return min(self.horizon, max(6, self.crew_minutes // max(1, gnomes)))

    def rollouts(self, candidates: int) -> int:
        """How many rollouts one searched decision with ``candidates`` candidates costs."""
        if not self.rounds:
            return self.n * candidates
        total = 0
        for r, add in enumerate(self.rounds):
            total += add * candidates
            if r < len(self.rounds) - 1:
                candidates = max(2, (candidates + 1) // 2) if candidates > 2 else candidates
        return total


# search:v4, the default of issue 21 until stop 28: 8 candidates, sequential halving (8 x 6
# determinisations, the best 4 get 13 more, the best 2 another 26: at most 152 rollouts).
# The horizon is 10 minutes up to 5 gnomes, 8 at 6, 7 at 7 and 6 at 8 (50 gnome-minutes): with 8
# gnomes a 10-minute rollout is twice as long as with 4, and a decision took up to 3.7 s. At 8
# players it won 11 of 31 paired deals against 8 (not significant; bench/results/bots.md); a
# shorter horizon at 4 players won less.
# The tokens likely next are weighed in Hardest only: there, on 60 paired deals, it won 33 with
# them against 21 without (p = 0.04).
_V4 = SearchLevel(8, 0, 10, gap=15.0, prior=0.3, rounds=(6, 13, 26), crew_minutes=50,
                  token_variants=frozenset({"hardest"}))

# search:double: v4 with twice the determinisations (304 rollouts at most); search:strong until
# stop 27, no stronger than v4 (bots.md), kept for the bench
_DOUBLE = replace(_V4, rounds=tuple(2 * r for r in _V4.rounds))

# The default since stop 28 of issue 21 (search:strong at stop 27, measured as search:deep): the
# tokens likely next weighed in every variant, the heuristic's 12 best plans and twice the
# determinisations (12, 26, 52: at most 456 rollouts). Each change alone won 2-15 more of 400
# fresh 4-player deals than v4 (none significant); together they won 275 against 235 (p = 0.002),
# more at 3, 5 and 8 players, and more in every variant on fresh deals, at about three times the
# time (bots.md).
_DEFAULT = replace(_DOUBLE, k=12, token_variants=None)

# search:strong since stop 28: the default with 16 plans and a quarter more determinisations
# (15, 33, 65: at most 764 rollouts, about 1.7 times the default's time). Measured no stronger:
# 135 of 200 fresh 4-player deals against the default's 139 (p = 0.71, bots.md); kept as the
# offered slower level (a seat saved as search:strong still loads) until a stronger one is found.
_STRONG = replace(_DEFAULT, k=16, rounds=(15, 33, 65))

# search:fitted's leaf: an intercept, then a coefficient per term of LEAF_TERMS (track_soon,
# track_level, token_on, token_coming, events, fires, blocked, water, dead, items)
FITTED_LEAF = (2.581, 0.239, 1.675, 0.111, 2.880, 1.615, 0.000, 0.974, 1.691, 3.046, 2.951)

# search:floored's leaf: fitted to the same games with the tracks against the coming events and
# the tokens on the track held at the product's weight of 1 or more (fit_leaf.py fit --floor
# track_soon=1 --floor token_on=1): the search's crew nearly always removes a placed token, so
# an unconstrained fit learns that a token on the track hardly matters (bench/results/bots.md)
FLOORED_LEAF = (3.550, 1.000, 1.320, 1.000, 3.783, 2.487, 0.000, 1.458, 0.684, 4.026, 2.189)

LEVELS: dict[str, SearchLevel] = {
    "fast": SearchLevel(3, 6, 6),
    "default": _DEFAULT,
    "strong": _STRONG,
    # bench only, not offered: the search of before issue 10, and the first default of issue 10
    "v1": SearchLevel(4, 10, 8),
    "v2": SearchLevel(5, 20, 10, gap=15.0, prior=0.3),
    # the default before issue 21, blind to the destruction tokens still in the event deck
    "v3": replace(_V4, crew_minutes=0,
                  weights=replace(DEFAULT_WEIGHTS, token_soon=0.0, token_prepare=0.0)),
    "v4": _V4,  # the default until stop 28 of issue 21
    # bench only: v4 weighing the tokens likely next in every variant (measured in bots.md)
    "tokens": replace(_V4, token_variants=None),
    # bench only: v4 with the heuristic bot's tuned weights (no stronger: bots.md)
    "tuned": replace(_V4, weights=HEURISTIC_WEIGHTS),
    # bench only: v4 with the heuristic's 12 best plans as candidates, not 8 (no stronger: bots.md)
    "wide": replace(_V4, k=12),
    "double": _DOUBLE,  # bench only
    # bench only (stop 29): the default counting more of a coming token the crew could not stop
    # (the leaf's token_prepare 0.7, not 0.3): fewer Missile Launch! losses, more to the others,
    # 279 of 400 fresh 4-player deals against 275; at 5 and 8 players (stop 39) 155 of 350
    # against 141 and 52 of 150 against 52 (bots.md)
    "ready": replace(_DEFAULT, weights=replace(DEFAULT_WEIGHTS, token_prepare=0.7)),
    # bench only (stop 29): the default guarding Missile Control (see guarded); it seldom
    # changes a choice (the search rarely picks the added plans): 6 of 100 deals ended otherwise
    "guard": replace(_DEFAULT, guard=True),
    # bench only (stop 29): the default with longer rollouts (14 minutes a gnome at 4 players):
    # 70 of 113 fresh 4-player deals against the default's 74, at 1.4 times the time
    "long": replace(_DEFAULT, horizon=14, crew_minutes=56),
    # bench only (stop 30): the default with its determinisations spread evenly (strata.py):
    # 134 of 216 fresh 4-player deals against the default's 149 (bots.md)
    "strata": replace(_DEFAULT, strata=True),
    # bench only (stop 31): the default leaning less on the heuristic's own ranking (prior 0.1,
    # not 0.3): with 90 determinisations for the last two, the prior decides a quarter of its
    # searched turns, where the rollout means differ by less than the prior's spread: 69 of 100
    # fresh 4-player deals against the default's 68 (bots.md)
    "lean": replace(_DEFAULT, prior=0.1),
    # bench only (stop 32): the default valuing the items in hand less (item_scale 0.6, as the
    # heuristic bot's tuned weights do): the search's own choices play the items the heuristic
    # keeps and draw fewer cards than its four (bench/distill.py): 66 of 100 fresh 4-player
    # deals against the default's 68 (bots.md)
    "spend": replace(_DEFAULT, weights=replace(DEFAULT_WEIGHTS, item_scale=0.6)),
    # bench only (stop 34): the default also trying its two best repair plans with 2 and 4
    # minutes less (shaded): the heuristic only ever offers a repair's edge minutes
    "shades": replace(_DEFAULT, fewer=(2, 4)),
    # bench only (stop 34): shades with ready's leaf (each moved losses between Missile Launch!
    # and Heat, in opposite directions: do they add up?)
    "brace": replace(
        _DEFAULT, fewer=(2, 4), weights=replace(DEFAULT_WEIGHTS, token_prepare=0.7)
    ),
    # bench only (stop 36): the default with a leaf fitted to how the search's own games end
    # (bench/fit_leaf.py: 300 four-player games, deals 5000-5299)
    "fitted": replace(_DEFAULT, leaf=FITTED_LEAF),
    # bench only (stop 37): fitted with the short-term and placed-token terms held at 1 or more:
    # 83 of 139 fresh 4-player deals against the default's 99 (bots.md)
    "floored": replace(_DEFAULT, leaf=FLOORED_LEAF),
    # bench only (stop 37): the default's product leaf raised to 1.5 and to 0.67 (leaf_power):
    # 124 and 127 of 200 fresh 4-player deals against the default's 139 (bots.md)
    "sharp": replace(_DEFAULT, leaf_power=1.5),
    "soft": replace(_DEFAULT, leaf_power=0.67),
    # bench only (stop 38): the default with rollouts whose heuristic sometimes plays its second
    # or third best plan (temperature 1.5: a plan 1.5 below the best is drawn e^-1 as often;
    # shake: at a gap of 4): 127 and 133 of 200 fresh 4-player deals against 139 (bots.md)
    "jitter": replace(_DEFAULT, rollout_temperature=1.5),
    "shake": replace(_DEFAULT, rollout_temperature=4.0),
    # bench only (stop 41): rollouts of 10 minutes a gnome up to 8 gnomes (the default's 6 at
    # 8), on half the determinisations, so a decision costs about what the default's does: at 8
    # players 121 of 355 deals against the default's 107 (p 0.28, bots.md)
    "reach": replace(_DEFAULT, crew_minutes=80, rounds=(6, 13, 26)),
    # bench only (stop 41): the default with at most two candidates per task (varied): 51 of 75
    # fresh 4-player deals against the default's 51 (bots.md)
    "varied": replace(_DEFAULT, per_task=2),
    # the names the default and search:strong were measured under (bots_strong, bots_deeper)
    "deep": _DEFAULT,
    "deeper": _STRONG,
}


class SearchBot:
    """Monte Carlo search over determinised futures (see the module docstring)."""

    def __init__(self, seed: int = 0, level: str = "default", weights: Weights = DEFAULT_WEIGHTS,
                 budget_ms: float | None = None, iterations: int | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown search level {level!r}; known: {', '.join(LEVELS)}")
        base = LEVELS[level]
        self.level = base if iterations is None else replace(base, n=iterations, rounds=())
        self.name = "search" if level == "default" else f"search:{level}"
        if budget_ms is not None:
            self.name = f"search:ms={budget_ms:g}"
        self.seed = seed
        self.weights = weights if base.weights is None else base.weights
        self._token_weights = self.weights
        self._blind_weights = replace(self.weights, token_soon=0.0, token_prepare=0.0)
        self.budget_ms = budget_ms
        self._plan: list[Action] = []
        self._key: tuple[int, int, int] | None = None
        self.searches = 0  # decisions searched (for benchmarks)
        # the tests put a fake one here
        self.rollout: Rollout = rollout
        lv = self.level
        if lv.leaf or lv.leaf_power != 1.0 or lv.rollout_temperature > 0.0:
            self.rollout = partial(rollout, leaf=lv.leaf, power=lv.leaf_power,
                                   temperature=lv.rollout_temperature)

    # -- the interface ---------------------------------------------------------------------------
    def choose(self, game: Game) -> Action:
        self.weights = self._weights_for(game)
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        player = game.player_to_move
        step = self._follow(game, legal)
        if step is not None:
            return step
        seed = decision_seed(self.seed, game)
        view = self._twin(game, player, seed)
        action: Action | None = None
        if game.phase == MOVE:
            action = self._turn(game, view, player, legal, seed)
        elif game.phase == DECIDE and game.pending[0].kind in ("spread", "block", "keep",
                                                                "discard"):
            action = self._event_choice(game, view, player, legal, seed)
        if action is None or action not in legal:
            action = decide(view, player, self.weights)
        if action not in legal:  # cannot happen; never return an illegal action
            action = safe_action(legal)
        return action

    def _weights_for(self, game: Game) -> Weights:
        """The bot's weights, with the coming tokens weighed only in the level's variants."""
        variants = self.level.token_variants
        if variants is None or any(game.config.has(v) for v in variants):
            return self._token_weights
        return self._blind_weights

    def _follow(self, game: Game, legal: list[Action]) -> Action | None:
        """The next step of the plan chosen at the start of this turn, if still on course."""
        if not self._plan or game.phase not in (MOVE, OPENED):
            self._plan = []
            return None
        if self._key != (game.turn, game.active, len(game.history)):
            self._plan = []
            return None
        step = self._plan.pop(0)
        if step not in legal:
            self._plan = []
            return None
        self._key = (game.turn, game.active, len(game.history) + 1)
        return step

    def _twin(self, game: Game, player: int, seed: int) -> Game:
        """The position the search decides on: a determinisation from the seat's view only."""
        return public_twin(game, player, seed)

    def _sample(self, game: Game, player: int, seed: int, i: int) -> Game:
        """The decision's (``seed``) ``i``-th determinisation, on which every candidate plays."""
        twin = self._twin(game, player, (seed * 31 + i * 1_000_033) & SEED_MASK)
        if self.level.strata:
            stratify(twin, seed, i)
        return twin

    # -- turn plans ------------------------------------------------------------------------------
    def _turn(self, game: Game, view: Game, player: int, legal: list[Action],
              seed: int) -> Action | None:
        lv = self.level
        plans = self._candidates(game, view, player, legal)
        if not plans:
            return None
        chosen = plans[0]
        if len(plans) > 1 and plans[0].value - plans[1].value < lv.gap:
            self.searches += 1
            bias = [lv.prior * (p.value - plans[0].value) / self.weights.loss for p in plans]
            scores = self._search(game, player, [p.steps for p in plans], seed, bias)
            chosen = plans[max(range(len(plans)), key=lambda i: (scores[i], -i))]
        self._plan = list(chosen.steps[1:])
        self._key = (game.turn, game.active, len(game.history) + 1)
        return chosen.steps[0]

    def _candidates(self, game: Game, view: Game, player: int, legal: list[Action]) -> list[Plan]:
        """The heuristic's ``k`` best plans for this turn (on the seat's view), legal here."""
        if self.level.per_task:
            plans = varied(best_plans(view, player, self.weights), self.level.k,
                           self.level.per_task)
        elif not self.level.guard:
            plans = best_plans(view, player, self.weights, limit=self.level.k)
        else:
            plans = guarded(view, player, self.weights, self.level.k)
        plans = [p for p in plans if p.steps and p.steps[0] in legal]
        if self.level.fewer:
            plans += shaded(view, plans, legal, self.level.fewer, self.level.shade_plans)
        return plans

    # -- event choices ---------------------------------------------------------------------------
    def _event_choice(self, game: Game, view: Game, player: int, legal: list[Action],
                      seed: int) -> Action | None:
        first = decide(view, player, self.weights)
        options = [first] + [a for a in legal if a != first]
        options = options[: self.level.k]
        if len(options) < 2:
            return first
        self.searches += 1
        scores = self._search(game, player, [(a,) for a in options], seed)
        return options[max(range(len(options)), key=lambda i: (scores[i], -i))]

    # -- the search ------------------------------------------------------------------------------
    def _search(self, game: Game, player: int, candidates: list[tuple[Action, ...]],
                seed: int, bias: list[float] | None = None) -> list[float]:
        """Each candidate's mean rollout value plus its ``bias``; -1 for one never scored."""
        bias = bias or [0.0] * len(candidates)
        if self.level.rounds and self.budget_ms is None:
            return self._halving(game, player, candidates, seed, bias)
        lv = self.level
        total = [0.0] * len(candidates)
        count = [0] * len(candidates)
        deadline = None if self.budget_ms is None else time.perf_counter() + self.budget_ms / 1000
        keeper = max((gn.keeper for gn in game.on_track()), default=0)
        stop = keeper - lv.horizon_for(len(game.gnomes))
        i = 0
        while True:
            if deadline is None:
                if i >= lv.n:
                    break
            elif i >= 2 and time.perf_counter() >= deadline:
                break
            twin = self._sample(game, player, seed, i)
            for c, steps in enumerate(candidates):
                v = self.rollout(twin.copy(keep_log=False), steps, player, stop, self.weights)
                if v is not None:
                    total[c] += v
                    count[c] += 1
            i += 1
        return [(total[c] / count[c] if count[c] else -1.0) + bias[c]
                for c in range(len(candidates))]

    def _halving(self, game: Game, player: int, candidates: list[tuple[Action, ...]],
                 seed: int, bias: list[float]) -> list[float]:
        """Sequential halving: every candidate still in meets the same new determinisations each
        round (common random numbers); after a round the worse half is dropped (at least two
        stay), so the budget goes to telling the close ones apart. A dropped candidate keeps the
        score it had, lowered below every candidate still in: the winner is always among the
        last round's."""
        lv = self.level
        keeper = max((gn.keeper for gn in game.on_track()), default=0)
        stop = keeper - lv.horizon_for(len(game.gnomes))
        total = [0.0] * len(candidates)
        count = [0] * len(candidates)
        alive = list(range(len(candidates)))
        out = [-1.0] * len(candidates)
        i = 0

        def score(c: int) -> float:
            return total[c] / count[c] + bias[c] if count[c] else -1.0

        for r, add in enumerate(lv.rounds):
            for _ in range(add):
                twin = self._sample(game, player, seed, i)
                for c in alive:
                    v = self.rollout(twin.copy(keep_log=False), candidates[c], player, stop,
                                self.weights)
                    if v is not None:
                        total[c] += v
                        count[c] += 1
                i += 1
            if r == len(lv.rounds) - 1 or len(alive) <= 2:
                continue
            ranked = sorted(alive, key=lambda c: (-score(c), c))
            keep = max(2, (len(ranked) + 1) // 2)
            for c in ranked[keep:]:
                out[c] = min(score(c), -1.0) - 1.0 - ranked.index(c)
            alive = sorted(ranked[:keep])
        for c in alive:
            out[c] = score(c)
        return out


GUARD_SOON = 0.15  # the chance a Missile Launch! token comes soon above which the search guards


def guarded(g: Game, player: int, w: Weights, k: int) -> list[Plan]:
    """The heuristic's ``k`` best plans and, while a Missile Launch! token is on the track or its
    card likely comes soon, the best plan ending in Missile Control and the best ending next to
    it, if not among them: the heuristic ranks the walk there below the jobs at hand, and a
    token that lands with nobody near is the search's largest loss (bench/results/bots.md)."""
    plans = best_plans(g, player, w)
    top = plans[:k]
    an = Analysis.of(g, player, g.active, w)
    token = g.data.tokens.index("missile_launch")
    if g.tokens[token] < 0 and an.token_soon[token] < GUARD_SOON:
        return top
    room = g.data.room_repairs[an.token_repair(token)].room
    near = {b for _h, b in g.data.exits[room]}
    for wanted in ({room}, near):
        best = next((p for p in plans if p.target in wanted), None)
        if best is not None and best not in top:
            top.append(best)
    return top


def varied(plans: list[Plan], k: int, per_task: int) -> list[Plan]:
    """The ``k`` best of ``plans`` (best first) with at most ``per_task`` of one task (room,
    action kind and object); if fewer tasks exist, the best of the rest fill up to ``k``."""
    out: list[Plan] = []
    rest: list[Plan] = []
    count: dict[tuple[int, str, int], int] = {}
    for p in plans:
        key = (p.target, p.action.kind, p.action.arg)
        n = count.get(key, 0)
        if n < per_task:
            count[key] = n + 1
            out.append(p)
            if len(out) >= k:
                return out
        else:
            rest.append(p)
    return out + rest[: k - len(out)]  # (k reached in the loop returned there)


def shaded(g: Game, plans: list[Plan], legal: list[Action], fewer: tuple[int, ...],
           most: int) -> list[Plan]:
    """The first ``most`` repair plans of ``plans`` again with ``fewer`` minutes less each, kept
    while the repair's chance stays at least :data:`WASTE_CHANCE` (new plans only, with their
    parent's value). The search, not the heuristic, weighs a quicker, riskier repair."""
    seen = {p.steps for p in plans}
    out: list[Plan] = []
    repairs = [p for p in plans if repair_chance(g, p) is not None][:most]
    for p in repairs:
        for less in fewer:
            if p.action.minutes - less < 1:
                continue
            q = with_minutes(p, p.action.minutes - less)
            if (repair_chance(g, q) or 0.0) < WASTE_CHANCE:
                continue
            if q.steps not in seen and q.steps[0] in legal:
                seen.add(q.steps)
                out.append(q)
    return out


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
            temperature: float = 0.0) -> float | None:
    """Play ``steps`` (None if one is not legal), then the heuristic until every keeper is at or
    below ``stop`` at the start of a turn (or the game ends); return :func:`evaluate`."""
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
    return evaluate(sim, player, w, leaf, power)


def coming_failure(an: Analysis) -> float:
    """For the tokens not on the track, the summed chance that one comes within the horizon and
    the crew, placed as it is now, fails to remove it: Missile Control burning, under high water
    or walled off by blocked hatches, no gnome with time near it. The next icons are passed by
    the gnome that moves next (the highest keeper), so the token lands about its card's distance
    beyond that keeper; a gnome whose keeper is further on has that much less time."""
    g = an.g
    crew = [g.gnomes[n] for n in an.crew()]
    if not crew:
        return 0.0
    back = max(gn.keeper for gn in crew)
    total = 0.0
    for t, soon in enumerate(an.token_soon):
        if soon <= 0.0:
            continue
        repair = an.token_repair(t)
        room = g.data.room_repairs[repair].room
        fail = 1.0
        for gn in crew:
            budget = gn.keeper - back + an.token_distance[t] - 1
            fail *= 1 - 0.85 * an.chance_for(gn.number, repair, room, budget)
        total += soon * fail
    return total


# The terms of :func:`evaluate`'s product, in the order it multiplies them (a fitted leaf weighs
# the log of each term's factors: :func:`leaf_features`)
LEAF_TERMS = ("track_soon", "track_level", "token_on", "token_coming", "events", "fires",
              "blocked", "water", "dead", "items")


def evaluate(g: Game, player: int, w: Weights = DEFAULT_WEIGHTS,
             leaf: tuple[float, ...] = (), power: float = 1.0) -> float:
    """An estimate of the crew's chance to win from ``g`` (1 won, 0 lost), from public facts:
    the product of :func:`leaf_factors` (raised to ``power``), or with ``leaf`` (an intercept,
    then a coefficient per term of :data:`LEAF_TERMS`) the logistic of its weighted
    :func:`leaf_features`."""
    if g.result is not None:
        mine = [gn for gn in g.gnomes if gn.player == player]
        abandoned = bool(mine) and all(gn.abandoned for gn in mine)
        return 1.0 if g.result.won != abandoned else 0.0
    factors = leaf_factors(g, player, w)
    if leaf:
        z = leaf[0] + sum(c * x for c, x in zip(leaf[1:], leaf_features(factors), strict=True))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
    v = 1.0
    for _term, f in factors:
        v *= f
    return v if power == 1.0 else v**power


def leaf_features(factors: list[tuple[int, float]]) -> list[float]:
    """Per term of :data:`LEAF_TERMS`, the summed log of its factors (0 for none)."""
    out = [0.0] * len(LEAF_TERMS)
    for term, f in factors:
        out[term] += math.log(max(f, 1e-9))
    return out


def leaf_factors(g: Game, player: int, w: Weights = DEFAULT_WEIGHTS) -> list[tuple[int, float]]:
    """The factors of :func:`evaluate`'s estimate for a game not over, each with its term (an
    index into :data:`LEAF_TERMS`): the tracks against the coming events, the tokens on the
    track against the gnomes' time, the tokens likely next, fires, blocked hatches, water, the
    dead and the items in hand."""
    me = g.active if g.active >= 0 else 0
    an = Analysis.of(g, player, me, w)
    data = g.data
    out: list[tuple[int, float]] = []
    length = data.track_length
    crew = an.crew()
    horizon = min(an.events_left, 3.0 * max(1, len(crew)) + 2)
    for t, lvl in enumerate(g.tracks):
        lam = an.rates[t] * horizon
        out.append((0, 1 - poisson_tail(lam, length - lvl)))
        future = an.rates[t] * an.events_left
        out.append((1, 1 - 0.03 * max(0, lvl - 1) * min(1.0, future / 4)))
    for t, space in enumerate(g.tokens):
        if space < 0:
            continue
        repair = an.token_repair(t)
        room = data.room_repairs[repair].room
        fail = 1.0
        for gn in g.gnomes:
            if gn.alive and not gn.abandoned and gn.keeper >= space:
                fail *= 1 - 0.85 * an.chance_for(gn.number, repair, room, gn.keeper - space)
        out.append((2, 1 - fail))
    out.append((3, 1 - w.token_prepare * coming_failure(an)))
    out.append((4, 0.985 ** an.events_left))
    fires = sum(g.fire[r] for r in data.rooms)
    key_fires = sum(1 for r in an.key_weight if r > 0 and g.fire[r])
    out.append((5, max(0.0, 1 - 0.02 * fires - 0.03 * key_fires)))
    out.append((6, max(0.0, 1 - 0.006 * sum(g.blocked))))
    low = sum(1 for r in data.rooms if g.water[r] == 1)
    high = sum(1 for r in data.rooms if g.water[r] == 2)
    out.append((7, max(0.0, 1 - 0.006 * low - 0.02 * high)))
    dead = sum(1 for gn in g.gnomes if not gn.alive)
    out.append((8, 0.8 ** dead))
    items = sum(len(gn.hand) for gn in g.gnomes if gn.alive)
    out.append((9, 1 + 0.004 * min(items, 6 * max(1, len(crew)))))
    return out


__all__ = ["LEAF_TERMS", "LEVELS", "Follower", "Plan", "SearchBot", "SearchLevel", "coming_failure",
           "evaluate", "leaf_factors", "leaf_features", "play_steps", "rollout"]
