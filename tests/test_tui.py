"""The full-screen terminal game (terminal/tui), driven by Textual's pilot: a whole game played by
keys, snapshots of the screen's text at 80×24 and 160×50, undo, warnings before lethal choices,
quit confirmation with autosave, resizing, "go to room N" and the route to the line mode."""

from __future__ import annotations

import asyncio
import io
import json
import os
import random
from argparse import Namespace
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest
from helpers import arrange, give, start
from rich.console import Console
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Input, RichLog, Static

from rednovember.bots import make_bot
from rednovember.bots.heuristic import best_plans, decide
from rednovember.cli import build_parser
from rednovember.i18n import available, catalog
from rednovember.rules import Action, Config, Game, new_game
from rednovember.rules.serialize import from_json
from rednovember.terminal.tui import GameApp, Session, wants_plain
from rednovember.terminal.tui.keys import Digit, digit
from rednovember.terminal.tui.render import Hanging
from rednovember.terminal.tui.screens import (
    ConfirmScreen,
    LegendScreen,
    PassScreen,
    PickScreen,
    ReviewScreen,
    SaveScreen,
)
from rednovember.terminal.tui.session import END, LONG_SHOT

SNAPSHOTS = Path(__file__).parent / "snapshots"
SHOTS = Path(__file__).parent.parent / "artifacts" / "screenshots"
SHOTS.mkdir(parents=True, exist_ok=True)  # a fresh clone has no artifacts folder


def screen_text(app: GameApp) -> str:
    """The screen as plain text, as the terminal shows it (no colours)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return "\n".join(line.rstrip() for line in console.export_text(styles=False).splitlines())


def drive(app: GameApp, size: tuple[int, int],
          script: Callable[[Pilot[int]], Awaitable[None]]) -> None:
    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(run())


async def settle(pilot: Pilot[int], app: GameApp) -> None:
    """Wait until the bots have moved and a human (or the review) is asked."""
    for _ in range(5000):
        await pilot.pause()
        if app.reviewing or (not app.session.bot_to_move and app.shown):
            return
    raise AssertionError("the bots never stopped")


def session(game: Game, bots: dict[int, str] | None = None, tmp: Path | None = None) -> Session:
    names = bots or {}
    return Session(game, {s: make_bot(b, s + 1) for s, b in names.items()}, names,
                   save_path=(tmp or Path("/nonexistent")) / "autosave.json")


async def press_option(pilot: Pilot[int], app: GameApp, index: int) -> None:
    """Type the number of the option at ``index`` (End the turn is 0)."""
    for key in str(app.keys[index]):
        await pilot.press(key)
    if app.typed:  # a prefix of a longer number: Enter chooses the highlighted one
        await pilot.press("enter")
    await pilot.pause()


def test_a_whole_game_is_played_by_keys_with_bots_on_the_other_seats(tmp_path: Path) -> None:
    game = new_game(Config(3, None, frozenset(), 11))
    app = GameApp(session(game, {1: "heuristic", 2: "heuristic"}, tmp_path), bot_delay=0)
    moves = 0

    async def script(pilot: Pilot[int]) -> None:
        nonlocal moves
        while True:
            await settle(pilot, app)
            if app.reviewing:
                break
            g = app.session.game
            want = decide(g, g.player_to_move)  # what a sensible player picks, typed as a number
            index = next(i for i, o in enumerate(app.shown) if want in o.actions[:1] or
                         (o.is_group and want in o.actions))
            before = len(g.history)
            option = app.shown[index]
            await press_option(pilot, app, index)
            if option.is_group:
                assert isinstance(app.screen, PickScreen)
                for _ in range(option.actions.index(want)):
                    await pilot.press("down")
                await pilot.press("enter")
                await pilot.pause()
            if isinstance(app.screen, ConfirmScreen):  # a warned choice the bot makes anyway
                await pilot.press("y")
                await pilot.pause()
            assert len(app.session.game.history) > before
            moves += 1
        assert isinstance(app.screen, ReviewScreen)
        text = screen_text(app)
        assert "Game over" in text and "Submarine" in text  # the result and the final board
        review_log = app.screen.query_one("#review-log", RichLog)
        assert len(review_log.lines) > len(app.session.game.log)  # the whole log, scrollable
        app.save_screenshot("tui_review_160x50.svg", str(SHOTS))
        await pilot.press("q")

    drive(app, (160, 50), script)
    assert app.session.game.is_over
    assert moves > 3
    assert app.return_code == 0


def snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if os.environ.get("UPDATE_SNAPSHOTS") or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n", "utf-8")
    assert text + "\n" == path.read_text("utf-8"), f"screen differs from {path}"


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
def test_the_screen_matches_its_snapshot(size: tuple[int, int]) -> None:
    game = new_game(Config(3, None, frozenset(), 7))
    app = GameApp(session(game, {1: "heuristic", 2: "heuristic"}), bot_delay=0)
    texts: list[str] = []

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        await press_option(pilot, app, 0)  # open a hatch: the question is "go through or stay?"
        await settle(pilot, app)
        texts.append(screen_text(app))
        app.save_screenshot(f"tui_{size[0]}x{size[1]}.svg", str(SHOTS))

    drive(app, size, script)
    text = texts[0]
    lines = text.splitlines()
    assert len(lines) == size[1] and max(len(line) for line in lines) <= size[0]
    # what matters is in view at both sizes: rooms, the three tracks, the time track, the log
    # since the last move, the question and its options
    for needle in ("Submarine", "Asphyx", "Heat", "Pressure", "Time track", "10 Capta",
                   "Since you last acted", "go through or", "1 Go through"):
        assert needle in text, needle
    snapshot(f"tui_{size[0]}x{size[1]}.txt", text)


def test_undo_takes_back_a_move_and_not_a_roll(tmp_path: Path) -> None:
    game = new_game(Config(1, 3, frozenset(), 5))
    app = GameApp(session(game, tmp=tmp_path), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        first = [o.label for o in app.shown]
        index = next(i for i, o in enumerate(app.shown) if o.actions[0].kind == "open")
        await press_option(pilot, app, index)
        assert app.session.game.history[-1].kind == "open"
        await pilot.press("u")
        await pilot.pause()
        assert app.session.game.history == []
        assert [o.label for o in app.shown] == first
        await pilot.press("u")  # nothing left: a notice, the game unchanged
        await pilot.pause()
        assert app.session.game.history == []

    drive(app, (80, 24), script)


def bot_positions(seeds: int, steps: int) -> Iterator[tuple[int, Game]]:
    """Every position (with its seed) of 3-player games the heuristic plays with seeds 1 up to
    ``seeds``, at most ``steps`` actions each. The game is played on once the caller asks for
    the next position: keep the one you want, do not ask on."""
    for seed in range(1, seeds):
        g = new_game(Config(3, None, frozenset(), seed))
        bot = make_bot("heuristic", seed)
        for _ in range(steps):
            if g.is_over:
                break
            yield seed, g
            g.apply(bot.choose(g))


def lethal_position() -> tuple[Game, Action]:
    """A position, reached by a bot's play, where a legal action carries a lethal warning."""
    for _, g in bot_positions(60, 400):
        lethal = [o for o in Session(g).options() if o.lethal and not o.is_group]
        if lethal:
            return g, lethal[0].actions[0]
    raise AssertionError("no lethal choice found")


