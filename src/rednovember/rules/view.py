"""What one seat may see: the public position plus its own hands (Mad Gnomes hides the others).

Deck orders and the random state are never shown to anyone.
"""

from __future__ import annotations

from typing import Any

from .state import Game


def view(g: Game, player: int | None) -> dict[str, Any]:
    from .serialize import snapshot

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
    s["legal"] = ([a.text(g.data) for a in g.legal_actions()]
                  if player is not None and player == g.player_to_move else [])
    return s


# Log entries that name cards a Mad Gnomes player may not see: (message id, index of the gnome
# whose hand it is, indices of the hidden arguments).
_HIDDEN = {"draw": (1, (2,)), "item_icon": (1, (3,)), "loot": (1, (3,)), "stumble": (1, (2,))}


def log_for(g: Game, player: int | None, start: int = 0) -> list[tuple[Any, ...]]:
    """The log from ``start`` as ``player`` may read it: in Mad Gnomes, cards that went into
    another seat's hidden hand read as -1 (a single card) or their count (several)."""
    entries = g.log[start:]
    if not g.config.has("mad-gnomes"):
        return entries
    out = []
    for e in entries:
        rule = _HIDDEN.get(e[0])
        if e[0] == "give" and player not in (g.gnomes[e[1]].player, g.gnomes[e[2]].player):
            e = e[:3] + (-1,)
        elif rule and g.gnomes[e[rule[0]]].player != player:
            e = tuple(len(v) if i in rule[1] and isinstance(v, tuple) else
                      -1 if i in rule[1] else v for i, v in enumerate(e))
        out.append(e)
    return out
