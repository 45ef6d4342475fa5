"""What one seat may see: the public position plus its own hands (Mad Gnomes hides the others).

Deck orders and the random state are never shown to anyone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .legal import legal_actions
from .snapshot import snapshot
from .state import State


def view(g: State, player: int | None) -> dict[str, Any]:
    s = snapshot(g)
    for key in ("rng", "event_deck", "item_deck"):
        s.pop(key)
    s["event_deck_size"] = len(g.event_deck)
    s["item_deck_size"] = len(g.item_deck)
    s["event_discard_top"] = g.event_discard[-1] if g.event_discard else None
    hidden = g.config.has("mad-gnomes")
    for gs in s["gnomes"]:
        gs["hand_size"] = len(gs["hand"])
        if hidden and gs["player"] != player:
            gs["hand"] = None
    s["data_set"] = g.data.describe()
    s["decider"] = g.decider
    s["player_to_move"] = g.player_to_move
    s["legal"] = ([a.text(g.data) for a in legal_actions(g)]
                  if player is not None and player == g.player_to_move else [])
    return s


# Log entries naming cards that went into a hand Mad Gnomes hides: message id -> (indices of the
# gnomes whose seats may see those cards, indices of the arguments that name them).
_PRIVATE = {"draw": ((1,), (2,)), "item_icon": ((1,), (3,)), "loot": ((1,), (3,)),
            "stumble": ((1,), (2,)), "give": ((1, 2), (3,))}


def may_see(g: State, entry: Sequence[Any], player: int | None) -> bool:
    """Whether seat ``player`` (None: a spectator) may read every card a log entry names."""
    rule = _PRIVATE.get(entry[0])
    if rule is None or not g.config.has("mad-gnomes"):
        return True
    n = len(g.gnomes)
    return any(0 <= entry[i] < n and g.gnomes[entry[i]].player == player for i in rule[0])


def log_for(g: State, player: int | None, start: int = 0) -> list[tuple[Any, ...]]:
    """The log from ``start`` as ``player`` may read it: in Mad Gnomes, cards that went into
    another seat's hidden hand read as -1 (a single card) or their count (several)."""
    entries = g.log[start:]
    if not g.config.has("mad-gnomes"):
        return entries
    return [e if may_see(g, e, player) else _redact(e) for e in entries]


def _redact(entry: tuple[Any, ...]) -> tuple[Any, ...]:
    hidden = _PRIVATE[entry[0]][1]
    return tuple(len(v) if i in hidden and isinstance(v, tuple) else -1 if i in hidden else v
                 for i, v in enumerate(entry))