def test_a_lethal_choice_asks_before_it_is_applied(tmp_path: Path) -> None:
    game, action = lethal_position()
    app = GameApp(session(game, tmp=tmp_path), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        index = next(i for i, o in enumerate(app.shown) if o.actions == [action])
        before = len(app.session.game.history)
        app.pick(index)
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "⚠" in screen_text(app)
        app.save_screenshot("tui_lethal_80x24.svg", str(SHOTS))
        await pilot.press("n")
        await pilot.pause()
        assert len(app.session.game.history) == before  # "no" applies nothing
        app.pick(index)
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert app.session.game.history[before] == action

    drive(app, (80, 24), script)


@pytest.mark.parametrize("key", ["q", "ctrl+c"])
def test_quitting_asks_then_saves_the_game(tmp_path: Path, key: str) -> None:
    game = new_game(Config(1, 3, frozenset(), 9))
    app = GameApp(session(game, tmp=tmp_path), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        await press_option(pilot, app, next(i for i, o in enumerate(app.shown)
                                            if o.actions[0].kind == "open"))
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # not quitting: the game goes on, nothing saved
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen)
        assert not (tmp_path / "autosave.json").exists()
        await pilot.press(key)
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()

    drive(app, (80, 24), script)
    assert app.return_code == 0
    text = (tmp_path / "autosave.json").read_text("utf-8")
    saved = from_json(text)
    assert saved.history == app.session.game.history and len(saved.history) == 1
    assert json.loads(text)["seats"] == ["human"]
    assert app.saved_to == tmp_path / "autosave.json"


def test_when_the_autosave_fails_quitting_offers_to_leave_without_saving(tmp_path: Path) -> None:
    """The save on quitting failed with a notice and the game stayed: nobody could leave but
    by killing the terminal. Now a question: leave without saving (y; Enter, pressed twice by
    mistake, says no), or go back to the game (n) and save elsewhere with s."""
    (tmp_path / "blocker").write_text("a file where the autosave's folder should be", "utf-8")
    game = new_game(Config(1, 3, frozenset(), 9))
    app = GameApp(session(game, tmp=tmp_path / "blocker"), bot_delay=0)
    asked: list[str] = []

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        for answer in ("n", "enter", "y"):
            await pilot.press("q")
            await pilot.pause()
            await pilot.press("y")  # quit: the save fails
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            asked.append(app.screen.question)
            assert "n / Enter / Esc: no" in screen_text(app)
            await pilot.press(answer)
            await pilot.pause()
            if answer != "y":
                assert app.is_running and app.screen is app.screen_stack[0]

    drive(app, (80, 24), script)
    assert "could not be saved" in asked[0] and "Leave without saving?" in asked[0]
    assert str(tmp_path / "blocker" / "autosave.json") in asked[0] and len(set(asked)) == 1
    assert app.return_code == 0 and app.saved_to is None


def test_resizing_keeps_everything_in_view() -> None:
    game = new_game(Config(3, None, frozenset(), 7))
    app = GameApp(session(game), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        small = screen_text(app)
        assert "Crew" not in small and "Time track" in small
        await pilot.resize_terminal(160, 50)
        await pilot.pause()
        big = screen_text(app)
        assert len(big.splitlines()) == 50
        assert "Crew" in big and "Time track" in big and "Pressure" in big
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        again = screen_text(app)  # the board column as before (the log may wrap differently)
        assert [line[:38] for line in again.splitlines()] == [line[:38] for line in small.splitlines()]

    drive(app, (80, 24), script)


def test_go_to_a_room_is_one_choice() -> None:
    game = new_game(Config(1, 3, frozenset(), 5))
    app = GameApp(session(game), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        index = next(i for i, o in enumerate(app.shown) if len(o.actions) == 2)
        option = app.shown[index]
        assert option.label.startswith("Go to room")
        room = option.actions[0].arg
        mover = app.session.game.active
        await press_option(pilot, app, index)
        g = app.session.game
        assert [a.kind for a in g.history] == ["open", "enter"]
        assert g.gnomes[mover].room == room
        await pilot.press("u")  # one undo takes back the whole move
        await pilot.pause()
        assert app.session.game.history == []

    drive(app, (80, 24), script)


def test_repairs_show_where_the_ghost_ends_and_what_the_keeper_meets() -> None:
    for _, g in bot_positions(40, 200):
        s = Session(g)
        for option in s.options():
            if option.is_group:
                sub = s.minute_options(option)[0]
                a = sub.actions[0]
                assert sub.preview.startswith(f"→◆{g.ghost - a.minutes}") or \
                    "low water" in option.label
                return
    raise AssertionError("no repair found")


def test_language_key_switches_all_texts() -> None:
    game = new_game(Config(1, 3, frozenset(), 5))
    app = GameApp(session(game), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        await pilot.press("l")  # en -> es (the catalogs in alphabetical order: de en es fr pl ru)
        await pilot.pause()
        assert app.session.lang == "es"
        assert "c tripulación" in screen_text(app) and "c crew" not in screen_text(app)

    drive(app, (80, 24), script)


def test_play_uses_the_line_mode_with_plain_or_without_a_terminal() -> None:
    assert wants_plain(build_parser().parse_args(["play", "--plain"]))
    assert wants_plain(Namespace(plain=True))
    assert wants_plain(Namespace(plain=False))  # pytest's stdin and stdout are no terminal


def test_s_saves_to_the_file_typed_and_the_save_loads(tmp_path: Path) -> None:
    game = new_game(Config(1, 3, frozenset(), 5))
    app = GameApp(session(game, tmp=tmp_path), bot_delay=0)
    target = tmp_path / "mine.json"

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        await press_option(pilot, app, 0)
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SaveScreen)
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, SaveScreen)

    drive(app, (80, 24), script)
    saved = from_json(target.read_text("utf-8"))
    assert saved.history == app.session.game.history != []
    assert app.saved_to == target


async def pass_time(app: GameApp, pilot: Pilot[int]) -> None:
    """The player to move lets the time pass: the menu's last option (e.g. end the turn, take
    no action; the first if that is a group), confirmed if asked."""
    option = app.shown[-1]
    if option.is_group:
        option = app.shown[0]
    app.pick(app.shown.index(option))
    await pilot.pause()
    if isinstance(app.screen, (ConfirmScreen, PickScreen)):
        await pilot.press("enter")
        await pilot.pause()


def test_the_legend_explains_the_symbols() -> None:
    app = GameApp(session(new_game(Config(1, 3, frozenset(), 5))), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, LegendScreen)
        text = screen_text(app)
        assert "Legend" in text and "blocked hatch" in text and "high water" in text
        app.save_screenshot("tui_legend_80x24.svg", str(SHOTS))
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, LegendScreen)

    drive(app, (80, 24), script)


def test_mad_gnomes_hides_the_board_when_the_keyboard_changes_hands() -> None:
    game = new_game(Config(2, None, frozenset({"mad-gnomes"}), 3))
    app = GameApp(session(game), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        first = app.session.seat
        for _ in range(200):  # play until the other human decides
            if app.session.seat != first:
                break
            await pass_time(app, pilot)
        assert app.session.seat != first
        assert isinstance(app.screen, PassScreen)
        text = screen_text(app)
        assert f"Player {app.session.seat + 1}" in text and "Submarine" not in text
        await pilot.press("enter")
        await pilot.pause()
        assert "Submarine" in screen_text(app)

    drive(app, (80, 24), script)


def test_mad_gnomes_shows_only_the_hand_of_the_player_at_the_keyboard() -> None:
    """Mad Gnomes, two humans and a bot: while the bot moves, the status (and crew and log) are
    seen by the human who chose last, so they show that human's hand, not the first human's.
    While the pass screen waits for the next human, h (the advisor's plans for that hand), c and
    u do nothing; once that player has pressed Enter, h shows that player's hint."""
    from rednovember.i18n import names
    game = new_game(Config(3, None, frozenset({"mad-gnomes"}), 6))
    app = GameApp(session(game, {2: "heuristic"}), bot_delay=1000.0)  # the bot moves when told
    checked: list[str] = []

    def status_gnome() -> str:
        return screen_text(app).splitlines()[1].split()[0]  # the status's viewer line

    async def script(pilot: Pilot[int]) -> None:
        await pilot.pause()
        s = app.session
        chose: list[int] = []  # the seats of the humans' choices
        for _ in range(600):
            if len(checked) == 2:
                return
            if isinstance(app.screen, PassScreen):
                if s.seat in chose and "pass" not in checked:  # a seat that has seen its hand
                    seat, history = s.seat, list(s.game.history)
                    for key in ("h", "c", "u"):
                        await pilot.press(key)
                        for _ in range(20):  # the advisor would answer from a thread
                            await pilot.pause(0.02)
                        assert isinstance(app.screen, PassScreen), key
                    assert s.game.history == history and not app.crew_shown
                    await pilot.press("enter")
                    await pilot.pause()
                    await pilot.press("h")
                    for _ in range(400):
                        await pilot.pause(0.05)
                        if isinstance(app.screen, LegendScreen) and screen_text(app):
                            break
                    assert isinstance(app.screen, LegendScreen)
                    gnome = names.gnome(s.cat, s.game, s.game.decider)
                    assert f"Hint for {gnome}" in screen_text(app) and s.seat == seat
                    checked.append("pass")
                    await pilot.press("escape")
                    await pilot.pause()
                    continue
                await pilot.press("enter")
                await pilot.pause()
                continue
            if s.bot_to_move:
                if chose[-1:] == [1] and "bot" not in checked:  # the second human chose last
                    mine = next(gn for gn in s.game.gnomes if gn.player == 1)
                    assert s.viewer == 1
                    assert status_gnome() == names.gnome_short(s.cat, s.game, mine.number)
                    checked.append("bot")
                app._bot_move()
                await pilot.pause()
                continue
            chose.append(s.seat)
            await pass_time(app, pilot)

    drive(app, (80, 24), script)
    assert sorted(checked) == ["bot", "pass"]


def test_number_keys_choose_at_once_or_wait_for_a_second_digit() -> None:
    assert digit("", "3", 9) == Digit("", 2, -1)
    assert digit("", "1", 12) == Digit("1", -1, 0)  # 1 or 10-12: highlight 1, wait
    assert digit("1", "2", 12) == Digit("", 11, -1)
    assert digit("1", "5", 12) == Digit("", 4, -1)  # no 15: the new digit alone
    assert digit("", "2", 12) == Digit("", 1, -1)
    assert digit("", "0", 5) == Digit("", -1, -1)
    assert digit("", "7", 5) == Digit("", -1, -1)


def test_a_game_of_bots_is_shown_move_by_move_and_ends_in_the_review() -> None:
    game = new_game(Config(2, None, frozenset(), 4))
    app = GameApp(session(game, {0: "heuristic", 1: "heuristic"}), bot_delay=0)
    drawn: list[int] = []  # the number of actions played at each redraw
    redraw = app.refresh_all

    def counting() -> None:
        drawn.append(len(app.session.game.history))
        redraw()

    app.refresh_all = counting  # type: ignore[method-assign]

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        assert isinstance(app.screen, ReviewScreen)
        app.save_screenshot("tui_review_80x24.svg", str(SHOTS))
        assert "Game over" in screen_text(app)
        await pilot.press("enter")

    drive(app, (80, 24), script)
    assert app.return_code == 0 and app.session.game.is_over
    # the screen was redrawn after every single action of the bots
    assert set(range(len(app.session.game.history) + 1)) <= set(drawn)


def test_a_repairs_minutes_are_picked_in_a_dialog(tmp_path: Path) -> None:
    g = next(g for _, g in bot_positions(40, 200) if any(o.is_group for o in Session(g).options()))
    app = GameApp(session(g, tmp=tmp_path), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        index = next(i for i, o in enumerate(app.shown) if o.is_group)
        group = app.shown[index]
        await press_option(pilot, app, index)
        assert isinstance(app.screen, PickScreen)
        app.save_screenshot("tui_minutes_80x24.svg", str(SHOTS))
        await pilot.press("escape")  # back: nothing applied
        await pilot.pause()
        assert not isinstance(app.screen, PickScreen)
        before = len(app.session.game.history)
        await press_option(pilot, app, index)
        await pilot.press("2")
        await pilot.pause()
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
            await pilot.pause()
        assert app.session.game.history[before] == group.actions[1]

    drive(app, (80, 24), script)


def test_the_keys_line_fits_80_columns_in_every_language() -> None:
    for lang in available():
        assert len(catalog(lang).get("term_tui", "keys_bar", keys="0-11")) <= 79, lang


def test_a_click_on_an_option_chooses_it() -> None:
    game = new_game(Config(1, 3, frozenset(), 5))
    app = GameApp(session(game), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        first = app.shown[0]
        assert await pilot.click("#options", offset=(3, 0))
        await pilot.pause()
        assert app.session.game.history[:len(first.actions)] == first.actions

    drive(app, (80, 24), script)


def test_a_save_records_which_seats_are_bots(tmp_path: Path) -> None:
    game = new_game(Config(3, None, frozenset(), 2))
    s = session(game, {1: "heuristic", 2: "random"}, tmp_path)
    path = s.save()
    assert path == tmp_path / "autosave.json"
    assert json.loads(path.read_text("utf-8"))["seats"] == ["human", "heuristic", "random"]
    assert from_json(path.read_text("utf-8")).history == game.history


def test_zero_always_ends_the_turn() -> None:
    g = next(g for _, g in bot_positions(40, 300)
             if END in g.legal_actions() and len(g.legal_actions()) > 2)
    app = GameApp(session(g), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        assert app.keys[[o.actions for o in app.shown].index([END])] == 0
        assert sorted(k for k in app.keys if k) == list(range(1, len(app.keys)))
        before = len(app.session.game.history)
        await pilot.press("0")
        await pilot.pause()
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
            await pilot.pause()
        assert app.session.game.history[before] == END

    drive(app, (80, 24), script)


def test_the_minutes_dialog_starts_on_the_suggested_minutes() -> None:
    """As the web page's default: the heuristic bot's choice, marked, highlighted first."""
    found: set[int] = set()  # seeds: one position of each game
    for seed, g in bot_positions(30, 200):
        if seed in found:
            continue
        s = Session(g)
        groups = [o for o in s.options() if o.is_group]
        if groups and g.phase == "move":
            best, note = s.suggestion(groups[0])
            if best >= 0:
                assert note.startswith("★ suggested")
                assert groups[0].actions[best] in groups[0].actions
                found.add(seed)
                if len(found) >= 3:
                    break
    assert found


def test_a_long_shot_repair_is_never_suggested() -> None:
    """Issue 18 §10: the minutes dialog starred a 10% repair. A suggestion's repair, after the
    plan's items, succeeds at least LONG_SHOT percent of the time (R7); where the heuristic's plan
    is a longer shot, no line is starred."""
    suggested = refused = 0
    for _seed, g in bot_positions(30, 200):
        s = Session(g)
        for group in (o for o in s.options() if o.is_group and g.phase == "move"):
            plan = next((p for p in best_plans(g, g.player_to_move) if p.action in group.actions
                         and all(step.kind == "play" for step in p.steps[:-1])), None)
            best, _note = s.suggestion(group)
            if plan is None:
                continue
            chance = s._chance_after(plan.steps)
            assert (best >= 0) == (chance >= LONG_SHOT), (chance, best)
            suggested += best >= 0
            refused += best < 0
    assert suggested and refused


def test_nonsense_keys_break_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Random keys (digits, letters, arrows, Enter, Escape, y/n, undo, legend, save, language)
    never crash the app, and the game stays a legal game of the engine."""
    monkeypatch.chdir(tmp_path)  # letters typed into the save dialog name files here
    rng = random.Random(5)
    keys = list("0123456789abuyn?sl") + ["enter", "escape", "up", "down", "pageup", "pagedown",
                                           "tab", "space"]
    game = new_game(Config(2, None, frozenset(), 21))
    app = GameApp(session(game, {1: "heuristic"}, tmp_path), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        for _ in range(250):
            await pilot.press(rng.choice(keys))
            if app.reviewing:
                break
        await pilot.pause()

    drive(app, (80, 24), script)
    g = app.session.game
    replayed = new_game(Config(2, None, frozenset(), 21))
    for a in g.history:
        assert a in replayed.legal_actions()
        replayed.apply(a)
    assert replayed.log == g.log


def test_h_shows_the_advisors_three_plans_for_the_human_to_move() -> None:
    """Issue 11: the advisor's hints in the full-screen game (issue 10's `hint`)."""
    game = new_game(Config(3, None, frozenset(), 7))
    app = GameApp(session(game, {1: "heuristic", 2: "heuristic"}), bot_delay=0)
    seen: list[str] = []

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        before = len(app.session.game.history)
        await pilot.press("h")
        for _ in range(400):  # the advisor thinks in a thread (at most ~2 s)
            await pilot.pause(0.05)
            if isinstance(app.screen, LegendScreen) and app.screen.is_mounted and screen_text(app):
                break  # shown, and drawn
        assert isinstance(app.screen, LegendScreen)
        seen.append(screen_text(app))
        app.save_screenshot("tui_hint_80x24.svg", str(SHOTS))
        await pilot.press("escape")
        await pilot.pause()
        assert len(app.session.game.history) == before  # a hint changes nothing

    drive(app, (80, 24), script)
    text = seen[0]
    assert "Hint for Red" in text and "1. " in text and "Win chance" in text
    # a plan's long line (its why, at 80 columns) wraps under its own text, not at the left edge
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if "1. " in line and "(" in line)
    col = lines[first].index("1. ")
    last = next(i for i, line in enumerate(lines) if "rollouts per plan" in line)
    body = [line[col:] for line in lines[first:last]]
    assert len(body) > 3 * 4  # some lines wrapped
    loose = [x for x in body if not x[:1].isdigit() and not x.startswith("   ")]
    assert not loose, text


def test_a_hint_for_an_earlier_decision_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    """The advisor thinks in a thread: a hint that arrived after the player had chosen showed
    plans for a position that was gone (Mad Gnomes: to whoever sat at the keyboard next). It is
    dropped when the decision changes; a hint asked for the new decision shows."""
    import threading

    from rednovember.terminal.tui import app as app_module
    release = threading.Event()
    asked: list[int] = []

    def slow_hint(game: Game, seat: int, lang: str) -> list[str]:
        asked.append(len(game.history))
        if len(asked) == 1:  # the first hint is still being thought out when the player moves
            release.wait(10)
        return [f"Hint at {len(game.history)}", "1. a plan"]

    monkeypatch.setattr(app_module, "hint_lines", slow_hint)
    game = new_game(Config(1, 3, frozenset(), 5))
    app = GameApp(session(game), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        await pilot.press("h")
        await pilot.pause()
        await press_option(pilot, app, next(i for i, o in enumerate(app.shown)
                                            if o.actions[0].kind == "open"))
        assert len(app.session.game.history) == 1
        release.set()
        for _ in range(20):
            await pilot.pause(0.02)
        assert not isinstance(app.screen, LegendScreen)  # the stale hint never shows
        await pilot.press("h")  # a hint for this decision shows
        for _ in range(200):
            await pilot.pause(0.02)
            if isinstance(app.screen, LegendScreen):
                break
        assert isinstance(app.screen, LegendScreen) and "Hint at 1" in screen_text(app)
        await pilot.press("escape")

    drive(app, (80, 24), script)
    assert asked == [0, 1]


def test_a_russian_dialog_takes_the_russian_letters() -> None:
    """Issue 18 §10: the questions of a Russian game accepted only Latin y/n; н says no, д yes."""
    g = arrange()
    g.gnomes[0].keeper = 23
    g.gnomes[1].keeper, g.gnomes[2].keeper = 21, 20
    g.tokens[g.data.tokens.index("missile_launch")] = 23
    s = session(start(g))
    s.set_lang("ru")
    app = GameApp(s, bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        index = next(i for i, o in enumerate(app.shown) if o.actions == [Action("no_action")])
        await press_option(pilot, app, index)
        assert isinstance(app.screen, ConfirmScreen)
        assert "д, y" in screen_text(app)
        await pilot.press("н")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen) and not app.session.game.is_over
        await press_option(pilot, app, index)
        await pilot.press("д")
        await pilot.pause()
        assert app.session.game.is_over

    drive(app, (80, 24), script)


def test_r9_a_choice_that_loses_the_game_asks_first_at_80x24() -> None:
    """Issue 18 §9: "No action (1 min) →◆22" with the Missile Launch token on 23 and every other
    keeper past it lost the game at once; now it is shown in red with the reason and asks."""
    g = arrange()
    g.gnomes[0].keeper = 23
    g.gnomes[1].keeper, g.gnomes[2].keeper = 21, 20
    g.tokens[g.data.tokens.index("missile_launch")] = 23
    app = GameApp(session(start(g)), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        index = next(i for i, o in enumerate(app.shown) if o.actions == [Action("no_action")])
        assert app.shown[index].lethal and "loses the game" in app.shown[index].label
        await press_option(pilot, app, index)
        assert isinstance(app.screen, ConfirmScreen)
        text = screen_text(app)
        assert "loses the game" in text and "Missile Launch" in text and "anyway" in text
        app.save_screenshot("tui_loss_warning_80x24.svg", str(SHOTS))
        await pilot.press("n")
        await pilot.pause()
        assert app.session.game.history == [] and not app.session.game.is_over
        await press_option(pilot, app, index)
        await pilot.press("y")
        await pilot.pause()
        assert app.session.game.is_over and app.session.game.result is not None
        assert app.session.game.result.cause == "missile_launch"

    drive(app, (80, 24), script)


def test_the_legend_says_when_a_destruction_token_strikes() -> None:
    """Issue 18 §9: the legend explains the rule behind the loss warning, in every language."""
    for lang in available():
        assert "legend_token" in catalog(lang).section("term_tui")
    assert "passed it" in catalog("en").raw("term_tui", "legend_token")
    game = new_game(Config(1, 3, frozenset(), 5))
    app = GameApp(session(game), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, LegendScreen)
        out = Console(width=76, file=io.StringIO(), color_system=None, record=True)
        out.print(app.screen.body)
        assert "its disaster strikes and the game is lost" in " ".join(out.export_text().split())

    drive(app, (80, 24), script)


def _missile_game() -> Game:
    """Red to move on 23 with the Missile Launch token there, every other keeper past it."""
    g = arrange()
    g.gnomes[0].keeper = 23
    g.gnomes[1].keeper, g.gnomes[2].keeper = 21, 20
    g.tokens[g.data.tokens.index("missile_launch")] = 23
    return start(g)


async def lose_to_the_missile(pilot: Pilot[int], app: GameApp) -> None:
    """In :func:`_missile_game`, Red takes No action (asked first: it loses the game), and the
    review comes."""
    await press_option(pilot, app, next(i for i, o in enumerate(app.shown)
                                        if o.actions == [Action("no_action")]))
    await pilot.press("y")
    await settle(pilot, app)


def test_l_switches_the_language_of_the_review_too() -> None:
    """At the end-of-game review `l` switched the language behind it, while the review (result,
    board, log and keys) stayed in the old one."""
    app = GameApp(session(_missile_game()), bot_delay=0)
    texts: list[str] = []

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        await lose_to_the_missile(pilot, app)
        texts.append(screen_text(app))
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen) and app.reviewing
        texts.append(screen_text(app))
        await pilot.press("q")

    drive(app, (120, 40), script)
    lang = app.session.lang
    assert lang != "en" and app.return_code == 0
    cat, en = catalog(lang), catalog("en")
    for key in ("full_log", "game_over"):
        assert en.raw("ui", key) in texts[0] and en.raw("ui", key) not in texts[1], key
        assert cat.raw("ui", key) in texts[1], key
    assert cat.raw("term_tui", "review_keys").strip() in texts[1]


def test_s_at_the_review_saves_the_finished_game_and_the_keys_line_says_so(tmp_path: Path) -> None:
    """The review's key line named only q, Esc and Enter; s (save) and l (language) work there
    too, so it names them."""
    app = GameApp(session(_missile_game(), tmp=tmp_path), bot_delay=0)
    target = tmp_path / "ended.json"
    keys: list[str] = []

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        await lose_to_the_missile(pilot, app)
        keys.append(str(app.screen.query_one("#review-keys", Static).render()))
        await pilot.press("s")
        await pilot.pause()
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("q")

    drive(app, (120, 40), script)
    assert from_json(target.read_text("utf-8"), verify=False).is_over
    assert "s save" in keys[0] and "l language" in keys[0]


def test_issue18_after_the_end_the_saved_file_holds_the_finished_game(tmp_path: Path) -> None:
    """`q` after the end says the game is saved to the file last saved to: it holds the end,
    not the turn it was saved in."""
    app = GameApp(session(_missile_game(), tmp=tmp_path), bot_delay=0)
    target = tmp_path / "mine.json"

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        await pilot.press("s")
        await pilot.pause()
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        assert not from_json(target.read_text("utf-8"), verify=False).is_over
        await lose_to_the_missile(pilot, app)
        assert app.reviewing
        await pilot.press("q")

    drive(app, (80, 24), script)
    assert app.saved_to == target and from_json(target.read_text("utf-8"), verify=False).is_over


def test_issue18_a_pending_digit_is_forgotten_after_an_arrow_key_or_a_pause() -> None:
    """`1`, Down, Down, `1` played option 11 (a Water Pump): the arrow keys forget the 1."""
    g = arrange()
    give(g, 0, "water_pump", "toolbox", "coffee", "lucky_charm")
    app = GameApp(session(start(g)), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        count = max(app.keys)
        assert count >= 10  # "1" waits for a second digit
        await pilot.press("1")
        assert app.typed == "1"
        await pilot.press("down", "down")
        assert app.typed == ""
        await pilot.press("1")  # a new "1": option 1 highlighted, waiting again
        await pilot.pause()
        assert app.typed == "1" and app.session.game.history == []
        for _ in range(100):  # a pause: the timer forgets it
            await pilot.pause(0.05)
            if not app.typed:
                break
        assert app.typed == ""
        await pilot.press("1")
        assert app.typed == "1" and app.session.game.history == []

    drive(app, (80, 24), script)


def test_issue18_tab_reads_the_log_at_full_height_and_c_shows_the_crew() -> None:
    game = new_game(Config(3, None, frozenset(), 7))
    app = GameApp(session(game, {1: "heuristic", 2: "heuristic"}), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        log = app.query_one("#log", RichLog)
        small_height = log.size.height
        await pilot.press("tab")
        await pilot.pause()
        assert log.has_focus and log.size.height >= 20 > small_height
        assert log.size.width >= 76  # the whole width: no board, no options
        # and its lines wrapped again at that width (they kept the column's, half the screen)
        assert max(line.cell_length for line in log.lines) > 60
        text = screen_text(app)
        assert "Submarine" not in text and "Time track" not in text
        await pilot.press("pageup", "up", "down")
        await pilot.press("tab")
        await pilot.pause()
        assert app.query_one("#options").has_focus and "Submarine" in screen_text(app)
        assert max(line.cell_length for line in log.lines) <= log.size.width
        await pilot.press("c")
        await pilot.pause()
        text = screen_text(app)
        assert "Crew" in text and "Intox." in text and "Submarine" not in text
        assert "Pressure" in text  # the tracks stay
        app.save_screenshot("tui_crew_80x24.svg", str(SHOTS))
        await pilot.press("c")
        await pilot.pause()
        assert "Submarine" in screen_text(app) and "Crew" not in screen_text(app)

    drive(app, (80, 24), script)


def test_issue18_below_80x24_the_screen_says_the_terminal_is_too_small() -> None:
    game = new_game(Config(1, 3, frozenset(), 5))
    app = GameApp(session(game), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        await pilot.resize_terminal(70, 20)
        await pilot.pause()
        text = " ".join(screen_text(app).split())
        assert "too small (70×20)" in text and "80×24" in text and "Submarine" not in text
        assert "line mode" in text and "--plain" in text  # where a small terminal still plays
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "too small" not in screen_text(app) and "Submarine" in screen_text(app)

    drive(app, (80, 24), script)


def test_while_the_terminal_is_too_small_the_games_keys_wait() -> None:
    """Nobody acts blind: below 80×24 (also when it shrank under a dialog) a number, Enter, u, h,
    c, s, l or ? does nothing (the options are not on screen); q still asks to quit; back at
    80×24 the keys work again."""
    game = new_game(Config(1, 3, frozenset(), 5))
    app = GameApp(session(game), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        shown = [o.label for o in app.shown]
        first = app.shown[0].actions
        await pilot.press("question_mark")  # shrunk under a dialog: the game's screen says so
        await pilot.pause()
        await pilot.resize_terminal(70, 20)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert "too small" in screen_text(app)
        for key in ("1", "2", "enter", "0", "u", "h", "c", "s", "l", "question_mark", "tab",
                    "down", "enter"):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is app.screen_stack[0], key  # no dialog opened
            assert app.session.game.history == [] and app.session.lang == "en", key
        assert not app.crew_shown and "too small" in screen_text(app)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "too small" not in screen_text(app) and [o.label for o in app.shown] == shown
        await press_option(pilot, app, 0)  # the first option, chosen once the board is back
        assert app.session.game.history == first

    drive(app, (80, 24), script)


def test_issue18_the_resume_hint_names_the_command_that_started_the_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from rednovember.terminal.app import play_command
    monkeypatch.setenv("REDNOVEMBER_PLAY_COMMAND", "./scripts/play.sh")
    assert play_command() == "./scripts/play.sh"
    text = catalog("de").get("term_tui", "saved_on_quit", file="x.json", command=play_command())
    assert "./scripts/play.sh --load x.json" in text
    monkeypatch.delenv("REDNOVEMBER_PLAY_COMMAND")
    monkeypatch.setenv("PATH", "/nonexistent")
    assert play_command().endswith("-m rednovember play")
    for lang in available():
        assert "rednovember play" not in catalog(lang).raw("term_tui", "saved_on_quit"), lang
        assert "rednovember play" not in catalog(lang).raw("ui", "help"), lang  # `save FILE`
    # a save keeps no language: a German game resumes in German only with --lang
    assert play_command("de").endswith("-m rednovember play --lang de")
    help_text = catalog("de").get("ui", "help", command=play_command("de"))
    assert f"{play_command('de')} --plain --load DATEI" in help_text


# --- layout: the review, the status, the footer, the options, the legend, the time track ---------

def finished_game(seed: int) -> Game:
    g = new_game(Config(3, None, frozenset(), seed))
    bot = make_bot("heuristic", seed)
    while not g.is_over:
        g.apply(bot.choose(g))
    return g


def drawn(renderable: object, width: int) -> list[str]:
    """The lines ``renderable`` takes at ``width`` columns, as plain text."""
    console = Console(width=width, file=io.StringIO(), record=True, legacy_windows=False)
    console.print(renderable)
    return [line.rstrip() for line in console.export_text(styles=False).splitlines()]


@pytest.mark.parametrize(("size", "seed"), [((120, 40), 3), ((80, 24), 2), ((120, 40), 2),
                                            ((80, 24), 3)])
def test_the_review_board_cuts_nothing_and_wraps_no_gnome_onto_a_line_of_its_own(
        size: tuple[int, int], seed: int) -> None:
    """The audit's 120×40 review cut the crew table (`Gno…`, `P1 · Easy …`, `(faint…`) and its
    80×24 one wrapped `Gr` of `4 Reactor Room … Re Gr` onto the next line: the board is drawn
    for the width its column really has, and the crew is one paragraph a gnome when its table
    does not fit."""
    game = finished_game(seed)
    app = GameApp(session(game), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        assert isinstance(app.screen, ReviewScreen)
        column = app.screen.query_one("#review-board").region.width - 1  # its scroll bar
        lines = [line[:column].rstrip() for line in screen_text(app).splitlines()[:-1]]
        await pilot.press("end")  # the board's column scrolled to its end: the crew
        await pilot.pause()
        lines += [line[:column].rstrip() for line in screen_text(app).splitlines()[:-1]]
        text = "\n".join(lines)
        assert "…" not in text, text
        for line in lines:  # no gnome's tag alone at the start of a line (a wrapped room)
            assert not any(line.startswith(w) for w in ("Re", "Bl", "Gr", "Ye")) or " " in line, \
                line
        names = [n for n in ("Red", "Blue", "Green") if n in text]
        assert len(names) == 3 and "Keeper" in text and "Intox." in text
        app.save_screenshot(f"tui_review_{size[0]}x{size[1]}_{seed}.svg", str(SHOTS))
        await pilot.press("q")

    drive(app, size, script)


def test_the_crew_table_gives_way_to_paragraphs_when_it_does_not_fit() -> None:
    from rednovember.i18n import names as n
    from rednovember.terminal import screen as line_screen
    from rednovember.terminal.tui import render
    game = finished_game(3)
    cat = catalog("en")
    names = line_screen.seat_names(cat, game, {0: "heuristic", 1: "heuristic", 2: "heuristic"})
    for width in (40, 58, 100):
        lines = drawn(render.crew(game, cat, -1, names, width=width), width)
        text = "\n".join(lines)
        assert "…" not in text and all(len(line) <= width for line in lines), text
        if width < 100:  # paragraphs: every hand is there, whole
            for gn in game.gnomes:
                hand = n.items(cat, game, sorted(gn.hand)) if gn.hand else "—"
                assert " ".join(hand.split()) in " ".join(text.split()), text
    wide = "\n".join(drawn(render.crew(game, cat, -1, names, width=140), 140))
    assert "Gnome" in wide and "Hand" in wide  # the table, with all its headers
    narrow = drawn(render.crew(game, cat, -1, names, width=58), 58)
    continued = [line for line in narrow[1:] if line.startswith("   ")]
    assert continued and all(line.startswith("       ") for line in continued)  # under the text


def played_position() -> Game:
    """A position where the gnome on the move has played an item this turn."""
    return next(g for _, g in bot_positions(40, 300)
                if any(g.played) and g.active >= 0 and g.ghost >= 0 and not g.is_over)


def test_the_status_shows_the_items_played_this_turn() -> None:
    """The line mode prints `Red played this turn: Grog`; the status line says it too."""
    game = played_position()
    app = GameApp(session(game), bot_delay=0)
    from rednovember.i18n import names as n
    cat = catalog("en")
    played = [k for k, count in enumerate(game.played) for _ in range(count)]
    want = cat.get("ui", "played", gnome=n.gnome(cat, game, game.active),
                   items=n.items(cat, game, played))

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        status = " ".join(screen_text(app).splitlines()[:3])
        assert want in " ".join(status.split()), status

    drive(app, (80, 24), script)


def test_a_decision_in_another_gnomes_turn_names_that_turn_in_the_status() -> None:
    """A trade's gift or a defence is decided by a gnome whose turn it is not: the status named
    only the decider beside the active gnome's minutes, as if it were the decider's turn."""
    game = next(g for _, g in bot_positions(40, 600)
                if g.active >= 0 and 0 <= g.decider != g.active and not g.is_over)
    cat = catalog("en")
    from rednovember.i18n import names as n
    from rednovember.terminal.tui import render
    line = render.status(game, cat, game.gnomes[game.decider].player, {}, 200).plain
    active = n.gnome(cat, game, game.active)
    assert f"on {active}'s turn" in line, line
    assert line.index(n.gnome(cat, game, game.decider)) < line.index(f"on {active}'s turn")
    mover = next(g for _, g in bot_positions(40, 300)
                 if g.active >= 0 and g.decider == g.active and not g.is_over)
    assert "'s turn" not in render.status(mover, cat, 0, {}, 200).plain


@pytest.mark.parametrize("lang", ["en", "de"])
def test_eight_keepers_on_the_narrow_track_are_eight_different_letters(lang: str) -> None:
    """One column a space leaves one letter a keeper: Blue, Black and Brown were all "B"
    (German Grün and Gelb both "G"); only the colour told them apart."""
    from rednovember.terminal.tui import render
    game = new_game(Config(8, None, frozenset(), 9))
    cat = catalog(lang)
    letters = render.keeper_letters(game, cat)
    assert len(set(letters.values())) == 8 and all(len(c) == 1 for c in letters.values())
    assert letters[0] == cat.raw("colours_short", game.gnomes[0].colour)[0]  # the first keeps it
    for gn in game.gnomes:  # spread the keepers out: each its own column
        gn.keeper -= gn.number
    lines = drawn(render.time_track(game, cat, 80), 80)
    label = cat.raw("ui", "row_keepers")[:8]
    row = next(line for line in lines if line.startswith(label))
    cells = row[len(label):].lstrip()  # (the label's padding, then a column a space)
    assert sorted(c for c in cells if c.strip()) == sorted(letters.values()), lines


def test_a_wide_column_shows_the_decks_the_stock_and_the_blocked_hatch_tokens() -> None:
    """`play --plain` showed the captain's Grog, the decks and the blocked-hatch tokens left; the
    full screen showed none of them (a narrow column keeps its lines for the time track)."""
    from rednovember.terminal.tui import render
    game = new_game(Config(3, None, frozenset(), 9))
    cat = catalog("en")
    wide = " ".join(" ".join(drawn(render.tracks(game, cat, 90), 90)).split())
    assert (f"Event deck {len(game.event_deck)} · Item deck {len(game.item_deck)} · "
            f"Captain's stock {game.stock} Grog · Blocked-hatch tokens "
            f"{game.data.blocked_tokens} left") in wide
    assert "Captain's stock" not in " ".join(drawn(render.tracks(game, cat, 40), 40))


def many_options_position() -> Game:
    return next(g for _, g in bot_positions(40, 300) if len(Session(g).options()) >= 10)


def test_the_footer_names_the_number_keys_of_the_options_listed() -> None:
    """`1-9` was printed with 11 options listed."""
    game = many_options_position()
    app = GameApp(session(game), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        keys = sorted(app.keys)
        footer = screen_text(app).splitlines()[-1]
        assert footer.split()[0] == f"{keys[0]}-{keys[-1]}", footer
        assert keys[-1] >= 10

    drive(app, (80, 24), script)


def test_a_wrapped_option_goes_on_under_its_text_not_under_its_number() -> None:
    game = many_options_position()
    app = GameApp(session(game), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        digits = len(str(max(app.keys)))
        for key, option in zip(app.keys, app.shown, strict=True):
            lines = drawn(app._label(key, option), 24)
            assert lines[0].startswith(str(key).rjust(digits) + " ")
            for line in lines[1:]:
                assert line.startswith(" " * (digits + 1)), lines
        wrapped = [o for o in app.shown if len(o.label) > 30]
        assert wrapped  # some do wrap at 24 columns

    drive(app, (80, 24), script)


def test_the_legend_at_80x24_shows_how_to_close_it() -> None:
    game = new_game(Config(1, 3, frozenset(), 5))
    app = GameApp(session(game), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, LegendScreen)
        text = screen_text(app)
        assert "Esc or ?: close" in text and "Legend" in text
        app.save_screenshot("tui_legend_80x24.svg", str(SHOTS))
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, LegendScreen)

    drive(app, (80, 24), script)


def test_the_time_track_shows_every_keeper_of_a_stack() -> None:
    """Three keepers on space 60: `keepers R` showed only the top one."""
    from rednovember.terminal.tui import render
    game = new_game(Config(3, None, frozenset(), 5))
    cat = catalog("en")
    lines = drawn(render.time_track(game, cat, 38), 38)
    start = next(i for i, line in enumerate(lines) if line.startswith("keepers"))
    column = 8  # the labels' width: space 60 is the first column
    stack = [line[column] for line in lines[start:start + 3]]
    assert sorted(stack) == ["B", "G", "R"], lines
    assert lines[start + 3].startswith("ghost")


def _rendered(text: str, width: int) -> list[str]:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(Hanging(Text(text)))
    return out.getvalue().splitlines()


def test_a_log_line_that_wraps_goes_on_indented_under_itself() -> None:
    line = "  Hatch Blocked in room 7 Missile Control: the hatch to room 9 is blocked."
    lines = _rendered(line, 36)
    assert len(lines) == 3
    assert lines[0].startswith("  Hatch") and len(lines[0]) > 30  # the first line is whole
    assert all(x.startswith("    ") and not x.startswith("     ") for x in lines[1:])
    assert " ".join(x.strip() for x in lines) == line.strip()  # nothing lost or repeated
    assert _rendered("— Red's turn, from space 60 —", 36) == ["— Red's turn, from space 60 —"]
    narrow = _rendered(line, 14)  # too narrow to indent: it wraps as it comes
    assert " ".join(x.strip() for x in narrow) == line.strip()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_dialogs_are_centred_on_the_screen(tmp_path: Path, size: tuple[int, int]) -> None:
    """Every dialog (question, minutes, save, legend) stands in the middle of the screen, not in
    its top left corner (the shared rule for ModalScreen matched nothing: Textual scopes a class's
    CSS to the class)."""
    g = next(g for _, g in bot_positions(40, 200) if any(o.is_group for o in Session(g).options()))
    app = GameApp(session(g, tmp=tmp_path), bot_delay=0)
    width, height = size
    opened: list[str] = []

    def centred() -> None:
        box = app.screen.query_one("#dialog").region
        left, right = box.x, width - box.right
        top, bottom = box.y, height - box.bottom
        assert abs(left - right) <= 1 and abs(top - bottom) <= 1, (type(app.screen), box)
        assert left > 0 or box.width >= width - 1  # narrower than the screen: a margin each side
        opened.append(type(app.screen).__name__)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        for key, kind in (("q", ConfirmScreen), ("s", SaveScreen), ("question_mark", LegendScreen)):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, kind)
            centred()
            await pilot.press("escape")
            await pilot.pause()
        await press_option(pilot, app, next(i for i, o in enumerate(app.shown) if o.is_group))
        assert isinstance(app.screen, PickScreen)
        centred()
        # as wide as its lines (or the screen allows), not stretched to 90% of the screen
        widest = max(len(label.plain) for label in app.screen.labels)
        box = app.screen.query_one("#dialog").region
        assert box.width <= max(widest, 30) + 12 or box.width <= width * 9 // 10 - 4
        await pilot.press("escape")

    drive(app, size, script)
    assert opened == ["ConfirmScreen", "SaveScreen", "LegendScreen", "PickScreen"]


def test_the_minutes_dialog_wraps_a_long_line_inside_its_frame() -> None:
    """A minutes dialog is as wide as its lines; a line longer than the screen allows wraps
    inside the list's frame (cut at the dialog's edge, it would lose its end)."""
    labels = [Text(f"{i} min — 10% chance") for i in range(1, 11)]
    labels[2].append(" Grog ⚠ " + "a warning that goes on " * 8)
    app = GameApp(session(new_game(Config(1, 3, frozenset(), 5))), bot_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot, app)
        app.push_screen(PickScreen("How many minutes?", labels, catalog("en")))
        await pilot.pause()
        text = screen_text(app)
        assert "goes on a warning that goes on" in " ".join(text.split())  # whole, wrapped
        picks = app.screen.query_one("#picks").region
        assert picks.right <= app.screen.query_one("#dialog").region.right
        # its further lines begin under its text, not under the numbers: a wrapped "Grog" read
        # as a line of its own ("10 Grog", at 80x24)
        lines = text.splitlines()
        first = next(i for i, line in enumerate(lines) if "3 min — 10% chance" in line)
        frame = lines[first].index("▊")  # the list's left edge
        column = lines[first].index("3 min") - frame
        assert lines[first][frame + column - 2] == "3"  # the number, then the text
        further = [line[line.index("▊"):] for line in lines[first + 1:first + 6]
                   if "goes on" in line]
        assert further and all(len(inner) - len(inner[1:].lstrip()) >= column
                               for inner in further), lines

    drive(app, (80, 24), script)


def test_mad_gnomes_shows_no_hand_while_bots_move_before_any_human_chose() -> None:
    """Mad Gnomes, two humans and a bot that moves first: nobody has chosen yet, so nobody is
    known to sit at the keyboard, and the crew, status and log show no human's cards."""
    from rednovember.i18n import names
    game = new_game(Config(3, None, frozenset({"mad-gnomes"}), 6))
    first = game.player_to_move
    app = GameApp(session(game, {first: "heuristic"}), bot_delay=1000.0)  # the bot waits
    cat = catalog("en")

    async def script(pilot: Pilot[int]) -> None:
        await pilot.pause()
        s = app.session
        assert s.bot_to_move
        await pilot.press("c")  # the crew, every gnome's hand
        await pilot.pause()
        assert app.crew_shown
        text = " ".join(screen_text(app).split())
        hands = [gn for gn in s.game.gnomes if gn.hand]
        assert hands
        for gn in hands:
            assert names.items(cat, s.game, sorted(gn.hand)) not in text
        assert "hidden card" in text and s.viewer == -1

    drive(app, (120, 40), script)
