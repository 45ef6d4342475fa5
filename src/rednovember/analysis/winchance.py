"""The crew's chance to win from a position, as one seat may see it: Monte Carlo rollouts.

:func:`win_chance` is the function the analysis, the replay viewers and the advisor use::

    est = win_chance(game, seat=0, rollouts=64, seed=1)
    est.chance, est.low, est.high, est.rollouts

How it works:

1. Rollout ``i`` starts from a determinisation of the position for ``seat``
   (:func:`rednovember.bots.facts.public_twin`: the deck orders and, in Mad Gnomes, the other
   seats' hands are first put in a canonical order and then re-sampled with
   :func:`rednovember.rules.determinize`, future dice included). Two positions that differ only in
   what ``seat`` cannot see give the same twins, so the estimate cannot depend on hidden cards.
   ``seat=None`` is a spectator: every hand in Mad Gnomes is re-sampled.
2. The heuristic crew (:class:`rednovember.bots.rollout.Follower`: plans each turn once and follows
   the plan) plays every seat to the end of the game; the rollout counts as a win when the crew
   wins.
3. The fraction of won rollouts is the *raw* estimate, with its 95% Wilson interval. Heuristic
   rollouts are a weaker crew than the search bot, so the raw fraction is
   biased low; the *corrected* chance maps it through a monotone correction fitted by
   ``bench/calibrate.py --fit`` on positions of search-bot games against how those games really
   ended (Platt scaling, as the knots of :data:`CORRECTION`; the same map is applied to the
   interval's ends, so the interval is the rollouts' noise, not the correction's). Measured, the
   bias is small: at four players the raw fraction is already close to calibrated and the
   correction mostly lifts the middle a little (0.5 -> 0.56) and keeps the ends off 0 and 1.
   Why heuristic rollouts and not search ones: a heuristic rollout of a whole game costs
   ~10-30 ms of CPU, a search rollout ~100x more (``bench/calibrate.py --compare``), so the same
   time buys ~100x more rollouts; with the few search rollouts a time budget allows, the
   estimate is far noisier (see the report's figures).

Reproducible: rollout ``i`` depends only on ``(seed, i)``, so with ``budget_s=None`` the answer
depends only on the position, the seat, ``seed`` and ``rollouts``; and the first ``k`` rollouts
are the same whatever the count, so positions estimated with the same seed share their random
futures (common random numbers: the differences between positions are much less noisy than the
positions themselves). ``budget_s`` stops early on the clock (at least :data:`MIN_ROLLOUTS`): use
it where speed matters more than reproducibility. ``adaptive`` stops early on the rollouts
themselves, reproducibly: once the estimate is as precise as ``rollouts`` rollouts would make it
at an even chance (a nearly decided position needs far fewer). A finished game needs no rollout:
1.0 or 0.0.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ..bots import make_bot
from ..bots.facts import public_twin
from ..bots.planning import DEFAULT_WEIGHTS
from ..bots.rollout import Follower
from ..rules import Action, Game
from .simulate import derive_seed
from .stats import wilson

DEFAULT_ROLLOUTS = 64
MIN_ROLLOUTS = 8  # a time budget or an adaptive estimate never stops before this many
BATCH = 8  # an adaptive estimate looks whether it is precise enough every this many rollouts
MAX_ROLLOUTS = 100_000
STEP_LIMIT = 20_000  # a rollout that never ends counts as a loss (no game comes near this)
HEURISTIC = "heuristic"
NOBODY = -1  # the seat of a spectator: no gnome belongs to it

# The correction of heuristic rollouts: a monotone piecewise-linear map from the raw rollout win
# fraction to the chance, as knots ``(raw, chance)`` (raw ascending, chance non-decreasing);
# ((0, 0), (1, 1)) would be the identity. Fitted by ``bench/calibrate.py --fit`` on 255 positions
# of 70 four-player search-bot games (seed 1, 64 rollouts each): Platt scaling
# sigmoid(0.2342 + 0.8720 * logit(raw)), which did better than isotonic regression on the
# positions of other games (seed 2): Brier 0.1676 against 0.1790 (raw 0.1686, base rate 0.2403).
# Checked again on 40 games of the search of issue 10 (seed 5, crew won 0.556): Brier 0.155
# against a base rate of 0.247 (bench/results/calibrate.md).
CORRECTION: tuple[tuple[float, float], ...] = (
    (0.0, 0.0179), (0.05, 0.0985), (0.1, 0.1647), (0.15, 0.2241), (0.2, 0.2789), (0.25, 0.3305),
    (0.3, 0.3794), (0.35, 0.4264), (0.4, 0.4716), (0.45, 0.5155), (0.5, 0.5583), (0.55, 0.6003),
    (0.6, 0.6416), (0.65, 0.6825), (0.7, 0.7232), (0.75, 0.764), (0.8, 0.8051), (0.85, 0.8469),
    (0.9, 0.8901), (0.95, 0.936), (1.0, 0.9887))


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


def correct(p: float, knots: Sequence[tuple[float, float]] = CORRECTION) -> float:
    """The corrected chance for a raw rollout win fraction ``p``: linear between the knots,
    flat beyond the first and the last (monotone non-decreasing)."""
    p = min(1.0, max(0.0, p))
    if p <= knots[0][0]:
        return knots[0][1]
    for (x0, y0), (x1, y1) in zip(knots, knots[1:], strict=False):
        if p <= x1:
            return y0 if x1 == x0 else y0 + (y1 - y0) * (p - x0) / (x1 - x0)
    return knots[-1][1]


def estimate(wins: int, n: int, policy: str = HEURISTIC,
             correction: Sequence[tuple[float, float]] | None = None) -> WinChance:
    """The estimate from ``wins`` won rollouts out of ``n`` (heuristic rollouts are corrected)."""
    if n <= 0:
        raise ValueError("an estimate needs at least one rollout")
    lo, hi = wilson(wins, n)
    raw = wins / n
    if policy != HEURISTIC:
        return WinChance(raw, lo, hi, wins, n, raw, policy)
    c = CORRECTION if correction is None else correction
    chance = correct(raw, c)
    low = min(chance, correct(lo, c))
    high = max(chance, correct(hi, c))
    return WinChance(chance, low, high, wins, n, raw, policy)


def finished(game: Game) -> WinChance | None:
    """The exact answer for a finished game (None while it goes on)."""
    if game.result is None:
        return None
    v = 1.0 if game.result.won else 0.0
    return WinChance(v, v, v, int(v), 0, v)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector, for a long run of rollouts. A rollout makes no
    reference cycles (tested), so the collector's passes find nothing, yet walking the bots'
    caches cost a tenth of the time. Reference counting frees everything as usual; the
    collector's previous state comes back at the end."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


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
    return finish(sim, act)


def finish(sim: Game, act: Callable[[Game], Action]) -> bool:
    """Play ``sim`` to its end (at most :data:`STEP_LIMIT` steps) with ``act``; whether the crew
    won."""
    n = 0
    while sim.result is None and n < STEP_LIMIT:
        sim.apply(act(sim))
        n += 1
    return sim.result is not None and sim.result.won


def win_chance(game: Game, seat: int | None = None, *, rollouts: int = DEFAULT_ROLLOUTS,
               seed: int = 0, budget_s: float | None = None, policy: str = HEURISTIC,
               correction: Sequence[tuple[float, float]] | None = None,
               clock: Callable[[], float] = time.perf_counter,
               adaptive: bool = False) -> WinChance:
    """The crew's chance to win from ``game`` as seat ``seat`` (None: a spectator) may see it.

    ``rollouts`` is the number of rollouts (the most, with ``budget_s``); ``seed`` makes it
    reproducible; ``budget_s`` (seconds) stops earlier on the clock, after at least
    :data:`MIN_ROLLOUTS`; ``adaptive`` stops as soon as :func:`precise_enough` (``rollouts`` is
    then the most). ``policy`` is the rollout crew: ``heuristic`` (corrected; the default)
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
        if adaptive and n >= MIN_ROLLOUTS and n % BATCH == 0 and precise_enough(wins, n, rollouts):
            break
        wins += rollout(game, seat, derive_seed(seed, "rollout", n), policy)
        n += 1
    return estimate(wins, n, policy, correction)


def precise_enough(wins: int, n: int, rollouts: int) -> bool:
    """Whether ``wins`` of ``n`` rollouts estimate the chance at least as precisely as
    ``rollouts`` rollouts would at an even chance: the variance of the fraction (smoothed, so
    that a few rollouts all won or all lost never look certain) at most ``0.25 / rollouts``.
    A position at 50% takes all ``rollouts``; one at 10% about a third of them; one all but
    decided :data:`MIN_ROLLOUTS` to a few batches."""
    q = (wins + 0.5) / (n + 1)
    return q * (1 - q) * rollouts <= 0.25 * n


__all__ = ["CORRECTION", "DEFAULT_ROLLOUTS", "HEURISTIC", "WinChance", "correct", "estimate", "finish",
           "finished", "precise_enough", "rollout", "win_chance"]
