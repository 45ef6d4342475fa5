"""Turn flow: start of turn, faint check, the Updates phase, deaths and the end of the game."""

from __future__ import annotations

from .data import SEA
from .state import AFTER_ACTION, DECIDE, HIGH, MOVE, OVER, Game, Result


def begin(g: Game) -> None:
    """After setup: the Hardest setup events (R14), then the first turn."""
    if g.config.has("hardest"):
        g.active = g.turn_order()[0]
        g.event_space = g.gnomes[g.active].keeper
        g.setup_events = g.config.gnomes
        _setup_events(g)
    else:
        start_turn(g)


def _setup_events(g: Game) -> None:
    from .events import resolve_event, run_effects

    run_effects(g)
    while g.result is None and not g.pending and g.setup_events > 0:
        g.setup_events -= 1
        resolve_event(g, g.event_space)
    if g.pending:
        g.resume = "setup"
        g.phase = DECIDE
    elif g.result is None:
        start_turn(g)


def start_turn(g: Game) -> None:
    board = g.on_track()
    if not board:
        lose(g, "all_dead")
        return
    movers = [gn for gn in board if gn.keeper > 0]
    if not movers:
        placed = [t for t, space in enumerate(g.tokens) if space >= 0]
        if placed:  # R12: a token left on 0 strikes when the last keeper arrives
            lose(g, g.data.tokens[placed[0]])
        else:
            g.result = Result(True, "rescued")
            g.phase = OVER
            g.say("won")
        return
    gn = max(movers, key=lambda x: (x.keeper, x.arrival))
    g.active = gn.number
    g.turn += 1
    g.ghost = gn.keeper
    g.began_in_sea = gn.room == SEA
    g.played = [0] * len(g.played)
    g.armed_in = []
    g.charms = 0
    g.grog_used = False
    g.skip_check = False
    g.in_updates = False
    g.item_here = False
    g.effects = []
    g.pending = []
    g.phase = MOVE
    g.say("turn", gn.number, gn.keeper)
    if gn.fainted:
        gn.fainted = False
        g.say("stand_up", gn.number)


def after_action(g: Game) -> None:
    """The action is done: the item window stays open while the gnome holds items."""
    if g.result is not None:
        return
    gn = g.gnomes[g.active]
    if not gn.alive:
        end_turn(g)
    elif g.skip_check:
        updates(g)  # ruling P3: the replacement gnome goes straight to the keeper's advance
    elif gn.hand:
        g.phase = AFTER_ACTION
    else:
        finish_turn(g)


def finish_turn(g: Game) -> None:
    """Phase 3 (faint check) then phase 4 (Updates)."""
    from .events import draw_event

    gn = g.gnomes[g.active]
    if g.grog_used:
        card = draw_event(g)
        g.event_discard.append(card)
        faint = g.data.events[card].faint
        fainted = faint is not None and faint <= gn.intoxication
        g.say("faint_check", gn.number, card, gn.intoxication, fainted)
        if fainted:
            gn.fainted = True
            g.ghost = max(0, g.ghost - 10)  # R3
            if gn.room == SEA:
                kill(g, gn.number, "fainted_in_sea")
                if g.result is not None:
                    return
                if not gn.alive:
                    end_turn(g)
                    return
    updates(g)


def updates(g: Game) -> None:
    gn = g.gnomes[g.active]
    g.in_updates = True
    if not g.skip_check:
        cause = ""
        if gn.room == SEA:
            cause = "air" if g.began_in_sea else ""
        elif g.fire[gn.room]:
            cause = "fire"
        elif g.water[gn.room] == HIGH:
            cause = "flood"
        if cause:
            kill(g, gn.number, cause)
    fainted_deaths(g)
    if g.result is None:
        advance(g)


def advance(g: Game) -> None:
    """Move the keeper space by space to the ghost, resolving every icon on the way."""
    from .apply import draw_item
    from .events import resolve_event

    data = g.data
    gn = g.gnomes[g.active]
    while g.result is None:
        if not gn.alive:  # the active gnome died: the ghost is removed, no further events
            end_turn(g)
            return
        if g.item_here:
            g.item_here = False
            card = draw_item(g)
            if card >= 0:
                gn.hand.append(card)
            g.say("item_icon", gn.number, gn.keeper, card)
            continue
        if gn.keeper <= g.ghost:
            break
        gn.keeper -= 1
        loss_checks(g)
        g.item_here = gn.keeper in data.item_icons
        if gn.keeper in data.event_icons:
            if g.charms:
                g.charms -= 1
                g.say("charm", gn.number, gn.keeper)
            else:
                resolve_event(g, gn.keeper)
                if g.pending:
                    g.resume = "updates"
                    g.phase = DECIDE
                    return
    if g.result is None:
        g.arrivals += 1
        gn.arrival = g.arrivals  # a keeper ending on an occupied space goes on top
        end_turn(g)


def continue_after_decisions(g: Game) -> None:
    """All pending decisions are made: carry on where the rules left off."""
    from .events import run_effects

    if g.resume == "action":
        after_action(g)
    elif g.resume == "setup":
        _setup_events(g)
    else:
        fainted_deaths(g)
        run_effects(g)
        if g.pending:
            g.phase = DECIDE
        elif g.result is None:
            advance(g)


def end_turn(g: Game) -> None:
    loss_checks(g)
    if g.result is None:
        start_turn(g)


def fainted_deaths(g: Game) -> None:
    """During any Updates phase a fainted gnome in a burning or high-water room dies at once."""
    for gn in g.gnomes:
        if gn.on_board and gn.fainted and gn.room != SEA:
            if g.fire[gn.room]:
                kill(g, gn.number, "fire")
            elif g.water[gn.room] == HIGH:
                kill(g, gn.number, "flood")


def kill(g: Game, number: int, cause: str) -> None:
    """A gnome dies: its items are discarded; Less Deadly Death sends a new gnome instead."""
    gn = g.gnomes[number]
    g.say("death", number, cause, gn.room)
    g.item_discard.extend(gn.hand)
    gn.hand = []
    gn.fainted = False
    gn.drew_room = -1
    if g.config.has("less-deadly-death"):
        gn.intoxication = 0
        gn.room = g.rng.die()
        g.say("replacement", number, gn.room)
        if number == g.active and not g.in_updates:
            g.skip_check = True
        return
    gn.alive = False
    gn.room = -1
    loss_checks(g)


def loss_checks(g: Game) -> None:
    """R9: the immediate losses — every keeper past a token, or no gnome left aboard."""
    if g.result is not None:
        return
    board = g.on_track()
    if not board:
        lose(g, "all_dead")
        return
    top = max(gn.keeper for gn in board)  # every keeper has passed a token beyond the top one
    for t, space in enumerate(g.tokens):
        if space >= 0 and space > top:
            lose(g, g.data.tokens[t])
            return


def lose(g: Game, cause: str) -> None:
    g.result = Result(False, cause)
    g.phase = OVER
    g.pending = []
    g.effects = []
    g.say("lost", cause)


def outcome(g: Game, number: int) -> bool | None:
    """Whether gnome ``number``'s player won (None while the game goes on). A gnome that
    abandoned its comrades wins exactly when the crew loses."""
    if g.result is None:
        return None
    return g.result.won != g.gnomes[number].abandoned


__all__ = ["AFTER_ACTION", "begin", "start_turn", "after_action", "finish_turn", "kill",
           "loss_checks", "lose", "outcome", "end_turn", "continue_after_decisions"]
