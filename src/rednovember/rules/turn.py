"""The turn driver: the one place that decides what happens next.

After setup (Hardest's setup events, R14) it starts each turn with the gnome furthest back; after
the action it runs the faint check (phase 3) and the Updates phase (phase 4): the death check, the
keeper's walk to the ghost with the event cards and items it meets (the event handlers live in
:mod:`rednovember.rules.events`), and the end of the game. Pending decisions pause it; it resumes
where the rules left off (:func:`continue_after_decisions`)."""

from __future__ import annotations

from .data import SEA
from .deaths import fainted_deaths, kill, lose, loss_checks
from .decks import draw_event, draw_item
from .events import run_effect
from .state import AFTER_ACTION, DECIDE, HIGH, MOVE, OVER, Gnome, Result, State


def begin(g: State) -> None:
    """After setup: the Hardest setup events (R14), then the first turn."""
    if g.config.has("hardest"):
        g.active = g.turn_order()[0]
        g.event_space = g.gnomes[g.active].keeper
        g.setup_events = g.config.gnomes
        _setup_events(g)
    else:
        start_turn(g)


def _setup_events(g: State) -> None:
    run_effects(g)
    while g.result is None and not g.pending and g.setup_events > 0:
        g.setup_events -= 1
        resolve_event(g, g.event_space)
    if g.pending:
        g.resume = "setup"
        g.phase = DECIDE
    elif g.result is None:
        start_turn(g)


def start_turn(g: State) -> None:
    # The gnome to move: the furthest back, the top of its stack (the first such, as max() would);
    # one pass over the gnomes, no lists.
    aboard = False
    mover: Gnome | None = None
    for other in g.gnomes:
        if other.alive and not other.abandoned:
            aboard = True
            if other.keeper > 0 and (mover is None or other.keeper > mover.keeper or (
                    other.keeper == mover.keeper and other.arrival > mover.arrival)):
                mover = other
    if not aboard:
        lose(g, "all_dead")
        return
    if mover is None:
        for t, space in enumerate(g.tokens):
            if space >= 0:  # R12: a token left on 0 strikes when the last keeper arrives
                lose(g, g.data.tokens[t])
                return
        g.result = Result(True, "rescued")
        g.phase = OVER
        g.say("won")
        return
    gn = mover
    g.active = gn.number
    g.turn += 1
    g.ghost = gn.keeper
    g.began_in_sea = gn.room == SEA
    for n in g.played:  # fresh lists only when there is something to forget
        if n:
            g.played = [0] * len(g.played)
            break
    if g.armed_in:
        g.armed_in = []
    g.charms = 0
    g.grog_used = False
    g.skip_check = False
    g.in_updates = False
    g.item_here = False
    if g.effects:
        g.effects = []
    if g.pending:
        g.pending = []
    g.phase = MOVE
    g.say("turn", gn.number, gn.keeper)
    if gn.fainted:
        gn.fainted = False
        g.say("stand_up", gn.number)


def after_action(g: State) -> None:
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


def finish_turn(g: State) -> None:
    """Phase 3 (faint check) then phase 4 (Updates)."""
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


def updates(g: State) -> None:
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


def advance(g: State) -> None:
    """Move the keeper space by space to the ghost, resolving every icon on the way."""
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
        g.item_here = data.item_icon_at[gn.keeper]
        if data.event_icon_at[gn.keeper]:
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


def continue_after_decisions(g: State) -> None:
    """All pending decisions are made: carry on where the rules left off."""
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


def end_turn(g: State) -> None:
    loss_checks(g)
    if g.result is None:
        start_turn(g)


# --- event cards -----------------------------------------------------------------------------
def resolve_event(g: State, space: int) -> None:
    """Draw and resolve one event card; ``space`` is where it was drawn (for tokens)."""
    card = draw_event(g)
    info = g.data.events[card]
    harder = info.respite and (g.config.has("harder") or g.config.has("hardest"))
    (g.event_out if harder else g.event_discard).append(card)
    g.say("event", card, space)
    g.event_space = space
    g.effects = list(info.effects)
    run_effects(g)


def run_effects(g: State) -> None:
    """Resolve the current card's remaining effects until one needs a decision."""
    while g.effects and g.result is None and not g.pending:
        effect = g.effects.pop(0)
        run_effect(g, effect)
        if g.in_updates:
            fainted_deaths(g)
        if not g.gnomes[g.active].alive:
            g.effects = []


__all__ = ["AFTER_ACTION", "begin", "start_turn", "after_action", "finish_turn", "end_turn",
           "continue_after_decisions", "resolve_event", "run_effects"]
