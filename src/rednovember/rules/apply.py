"""Applying an action: check it is legal, then carry it out (movement, actions, items, decisions)."""

from __future__ import annotations

from typing import Final

from .action import Action, ActionError
from .data import SEA
from .deaths import kill, loss_checks
from .decks import draw_item
from .events import set_fire
from .legal import enter_cost, escape_rooms, legal_actions, open_refusal, reflow_result
from .state import DECIDE, EXTRA_MOVE, LOW, MOVE, OPENED, State, decision
from .turn import after_action, continue_after_decisions, end_turn, finish_turn


def apply_action(g: State, action: Action | object) -> None:
    if g.result is not None:
        raise ActionError("the game is over")
    if not isinstance(action, Action):
        raise ActionError(f"not an action: {action!r}")
    if not _is_legal(g, action):
        raise ActionError(_why_illegal(g, action))
    g._legal = None
    # What an undo may never cross: chance used, cards drawn, a new turn or another decider
    # (field by field: no tuple to build twice a step).
    rng = g.rng
    hi, lo, forced = rng.hi, rng.lo, len(rng.forced)
    events, items, stock, turn, seat = (len(g.event_deck), len(g.item_deck), g.stock, g.turn,
                                        g.player_to_move)
    g.history.append(action)
    _carry_out(g, action)
    rng = g.rng
    if (rng.lo != lo or rng.hi != hi or len(rng.forced) != forced
            or len(g.event_deck) != events or len(g.item_deck) != items or g.stock != stock
            or g.turn != turn or g.player_to_move != seat):
        g.undo_barrier = len(g.history)


def _is_legal(g: State, action: Action) -> bool:
    """``action in legal_actions(g)``, trying identity first: the actions a player picks from the
    legal list are the very objects in it."""
    legal = legal_actions(g)
    for a in legal:
        if a is action:
            return True
    return action in legal


def _why_illegal(g: State, action: Action) -> str:
    try:
        text = action.text(g.data) if action.kind else repr(action)
    except (IndexError, TypeError):  # e.g. an item index beyond the deck: no text form
        text = repr(action)
    if action.kind == "open" and g.phase == MOVE:
        why = open_refusal(g, action.arg)
        if why:
            return f"'{text}' is not legal: {why}"
    if g.phase == DECIDE:
        d = g.pending[0]
        return f"'{text}' is not legal now: waiting for gnome {d.gnome} to decide ({d.kind})"
    return f"'{text}' is not legal now (phase {g.phase}, gnome {g.active} to act)"


# --- movement --------------------------------------------------------------------------------
def _open(g: State, a: Action) -> None:
    here = g.gnomes[g.active].room
    g.ghost -= 1
    g.opened = a.arg
    g.say("open", g.active, here, a.arg)
    if here != SEA and a.arg != SEA:
        _reflow(g, here, a.arg)
    g.phase = OPENED


def _reflow(g: State, a: int, b: int) -> None:
    """R5: high water flows only into a room with no water at all; water puts fire out."""
    wa, wb = reflow_result(g, a, b)
    if (wa, wb) != (g.water[a], g.water[b]):
        g.water[a], g.water[b] = wa, wb
        for r in (a, b):
            if g.fire[r]:
                g.fire[r] = False
                g.say("fire_out", r)
        g.say("reflow", a, b)


def _enter(g: State, a: Action) -> None:
    gn = g.gnomes[g.active]
    g.ghost -= enter_cost(g, g.opened)
    g.say("enter", g.active, gn.room, g.opened)
    gn.room = g.opened
    g.phase = MOVE


def _stay(g: State, a: Action) -> None:
    g.say("stay", g.active)
    g.phase = MOVE


def _exit(g: State, a: Action) -> None:
    """The forced move out of a burning room after a failed Extinguish Fire."""
    gn = g.gnomes[g.active]
    here = gn.room
    g.ghost -= 1  # open, let the water reflow, go through: as _open then _enter
    g.say("open", g.active, here, a.arg)
    if a.arg != SEA:
        _reflow(g, here, a.arg)
    g.ghost -= enter_cost(g, a.arg)
    g.say("enter", g.active, here, a.arg)
    gn.room = a.arg
    after_action(g)


# --- items -----------------------------------------------------------------------------------
def _play(g: State, a: Action) -> None:
    gn = g.gnomes[g.active]
    item = g.data.items[a.arg]
    gn.hand.remove(a.arg)
    g.item_discard.append(a.arg)
    g.played[a.arg] += 1
    g.say("play", g.active, a.arg)
    if item.intoxication:
        gn.intoxication = max(0, min(4, gn.intoxication + item.intoxication))
    if item.faint_check:
        g.grog_used = True
    g.charms += item.ignore_event_icons
    if item.enables_attack and gn.room not in g.armed_in:
        g.armed_in.append(gn.room)  # R17
    if g.phase == EXTRA_MOVE and not can_escape(g):
        kill(g, g.active, "trapped")  # P8: no way out and no held item could open one
        after_action(g)


