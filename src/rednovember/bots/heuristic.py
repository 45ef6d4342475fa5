"""The heuristic bot: plays like a sensible crew member, one legal action at a time.

At each call it looks at the position afresh (it keeps no memory between calls, so it can take
over any position, and a plan it made is simply made again until it is carried out):

* **its own turn** — :func:`rednovember.bots.plans.plan_turn` lists plans (a route found by
  Dijkstra over the rooms by real minutes, passes into fire or the Sea bought with the right item,
  bonus items, an action with its minutes) and their value: threats weighed by urgency (a
  destruction token's minutes left against the other gnomes' chances, a disaster marker's distance
  from the end of its track against the events still to come, fires, water, blocked hatches),
  minus the minutes and items spent, the risk of fainting after Grog and the danger of where the
  gnome ends its turn. It takes the first step of the best plan.
* **events and other players' decisions** — discards, Stumble, trades, where fire spreads, which
  hatch to block, Mad Gnomes defence: each by the same values.

No cheating, by construction: :meth:`HeuristicBot.choose` decides on
:func:`rednovember.bots.facts.public_twin` of the game for the deciding seat — a copy whose
hidden parts (deck order, dice and, in Mad Gnomes, other seats' hands) are first put in a
canonical order and then re-sampled, so it is the same for every game that looks the same to the
seat — and the planning code reads only public fields (see ``facts.py`` and ``planning.py``).
The choice is checked against the real game's legal actions; if anything goes wrong a safe legal
action is returned instead.
"""

from __future__ import annotations

from ..rules import SEA, Action, Game
from ..rules.legal import blockable, enter_cost, spread_rooms
from ..rules.state import AFTER_ACTION, DECIDE, EXTRA_MOVE, LOW, MOVE, OPENED
from .facts import decision_seed, icons_between, public_twin, room_distances
from .planning import DEFAULT_WEIGHTS, HEURISTIC_WEIGHTS, Analysis, Plan, Weights
from .plans import crew_walk_saved, plan_turn, plans_from, sound

_SAFE = ("defend", "done", "end", "stay", "no_action")


def safe_action(legal: list[Action]) -> Action:
    """A legal choice that never hurts much (used when anything goes wrong)."""
    for kind in _SAFE:
        for a in legal:
            if a.kind == kind:
                return a
    return legal[0]


class HeuristicBot:
    """A rule-of-thumb crew member (see the module docstring). Deterministic: the seed only
    names the determinisation, which the decision does not depend on."""

    name = "heuristic"

    def __init__(self, seed: int = 0, weights: Weights = HEURISTIC_WEIGHTS,
                 strict: bool = False) -> None:
        self.seed = seed
        self.weights = weights
        self.strict = strict  # tests: let an internal error surface instead of falling back

    def choose(self, game: Game) -> Action:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        player = game.player_to_move
        seed = decision_seed(self.seed, game)
        twin = public_twin(game, player, seed)
        try:
            action = decide(twin, player, self.weights)
        except Exception:
            if self.strict:
                raise
            action = None
        if action is None or action not in legal:
            if self.strict and action is not None:
                raise AssertionError(f"heuristic chose an illegal action {action}")
            return safe_action(legal)
        return action


# --- the decision ---------------------------------------------------------------------------------

def decide(g: Game, player: int, w: Weights = DEFAULT_WEIGHTS) -> Action:
    """The heuristic's choice in ``g`` for seat ``player`` (reads only public fields)."""
    legal = g.legal_actions()
    if len(legal) == 1:
        return legal[0]
    phase = g.phase
    an = Analysis.of(g, player, g.decider, w)
    if phase == MOVE:
        return _move(an, legal)
    if phase == OPENED:
        return _opened(an, legal)
    if phase == AFTER_ACTION:
        return _after_action(an, legal)
    if phase == EXTRA_MOVE:
        return _extra_move(an, legal)
    if phase == DECIDE:
        return _decision(an, legal)
    return safe_action(legal)


