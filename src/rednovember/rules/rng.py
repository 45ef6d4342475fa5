"""The game's own seeded random source (SplitMix64).

The whole generator state is one integer, so it serialises to JSON and copies for free.
Scenarios may queue forced die rolls, consumed before the generator is used.
"""

from __future__ import annotations

from typing import Final

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15


class Rng:
    """Deterministic random numbers; ``forced`` die rolls are used first (scenarios, tests)."""

    __slots__ = ("state", "forced")

    def __init__(self, seed: int, forced: list[int] | None = None) -> None:
        self.state = seed & _MASK
        self.forced: list[int] = list(forced or [])

    def copy(self) -> Rng:
        return Rng(self.state, self.forced)  # the state is already below 2**64; forced is copied

    def _next(self) -> int:
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1``."""
        return (self._next() * n) >> 64

    def die(self) -> int:
        """Roll the ten-sided action die: 1..10 (the "0" face reads 10)."""
        if self.forced:
            return self.forced.pop(0)
        return self.below(10) + 1

    def shuffle(self, cards: list[int]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(cards) - 1, 0, -1):
            j = self.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
