"""Warnings before harmful choices (issue: see what happens): one test per warning, in the
terminal's words, and the same codes in the web protocol."""

from __future__ import annotations

from helpers import HIGH, arrange, event_turn, give, start

from rednovember.i18n.warnings import LETHAL, action_warnings, loss_warning, warning_texts
from rednovember.rules import SEA, Action, Game
from rednovember.rules.state import AFTER_ACTION
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


def test_opening_to_the_sea_says_an_aqualung_is_needed_to_go_out() -> None:
    """§4: leaving to the Sea needs an Aqualung played this turn; without one the opened hatch
    leads nowhere and its minute is lost."""
    g = arrange()
    g.gnomes[0].room = 3  # room 3 has an exterior hatch
    give(g, 0, "aqualung")
    start(g)
    assert _codes(g, Action("open", SEA).text(g.data)) == ["sea_needs_item"]
    (text,) = warning_texts(Action("open", SEA), g)
    assert "Sea" in text and "Aqualung" in text
    assert any(e.warn and "Aqualung" in e.label for e in build_menu(g))
    g.apply_text("play aqualung")
    assert _codes(g, Action("open", SEA).text(g.data)) == []  # now the gnome may swim out


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


# --- a choice that loses the game at once (issue 18 §9, R9/R12) --------------------------------
def _loss(g: Game, text: str) -> str | None:
    action = next(a for a in g.legal_actions() if a.text(g.data) == text)
    w = loss_warning(action, g)
    return None if w is None else w[0]


def _missile_at(space: int, keeper: int) -> Game:
    """Gnome 0 moves first from ``keeper``; the others are past ``space``; Missile Launch there."""
    g = arrange()
    g.gnomes[0].keeper = keeper
    g.gnomes[1].keeper, g.gnomes[2].keeper = space - 2, space - 3
    g.tokens[g.data.tokens.index("missile_launch")] = space
    return start(g)


def test_r9_no_action_past_the_last_token_warns_that_it_strikes() -> None:
    """Issue 18: Blue's keeper on 23 with the Missile Launch token on 23, every other keeper
    past it: any action walks it past the token, the game is lost at once, and says so."""
    g = _missile_at(23, 23)
    assert _codes(g, "no_action") == ["loses_token"]
    (text,) = warning_texts(Action("no_action"), g)
    assert "loses the game" in text and "Missile Launch" in text and "23" in text
    assert "loses_token" in LETHAL
    g.apply_text("no_action")
    assert g.result is not None and g.result.cause == "missile_launch"


def test_r9_only_the_choices_that_pass_the_token_are_flagged() -> None:
    g = _missile_at(22, 24)
    assert _loss(g, "no_action") is None  # the ghost ends on 23: the keeper stays before it
    assert _loss(g, "open 5") is None  # 23 left: one more minute still stops on 22
    g.apply_text("open 5")
    assert _loss(g, "enter") is None and _loss(g, "stay") is None  # entering a dry room is free
    g.apply_text("enter")
    assert _loss(g, "open 6") == "loses_token"  # 22 left, and any action costs a minute more
    assert _loss(g, "no_action") is None
    g.apply_text("no_action")
    assert g.result is None  # the keeper stopped on 22: the token has not struck


def test_r9_a_grouped_repair_says_from_how_many_minutes_it_loses() -> None:
    """The terminal's menu lists a repair once for all its minute counts: only the counts that
    walk the last keeper past the token lose, and the warning says from which count on."""
    g = _missile_at(22, 30)
    g.water[g.gnomes[0].room] = 1  # low water: Pump Water, 1-10 minutes, no penalty (§5)
    start(g)
    pump = [a for a in g.legal_actions() if a.kind == "pump_water"]
    assert [loss_warning(a, g) is not None for a in pump] == [a.minutes >= 9 for a in pump]
    (entry,) = [e for e in build_menu(g) if e.actions[0].kind == "pump_water"]
    assert entry.warn and "⚠ (9 min or more) This loses the game" in entry.label
    (german,) = [e for e in build_menu(g, "de") if e.actions[0].kind == "pump_water"]
    assert "⚠ (ab 9 Min.)" in german.label


def test_r9_a_keeper_still_behind_the_token_keeps_it_from_striking() -> None:
    g = _missile_at(23, 23)
    g.gnomes[1].keeper = 23  # another keeper has not passed it yet
    assert _codes(g, "no_action") == []


def test_r12_a_token_on_0_strikes_when_the_last_keeper_reaches_it() -> None:
    g = arrange()
    g.gnomes[0].keeper = 1
    g.gnomes[1].keeper = g.gnomes[2].keeper = 0
    g.tokens[g.data.tokens.index("kraken")] = 0
    start(g)
    assert _loss(g, "no_action") == "loses_token"
    g.apply_text("no_action")
    assert g.result is not None and not g.result.won


