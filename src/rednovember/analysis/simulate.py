"""``rednovember simulate``: play many complete games with bots and report statistics.

Every game is reproducible on its own: game ``i`` of a run with seed ``S`` uses the game seed
``derive_seed(S, i, "game")`` and, for seat ``p``, a bot seeded with ``derive_seed(S, i, "seat", p)``.
Games are played by a process pool over the game indices and the results are added up in index
order, so the same arguments give byte-identical output whatever ``--jobs`` is; the report holds no
wall-clock value.

Figures in the report (JSON keys):

``games``, ``wins``, ``win_rate``
    games played, games the crew won (all survivors rescued), wins / games.
``losses``
    cause -> count: each disaster track (a marker reached its end), each destruction token (every
    keeper passed it, or it was left on 0) and ``all_dead``; every cause is listed, zeros included.
``mean_turns``
    turns begun per game (``Game.turn``).
``mean_steps``
    actions applied per game (every decision of every player counts as one step).
``mean_minutes``
    minutes of the time track used per game: the start space minus the lowest keeper space any gnome
    reached (keepers only move towards 0, so it is the final lowest keeper). A won game used all of
    them (60 with 3 to 5 gnomes).
``deaths``
    cause -> count of gnome deaths, from the ``death`` log entries (with Less Deadly Death a death is
    followed by a replacement gnome but still counts); ``mean_deaths`` per game.
``abandoned``
    gnomes that abandoned their comrades, in all games.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple

from ..bots import BOTS, make_bot
from ..rules import VARIANTS, Config, ConfigError, load_data, new_game

# The ways a gnome dies (the ``death`` log entry's cause), listed even when they never happen.
DEATH_CAUSES = ("air", "attacked", "fainted_in_sea", "fire", "flood", "trapped")
STEP_LIMIT = 100_000  # no game comes near this; a game that does is an engine bug
MAX_GAMES = 10_000_000


class SimulateError(ValueError):
    """Arguments the simulator cannot run with (reported with exit code 2)."""


def derive_seed(seed: int, *parts: int | str) -> int:
    """A 63-bit seed derived deterministically from ``seed`` and ``parts`` (stable everywhere)."""
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


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


def play_game(spec: RunSpec, index: int) -> GameRecord:
    """Play game ``index`` of the run to its end (the pool's worker; module level, picklable)."""
    config = spec.config(index)
    data = load_data(spec.data_dir)
    g = new_game(config, data)
    bots = [make_bot(spec.bot, derive_seed(spec.seed, index, "seat", p))
            for p in range(config.players)]
    steps = 0
    while g.result is None:
        g.apply(bots[g.player_to_move].choose(g))
        steps += 1
        if steps > STEP_LIMIT:
            raise RuntimeError(f"game {index} (seed {config.seed}) did not end in {STEP_LIMIT} "
                               "steps")
    start = data.start_spaces[config.gnomes]
    return GameRecord(
        game=index, seed=config.seed, won=g.result.won, cause=g.result.cause, turns=g.turn,
        steps=steps, minutes=start - min(gn.keeper for gn in g.gnomes),
        deaths=tuple(str(e[2]) for e in g.log if e[0] == "death"),
        abandoned=sum(gn.abandoned for gn in g.gnomes))


def play_games(spec: RunSpec, games: int, jobs: int = 1) -> Iterator[GameRecord]:
    """The records of games 0..games-1, in index order (``jobs`` worker processes)."""
    work = partial(play_game, spec)
    jobs = max(1, min(jobs, games))
    if jobs == 1:
        yield from map(work, range(games))
        return
    import multiprocessing

    chunk = max(1, min(64, games // (jobs * 8)))
    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap(work, range(games), chunksize=chunk)


def loss_causes(data_dir: str | None = None) -> list[str]:
    data = load_data(data_dir)
    return [*data.tracks, *data.tokens, "all_dead"]


def summarize(spec: RunSpec, records: Iterable[GameRecord]) -> dict[str, Any]:
    """The report (a JSON-ready dict, keys in a fixed order) of records given in index order."""
    data = load_data(spec.data_dir)
    losses = dict.fromkeys(loss_causes(spec.data_dir), 0)
    deaths = dict.fromkeys(DEATH_CAUSES, 0)
    games = wins = turns = steps = minutes = abandoned = max_steps = 0
    for r in records:
        games += 1
        if r.won:
            wins += 1
        else:
            losses[r.cause] = losses.get(r.cause, 0) + 1
        turns += r.turns
        steps += r.steps
        minutes += r.minutes
        abandoned += r.abandoned
        max_steps = max(max_steps, r.steps)
        for cause in r.deaths:
            deaths[cause] = deaths.get(cause, 0) + 1
    n = max(games, 1)
    gnomes_per_player = Config(spec.players, spec.gnomes_per_player).gnomes_per_player
    return {
        "games": games,
        "wins": wins,
        "win_rate": round(wins / n, 6),
        "losses": losses,
        "mean_turns": round(turns / n, 4),
        "mean_steps": round(steps / n, 4),
        "max_steps": max_steps,
        "mean_minutes": round(minutes / n, 4),
        "deaths": deaths,
        "mean_deaths": round(sum(deaths.values()) / n, 4),
        "abandoned": abandoned,
        "players": spec.players,
        "gnomes_per_player": gnomes_per_player,
        "variants": sorted(spec.variants),
        "bot": spec.bot,
        "seed": spec.seed,
        "data_set": data.describe(),
    }


def format_report(report: dict[str, Any]) -> str:
    """The report as readable text."""
    games = report["games"]

    def pct(n: int) -> str:
        return f"{100 * n / games:5.1f}%" if games else "    -"

    variants = ", ".join(report["variants"]) or "none"
    lines = [
        f"Red November — {games} games, {report['players']} player(s) x "
        f"{report['gnomes_per_player']} gnome(s), variants: {variants}",
        f"bot: {report['bot']}, seed: {report['seed']}, data set: {report['data_set']}",
        "",
        f"  won   {report['wins']:>8}  {pct(report['wins'])}",
        f"  lost  {games - report['wins']:>8}  {pct(games - report['wins'])}",
    ]
    for cause, n in report["losses"].items():
        lines.append(f"    {cause:<16} {n:>8}  {pct(n)}")
    lines += [
        "",
        f"  mean turns per game      {report['mean_turns']:10.2f}",
        f"  mean steps per game      {report['mean_steps']:10.2f}  (longest {report['max_steps']})",
        f"  mean minutes used        {report['mean_minutes']:10.2f}",
        f"  mean deaths per game     {report['mean_deaths']:10.2f}",
        f"  gnomes that abandoned    {report['abandoned']:10d}",
        "",
        "  deaths by cause:",
    ]
    for cause, n in report["deaths"].items():
        lines.append(f"    {cause:<16} {n:>8}")
    return "\n".join(lines)


def spec_from_args(args: argparse.Namespace) -> tuple[RunSpec, int, int]:
    """Check the command's arguments: the run's spec, the number of games and of jobs."""
    games = args.games
    if not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise SimulateError(f"--games must be 1..{MAX_GAMES:,}, not {games}")
    players = args.players
    if not isinstance(players, int) or not 1 <= players <= 8:
        raise SimulateError(f"--players must be 1..8, not {players}")
    if args.bot not in BOTS:
        raise SimulateError(f"unknown bot {args.bot!r}; known: {', '.join(sorted(BOTS))}")
    variants = frozenset(args.variant or ())
    unknown = variants - set(VARIANTS)
    if unknown:
        raise SimulateError(f"unknown variant(s) {', '.join(sorted(unknown))}; "
                            f"known: {', '.join(VARIANTS)}")
    jobs = args.jobs if args.jobs is not None else 1
    if not isinstance(jobs, int) or jobs < 0:
        raise SimulateError(f"--jobs must be 0 (one per core) or more, not {jobs}")
    if jobs == 0:
        jobs = os.cpu_count() or 1
    try:
        Config(players, args.gnomes, variants, args.seed)
    except ConfigError as exc:
        raise SimulateError(str(exc)) from None
    spec = RunSpec(players, args.gnomes, variants, args.bot, args.seed, getattr(args, "data", None))
    return spec, games, jobs


def run_simulate(args: argparse.Namespace) -> int:
    """The ``simulate`` command. Returns the exit code (2 for bad arguments)."""
    try:
        spec, games, jobs = spec_from_args(args)
    except SimulateError as exc:
        print(f"rednovember simulate: error: {exc}", file=sys.stderr)
        return 2
    report = summarize(spec, play_games(spec, games, jobs))
    if getattr(args, "json", False):
        print(json.dumps(report))
    else:
        print(format_report(report))
    return 0


__all__ = ["DEATH_CAUSES", "GameRecord", "RunSpec", "SimulateError", "derive_seed",
           "format_report", "loss_causes", "play_game", "play_games", "run_simulate",
           "spec_from_args", "summarize"]
