#!/usr/bin/env python
"""What the search prefers where the heuristic differs: its searched turns, recorded and compared.

The search (``bots/search.py``) plays the heuristic's best plans on many determinisations and
takes the one whose rollouts score best. This script keeps that evidence, so that a better
judge of a turn can be learned from the search's own play (issue 21):

* ``collect``: plays search games (every seat the same level, seeded as ``bench_bots.py`` seeds
  them) and writes one JSON line per searched turn: the seat's view (a save), the candidates'
  steps, each candidate's mean rollout value and how many rollouts it had, the step taken.
* ``report``: how often the heuristic's best plan (with the given weights) is the plan the
  search rated best, what choosing it costs by the search's own means (the regret, in win
  chance at the rollout's end), and where the two part: the plan kinds, the cards drawn, the
  minutes and items of a repair.
* ``tune``: a coordinate pass over the weights to lower that regret, fitted on two thirds of the
  deals and checked on the rest.

Usage (issue 21, stop 32; bench/results/bots.md)::

    .venv/bin/python bench/distill.py collect --first 90000 --games 90 --out turns.jsonl --jobs 2
    .venv/bin/python bench/distill.py report turns.jsonl
    .venv/bin/python bench/distill.py tune turns.jsonl
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections import Counter
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rednovember.bots.base import play_out  # noqa: E402
from rednovember.bots.facts import decision_seed, public_twin  # noqa: E402
from rednovember.bots.heuristic import best_plans  # noqa: E402
from rednovember.bots.planning import DEFAULT_WEIGHTS, HEURISTIC_WEIGHTS, Plan, Weights  # noqa: E402
from rednovember.bots.search import SearchBot  # noqa: E402
from rednovember.rules import Action, Config, Game, new_game  # noqa: E402
from rednovember.rules.serialize import from_json, to_json  # noqa: E402
from rednovember.rules.state import MOVE  # noqa: E402

Steps = tuple[Action, ...]


class Turn(NamedTuple):
    """One searched turn: the seat's view, its candidates and their rollout means."""

    deal: int
    view: Game
    player: int
    candidates: list[Steps]
    means: list[float]
    counts: list[int]

    def best(self) -> int:
        """The candidate the search rated best among those that had the most rollouts."""
        most = max(self.counts)
        return max((i for i, n in enumerate(self.counts) if n == most),
                   key=lambda i: (self.means[i], -i))


class Recorder:
    """A search bot that notes every searched turn (the bot is compiled: wrapped, not derived)."""

    def __init__(self, seed: int, level: str, out: list[dict[str, Any]]) -> None:
        self.bot = SearchBot(seed, level)
        self.name = self.bot.name
        self.out = out
        self.sums: dict[Steps, list[float]] = {}
        inner = self.bot.rollout

        def noted(sim: Game, steps: Steps, player: int, stop: int, w: Weights) -> float | None:
            v = inner(sim, steps, player, stop, w)
            if v is not None:
                s = self.sums.setdefault(steps, [0.0, 0.0])
                s[0] += v
                s[1] += 1
            return v

        self.bot.rollout = noted

    def choose(self, game: Game) -> Action:
        self.sums = {}
        searched, phase = self.bot.searches, game.phase
        action = self.bot.choose(game)
        if phase == MOVE and self.bot.searches > searched and self.sums:
            player = game.player_to_move
            seed = decision_seed(self.bot.seed, game)
            self.out.append({
                "view": to_json(public_twin(game, player, seed)), "player": player,
                "candidates": [[list(a) for a in steps] for steps in self.sums],
                "means": [s[0] / s[1] for s in self.sums.values()],
                "counts": [int(s[1]) for s in self.sums.values()], "taken": list(action)})
        return action


def start(deal: int, players: int) -> Game:
    """Deal ``deal`` at its start (the standard rules; bench/fit_leaf.py plays the same deals)."""
    return new_game(Config(players, None, frozenset(), deal))


