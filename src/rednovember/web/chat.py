"""Table talk: a chat per game, stored with it. Seated players write (as their seat, shown with its
name and colour); spectators read. Messages are plain text (the page renders them as text, never
as HTML), at most :data:`MAX_CHARS` characters, at most :data:`BURST` per :data:`WINDOW` seconds
from one seat (all its connections in the process together) and from one connection.

Two kinds of line are not typed by a player but join the same history: a **ping** (a seat marks a
room, hatch, time-track space or destruction token for everyone: :data:`PING_WHATS`) and an
**undo** line (a seat took an action back). Their ``kind`` and ``detail`` let every page say them in
its own language; ``text`` is the English sentence for pages that do not know the kind."""

from __future__ import annotations

import unicodedata
from typing import Any

from ..i18n import Catalog, catalog, names
from ..i18n.describe import describe_entry
from ..rules import SEA, Game, GameData
from ..rules.view import log_for
from .limits import Window
from .protocol import PING_TARGETS, PING_WHATS, ProtocolError, jsonable
from .store import chat_entry as message

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

    def __init__(self, burst: int = BURST, window: float = WINDOW, name: str = "chat") -> None:
        self.burst = burst
        self.window = window
        self.name = name  # what is limited, for the error message
        self._times = Window(burst, window, name)  # one connection: one key

    def check(self, now: float | None = None) -> None:
        if self._times.wait("", now):
            raise ProtocolError("rate_limited", f"{self.name}: at most {self.burst} messages in "
                                                f"{self.window:g} seconds")


# --- pings ---------------------------------------------------------------------------------------
def ping_target(data: GameData, kind: str, ident: int | str) -> None:
    """Refuses a ping target that is not in the game's data: a room by number (0 = the Sea), a
    hatch by its index into the data's hatches, a time-track space 0..start, a destruction token
    by name."""
    if kind == "token":
        if not isinstance(ident, str) or ident not in data.tokens:
            raise ProtocolError("bad_message", f"ping: no token {str(ident)[:40]!r}; known: "
                                               f"{', '.join(data.tokens)}", "bad_target")
        return
    top = {"room": len(data.room_keys) - 1, "hatch": len(data.hatches) - 1,
           "space": max(data.start_spaces.values())}.get(kind)
    if top is None:
        raise ProtocolError("bad_message", f"ping: unknown target kind {kind[:40]!r}; known: "
                                           f"{', '.join(PING_TARGETS)}", "bad_target")
    if isinstance(ident, bool) or not isinstance(ident, int) or not 0 <= ident <= top:
        raise ProtocolError("bad_message", f"ping: a {kind} is a number 0..{top}", "bad_target")


def target_name(cat: Catalog, game: Game, kind: str, ident: int | str) -> str:
    """A ping target's name in a catalog's language ("Engine Room", "time-track space 42")."""
    data = game.data
    if kind == "room" and isinstance(ident, int):
        return names.room(cat, game, ident)
    if kind == "hatch" and isinstance(ident, int):
        a, b = data.hatches[ident]
        if SEA in (a, b):
            return cat.get("web", "hatch_exterior", room=names.room(cat, game, b if a == SEA else a))
        return cat.get("web", "hatch_between", a=names.room(cat, game, a), b=names.room(cat, game, b))
    if kind == "space":
        return cat.get("web_talk", "target_space", space=ident)
    token = names.token(cat, game, data.tokens.index(str(ident)))
    return cat.get("web_talk", "target_token", token=token)


def ping_text(game: Game, kind: str, ident: int | str, what: str) -> str:
    """The English chat line of a ping (without the writer): "I'll go here — Engine Room"."""
    cat = catalog("en")
    return cat.get("web_talk", f"line_{what}", target=target_name(cat, game, kind, ident))


# --- undo lines ----------------------------------------------------------------------------------
def undo_detail(before: Game, stable: int) -> dict[str, Any]:
    """What an undo took back, as every seat may read it: the log entries the undone action had
    written (from ``before``, the game before the undo), with a spectator's redaction (Mad Gnomes:
    no card that went into a hidden hand), and its English sentence."""
    entries = [list(e) for e in log_for(before, None, stable)]
    # viewer -1 is nobody's seat: a private card's entry takes its "hidden" sentence
    said = " ".join(describe_entry(e, before, "en", -1) for e in before.log[stable:])
    return {"log": jsonable(entries), "said": said}


def undo_text(detail: dict[str, Any]) -> str:
    said = str(detail.get("said") or "")
    cat = catalog("en")
    if not said:
        return cat.raw("web_talk", "took_back_nothing")
    return cat.get("web_talk", "took_back", action=said)


__all__ = ["BURST", "HISTORY", "MAX_CHARS", "PING_TARGETS", "PING_WHATS", "RateLimit", "WINDOW",
           "clean", "message", "ping_target", "ping_text", "target_name", "undo_detail", "undo_text"]
