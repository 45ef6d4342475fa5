"""The terminal game, scripted: bots, a human answering from a list, save/load, bad input."""

from __future__ import annotations

import itertools
import json
import random
from argparse import Namespace
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import arrange, event_turn, give, item
from termtools import answers, console

from rednovember.cli import main
from rednovember.i18n import catalog
from rednovember.rules import VARIANTS, Config, new_game
from rednovember.rules.serialize import to_dict, to_json
from rednovember.terminal import board
from rednovember.terminal.app import PlayApp, play
from rednovember.terminal.menu import build_menu
from rednovember.terminal.newgame import (
    DEFAULT_BOT,
    Setup,
    SetupError,
    load_setup,
    new_setup,
    parse_bots,
)


def ones() -> Callable[[str], str]:
    """Answers "1", "1", "0" over and over ("0" ends the turn where "1" is not a choice, and
    goes back from a minutes list, where the next "1" picks again); leaves the final review."""
    cycle = itertools.cycle(["1", "1", "0"])

    def ask(prompt: str) -> str:
        return "quit" if "Review" in prompt else next(cycle)

    return ask


pytestmark = pytest.mark.usefixtures("autosave")  # tests/conftest.py


def args(**kw: object) -> Namespace:
    base: dict[str, object] = {"players": 3, "gnomes": None, "variant": [], "seed": 1, "bot": [],
                               "load": None, "lang": "en"}
    base.update(kw)
    return Namespace(**base)


@pytest.mark.parametrize(("players", "variants", "seed"), [
    (3, [], 1), (4, ["harder"], 2), (5, ["mad-gnomes"], 3), (6, ["less-deadly-death"], 4),
    (1, [], 5), (2, ["hardest"], 6), (8, [], 7),
])
def test_all_bots_game_ends_with_a_result(players: int, variants: list[str], seed: int) -> None:
    con, buf = console()
    bots = [f"{s}=random" for s in range(1, players + 1)]
    rc = play(args(players=players, variant=variants, seed=seed, bot=bots), con, answers([]))
    out = buf.getvalue()
    assert rc == 0
    assert "Game over" in out
    assert ("The crew is rescued" in out) or ("The submarine is lost" in out)
    assert "turn, from space" in out  # the bots' moves are shown as they happen
    assert "{" not in out


@pytest.mark.parametrize(("variants", "bots", "seed"), [
    ([], ["2=random", "3=random"], 4),
    (["hardest"], ["3=random"], 5),
    (["mad-gnomes"], ["3=random"], 6),
    (["less-deadly-death", "harder"], [], 7),
])
def test_human_always_choosing_one_plays_to_the_end(variants: list[str], bots: list[str],
                                                    seed: int) -> None:
    con, buf = console()
    setup = new_setup(args(seed=seed, bot=bots, variant=variants), con, answers([]), catalog())
    app = PlayApp(setup, con, ones())
    assert app.run() == 0
    out = buf.getvalue()
    assert app.game.is_over
    assert "Game over" in out and "Red (Player 1)" in out
    assert "Since you last acted" in out and "Time track" in out and "Submarine" in out


def test_hotseat_humans_random_answers() -> None:
    """Three humans answering random numbers of the main menu (in a minutes sub-menu a too
    large number is refused and asked again) play a whole game."""
    con, buf = console()
    setup = new_setup(args(seed=9, variant=["less-deadly-death"]), con, answers([]), catalog())
    rng = random.Random(9)
    calls = itertools.count()

    def ask(prompt: str) -> str:
        assert next(calls) < 50_000
        if app.game.is_over:
            return "quit"
        return str(rng.randint(0, len(build_menu(app.game))))

    app = PlayApp(setup, con, ask)
    assert app.run() == 0
    assert app.game.is_over
    assert "How many minutes" in buf.getvalue()


def test_invalid_input_reprompts_without_changing_the_state(tmp_path: Path) -> None:
    con, buf = console()
    setup = new_setup(args(seed=2), con, answers([]), catalog())
    before = to_dict(setup.game)
    app = PlayApp(setup, con, answers(["abc", "0", "999", "-1", "", "help", "log", "board",
                                       "save", f"save {tmp_path / 'no' / 'such' / 'dir.json'}",
                                       "quit", "y"]))
    assert app.run() == 0
    assert to_dict(app.game) == before
    out = buf.getvalue()
    assert "Unknown command 'abc'" in out
    assert out.count("Please type a number from 1 to") == 2  # "999" and "-1": out of range
    high = len(build_menu(setup.game))  # no End the turn before the action: "0" says so
    assert catalog().get("ui", "end_not_yet", low=1, high=high) in out
    assert "Unknown command '-1'" not in out
    assert "Usage: save FILE" in out and "Commands:" in out and "Full log" in out
    assert "Could not save to" in out


