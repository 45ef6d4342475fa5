"""``rednovember play``: the terminal game. Humans and bots share one board; the loop uses only
``game.legal_actions()`` and ``game.apply(action)``.

:class:`PlayApp` takes a Rich console and an ``ask(prompt) -> str`` callable, so tests can script
a whole game with a ``Console(file=StringIO())`` and a list of answers.
"""

from __future__ import annotations

from argparse import Namespace
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from ..i18n import UnknownLanguage, available, catalog
from ..i18n import names as n
from ..i18n.describe import describe_decision
from ..rules import Action, Game, load_data
from ..rules.serialize import to_json
from . import screen
from .hint import hint_lines
from .menu import Entry, build_menu, minutes_menu
from .newgame import Ask, Setup, SetupError, load_setup, new_setup


class Quit(Exception):
    """The player typed quit (or the input ended)."""


class PlayApp:
    """One game at the terminal: shows the board, asks humans, lets bots move."""

    def __init__(self, setup: Setup, console: Console, ask: Ask | None = None, lang: str = "en",
                 clear: bool | None = None, max_log: int = 40) -> None:
        self.game: Game = setup.game
        self.bots = setup.bots
        self.bot_names = setup.bot_names
        self.console = console
        self.ask: Ask = ask or console.input
        self.lang = lang
        self.cat = catalog(lang)
        self.clear = console.is_terminal if clear is None else clear
        self.max_log = max_log
        self.marks: dict[int, int] = {}  # seat -> log length when it last acted
        self.streamed = 0  # log entries already printed live (games without humans)
        self.last_seat = -1
        self.humans = [s for s in range(self.game.config.players) if s not in self.bots]

    # --- the loop ------------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the game ends or the player quits; returns the exit status (0)."""
        try:
            while not self.game.is_over:
                seat = self.game.player_to_move
                if seat in self.bots:
                    self._bot_move(seat)
                else:
                    self._human_move(seat)
        except Quit:
            self.console.print(self.cat.raw("ui", "quit"))
            return 0
        self._finish()
        return 0

    def _bot_move(self, seat: int) -> None:
        action = self.bots[seat].choose(self.game)
        self.game.apply(action)
        if not self.humans:
            self._stream()

    def _stream(self) -> None:
        lines, _ = screen.log_lines(self.game, self.streamed, self.lang, None)
        for line in lines:
            self.console.print(line)
        self.streamed = len(self.game.log)

    def _human_move(self, seat: int) -> None:
        g = self.game
        if g.config.has("mad-gnomes") and len(self.humans) > 1 and seat != self.last_seat:
            self._pass_keyboard(seat)
        self.last_seat = seat
        self.show(seat)
        action = self._choose(seat)
        mark = len(g.log)
        g.apply(action)
        self.marks[seat] = mark

    def _pass_keyboard(self, seat: int) -> None:
        """Mad Gnomes with several humans: hide the screen before showing a private hand."""
        if self.clear:
            self.console.clear()
        player = self.cat.get("ui", "player_long", seat=seat + 1)
        self._read(self.cat.get("ui", "pass_to", player=player) + " ")

    # --- showing -------------------------------------------------------------------------------
    def show(self, seat: int) -> None:
        """The whole screen for ``seat``: what happened, the board, the question and choices."""
        g, cat, con = self.game, self.cat, self.console
        if self.clear:
            con.clear()
        con.print(screen.header(g, cat))
        start = self.marks.get(seat, 0)
        if start < len(g.log):
            con.print(Text(cat.raw("ui", "since"), style="bold underline"))
            lines, skipped = screen.log_lines(g, start, self.lang, seat, self.max_log)
            screen.print_log(con, lines, skipped, cat)
            con.print()
        con.print(screen.board_view(g, cat, seat, self.bot_names, con))
        con.print()
        con.print(Text(describe_decision(g, self.lang), style="bold reverse"))

    def _prompt(self, seat: int) -> str:
        gnome = n.gnome(self.cat, self.game, self.game.decider)
        player = self.cat.get("ui", "player_long", seat=seat + 1)
        return self.cat.get("ui", "prompt", gnome=gnome, player=player)

    # --- asking --------------------------------------------------------------------------------
    def _read(self, prompt: str) -> str:
        try:
            return self.ask(escape(prompt))
        except (EOFError, KeyboardInterrupt):
            raise Quit from None

    def _choose(self, seat: int) -> Action:
        entries = build_menu(self.game, self.lang)
        self.console.print(screen.menu_view(entries, self.cat))
        self.console.print(self.cat.raw("ui", "prompt_hint"), style="dim")
        while True:
            picked = self._pick(entries, seat, back=False)
            if picked is None:  # the main menu has no "back"
                continue
            if not picked.is_group:
                return picked.actions[0]
            sub = minutes_menu(picked, self.game, self.lang)
            self.console.print(Text(picked.question, style="bold"))
            self.console.print(screen.menu_view(sub, self.cat, back=True))
            choice = self._pick(sub, seat, back=True)
            if choice is not None:
                return choice.actions[0]
            self.console.print(screen.menu_view(entries, self.cat))

    def _pick(self, entries: list[Entry], seat: int, back: bool) -> Entry | None:
        """Read until a valid number; None means "back" (sub-menus only). Commands are handled
        here, invalid input re-prompts without touching the game."""
        while True:
            text = self._read(self._prompt(seat)).strip()
            if not text:
                continue
            if text.isdigit():
                number = int(text)
                if back and number == 0:
                    return None
                if 1 <= number <= len(entries):
                    return entries[number - 1]
                self.console.print(self.cat.get("ui", "bad_number", low=0 if back else 1,
                                                high=len(entries)), style="red")
            elif back and text.lower() == "back":
                return None
            elif self._command(text, seat):
                self.console.print(screen.menu_view(entries, self.cat, back=back))

    def _command(self, text: str, seat: int) -> bool:
        """Handle help/log/board/save/quit; True when the menu should be shown again."""
        word, _, rest = text.partition(" ")
        word = word.lower()
        cat, con = self.cat, self.console
        if word in ("quit", "exit", "q"):
            raise Quit
        if word in ("help", "h", "?"):
            con.print(cat.raw("ui", "help"))
        elif word == "log":
            con.print(Text(cat.raw("ui", "full_log"), style="bold underline"))
            lines, _ = screen.log_lines(self.game, 0, self.lang, seat)
            screen.print_log(con, lines, 0, cat)
        elif word == "board":
            self.show(seat)
        elif word == "hint":  # the advisor (terminal/hint.py)
            con.print(Text("\n".join(hint_lines(self.game, seat, self.lang, say=con.print))))
        elif word == "save":
            self._save(rest.strip())
            return False
        else:
            con.print(cat.get("ui", "bad_command", text=text), style="red")
            return False
        return word != "help"

    def _save(self, file: str) -> None:
        if not file:
            self.console.print(self.cat.raw("ui", "save_usage"), style="red")
            return
        try:
            Path(file).expanduser().write_text(to_json(self.game, indent=1), "utf-8")
        except OSError as exc:
            self.console.print(self.cat.get("ui", "save_failed", file=file,
                                            error=exc.strerror or str(exc)), style="red")
            return
        self.console.print(self.cat.get("ui", "saved", file=file), style="green")

    # --- the end -------------------------------------------------------------------------------
    def _finish(self) -> None:
        g, con = self.game, self.console
        if self.humans:
            seat = self.humans[0]
            start = min(self.marks.get(s, 0) for s in self.humans)
            con.print(screen.header(g, self.cat))
            lines, skipped = screen.log_lines(g, start, self.lang, None, self.max_log)
            screen.print_log(con, lines, skipped, self.cat)
        else:
            self._stream()
            seat = -1
        con.print(screen.board_view(g, self.cat, seat, self.bot_names, con))
        con.print(screen.result_view(g, self.cat, self.lang))


