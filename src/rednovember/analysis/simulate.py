"""``rednovember simulate``: play many complete games with bots and report statistics.

Every game is reproducible on its own: game ``i`` of a run with seed ``S`` uses the game seed
``derive_seed(S, i, "game")`` and, for seat ``p``, a bot seeded with ``derive_seed(S, i, "seat", p)``.
Games are played by a process pool over the game indices, or by the workers of a Dask cluster
(``--cluster ADDRESS``: :mod:`.cluster`, docs/cluster.md), and the results are added up in index
order, so the same arguments give byte-identical output whatever ``--jobs`` is and wherever the
games ran; the report holds no wall-clock value. With several player counts (``--players 3-5``,
``--players 1,4``, ``--players all``) each count is its own run of ``--games`` games with the same
seed (game ``i`` of every count uses the same game seed: common random numbers, which makes the
counts' comparison sharper).

``--bot`` names any registered bot (``random``, ``heuristic``, ``search``, ``search:fast`` ...) or
``mix``: every seat of every game gets a bot drawn from the *mix pool* — the registered bots other
than ``random`` and the budget variants whose names hold a colon — with seat ``p`` of game ``i``
taking ``pool[derive_seed(S, i, "mix", p) % len(pool)]`` (pool sorted by name), so a mixed run is
as reproducible as any other.

Figures in the report (JSON keys):

``games``, ``wins``, ``win_rate``
    games played, games the crew won (all survivors rescued), wins / games.
``win_rate_ci``
    the 95% Wilson score interval of the win rate, ``[low, high]`` (see ``stats.wilson``).
``losses``
    cause -> count: each disaster track (a marker reached its end), each destruction token (every
    keeper passed it, or it was left on 0) and ``all_dead``; every cause is listed, zeros included.
``mean_turns``
    turns begun per game (``Game.turn``).
``mean_steps``
    actions applied per game (every decision of every player counts as one step).
``mean_minutes``
    minutes survived: minutes of the time track used per game, the start space minus the lowest
    keeper space any gnome reached (keepers only move towards 0, so it is the final lowest keeper).
    A won game used all of them (60 with 3 to 5 gnomes). ``mean_minutes_lost``: the same over the
    lost games only (0 when none was lost).
``deaths``
    cause -> count of gnome deaths, from the ``death`` log entries (with Less Deadly Death a death is
    followed by a replacement gnome but still counts); ``mean_deaths`` per game.
``abandoned``
    gnomes that abandoned their comrades, in all games.
``events``, ``items``, ``last_turns``
    per event kind / item kind, how often it mattered (definitions: ``stats`` module docstring).
``tracks_by_minute``
    ``start`` (the start space), ``running`` (games still going at each minute 0..) and, per
    disaster track, its mean level at each minute over those games.
``mix_pool``
    with ``--bot mix`` only: the bots seats were drawn from.

With one player count the JSON output (``--json``) is that report; with several it is
``{"runs": [report, ...]}`` in player-count order.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from ..bots import BOTS, make_bot
from ..rules import VARIANTS, Config, ConfigError, load_data, new_game
from .cluster import DEFAULT_TIMEOUT, ClusterError, connect, run_tasks
from .labels import death_name, event_name, item_name, loss_name
from .stats import LAST_TURNS, GameStats, Totals, game_stats, wilson

if TYPE_CHECKING:
    from distributed import Client

# The ways a gnome dies (the ``death`` log entry's cause), listed even when they never happen.
DEATH_CAUSES = ("air", "attacked", "fainted_in_sea", "fire", "flood", "trapped")
STEP_LIMIT = 100_000  # no game comes near this; a game that does is an engine bug
MAX_GAMES = 10_000_000
MIX = "mix"
FAST_BOTS = frozenset({"random"})  # bots whose games are sent to the workers in chunks


class SimulateError(ValueError):
    """Arguments the simulator cannot run with (reported with exit code 2)."""


def derive_seed(seed: int, *parts: int | str) -> int:
    """A 63-bit seed derived deterministically from ``seed`` and ``parts`` (stable everywhere)."""
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


def mix_pool() -> list[str]:
    """The bots ``--bot mix`` draws seats from: registered, not ``random``, no budget variant."""
    return sorted(name for name in BOTS if name != "random" and ":" not in name)


@dataclass(frozen=True)
class RunSpec:
    """What every game of a run shares (picklable: sent to the worker processes)."""

    players: int
    gnomes_per_player: int | None
    variants: frozenset[str]
    bot: str
    seed: int
    data_dir: str | None = None  # None: the built-in data set

    def config(self, index: int) -> Config:
        return Config(self.players, self.gnomes_per_player, self.variants,
                      derive_seed(self.seed, index, "game"))

    def seat_bots(self, index: int) -> list[str]:
        """The bot name of each seat in game ``index`` (``mix`` drawn per seat, see above)."""
        if self.bot != MIX:
            return [self.bot] * self.players
        pool = mix_pool()
        if not pool:
            raise SimulateError("--bot mix needs a registered bot other than random")
        return [pool[derive_seed(self.seed, index, MIX, p) % len(pool)]
                for p in range(self.players)]


class GameRecord(NamedTuple):
    """The outcome of one game, as the report needs it."""

    game: int  # its index in the run
    seed: int
    won: bool
    cause: str  # "rescued" or the loss cause
    turns: int
    steps: int
    minutes: int
    deaths: tuple[str, ...]
    abandoned: int
    stats: GameStats | None = None  # what the log says about events, items, tracks


def play_game(spec: RunSpec, index: int) -> GameRecord:
    """Play game ``index`` of the run to its end (the pool's worker; module level, picklable)."""
    config = spec.config(index)
    data = load_data(spec.data_dir)
    g = new_game(config, data)
    bots = [make_bot(name, derive_seed(spec.seed, index, "seat", p))
            for p, name in enumerate(spec.seat_bots(index))]
    steps = 0
    while g.result is None:
        g.apply(bots[g.player_to_move].choose(g))
        steps += 1
        if steps > STEP_LIMIT:
            raise RuntimeError(f"game {index} (seed {config.seed}) did not end in {STEP_LIMIT} "
                               "steps")
    start = g.start_space
    return GameRecord(
        game=index, seed=config.seed, won=g.result.won, cause=g.result.cause, turns=g.turn,
        steps=steps, minutes=start - min(gn.keeper for gn in g.gnomes),
        deaths=tuple(str(e[2]) for e in g.log if e[0] == "death"),
        abandoned=sum(gn.abandoned for gn in g.gnomes), stats=game_stats(g))


def play_task(task: tuple[RunSpec, int]) -> GameRecord:
    """One task of a run (a worker plays it): game ``index`` of ``spec``, as plain values."""
    return play_game(*task)


def _workers(jobs: int) -> int:
    return (os.cpu_count() or 1) if jobs == 0 else max(1, jobs)


def play_many(specs: Sequence[RunSpec], games: int, jobs: int = 1,
              progress: Callable[[int], None] | None = None,
              client: Client | None = None) -> Iterator[GameRecord]:
    """The records of games 0..games-1 of every spec, spec after spec, each in index order
    (``jobs`` worker processes, 0 for one per core, or the Dask cluster of ``client``;
    ``progress`` is called with the number of games just ended)."""
    tasks = [(spec, i) for spec in specs for i in range(games)]
    fast = all(spec.bot in FAST_BOTS for spec in specs)
    return run_tasks(play_task, tasks, jobs=_workers(jobs), client=client, fast=fast,
                     progress=progress)


def play_games(spec: RunSpec, games: int, jobs: int = 1) -> Iterator[GameRecord]:
    """The records of games 0..games-1, in index order (``jobs`` worker processes)."""
    return play_many([spec], games, jobs)


def loss_causes(data_dir: str | None = None) -> list[str]:
    data = load_data(data_dir)
    return [*data.tracks, *data.tokens, "all_dead"]


def summarize(spec: RunSpec, records: Iterable[GameRecord]) -> dict[str, Any]:
    """The report (a JSON-ready dict, keys in a fixed order) of records given in index order."""
    data = load_data(spec.data_dir)
    config = Config(spec.players, spec.gnomes_per_player)
    start = data.start_spaces[config.gnomes]
    totals = Totals(data, start)
    losses = dict.fromkeys(loss_causes(spec.data_dir), 0)
    deaths = dict.fromkeys(DEATH_CAUSES, 0)
    games = wins = turns = steps = minutes = lost_minutes = abandoned = max_steps = 0
    for r in records:
        games += 1
        if r.won:
            wins += 1
        else:
            losses[r.cause] = losses.get(r.cause, 0) + 1
            lost_minutes += r.minutes
        turns += r.turns
        steps += r.steps
        minutes += r.minutes
        abandoned += r.abandoned
        max_steps = max(max_steps, r.steps)
        for cause in r.deaths:
            deaths[cause] = deaths.get(cause, 0) + 1
        if r.stats is not None:
            totals.add(r.stats, r.won)
    n = max(games, 1)
    low, high = wilson(wins, games)
    report: dict[str, Any] = {
        "games": games,
        "wins": wins,
        "win_rate": round(wins / n, 6),
        "win_rate_ci": [round(low, 6), round(high, 6)],
        "losses": losses,
        "mean_turns": round(turns / n, 4),
        "mean_steps": round(steps / n, 4),
        "max_steps": max_steps,
        "mean_minutes": round(minutes / n, 4),
        "mean_minutes_lost": round(lost_minutes / max(games - wins, 1), 4),
        "deaths": deaths,
        "mean_deaths": round(sum(deaths.values()) / n, 4),
        "abandoned": abandoned,
        "players": spec.players,
        "gnomes_per_player": config.gnomes_per_player,
        "variants": sorted(spec.variants),
        "bot": spec.bot,
        "seed": spec.seed,
        "data_set": data.describe(),
        "last_turns": LAST_TURNS,
        "events": totals.events(),
        "items": totals.items(),
        "tracks_by_minute": totals.timeline(),
    }
    if spec.bot == MIX:
        report["mix_pool"] = mix_pool()
    return report


def _pct(n: float, of: int) -> str:
    return f"{100 * n / of:5.1f}%" if of else "    -"


def format_report(report: dict[str, Any]) -> str:
    """The report as readable text."""
    games = report["games"]
    lost = games - report["wins"]

    def pct(n: int) -> str:
        return _pct(n, games)

    variants = ", ".join(report["variants"]) or "none"
    bot = report["bot"]
    if "mix_pool" in report:
        bot += f" ({', '.join(report['mix_pool'])})"
    low, high = report.get("win_rate_ci", (0.0, 0.0))
    lines = [
        f"Red November — {games} games, {report['players']} player(s) x "
        f"{report['gnomes_per_player']} gnome(s), variants: {variants}",
        f"bot: {bot}, seed: {report['seed']}, data set: {report['data_set']}",
        "",
        f"  won   {report['wins']:>8}  {pct(report['wins'])}   "
        f"(95% CI {100 * low:.1f}%–{100 * high:.1f}%)",
        f"  lost  {lost:>8}  {pct(lost)}",
    ]
    for cause, n in report["losses"].items():
        lines.append(f"    {loss_name(cause):<24} {n:>8}  {pct(n)}")
    lines += [
        "",
        f"  mean turns per game      {report['mean_turns']:10.2f}",
        f"  mean steps per game      {report['mean_steps']:10.2f}  (longest {report['max_steps']})",
        f"  mean minutes used        {report['mean_minutes']:10.2f}"
        + (f"  (lost games {report['mean_minutes_lost']:.2f})" if "mean_minutes_lost" in report
           else ""),
        f"  mean deaths per game     {report['mean_deaths']:10.2f}",
        f"  gnomes that abandoned    {report['abandoned']:10d}",
        "",
        "  deaths by cause:",
    ]
    for cause, n in report["deaths"].items():
        lines.append(f"    {death_name(cause):<40} {n:>8}")
    if "events" in report:
        n_last = report.get("last_turns", LAST_TURNS)
        lines += ["", f"  events (late: drawn in the last {n_last} turns of a lost game; "
                      "caused: the event that caused the loss):",
                  f"    {'event':<20} {'drawn':>8} {'per game':>9} {'late':>7} {'caused':>7}"]
        for kind, row in report["events"].items():
            lines.append(f"    {event_name(kind):<20} {row['drawn']:>8} "
                         f"{row['drawn'] / max(games, 1):>9.2f} "
                         f"{_pct(row['late_losses'], lost):>7} {_pct(row['caused'], lost):>7}")
        lines += ["", "  items (in wins: share of plays in won games; saves: repairs turned from "
                      "failure into success;",
                  "   uses: event icons a Lucky Charm ignored and moves into the Sea with an "
                  "Aqualung):",
                  f"    {'item':<20} {'played':>8} {'per game':>9} {'in wins':>8} {'saves':>7} "
                  f"{'uses':>6}"]
        for item, row in report["items"].items():
            lines.append(f"    {item_name(item):<20} {row['played']:>8} {row['per_game']:>9.2f} "
                         f"{_pct(row['played_in_wins'], row['played']):>8} {row['saves']:>7} "
                         f"{row['uses']:>6}")
    return "\n".join(lines)


def format_comparison(reports: Sequence[dict[str, Any]]) -> str:
    """One line per run: the figures to compare player counts (or bots) at a glance."""
    lines = [f"  {'players':>7} {'bot':<14} {'games':>7} {'win rate':>9} {'95% CI':>16} "
             f"{'minutes':>8} {'deaths':>7}  main loss cause"]
    for r in reports:
        low, high = r["win_rate_ci"]
        top = max(r["losses"].items(), key=lambda kv: kv[1]) if r["losses"] else ("-", 0)
        cause = f"{loss_name(top[0])} ({_pct(top[1], r['games']).strip()})" if top[1] else "-"
        lines.append(f"  {r['players']:>7} {r['bot']:<14} {r['games']:>7} "
                     f"{100 * r['win_rate']:>8.2f}% {f'{100 * low:.2f}–{100 * high:.2f}%':>16} "
                     f"{r['mean_minutes']:>8.2f} {r['mean_deaths']:>7.2f}  {cause}")
    return "\n".join(lines)


def parse_players(text: str | int | None) -> list[int]:
    """``4``, ``3,5``, ``3-5``, ``1,3-4`` or ``all`` (1..8) -> sorted distinct player counts."""
    if text is None:
        return [4]
    if isinstance(text, int):
        counts = {text}
    else:
        t = text.strip().lower()
        if t == "all":
            return list(range(1, 9))
        counts = set()
        for part in t.split(","):
            lo, sep, hi = part.strip().partition("-")
            try:
                a = int(lo)
                b = int(hi) if sep else a
            except ValueError:
                raise SimulateError(f"--players: {part.strip()!r} is not a number, a range like "
                                    "3-5 or 'all'") from None
            if a > b:
                raise SimulateError(f"--players: empty range {part.strip()!r}")
            counts.update(range(a, b + 1))
    bad = sorted(c for c in counts if not 1 <= c <= 8)
    if bad or not counts:
        raise SimulateError(f"--players must be 1..8, not {bad[0] if bad else text}")
    return sorted(counts)


def check_bot(name: str) -> str:
    if name == MIX:
        if not mix_pool():
            raise SimulateError("--bot mix needs a registered bot other than random")
        return name
    if name not in BOTS:
        raise SimulateError(f"unknown bot {name!r}; known: {', '.join(sorted(BOTS))}, mix")
    return name


def check_games(games: Any) -> int:
    if not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise SimulateError(f"--games must be 1..{MAX_GAMES:,}, not {games}")
    return games


def check_jobs(jobs: Any) -> int:
    jobs = 1 if jobs is None else jobs
    if not isinstance(jobs, int) or jobs < 0:
        raise SimulateError(f"--jobs must be 0 (one per core) or more, not {jobs}")
    return _workers(jobs)


def check_variants(names: Iterable[str] | None) -> frozenset[str]:
    variants = frozenset(names or ())
    unknown = variants - set(VARIANTS)
    if unknown:
        raise SimulateError(f"unknown variant(s) {', '.join(sorted(unknown))}; "
                            f"known: {', '.join(VARIANTS)}")
    return variants


def make_specs(counts: Sequence[int], gnomes: int | None, variants: frozenset[str], bot: str,
               seed: int, data_dir: str | None) -> list[RunSpec]:
    """One spec per player count. ``gnomes`` is checked against every count when only one is
    given; with several it applies to the 1- and 2-player counts (3+ always run one gnome)."""
    specs = []
    for players in counts:
        per = gnomes if (len(counts) == 1 or players <= 2) else None
        try:
            Config(players, per, variants, seed)
        except ConfigError as exc:
            raise SimulateError(f"{players} player(s): {exc}" if len(counts) > 1
                                else str(exc)) from None
        specs.append(RunSpec(players, per, variants, bot, seed, data_dir))
    return specs


def specs_from_args(args: argparse.Namespace) -> tuple[list[RunSpec], int, int]:
    """Check the command's arguments: a spec per player count, the number of games and of jobs."""
    games = check_games(args.games)
    counts = parse_players(args.players)
    bot = check_bot(args.bot)
    variants = check_variants(args.variant)
    jobs = check_jobs(args.jobs)
    specs = make_specs(counts, args.gnomes, variants, bot, args.seed, getattr(args, "data", None))
    return specs, games, jobs


def spec_from_args(args: argparse.Namespace) -> tuple[RunSpec, int, int]:
    """The single-player-count form of :func:`specs_from_args`."""
    specs, games, jobs = specs_from_args(args)
    if len(specs) != 1:
        raise SimulateError("expected one player count")
    return specs[0], games, jobs


def run_specs(specs: Sequence[RunSpec], games: int, jobs: int, show_progress: bool,
              label: str = "simulate", client: Client | None = None) -> list[dict[str, Any]]:
    """Play every spec's games (one pool, or the cluster of ``client``, for all) and return one
    report per spec, in order."""
    total = games * len(specs)
    reports: list[dict[str, Any]] = []
    if show_progress:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), TimeRemainingColumn(),
                      console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task(f"{label}: {total} games", total=total)
            stream = play_many(specs, games, jobs, lambda n: bar.advance(task, n), client)
            reports = _group(specs, games, stream)
    else:
        reports = _group(specs, games, play_many(specs, games, jobs, client=client))
    return reports


