"""The bot interface and registry. A bot sees a Game and returns one of its legal actions.

Bots are named, with an optional strength after a colon: ``random``, ``heuristic``, ``search``
(= ``search:default``), ``search:fast``, ``search:strong`` (any level of
:data:`rednovember.bots.levels.LEVELS`, also ``search:v1`` to ``search:v4``, the earlier
defaults kept for the benchmark and never offered; ``heuristic:v1``, the heuristic with its weights
before issue 21's tuning, likewise). :data:`BOTS` lists every named bot
(what the terminal and the simulator offer); :func:`make_bot` also accepts the search bot with
its own budget: ``search:it=N`` (N determinisations per candidate, reproducible) or
``search:ms=N`` (a time budget per decision: not reproducible, as it depends on the clock).

Every bot is seeded and reproducible: the same seed and the same game give the same choices
(except ``search:ms=N``). No bot in :data:`BOTS` reads hidden information: see ``heuristic.py`` and
``search.py`` (with ``rollout.py`` and ``leaf.py``). The ``oracle`` (``oracle.py``) does, on
purpose, and so do ``oracle:events`` and ``oracle:dice`` (the default search seeing the event deck's
order or the dice to come): they are in :data:`HIDDEN_BOTS`, built by :func:`make_bot` for the
benchmark only and never offered to players.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Protocol

from ..rules import Action, Game
from .heuristic import HeuristicBot
from .levels import LEVELS
from .oracle import OracleBot, SeerBot
from .planning import DEFAULT_WEIGHTS
from .search import SearchBot


class Bot(Protocol):
    name: str

    def choose(self, game: Game) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        # random.Random.choice's own draw (_randbelow: k bits, again while out of range), written
        # out so that the compiled bot calls getrandbits directly: the same choices, faster
        legal = game.legal_actions()
        n = len(legal)
        if not n:
            raise IndexError("no legal action: the game is over")
        k = n.bit_length()
        r = self.rng.getrandbits(k)
        while r >= n:
            r = self.rng.getrandbits(k)
        return legal[r]


def _heuristic(seed: int) -> Bot:
    return HeuristicBot(seed)


def _heuristic_v1(seed: int) -> Bot:
    """The heuristic with the weights it had before issue 21's tuning (the search's)."""
    return HeuristicBot(seed, DEFAULT_WEIGHTS)


def _search(level: str, seed: int) -> Bot:
    return SearchBot(seed, level)


def _oracle(seed: int) -> Bot:
    return OracleBot(seed)


# bots for measurement only: make_bot builds them, but they are not in BOTS (never offered)
HIDDEN_BOTS: dict[str, Callable[[int], Bot]] = {
    "oracle": _oracle,
    # the default search seeing the event deck's order, or the dice to come (oracle.SeerBot)
    "oracle:events": partial(SeerBot, sees="events"),
    "oracle:dice": partial(SeerBot, sees="dice"),
    "heuristic:v1": _heuristic_v1,
    "search:v1": partial(_search, "v1"),
    "search:v2": partial(_search, "v2"),
    "search:v3": partial(_search, "v3"),
    "search:v4": partial(_search, "v4"),
}


# weakest first: the order in which set-up screens offer them
BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "heuristic": _heuristic,
    "search:fast": partial(_search, "fast"),
    "search": partial(_search, "default"),
    "search:strong": partial(_search, "strong"),
}


def known_bot(name: str) -> bool:
    """Whether :func:`make_bot` accepts ``name``."""
    try:
        _factory(name)
    except ValueError:
        return False
    return True


def _factory(name: str) -> Callable[[int], Bot]:
    if name in BOTS:
        return BOTS[name]
    if name in HIDDEN_BOTS:
        return HIDDEN_BOTS[name]
    base, _, arg = name.partition(":")
    key, _, value = arg.partition("=")
    if base == "search" and arg in LEVELS:
        return partial(_search, arg)
    if base == "search" and key in ("it", "ms") and value.isdigit() and int(value) > 0:
        if key == "it":
            return lambda seed: SearchBot(seed, iterations=int(value))
        return lambda seed: SearchBot(seed, budget_ms=float(value))
    known = ", ".join(sorted(BOTS))
    raise ValueError(f"unknown bot {name!r}; known: {known} (and search:it=N, search:ms=N)")


def make_bot(name: str, seed: int = 0) -> Bot:
    """A new bot by name (see the module docstring), seeded with ``seed``."""
    return _factory(name)(seed)


def play_out(game: Game, bots: Sequence[Bot]) -> Game:
    """Let ``bots`` (one per player, by seat) play ``game`` to its end; returns the same game."""
    while game.result is None:
        game.apply(bots[game.player_to_move].choose(game))
    return game
