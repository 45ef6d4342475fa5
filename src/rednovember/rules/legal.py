"""Legal-action generation: the complete list of choices at every decision point."""

from __future__ import annotations

from .action import Action
from .data import SEA
from .state import AFTER_ACTION, DECIDE, EXTRA_MOVE, HIGH, LOW, MOVE, OPENED, State


def legal_actions(g: State) -> list[Action]:
    """Every legal action for the decider, in a stable order (cached on the state until the
    next action is applied)."""
    legal = g._legal
    if legal is None:
        legal = g._legal = _generate(g)
    return legal


def _generate(g: State) -> list[Action]:
    if g.result is not None:
        return []
    if g.phase == DECIDE:
        return _decision(g)
    if g.phase == MOVE:
        return _plays(g) + _opens(g) + _actions(g)
    if g.phase == OPENED:
        out = [Action("stay")]
        if enter_cost(g, g.opened) >= 0:
            out.insert(0, Action("enter"))
        return out + _plays(g)
    if g.phase == AFTER_ACTION:
        return [Action("end")] + _plays(g)
    if g.phase == EXTRA_MOVE:
        exits = [Action("exit", r) for r in escape_rooms(g)]
        return exits + _plays(g)
    return []


def _plays(g: State) -> list[Action]:
    return [Action("play", k) for k in sorted(set(g.gnomes[g.active].hand))]


def _opens(g: State) -> list[Action]:
    if g.ghost < 1:
        return []
    room = g.gnomes[g.active].room
    blocked = g.blocked
    if room != SEA and g.water[room] == LOW:  # R15: not from low water into high water
        water = g.water
        return [Action("open", other) for h, other in g.data.exits[room]
                if not blocked[h] and water[other] != HIGH]
    return [Action("open", other) for h, other in g.data.exits[room] if not blocked[h]]


def open_refusal(g: State, other: int) -> str:
    """Why the active gnome may not open the hatch to ``other`` now ('' if nothing forbids it
    but the phase or the clock)."""
    room = g.gnomes[g.active].room
    h = g.data.hatch_between.get((room, other))
    if h is None:
        return f"there is no hatch between {room} and {other}"
    if g.blocked[h]:
        return "the hatch is blocked"
    if room != SEA and other != SEA and g.water[room] == LOW and g.water[other] == HIGH:
        return "R15: a gnome in a low-water room may not open a hatch into a high-water room"
    return ""


def enter_cost(g: State, target: int) -> int:
    """Minutes to go through the open hatch into ``target`` now, or -1 if not allowed."""
    here = g.gnomes[g.active].room
    if target == SEA:  # leaving the sub needs an Aqualung played this turn (R6: always 1)
        cost = 1 if g.can_swim() else -1
    else:
        if g.water[target] == HIGH:
            return -1
        if g.fire[target] and not g.can_enter_fire():
            return -1
        cost = 1 if here == SEA or g.water[target] == LOW else 0  # R6
    return cost if 0 <= cost <= g.ghost else -1


def reflow_result(g: State, a: int, b: int) -> tuple[int, int]:
    """Water levels of interior rooms a, b after a hatch between them opens (R5)."""
    return reflow_levels(g.water[a], g.water[b])


def reflow_levels(wa: int, wb: int) -> tuple[int, int]:
    """R5 on two water levels: high flows only into a room with no water; both end low."""
    if (wa == HIGH and wb == 0) or (wb == HIGH and wa == 0):
        return LOW, LOW
    return wa, wb


def escape_rooms(g: State) -> list[int]:
    """Rooms (or the Sea) the gnome can move out to after a failed Extinguish Fire."""
    return [other for _, other in g.data.exits[g.gnomes[g.active].room] if exit_cost(g, other) > 0]


def exit_cost(g: State, other: int) -> int:
    """Minutes of a whole move out to ``other`` — open the hatch (1), the water reflows, go
    through (0, or 1 into low water or the Sea) — or -1 when it is not allowed or affordable."""
    here = g.gnomes[g.active].room
    h = g.data.hatch_between.get((here, other))
    if h is None or g.blocked[h]:
        return -1
    if other == SEA:
        cost = 2 if g.can_swim() else -1
    else:
        _, wb = reflow_result(g, here, other)
        if wb == HIGH or (g.fire[other] and wb == 0 and not g.can_enter_fire()):
            return -1
        cost = 2 if wb == LOW else 1
    return cost if 0 < cost <= g.ghost else -1


