"""The search bot: Monte Carlo search over determinised futures, with the heuristic as rollout.

At a real choice point — the start of its turn (which action, where, with how many minutes and
which items: a whole turn plan) and event choices (where fire spreads, which hatch to block, what
to keep or discard) — it

1. asks the heuristic for its ``k`` best candidates (plans, or legal actions for event choices);
   long-shot repairs that keep a helping item in the hand are not candidates
   (:func:`rednovember.bots.plans.wasteful`); if the heuristic's best is far ahead of the
   rest (``gap``), it simply takes it; in Hardest the default also takes the best plans ending
   in and next to Missile Control while a Missile Launch! token likely comes (:func:`guarded`);
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
4. scores the end position with :func:`rednovember.bots.leaf.evaluate` (a win is 1, a loss 0,
   otherwise an estimate of the chance to win from the tracks, tokens against the gnomes' time,
   fires, water, the crew), adds ``prior`` times the heuristic's own value gap to its best plan (in
   lost games: with a few determinisations the rollouts are noisy, and a plan the heuristic rates
   far lower must beat it clearly) and takes the candidate with the best score. With five or
   eight gnomes the default and ``search:strong`` score it instead with a leaf learned from
   games of the rollouts' crew of that size (:func:`rednovember.bots.value.valued`,
   ``SearchLevel.crew_value``; issue 21, stops 57-58).

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
   against ``search``'s 139. From six gnomes on it searches with ``search``'s 12 plans and
   rounds (``SearchLevel.crew_budget``, stop 62): wider, it took 2.05 s once at 8 players and won
   no more (41 of 100 deals against 47).
.. [#quiet] Stop 30 of issue 21: compiled, on a quiet core, 20 fresh 4-player deals (600-619); the
   worst of all their decisions 43, 103 and 163 ms.
.. [*] 10 minutes up to 5 gnomes, fewer with more (``crew_minutes``: 8 at 6, 7 at 7, 6 at 8),
   so an 8-player decision costs about what a 4-player one does.


Searched decisions are about a quarter of a game's decisions; the rest take the heuristic's ~1 ms.
The budget is in iterations, so a bot's choices depend only on its seed and the game, never on the
clock. ``SearchBot(budget_ms=...)`` (``search:ms=500`` in :func:`rednovember.bots.base.make_bot`)
instead adds determinisations round by round until the time is up: stronger on a fast machine, but
not reproducible.

The levels and the history of those kept for the benchmark are in :mod:`rednovember.bots.levels`,
the rollouts in :mod:`rednovember.bots.rollout`, the leaf (:func:`evaluate`) in
:mod:`rednovember.bots.leaf`.
"""

from __future__ import annotations

import time
from dataclasses import replace
from functools import partial

from ..rules import Action, Game
from ..rules.state import DECIDE, MOVE, OPENED
from .facts import SEED_MASK, decision_seed, public_twin
from .heuristic import best_plans, decide, safe_action
from .levels import LEVELS, SearchLevel
from .planning import DEFAULT_WEIGHTS, Analysis, Plan, Weights
from .plans import WASTE_CHANCE, repair_chance, with_minutes
from .rollout import Rollout, rollout
from .strata import stratify


def level_rollout(lv: SearchLevel, value: tuple[float, ...]) -> Rollout:
    """The rollout with ``lv``'s leaf options and the learned leaf ``value`` (empty: the plain
    product); the plain rollout itself when none of them changes anything."""
    if lv.leaf or lv.leaf_power != 1.0 or lv.rollout_temperature > 0.0 or value:
        return partial(rollout, leaf=lv.leaf, power=lv.leaf_power,
                       temperature=lv.rollout_temperature, value=value)
    return rollout