def seat_seed(deal: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of deal ``deal``."""
    return deal * 16 + seat


def collect_parser(sub: Any, first: int, games: int) -> argparse.ArgumentParser:
    """The ``collect`` command and its options (bench/fit_leaf.py has one too)."""
    c: argparse.ArgumentParser = sub.add_parser("collect")
    c.add_argument("--first", type=int, default=first)
    c.add_argument("--games", type=int, default=games)
    c.add_argument("--players", type=int, default=4)
    c.add_argument("--level", default="default")
    c.add_argument("--jobs", type=int, default=2)
    c.add_argument("--out", type=Path, required=True)
    return c


def record(deal: int, players: int = 4, level: str = "default") -> list[dict[str, Any]]:
    """Play one deal with the search in every seat; its searched turns."""
    out: list[dict[str, Any]] = []
    g = start(deal, players)
    result = play_out(g, [Recorder(seat_seed(deal, p), level, out) for p in range(players)]).result
    for row in out:
        row["deal"], row["won"] = deal, bool(result and result.won)
    return out


def load(lines: Iterable[str]) -> list[Turn]:
    turns = []
    for line in lines:
        r = json.loads(line)
        turns.append(Turn(r["deal"], from_json(r["view"], verify=False), r["player"],
                          [tuple(Action(*a) for a in c) for c in r["candidates"]],
                          r["means"], r["counts"]))
    return turns


def regret(turn: Turn, plan: Plan | None) -> float:
    """What taking ``plan`` costs by the search's means (a plan it never tried: its worst)."""
    best = turn.means[turn.best()]
    if plan is None or plan.steps not in turn.candidates:
        return best - min(turn.means)
    return best - turn.means[turn.candidates.index(plan.steps)]


def score(turns: list[Turn], w: Weights) -> tuple[float, int]:
    """The heuristic's total regret over ``turns`` and how often it picks the search's best."""
    total, same = 0.0, 0
    for t in turns:
        top = best_plans(t.view, t.player, w, limit=1)
        plan = top[0] if top else None
        total += regret(t, plan)
        same += plan is not None and plan.steps == t.candidates[t.best()]
    return total, same


def _kind(plan: Plan, data: Any) -> str:
    """A plan's kind, with the cards of a draw or the minutes and items of a repair."""
    if plan.action.kind == "draw":
        return f"draw {plan.action.arg} in room {plan.target}"
    if plan.action.minutes:
        items = sorted(data.items[a.arg].id for a in plan.steps if a.kind == "play")
        return f"{plan.label} {plan.action.minutes} min {'+'.join(items) or 'no items'}"
    return plan.label


def parting(turns: list[Turn], w: Weights) -> Counter[tuple[str, str]]:
    """Turns where the heuristic's best is not the search's, by (heuristic's, search's) kind."""
    out: Counter[tuple[str, str]] = Counter()
    for t in turns:
        plans = {p.steps: p for p in best_plans(t.view, t.player, w, limit=len(t.candidates))}
        top = next(iter(plans.values()), None)
        chosen = plans.get(t.candidates[t.best()])
        if top is not None and chosen is not None and top is not chosen:
            out[(_kind(top, t.view.data), _kind(chosen, t.view.data))] += 1
    return out


def tune(train: list[Turn], start: Weights) -> Weights:
    """One coordinate pass (each weight times 0.7, then 1.4), kept when the regret falls."""
    best, low = start, score(train, start)[0]
    for f in dataclasses.fields(Weights):
        if f.name in ("loss", "token_prepare"):  # the scale, and the search's leaf only
            continue
        for factor in (0.7, 1.4):
            w = dataclasses.replace(best, **{f.name: getattr(best, f.name) * factor})
            r = score(train, w)[0]
            if r < low - 0.02:
                best, low = w, r
                print(f"{f.name} {getattr(w, f.name):.3g}: regret {r:.2f}", flush=True)
                break
    return best


def _line(name: str, turns: list[Turn], w: Weights) -> str:
    r, same = score(turns, w)
    return f"{name}: regret {r / len(turns):.4f} a turn, the search's best {same / len(turns):.1%}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    collect_parser(sub, 90000, 90)
    for name in ("report", "tune"):
        sub.add_parser(name).add_argument("turns", type=Path)
    args = ap.parse_args(argv)
    if args.cmd == "collect":
        deals = range(args.first, args.first + args.games)
        with ProcessPoolExecutor(max(1, args.jobs)) as pool, args.out.open("w") as f:
            for rows in pool.map(record, deals, [args.players] * len(deals),
                                 [args.level] * len(deals)):
                f.writelines(json.dumps(r) + "\n" for r in rows)
                f.flush()
        return 0
    turns = load(args.turns.read_text("utf-8").splitlines())
    if args.cmd == "report":
        print(f"{len(turns)} searched turns of {len({t.deal for t in turns})} deals")
        for name, w in (("DEFAULT_WEIGHTS", DEFAULT_WEIGHTS), ("HEURISTIC_WEIGHTS", HEURISTIC_WEIGHTS)):
            print(_line(name, turns, w))
        print("| the heuristic's best | the search's best | turns |\n|---|---|---|")
        for (h, s), n in parting(turns, DEFAULT_WEIGHTS).most_common(25):
            print(f"| {h} | {s} | {n} |")
        return 0
    held = {d for i, d in enumerate(sorted({t.deal for t in turns})) if i % 3 == 0}
    train = [t for t in turns if t.deal not in held]
    test = [t for t in turns if t.deal in held]
    fitted = tune(train, DEFAULT_WEIGHTS)
    for name, part in (("fitted on", train), ("held out", test)):
        print(f"{name} ({len(part)} turns):", _line("before", part, DEFAULT_WEIGHTS), "|",
              _line("after", part, fitted))
    print(fitted)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
