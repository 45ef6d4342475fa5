"""The full-screen set-up (terminal/tui/setup.py), driven by Textual's pilot: snapshots at 80×24 and
160×50, a game set up by keys (and by the mouse) starts with exactly the Config and bots chosen, a
solo player is asked the gnomes, bad answers give a message and the screen stays, Esc/q leave with
the line mode's quit status, the command line's flags skip the screen or its questions, a save
loads from it, and the line mode builds its games the same way."""

from __future__ import annotations

import io
import re
from argparse import Namespace
from pathlib import Path

import pytest
from rich.console import Console
from test_tui import SHOTS, drive, screen_text, snapshot
from textual.pilot import Pilot
from textual.widgets import Input

from rednovember.i18n import available, catalog
from rednovember.rules import Config, new_game
from rednovember.rules.serialize import to_dict
from rednovember.terminal import tui
from rednovember.terminal.app import EXIT_OK, EXIT_UNFINISHED
from rednovember.terminal.newgame import build_setup, new_setup, save_text
from rednovember.terminal.tui import GameApp, Session, SetupScreen, build_app
from rednovember.terminal.tui.setup import SEAT_KINDS, Choice, Toggle

pytestmark = pytest.mark.usefixtures("autosave")  # tests/conftest.py


def args(**kw: object) -> Namespace:
    """``rednovember play`` with nothing set up on the command line (plus ``kw``)."""
    base: dict[str, object] = {"players": None, "gnomes": None, "variant": [], "seed": None,
                               "bot": [], "load": None, "lang": "en", "data": None, "plain": False}
    base.update(kw)
    return Namespace(**base)


def setup_app(**kw: object) -> GameApp:
    app = build_app(args(**kw), Console(file=io.StringIO()))
    assert isinstance(app, GameApp) and not app.playing
    app.bot_delay = 1000.0  # the bots wait: the tests look at the game as it starts
    return app


async def until(pilot: Pilot[int], done: object) -> None:
    """Wait (frame by frame, never a fixed time) until ``done()`` holds."""
    assert callable(done)
    for _ in range(500):
        await pilot.pause()
        if done():
            return
    raise AssertionError("the condition never held")


async def on_setup(pilot: Pilot[int], app: GameApp) -> SetupScreen:
    await until(pilot, lambda: isinstance(app.screen, SetupScreen))
    assert isinstance(app.screen, SetupScreen)
    return app.screen


