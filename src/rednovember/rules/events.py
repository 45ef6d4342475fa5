"""Event effects (RULES §8): one small handler per effect type, chosen by the card's data.

The turn driver (:mod:`rednovember.rules.turn`) draws the card and calls the handlers of its
effects in order; a handler that needs a player's choice queues a :class:`Decision` instead."""

from __future__ import annotations

from typing import Any

from .deaths import lose, loss_checks
from .legal import blockable, spread_rooms
from .state import HIGH, LOW, State, decision


def advance_track(g: State, track: int, steps: int) -> None:
    length = g.data.track_length
    g.tracks[track] = min(length, g.tracks[track] + steps)
    g.say("track", track, g.tracks[track])
    if g.tracks[track] >= length:
        lose(g, g.data.tracks[track])


def set_fire(g: State, room: int, why: str) -> None:
    """A fire token is placed (or a Fire event hits a burning room): Asphyxiation +1."""
    g.say(why, room)
    advance_track(g, g.data.tracks.index("asphyxiation"), 1)
    g.fire[room] = True


def _fire(g: State, e: dict[str, Any]) -> None:
    room = g.rng.die()
    if g.water[room]:
        g.say("fire_flooded", room)
    else:
        set_fire(g, room, "fire")


def _fire_spreads(g: State, e: dict[str, Any]) -> None:
    rooms = spread_rooms(g)
    if not rooms:
        g.say("spread_none")
    elif len(rooms) == 1:
        set_fire(g, rooms[0], "fire_spreads")
    else:
        g.pending.append(decision("spread", g.active))


def _leak(g: State, e: dict[str, Any]) -> None:
    room = g.rng.die()
    g.water[room] = HIGH
    g.say("leak", room)
    if g.fire[room]:
        g.fire[room] = False
        g.say("fire_out", room)


def _undercurrent(g: State, e: dict[str, Any]) -> None:
    rooms = [r for r in g.data.rooms if g.water[r] == LOW]
    for r in rooms:
        g.water[r] = HIGH
    g.say("undercurrent", tuple(rooms))


def _hatch_blocked(g: State, e: dict[str, Any]) -> None:
    room = g.rng.die()
    options = blockable(g, room)
    if not options:
        g.say("block_none", room)
    elif len(options) == 1:
        g.blocked[g.data.hatch_between[(room, options[0])]] = True
        g.say("hatch_blocked", room, options[0])
    else:
        g.pending.append(decision("block", g.active, room))


def _track(g: State, e: dict[str, Any]) -> None:
    advance_track(g, g.data.tracks.index(e["track"]), int(e["steps"]))


def _token(g: State, e: dict[str, Any]) -> None:
    t = g.data.tokens.index(e["token"])
    if g.tokens[t] >= 0:
        g.say("token_already", t)
        return
    space = g.event_space - int(e["distance"])
    if space < 0:
        g.say("token_avoided", t)
        return
    g.tokens[t] = space  # R12: exactly on 0 is placed
    g.say("token", t, space)
    loss_checks(g)


def _hand_limit(g: State, e: dict[str, Any]) -> None:
    limit = int(e["limit"])
    n = len(g.gnomes)
    for i in range(n):
        gn = g.gnomes[(g.active + i) % n]
        if not gn.on_board or len(gn.hand) <= limit:
            continue
        if len(set(gn.hand)) == 1:  # all alike: nothing to choose
            g.item_discard.extend(gn.hand[limit:])
            g.say("hand_limit", gn.number, tuple(gn.hand[limit:]))
            del gn.hand[limit:]
        else:
            g.pending.append(decision("discard", gn.number, limit))


def _stumble(g: State, e: dict[str, Any]) -> None:
    gn = g.gnomes[g.active]
    if len(gn.hand) <= 1:
        g.say("stumble_none", gn.number)
    elif len(set(gn.hand)) == 1:
        g.item_discard.extend(gn.hand[1:])
        g.say("stumble", gn.number, gn.hand[0], tuple(gn.hand[1:]))
        del gn.hand[1:]
    else:
        g.pending.append(decision("keep", gn.number))


def _overheated(g: State, e: dict[str, Any]) -> None:
    grog = g.data.item_index["grog"]
    for gn in g.gnomes:
        if gn.on_board and grog in gn.hand:
            gn.hand.remove(grog)
            g.item_discard.append(grog)
            gn.intoxication = min(4, gn.intoxication + 1)
            g.say("overheated", gn.number, gn.intoxication)


def run_effect(g: State, effect: dict[str, Any]) -> None:
    """Call the handler of one effect (a chain of tests, the most frequent types first: compiled,
    each handler is then a direct call, not a Python call through a dict of handlers)."""
    kind = effect["type"]
    if kind == "track":
        _track(g, effect)
    elif kind == "hatch_blocked":
        _hatch_blocked(g, effect)
    elif kind == "fire":
        _fire(g, effect)
    elif kind == "token":
        _token(g, effect)
    elif kind == "leak":
        _leak(g, effect)
    elif kind == "fire_spreads":
        _fire_spreads(g, effect)
    elif kind == "stumble":
        _stumble(g, effect)
    elif kind == "undercurrent":
        _undercurrent(g, effect)
    elif kind == "hand_limit":
        _hand_limit(g, effect)
    elif kind == "overheated":
        _overheated(g, effect)
    else:
        raise KeyError(kind)  # data.py accepts only the types above