# --- actions ---------------------------------------------------------------------------------
NO_LOW_WATER_PENALTY: Final = frozenset({"pump_water", "extinguish_fire", "kill_kraken", "no_action"})


def low_water_penalty(g: State, kind: str) -> int:
    """The 2 extra minutes an action costs the active gnome in a low-water room (0 elsewhere)."""
    room = g.gnomes[g.active].room
    return 2 if kind not in NO_LOW_WATER_PENALTY and room != SEA and g.water[room] == LOW else 0


def _pay(g: State, minutes: int, kind: str) -> None:
    gn = g.gnomes[g.active]
    g.ghost -= minutes + low_water_penalty(g, kind)
    if gn.drew_room >= 0 and gn.room != gn.drew_room:  # R10
        gn.drew_room = -1


def _repair(g: State, a: Action) -> None:
    kind = a.kind
    _pay(g, a.minutes, kind)
    target = a.minutes + g.bonus(kind)
    doomed = is_doomed(g, kind, g.ghost)
    roll = g.rng.die()
    success = roll <= target and not doomed
    hatch = a.arg if kind == "unblock_hatch" else -1  # the room beyond the hatch, for the log
    g.say("repair", g.active, kind, a.minutes, target, roll, success, doomed, hatch)
    if success:
        _repaired(g, a)
    if kind == "extinguish_fire" and not success:
        _must_leave(g)
        return
    after_action(g)


def doomed_token(g: State, kind: str, ghost_after: int) -> int:
    """R7: the token a room repair would clear but cannot, as the ghost has passed it; else -1."""
    rep = g.data.room_repairs.get(kind)
    if rep is None or rep.token < 0:
        return -1
    space = g.tokens[rep.token]
    return rep.token if space >= 0 and ghost_after < space else -1


def is_doomed(g: State, kind: str, ghost_after: int) -> bool:
    """R7 (amended): a repair that belongs to a destruction token fails automatically, entirely
    (its track is not reset either), when with the ghost on ``ghost_after`` it has passed it."""
    return doomed_token(g, kind, ghost_after) >= 0


def _repaired(g: State, a: Action) -> None:
    gn = g.gnomes[g.active]
    room = gn.room
    kind = a.kind
    if kind == "extinguish_fire":
        g.fire[room] = False
    elif kind == "pump_water":
        g.water[room] = 0
    elif kind == "unblock_hatch":
        g.blocked[g.data.hatch_between[(room, a.arg)]] = False
    else:
        rep = g.data.room_repairs[kind]
        if rep.track >= 0:
            pos = g.tracks[rep.track]
            stars = [s for s in g.data.reset_stars if s < pos] or [1]
            g.tracks[rep.track] = stars[-1]
            g.say("track_reset", rep.track, g.tracks[rep.track])
        if rep.token >= 0 and g.tokens[rep.token] >= 0:
            g.tokens[rep.token] = -1
            g.say("token_cleared", rep.token)


def _must_leave(g: State) -> None:
    if can_escape(g):
        g.phase = EXTRA_MOVE  # P8: a way out, now or through an item the gnome may still play
        return
    kill(g, g.active, "trapped")
    after_action(g)


def can_escape(g: State) -> bool:
    """P8: after a failed Extinguish Fire, could the active gnome get out (now, or by playing an
    item it holds)? Otherwise it dies at once."""
    return bool(escape_rooms(g)) or _way_out_items(g)


def _way_out_items(g: State) -> bool:
    """P8: does the active gnome hold an item that could open a way out of the burning room?"""
    items = g.data.items
    hand = [k for k in g.gnomes[g.active].hand if items[k].enters_fire or items[k].enables_sea]
    if not hand:
        return False
    saved = g.played[:]  # try it: as if every such item were played now
    for k in hand:
        g.played[k] += 1
    try:
        return bool(escape_rooms(g))
    finally:
        g.played = saved


def _draw(g: State, a: Action) -> None:
    _pay(g, a.arg, "draw")
    gn = g.gnomes[g.active]
    source = g.data.draw_rooms[gn.room][0]
    drawn: list[int] = []
    for _ in range(a.arg):
        if source == "captains_stock":
            g.stock -= 1
            drawn.append(g.data.stock_item)
        else:
            card = draw_item(g)
            if card >= 0:
                drawn.append(card)
    gn.hand.extend(drawn)
    gn.drew_room = gn.room
    if source == "captains_stock":  # the stock is public: everyone sees the Grog taken
        g.say("draw_stock", g.active, len(drawn))
    else:
        g.say("draw", g.active, tuple(drawn))
    after_action(g)


def _trade(g: State, a: Action) -> None:
    _pay(g, 1, "trade")
    g.say("trade", g.active, a.arg)
    g.pending = [decision("give", g.active, a.arg), decision("give", a.arg, g.active)]
    g.resume = "action"
    g.phase = DECIDE


