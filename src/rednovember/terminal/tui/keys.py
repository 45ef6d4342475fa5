"""Choosing by number keys in a list of ``count`` lines, shared by the options and the dialogs."""

from __future__ import annotations

from typing import NamedTuple


class Digit(NamedTuple):
    typed: str  # the digits kept for the next key ("" when done)
    choose: int  # the index to choose now, or -1
    highlight: int  # the index to highlight while waiting for another digit, or -1


def digit(typed: str, char: str, count: int) -> Digit:
    """A digit key: with ``count`` lines, "1" chooses line 1 at once unless a longer number
    (10-19) exists, then it highlights line 1 and waits for Enter or the second digit.
    A digit that fits nothing gives ``Digit("", -1, -1)``."""
    text = (typed + char).lstrip("0")
    if not text or int(text) > count:
        text = char if char != "0" and int(char) <= count else ""
    if not text:
        return Digit("", -1, -1)
    number = int(text)
    if number * 10 > count:  # no longer number starts with these digits
        return Digit("", number - 1, -1)
    return Digit(text, -1, number - 1)


__all__ = ["Digit", "digit"]
