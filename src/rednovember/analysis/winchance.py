"""The crew's chance to win from a position, as one seat may see it: Monte Carlo rollouts.

:func:`win_chance` is the function the analysis, the replay viewers and the advisor use::

    est = win_chance(game, seat=0, rollouts=64, seed=1)
    est.chance, est.low, est.high, est.rollouts

How it works:

1. Rollout ``i`` starts from a determinisation of the position for ``seat``
   (:func:`rednovember.bots.planning.public_twin`: the deck orders and, in Mad Gnomes, the other
   seats' hands are first put in a canonical order and then re-sampled with
   :func:`rednovember.rules.determinize`, future dice included). Two positions that differ only in
   what ``seat`` cannot see give the same twins, so the estimate cannot depend on hidden cards.
   ``seat=None`` is a spectator: every hand in Mad Gnomes is re-sampled.
2. The heuristic crew (:class:`rednovember.bots.search.Follower`: plans each turn once and follows
   the plan) plays every seat to the end of the game; the rollout counts as a win when the crew
   wins.
3. The fraction of won rollouts is the *raw* estimate, with its 95% Wilson interval. Heuristic
   rollouts are a weaker crew than the search bot (the strongest bot), so the raw fraction is
   biased low; the *corrected* chance maps it through a logistic (Platt) correction fitted by
   ``bench/calibrate.py --fit`` on positions of search-bot games against how those games really
   ended (:data:`CORRECTION`; the same map is applied to the interval's ends). Why heuristic
   rollouts and not search ones: a heuristic rollout of a whole game costs ~20-30 ms, a search
   rollout ~2-5 s (see ``bench/calibrate.py --compare``), so the same time buys ~100x more
   rollouts, and the corrected heuristic estimate is at least as well calibrated.

Reproducible: rollout ``i`` depends only on ``(seed, i)``, so with ``budget_s=None`` the answer
depends only on the position, the seat, ``seed`` and ``rollouts``; and the first ``k`` rollouts
are the same whatever the count, so positions estimated with the same seed share their random
futures (common random numbers: the differences between positions are much less noisy than the
positions themselves). ``budget_s`` stops early on the clock (at least :data:`MIN_ROLLOUTS`): use
it where speed matters more than reproducibility. A finished game needs no rollout: 1.0 or 0.0.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..bots import make_bot
from ..bots.planning import DEFAULT_WEIGHTS, public_twin
from ..bots.search import Follower
from ..rules import Action, Game
from .simulate import derive_seed
from .stats import wilson

DEFAULT_ROLLOUTS = 64
MIN_ROLLOUTS = 8  # a time budget never stops before this many
MAX_ROLLOUTS = 100_000
STEP_LIMIT = 20_000  # a rollout that never ends counts as a loss (no game comes near this)
HEURISTIC = "heuristic"
NOBODY = -1  # the seat of a spectator: no gnome belongs to it

# The logistic correction ``chance = sigmoid(A + B * logit(raw))`` of heuristic rollouts, fitted by
# ``bench/calibrate.py --fit`` (see the module docstring); (0, 1) is the identity.
CORRECTION: tuple[float, float] = (0.0, 1.0)
EPS = 1e-4


@dataclass(frozen=True)
class WinChance:
    """An estimate of the crew's chance to win: ``chance`` in [0, 1] with its 95% interval
    ``[low, high]``; ``wins`` of ``rollouts`` rollouts were won (``raw`` = wins / rollouts, before
    the correction). A finished game has ``rollouts`` 0 and an exact 1.0 or 0.0."""

    chance: float
    low: float
    high: float
    wins: int
    rollouts: int
    raw: float
    policy: str = HEURISTIC

    def to_dict(self) -> dict[str, Any]:
        return {"chance": round(self.chance, 4), "low": round(self.low, 4),
                "high": round(self.high, 4), "wins": self.wins, "rollouts": self.rollouts,
                "raw": round(self.raw, 4), "policy": self.policy}


def _logit(p: float) -> float:
    p = min(1 - EPS, max(EPS, p))
    return math.log(p / (1 - p))


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


def correct(p: float, correction: tuple[float, float] = CORRECTION) -> float:
    """The corrected chance for a raw rollout win fraction ``p`` (monotone increasing)."""
    a, b = correction
    if (a, b) == (0.0, 1.0):
        return min(1.0, max(0.0, p))
    return _sigmoid(a + b * _logit(p))


def smoothed(wins: int, n: int) -> float:
    """The raw fraction pulled slightly to 1/2 (so 0 of n and n of n stay finite in logits)."""
    return (wins + 0.5) / (n + 1)


def estimate(wins: int, n: int, policy: str = HEURISTIC,
             correction: tuple[float, float] | None = None) -> WinChance:
    """The estimate from ``wins`` won rollouts out of ``n`` (heuristic rollouts are corrected)."""
    if n <= 0:
        raise ValueError("an estimate needs at least one rollout")
    lo, hi = wilson(wins, n)
    raw = wins / n
    if policy != HEURISTIC:
        return WinChance(raw, lo, hi, wins, n, raw, policy)
    c = CORRECTION if correction is None else correction
    chance = correct(smoothed(wins, n), c)
    low = min(chance, correct(lo, c))
    high = max(chance, correct(hi, c))
    return WinChance(chance, low, high, wins, n, raw, policy)


def finished(game: Game) -> WinChance | None:
    """The exact answer for a finished game (None while it goes on)."""
    if game.result is None:
        return None
    v = 1.0 if game.result.won else 0.0
    return WinChance(v, v, v, int(v), 0, v)


def rollout(game: Game, seat: int | None, seed: int, policy: str = HEURISTIC) -> bool:
    """One rollout: a determinisation for ``seat`` played to the end; whether the crew won."""
    sim = public_twin(game, NOBODY if seat is None else seat, seed)
    if policy == HEURISTIC:
        follower = Follower(DEFAULT_WEIGHTS)
        act: Callable[[Game], Action] = follower.act
    else:
        bots = [make_bot(policy, derive_seed(seed, "bot", p)) for p in range(sim.config.players)]

        def act(g: Game) -> Action:
            return bots[g.player_to_move].choose(g)
    n = 0
    while sim.result is None and n < STEP_LIMIT:
        sim.apply(act(sim))
        n += 1
    return sim.result is not None and sim.result.won


def win_chance(game: Game, seat: int | None = None, *, rollouts: int = DEFAULT_ROLLOUTS,
               seed: int = 0, budget_s: float | None = None, policy: str = HEURISTIC,
               correction: tuple[float, float] | None = None,
               clock: Callable[[], float] = time.perf_counter) -> WinChance:
    """The crew's chance to win from ``game`` as seat ``seat`` (None: a spectator) may see it.

    ``rollouts`` is the number of rollouts (the most, with ``budget_s``); ``seed`` makes it
    reproducible; ``budget_s`` (seconds) stops earlier on the clock, after at least
    :data:`MIN_ROLLOUTS`. ``policy`` is the rollout crew: ``heuristic`` (corrected; the default)
    or any bot name of :func:`rednovember.bots.make_bot` (uncorrected). ``game`` is not changed.
    """
    if not 1 <= rollouts <= MAX_ROLLOUTS:
        raise ValueError(f"rollouts must be 1..{MAX_ROLLOUTS}, not {rollouts}")
    if seat is not None and not 0 <= seat < game.config.players:
        raise ValueError(f"seat must be 0..{game.config.players - 1} or None, not {seat}")
    done = finished(game)
    if done is not None:
        return done
    deadline = None if budget_s is None else clock() + budget_s
    wins = n = 0
    while n < rollouts:
        if deadline is not None and n >= MIN_ROLLOUTS and clock() >= deadline:
            break
        wins += rollout(game, seat, derive_seed(seed, "rollout", n), policy)
        n += 1
    return estimate(wins, n, policy, correction)


__all__ = ["CORRECTION", "DEFAULT_ROLLOUTS", "HEURISTIC", "WinChance", "correct", "estimate",
           "finished", "rollout", "smoothed", "win_chance"]
