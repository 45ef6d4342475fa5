"""`rednovember play --plain`, the line mode for screen readers and pipes: driven through a pipe
in a subprocess (a whole game, save, quit, --load bringing the bots back, nonsense input, exit
codes), and the line mode's features (End the turn always 0, go ROOM, undo, preview, review after
the end, Ctrl-C) and the wording fixes of issue 11, in English and another language."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import pty
import random
import re
import select
import subprocess
import sys
import time
from argparse import Namespace
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import arrange, start
from termtools import answers, console

from rednovember.analysis import report
from rednovember.cli import main
from rednovember.i18n import catalog
from rednovember.i18n.describe import describe_action, describe_decision, describe_entry
from rednovember.rules import Action, Config, Game, new_game
from rednovember.rules.deaths import kill
from rednovember.rules.serialize import to_dict
from rednovember.rules.state import MOVE, OPENED
from rednovember.rules.view import log_for, may_see
from rednovember.terminal import board, menu
from rednovember.terminal.app import EXIT_CODES, PlayApp
from rednovember.terminal.menu import END, build_menu, number_entries, preview
from rednovember.terminal.newgame import Setup, load_setup, new_setup, save_text
from rednovember.terminal.screen import menu_view

ROOT = Path(__file__).resolve().parents[1]


def run_plain(args: list[str], stdin: str, tmp: Path, timeout: float = 240,
              columns: str | None = "120") -> tuple[int, str, str]:
    """``rednovember play --plain ARGS`` with ``stdin`` piped in; (status, stdout, stderr).
    ``columns``: $COLUMNS (None: unset)."""
    env = dict(os.environ, REDNOVEMBER_AUTOSAVE=str(tmp / "autosave.json"))
    env.pop("COLUMNS", None)
    if columns is not None:
        env["COLUMNS"] = columns
    proc = subprocess.run([sys.executable, "-m", "rednovember.cli", "play", "--plain", *args],
                          input=stdin, capture_output=True, text=True, timeout=timeout, env=env,
                          cwd=tmp)
    return proc.returncode, proc.stdout, proc.stderr


pytestmark = pytest.mark.usefixtures("autosave")  # tests/conftest.py


# --- through a pipe ------------------------------------------------------------------------------
def test_a_whole_game_through_a_pipe(tmp_path: Path) -> None:
    """A human answering "1", "1", "0" over and over plays to the end; the review then keeps the
    program until the input ends (status 0: the game ended)."""
    stdin = "1\n1\n0\n" * 4000
    rc, out, err = run_plain(["--players", "3", "--seed", "7", "--bot", "2=random",
                              "--bot", "3=random"], stdin, tmp_path)
    assert rc == 0, err[-2000:]
    assert "Game over" in out and "The game is over. Type log" in out
    assert "Traceback" not in out + err
    assert not (tmp_path / "autosave.json").exists()  # a finished game is not autosaved


def test_save_quit_and_load_brings_the_bots_back(tmp_path: Path) -> None:
    rc, out, err = run_plain(["--players", "3", "--seed", "3", "--bot", "2=random",
                              "--bot", "3=heuristic"],
                             "1\nsave mine.json\nquit\ny\n", tmp_path)
    assert rc == 0, err
    assert "Game saved to mine.json." in out and "Goodbye." in out
    saved = json.loads((tmp_path / "mine.json").read_text())
    assert saved["seats"] == ["human", "random", "heuristic"]
    assert json.loads((tmp_path / "autosave.json").read_text())["seats"] == saved["seats"]
    # --load without --bot: the bots play their seats again, only seat 1 is asked
    rc, out, err = run_plain(["--load", "mine.json"], "1\n1\n0\n" * 30 + "quit\ny\n", tmp_path)
    assert rc == 0, err
    assert "Bots back in their seats: P2 · Random bot, P3 · Easy bot." in out
    assert "(Player 1) >" in out
    assert "(Player 2) >" not in out and "(Player 3) >" not in out
    resumed = json.loads((tmp_path / "autosave.json").read_text())
    assert len(resumed["history"]) > len(saved["history"])  # the bots moved
    # --bot with --load replaces the saved seats: here every seat is a bot, the game runs out
    rc, out, _ = run_plain(["--load", "mine.json", "--bot", "1=random", "--bot", "2=random",
                            "--bot", "3=random"], "", tmp_path)
    assert rc == 0 and "Game over" in out and "Bots back" not in out


def test_an_old_save_without_seats_loads_every_seat_human(tmp_path: Path) -> None:
    g = new_game(Config(players=3, seed=2))
    d = json.loads(save_text(g, {1: "random"}))
    del d["seats"]
    (tmp_path / "old.json").write_text(json.dumps(d))
    setup = load_setup(str(tmp_path / "old.json"), [], catalog())
    assert setup.bots == {} and to_dict(setup.game) == to_dict(g)
    d["seats"] = ["human", "nobody", "human"]
    (tmp_path / "bad.json").write_text(json.dumps(d))
    rc, _, err = run_plain(["--load", "bad.json"], "", tmp_path)
    assert rc == 2 and "Cannot load" in err and "seats" in err


def test_nonsense_input_changes_nothing(tmp_path: Path) -> None:
    """Unknown words, numbers out of range, an escape sequence of an arrow key, a bad go, an
    undo with nothing to undo: each gets a clear message; the input then ends (status 1, the
    game saved, still at its start)."""
    junk = ["abc", "-5", "999", "0", "\x1b[A", "go", "go 99", "go kitchen", "undo", "save",
            "quit", "n", "   ", "log", "legend"]
    rc, out, err = run_plain(["--players", "3", "--seed", "2"], "\n".join(junk) + "\n", tmp_path)
    assert rc == 1, err
    assert "Traceback" not in out + err
    assert "\x1b" not in out  # no escape code printed back (nor colours: not a terminal)
    assert "Unknown command '\\x1b[A'" in out  # the arrow key's sequence, named
    assert "Unknown command 'abc'" in out and "Unknown command '-5'" not in out
    assert out.count("Please type a number from 1 to") == 2  # -5 and 999: out of range
    # 0 before the turn's action: End the turn is not offered yet, and the refusal says why
    fresh_menu = build_menu(new_game(Config(players=3, seed=2)))
    high = max(number for number, _ in number_entries(fresh_menu))
    assert catalog().get("ui", "end_not_yet", low=1, high=high) in out
    assert "Usage: go ROOM" in out and "You cannot go to room 99 now" in out
    assert "You cannot go to room kitchen now" in out
    assert "Nothing to undo" in out and "Usage: save FILE" in out
    assert "Playing on." in out and "Symbols:" in out and "Full log" in out
    assert "The input ended." in out
    fresh = to_dict(new_game(Config(players=3, seed=2)))
    assert json.loads((tmp_path / "autosave.json").read_text())["history"] == fresh["history"]


@pytest.mark.parametrize("columns", [None, "40"])
def test_piped_output_is_not_wrapped(tmp_path: Path, columns: str | None) -> None:
    """A pipe has no width: no sentence is wrapped (nor the header's title cut), whatever
    $COLUMNS says or without it; the board's drawings are still laid out at that width
    ($COLUMNS, else 80)."""
    g = new_game(Config(players=3, seed=2))
    rc, out, err = run_plain(["--players", "3", "--seed", "2"], "quit\ny\n", tmp_path,
                             columns=columns)
    assert rc == 0, err
    lines = out.splitlines()
    question = describe_decision(g, "en")
    assert len(question) > 80 and question in lines  # one line, not two
    assert any(line.startswith("Game saved to ") and line.endswith(
        f"--load {tmp_path / 'autosave.json'}") for line in lines)
    title = next(line for line in lines if "Red November · Turn 1" in line)
    assert title.strip("─ ").endswith("3 gnomes") and "…" not in title
    assert max(len(line) for line in lines) < 300  # nothing padded to a made-up width
    width = int(columns or 80)
    spaces = next(line for line in lines if line.startswith("space")).split()[1:]
    assert len(spaces) == max(10, (width - 8) // 3)  # the time track's window: board.time_track


def test_a_terminal_still_wraps_to_its_width(tmp_path: Path) -> None:
    """On a terminal (a pty) the lines wrap to its width."""
    with _on_a_terminal(tmp_path, columns=60, seed=2) as (proc, main_fd):
        got = _read_until(main_fd, b") > ")
        os.write(main_fd, b"quit\ry\r")
        got += _read_until(main_fd, b"Goodbye")
        assert proc.wait(timeout=60) == 0
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", got.decode()).replace("\r", "")
    lines = text.split("\n")
    question = describe_decision(new_game(Config(players=3, seed=2)), "en")
    assert "Goodbye." in text and max(len(line) for line in lines) <= 60
    assert question not in lines and question.split()[0] in text  # wrapped, not lost


def test_exit_codes(tmp_path: Path) -> None:
    assert set(EXIT_CODES) == {0, 1, 2}
    assert run_plain(["--load", "missing.json"], "", tmp_path)[0] == 2
    assert run_plain(["--lang", "xx", "--players", "3"], "", tmp_path)[0] == 2
    assert run_plain(["--players", "3", "--bot", "9=random"], "", tmp_path)[0] == 2
    assert run_plain(["--players"], "", tmp_path)[0] == 2  # argparse
    assert run_plain([], "", tmp_path)[0] == 1  # the set-up's questions got no answer
    assert run_plain(["--players", "3", "--seed", "1"], "", tmp_path)[0] == 1
    assert run_plain(["--players", "3", "--seed", "1"], "quit\ny\n", tmp_path)[0] == 0
    help_text = subprocess.run([sys.executable, "-m", "rednovember.cli", "play", "--help"],
                               capture_output=True, text=True, check=True).stdout
    assert "--plain" in help_text and "exit status: 0" in help_text


# --- the line mode's features ------------------------------------------------------------------
def test_end_the_turn_is_always_zero() -> None:
    g = new_game(Config(players=3, seed=4))
    moving = number_entries(build_menu(g))
    assert all(number > 0 for number, _ in moving)  # no End the turn while moving
    # after an action, with items in hand: 0 ends the turn, items count from 1
    while not g.gnomes[g.active].hand or g.phase != "move":
        g.apply(g.legal_actions()[-1])
    g.apply(Action("no_action"))
    assert g.phase == "after_action"
    numbered = dict(number_entries(build_menu(g)))
    assert numbered[0].actions == [END]
    assert sorted(numbered) == list(range(len(numbered)))
    con, buf = console()
    con.print(menu_view(build_menu(g), catalog()))
    assert "0. End the turn" in buf.getvalue()


def test_the_turn_prompt_texts_exist_in_every_language() -> None:
    """The prompt's hint with 0 (the turn may end) and without it, and the refusal of a 0 typed
    before the turn's action."""
    for lang in ("en", "de", "fr", "pl", "ru", "es"):
        cat = catalog(lang)
        assert cat.has("ui", "prompt_hint_no_end") and cat.has("ui", "end_not_yet"), lang
        assert "(0" in cat.raw("ui", "prompt_hint"), lang
        assert "0" not in cat.raw("ui", "prompt_hint_no_end"), lang
        assert "{low}" in cat.raw("ui", "end_not_yet") and "{high}" in cat.raw("ui", "end_not_yet")


def test_zero_is_offered_and_accepted_exactly_when_the_rules_let_the_turn_end() -> None:
    """At every decision of a random game the line mode answers "0" as the engine's legal
    actions say: End the turn when it is legal (the prompt's hint then offers 0), else a
    refusal that leaves the game alone (and a hint without 0)."""
    cat = catalog()
    g = new_game(Config(players=3, seed=9))
    rng = random.Random(3)
    seen: set[tuple[bool, str]] = set()
    for step in range(240):
        if g.is_over:
            break
        if step % 3 == 0:
            position = g.copy()
            legal = list(position.legal_actions())
            ends = END in legal
            con, buf = console()
            app = PlayApp(Setup(position), con, answers(["0", "quit", "y"]))
            assert app.run() == 0
            out = buf.getvalue()
            first = out.split("\n0\n", 1)[0]  # up to the answer, echoed (not a terminal)
            assert (cat.raw("ui", "prompt_hint") in first) == ends, (step, position.phase)
            assert (cat.raw("ui", "prompt_hint_no_end") in first) == (not ends)
            if ends:
                assert app.game.history[len(g.history):] == [END]
            else:
                assert app.game.history == g.history
                high = max(number for number, _ in number_entries(build_menu(position)))
                key = "end_not_yet" if position.phase in (MOVE, OPENED) else "bad_number"
                assert cat.get("ui", key, low=1, high=high) in out, (step, position.phase)
            seen.add((ends, position.phase))
        g.apply(rng.choice(g.legal_actions()))
    assert {ends for ends, _ in seen} == {True, False}
    assert {MOVE, OPENED} <= {phase for _, phase in seen}


def test_go_opens_and_enters_in_one_prompt_and_undo_takes_it_back() -> None:
    g = new_game(Config(players=3, seed=5))
    start = g.gnomes[g.active].room
    target = next(a.arg for a in g.legal_actions() if a.kind == "open")
    seat = g.player_to_move
    con, buf = console()
    app = PlayApp(Setup(g), con, answers([f"go {target}", "undo", "undo", "quit", "y"]))
    app.run()
    out = buf.getvalue()
    assert "Taken back: Open the hatch to" in out and "; Go through into" in out  # both steps
    assert "Nothing to undo" in out  # the second undo: back at the start of the turn
    assert app.game.history == [] and app.game.gnomes[app.game.active].room == start
    assert app.game.player_to_move == seat


def test_undo_stops_at_a_die_roll() -> None:
    g = new_game(Config(players=3, seed=11))
    g.gnomes[g.active].room = 1
    g.tracks[2] = 3
    g._legal = None
    number = next(i for i, e in number_entries(build_menu(g)) if e.is_group)
    con, buf = console()
    app = PlayApp(Setup(g), con, answers([str(number), "2", "undo", "quit", "y"]))
    app.run()
    assert [a.text(g.data) for a in app.game.history] == ["fix_engine 2"]  # rolled: it stays
    assert "Nothing to undo: the last move rolled a die" in buf.getvalue()


def test_undo_and_hint_show_the_menu_once_with_what_may_be_typed() -> None:
    """An undo typed in a minutes list, and a hint, are followed by the main menu once, with
    the line that says what may be typed (hint among the commands)."""
    g = new_game(Config(players=3, seed=11))
    g.gnomes[g.active].room = 1
    g.tracks[2] = 3
    g._legal = None
    entries = number_entries(build_menu(g))
    item = next(i for i, e in entries if e.actions[0].kind == "play")
    group = next(i for i, e in entries if e.is_group)
    con, buf = console()
    app = PlayApp(Setup(g), con, answers([str(item), str(group), "undo", "hint", "quit", "y"]))
    app.run()
    after_undo = buf.getvalue().split("Taken back:")[1]
    between = after_undo.split("The advisor is thinking")[0]
    after_hint = after_undo.split("rollouts per plan")[1]
    hint_line = catalog("en").raw("ui", "prompt_hint_no_end")
    assert ", hint," in hint_line
    assert between.count("No action (1 min)") == 1 and between.count(hint_line) == 1
    assert after_hint.count(hint_line) == 1
    assert app.game.history == []


def test_within_a_turn_only_what_happened_is_shown_not_the_board_again() -> None:
    """The whole board opens a turn; between two answers of that turn come only the new log
    lines and the question (the board again on 'board')."""
    g = new_game(Config(players=3, seed=5))
    opening = next(i for i, e in number_entries(build_menu(g)) if e.actions[0].kind == "open")
    con, buf = console()
    app = PlayApp(Setup(g), con, answers([str(opening), "1", "board", "quit", "y"]))
    app.run()
    out = buf.getvalue()
    header = "Red November · Turn 1"
    assert out.count(header) == 2  # the turn's start, and 'board'
    went = out.index("goes from room")  # the second answer's log line, then the board
    assert out.index("opens the hatch from room") < went < out.rindex(header)
    assert [a.kind for a in app.game.history] == ["open", "enter"]


def test_preview_shows_where_the_ghost_ends_and_the_icons_met() -> None:
    g = new_game(Config(players=3, seed=1))
    entries = build_menu(g)
    no_action = next(e for e in entries if e.actions == [Action("no_action")])
    assert f"[→ {g.ghost - 1}: no icons on the way]" in no_action.label  # 60 -> 59: none
    assert all("→" not in e.label for e in entries if e.actions[0].kind in ("open", "play"))
    de = next(e for e in build_menu(g, "de") if e.actions == [Action("no_action")])
    assert f"[→ {g.ghost - 1}: keine Symbole auf dem Weg]" in de.label
    # further down the track: a repair of 5 minutes from 44 passes icons
    g = arrange()
    g.gnomes[0].room = 2
    g.tracks[g.data.tracks.index("asphyxiation")] = 4
    start(g)
    label = preview(Action("fix_oxygen_pumps", 0, 5), g)
    assert label == "→ 39: the keeper meets 2 event icons and 1 item icon"  # test_preview.py
    assert preview(Action("fix_oxygen_pumps", 0, 5), g, "de") == \
        "→ 39: der Zeitstein trifft 2 Ereignis-Symbole und 1 Objekt-Symbol"
    assert preview(Action("fix_oxygen_pumps", 0, 5), g, "ru") == \
        "→ 39: метка встретит 2 значка события и 1 значок предмета"


def test_ctrl_c_asks_then_plays_on_or_leaves(autosave: Path) -> None:
    g = new_game(Config(players=3, seed=6))
    said = iter(["ctrl-c", "n", "ctrl-c", "y"])
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        answer = next(said)
        if answer == "ctrl-c":
            raise KeyboardInterrupt
        return answer

    con, buf = console()
    assert PlayApp(Setup(g), con, ask).run() == 0  # left on purpose
    out = buf.getvalue()
    assert sum("Leave the game?" in p for p in asked) == 2
    assert "Playing on." in out and "Goodbye." in out and "Resume it with" in out
    assert json.loads(autosave.read_text())["seats"] == ["human", "human", "human"]


def test_a_save_on_leaving_that_fails_asks_whether_to_leave_without_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The autosave cannot be written (its folder is a file): the player is asked whether to
    leave without saving; no plays on (and may save elsewhere), yes leaves."""
    (tmp_path / "taken").write_text("a file, not a folder")
    monkeypatch.setenv("REDNOVEMBER_AUTOSAVE", str(tmp_path / "taken" / "autosave.json"))
    g = new_game(Config(players=3, seed=6))
    said = iter(["quit", "y", "n", "quit", "y", "y"])
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return next(said)

    con, buf = console()
    assert PlayApp(Setup(g), con, ask).run() == 0
    out = " ".join(buf.getvalue().split())
    assert sum("Leave without saving?" in p for p in asked) == 2, asked
    assert out.count("Could not save to") == 2 and "Playing on." in out, out
    assert "Goodbye." in out and "Resume it with" not in out
    assert next(said, None) is None


def test_after_the_humans_gnome_dies_the_bots_finish_and_the_review_waits() -> None:
    g = new_game(Config(players=3, seed=8))
    human = next(gn for gn in g.gnomes if gn.number != g.active)
    kill(g, human.number, "fire")
    seat = human.player
    bots = [f"{s + 1}=random" for s in range(3) if s != seat]
    setup = load_setup_from(g, bots)
    con, buf = console()
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if len(asked) == 1:
            return "log"
        if len(asked) == 2:
            return "board"
        return "quit"

    assert PlayApp(setup, con, ask).run() == 0
    out = buf.getvalue()
    assert "You have no gnome left on board: the bots play on." in out
    assert "turn, from space" in out  # the bots' moves are shown
    assert asked[0] == "Review > " and len(asked) == 3  # stays until quit
    assert "Full log" in out and out.count("Game over") == 2


def load_setup_from(g: Game, bots: list[str]) -> Setup:
    con, _ = console()
    names = {int(b.split("=")[0]) - 1: b.split("=")[1] for b in bots}
    setup = new_setup(namespace(g, bots), con, answers([]), catalog())
    return Setup(g, setup.bots, names)


def namespace(g: Game, bots: list[str]) -> Namespace:
    return Namespace(players=g.config.players, gnomes=None, variant=[], seed=g.config.seed,
                     bot=bots, load=None, lang="en")


def test_time_track_is_drawn_when_every_keeper_is_on_zero() -> None:
    g = new_game(Config(players=3, seed=1))
    for gn in g.gnomes:
        gn.keeper = 0
    con, buf = console()
    con.print(board.time_track(g, catalog(), 120))
    out = buf.getvalue()
    keepers = next(line for line in out.splitlines() if line.startswith("keepers"))
    assert keepers.rstrip().endswith(("Re", "Bl", "Gr"))  # space 0 is the last column
    spaces = next(line for line in out.splitlines() if line.startswith("space")).split()
    assert spaces[-1] == "0" and len(spaces) > 10


# --- wording -------------------------------------------------------------------------------------
def test_plurals_in_english_and_german() -> None:
    g = new_game(Config(players=3, seed=1))
    en, de = catalog("en"), catalog("de")
    assert en.get("ui", "hidden_hand", count=1) == "1 hidden card"
    assert en.get("ui", "hidden_hand", count=2) == "2 hidden cards"
    assert de.get("ui", "hidden_hand", count=1) == "1 verdeckte Karte"
    mad = new_game(Config(players=3, seed=1, variants=frozenset({"mad-gnomes"})))
    other = next(gn.player for gn in mad.gnomes if gn.player != mad.gnomes[0].player)
    assert describe_entry(("draw", 0, (3,)), mad, "en", other).endswith("draws 1 item.")
    assert describe_entry(("draw", 0, (3, 4)), mad, "en", other).endswith("draws 2 items.")
    assert "(s)" not in en.get("actions", "draw_deck", count=1)
    assert en.get("actions", "draw_deck", count=1) == "Draw 1 item card from the deck"
    g.ghost = 1
    assert "1 minute left" in describe_decision(g, "en")
    assert "noch 1 Minute" in describe_decision(g, "de")
    assert "1 players" not in en.get("ui", "turn_header", turn=1, seed=1, players=1, gnomes=3,
                                     variants="")


def test_a_grouped_repair_with_one_chance_shows_one_figure(
        monkeypatch: pytest.MonkeyPatch) -> None:
    g = new_game(Config(players=3, seed=11))
    g.gnomes[g.active].room = 1
    g.tracks[2] = 3
    g.ghost = 30  # plenty of minutes: the chance ranges from 10% to 100%
    g._legal = None
    assert "10–100% chance" in next(e for e in build_menu(g) if e.is_group).label
    assert "10–100 % Chance" in next(e for e in build_menu(g, "de") if e.is_group).label
    monkeypatch.setattr(menu, "repair_chance", lambda a, game: 40)  # every minute count alike
    label = next(e for e in build_menu(g) if e.is_group).label
    assert "min, 40% chance" in label and "40–40" not in label
    assert "min, 40 % Chance" in next(e for e in build_menu(g, "de") if e.is_group).label


def test_fire_death_reads_well() -> None:
    g = new_game(Config(players=3, seed=1))
    assert describe_entry(("death", 0, "fire", 3), g, "en") == "☠ Red burned to death (room 3)."
    assert "burning room" not in describe_entry(("death", 0, "fire", 3), g, "en")
    assert "brennenden" not in describe_entry(("death", 0, "fire", 3), g, "de")


def test_no_action_is_described_with_its_cost() -> None:
    g = new_game(Config(players=3, seed=1))
    assert describe_action(Action("no_action"), g, "en").startswith("No action")


def test_all_seats_bots_through_the_pipe_print_the_game(tmp_path: Path) -> None:
    rc, out, _ = run_plain(["--players", "4", "--seed", "2"] +
                           list(itertools.chain.from_iterable(
                               ("--bot", f"{s}=random") for s in range(1, 5))), "", tmp_path)
    assert rc == 0 and "Game over" in out and "Review" not in out


def test_grog_from_the_captains_stock_is_public_in_mad_gnomes() -> None:
    g = arrange(variants=["mad-gnomes"])
    g.gnomes[0].room = 10
    start(g)
    g.apply_text("draw 2")
    entry = next(e for e in g.log if e[0] == "draw_stock")
    assert entry == ("draw_stock", 0, 2)
    other = next(gn.player for gn in g.gnomes if gn.player != g.gnomes[0].player)
    assert may_see(g, entry, other) and entry in log_for(g, other)
    assert describe_entry(entry, g, "en", other) == "Red takes 2 Grog from the captain's stock."
    assert describe_entry(entry, g, "de", other) == "Rot nimmt 2 Grog aus dem Vorrat des Käptns."
    assert g.gnomes[0].hand.count(g.data.stock_item) == 2
    # a draw from the item deck stays private
    g2 = arrange(variants=["mad-gnomes"])
    g2.gnomes[0].room = 8
    start(g2)
    g2.apply_text("draw 1")
    deck = next(e for e in g2.log if e[0] == "draw")
    assert not may_see(g2, deck, other)


@pytest.mark.parametrize(("variants", "said"), [([], False), (["harder"], True),
                                                (["hardest"], True)])
def test_the_log_says_when_harder_removes_a_respite(variants: list[str], said: bool) -> None:
    g = new_game(Config(players=3, seed=1, variants=frozenset(variants)))
    respite = next(i for i, c in enumerate(g.data.events) if c.respite)
    en = describe_entry(("event", respite, 39), g, "en")
    de = describe_entry(("event", respite, 39), g, "de")
    assert ("this Respite leaves the game" in en) == said
    assert ("diese Atempause verlässt das Spiel" in de) == said
    fire = next(i for i, c in enumerate(g.data.events) if c.kind == "fire")
    assert "leaves the game" not in describe_entry(("event", fire, 39), g, "en")


def test_fire_and_hatch_blocked_sentences() -> None:
    g = new_game(Config(players=3, seed=1))
    assert describe_entry(("fire", 4), g, "en") == "Fire in room 4 Reactor Room!"
    assert "breaks out" not in describe_entry(("fire", 4), g, "en")
    assert "bricht" not in describe_entry(("fire", 4), g, "de")
    assert describe_entry(("hatch_blocked", 5, 7), g, "en") == \
        "Hatch Blocked in room 5: the hatch to room 7 Missile Control is blocked."
    assert describe_entry(("hatch_blocked", 5, 7), g, "de").startswith("Luke blockiert in Raum 5")


# --- the README's commands -----------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["md", "html"])
def test_report_works_without_matplotlib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    """`rednovember report` as the README writes it, in an install without the analysis extra
    (./scripts/play.sh installs the game alone): the tables, and a note instead of the charts."""
    monkeypatch.setattr(report, "charts_available", lambda: False)
    out = tmp_path / "rep"
    rc = main(["report", "--games", "3", "--players", "3", "--bots", "random", "--jobs", "1",
               "--quiet", "--format", fmt, "--out", str(out)])
    assert rc == 0
    doc = (out / f"report.{fmt}").read_text()
    assert "matplotlib is not installed" in doc
    assert "| bot |" in doc or "<table" in doc  # the tables are there
    assert not list(out.glob("*.png")) and (out / "simulation.json").exists()
    assert "note: The charts were left out" in capsys.readouterr().err


def test_lethal_choices_carry_their_warning_in_the_menu() -> None:
    """Extinguish Fire with no way out: the grouped repair warns before its minutes are asked."""
    g = arrange()
    g.gnomes[0].room = 1  # rooms 2 and 3 beyond: both burning, and no item to go through fire
    g.fire[1] = g.fire[2] = g.fire[3] = True
    start(g)
    group = next(e for e in build_menu(g) if e.is_group)
    assert group.warn and "⚠" in group.label and "no way out" in group.label.lower()
    con, buf = console()
    con.print(menu_view(build_menu(g, "de"), catalog("de")))
    assert "⚠" in buf.getvalue()


@contextlib.contextmanager
def _on_a_terminal(tmp_path: Path, columns: int, seed: int
                   ) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """``play --plain`` (3 players, ``seed``) on a pty ``columns`` wide: the process and the
    terminal's end to read and type on."""
    main_fd, child_fd = pty.openpty()
    env = dict(os.environ, REDNOVEMBER_AUTOSAVE=str(tmp_path / "autosave.json"), TERM="xterm",
               COLUMNS=str(columns), LINES="40")
    proc = subprocess.Popen([sys.executable, "-m", "rednovember.cli", "play", "--plain",
                             "--players", "3", "--seed", str(seed)], stdin=child_fd,
                            stdout=child_fd, stderr=child_fd, env=env, cwd=tmp_path)
    os.close(child_fd)
    try:
        yield proc, main_fd
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main_fd)