def test_r9_a_spread_that_fills_asphyxiation_is_flagged_whatever_the_room() -> None:
    """Every room the fire may spread to fills the track: each choice says the game is lost."""
    g = arrange()
    g.fire[5] = True
    g.tracks[0] = g.data.track_length - 1
    event_turn(g, "fire_spreads")
    assert g.pending and g.pending[0].kind == "spread"
    assert len(g.legal_actions()) > 1
    assert all(_loss(g, a.text(g.data)) == "loses_track" for a in g.legal_actions())
    (text,) = [t for t in warning_texts(g.legal_actions()[0], g) if "loses" in t]
    assert "Asphyxiation" in text
    g.apply(g.legal_actions()[0])
    assert g.result is not None and g.result.cause == "asphyxiation"


def test_r9_a_spread_with_room_to_spare_is_not_flagged() -> None:
    g = arrange()
    g.fire[5] = True
    g.tracks[0] = g.data.track_length - 2
    event_turn(g, "fire_spreads")
    assert all(_loss(g, a.text(g.data)) is None for a in g.legal_actions())


def _last_aboard(variants: set[str] | None = None) -> Game:
    """Gnome 0 alone aboard (the others died earlier), in room 6."""
    g = arrange(variants=variants or set())
    for gn in g.gnomes[1:]:
        gn.alive, gn.room = False, -1
    return g


def test_r9_ending_the_turn_in_high_water_as_the_last_gnome_loses_the_game() -> None:
    g = _last_aboard()
    g.water[6] = HIGH
    give(g, 0, "coffee")
    start(g)
    assert _codes(g, "no_action") == ["dies_in_flood", "loses_crew"]
    g.apply_text("no_action")  # the gnome still holds an item: the turn ends with "end"
    assert _codes(g, "end") == ["dies_in_flood", "loses_crew"]
    assert "no gnome" in warning_texts(Action("end"), g)[1]
    g.apply_text("end")
    assert g.result is not None and g.result.cause == "all_dead"


def test_r9_the_last_gnome_dying_is_flagged_even_through_a_faint_check() -> None:
    """A Grog played this turn draws a faint check card before the death check: chance that does
    not change the outcome, so the loss is still certain."""
    g = _last_aboard()
    g.water[6] = HIGH
    give(g, 0, "grog")
    start(g)
    g.apply_text("play grog")
    assert _loss(g, "no_action") == "loses_crew"
    g.apply_text("no_action")
    if g.phase == AFTER_ACTION:
        g.apply_text("end")
    assert g.result is not None and g.result.cause == "all_dead"


def test_r9_with_another_gnome_aboard_dying_does_not_lose_the_game() -> None:
    g = arrange()
    g.water[6] = HIGH
    g.gnomes[1].room = g.gnomes[2].room = 5
    start(g)
    assert _codes(g, "no_action") == ["dies_in_flood"]


def test_r9_less_deadly_death_replaces_the_last_gnome() -> None:
    g = _last_aboard({"less-deadly-death"})
    g.water[6] = HIGH
    start(g)
    assert _codes(g, "no_action") == ["dies_in_flood"]


def test_r9_a_repair_that_may_fail_is_never_flagged_and_reveals_no_roll() -> None:
    """Whatever the die will show, a repair is not a certain loss: the seeded future is not told
    (the last gnome in a burning room with no way out: death only if the die fails)."""
    g = _last_aboard()
    g.gnomes[0].room = 1
    g.fire[1] = g.fire[2] = g.fire[3] = True
    start(g)
    repairs = [a for a in g.legal_actions() if a.kind == "extinguish_fire"]
    assert repairs and all(loss_warning(a, g) is None for a in repairs)
    assert [c for c, _ in action_warnings(repairs[0], g)] == ["no_way_out"]


def test_r9_the_web_protocol_carries_the_loss_warning() -> None:
    g = _missile_at(23, 23)
    info = action_info(Action("no_action"), g)
    assert {"code": "loses_token", "token": 2, "space": 23} in info["warnings"]


def test_r9_the_last_gnome_out_of_air_in_the_sea_loses_the_game() -> None:
    """A gnome that began its turn in the Sea and ends it there drowns (§10): the last one aboard
    loses the game, even with a faint check drawn first (a Grog played)."""
    g = _last_aboard()
    g.gnomes[0].room = SEA
    give(g, 0, "grog")
    start(g)
    g.apply_text("play grog")
    assert _loss(g, "no_action") == "loses_crew"
    g.apply_text("no_action")
    if g.phase == AFTER_ACTION:
        g.apply_text("end")
    assert g.result is not None and g.result.cause == "all_dead"
