"""The win chance in ``rednovember report --winchance N``: for the first ``N`` games of every run,
the curve of :func:`rednovember.analysis.turning.analyse` (a spectator's view), summed up as

``winchance``, a key of the run's report (so ``simulation.json`` and ``--from`` keep it):
    ``games`` analysed, ``rollouts`` per point, ``start`` (the time track's start space),
    ``mean_by_minute`` (the mean chance at each minute 0..start over those games: a game's
    chance at minute ``m`` is its last point at or before ``m``; a game over by then counts as
    its outcome, 1 or 0, so the curve ends on the games' win rate) and ``swings`` (the biggest
    turning points over those games: ``game``, ``minute``, ``before``, ``after``, ``text``).

Game ``i`` is replayed exactly as the simulator played it (same seeds, same bots).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..bots import make_bot
from ..rules import Game, load_data, new_game
from .simulate import STEP_LIMIT, RunSpec, derive_seed
from .turning import analyse

SWINGS = 5


def replay_game(spec: RunSpec, index: int) -> Game:
    """Game ``index`` of the run, played again as :func:`simulate.play_game` played it."""
    g = new_game(spec.config(index), load_data(spec.data_dir))
    bots = [make_bot(name, derive_seed(spec.seed, index, "seat", p))
            for p, name in enumerate(spec.seat_bots(index))]
    steps = 0
    while g.result is None and steps <= STEP_LIMIT:
        g.apply(bots[g.player_to_move].choose(g))
        steps += 1
    return g


def spec_of(run: dict[str, Any], data_dir: str | None = None) -> RunSpec:
    return RunSpec(int(run["players"]), run.get("gnomes_per_player"),
                   frozenset(run.get("variants", ())), str(run["bot"]), int(run["seed"]), data_dir)


def run_winchance(run: dict[str, Any], games: int, rollouts: int,
                  data_dir: str | None = None) -> dict[str, Any]:
    """The ``winchance`` summary of one run (see the module docstring)."""
    spec = spec_of(run, data_dir)
    n = min(games, int(run["games"]))
    start = 0
    curves: list[list[tuple[int, float]]] = []
    swings: list[dict[str, Any]] = []
    for i in range(n):
        g = replay_game(spec, i)
        start = g.start_space
        a = analyse(g, None, rollouts=rollouts, seed=0)
        curves.append([(p.minute, p.estimate.chance) for p in a.points])
        swings += [{"game": i, "minute": t.minute, "before": round(t.before, 4),
                    "after": round(t.after, 4), "text": a.sentence(t)} for t in a.turning]
    mean = []
    for m in range(start + 1):
        values = []
        for curve in curves:
            now = [c for minute, c in curve if minute <= m]
            values.append(now[-1] if now else curve[0][1])
        mean.append(round(sum(values) / len(values), 4) if values else 0.0)
    swings.sort(key=lambda s: (-abs(s["after"] - s["before"]), s["game"], s["minute"]))
    return {"games": n, "rollouts": rollouts, "start": start, "mean_by_minute": mean,
            "swings": swings[:SWINGS]}


def add_winchance(runs: Sequence[dict[str, Any]], games: int, rollouts: int,
                  data_dir: str | None = None) -> None:
    """Add the ``winchance`` summary to every run (``games`` > 0)."""
    for run in runs:
        run["winchance"] = run_winchance(run, games, rollouts, data_dir)


def swing_rows(runs: Sequence[dict[str, Any]], name: Any) -> list[list[str]]:
    """Rows of the report's table of the biggest swings; ``name(run)`` labels a run."""
    rows = []
    for run in runs:
        wc = run.get("winchance")
        for s in (wc or {}).get("swings", []):
            rows.append([str(name(run)), str(run["players"]), str(s["game"]),
                         f"{100 * s['before']:.0f}% → {100 * s['after']:.0f}%", str(s["text"])])
    return rows


__all__ = ["add_winchance", "replay_game", "run_winchance", "spec_of", "swing_rows"]
