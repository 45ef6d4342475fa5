"""Shared helpers of the terminal tests (``from termtools import …``): a console that records
what it prints, and scripted answers to the game's questions."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable

from rich.console import Console


def console() -> tuple[Console, io.StringIO]:
    """A plain 120-column console and the buffer it writes to."""
    buf = io.StringIO()
    return Console(file=buf, width=120, highlight=False, color_system=None), buf


def answers(items: Iterable[str]) -> Callable[[str], str]:
    """A reader answering each question with the next of ``items``; then end of input."""
    it = iter(items)

    def ask(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return ask
