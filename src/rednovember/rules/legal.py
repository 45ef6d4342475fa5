"""Legal-action generation: the complete list of choices at every decision point."""

from __future__ import annotations

from typing import Final

from .action import ABANDON, DEFEND, DONE, END, ENTER, NO_ACTION, STAY, YIELD, Action, shared, shared_row
from .data import SEA, RoomRepair
from .state import AFTER_ACTION, DECIDE, EXTRA_MOVE, HIGH, LOW, MOVE, OPENED, State

# The shared actions of each kind with an argument (see action.shared)
_OPEN: Final = shared_row()
_EXIT: Final = shared_row()
_PLAY: Final = shared_row()
_DRAW: Final = shared_row()
_TRADE: Final = shared_row()
_ATTACK: Final = shared_row()
_DISCARD: Final = shared_row()
_KEEP: Final = shared_row()
_GIVE: Final = shared_row()
_SPREAD: Final = shared_row()
_BLOCK: Final = shared_row()


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
    out: list[Action] = []  # each part adds its actions to the one list
    if g.phase == MOVE:
        _plays(out, g)
        _opens(out, g)
        _actions(out, g)
    elif g.phase == OPENED:
        if enter_cost(g, g.opened) >= 0:
            out.append(ENTER)
        out.append(STAY)
        _plays(out, g)
    elif g.phase == AFTER_ACTION:
        out.append(END)
        _plays(out, g)
    elif g.phase == EXTRA_MOVE:
        for r in escape_rooms(g):
            out.append(shared(_EXIT, "exit", r))
        _plays(out, g)
    return out


def _add_kinds(out: list[Action], row: list[Action | None], kind: str, hand: list[int]) -> None:
    """Add ``Action(kind, k)`` (shared) for each distinct item kind k in the hand, smallest first
    (a hand holds a few cards: the next kind is found by scanning it, no sorted copy)."""
    last = -1
    while True:
        k = -1
        for c in hand:
            if c > last and (k < 0 or c < k):
                k = c
        if k < 0:
            return
        out.append(shared(row, kind, k))
        last = k


def _plays(out: list[Action], g: State) -> None:
    _add_kinds(out, _PLAY, "play", g.gnomes[g.active].hand)


def _opens(out: list[Action], g: State) -> None:
    if g.ghost < 1:
        return
    room = g.gnomes[g.active].room
    blocked = g.blocked
    water = g.water
    low = room != SEA and water[room] == LOW  # R15: not from low water into high water
    for h, other in g.data.exits[room]:
        if not blocked[h] and not (low and water[other] == HIGH):
            out.append(shared(_OPEN, "open", other))


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


def _repair(out: list[Action], kind: str, avail: int, arg: int = 0) -> None:
    """Add the repair with 1..10 minutes, as many as ``avail`` allows (actions made once,
    shared)."""
    if avail <= 0:
        return
    options = _REPAIR_OPTIONS.get(kind) if kind != "unblock_hatch" else _UNBLOCK_OPTIONS.get(arg)
    if options is None:
        options = tuple(Action(kind, arg, m) for m in range(1, 11))
        if kind != "unblock_hatch":
            _REPAIR_OPTIONS[kind] = options
        else:
            _UNBLOCK_OPTIONS[arg] = options
    for i in range(min(avail, len(options))):  # no slice to build
        out.append(options[i])


_REPAIR_OPTIONS: Final[dict[str, tuple[Action, ...]]] = {}  # by repair (argument 0)
_UNBLOCK_OPTIONS: Final[dict[int, tuple[Action, ...]]] = {}  # unblock_hatch, by room


def _actions(out: list[Action], g: State) -> None:
    gn = g.gnomes[g.active]
    room = gn.room
    time = g.ghost
    start = len(out)
    if room != SEA and g.fire[room]:
        _repair(out, "extinguish_fire", time)
    elif room != SEA and g.water[room] == HIGH:
        if time >= 1:
            out.append(NO_ACTION)
    else:
        _normal_actions(out, g, gn.room, time)
    nothing = len(out) == start
    if _can_abandon(g):
        out.append(ABANDON)
    if nothing:
        out.append(END)  # nothing affordable: the turn goes on without an action