def best_plans(g: Game, player: int, w: Weights = DEFAULT_WEIGHTS, limit: int = 0) -> list[Plan]:
    """The active gnome's plans for the rest of its turn, best first (move phase only)."""
    an = Analysis.of(g, player, g.active, w)
    return _distinct(sound(g, plan_turn(an)), limit)


def _distinct(plans: list[Plan], limit: int) -> list[Plan]:
    """Drop plans whose steps repeat a better plan's; keep ``limit`` (0: all)."""
    out: list[Plan] = []
    seen: set[tuple[Action, ...]] = set()
    for p in plans:
        if p.steps in seen:
            continue
        seen.add(p.steps)
        out.append(p)
        if limit and len(out) >= limit:
            break
    return out


def _move(an: Analysis, legal: list[Action]) -> Action:
    g = an.g
    plans = sound(g, plan_turn(an), 1)
    if not plans:
        return _escape_or_safe(an, legal)
    plan = plans[0]
    step = plan.steps[0]
    coffee = an.item_ids.get("coffee", -1)
    gn = g.gnomes[g.active]
    if (coffee in gn.hand and step.kind == "play" and step.arg == an.item_ids["grog"]
            and gn.intoxication >= 1):
        step = Action("play", coffee)
    return step


def _escape_or_safe(an: Analysis, legal: list[Action]) -> Action:
    """No plan keeps the gnome alive: do the least bad legal thing."""
    for kind in ("no_action", "end"):
        for a in legal:
            if a.kind == kind:
                return a
    return safe_action(legal)


def _opened(an: Analysis, legal: list[Action]) -> Action:
    g = an.g
    gn = g.gnomes[g.active]
    fire_state = -2 if g.can_enter_fire() else -1
    sea_state = -2 if g.can_swim() else -1
    hand = list(gn.hand)
    stay = plans_from(an, gn.room, g.ghost, fire_state, sea_state, hand, (Action("stay"),))
    options: list[Plan] = list(stay)
    target = g.opened
    cost = enter_cost(g, target)
    if cost >= 0:
        options += plans_from(an, target, g.ghost - cost, fire_state, sea_state, hand,
                              (Action("enter"),))
    else:
        ids = an.item_ids
        passes: list[tuple[int, int, int]] = []
        if target == SEA and sea_state == -1 and ids["aqualung"] in hand:
            passes.append((ids["aqualung"], fire_state, ids["aqualung"]))
        elif target != SEA and g.fire[target] and fire_state == -1:
            for k in (ids["fire_extinguisher"], ids["grog"]):
                if k in hand:
                    passes.append((k, k, sea_state))
        for k, fs, ss in passes:
            rest = hand[:]
            rest.remove(k)
            step_cost = 1 if gn.room == SEA or target == SEA or g.water[target] == LOW else 0
            if step_cost > g.ghost:
                continue
            price = an.item_value(gn.number, k)
            if k == ids["grog"] and not g.grog_used:
                price += an.faint_p[min(4, gn.intoxication + 1)] * (
                    an.w.death if target == SEA else an.w.faint)
            for p in plans_from(an, target, g.ghost - step_cost, -2 if fs >= 0 else fs,
                                -2 if ss >= 0 else ss, rest,
                                (Action("play", k), Action("enter"))):
                options.append(p._replace(value=p.value - price))
    if not options:
        return Action("stay") if Action("stay") in legal else safe_action(legal)
    options.sort(key=lambda p: -p.value)
    return sound(g, options, 1)[0].steps[0]


def _icons_ahead(g: Game) -> int:
    gn = g.gnomes[g.active]
    return icons_between(g.data, g.ghost, gn.keeper)


def _after_action(an: Analysis, legal: list[Action]) -> Action:
    g = an.g
    gn = g.gnomes[g.active]
    ids = an.item_ids
    coffee = ids.get("coffee", -1)
    if g.grog_used and coffee in gn.hand and gn.intoxication >= 1:
        return Action("play", coffee)
    charm = ids.get("lucky_charm", -1)
    if charm in gn.hand and g.charms == 0:
        icons = _icons_ahead(g)
        faint_risk = an.faint_p[min(4, gn.intoxication)] if g.grog_used else 0.0
        expect = icons + 3 * faint_risk  # fainting pushes the ghost 10 further
        if expect >= 2.5 or (expect >= 1.5 and gn.keeper <= 24) or (icons >= 1 and gn.keeper <= 9):
            return Action("play", charm)
    return Action("end")


