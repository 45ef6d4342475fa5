"""The possible plans for the active gnome's turn (:func:`plan_turn`): a route by real time cost
(:func:`routes`), items to play, an action with its minutes, each with an estimated value from
the position's :class:`~rednovember.bots.planning.Analysis`.
"""

from __future__ import annotations

import heapq

from ..rules import SEA, Action, Game
from ..rules.action import ENTER, NO_ACTION, SHARED_ARGS, shared, shared_row
from ..rules.apply import NO_LOW_WATER_PENALTY
from ..rules.legal import reflow_levels
from ..rules.state import HIGH, LOW, NONE
from .facts import poisson_tail, room_distances, visible_hand
from .planning import Analysis, Plan

# Shared actions for the plans' steps (see rules.action.shared): a NamedTuple built anew runs
# Python-level code even compiled, and the plans of one decision hold thousands of steps.
_OPEN = shared_row()
_PLAY = shared_row()
_DRAW = shared_row()
_TRADE = shared_row()
_REPAIRS: dict[str, list[Action | None]] = {}  # by repair: index argument * 11 + minutes


def repair_action(kind: str, arg: int, minutes: int) -> Action:
    """``Action(kind, arg, minutes)``, shared (minutes 1..10, argument below SHARED_ARGS)."""
    if not (0 <= arg < SHARED_ARGS and 0 <= minutes <= 10):
        return Action(kind, arg, minutes)
    row = _REPAIRS.get(kind)
    if row is None:
        row = _REPAIRS[kind] = [None] * (SHARED_ARGS * 11)
    action = row[arg * 11 + minutes]
    if action is None:  # two threads may both make it: equal values, either is kept
        action = row[arg * 11 + minutes] = Action(kind, arg, minutes)
    return action


# --- routes ----------------------------------------------------------------------------------------

def routes(g: Game, me: int, room: int, ghost: int, fire_state: int, sea_state: int,
           hand: list[int]) -> dict[tuple[int, int, int], tuple[int, list[Action], int]]:
    """Dijkstra over (room, fire pass, sea pass) from the given start, by minutes.

    Returns ``{(room, fire_item, sea_item): (minutes, steps, water_at_arrival)}``; passes are
    bought by playing an item (fire: Grog or Fire Extinguisher; Sea: Aqualung) just before they
    are needed."""
    data = g.data
    ids = data.item_index
    grog, ext, lung = ids["grog"], ids["fire_extinguisher"], ids["aqualung"]
    start = (room, fire_state, sea_state)
    best: dict[tuple[int, int, int], tuple[int, list[Action], int]] = {
        start: (0, [], g.water[room] if room != SEA else NONE)}
    heap: list[tuple[int, int, tuple[int, int, int]]] = [(0, 0, start)]
    counter = 1
    water = g.water
    while heap:
        cost, _, node = heapq.heappop(heap)
        have = best[node]
        if have[0] < cost:
            continue
        a, fi, si = node
        steps = have[1]
        left = ghost - cost
        for h, b in data.exits[a]:
            if g.blocked[h] or left < 1:
                continue
            need_fire = False
            if b == SEA:
                if si == -1:
                    continue
                step_cost, arrive = 2, NONE
            elif a == SEA:
                if water[b] == HIGH:
                    continue
                need_fire = g.fire[b]
                step_cost, arrive = 2, water[b]
            else:  # R15: from low water into high the hatch may not even be opened
                wb = reflow_levels(water[a], water[b])[1]
                if wb == HIGH:
                    continue
                need_fire = g.fire[b] and wb == NONE
                step_cost, arrive = 1 + (1 if wb == LOW else 0), wb
            if need_fire and fi == -1:
                continue
            if step_cost > left:
                continue
            counter = _push(best, heap, counter, (b, fi, si), cost + step_cost,
                            steps, (shared(_OPEN, "open", b), ENTER), arrive)
        # buying passes (0 minutes)
        if fi == -1:
            for k in (ext, grog):
                if k in hand:
                    counter = _push(best, heap, counter, (a, k, si), cost,
                                    steps, (shared(_PLAY, "play", k),), have[2])
        if si == -1 and lung in hand and a in (3, 6, 9):
            counter = _push(best, heap, counter, (a, fi, lung), cost,
                            steps, (shared(_PLAY, "play", lung),), have[2])
    return best


