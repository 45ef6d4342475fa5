"""Table talk: a chat per game, stored with it. Seated players write (as their seat, shown with its
name and colour); spectators read. Messages are plain text (the page renders them as text, never
as HTML), at most :data:`MAX_CHARS` characters, at most :data:`BURST` per :data:`WINDOW` seconds
from one connection."""

from __future__ import annotations

import time
import unicodedata
from collections import deque
from typing import Any

from .protocol import ProtocolError

MAX_CHARS = 300
HISTORY = 100  # messages a page receives when it connects
BURST, WINDOW = 5, 10.0


def clean(text: str) -> str:
    """The message as it is stored: control characters dropped, white space trimmed."""
    kept = "".join(ch for ch in text if ch in "\n" or unicodedata.category(ch)[0] != "C")
    kept = kept.strip()
    if not kept:
        raise ProtocolError("bad_message", "chat: the message is empty")
    if len(kept) > MAX_CHARS:
        raise ProtocolError("bad_message", f"chat: at most {MAX_CHARS} characters")
    return kept


class RateLimit:
    """At most ``burst`` events per ``window`` seconds (a sliding window)."""

    def __init__(self, burst: int = BURST, window: float = WINDOW) -> None:
        self.burst = burst
        self.window = window
        self.times: deque[float] = deque()

    def check(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        while self.times and now - self.times[0] > self.window:
            self.times.popleft()
        if len(self.times) >= self.burst:
            raise ProtocolError("rate_limited", f"chat: at most {self.burst} messages in "
                                                f"{self.window:g} seconds")
        self.times.append(now)


def message(idx: int, seat: int, name: str | None, text: str, at: float) -> dict[str, Any]:
    return {"idx": idx, "seat": seat, "name": name, "text": text, "at": at}


__all__ = ["BURST", "HISTORY", "MAX_CHARS", "RateLimit", "WINDOW", "clean", "message"]