def _extra_move(an: Analysis, legal: list[Action]) -> Action:
    g = an.g
    exits = [a for a in legal if a.kind == "exit"]
    if exits:
        def score(a: Action) -> float:
            r = a.arg
            if r == SEA:
                return -50.0
            v = an.position_value(r, g.active)
            if g.fire[r]:
                v -= 100.0
            if g.water[r] == LOW:
                v -= 1.0
            return v
        return max(exits, key=score)
    ids = an.item_ids
    gn = g.gnomes[g.active]
    for name in ("fire_extinguisher", "grog", "aqualung"):
        k = ids[name]
        if k in gn.hand and Action("play", k) in legal:
            return Action("play", k)
    return safe_action(legal)


# --- decisions of any player --------------------------------------------------------------------

def _decision(an: Analysis, legal: list[Action]) -> Action:
    g = an.g
    d = g.pending[0]
    kind = d.kind
    if kind == "discard":
        vals = an.hand_values(d.gnome)
        worst = min(vals, key=lambda vk: (vk[0], vk[1]))[1]
        return Action("discard", worst)
    if kind == "keep":
        vals = an.hand_values(d.gnome)
        best = max(vals, key=lambda vk: (vk[0], -vk[1]))[1]
        return Action("keep", best)
    if kind == "give":
        return _give(an, d.gnome, d.info, legal)
    if kind == "spread":
        rooms = spread_rooms(g)
        return Action("spread", min(rooms, key=lambda r: (spread_harm(an, r), r)))
    if kind == "block":
        rooms = blockable(g, d.info)
        return Action("block", min(rooms, key=lambda r: (block_harm(an, d.info, r), r)))
    if kind == "defend":
        return Action("defend") if Action("defend") in legal else Action("yield")
    return safe_action(legal)


def _give(an: Analysis, giver: int, receiver: int, legal: list[Action]) -> Action:
    g = an.g
    # values are consistent (a card given is worth less to the giver than to the receiver, so
    # it never comes back): trades end
    hand = g.gnomes[giver].hand
    other = g.gnomes[receiver].hand if not g.config.has("mad-gnomes") or \
        g.gnomes[receiver].player == an.player else []
    best, best_gain = -1, an.w.trade_margin
    for k in sorted(set(hand)):
        gain = an.item_value(receiver, k, other, owned=False) - an.item_value(giver, k, hand)
        if gain > best_gain:
            best, best_gain = k, gain
    if best >= 0 and Action("give", best) in legal:
        return Action("give", best)
    return Action("done")


def spread_harm(an: Analysis, r: int) -> float:
    """How bad a new fire in room ``r`` would be."""
    g = an.g
    v = 2.0 * an.key_weight.get(r, 0.0) + (1.5 if r in g.data.draw_rooms else 0.0)
    for gn in g.gnomes:
        if gn.alive and not gn.abandoned and gn.room == r:
            v += 30.0 if gn.fainted else 2.0
    # more unburnt, dry neighbours: more room for it to spread further
    v += 0.3 * sum(1 for _, b in g.data.exits[r] if b != SEA and not g.fire[b] and not g.water[b])
    return v


def block_harm(an: Analysis, room: int, other: int) -> float:
    """How much blocking the hatch room-other lengthens the crew's ways to the key rooms."""
    g = an.g
    h = g.data.hatch_between[(room, other)]
    g.blocked[h] = True
    try:
        after = room_distances(g)
    finally:
        g.blocked[h] = False
    return -crew_walk_saved(an, an.dist, after)


__all__ = ["HeuristicBot", "best_plans", "block_harm", "decide", "safe_action", "spread_harm"]