def play(args: Namespace, console: Console, ask: Ask | None = None,
         errors: Console | None = None) -> int:
    """Set up (or load) a game from ``args`` and play it; returns the exit status."""
    errors = errors or console
    lang = getattr(args, "lang", None) or "en"
    try:
        cat = catalog(lang)
    except UnknownLanguage:
        errors.print(catalog().get("ui", "unknown_language", lang=lang,
                                   available=", ".join(available())), style="bold red")
        return 2
    reader: Ask = ask or console.input
    try:
        if getattr(args, "load", None):
            setup = load_setup(args.load, list(args.bot or []), cat,
                               load_data(getattr(args, "data", None)))
            console.print(cat.get("ui", "loaded", file=args.load), style="green")
        else:
            setup = new_setup(args, console, reader, cat)
            console.print(cat.get("ui", "new_game", seed=setup.game.config.seed), style="green")
    except SetupError as exc:
        errors.print(str(exc), style="bold red", markup=False)
        return exc.code
    except (EOFError, KeyboardInterrupt):
        return 1
    try:
        return PlayApp(setup, console, reader, lang).run()
    except KeyboardInterrupt:
        console.print(cat.raw("ui", "quit"))
        return 1


def run_play(args: Namespace) -> int:
    """Entry point of ``rednovember play`` (see cli.py)."""
    return play(args, Console(highlight=False), errors=Console(stderr=True, highlight=False))


__all__ = ["PlayApp", "Quit", "play", "run_play"]