class SearchBot:
    """Monte Carlo search over determinised futures (see the module docstring)."""

    def __init__(self, seed: int = 0, level: str = "default", weights: Weights = DEFAULT_WEIGHTS,
                 budget_ms: float | None = None, iterations: int | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown search level {level!r}; known: {', '.join(LEVELS)}")
        base = LEVELS[level]
        self.level = base if iterations is None else replace(base, n=iterations, rounds=(),
                                                             crew_budget=None)
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
        self._rollout: Rollout = level_rollout(self.level, self.level.value)
        # a crew size with a learned leaf of its own rolls out with it (SearchLevel.crew_value)
        self._sized: dict[int, Rollout] = {
            n: level_rollout(self.level, self.level.value_for(n)) for n, _ in self.level.crew_value}

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

    @property
    def rollout(self) -> Rollout:
        """The rollout of the crew sizes without a learned leaf of their own."""
        return self._rollout

    @rollout.setter
    def rollout(self, fn: Rollout) -> None:
        """Roll out with ``fn`` at every crew size (the tests put their fakes here)."""
        self._rollout = fn
        self._sized = {}

    def _rollout_for(self, game: Game) -> Rollout:
        """The rollout for ``game``'s crew size: its own learned leaf's, else :attr:`rollout`."""
        return self._sized.get(len(game.gnomes), self._rollout)

    def _weights_for(self, game: Game) -> Weights:
        """The bot's weights, with the coming tokens weighed only in the level's variants."""
        if played(game, self.level.token_variants):
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
        lv = self.level.for_crew(len(game.gnomes))
        if lv.per_task:
            plans = varied(best_plans(view, player, self.weights), lv.k, lv.per_task)
        elif not played(game, lv.guard):
            plans = best_plans(view, player, self.weights, limit=lv.k)
        else:
            plans = guarded(view, player, self.weights, lv.k)
        plans = [p for p in plans if p.steps and p.steps[0] in legal]
        if lv.fewer:
            plans += shaded(view, plans, legal, lv.fewer, lv.shade_plans)
        return plans

    # -- event choices ---------------------------------------------------------------------------
    def _event_choice(self, game: Game, view: Game, player: int, legal: list[Action],
                      seed: int) -> Action | None:
        first = decide(view, player, self.weights)
        options = [first] + [a for a in legal if a != first]
        options = options[: self.level.for_crew(len(game.gnomes)).k]
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
        lv = self.level.for_crew(len(game.gnomes))
        if lv.rounds and self.budget_ms is None:
            return self._halving(lv, game, player, candidates, seed, bias)
        total = [0.0] * len(candidates)
        count = [0] * len(candidates)
        deadline = None if self.budget_ms is None else time.perf_counter() + self.budget_ms / 1000
        keeper = max((gn.keeper for gn in game.on_track()), default=0)
        stop = keeper - lv.horizon_for(len(game.gnomes))
        roll = self._rollout_for(game)
        i = 0
        while True:
            if deadline is None:
                if i >= lv.n:
                    break
            elif i >= 2 and time.perf_counter() >= deadline:
                break
            twin = self._sample(game, player, seed, i)
            for c, steps in enumerate(candidates):
                v = roll(twin.copy(keep_log=False), steps, player, stop, self.weights)
                if v is not None:
                    total[c] += v
                    count[c] += 1
            i += 1
        return [(total[c] / count[c] if count[c] else -1.0) + bias[c]
                for c in range(len(candidates))]

    def _halving(self, lv: SearchLevel, game: Game, player: int,
                 candidates: list[tuple[Action, ...]], seed: int,
                 bias: list[float]) -> list[float]:
        """Sequential halving: every candidate still in meets the same new determinisations each
        round (common random numbers); after a round the worse half is dropped (at least two
        stay), so the budget goes to telling the close ones apart. A dropped candidate keeps the
        score it had, lowered below every candidate still in: the winner is always among the
        last round's. ``lv`` is the level as it searches with this game's crew."""
        keeper = max((gn.keeper for gn in game.on_track()), default=0)
        stop = keeper - lv.horizon_for(len(game.gnomes))
        roll = self._rollout_for(game)
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
                    v = roll(twin.copy(keep_log=False), candidates[c], player, stop,
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


def played(game: Game, variants: frozenset[str] | None) -> bool:
    """Whether one of ``variants`` is played in ``game`` (None: every game)."""
    return variants is None or any(game.config.has(v) for v in variants)


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
    while the repair's chance stays at least :data:`rednovember.bots.plans.WASTE_CHANCE` (new plans
    only, with their parent's value). The search, not the heuristic, weighs a quicker, riskier
    repair."""
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
