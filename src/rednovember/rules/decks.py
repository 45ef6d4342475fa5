"""Drawing from the event and item decks, rebuilding them from their discards when empty (§5)."""

from __future__ import annotations

from .state import State


def draw_event(g: State) -> int:
    """Take the top event card; an empty deck is rebuilt from the discards (first time: +Kraken)."""
    if not g.event_deck:
        g.event_deck, g.event_discard = g.event_discard, []
        kraken = g.kraken_aside
        if kraken:
            g.event_deck.append(g.data.set_aside)
            g.kraken_aside = False
        g.rng.shuffle(g.event_deck)
        g.say("event_reshuffle", kraken)
    return g.event_deck.pop()


def draw_item(g: State) -> int:
    """Draw the top item card (reshuffling the discard pile when empty); -1 if none at all."""
    if not g.item_deck:
        if not g.item_discard:
            return -1
        g.item_deck, g.item_discard = g.item_discard, []
        g.rng.shuffle(g.item_deck)
        g.say("item_reshuffle")
    return g.item_deck.pop()
