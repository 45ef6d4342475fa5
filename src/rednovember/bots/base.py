"""The bot interface and registry. A bot sees a Game and returns one of its legal actions."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from ..rules import Action, Game


class Bot(Protocol):
    name: str

    def choose(self, game: Game) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        return self.rng.choice(game.legal_actions())


BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot}


def make_bot(name: str, seed: int = 0) -> Bot:
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(sorted(BOTS))}")
    return BOTS[name](seed)