def _normal_actions(out: list[Action], g: State, room: int, time: int) -> None:
    low = room != SEA and g.water[room] == LOW
    avail = time - (2 if low else 0)
    data = g.data
    if room != SEA:
        blocked = g.blocked
        for h, other in data.exits[room]:
            if blocked[h]:
                _repair(out, "unblock_hatch", avail, other)
        if low:
            _repair(out, "pump_water", time)
    names = data.repairs_in[room]
    reps = data.room_repairs_in[room]
    for i in range(len(names)):
        if _needed(g, reps[i]):
            _repair(out, names[i], time if room == SEA else avail)
    _draws(out, g, room, avail)
    if avail >= 1:
        gn = g.gnomes[g.active]
        others = 0
        for o in g.gnomes:  # R11: fainted gnomes and the Sea too
            if o.room == room and o.alive and not o.abandoned and o is not gn:
                out.append(shared(_TRADE, "trade", o.number))
                others += 1
        if others and room != SEA and g.config.has("mad-gnomes") and g.can_attack():
            for o in g.gnomes:  # the same gnomes, in the same order
                if o.room == room and o.alive and not o.abandoned and o is not gn:
                    out.append(shared(_ATTACK, "attack", o.number))
    if time >= 1:
        out.append(NO_ACTION)


def room_repair_needed(g: State, name: str) -> bool:
    """R8: a room repair needs a problem: its track above 1, or its token on the track. R7: a
    gnome whose keeper has already passed the token cannot attempt the repair at all."""
    return _needed(g, g.data.room_repairs[name])


def _needed(g: State, rep: RoomRepair) -> bool:
    """:func:`room_repair_needed`, given the repair's data."""
    space = g.tokens[rep.token] if rep.token >= 0 else -1
    if space >= 0 and g.gnomes[g.active].keeper < space:
        return False
    return space >= 0 or (rep.track >= 0 and g.tracks[rep.track] > 1)


def _draws(out: list[Action], g: State, room: int, avail: int) -> None:
    if avail < 1:
        return
    spec = g.data.draw_in[room]
    if spec is None or g.gnomes[g.active].drew_room == room:  # R10: the flag is per room
        return
    source, most = spec
    have = g.stock if source == "captains_stock" else len(g.item_deck) + len(g.item_discard)
    for n in range(1, min(most, have, avail) + 1):
        out.append(shared(_DRAW, "draw", n))


def _can_abandon(g: State) -> bool:
    gn = g.gnomes[g.active]
    return (gn.room == SEA and not g.config.few_players
            and gn.keeper < g.data.abandon_below)


def _decision(g: State) -> list[Action]:
    d = g.pending[0]
    hand = g.gnomes[d.gnome].hand
    out: list[Action] = []
    if d.kind == "discard":
        _add_kinds(out, _DISCARD, "discard", hand)
        return out
    if d.kind == "keep":
        _add_kinds(out, _KEEP, "keep", hand)
        return out
    if d.kind == "give":
        out.append(DONE)
        _add_kinds(out, _GIVE, "give", hand)
        return out
    if d.kind == "spread":
        return [shared(_SPREAD, "spread", r) for r in spread_rooms(g)]
    if d.kind == "block":
        return [shared(_BLOCK, "block", r) for r in blockable(g, d.info)]
    if d.kind == "defend":  # only asked of a defender holding a Crowbar (P9)
        return [DEFEND, YIELD]
    raise AssertionError(f"unknown decision {d.kind}")


def spread_rooms(g: State) -> list[int]:
    """Rooms Fire Spreads may reach: joined to a burning room by an interior hatch (blocked or
    not), neither burning nor flooded."""
    fire, water = g.fire, g.water
    reached = [False] * len(fire)  # by room: no set to build and sort
    data = g.data
    for h in range(data.interior_count):
        a, b = data.hatches[h]
        if fire[a] and not fire[b] and not water[b]:
            reached[b] = True
        if fire[b] and not fire[a] and not water[a]:
            reached[a] = True
    return [r for r in range(len(reached)) if reached[r]]


def blockable(g: State, room: int) -> list[int]:
    """Rooms beyond the unblocked interior hatches of ``room`` (R1: none once tokens run out)."""
    blocked = g.blocked
    placed = 0
    for b in blocked:
        if b:
            placed += 1
    if placed >= g.data.blocked_tokens:
        return []
    return [o for h, o in g.data.exits[room] if o != SEA and not blocked[h]]
