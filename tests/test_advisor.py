"""The advisor (analysis/advisor.py): the top plans for the seat to move, with their win chance
and why, from that seat's view only; and the terminal's ``hint`` (terminal/hint.py)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from termtools import answers

from rednovember.analysis import advisor
from rednovember.analysis.advisor import MIN_ROUNDS, TIPS, AdvisorError, advise, candidates
from rednovember.bots import make_bot
from rednovember.i18n import catalog
from rednovember.i18n.describe import keeper_walk
from rednovember.rules import Game
from rednovember.rules.action import parse_action
from rednovember.rules.scenario import build
from rednovember.rules.serialize import to_dict
from rednovember.terminal.app import PlayApp
from rednovember.terminal.hint import SURE_ROUNDS, hint_lines
from rednovember.terminal.newgame import Setup
from rednovember.web.protocol import action_info


def oxygen(hand: list[str], variants: tuple[str, ...] = (), others: list[Any] | None = None,
           item_deck: list[str] | None = None) -> Game:
    """Gnome 0 next to nothing but the Oxygen Pumps (room 2), the Asphyxiation track near its
    end: the repair is the turn's job, and a Pump Manual (+4) in hand makes it near certain."""
    spec: dict[str, Any] = {
        "config": {"players": 3, "seed": 4, "variants": list(variants)},
        "position": {"gnomes": [{"room": 2, "keeper": 50, "hand": hand},
                                *[{"keeper": 45 - i, **o} for i, o in enumerate(others or [{}, {}])]],
                     "tracks": {"asphyxiation": 8}}}
    if item_deck is not None:
        spec["item_deck"] = item_deck
    return build(spec)


def test_a_pump_manual_next_to_a_low_oxygen_repair_is_played() -> None:
    g = oxygen(["pump_manual"])
    advice = advise(g, g.player_to_move, rollouts=12, seed=1)
    assert 1 <= len(advice.tips) <= TIPS
    best = advice.tips[0]
    assert best.action.kind == "fix_oxygen_pumps"
    assert best.items == ("pump_manual",)
    assert best.steps[0].kind == "play" and best.steps[-1] == best.action
    chances = [t.chance.chance for t in advice.tips]
    assert chances == sorted(chances, reverse=True)


def test_the_why_fields_are_the_threat_the_repairs_chance_and_the_keepers_icons() -> None:
    g = oxygen(["pump_manual"])
    advice = advise(g, g.player_to_move, rollouts=6, seed=1)
    for tip in advice.tips:
        if tip.action.kind != "fix_oxygen_pumps":
            continue
        assert tip.threat is not None and tip.threat["track"] == "asphyxiation"
        assert tip.threat["level"] == 8
        # the engine's preview after the same plays: chance, ghost and the icons met
        sim = g.copy()
        for a in tip.steps[:-1]:
            sim.apply(a)
        info = action_info(tip.action, sim)
        assert tip.repair_chance == info["chance"]
        assert tip.ghost_after == info["ghost_after"]
        assert tip.meets == info["meets"]
        assert tip.meets == dict(zip(("events", "items"), keeper_walk(sim, tip.ghost_after),
                                     strict=True))
        assert tip.minutes == g.ghost - tip.ghost_after
        assert tip.route == (2,)
        bonus = 4 if "pump_manual" in tip.items else 0
        assert tip.repair_chance == min(10, tip.action.minutes + bonus) * 10


def test_a_walk_to_a_fire_names_the_fire_and_its_route() -> None:
    g = build({"config": {"players": 3, "seed": 4},
               "position": {"gnomes": [{"room": 6, "keeper": 50, "hand": ["fire_extinguisher"]},
                                      {"keeper": 45}, {"keeper": 44}],
                            "fire": [5]}})
    plans = candidates(g, g.player_to_move, 12)
    fires = [p for p in plans if p.action.kind == "extinguish_fire"]
    assert fires
    advice = advise(g, g.player_to_move, rollouts=4, seed=3, n_candidates=12)
    tips = [t for t in advice.tips if t.action.kind == "extinguish_fire"]
    for tip in tips:
        assert tip.threat == {"kind": "fire", "room": tip.route[-1]}
        assert tip.route[0] == 6 and len(tip.route) >= 2


def test_with_a_hatch_open_the_plans_go_through_it_or_stay() -> None:
    """Issue 18 §4: a hint for the whole turn, also once a hatch is open: the plans start by going
    in (here with the Fire Extinguisher played first, as the room beyond burns) or staying."""
    g = build({"config": {"players": 3, "seed": 4},
               "position": {"gnomes": [{"room": 6, "keeper": 50, "hand": ["fire_extinguisher"]},
                                      {"keeper": 45}, {"keeper": 44}],
                            "fire": [5]}})
    g.apply_text("open 5")
    play, enter = parse_action("play fire_extinguisher", g.data), parse_action("enter", g.data)
    plans = candidates(g, 0, 12)
    assert {p.steps[0].kind for p in plans} == {"play", "stay"}
    assert any(p.steps[:2] == (play, enter) and p.action.kind == "extinguish_fire" for p in plans)
    advice = advise(g, 0, rollouts=2, seed=3)
    assert advice.tips
    for tip in advice.tips:
        assert tip.route[0] == 6
        if tip.steps[:2] == (play, enter):
            assert tip.route[1] == 5