def _repair(kind: str, avail: int, arg: int = 0) -> list[Action]:
    """The repair with 1..10 minutes, as many as ``avail`` allows (actions made once, shared)."""
    options = _REPAIR_OPTIONS.get((kind, arg))
    if options is None:
        options = _REPAIR_OPTIONS[(kind, arg)] = tuple(Action(kind, arg, m) for m in range(1, 11))
    return list(options[:avail]) if avail > 0 else []


_REPAIR_OPTIONS: dict[tuple[str, int], tuple[Action, ...]] = {}


def _actions(g: State) -> list[Action]:
    gn = g.gnomes[g.active]
    room = gn.room
    time = g.ghost
    out: list[Action] = []
    if room != SEA and g.fire[room]:
        out = _repair("extinguish_fire", time)
    elif room != SEA and g.water[room] == HIGH:
        out = [Action("no_action")] if time >= 1 else []
    else:
        out = _normal_actions(g, gn.room, time)
    if _can_abandon(g):
        out.append(Action("abandon"))
    if not out or out == [Action("abandon")]:
        out.append(Action("end"))  # nothing affordable: the turn goes on without an action
    return out


def _normal_actions(g: State, room: int, time: int) -> list[Action]:
    low = room != SEA and g.water[room] == LOW
    avail = time - (2 if low else 0)
    out: list[Action] = []
    if room != SEA:
        for h, other in g.data.exits[room]:
            if g.blocked[h]:
                out += _repair("unblock_hatch", avail, other)
        if low:
            out += _repair("pump_water", time)
    for name, rep in g.data.room_repairs.items():
        if rep.room == room and room_repair_needed(g, name):
            out += _repair(name, time if room == SEA else avail)
    out += _draws(g, room, avail)
    if avail >= 1:
        gn = g.gnomes[g.active]
        others = [o.number for o in g.gnomes if o.on_board and o.room == room and o is not gn]
        out += [Action("trade", o) for o in others]  # R11: fainted gnomes and the Sea too
        if g.config.has("mad-gnomes") and room != SEA and g.can_attack():
            out += [Action("attack", o) for o in others]
    if time >= 1:
        out.append(Action("no_action"))
    return out


def room_repair_needed(g: State, name: str) -> bool:
    """R8: a room repair needs a problem: its track above 1, or its token on the track. R7: a
    gnome whose keeper has already passed the token cannot attempt the repair at all."""
    rep = g.data.room_repairs[name]
    space = g.tokens[rep.token] if rep.token >= 0 else -1
    if space >= 0 and g.gnomes[g.active].keeper < space:
        return False
    return space >= 0 or (rep.track >= 0 and g.tracks[rep.track] > 1)


def _draws(g: State, room: int, avail: int) -> list[Action]:
    spec = g.data.draw_rooms.get(room)
    if spec is None or g.gnomes[g.active].drew_room == room:  # R10: the flag is per room
        return []
    source, most = spec
    have = g.stock if source == "captains_stock" else len(g.item_deck) + len(g.item_discard)
    return [Action("draw", n) for n in range(1, min(most, have, avail) + 1)]


def _can_abandon(g: State) -> bool:
    gn = g.gnomes[g.active]
    return (gn.room == SEA and not g.config.few_players
            and gn.keeper < g.data.abandon_below)


def _decision(g: State) -> list[Action]:
    d = g.pending[0]
    gn = g.gnomes[d.gnome]
    kinds = sorted(set(gn.hand))
    if d.kind == "discard":
        return [Action("discard", k) for k in kinds]
    if d.kind == "keep":
        return [Action("keep", k) for k in kinds]
    if d.kind == "give":
        return [Action("done")] + [Action("give", k) for k in kinds]
    if d.kind == "spread":
        return [Action("spread", r) for r in spread_rooms(g)]
    if d.kind == "block":
        return [Action("block", r) for r in blockable(g, d.info)]
    if d.kind == "defend":  # only asked of a defender holding a Crowbar (P9)
        return [Action("defend"), Action("yield")]
    raise AssertionError(f"unknown decision {d.kind}")


def spread_rooms(g: State) -> list[int]:
    """Rooms Fire Spreads may reach: joined to a burning room by an interior hatch (blocked or
    not), neither burning nor flooded."""
    out = set()
    data = g.data
    for h in range(data.interior_count):
        a, b = data.hatches[h]
        if g.fire[a] and not g.fire[b] and not g.water[b]:
            out.add(b)
        if g.fire[b] and not g.fire[a] and not g.water[a]:
            out.add(a)
    return sorted(out)


def blockable(g: State, room: int) -> list[int]:
    """Rooms beyond the unblocked interior hatches of ``room`` (R1: none once tokens run out)."""
    if sum(g.blocked) >= g.data.blocked_tokens:
        return []
    return [o for h, o in g.data.exits[room] if o != SEA and not g.blocked[h]]
