"""Deaths (§10) and the losses that strike at once (§11, R9), and who won (§11)."""

from __future__ import annotations

from .data import SEA
from .state import HIGH, OVER, Result, State


def fainted_deaths(g: State) -> None:
    """During any Updates phase a fainted gnome in a burning or high-water room dies at once."""
    for gn in g.gnomes:
        if gn.fainted and gn.alive and not gn.abandoned and gn.room != SEA:  # on_board, inlined
            if g.fire[gn.room]:
                kill(g, gn.number, "fire")
            elif g.water[gn.room] == HIGH:
                kill(g, gn.number, "flood")


def kill(g: State, number: int, cause: str) -> None:
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


def loss_checks(g: State) -> None:
    """R9: the immediate losses — every keeper past a token, or no gnome left aboard."""
    if g.result is not None:
        return
    tokens = g.tokens
    placed = False
    for space in tokens:
        if space >= 0:
            placed = True
            break
    if not placed:  # no token on the track (the usual case): only "all dead" can strike
        for gn in g.gnomes:
            if gn.alive and not gn.abandoned:
                return
        lose(g, "all_dead")
        return
    aboard = False
    top = 0  # the furthest keeper on the track: every keeper has passed a token beyond it
    for gn in g.gnomes:  # a loop, not max(genexpr) over on_track(): cheaper compiled
        if gn.alive and not gn.abandoned:
            top = gn.keeper if not aboard or gn.keeper > top else top
            aboard = True
    if not aboard:
        lose(g, "all_dead")
        return
    for t, space in enumerate(tokens):
        if space >= 0 and space > top:
            lose(g, g.data.tokens[t])
            return


def lose(g: State, cause: str) -> None:
    g.result = Result(False, cause)
    g.phase = OVER
    g.pending = []
    g.effects = []
    g.say("lost", cause)


def outcome(g: State, number: int) -> bool | None:
    """Whether gnome ``number``'s player won (None while the game goes on). A gnome that
    abandoned its comrades wins exactly when the crew loses; a dead gnome's player shares the
    crew's result (P23)."""
    if g.result is None:
        return None
    return g.result.won != g.gnomes[number].abandoned