def _group(specs: Sequence[RunSpec], games: int, stream: Iterator[GameRecord]
           ) -> list[dict[str, Any]]:
    def take(n: int) -> Iterator[GameRecord]:
        for _ in range(n):
            yield next(stream)

    reports = [summarize(spec, take(games)) for spec in specs]
    for _ in stream:  # let the pool's generator finish (closes the pool)
        pass
    return reports


def cluster_from_args(args: argparse.Namespace) -> tuple[str | None, float]:
    """``--cluster ADDRESS`` (None: play here) and ``--cluster-timeout SECONDS``."""
    address = getattr(args, "cluster", None)
    timeout = getattr(args, "cluster_timeout", None)
    timeout = DEFAULT_TIMEOUT if timeout is None else timeout
    if not timeout > 0:
        raise SimulateError(f"--cluster-timeout must be more than 0 seconds, not {timeout:g}")
    return address, timeout


def progress_wanted(args: argparse.Namespace) -> bool:
    """A progress bar only on a terminal (stderr), and never with --quiet."""
    return not getattr(args, "quiet", False) and sys.stderr.isatty()


def run_simulate(args: argparse.Namespace) -> int:
    """The ``simulate`` command. Returns the exit code (2 for bad arguments)."""
    try:
        specs, games, jobs = specs_from_args(args)
        address, timeout = cluster_from_args(args)
        with connect(address, timeout) if address else nullcontext() as client:
            reports = run_specs(specs, games, jobs, progress_wanted(args), client=client)
    except (SimulateError, ClusterError) as exc:
        print(f"rednovember simulate: error: {exc}", file=sys.stderr)
        return 2
    if getattr(args, "json", False):
        print(json.dumps(reports[0] if len(reports) == 1 else {"runs": reports}))
    elif len(reports) == 1:
        print(format_report(reports[0]))
    else:
        print(format_comparison(reports))
        for r in reports:
            print()
            print(format_report(r))
    return 0


__all__ = ["DEATH_CAUSES", "GameRecord", "MIX", "RunSpec", "SimulateError", "derive_seed",
           "format_comparison", "format_report", "loss_causes", "mix_pool", "parse_players",
           "play_game", "play_games", "play_many", "play_task", "run_simulate", "run_specs",
           "spec_from_args", "specs_from_args", "summarize"]
