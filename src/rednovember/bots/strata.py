"""Determinisations spread evenly: systematic sampling for the search's rollouts.

The search scores a candidate by its mean over a few dozen determinisations
(:func:`rednovember.bots.facts.public_twin`), and much of that mean's noise comes from a few
draws: the die of the turn's repair, and whether a card (a Missile Launch!, a fire) is among the
next few the rollout meets. :func:`stratify` re-draws exactly those for determinisation ``i`` so
that each twin alone is still drawn as ``public_twin`` draws it, but the twins of one decision
share them out evenly:

* the first :data:`DICE` dice: within every ten twins each die takes each face once (a Latin
  hypercube: one random order of the faces per die and per ten twins);
* the event deck: the twins of one block (as many twins as cards) take one random order of the
  deck, each rotated to its own starting card, the starts spread so that any first few twins
  start far apart. Over a block every card is the top card once, among the top two twice, and
  so on: "the token comes within the next five cards" is met exactly as often as it should be.

A rotation of a uniformly shuffled deck is uniformly shuffled, and a die taken from a random
order of the faces is uniform: no twin is biased, only their errors cancel.

It is used by ``search:strata`` only, a bench-only level: on 216 fresh 4-player deals it won 134
against the default's 149 (bench/results/bots.md, stop 30). The search is not limited by the
noise of its means (twice the determinisations won nothing either), and the twins of a block
all meet one cyclic order of the deck, so runs of cards vary less.
"""

from __future__ import annotations

from functools import lru_cache

from ..rules import Game
from ..rules.rng import Rng
from .facts import SEED_MASK

DICE = 3  # the dice spread over the twins: the turn's own roll and the first rolls after it
_FACES = 10


def stratify(twin: Game, seed: int, i: int) -> None:
    """Make ``twin`` the ``i``-th of the decision's (``seed``) evenly spread determinisations."""
    deck = twin.event_deck
    if len(deck) > 1:
        block, j = divmod(i, len(deck))
        order = sorted(deck)
        Rng(_mix(seed, block, 0)).shuffle(order)
        start = spread(len(deck))[j]
        twin.event_deck = order[start:] + order[:start]
    block, j = divmod(i, _FACES)
    faces = []
    for k in range(DICE):
        die = list(range(1, _FACES + 1))
        Rng(_mix(seed, block, k + 1)).shuffle(die)
        faces.append(die[j])
    twin.rng.forced = faces


@lru_cache(maxsize=128)
def spread(n: int) -> tuple[int, ...]:
    """The numbers 0 .. n-1 in an order whose every prefix is spread evenly over them: the
    binary van der Corput sequence scaled to ``n``, a taken number replaced by the next free."""
    out: list[int] = []
    taken = [False] * n
    k = 0
    while len(out) < n:
        x = int(_radical_inverse(k) * n)
        k += 1
        while taken[x]:
            x = (x + 1) % n
        taken[x] = True
        out.append(x)
    return tuple(out)


def _radical_inverse(k: int) -> float:
    """``k``'s binary digits mirrored behind the point: 0, 1/2, 1/4, 3/4, 1/8, 5/8, ..."""
    x, unit = 0.0, 0.5
    while k:
        if k & 1:
            x += unit
        k >>= 1
        unit /= 2
    return x


def _mix(seed: int, block: int, stream: int) -> int:
    """The seed of one block's shuffle of one stream (the deck, or one die)."""
    return (seed * 1_000_003 + block * 7_919 + stream * 104_729 + 17) & SEED_MASK


__all__ = ["DICE", "spread", "stratify"]
