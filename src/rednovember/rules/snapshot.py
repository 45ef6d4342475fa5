"""The complete state of a game (without log and history) as a JSON-ready dict: the body of a save
(:mod:`rednovember.rules.serialize`) and of every seat's view (:mod:`rednovember.rules.view`)."""

from __future__ import annotations

from typing import Any

from .state import Gnome, State


def snapshot(g: State) -> dict[str, Any]:
    """The complete game state (without log and history) as a JSON-ready dict."""
    d = g.data
    items = [i.id for i in d.items]
    return {
        "rng": {"state": g.rng.state, "forced": g.rng.forced[:]},
        "fire": [r for r in d.rooms if g.fire[r]],
        "water": {str(r): g.water[r] for r in d.rooms if g.water[r]},
        "blocked": [list(d.hatches[h]) for h, b in enumerate(g.blocked) if b],
        "tracks": dict(zip(d.tracks, g.tracks, strict=True)),
        "tokens": {t: s for t, s in zip(d.tokens, g.tokens, strict=True) if s >= 0},
        "gnomes": [_gnome(gn, items) for gn in g.gnomes],
        "event_deck": g.event_deck[:], "event_discard": g.event_discard[:],
        "event_out": g.event_out[:], "kraken_aside": g.kraken_aside,
        "item_deck": [items[k] for k in g.item_deck],
        "item_discard": [items[k] for k in g.item_discard],
        "item_out": [items[k] for k in g.item_out], "stock": g.stock,
        "arrivals": g.arrivals, "active": g.active, "ghost": g.ghost, "phase": g.phase,
        "opened": g.opened, "began_in_sea": g.began_in_sea,
        "played": {items[k]: n for k, n in enumerate(g.played) if n}, "armed_in": g.armed_in[:],
        "charms": g.charms, "grog_used": g.grog_used,
        "pending": [list(p) for p in g.pending], "resume": g.resume,
        "effects": [dict(e) for e in g.effects], "event_space": g.event_space,
        "item_here": g.item_here, "turn": g.turn, "skip_check": g.skip_check,
        "in_updates": g.in_updates, "setup_events": g.setup_events,
        "undo_barrier": g.undo_barrier,
        "result": None if g.result is None else {"won": g.result.won, "cause": g.result.cause},
    }


def _gnome(gn: Gnome, items: list[str]) -> dict[str, Any]:
    return {"number": gn.number, "colour": gn.colour, "player": gn.player, "room": gn.room,
            "alive": gn.alive, "fainted": gn.fainted, "intoxication": gn.intoxication,
            "hand": [items[k] for k in gn.hand], "keeper": gn.keeper, "arrival": gn.arrival,
            "abandoned": gn.abandoned, "drew_room": gn.drew_room}