def _push(best: dict[tuple[int, int, int], tuple[int, list[Action], int]],
          heap: list[tuple[int, int, tuple[int, int, int]]], counter: int,
          key: tuple[int, int, int], c: int, steps: list[Action], more: tuple[Action, ...],
          wat: int) -> int:
    """Record reaching ``key`` in ``c`` minutes by ``steps`` and ``more`` if that is the best
    way yet; the next tie-breaking counter."""
    old = best.get(key)
    if old is None or c < old[0]:
        best[key] = (c, steps + list(more), wat)
        heapq.heappush(heap, (c, counter, key))
        return counter + 1
    return counter


# --- turn plans --------------------------------------------------------------------------------


REPAIRS_WITH_ITEMS = ("extinguish_fire", "pump_water", "unblock_hatch")
WASTE_CHANCE = 0.5  # a repair below this chance must not leave a helping item in the hand


def repair_chance(g: Game, plan: Plan) -> float | None:
    """The success chance of the repair ``plan`` ends in (items played this turn and by the plan
    counted), or None if it does not end in a repair."""
    act = plan.action
    if act.minutes <= 0 or (act.kind not in g.data.room_repairs
                            and act.kind not in REPAIRS_WITH_ITEMS):
        return None
    items = g.data.items
    bonus = g.bonus(act.kind)
    for step in plan.steps:
        if step.kind == "play":
            bonus += items[step.arg].bonus_to(act.kind)
    return min(1.0, (act.minutes + bonus) / 10)


def with_minutes(plan: Plan, minutes: int) -> Plan:
    """``plan`` with its repair taking ``minutes`` instead (the same steps before it)."""
    act = plan.action
    action = repair_action(act.kind, act.arg, minutes)
    return plan._replace(steps=plan.steps[:-1] + (action,), action=action)


def wasteful(g: Game, plan: Plan) -> bool:
    """A long-shot repair (under :data:`WASTE_CHANCE`) while the gnome keeps, unplayed, an item
    made for exactly that repair (a Pump Manual on Fix Oxygen Pumps, a Water Pump on Pump Water;
    Grog's bonus to everything does not count: it has its own price)."""
    p = repair_chance(g, plan)
    if p is None or p >= WASTE_CHANCE:
        return False
    hand = list(g.gnomes[g.active].hand)
    for step in plan.steps:
        if step.kind == "play" and step.arg in hand:
            hand.remove(step.arg)
    items = g.data.items
    return any(items[k].bonus.get(plan.action.kind, 0) > 0 for k in hand)


def sound(g: Game, plans: list[Plan], limit: int = 0) -> list[Plan]:
    """``plans`` without the :func:`wasteful` ones (all of them if every one is), ``limit`` kept."""
    kept: list[Plan] = []
    for p in plans:
        if not wasteful(g, p):
            kept.append(p)
            if len(kept) == limit:
                break
    kept = kept or plans
    return kept[:limit] if limit > 0 else kept



def plan_turn(an: Analysis, limit: int = 0) -> list[Plan]:
    """Every sensible plan for the active gnome's turn (the game must be in the move phase),
    best first. ``limit`` > 0 keeps only that many."""
    g = an.g
    gn = g.gnomes[g.active]
    fire_state = -2 if g.can_enter_fire() else -1
    sea_state = -2 if g.can_swim() else -1
    return plans_from(an, gn.room, g.ghost, fire_state, sea_state, list(gn.hand), (), limit)


def plans_from(an: Analysis, room: int, ghost: int, fire_state: int, sea_state: int,
               hand: list[int], prefix: tuple[Action, ...], limit: int = 0) -> list[Plan]:
    g = an.g
    me = g.active
    out: list[Plan] = []
    table = routes(g, me, room, ghost, fire_state, sea_state, hand)
    for (r, fi, si), (cost, steps, water) in table.items():
        used = [k for k in (fi, si) if k >= 0]
        if used:  # a pass that does not shorten the way to r is not worth buying here
            plain = table.get((r, fire_state if fi >= 0 else fi, sea_state if si >= 0 else si))
            if plain is not None and plain[0] <= cost and not (fi >= 0 and g.fire[r]):
                continue
        left_hand = hand[:]
        for k in used:
            left_hand.remove(k)
        t = ghost - cost
        base = prefix + tuple(steps)
        for plan in _tasks(an, r, water, t, cost, used, left_hand, base):
            out.append(plan)
    out.sort(key=lambda p: -p.value)
    return out[:limit] if limit > 0 else out


