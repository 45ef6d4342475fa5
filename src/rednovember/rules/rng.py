"""The game's own seeded random source (SplitMix64).

The whole generator state is one integer, so it serialises to JSON and copies for free.
Scenarios may queue forced die rolls, consumed before the generator is used.

The state is kept as its two 32-bit halves. Compiled (mypyc), the generator works on them with
every product taken over 16-bit pieces, so that no intermediate value reaches 2**62 and the
arithmetic stays on machine integers (on whole 64-bit values it allocates a Python long at every
operation: three times slower than the pure engine). Pure Python does the opposite: few operations
on whole values are cheaper than many on small ones. Both give exactly SplitMix64's numbers
(tests/test_rng.py checks one against the other).
"""

from __future__ import annotations

from typing import Final

_COMPILED: Final = not __file__.endswith((".py", ".pyc"))  # this module compiled by mypyc
_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15
_M32: Final = 0xFFFFFFFF
_M16: Final = 0xFFFF
_GOLDEN_HI: Final = 0x9E3779B9  # 0x9E3779B97F4A7C15, the state's increment
_GOLDEN_LO: Final = 0x7F4A7C15
_MUL1_HI: Final = 0xBF58476D  # 0xBF58476D1CE4E5B9
_MUL1_LO: Final = 0x1CE4E5B9
_MUL2_HI: Final = 0x94D049BB  # 0x94D049BB133111EB
_MUL2_LO: Final = 0x133111EB
_SMALL: Final = 1 << 24  # below(n) for n under this uses 32-bit pieces only


def _mul(ah: int, al: int, bh: int, bl: int) -> tuple[int, int]:
    """(ah·2³² + al)·(bh·2³² + bl) mod 2⁶⁴, as its high and low 32 bits (every piece < 2⁵⁰)."""
    a1, a0 = al >> 16, al & _M16
    h1, h0 = ah >> 16, ah & _M16
    p1 = a1 * bl
    t = a0 * bl + ((p1 & _M16) << 16)  # al·bl = (p1 >> 16)·2³² + t
    cross = (h0 * bl + (((h1 * bl) & _M16) << 16)  # ah·bl mod 2³²
             + a0 * bh + (((a1 * bh) & _M16) << 16))  # al·bh mod 2³²
    return ((p1 >> 16) + (t >> 32) + cross) & _M32, t & _M32


class Rng:
    """Deterministic random numbers; ``forced`` die rolls are used first (scenarios, tests)."""

    __slots__ = ("hi", "lo", "forced")

    def __init__(self, seed: int, forced: list[int] | None = None) -> None:
        seed &= _MASK
        self.hi = seed >> 32  # the state's high and low 32 bits
        self.lo = seed & _M32
        self.forced: list[int] = list(forced or [])

    @property
    def state(self) -> int:
        """The whole generator state, 0 .. 2**64 - 1."""
        return (self.hi << 32) | self.lo

    @state.setter
    def state(self, value: int) -> None:
        value &= _MASK
        self.hi = value >> 32
        self.lo = value & _M32

    def copy(self) -> Rng:
        twin = Rng(0, self.forced)  # forced is copied
        twin.hi = self.hi
        twin.lo = self.lo
        return twin

    def _next_whole(self) -> int:
        """The next 64-bit output, on whole 64-bit values (the pure engine's way)."""
        state = (((self.hi << 32) | self.lo) + _GOLDEN) & _MASK
        self.hi = state >> 32
        self.lo = state & _M32
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def _next_halves(self) -> tuple[int, int]:
        """The next 64-bit output as its high and low 32 bits, on 32-bit halves (the compiled
        engine's way)."""
        lo = self.lo + _GOLDEN_LO
        hi = (self.hi + _GOLDEN_HI + (lo >> 32)) & _M32
        lo &= _M32
        self.hi = hi
        self.lo = lo
        # z ^= z >> 30; z *= MUL1
        lo ^= ((hi << 2) & _M32) | (lo >> 30)
        hi ^= hi >> 30
        hi, lo = _mul(hi, lo, _MUL1_HI, _MUL1_LO)
        # z ^= z >> 27; z *= MUL2
        lo ^= ((hi << 5) & _M32) | (lo >> 27)
        hi ^= hi >> 27
        hi, lo = _mul(hi, lo, _MUL2_HI, _MUL2_LO)
        # z ^= z >> 31
        lo ^= ((hi << 1) & _M32) | (lo >> 31)
        hi ^= hi >> 31
        return hi, lo

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1``: (z·n) >> 64 for the next output z."""
        if _COMPILED and 0 <= n < _SMALL:
            hi, lo = self._next_halves()
            return (hi * n + ((lo * n) >> 32)) >> 32
        return (self._next_whole() * n) >> 64

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
