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