def _faint_cost(an: Analysis, intox_after: int, in_sea: bool) -> float:
    p = an.faint_p[min(4, intox_after)]
    return p * (an.w.death if in_sea else an.w.faint)


class _Spot:
    """What every plan ending in one room shares (the room, the minutes left, the cards, what
    the plan has paid already) and the repair plans made there. A class rather than closures
    in ``_tasks``: compiled, closures form a reference cycle with their scope, so each call
    left the analysis and its plans for the garbage collector (a fifth of a rollout's time)."""

    def __init__(self, an: Analysis, r: int, t: int, hand: list[int], base: tuple[Action, ...],
                 played: list[int], intox: int, grog_now: bool, fixed: float, end_pos: float,
                 out: list[Plan]) -> None:
        self.an = an
        self.r = r
        self.t = t
        self.hand = hand
        self.base = base
        self.played = played
        self.intox = intox
        self.grog_now = grog_now
        self.in_sea = r == SEA
        self.sea_return = -3.0 if r == SEA else 0.0
        self.fixed = fixed
        self.end_pos = end_pos
        self.out = out

    def bonus_of(self, repair: str, extra: list[int]) -> int:
        items = self.an.g.data.items
        tot = 0
        for k, n in enumerate(self.played):
            if n:
                tot += n * items[k].bonus_to(repair)
        for k in extra:
            tot += items[k].bonus_to(repair)
        return tot

    def repair_plans(self, repair: str, arg: int, gain: float, penalty: int, token_space: int,
                     token_gain: float, label: str, fail_cost: float = 0.0) -> None:
        """Choose items and minutes for a repair; ``token_gain`` needs the ghost to stay on or
        before ``token_space`` after paying."""
        an = self.an
        g = an.g
        w = an.w
        data = g.data
        gn = g.gnomes[g.active]
        grog = an.item_ids["grog"]
        t = self.t
        in_sea = self.in_sea
        avail = t - penalty
        if avail < 1:
            return
        # candidate bonus items, best bonus per cost first
        cands: list[tuple[float, int, int]] = []
        seen: dict[int, int] = {}
        for k in self.hand:
            bon = data.items[k].bonus_to(repair)
            if bon <= 0:
                continue
            seen[k] = seen.get(k, 0) + 1
            cost = an.item_value(gn.number, k, gn.hand) * (1 + 0.3 * (seen[k] - 1))
            cands.append((cost / bon, k, bon))
        cands.sort()
        extra: list[int] = []
        prefixes = [list(extra)]
        for _, k, _ in cands[:4]:
            extra = extra + [k]
            prefixes.append(list(extra))
        for ex in prefixes:
            bonus = self.bonus_of(repair, ex)
            item_cost = sum(an.item_value(gn.number, k, gn.hand) for k in ex)
            grogs = ex.count(grog)
            faint = 0.0
            if grogs:
                new_intox = self.intox + grogs
                faint = _faint_cost(an, new_intox, in_sea) - (
                    _faint_cost(an, self.intox, in_sea) if self.grog_now else 0.0)
            tries = {1, max(1, 10 - bonus), avail}
            if token_space >= 0:
                tries.add(t - penalty - token_space)
            for m in sorted(tries):
                if m < 1 or m > avail or m > 10:
                    continue
                p = min(1.0, (m + bonus) / 10)
                value_gain = gain
                if token_space >= 0 and t - penalty - m >= token_space:
                    value_gain += token_gain
                if value_gain <= 0:
                    continue
                v = (value_gain * p - fail_cost * (1 - p) - w.minute * (m + penalty) + self.fixed
                     - item_cost - faint + self.end_pos + self.sea_return)
                action = repair_action(repair, arg, m)
                steps = self.base + tuple(shared(_PLAY, "play", k) for k in ex) + (action,)
                self.out.append(Plan(v, steps, self.r, action, label))


