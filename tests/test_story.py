"""The end screen's story (analysis/story.py) checked against the log and final state of real games
played by the heuristic bot, and of arranged positions (a death by fire, Abandon Comrades)."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import arrange, stack_events, start

from rednovember.analysis.story import StoryError, game_story
from rednovember.bots import make_bot, play_out
from rednovember.rules import Config, Game, new_game, outcome
from rednovember.rules.data import REPAIRS, SEA
from rednovember.rules.snapshot import snapshot
from rednovember.rules.state import HIGH

GAMES = [(3, 3, ()), (3, 4, ()), (1, 5, ()), (4, 9, ()), (5, 2, ("less-deadly-death",)),
         (3, 7, ("mad-gnomes", "harder")), (2, 11, ("hardest",))]


def _played(players: int, seed: int, variants: tuple[str, ...] = ()) -> Game:
    g = new_game(Config(players, seed=seed, variants=frozenset(variants)))
    return play_out(g, [make_bot("heuristic", seed * 10 + p) for p in range(players)])


@pytest.fixture(scope="module")
def games() -> list[Game]:
    return [_played(*spec) for spec in GAMES]


def test_games_cover_wins_losses_and_deaths(games: list[Game]) -> None:
    """The sample is worth checking: some won, some lost, some with deaths."""
    assert {g.result.won for g in games if g.result} == {True, False}
    assert any(game_story(g)["deaths"] for g in games)


def test_the_story_agrees_with_the_final_state(games: list[Game]) -> None:
    for g in games:
        s = game_story(g)
        assert g.result is not None
        assert s["result"] == {"won": g.result.won, "cause": g.result.cause}
        start_space = g.data.start_spaces[g.config.gnomes]
        assert s["start"] == start_space
        lowest = min(gn.keeper for gn in g.gnomes)
        rear = max(gn.keeper for gn in g.gnomes if gn.alive and not gn.abandoned)
        if g.result.won:
            assert s["minutes"] == start_space
        else:  # the crew's time when it ended: its rear keeper, never a gnome run ahead
            assert start_space - rear <= s["minutes"] <= start_space - lowest
        assert s["turns"] == g.turn and s["steps"] == len(g.history)
        last = s["timeline"][-1]
        assert last["tracks"] == g.tracks and last["minute"] == s["minutes"]
        assert last["fires"] == sum(g.fire) and last["floods"] == sum(1 for w in g.water if w)
        assert s["timeline"][0] == {"minute": 0, "turn": 1, "tracks": [1, 1, 1], "fires": 0,
                                    "floods": 0} or g.config.has("hardest")
        minutes = [p["minute"] for p in s["timeline"]]
        assert minutes == sorted(minutes) and minutes[0] >= 0 and minutes[-1] <= start_space
        assert all(1 <= v <= s["track_length"] for p in s["timeline"] for v in p["tracks"])
        assert s["tracks"] == list(g.data.tracks)
        for row, gn in zip(s["gnomes"], g.gnomes, strict=True):
            assert (row["number"], row["colour"], row["seat"]) == (gn.number, gn.colour, gn.player)
            assert row["alive"] == gn.alive and row["abandoned"] == gn.abandoned
            assert row["won"] == outcome(g, gn.number)


def test_deaths_are_the_logged_deaths_and_the_dead_gnomes(games: list[Game]) -> None:
    for g in games:
        s = game_story(g)
        logged = [(e[1], e[2], e[3]) for e in g.log if e[0] == "death"]
        assert [(d["gnome"], d["cause"], d["room"]) for d in s["deaths"]] == logged
        if not g.config.has("less-deadly-death"):
            assert {d["gnome"] for d in s["deaths"]} == {gn.number for gn in g.gnomes
                                                         if not gn.alive}
            assert not any(d["replaced"] for d in s["deaths"])
        else:
            assert all(d["replaced"] for d in s["deaths"])
        for d in s["deaths"]:
            assert d["colour"] == g.gnomes[d["gnome"]].colour
            assert 0 <= d["minute"] <= s["minutes"] and 1 <= d["turn"] <= g.turn
        assert [row["deaths"] for row in s["gnomes"]] == [
            sum(1 for d in s["deaths"] if d["gnome"] == gn.number) for gn in g.gnomes]


def test_repairs_items_faints_and_turns_add_up_to_the_log(games: list[Game]) -> None:
    for g in games:
        s = game_story(g)
        repairs = [e for e in g.log if e[0] == "repair"]
        assert list(s["repairs"]) == list(REPAIRS)
        for kind in REPAIRS:
            assert s["repairs"][kind]["tried"] == sum(1 for e in repairs if e[2] == kind)
            assert s["repairs"][kind]["made"] == sum(1 for e in repairs if e[2] == kind and e[6])
        by = Counter(e[1] for e in repairs)
        made = Counter(e[1] for e in repairs if e[6])
        plays = Counter(e[1] for e in g.log if e[0] == "play")
        faints = Counter(e[1] for e in g.log if e[0] == "faint_check" and e[4])
        turns = Counter(e[1] for e in g.log if e[0] == "turn")
        for row in s["gnomes"]:
            n = row["number"]
            assert row["repairs_tried"] == by[n] and row["repairs_made"] == made[n]
            assert row["items_used"] == plays[n] and row["faints"] == faints[n]
            assert row["turns"] == turns[n]
            assert row["repairs_tried"] <= row["actions"] <= row["turns"]
        assert sum(row["turns"] for row in s["gnomes"]) == g.turn


def test_the_story_is_pure_and_needs_a_finished_game(games: list[Game]) -> None:
    g = games[0]
    log, history = list(g.log), list(g.history)
    assert game_story(g) == game_story(g)
    assert g.log == log and g.history == history  # the game itself is untouched
    running = new_game(Config(3, seed=1))
    with pytest.raises(StoryError):
        game_story(running)


def _from_here(g: Game) -> Game:
    """Mark an arranged position as the game's origin (as a scenario does), then start it."""
    g.origin = {"state": snapshot(g), "log": []}
    return start(g)