def test_submenu_back_then_choose(tmp_path: Path) -> None:
    """Find a position with a grouped repair; '0' goes back without acting."""
    g = new_game(Config(players=3, seed=11))
    gn = g.gnomes[g.active]
    gn.room = 1
    g.tracks[2] = 3
    g._legal = None
    menu = build_menu(g)
    number = next(i for i, e in enumerate(menu, 1) if e.is_group)
    con, buf = console()
    app = PlayApp(Setup(g), con, answers([str(number), "0", str(number), "4", "quit", "y"]))
    app.run()
    out = buf.getvalue()
    assert "How many minutes for Fix Engine?" in out
    assert [a.text(g.data) for a in g.history] == ["fix_engine 4"]


def test_save_and_load_resume_identically(tmp_path: Path) -> None:
    con, _ = console()
    save = tmp_path / "game.json"
    setup = new_setup(args(seed=3, bot=["3=random"]), con, answers([]), catalog())
    app = PlayApp(setup, con, answers(["1", "2", "1", "1", f"save {save}", "quit", "y"]))
    assert app.run() == 0
    assert save.exists()
    assert len(app.game.history) >= 4
    loaded = load_setup(str(save), ["3=random"], catalog())
    assert to_dict(loaded.game) == to_dict(app.game)
    assert set(loaded.bots) == {2}
    # and the loaded game plays on to the end through `play --load`
    con2, buf2 = console()
    rc = play(args(players=None, load=str(save), bot=["2=random", "3=random"]), con2, ones())
    assert rc == 0
    assert "Resumed the game" in buf2.getvalue() and "Game over" in buf2.getvalue()


