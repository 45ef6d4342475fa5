"""The game's own seeded random source (SplitMix64).

The whole generator state is one integer, so it serialises to JSON and copies for free.
Scenarios may queue forced die rolls, consumed before the generator is used.

The state is kept as its two 32-bit halves. Compiled (mypyc), the generator works on them with
every product taken over 16-bit pieces, so that the arithmetic stays on machine integers (on whole
64-bit values it allocates a Python long at every operation: three times slower than the pure
engine). Pure Python does the opposite: few operations
on whole values are cheaper than many on small ones. Both give exactly SplitMix64's numbers
(tests/test_rng.py checks one against the other).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # mypyc's native 64-bit integer; plain int when interpreted (values stay < 2⁶³)
    from mypy_extensions import i64

_COMPILED: Final = not __file__.endswith((".py", ".pyc"))  # this module compiled by mypyc
_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15
_M32: Final = 0xFFFFFFFF
_M16: Final = 0xFFFF
_GOLDEN_HI: Final = 0x9E3779B9  # _GOLDEN's halves
_GOLDEN_LO: Final = 0x7F4A7C15
_SMALL: Final = 1 << 24  # below(n) for n under this works on 16-bit pieces


def _mul(hi: i64, lo: i64, b3: i64, b2: i64, b1: i64, b0: i64) -> tuple[i64, i64]:
    """(hi·2³² + lo)·b mod 2⁶⁴ as its high and low 32 bits, b given by its 16-bit pieces (b3 the
    highest). Every product is of two 16-bit pieces: compiled, a product of two ints takes the
    fast path only when both are below 2³⁰ (and typed ``i64``, no tag checks at all: every value
    here stays below 2⁴⁰, so it never wraps)."""
    a3: i64 = hi >> 16
    a2: i64 = hi & _M16
    a1: i64 = lo >> 16
    a0: i64 = lo & _M16
    c1 = a1 * b0 + a0 * b1  # the columns of the schoolbook product, by powers of 2¹⁶
    c2 = a2 * b0 + a1 * b1 + a0 * b2
    c3 = a3 * b0 + a2 * b1 + a1 * b2 + a0 * b3
    low: i64 = a0 * b0 + ((c1 & _M16) << 16)
    return ((low >> 32) + (c1 >> 16) + c2 + ((c3 & _M16) << 16)) & _M32, low & _M32


class Rng:
    """Deterministic random numbers; ``forced`` die rolls are used first (scenarios, tests)."""

    __slots__ = ("hi", "lo", "forced")

    def __init__(self, seed: int, forced: list[int] | None = None) -> None:
        if seed < 0 or seed >> 64:  # compiled, masking a small seed would make a Python long
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

    def _next_halves(self) -> tuple[i64, i64]:
        """The next 64-bit output as its high and low 32 bits, on 32-bit halves (the compiled
        engine's way)."""
        lo: i64 = self.lo
        hi: i64 = self.hi
        lo += _GOLDEN_LO
        hi = (hi + _GOLDEN_HI + (lo >> 32)) & _M32
        lo &= _M32
        self.hi = hi
        self.lo = lo
        # z ^= z >> 30; z *= MUL1
        lo ^= ((hi << 2) & _M32) | (lo >> 30)
        hi ^= hi >> 30
        hi, lo = _mul(hi, lo, 0xBF58, 0x476D, 0x1CE4, 0xE5B9)  # 0xBF58476D1CE4E5B9
        # z ^= z >> 27; z *= MUL2
        lo ^= ((hi << 5) & _M32) | (lo >> 27)
        hi ^= hi >> 27
        hi, lo = _mul(hi, lo, 0x94D0, 0x49BB, 0x1331, 0x11EB)  # 0x94D049BB133111EB
        # z ^= z >> 31
        lo ^= ((hi << 1) & _M32) | (lo >> 31)
        hi ^= hi >> 31
        return hi, lo

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1``: (z·n) >> 64 for the next output z."""
        if _COMPILED and 0 <= n < _SMALL:
            hi, lo = self._next_halves()  # (z·n) >> 64, 16 bits of z at a time
            m: i64 = n
            t: i64 = ((lo & _M16) * m) >> 16
            t = (t + (lo >> 16) * m) >> 16
            t = (t + (hi & _M16) * m) >> 16
            return (t + (hi >> 16) * m) >> 16
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