def _read_until(fd: int, marker: bytes, timeout: float = 60) -> bytes:
    """Read a pty until ``marker`` shows (or the time is up); returns everything read."""
    got = b""
    deadline = time.monotonic() + timeout
    while marker not in got and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            got += chunk
    return got


def test_arrow_keys_edit_the_line_on_a_terminal(tmp_path: Path) -> None:
    """On a real terminal (a pty) the line is read with readline: typing "lg", the left arrow,
    then "o" gives "log" (without readline the line would hold the arrow's escape sequence)."""
    with _on_a_terminal(tmp_path, columns=120, seed=1) as (proc, main_fd):
        assert b") > " in _read_until(main_fd, b") > ")
        os.write(main_fd, b"lg\x1b[Do\r")
        after = _read_until(main_fd, b"Full log")
        assert b"Full log" in after and b"Unknown command" not in after
        os.write(main_fd, b"quit\ry\r")
        _read_until(main_fd, b"Goodbye")
        assert proc.wait(timeout=60) == 0


def test_the_set_up_questions_answered_through_a_pipe(tmp_path: Path) -> None:
    rc, out, err = run_plain(["--seed", "4"], "3\n\n2 3\nrandom\nrandom\nquit\ny\n", tmp_path)
    assert rc == 0, err
    assert "How many players (1-8)? 3\n" in out  # each answer echoed on its question's line
    assert "(Player 1) > quit\n" in out and "Goodbye." in out
    assert json.loads((tmp_path / "autosave.json").read_text())["seats"] == \
        ["human", "random", "random"]
