"""Names of the game's things (gnomes, rooms, items, cards, tokens, tracks) in one language."""

from __future__ import annotations

from collections.abc import Iterable

from ..rules import SEA, Game
from . import Catalog


def gnome(cat: Catalog, g: Game, number: int) -> str:
    colour = g.gnomes[number].colour if 0 <= number < len(g.gnomes) else str(number)
    return cat.raw("colours", colour)


def gnome_short(cat: Catalog, g: Game, number: int) -> str:
    return cat.raw("colours_short", g.gnomes[number].colour)


def room(cat: Catalog, g: Game, number: int) -> str:
    """``room 4 Reactor Room``, ``room 5`` or ``the Sea``."""
    if number == SEA:
        return cat.raw("rooms", "sea")
    keys = g.data.room_keys
    key = keys[number] if 0 <= number < len(keys) else ""
    if key and cat.section("rooms").get(key):
        return cat.get("room_format", "named", number=number, name=cat.raw("rooms", key))
    return cat.get("room_format", "plain", number=number)


def room_short(cat: Catalog, g: Game, number: int) -> str:
    """``4 Reactor Room``, ``5`` or ``Sea`` (table cells)."""
    if number == SEA:
        return cat.raw("room_format", "sea_short")
    key = g.data.room_keys[number]
    if cat.section("rooms").get(key):
        return cat.get("room_format", "short_named", number=number, name=cat.raw("rooms", key))
    return cat.get("room_format", "short_plain", number=number)


def item(cat: Catalog, g: Game, kind: int) -> str:
    return cat.raw("items", g.data.items[kind].id)


def join(cat: Catalog, words: Iterable[str]) -> str:
    """``a, b and c`` in the catalog's language."""
    parts = list(words)
    if not parts:
        return cat.raw("list", "none")
    if len(parts) == 1:
        return parts[0]
    return cat.raw("list", "sep").join(parts[:-1]) + cat.raw("list", "last") + parts[-1]


def items(cat: Catalog, g: Game, kinds: Iterable[int]) -> str:
    """Items with counts: ``Grog ×2 and Crowbar``."""
    counts: dict[int, int] = {}
    for k in kinds:
        counts[k] = counts.get(k, 0) + 1
    return join(cat, (item(cat, g, k) + (f" ×{n}" if n > 1 else "") for k, n in counts.items()))


def rooms(cat: Catalog, g: Game, numbers: Iterable[int]) -> str:
    return join(cat, (room(cat, g, r) for r in numbers))


def card(cat: Catalog, g: Game, card_id: int) -> str:
    """An event card with its faint number: ``Fire (faint 2)``."""
    info = g.data.events[card_id]
    name = cat.raw("events", info.kind)
    if info.faint is None:
        return cat.get("event_format", "no_faint", name=name)
    return cat.get("event_format", "faint", name=name, faint=info.faint)


def token(cat: Catalog, g: Game, index: int) -> str:
    return cat.raw("tokens", g.data.tokens[index])


def track(cat: Catalog, g: Game, index: int) -> str:
    return cat.raw("tracks", g.data.tracks[index])


def action_kind(cat: Catalog, kind: str) -> str:
    return cat.raw("action_kinds", kind)


__all__ = ["action_kind", "card", "gnome", "gnome_short", "item", "items", "join", "room",
           "room_short", "rooms", "token", "track"]