def _attack(g: State, a: Action) -> None:
    _pay(g, 1, "attack")
    g.say("attack", g.active, a.arg)
    if g.data.item_index["crowbar"] not in g.gnomes[a.arg].hand:  # P9: no Crowbar, no decision
        g.say("no_defence", a.arg)
        _slay(g, g.active, a.arg)
        return
    g.pending = [decision("defend", a.arg, g.active)]
    g.resume = "action"
    g.phase = DECIDE


def _no_action(g: State, a: Action) -> None:
    _pay(g, 1, "no_action")
    g.say("no_action", g.active)
    after_action(g)


def _abandon(g: State, a: Action) -> None:
    gn = g.gnomes[g.active]
    g.ghost = 0
    gn.abandoned = True
    g.item_out.extend(gn.hand)
    gn.hand = []
    g.say("abandon", g.active)
    loss_checks(g)
    if g.result is None:
        end_turn(g)


def _end(g: State, a: Action) -> None:
    finish_turn(g)


# --- decisions -------------------------------------------------------------------------------
def _discard(g: State, a: Action) -> None:
    d = g.pending[0]
    gn = g.gnomes[d.gnome]
    gn.hand.remove(a.arg)
    g.item_discard.append(a.arg)
    g.say("discard", d.gnome, a.arg)
    if len(gn.hand) <= d.info:
        _decided(g)


def _keep(g: State, a: Action) -> None:
    d = g.pending[0]
    gn = g.gnomes[d.gnome]
    gn.hand.remove(a.arg)
    g.item_discard.extend(gn.hand)
    g.say("stumble", d.gnome, a.arg, tuple(gn.hand))
    gn.hand = [a.arg]
    _decided(g)


def _give(g: State, a: Action) -> None:
    d = g.pending[0]
    g.gnomes[d.gnome].hand.remove(a.arg)
    g.gnomes[d.info].hand.append(a.arg)
    g.say("give", d.gnome, d.info, a.arg)


def _done(g: State, a: Action) -> None:
    _decided(g)


def _spread(g: State, a: Action) -> None:
    set_fire(g, a.arg, "fire_spreads")
    _decided(g)


def _block(g: State, a: Action) -> None:
    d = g.pending[0]
    g.blocked[g.data.hatch_between[(d.info, a.arg)]] = True
    g.say("hatch_blocked", d.info, a.arg)
    _decided(g)


def _defend(g: State, a: Action) -> None:
    d = g.pending.pop(0)
    defender, attacker = g.gnomes[d.gnome], g.gnomes[d.info]
    crowbar = g.data.item_index["crowbar"]
    defender.hand.remove(crowbar)
    g.item_discard.append(crowbar)
    ra, rd = g.rng.die(), g.rng.die()
    sa, sd = ra - attacker.intoxication, rd - defender.intoxication
    g.say("fight", attacker.number, ra, sa, defender.number, rd, sd)
    winner, loser = (attacker, defender) if sa >= sd else (defender, attacker)
    _slay(g, winner.number, loser.number)


def _yield(g: State, a: Action) -> None:
    d = g.pending.pop(0)
    g.say("no_defence", d.gnome)
    _slay(g, d.info, d.gnome)


def _slay(g: State, winner: int, loser: int) -> None:
    """Mad Gnomes: the winner takes the loser's items, then the loser dies; the action is done."""
    w, lo = g.gnomes[winner], g.gnomes[loser]
    w.hand.extend(lo.hand)
    g.say("loot", winner, loser, tuple(lo.hand))
    lo.hand = []
    kill(g, loser, "attacked")
    after_action(g)


def _decided(g: State) -> None:
    if g.result is not None:
        return  # the decision ended the game (e.g. a spread fire filled Asphyxiation)
    g.pending.pop(0)
    if not g.pending:
        continue_after_decisions(g)


def _carry_out(g: State, a: Action) -> None:
    """Call the action's handler (a chain of tests, the most frequent kinds first: compiled, each
    handler is then a direct call, not a call through a dict of Python callables)."""
    kind = a.kind
    if kind == "open":
        _open(g, a)
    elif kind == "play":
        _play(g, a)
    elif kind == "stay":
        _stay(g, a)
    elif kind == "end":
        _end(g, a)
    elif kind == "enter":
        _enter(g, a)
    elif kind == "no_action":
        _no_action(g, a)
    elif kind == "done":
        _done(g, a)
    elif kind == "block":
        _block(g, a)
    elif kind == "trade":
        _trade(g, a)
    elif kind == "give":
        _give(g, a)
    elif kind == "draw":
        _draw(g, a)
    elif kind == "spread":
        _spread(g, a)
    elif kind == "exit":
        _exit(g, a)
    elif kind == "keep":
        _keep(g, a)
    elif kind == "discard":
        _discard(g, a)
    elif kind == "abandon":
        _abandon(g, a)
    elif kind == "attack":
        _attack(g, a)
    elif kind == "defend":
        _defend(g, a)
    elif kind == "yield":
        _yield(g, a)
    else:  # the repairs
        _repair(g, a)


__all__ = ["apply_action", "can_escape", "doomed_token", "is_doomed", "low_water_penalty"]