async def press(pilot: Pilot[int], *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
    await pilot.pause()


def shown(screen: SetupScreen, selector: str) -> bool:
    return bool(screen.query_one(selector).display)


def message(screen: SetupScreen) -> str:
    assert shown(screen, "#setup-msg") == bool(screen.message)
    return screen.message


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
def test_the_set_up_screen_matches_its_snapshot(size: tuple[int, int]) -> None:
    app = setup_app()
    texts: list[str] = []

    async def script(pilot: Pilot[int]) -> None:
        await on_setup(pilot, app)
        await press(pilot, "4", "down", "down", "right")  # four players, seat 2 a bot
        texts.append(screen_text(app))

    drive(app, size, script)
    text = texts[0]
    lines = text.splitlines()
    assert len(lines) == size[1] and max(len(line) for line in lines) <= size[0]
    for needle in ("New game", "Players", "◂ 4 ▸", "Player 1", "Player 4", "Random bot",
                   "person at this keyboard", "Variants", "[ ] Harder", "[ ] Mad Gnomes",
                   "Seed (optional)", "Or load a save", "Start", "Load", "Quit", "Esc quit"):
        assert needle in text, needle
    assert "Gnomes per player" not in text and "Player 5" not in text
    snapshot(f"tui_setup_{size[0]}x{size[1]}.txt", text)


@pytest.mark.parametrize("lang", sorted(available()))
def test_eight_players_fit_80x24_in_every_language(lang: str) -> None:
    """The fullest set-up (eight seats) needs no scrolling at 80×24: every field and the buttons
    are in view, and the keys line fits."""
    app = setup_app(lang=lang)
    cat = catalog(lang)

    async def script(pilot: Pilot[int]) -> None:
        screen = await on_setup(pilot, app)
        await press(pilot, "8")
        text = screen_text(app)
        lines = text.splitlines()
        assert len(lines) == 24 and max(len(line) for line in lines) <= 80
        for needle in (cat.get("ui", "player_long", seat=8), cat.raw("term_setup", "start"),
                       cat.raw("term_setup", "quit"), cat.raw("term_setup", "keys"),
                       cat.raw("variants", "harder")[:20]):
            assert needle in text, (lang, needle)
        assert screen.query_one("#setup-main").max_scroll_y == 0

    drive(app, (80, 24), script)
    assert len(cat.raw("term_setup", "keys")) <= 79


def test_four_players_three_bots_and_a_variant_start_that_game() -> None:
    app = setup_app()

    async def script(pilot: Pilot[int]) -> None:
        await on_setup(pilot, app)
        # players 4; seat 2 one step on (random), seat 3 two (heuristic), seat 4 one back
        # (search:strong); then down to Mad Gnomes, tick it, and a seed
        await press(pilot, "4", "down", "down", "right", "down", "right", "right", "down", "left")
        await press(pilot, "down", "down", "down", "down", "space", "down", "4", "2")
        assert app.screen.query_one("#seed", Input).value == "42"
        await press(pilot, "enter")
        await until(pilot, lambda: app.playing and "Submarine" in screen_text(app))

    drive(app, (80, 24), script)
    s = app.session
    assert s.game.config == Config(4, 1, frozenset({"mad-gnomes"}), 42)
    assert s.bot_names == {1: "random", 2: "heuristic", 3: "search:strong"}
    assert {seat: bot.name for seat, bot in s.bots.items()} == s.bot_names
    assert s.humans == [0]
    # the very game the line mode sets up from the same answers
    same = new_setup(Namespace(players=4, gnomes=None, variant=["mad-gnomes"], seed=42,
                               bot=["2=random", "3=heuristic", "4=search:strong"], data=None),
                     Console(file=io.StringIO()), input, catalog())
    assert to_dict(same.game) == to_dict(s.game) and same.bot_names == s.bot_names


def test_the_mouse_sets_up_a_game_too() -> None:
    app = setup_app()

    async def script(pilot: Pilot[int]) -> None:
        screen = await on_setup(pilot, app)
        players = screen.query_one("#players", Choice)
        back = 2 + players.label_width  # the "◂" of a choice line
        for _ in range(2):
            assert await pilot.click("#players", offset=(back + 3, 0))  # on the value: one up
        await pilot.pause()
        assert players.value == "3"
        assert await pilot.click("#players", offset=(back, 0))  # on "◂": one down
        assert await pilot.click("#seat-2", offset=(back + 4, 0))
        toggle = next(t for t in screen.query(Toggle) if t.name == "harder")
        assert await pilot.click(toggle, offset=(3, 0))
        await pilot.pause()
        assert players.value == "2" and toggle.value
        assert await pilot.click("#start")
        await until(pilot, lambda: app.playing)

    drive(app, (160, 50), script)
    config = app.session.game.config
    assert (config.players, config.gnomes_per_player, config.variants) == (2, 2, frozenset({"harder"}))
    assert app.session.bot_names == {1: SEAT_KINDS[1]}


def test_one_player_is_asked_the_gnomes_two_players_are_told() -> None:
    app = setup_app()

    async def script(pilot: Pilot[int]) -> None:
        screen = await on_setup(pilot, app)
        await press(pilot, "1")
        assert shown(screen, "#gnomes") and shown(screen, "#gnome-note")
        assert shown(screen, "#seat-1") and not shown(screen, "#seat-2")
        assert "Gnomes per player" in screen_text(app) and "◂ 3 ▸" in screen_text(app)
        await press(pilot, "2")  # two players: no gnome count (R16), the rule shown instead
        assert not shown(screen, "#gnomes") and shown(screen, "#gnome-note")
        await press(pilot, "1", "down", "5")  # the gnomes' field takes the digit for itself
        assert screen.players == 1
        assert screen.query_one("#gnomes", Choice).value == "5"
        await press(pilot, "enter")
        await until(pilot, lambda: app.playing)

    drive(app, (80, 24), script)
    config = app.session.game.config
    assert (config.players, config.gnomes_per_player, config.gnomes) == (1, 5, 5)


def test_bad_answers_give_a_message_and_the_screen_stays(tmp_path: Path) -> None:
    app = setup_app(gnomes=5)  # --gnomes 5: only a solo game can start

    async def script(pilot: Pilot[int]) -> None:
        screen = await on_setup(pilot, app)
        assert not shown(screen, "#setup-msg")
        screen.query_one("#seed", Input).focus()
        await press(pilot, "x", "1", "enter")
        assert "The seed must be a whole number, not “x1”." in screen_text(app)
        assert app.screen is screen and not app.playing
        await press(pilot, "backspace", "backspace")  # typing clears the message
        assert not shown(screen, "#setup-msg")
        screen.query_one("#players", Choice).focus()
        await press(pilot, "3", "enter")  # three players with --gnomes 5: the rules say no
        assert "Cannot start the game" in message(screen)
        assert "each player runs exactly one gnome" in message(screen)
        assert "Cannot start the game" in screen_text(app)
        screen.query_one("#file", Input).focus()
        await press(pilot, "enter")  # no file typed
        assert message(screen) == "Type the path of a save file first."
        screen.query_one("#file", Input).value = str(tmp_path / "none.json")
        await press(pilot, "enter")
        assert message(screen).startswith(f"Cannot load {tmp_path / 'none.json'}")
        assert app.screen is screen and not app.playing
        await press(pilot, "escape")

    drive(app, (80, 24), script)
    assert app.return_value == EXIT_OK


@pytest.mark.parametrize(("keys", "code"), [
    (["escape"], EXIT_OK), (["q"], EXIT_OK), (["tab", "escape"], EXIT_OK),
    (["ctrl+c"], EXIT_UNFINISHED),
])
def test_leaving_the_set_up_exits_as_the_line_mode(keys: list[str], code: int) -> None:
    """Esc or q: the line mode's quit (0); Ctrl-C: an interrupted set-up (1). No game, no save."""
    app = setup_app()

    async def script(pilot: Pilot[int]) -> None:
        await on_setup(pilot, app)
        await press(pilot, *keys)

    drive(app, (80, 24), script)
    assert app.return_value == code == app.return_code and not app.playing


@pytest.mark.parametrize("lang", sorted(available()))
def test_the_seats_name_the_bots_in_the_screens_language(lang: str) -> None:
    """A seat's choice named a bot by its API name in every language ("bot search:fast"); it
    names it as the game's status and the web page do ("Mittlerer Bot")."""
    app = setup_app(lang=lang)
    cat = catalog(lang)
    seen: list[str] = []

    async def script(pilot: Pilot[int]) -> None:
        screen = await on_setup(pilot, app)
        await press(pilot, "2")
        seat = screen.query_one("#seat-2", Choice)
        for _ in SEAT_KINDS[1:]:
            seat.action_step(1)
            await pilot.pause()
            seen.append(seat.texts[seat.index])
            assert seat.texts[seat.index] in screen_text(app)
        await press(pilot, "escape")

    drive(app, (80, 24), script)
    assert seen == [cat.raw("bot_names", name) for name in SEAT_KINDS[1:]]
    assert not any(name in " ".join(seen) for name in ("heuristic", "search"))


def test_q_in_a_text_field_is_typed_not_quit() -> None:
    app = setup_app()

    async def script(pilot: Pilot[int]) -> None:
        screen = await on_setup(pilot, app)
        field = screen.query_one("#file", Input)
        field.focus()
        await press(pilot, "q")
        assert field.value == "q" and app.screen is screen
        await press(pilot, "escape")

    drive(app, (80, 24), script)
    assert app.return_value == EXIT_OK


def test_the_set_up_offers_the_unfinished_autosave_first(autosave: Path) -> None:
    """Issue 18 §10: the set-up screen did not offer the game saved on quitting. Now a Resume
    button, with the focus, plays it on (Enter) with its bots."""
    game = new_game(Config(3, None, frozenset(), 8))
    game.apply(game.legal_actions()[0])
    autosave.write_text(save_text(game, {1: "random"}), "utf-8")
    app = setup_app()

    async def script(pilot: Pilot[int]) -> None:
        screen = await on_setup(pilot, app)
        assert shown(screen, "#resume-row") and screen.focused is screen.query_one("#resume")
        assert "Unfinished game saved 20" in screen_text(app)
        app.save_screenshot("tui_setup_resume_80x24.svg", str(SHOTS))
        await press(pilot, "enter")
        await until(pilot, lambda: app.playing)

    drive(app, (80, 24), script)
    assert app.session.game.history == game.history and app.session.bot_names == {1: "random"}


def test_a_digit_on_resume_sets_the_players_and_enter_then_starts_that_game(
        autosave: Path) -> None:
    """The keys line says "1-8 players · Enter start": a digit typed while Resume has the focus
    set the players, but the focus stayed on Resume, so Enter resumed the saved game instead."""
    saved = new_game(Config(2, None, frozenset(), 8))
    saved.apply(saved.legal_actions()[0])
    autosave.write_text(save_text(saved, {}), "utf-8")
    app = setup_app()

    async def script(pilot: Pilot[int]) -> None:
        screen = await on_setup(pilot, app)
        assert screen.focused is screen.query_one("#resume")
        await press(pilot, "4")
        assert screen.players == 4 and screen.focused is screen.query_one("#players")
        await press(pilot, "enter")
        await until(pilot, lambda: app.playing)

    drive(app, (80, 24), script)
    game = app.session.game
    assert game.config.players == 4 and game.history == []  # a new game, not the saved one


@pytest.mark.parametrize("finished", [True, False])
def test_a_finished_or_broken_autosave_is_not_offered(autosave: Path, finished: bool) -> None:
    game = new_game(Config(3, None, frozenset(), 8))
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    autosave.write_text(save_text(game, {}) if finished else "{not json", "utf-8")
    app = setup_app()

    async def script(pilot: Pilot[int]) -> None:
        screen = await on_setup(pilot, app)
        assert not screen.query("#resume-row")
        assert screen.focused is screen.query_one("#players")
        await press(pilot, "escape")

    drive(app, (80, 24), script)


def test_the_text_fields_show_the_focus_marker() -> None:
    """Issue 18 §10: the seed and file fields had no focus marker (the choices have ▸)."""
    app = setup_app()

    async def script(pilot: Pilot[int]) -> None:
        screen = await on_setup(pilot, app)
        screen.query_one("#seed", Input).focus()
        await pilot.pause()
        text = screen_text(app)
        assert "▸ Seed" in text and "▸ Or load" not in text
        screen.query_one("#file", Input).focus()
        await pilot.pause()
        text = screen_text(app)
        assert "▸ Or load a save" in text and "▸ Seed" not in text
        await press(pilot, "escape")

    drive(app, (80, 24), script)


def test_a_save_loads_from_the_set_up_screen_with_its_bots(tmp_path: Path) -> None:
    game = new_game(Config(3, None, frozenset({"harder"}), 8))
    game.apply(game.legal_actions()[0])
    path = tmp_path / "game.json"
    path.write_text(save_text(game, {2: "random"}), "utf-8")
    app = setup_app()

    async def script(pilot: Pilot[int]) -> None:
        screen = await on_setup(pilot, app)
        screen.query_one("#file", Input).value = str(path)
        screen.query_one("#file", Input).focus()
        await press(pilot, "enter")
        await until(pilot, lambda: app.playing)

    drive(app, (80, 24), script)
    assert app.session.game.history == game.history
    assert app.session.game.config == game.config
    assert app.session.bot_names == {2: "random"}


def test_flags_given_skip_the_screen() -> None:
    """--players (or --load) sets the game up: no screen; the game is played at once."""
    app = build_app(args(players=3, seed=5, bot=["2=random"], variant=["harder"]),
                    Console(file=io.StringIO()))
    assert isinstance(app, GameApp) and app.playing and app.setup_screen is None
    app.bot_delay = 1000.0

    async def script(pilot: Pilot[int]) -> None:
        await until(pilot, lambda: "Submarine" in screen_text(app))
        assert not isinstance(app.screen, SetupScreen)

    drive(app, (80, 24), script)
    assert app.session.game.config == Config(3, None, frozenset({"harder"}), 5)
    assert app.session.bot_names == {1: "random"}
    errors = io.StringIO()
    assert build_app(args(players=2, gnomes=3), Console(file=errors)) == 2  # R16, as before
    assert "exactly 2 gnomes" in errors.getvalue()


def test_flags_without_players_skip_their_questions_on_the_screen() -> None:
    app = setup_app(gnomes=4, variant=["hardest"], bot=["2=random"], seed=77)

    async def script(pilot: Pilot[int]) -> None:
        screen = await on_setup(pilot, app)
        assert not shown(screen, "#gnomes") and not shown(screen, "#seed-row")
        assert not shown(screen, "#seat-1") and not shown(screen, "#variants-head")
        assert not any(t.display for t in screen.query(Toggle))
        await press(pilot, "2", "enter")  # two players: --gnomes 4 breaks R16
        assert "exactly 2 gnomes (R16)" in message(screen)
        await press(pilot, "1", "enter")  # one player: seat 2 of --bot does not exist
        assert "Bad --bot" in message(screen)
        await press(pilot, "3", "enter")  # three: --gnomes is for a solo player
        assert "exactly one gnome" in message(screen)
        assert not app.playing

    drive(app, (80, 24), script)
    app = setup_app(variant=["hardest"], bot=["2=random"], seed=77)

    async def start(pilot: Pilot[int]) -> None:
        await on_setup(pilot, app)
        await press(pilot, "3", "enter")
        await until(pilot, lambda: app.playing)

    drive(app, (80, 24), start)
    assert app.session.game.config == Config(3, None, frozenset({"hardest"}), 77)
    assert app.session.bot_names == {1: "random"}


def test_the_screen_speaks_the_language_of_lang() -> None:
    app = setup_app(lang="de")

    async def script(pilot: Pilot[int]) -> None:
        await on_setup(pilot, app)
        await press(pilot, "3")
        text = screen_text(app)
        for needle in ("Neues Spiel", "Spieler 3", "Mensch an dieser Tastatur", "Varianten",
                       "Starten", "Beenden"):
            assert needle in text, needle
        await press(pilot, "enter")
        await until(pilot, lambda: app.playing)
        assert "U-Boot" in screen_text(app)

    drive(app, (80, 24), script)
    assert app.session.lang == "de"


def test_run_tui_opens_the_screen_only_when_the_set_up_is_open(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """run_tui on a terminal: the app starts on the set-up screen without --players, on the game
    with it; leaving at the set-up says goodbye as the line mode does."""
    ran: list[GameApp] = []

    def fake_run(self: GameApp) -> int:
        ran.append(self)
        return EXIT_OK

    monkeypatch.setattr(tui, "wants_plain", lambda _: False)
    monkeypatch.setattr(GameApp, "run", fake_run)
    assert tui.run_tui(args()) == EXIT_OK
    asking = ran[-1]
    assert asking.setup_screen is not None and not asking.playing
    assert "Goodbye." in capsys.readouterr().out
    assert tui.run_tui(args(players=1, seed=3)) == EXIT_OK
    playing = ran[-1]
    assert playing.setup_screen is None and playing.session.game.config == Config(1, 3, seed=3)


def test_leaving_a_finished_game_names_its_file_without_a_resume_command(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    """A game saved on the way and then played to its end: leaving says where the finished game
    is, not how to resume it (there is nothing left to play); an unfinished one says how."""
    def fake_run(self: GameApp) -> int:
        self.saved_to = tmp_path / "evening.json"
        if finish:
            game = self.session.game
            while not game.is_over:
                game.apply(game.legal_actions()[0])
        return EXIT_OK

    monkeypatch.setattr(tui, "wants_plain", lambda _: False)
    monkeypatch.setattr(GameApp, "run", fake_run)
    for finish in (False, True):
        assert tui.run_tui(args(players=1, seed=3)) == EXIT_OK
        out = " ".join(capsys.readouterr().out.split())
        assert ("--load" in out) is not finish, out
        assert ("The finished game is saved to" in out) is finish, out
        assert "evening.json" in out


def test_the_line_mode_and_the_screen_share_one_builder() -> None:
    """new_setup (the line mode's questions) ends in build_setup: same answers, same game."""
    cat = catalog()
    answers = iter(["1", "4", "1 4", "1", "random"])
    asked = new_setup(Namespace(players=None, gnomes=None, variant=[], seed=9, bot=[], data=None),
                      Console(file=io.StringIO()), lambda prompt: next(answers), cat)
    built = build_setup(1, 4, ["harder", "mad-gnomes"], {0: "random"}, 9, cat)
    assert to_dict(asked.game) == to_dict(built.game) and asked.bot_names == built.bot_names


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
def test_the_game_set_up_on_the_screen_looks_as_one_from_the_command_line(
        size: tuple[int, int]) -> None:
    """The game widgets mounted after the set-up draw exactly what GameApp draws for the same
    game started directly (as with --players)."""
    texts: list[str] = []
    app = setup_app()

    async def through_screen(pilot: Pilot[int]) -> None:
        screen = await on_setup(pilot, app)
        screen.query_one("#seed", Input).value = "7"
        await press(pilot, "3", "down", "down", "right", "right", "down", "right", "right", "enter")
        await until(pilot, lambda: app.playing and (app.shown or app.bot_pending))
        texts.append(screen_text(app))

    drive(app, size, through_screen)
    setup = build_setup(3, None, [], {1: "heuristic", 2: "heuristic"}, 7, catalog())
    direct = GameApp(Session(setup.game, setup.bots, setup.bot_names), bot_delay=1000.0)

    async def at_once(pilot: Pilot[int]) -> None:
        await until(pilot, lambda: bool(direct.shown or direct.bot_pending))
        texts.append(screen_text(direct))

    drive(direct, size, at_once)
    assert app.session.game.config == setup.game.config
    assert texts[0] == texts[1]
    assert "Submarine" in texts[0] and "Time track" in texts[0]


def test_a_seat_cycles_through_the_bots_weakest_first_as_the_web_offers_them() -> None:
    """The terminal cycled the bots alphabetically (search before search:fast) while the web
    offers them weakest first: both now follow BOTS's order."""
    js = (Path(__file__).parents[1] / "src/rednovember/web/static/js/panels.js").read_text("utf-8")
    web = re.search(r"const STRENGTH = \[(.*?)\];", js)
    assert web is not None
    assert SEAT_KINDS[1:] == re.findall(r'"([^"]+)"', web.group(1))
    assert SEAT_KINDS[1:] == ["random", "heuristic", "search:fast", "search", "search:strong"]
