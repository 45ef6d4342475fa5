"""Event cards: drawing them and resolving their effects (RULES §8)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .flow import fainted_deaths, lose, loss_checks
from .legal import blockable, spread_rooms
from .state import HIGH, LOW, Decision, Game


def draw_event(g: Game) -> int:
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


def resolve_event(g: Game, space: int) -> None:
    """Draw and resolve one event card; ``space`` is where it was drawn (for tokens)."""
    card = draw_event(g)
    info = g.data.events[card]
    harder = g.config.has("harder") or g.config.has("hardest")
    (g.event_out if info.respite and harder else g.event_discard).append(card)
    g.say("event", card, space)
    g.event_space = space
    g.effects = list(info.effects)
    run_effects(g)


def run_effects(g: Game) -> None:
    """Resolve the current card's remaining effects until one needs a decision."""
    while g.effects and g.result is None and not g.pending:
        effect = g.effects.pop(0)
        _EFFECTS[effect["type"]](g, effect)
        if g.in_updates:
            fainted_deaths(g)
        if not g.gnomes[g.active].alive:
            g.effects = []


def advance_track(g: Game, track: int, steps: int) -> None:
    length = g.data.track_length
    g.tracks[track] = min(length, g.tracks[track] + steps)
    g.say("track", track, g.tracks[track])
    if g.tracks[track] >= length:
        lose(g, g.data.tracks[track])


def set_fire(g: Game, room: int, why: str) -> None:
    """A fire token is placed (or a Fire event hits a burning room): Asphyxiation +1."""
    g.say(why, room)
    advance_track(g, g.data.tracks.index("asphyxiation"), 1)
    g.fire[room] = True


def _fire(g: Game, e: dict[str, Any]) -> None:
    room = g.rng.die()
    if g.water[room]:
        g.say("fire_flooded", room)
    else:
        set_fire(g, room, "fire")


def _fire_spreads(g: Game, e: dict[str, Any]) -> None:
    rooms = spread_rooms(g)
    if not rooms:
        g.say("spread_none")
    elif len(rooms) == 1:
        set_fire(g, rooms[0], "fire_spreads")
    else:
        g.pending.append(Decision("spread", g.active))


def _leak(g: Game, e: dict[str, Any]) -> None:
    room = g.rng.die()
    g.water[room] = HIGH
    g.say("leak", room)
    if g.fire[room]:
        g.fire[room] = False
        g.say("fire_out", room)


def _undercurrent(g: Game, e: dict[str, Any]) -> None:
    rooms = [r for r in g.data.rooms if g.water[r] == LOW]
    for r in rooms:
        g.water[r] = HIGH
    g.say("undercurrent", tuple(rooms))


def _hatch_blocked(g: Game, e: dict[str, Any]) -> None:
    room = g.rng.die()
    options = blockable(g, room)
    if not options:
        g.say("block_none", room)
    elif len(options) == 1:
        g.blocked[g.data.hatch_between[(room, options[0])]] = True
        g.say("hatch_blocked", room, options[0])
    else:
        g.pending.append(Decision("block", g.active, room))


def _track(g: Game, e: dict[str, Any]) -> None:
    advance_track(g, g.data.tracks.index(e["track"]), int(e["steps"]))


def _token(g: Game, e: dict[str, Any]) -> None:
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


def _hand_limit(g: Game, e: dict[str, Any]) -> None:
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
            g.pending.append(Decision("discard", gn.number, limit))


def _stumble(g: Game, e: dict[str, Any]) -> None:
    gn = g.gnomes[g.active]
    if len(gn.hand) <= 1:
        g.say("stumble_none", gn.number)
    elif len(set(gn.hand)) == 1:
        g.item_discard.extend(gn.hand[1:])
        g.say("stumble", gn.number, gn.hand[0], tuple(gn.hand[1:]))
        del gn.hand[1:]
    else:
        g.pending.append(Decision("keep", gn.number))


def _overheated(g: Game, e: dict[str, Any]) -> None:
    grog = g.data.item_index["grog"]
    for gn in g.gnomes:
        if gn.on_board and grog in gn.hand:
            gn.hand.remove(grog)
            g.item_discard.append(grog)
            gn.intoxication = min(4, gn.intoxication + 1)
            g.say("overheated", gn.number, gn.intoxication)


_EFFECTS: dict[str, Callable[[Game, dict[str, Any]], None]] = {
    "fire": _fire, "fire_spreads": _fire_spreads, "leak": _leak, "undercurrent": _undercurrent,
    "hatch_blocked": _hatch_blocked, "track": _track, "token": _token, "hand_limit": _hand_limit,
    "stumble": _stumble, "overheated": _overheated,
}