@pytest.mark.parametrize("content", ["not json at all {", "[]", '{"format": "other"}', None])
def test_corrupt_save_gives_a_clear_error(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "bad.json"
    if content is None:  # a real save whose state was tampered with
        g = new_game(Config(players=3, seed=1))
        d = json.loads(to_json(g))
        d["state"]["tracks"]["heat"] = 7
        content = json.dumps(d)
    path.write_text(content)
    con, buf = console()
    rc = play(args(players=None, load=str(path)), con, answers([]))
    assert rc != 0
    out = buf.getvalue()
    assert f"Cannot load {path}" in out and "Traceback" not in out


def test_missing_save_file(tmp_path: Path) -> None:
    con, buf = console()
    assert play(args(load=str(tmp_path / "nope.json")), con, answers([])) != 0
    assert "Cannot load" in buf.getvalue()


def test_cli_load_corrupt_exits_nonzero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text("garbage")
    assert main(["play", "--load", str(path)]) == 2
    captured = capsys.readouterr()
    assert "Cannot load" in captured.err and "Traceback" not in captured.err


def test_cli_all_bots(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["play", "--players", "3", "--seed", "4", "--bot", "1=random", "--bot", "2=random",
               "--bot", "3=random"])
    assert rc == 0
    assert "Game over" in capsys.readouterr().out


def test_bad_arguments() -> None:
    cat = catalog()
    with pytest.raises(SetupError):
        parse_bots(["9=random"], 3, cat)
    with pytest.raises(SetupError):
        parse_bots(["2=nobody"], 3, cat)
    assert parse_bots(["2=random"], 3, cat) == {1: "random"}
    con, buf = console()
    assert play(args(players=3, gnomes=2), con, answers([])) == 2
    assert "Cannot start the game" in buf.getvalue()
    con, buf = console()
    assert play(args(players=2, gnomes=3), con, answers([])) == 2  # R16
    assert "exactly 2 gnomes (R16)" in buf.getvalue()
    con, buf = console()
    assert play(args(lang="xx"), con, answers([])) == 2
    assert "Unknown language" in buf.getvalue()


def test_interactive_setup() -> None:
    con, buf = console()
    ask = answers(["0", "2", "x", "1 4", "9", "2", "no-such-bot", ""])  # R16: no gnome count
    setup = new_setup(args(players=None, seed=None), con, ask, catalog())
    cfg = setup.game.config
    assert cfg.players == 2 and cfg.gnomes_per_player == 2
    assert cfg.variants == {"harder", "mad-gnomes"}
    assert set(setup.bots) == {1}
    assert setup.bots[1].name == DEFAULT_BOT == "search"  # an empty answer: the strongest bot
    said = buf.getvalue()  # every wrong answer is told what a right one looks like
    assert "Please type a number from 1 to 8." in said
    assert f"Please type numbers from 1 to {len(VARIANTS)}, separated by spaces" in said
    assert "Please type numbers from 1 to 2, separated by spaces" in said
    assert "Please type one of: " in said and "search" in said.split("Please type one of: ")[1]


def test_a_bot_name_is_read_in_any_case() -> None:
    con, _ = console()
    ask = answers(["3", "", "2 3", "Search", "RANDOM"])
    setup = new_setup(args(players=None, seed=None), con, ask, catalog())
    assert {seat: bot.name for seat, bot in setup.bots.items()} == {1: "search", 2: "random"}


def test_mad_gnomes_shows_only_the_deciding_seat_hands() -> None:
    g = new_game(Config(players=3, seed=1, variants=frozenset({"mad-gnomes"})))
    con, buf = console()
    con.print(board.crew(g, catalog(), 0, {}))
    out = buf.getvalue()
    cat = catalog()
    mine = ", ".join(cat.raw("items", g.data.items[k].id) for k in sorted(g.gnomes[0].hand))
    assert out.count("2 hidden cards") == 2
    assert mine.split(",")[0] in out


def test_eof_ends_cleanly_and_saves(autosave: Path) -> None:
    con, buf = console()
    assert play(args(seed=5), con, answers([])) == 1  # unfinished: EXIT_UNFINISHED
    assert "The input ended" in buf.getvalue() and "Resume it with" in buf.getvalue()
    assert autosave.exists()


def test_a_discard_line_says_how_many_of_the_item_the_gnome_holds() -> None:
    """Issue 18 §10: two Fire Extinguishers went by pressing one "Discard" line twice; a line of
    an item held more than once now says how many (terminal only: the decider's own hand)."""
    g = arrange()
    give(g, 0, "fire_extinguisher", "fire_extinguisher", "water_pump", "fire_extinguisher",
         "water_pump", "crowbar")
    event_turn(g, "turbulence")  # a hand limit of four
    assert [(d.kind, d.gnome) for d in g.pending] == [("discard", 0)]
    fire, pump = item(g, "fire_extinguisher"), item(g, "water_pump")
    labels = {e.actions[0].arg: e.label for e in build_menu(g)}
    assert labels[fire] == "Discard Fire Extinguisher (you hold 3)"
    assert labels[pump] == "Discard Water Pump (you hold 2)"
    assert labels[item(g, "crowbar")] == "Discard Crowbar"
    ru = {e.actions[0].arg: e.label for e in build_menu(g, "ru")}
    assert ru[fire].endswith("(у вас 3)")


@pytest.mark.parametrize("width", [40, 50])
def test_a_narrow_terminal_lists_each_room_whole_on_its_own_line(width: int) -> None:
    """Too narrow for the rooms' table, each room is a line that wraps as a sentence: no
    hatch, blocked hatch or gnome is cut or dropped (the table's columns were)."""
    from rich.console import Console

    from rednovember.terminal.screen import board_view

    g = new_game(Config(players=3, seed=5))
    g.blocked[g.data.hatch_between[(2, 3)]] = True
    con = Console(width=width, record=True, force_terminal=False, color_system=None)
    con.print(board_view(g, catalog(), 0, {}, con))
    out = con.export_text()
    assert "…" not in out.split("Disaster tracks")[0]
    for gn in g.gnomes:
        assert catalog().raw("colours", gn.colour) in out
    flat = " ".join(out.split())
    assert "2 Oxygen Pumps · Hatches to 1 ✖3 4 5" in flat
    wide = Console(width=120, record=True, force_terminal=False, color_system=None)
    wide.print(board_view(g, catalog(), 0, {}, wide))
    table = wide.export_text()
    assert "Room " in table and "Gnomes" in table  # the table
