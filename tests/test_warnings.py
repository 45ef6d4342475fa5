"""Warnings before harmful choices (issue: see what happens): one test per warning, in the
terminal's words, and the same codes in the web protocol."""

from __future__ import annotations

from helpers import HIGH, arrange, event_turn, give, start

from rednovember.i18n.warnings import action_warnings, warning_texts
from rednovember.rules import Action, Game
from rednovember.terminal.menu import build_menu
from rednovember.web.protocol import action_info


def _codes(g: Game, text: str) -> list[str]:
    action = next(a for a in g.legal_actions() if a.text(g.data) == text)
    return [code for code, _ in action_warnings(action, g)]


def test_opening_into_a_burning_room_says_an_item_is_needed_to_go_in() -> None:
    g = arrange()
    g.fire[5] = True
    give(g, 0, "grog")
    start(g)
    assert _codes(g, "open 5") == ["fire_needs_item"]
    (text,) = warning_texts(Action("open", 5), g)
    assert "burning" in text and "Grog" in text and "Fire Extinguisher" in text
    g.apply_text("play grog")
    assert _codes(g, "open 5") == []  # once a Grog is played the gnome may go in
    g.apply_text("open 5")
    assert _codes(g, "enter") == ["enter_fire"]


def test_opening_next_to_high_water_warns_that_the_room_floods() -> None:
    g = arrange()
    g.water[5] = HIGH
    start(g)
    assert _codes(g, "open 5") == ["floods_here"]
    assert "low water" in warning_texts(Action("open", 5), g)[0]


def test_ending_the_turn_in_fire_or_high_water_is_lethal() -> None:
    g = arrange()
    g.water[6] = HIGH
    give(g, 0, "coffee")
    start(g)
    assert _codes(g, "no_action") == ["dies_in_flood"]
    g.apply_text("no_action")
    assert _codes(g, "end") == ["dies_in_flood"]
    assert any(e.warn and "drowns" in e.label for e in build_menu(g))


def test_extinguish_fire_with_no_way_out_is_lethal_if_it_fails() -> None:
    g = arrange()
    g.gnomes[0].room = 1  # rooms 2 and 3 beyond: both burning, and no item to go through fire
    g.fire[1] = g.fire[2] = g.fire[3] = True
    start(g)
    assert _codes(g, "extinguish_fire 3") == ["no_way_out"]
    info = action_info(Action("extinguish_fire", 0, 3), g)
    assert info["warnings"] == [{"code": "no_way_out"}]


def test_extinguish_fire_with_a_way_out_is_not_flagged() -> None:
    g = arrange()
    g.fire[6] = True
    start(g)
    assert _codes(g, "extinguish_fire 3") == []


def test_fire_spreads_into_a_fainted_gnomes_room_warns_of_its_death() -> None:
    g = arrange()
    g.fire[5] = True
    g.gnomes[1].room = 8
    g.gnomes[1].fainted = True
    event_turn(g, "fire_spreads")
    assert g.pending and g.pending[0].kind == "spread"
    assert _codes(g, "spread 8") == ["spread_fainted"]
    assert _codes(g, "spread 4") == []
    assert "fainted" in warning_texts(Action("spread", 8), g)[0]


def test_attack_and_abandon_warn() -> None:
    g = arrange(variants={"mad-gnomes"})
    g.gnomes[0].room = g.gnomes[1].room = 6
    g.gnomes[2].room = 4
    give(g, 0, "crowbar")
    start(g)
    g.apply_text("play crowbar")
    assert _codes(g, "attack 1") == ["attack"]
    g = arrange()
    g.gnomes[0].room = 0
    g.gnomes[0].keeper = 8
    g.gnomes[1].keeper = g.gnomes[2].keeper = 5
    start(g)
    assert _codes(g, "abandon") == ["abandon"]
