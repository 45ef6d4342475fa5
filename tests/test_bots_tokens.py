"""Bots prepare for the destruction tokens still in the event deck (issue 21): Missile Launch! in
the deck makes Missile Control's way, fire and water matter before the token is on the track.
Only public facts count: the discard pile tells which cards the deck may still hold."""

from __future__ import annotations

from helpers import arrange, block, give, start

from rednovember.bots.heuristic import best_plans
from rednovember.bots.leaf import coming_failure, evaluate
from rednovember.bots.planning import Analysis
from rednovember.bots.plans import _fire_value, _unblock_value
from rednovember.rules import Game

MISSILE_CONTROL = 7


def position(missile_in_deck: bool, fire: bool = False, walled_off: bool = False) -> Game:
    """4 gnomes in room 6, gnome 0 in the Equipment Stores (8) next to Missile Control with a Fire
    Extinguisher; with ``missile_in_deck`` False both Missile Launch cards lie in the discards."""
    g = arrange(players=4)
    if not missile_in_deck:
        for c, ev in enumerate(g.data.events):
            if ev.kind == "missile_launch":
                g.event_deck.remove(c)
                g.event_discard.append(c)
    g.gnomes[0].room = 8
    give(g, 0, "fire_extinguisher")
    g.fire[MISSILE_CONTROL] = fire
    if walled_off:
        for other in (5, 8, 9):
            block(g, MISSILE_CONTROL, other)
    return start(g)


def missile(g: Game) -> int:
    return g.data.tokens.index("missile_launch")


def test_token_soon_reads_the_public_piles() -> None:
    live = Analysis.of(position(True), 0, 0)
    gone = Analysis.of(position(False), 0, 0)
    assert 0.2 < live.token_soon[missile(live.g)] < 1.0
    assert gone.token_soon[missile(gone.g)] == 0.0
    # Engine Failure is in both decks: a little likelier in the smaller one
    crushed = live.g.data.tokens.index("crushed")
    assert 0.0 < live.token_soon[crushed] < gone.token_soon[crushed]
    assert live.key_weight[MISSILE_CONTROL] > gone.key_weight[MISSILE_CONTROL] + 1.0


def test_R12_a_token_card_late_in_the_game_is_no_threat() -> None:
    g = position(True)
    for gn in g.gnomes:  # every icon left lies within 10 spaces of 0: the token would be ignored
        gn.keeper = min(gn.keeper, 9)
    assert Analysis.of(g, 0, 0).token_soon[missile(g)] == 0.0


def test_fire_in_missile_control_matters_more_while_missile_launch_may_come() -> None:
    live = Analysis.of(position(True, fire=True), 0, 0)
    gone = Analysis.of(position(False, fire=True), 0, 0)
    assert _fire_value(live, MISSILE_CONTROL) > _fire_value(gone, MISSILE_CONTROL) + 3.0


def test_heuristic_puts_out_missile_control_before_the_token_comes() -> None:
    live = best_plans(position(True, fire=True), 0, limit=3)[0]
    assert (live.action.kind, live.target) == ("extinguish_fire", MISSILE_CONTROL)
    # the same position with both Missile Launch cards discarded: drawing items comes first
    gone = best_plans(position(False, fire=True), 0, limit=3)[0]
    assert gone.action.kind != "extinguish_fire"


def test_opening_the_way_to_missile_control_is_worth_more_while_the_card_is_in_the_deck() -> None:
    live = position(True, walled_off=True)
    gone = position(False, walled_off=True)
    h = live.data.hatch_between[(MISSILE_CONTROL, 8)]
    assert _unblock_value(Analysis.of(live, 0, 0), h) > _unblock_value(Analysis.of(gone, 0, 0), h)


def test_search_evaluate_fears_a_burning_missile_control_only_while_the_card_may_come() -> None:
    def drop(missile_in_deck: bool) -> float:
        calm = evaluate(position(missile_in_deck), 0)
        burning = evaluate(position(missile_in_deck, fire=True), 0)
        return calm - burning

    assert drop(True) > drop(False) + 0.03
    live = Analysis.of(position(True, walled_off=True), 0, 0)
    assert coming_failure(live) > coming_failure(Analysis.of(position(True), 0, 0)) + 0.2