def test_hidden_information_is_not_used() -> None:
    # the item deck's order is hidden from every seat: another order, the same advice
    a = oxygen(["pump_manual"], item_deck=["grog", "toolbox"])
    b = oxygen(["pump_manual"], item_deck=["toolbox", "grog"])
    assert a.item_deck != b.item_deck
    da = advise(a, 0, rollouts=4, seed=2).to_dict(a)
    db = advise(b, 0, rollouts=4, seed=2).to_dict(b)
    da.pop("seconds"), db.pop("seconds")
    assert da == db


def test_other_seats_hidden_hands_in_mad_gnomes_do_not_change_the_advice() -> None:
    def game(hand: list[str]) -> Game:
        return oxygen(["pump_manual"], ("mad-gnomes",), [{"hand": hand}, {}])

    a, b = game(["toolbox", "crowbar"]), game(["aqualung", "coffee"])
    assert a.gnomes[1].hand != b.gnomes[1].hand
    da = advise(a, 0, rollouts=4, seed=2).to_dict(a)
    db = advise(b, 0, rollouts=4, seed=2).to_dict(b)
    da.pop("seconds"), db.pop("seconds")
    assert da == db


def test_only_the_seat_to_move_gets_advice_and_the_game_is_not_changed() -> None:
    g = oxygen(["pump_manual"])
    before = g.copy()
    with pytest.raises(AdvisorError) as exc:
        advise(g, 1, rollouts=2)
    assert exc.value.code == "not_your_turn"
    advise(g, 0, rollouts=2)
    assert g.history == before.history and g.gnomes[0].hand == before.gnomes[0].hand
    assert g.item_deck == before.item_deck and g.event_deck == before.event_deck


def test_a_time_budget_stops_after_the_minimum_rounds() -> None:
    g = oxygen([])
    ticks = iter(range(1000))
    done: list[tuple[int, int]] = []
    advice = advise(g, 0, rollouts=30, budget_s=0.5, clock=lambda: float(next(ticks)),
                    progress=lambda d, n: done.append((d, n)))
    assert advice.rounds == MIN_ROUNDS == 2  # the fake clock is past the budget at once
    assert done == [(1, 30), (2, 30)]


def test_a_round_is_not_begun_when_it_would_overrun_the_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    g = oxygen([])
    now = [0.0]
    real = advisor.play_out

    def slow(*args: Any) -> bool | None:  # every rollout takes a tenth of a second
        now[0] += 0.1
        return real(*args)

    monkeypatch.setattr(advisor, "play_out", slow)
    advice = advise(g, 0, rollouts=30, budget_s=1.3, clock=lambda: now[0])
    assert advice.candidates == 4  # a round: 0.4 s
    # rounds end at 0.4, 0.8 and 1.2; a fourth would end at 1.6, past the budget: not begun
    assert advice.rounds == 3 and advice.seconds <= 1.3


# --- the terminal ----------------------------------------------------------------------------------

def test_hint_lines_describe_the_plans_in_the_players_language() -> None:
    g = oxygen(["pump_manual"])
    lines = hint_lines(g, 0, "en", budget_s=0.01)
    text = "\n".join(lines)
    assert lines[0].startswith("Hint for ")
    assert lines[1].startswith("1. Fix Oxygen Pumps")
    assert "Play first: Pump Manual" in text
    assert "Why: the Asphyxiation track is at 8 of" in text and "the repair succeeds" in text
    assert "Win chance after it:" in text and "then the keeper meets" in text
    # issue 18 §10: however short the time, the terminal's advice is never two rollouts' noise
    assert f"{SURE_ROUNDS} rollouts per plan" in text
    assert "2. " in text and "3. " in text
    de = "\n".join(hint_lines(g, 0, "de", budget_s=0.01))
    assert "Siegchance danach" in de and "Warum:" in de
    assert hint_lines(g, 1, "en") == [catalog("en").raw("advisor", "not_now")]


def test_a_hints_wrapped_lines_stay_under_their_plan() -> None:
    """On a narrow terminal a plan's long lines (its walk, its why) wrap under their own text,
    not back at the left edge where the next plan's number stands."""
    g = oxygen(["pump_manual"])
    buf = io.StringIO()
    con = Console(file=buf, width=60, highlight=False, color_system=None)
    setup = Setup(g, {1: make_bot("heuristic", 1), 2: make_bot("heuristic", 2)},
                  {1: "heuristic", 2: "heuristic"})
    assert PlayApp(setup, con, answers(["hint", "quit"])).run() == 0
    out = buf.getvalue()
    hint = out[out.index("The advisor is thinking"):out.index("rollouts per plan")]
    lines = hint.splitlines()[2:-1]  # the plans: between the title and the rollouts' line
    assert any(line.startswith("   Why: ") for line in lines)
    assert len(lines) > 3 * 4  # some lines wrapped
    loose = [line for line in lines if not line.startswith("   ") and not line[:2].rstrip(".").isdigit()]
    assert not loose, out
    assert not [line for line in lines if line.endswith("  ")]  # not padded to the width


def test_hint_in_the_line_mode_prints_the_plans_and_changes_nothing() -> None:
    g = oxygen(["pump_manual"])
    buf = io.StringIO()
    con = Console(file=buf, width=120, highlight=False, color_system=None)
    setup = Setup(g, {1: make_bot("heuristic", 1), 2: make_bot("heuristic", 2)},
                  {1: "heuristic", 2: "heuristic"})
    before = to_dict(g)
    app = PlayApp(setup, con, answers(["hint", "quit"]))
    assert app.run() == 0
    assert to_dict(app.game) == before
    out = buf.getvalue()
    assert "The advisor is thinking" in out and "1. Fix Oxygen Pumps" in out