def test_a_drowning_is_told_with_its_gnome_minute_and_cause() -> None:
    g = arrange()
    g.water[6] = HIGH  # every gnome stands in room 6, keepers on 44, 43, 42
    g.gnomes[1].room = g.gnomes[2].room = 5
    stack_events(g, *["respite"] * 7)
    _from_here(g)
    g.apply_text("no_action")  # gnome 0 stays in the flood: dies in its Updates phase
    assert not g.gnomes[0].alive
    play_out(g, [make_bot("heuristic", 1)] * g.config.players)  # the others play on to the end
    s = game_story(g)
    first = s["deaths"][0]
    assert (first["gnome"], first["cause"], first["room"]) == (0, "flood", 6)
    assert first["minute"] == g.data.start_spaces[3] - 44 and first["turn"] == 1


def test_abandon_comrades_is_in_the_story_with_who_won() -> None:
    g = arrange()
    g.gnomes[0].room = SEA
    g.gnomes[0].keeper = 9
    g.gnomes[1].keeper = 1
    g.gnomes[2].keeper = 0
    _from_here(g)
    g.apply_text("abandon")
    g.apply_text("no_action")
    s = game_story(g)
    assert s["result"] == {"won": True, "cause": "rescued"}
    rows = s["gnomes"]
    assert rows[0]["abandoned"] and rows[0]["won"] is False and rows[0]["actions"] == 1
    assert rows[1]["won"] is True and rows[2]["won"] is True
    assert s["minutes"] == s["start"]


def test_a_lost_game_survives_to_its_rear_keeper_not_to_a_gnome_run_ahead() -> None:
    """R9: Missile Launch! on space 11 strikes when the last keeper passes it; a gnome already on
    space 0 does not make the end screen say the crew survived every minute."""
    g = arrange()
    g.gnomes[0].keeper, g.gnomes[1].keeper, g.gnomes[2].keeper = 12, 9, 0
    g.tokens[g.data.tokens.index("missile_launch")] = 11
    _from_here(g)
    g.apply_text("no_action")  # 12 -> 11: not past the token yet
    assert g.result is None
    g.apply_text("no_action")  # 11 -> 10: every keeper is past it
    assert g.result is not None and g.result.cause == "missile_launch"
    s = game_story(g)
    start_space = g.data.start_spaces[3]
    assert s["minutes"] == start_space - 10 and s["timeline"][-1]["minute"] == start_space - 10
