"""Consistency checks of a game state: used when loading saves and by the property tests."""

from __future__ import annotations

from collections import Counter

from .state import AFTER_ACTION, EXTRA_MOVE, MOVE, OPENED, State


class InvariantError(AssertionError):
    """The state breaks a rule that every reachable position keeps."""


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise InvariantError(message)


def check(g: State) -> None:
    """Raise :class:`InvariantError` naming the first broken invariant."""
    d = g.data
    cards = g.event_deck + g.event_discard + g.event_out + ([d.set_aside] if g.kraken_aside else [])
    _need(sorted(cards) == list(range(len(d.events))),
          f"event cards not conserved ({len(cards)} of {len(d.events)}, or duplicated)")
    items: Counter[int] = Counter(g.item_deck + g.item_discard + g.item_out)
    for gn in g.gnomes:
        items.update(gn.hand)
    items[d.stock_item] += g.stock
    for kind, item in enumerate(d.items):
        _need(items[kind] == item.count, f"item {item.id}: {items[kind]} cards, supply {item.count}")
    _need(0 <= g.stock <= d.stock_count, "captain's stock out of range")
    for r in d.rooms:
        _need(not (g.fire[r] and g.water[r]), f"room {r} both burning and flooded")
        _need(0 <= g.water[r] <= 2, f"room {r}: bad water level")
    _need(not g.fire[0] and not g.water[0], "the Sea cannot burn or flood")
    _need(sum(g.blocked) <= d.blocked_tokens, "more blocked hatches than tokens (R1)")
    _need(not any(g.blocked[d.interior_count:]), "an exterior hatch is blocked")
    _need(all(1 <= t <= d.track_length for t in g.tracks), "disaster marker off its track")
    start = max(d.start_spaces.values())
    _need(all(-1 <= t <= start for t in g.tokens), "destruction token off the time track")
    for gn in g.gnomes:
        _need(0 <= gn.intoxication <= 4, f"gnome {gn.number}: intoxication out of 0..4")
        if gn.on_board:
            _need(0 <= gn.keeper <= start, f"gnome {gn.number}: keeper off the track")
            _need(0 <= gn.room < len(d.room_keys), f"gnome {gn.number}: not in a room or the Sea")
        elif not gn.alive:
            _need(not gn.hand, f"dead gnome {gn.number} still holds items")
    for p in g.pending:
        _need(0 <= p.gnome < len(g.gnomes) and g.gnomes[p.gnome].on_board,
              f"decision {p.kind} for a gnome not on board")
    if g.result is None and g.active >= 0 and g.phase in (MOVE, OPENED, AFTER_ACTION, EXTRA_MOVE):
        gn = g.gnomes[g.active]
        _need(gn.on_board, "the active gnome is not on board")
        _need(0 <= g.ghost <= gn.keeper, f"ghost {g.ghost} behind keeper {gn.keeper}")