def _tasks(an: Analysis, r: int, water: int, t: int, walked: int, used: list[int],
           hand: list[int], base: tuple[Action, ...]) -> list[Plan]:
    """Plans ending in an action in room ``r`` reached with ``t`` minutes left."""
    g = an.g
    w = an.w
    data = g.data
    gn = g.gnomes[g.active]
    ids = an.item_ids
    grog = ids["grog"]
    out: list[Plan] = []
    in_sea = r == SEA
    # the items this plan plays for passes: their holding value, and Grog's faint risk
    pass_cost = sum(an.item_value(gn.number, k, gn.hand) for k in used)
    grog_now = g.grog_used or grog in used
    intox = gn.intoxication + (1 if grog in used else 0)
    base_faint = _faint_cost(an, intox, in_sea) if grog_now else 0.0
    if g.grog_used:
        base_faint -= _faint_cost(an, gn.intoxication, in_sea)  # the check happens anyway
    played = g.played[:]
    for k in used:
        played[k] += 1
    fixed = -w.minute * walked - pass_cost - base_faint
    end_pos = an.position_value(r, gn.number)

    # dangers of ending the turn here
    burning = r != SEA and g.fire[r] and water == NONE
    if r != SEA and water == HIGH:
        return out  # only No Action, and the gnome dies at Updates
    if in_sea and g.began_in_sea and walked == 0:
        return out  # the air runs out
    spot = _Spot(an, r, t, hand, base, played, intox, grog_now, fixed, end_pos, out)
    if burning:
        gain = _fire_value(an, r)
        escape = _has_escape(g, r, t)
        fail = 0.0 if escape else w.death
        spot.repair_plans("extinguish_fire", 0, gain, 0, -1, 0.0, "fire", fail)
        return out

    low = water == LOW
    pen = 2 if low else 0
    # room repairs
    for name, rep in data.room_repairs.items():
        if rep.room != r:
            continue
        gain = 0.0
        tok_space = -1
        tok_gain = 0.0
        if rep.track >= 0 and g.tracks[rep.track] > 1:
            gain = an.track_gain(rep.track, g.tracks[rep.track])
        if rep.token >= 0 and g.tokens[rep.token] >= 0 and gn.keeper >= g.tokens[rep.token]:
            tok_space = g.tokens[rep.token]
            tok_gain = w.loss * an.token_left[rep.token] + 8.0
        if gain <= 0 and tok_space < 0:
            continue
        if gain > 0:
            gain *= _duplicate(an, r, rep.room)
        penalty = 0 if name in NO_LOW_WATER_PENALTY else pen
        spot.repair_plans(name, 0, gain, penalty, tok_space, tok_gain, name)
    if r != SEA:
        if low:
            gain = _pump_value(an, r) * _duplicate(an, r, r)
            spot.repair_plans("pump_water", 0, gain, 0, -1, 0.0, "pump")
        for h, other in data.exits[r]:
            if g.blocked[h]:
                gain = _unblock_value(an, h)
                if gain > 0:
                    spot.repair_plans("unblock_hatch", other, gain, pen, -1, 0.0, "unblock")
        # draw items
        spec = data.draw_rooms.get(r)
        if spec is not None and gn.drew_room < 0:
            source, most = spec
            if source == "captains_stock":
                have = g.stock
                unit = an.item_value(gn.number, grog, hand, owned=False)
            else:
                have = len(g.item_deck) + len(g.item_discard)
                unit = _mean_item_value(an, gn.number)
            held = len(hand)
            for n in range(1, min(most, have, t - pen) + 1):
                gain = sum(unit * (0.8 ** (i + max(0, held - 3))) for i in range(n))
                v = gain - w.minute * (n + pen) + fixed + end_pos
                draw = shared(_DRAW, "draw", n)
                out.append(Plan(v, base + (draw,), r, draw, "draw"))
        # trade
        if t - pen >= 1:
            for o in g.gnomes:
                if o is gn or not o.alive or o.abandoned or o.room != r:
                    continue
                gain = _trade_gain(an, gn.number, o.number, hand)
                if gain > 0:
                    v = gain - w.minute * (1 + pen) + fixed + end_pos
                    trade = shared(_TRADE, "trade", o.number)
                    out.append(Plan(v, base + (trade,), r, trade, "trade"))
    if t >= 1:
        v = -w.minute + fixed + end_pos + spot.sea_return
        out.append(Plan(v, base + (NO_ACTION,), r, NO_ACTION, "wait"))
    return out


def _duplicate(an: Analysis, r: int, room: int) -> float:
    """Discount for a job another gnome standing closer will take soon."""
    g = an.g
    me = g.gnomes[g.active]
    mine = an._walk(me.room, room) if me.room >= 0 else 99
    for gn in g.gnomes:
        if gn is me or not gn.alive or gn.abandoned or gn.room < 0 or gn.room == SEA:
            continue
        d = an.dist[gn.room][room]
        if d < mine and d <= 1 and gn.keeper >= me.keeper - 4:
            return 1 - an.w.duplicate
    return 1.0


def _has_escape(g: Game, r: int, t: int) -> bool:
    for h, b in g.data.exits[r]:
        if g.blocked[h] or b == SEA:
            continue
        if g.water[b] == HIGH or g.fire[b]:
            continue
        if t >= 2 + (1 if g.water[b] == LOW else 0):
            return True
    return False


def _fire_value(an: Analysis, r: int) -> float:
    g = an.g
    w = an.w
    v = w.fire
    if r in an.key_weight or r in g.data.draw_rooms:
        v += w.fire_key * (0.5 + min(2.0, an.key_weight.get(r, 0.5)))
    asph = g.data.tracks.index("asphyxiation")
    lvl = g.tracks[asph]
    # Fire Spreads and Fire on a burning room push Asphyxiation: its marginal danger
    lam = an.rates[asph] * an.horizon
    v += w.loss * (poisson_tail(lam, g.data.track_length - lvl - 1)
                   - poisson_tail(lam, g.data.track_length - lvl)) * 0.5
    for gn in g.gnomes:
        if (gn.alive and not gn.abandoned and gn.fainted and gn.room > 0
                and any(b == gn.room for _, b in g.data.exits[r])):
            v += 3.0
    return v


def _pump_value(an: Analysis, r: int) -> float:
    g = an.g
    v = an.w.pump + an.w.pump_key * min(2.0, an.key_weight.get(r, 0.0))
    for gn in g.gnomes:
        if gn.alive and not gn.abandoned and gn.fainted and gn.room == r:
            v += 4.0
    return v


def crew_walk_saved(an: Analysis, before: list[list[int]], after: list[list[int]]) -> float:
    """Weighted minutes the gnomes aboard save walking to the key rooms, from ``before`` to
    ``after`` room distances (negative when the ways get longer)."""
    saved = 0.0
    for key, weight in an.key_weight.items():
        wt = 0.3 + min(3.0, weight)
        for gn in an.g.gnomes:
            if gn.alive and not gn.abandoned and gn.room > 0:
                saved += wt * (min(12, before[gn.room][key]) - min(12, after[gn.room][key]))
    return saved


def _unblock_value(an: Analysis, h: int) -> float:
    g = an.g
    cached = an.cache.get(("unblock", h))
    if cached is not None:
        return cached
    saved = crew_walk_saved(an, an.dist, room_distances(g, opened=h))
    an.cache[("unblock", h)] = value = an.w.unblock * saved
    return value


def _mean_item_value(an: Analysis, number: int) -> float:
    g = an.g
    total = 0.0
    n = 0
    for k, item in enumerate(g.data.items):
        c = item.count - (g.data.stock_count if k == g.data.stock_item else 0)
        if c > 0:
            total += c * an.item_value(number, k, owned=False)
            n += c
    return total / max(1, n)


def _trade_gain(an: Analysis, a: int, b: int, hand_a: list[int]) -> float:
    """Total gain if each card moves to whichever of the two gnomes values it more."""
    g = an.g
    gain = 0.0
    hand_b = visible_hand(g, b, an.player)
    for k in set(hand_a):
        d = an.item_value(b, k, hand_b or [], owned=False) - an.item_value(a, k, hand_a)
        if d > an.w.trade_margin:
            gain += d
    if hand_b:
        for k in set(hand_b):
            d = an.item_value(a, k, hand_a, owned=False) - an.item_value(b, k, hand_b)
            if d > an.w.trade_margin:
                gain += d
    return gain * an.w.trade_gain
