"""``rednovember play --plain``: the line-mode terminal game, for screen readers and pipes. Humans
and bots share one board; the loop uses only ``game.legal_actions()`` and ``game.apply(action)``.

:class:`PlayApp` takes a Rich console and an ``ask(prompt) -> str`` callable, so tests can script
a whole game with a ``Console(file=StringIO())`` and a list of answers; ``rednovember play
--plain`` reads standard input line by line (readline edits the line on a terminal: arrow keys
move the cursor instead of printing escape codes). On a terminal the lines wrap to its width;
on a pipe or in a file no line is wrapped (:func:`line_console`).

Exit codes (:data:`EXIT_CODES`, also in ``play --help`` and the README): 0 the game ended, or the
player left it with ``quit`` (confirmed; the game is saved first); 1 the input ended or was
interrupted before the game ended (the game is saved); 2 bad command line, unknown language or a
save that cannot be loaded.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import textwrap
from argparse import Namespace
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from ..i18n import Catalog, UnknownLanguage, available, catalog
from ..i18n import names as n
from ..i18n.describe import describe_action, describe_decision
from ..rules import Action, ActionError, Game, can_undo, load_data, parse_action, undo
from ..rules.state import MOVE, OPENED
from . import screen
from .hint import hint_lines
from .menu import END, Entry, build_menu, minutes_menu
from .newgame import Ask, Setup, SetupError, load_setup, new_setup, save_text

with contextlib.suppress(ImportError):  # not on every platform
    # line editing for input(): arrow keys move the cursor instead of printing escape codes
    import readline  # noqa: F401

EXIT_OK, EXIT_UNFINISHED, EXIT_USAGE = 0, 1, 2
EXIT_CODES = {
    EXIT_OK: "the game ended, or the player left it with quit (the game is saved first)",
    EXIT_UNFINISHED: "the input ended or was interrupted before the game ended (the game is saved)",
    EXIT_USAGE: "bad command line, unknown language, or a save that cannot be loaded",
}
AUTOSAVE_ENV = "REDNOVEMBER_AUTOSAVE"
PLAY_COMMAND_ENV = "REDNOVEMBER_PLAY_COMMAND"  # set by scripts/play.sh: its resume hints name it
QUIT_WORDS = ("quit", "exit", "q")
# A pipe or a file has no width: its lines are not wrapped (the reader's viewer wraps them). Rich
# still wants a number: one that no line of the game reaches, so that tables keep their natural
# width too (:func:`line_console`).
NO_WIDTH = 10_000


def line_console(stderr: bool = False) -> tuple[Console, int]:
    """The line mode's console on standard output (or error), and the width to lay the board out
    at. On a terminal: Rich's console, every line wrapped to the terminal's width. On a pipe or a
    file: no line is wrapped or cut (``soft_wrap`` and :data:`NO_WIDTH`); the board's drawings
    are laid out at the width Rich found there ($COLUMNS, a terminal on another stream, else 80)."""
    console = Console(highlight=False, stderr=stderr)
    width = console.width
    if not console.is_terminal:
        console.soft_wrap = True
        console.width = NO_WIDTH
    return console, width


def play_command(lang: str = "en") -> str:
    """The command that starts the game again, for the resume hints: ``scripts/play.sh`` when
    it started this one (``rednovember`` is then not on the PATH), else ``rednovember play``
    when that is on the PATH, else Python's ``-m``; with ``--lang`` unless English (a save
    keeps no language)."""
    script = os.environ.get(PLAY_COMMAND_ENV)
    if script:
        command = script
    elif shutil.which("rednovember"):
        command = "rednovember play"
    else:
        command = f"{sys.executable} -m rednovember play"
    return command if lang == "en" else f"{command} --lang {lang}"


def default_autosave() -> Path:
    """Where quitting saves the game: $REDNOVEMBER_AUTOSAVE, else
    $XDG_STATE_HOME/rednovember/autosave.json (~/.local/state when unset)."""
    if os.environ.get(AUTOSAVE_ENV):
        return Path(os.environ[AUTOSAVE_ENV]).expanduser()
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "rednovember" / "autosave.json"


class Quit(Exception):
    """The player left (quit confirmed): exit status 0."""


class InputEnded(Exception):
    """Standard input ended (or Ctrl-C at a confirmation) before the game ended: status 1."""


class PlayApp:
    """One game at the terminal: shows the board, asks humans, lets bots move."""

    def __init__(self, setup: Setup, console: Console, ask: Ask | None = None, lang: str = "en",
                 clear: bool | None = None, max_log: int = 40,
                 autosave: Path | None = None, width: int | None = None) -> None:
        self.game: Game = setup.game
        self.bots = setup.bots
        self.bot_names = setup.bot_names
        self.console = console
        self.ask: Ask = ask or console.input
        self.lang = lang
        self.cat = catalog(lang)
        self.clear = console.is_terminal if clear is None else clear
        self.width = console.width if width is None else width  # of the board (line_console)
        self.max_log = max_log
        self.autosave = autosave or default_autosave()
        self.marks: dict[int, int] = {}  # seat -> log length when it last acted
        self.streamed = 0  # log entries already printed live (games without humans on board)
        self.shown = (-1, -1)  # the seat that last answered, and the turn of its board on screen
        self.humans = [s for s in range(self.game.config.players) if s not in self.bots]
        self.watching = False  # the humans have no gnome left on board: bots' moves stream
        self.steps = 1  # actions applied by the last answer
        self.left_saved = False  # the game was saved on leaving (or its player gave it up)

    # --- the loop ------------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the game ends and the review is left (0), the player quits (0), or the
        input ends (1)."""
        try:
            while not self.game.is_over:
                seat = self.game.player_to_move
                try:
                    if seat in self.bots:
                        self._bot_move(seat)
                    else:
                        self._human_move(seat)
                except KeyboardInterrupt:  # while a bot thinks: ask, as at a prompt
                    self.console.print()
                    self._confirm_quit()
        except Quit:
            self._save_on_leaving()
            self.console.print(self.cat.raw("ui", "quit"))
            return EXIT_OK
        except InputEnded:
            self.console.print(self.cat.raw("term_plain", "input_ended"))
            self._save_on_leaving()
            return EXIT_UNFINISHED
        self._finish()
        return self._review()

    def _bot_move(self, seat: int) -> None:
        action = self.bots[seat].choose(self.game)
        self.game.apply(action)
        if not self.humans:
            self._stream()
        elif self._humans_gone():
            if not self.watching:  # say once why the game goes on without them
                self.watching = True
                self.streamed = min(self.marks.values(), default=0)
                self.console.print(self.cat.raw("term_plain", "watching"), style="bold")
            self._stream()

    def _humans_gone(self) -> bool:
        return not any(gn.on_board for gn in self.game.gnomes if gn.player in self.humans)

    def _stream(self) -> None:
        lines, _ = screen.log_lines(self.game, self.streamed, self.lang, None)
        for line in lines:
            self.console.print(line)
        self.streamed = len(self.game.log)

    def _human_move(self, seat: int) -> None:
        g = self.game
        if g.config.has("mad-gnomes") and len(self.humans) > 1 and seat != self.shown[0]:
            self._pass_keyboard(seat)
        if self.shown == (seat, g.turn):
            self.update(seat)  # the same turn goes on: the board is on screen already
        else:
            self.show(seat)
        self.shown = (seat, g.turn)
        actions = self._choose(seat)
        mark = len(self.game.log)
        for action in actions:
            self.game.apply(action)
        self.marks[seat] = mark
        self.steps = len(actions)  # what one undo takes back (go ROOM: both steps)

    def _pass_keyboard(self, seat: int) -> None:
        """Mad Gnomes with several humans: hide the screen before showing a private hand."""
        if self.clear:
            self.console.clear()
        player = self.cat.get("ui", "player_long", seat=seat + 1)
        self._read(self.cat.get("ui", "pass_to", player=player) + " ")

    # --- showing -------------------------------------------------------------------------------
    def show(self, seat: int) -> None:
        """The whole screen for ``seat``: the board, what happened since the seat last acted
        (below the board: next to the question, where a small terminal still shows it — the
        result of one's own roll included), the question and the choices."""
        g, cat, con = self.game, self.cat, self.console
        if self.clear:
            con.clear()
        screen.print_wide(con, screen.header(g, cat), self.width)
        con.print(screen.board_view(g, cat, seat, self.bot_names, con, self.width))
        con.print()
        start = self.marks.get(seat, 0)
        if start < len(g.log):
            con.print(Text(cat.raw("ui", "since"), style="bold underline"))
            lines, skipped = screen.log_lines(g, start, self.lang, seat, self.max_log)
            screen.print_log(con, lines, skipped, cat)
            con.print()
        con.print(Text(describe_decision(g, self.lang), style="bold reverse"))

    def update(self, seat: int) -> None:
        """Between two answers of one turn: what happened since the seat's last answer and the
        question, not the whole board again (``board`` shows it)."""
        g, con = self.game, self.console
        lines, skipped = screen.log_lines(g, self.marks.get(seat, 0), self.lang, seat,
                                          self.max_log)
        con.print()
        screen.print_log(con, lines, skipped, self.cat)
        con.print(Text(describe_decision(g, self.lang), style="bold reverse"))

    def _prompt(self, seat: int) -> str:
        gnome = n.gnome(self.cat, self.game, self.game.decider)
        player = self.cat.get("ui", "player_long", seat=seat + 1)
        return self.cat.get("ui", "prompt", gnome=gnome, player=player)

    # --- asking --------------------------------------------------------------------------------
    def _read(self, prompt: str) -> str:
        """One line of input. Ctrl-C asks whether to leave (and goes on when not); the end of
        the input ends the game (saved)."""
        try:
            text = self.ask(escape(prompt))
        except EOFError:
            raise InputEnded from None
        except KeyboardInterrupt:
            self.console.print()
            self._confirm_quit()
            return ""
        self._echo(text)
        return text

    def _echo(self, text: str) -> None:
        """Piped input is not echoed by a terminal: print it (control characters, such as an
        arrow key's escape sequence, as '?'), so that the transcript reads as a dialogue."""
        if not self.console.is_terminal:
            shown = "".join(c if c.isprintable() else "?" for c in text)
            self.console.print(shown, markup=False, highlight=False)

    def _confirm_quit(self) -> None:
        """Ask before leaving; raises :class:`Quit` when the player says yes (or the input
        ends: nobody is left to ask)."""
        question = self.cat.get("term_plain", "confirm_quit", file=str(self.autosave)) + " "
        try:
            answer = self.ask(escape(question)).strip().lower()
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            raise Quit from None
        self._echo(answer)
        if self._yes(answer) and self._saved_or_given_up():
            raise Quit
        self.console.print(self.cat.raw("term_plain", "play_on"), style="dim")

    def _yes(self, answer: str) -> bool:
        return bool(answer) and answer in self.cat.raw("term_plain", "yes").split()

    def _saved_or_given_up(self) -> bool:
        """Saves the game before leaving; if that fails, whether the player leaves anyway
        (else they play on and may ``save FILE`` elsewhere)."""
        self._save_on_leaving()
        if self.left_saved:
            return True
        try:
            answer = self.ask(escape(self.cat.raw("term_plain", "quit_unsaved")) + " ").strip().lower()
        except (EOFError, KeyboardInterrupt):  # nobody is left to ask: leave
            self.console.print()
            return True
        self._echo(answer)
        self.left_saved = self._yes(answer)
        return self.left_saved

    def _save_on_leaving(self) -> None:
        if self.game.is_over or self.left_saved:
            return
        if self._write(self.autosave, make_folder=True):
            self.left_saved = True
            self.console.print(self.cat.get("term_plain", "autosaved", file=str(self.autosave),
                                            command=play_command(self.cat.code)),
                               style="green", markup=False)

    def _choose(self, seat: int) -> list[Action]:
        """The actions of one answer: usually one; ``go ROOM`` opens and goes through."""
        entries = build_menu(self.game, self.lang)
        self._menu(entries)
        while True:
            picked = self._pick(entries, seat, back=False)
            if isinstance(picked, list):
                return picked
            if picked is None:  # the main menu has no "back": an undo changed the position
                entries = build_menu(self.game, self.lang)
                self._menu(entries)
                continue
            if not picked.is_group:
                return picked.actions[:1]
            sub = minutes_menu(picked, self.game, self.lang)
            self.console.print(Text(picked.question, style="bold"))
            self.console.print(screen.menu_view(sub, self.cat, back=True))
            choice = self._pick(sub, seat, back=True)
            if isinstance(choice, list):
                return choice
            if isinstance(choice, Entry):
                return choice.actions[:1]
            entries = build_menu(self.game, self.lang)  # back (or an undo): the menu anew
            self._menu(entries)

    def _menu(self, entries: list[Entry]) -> None:
        self.console.print(screen.menu_view(entries, self.cat))
        # "0: end the turn" only when the rules let the turn end now (the menu then shows 0)
        ends = any(e.actions == [END] for e in entries)
        self.console.print(self.cat.raw("ui", "prompt_hint" if ends else "prompt_hint_no_end"),
                           style="dim")

    def _pick(self, entries: list[Entry], seat: int, back: bool) -> Entry | list[Action] | None:
        """Read until a valid number or a command that acts (``go``). None means "back" in a
        sub-menu, or (main menu) that ``undo`` changed the position and the menu is new.
        Invalid input re-prompts without touching the game."""
        numbers = dict(screen.numbered(entries, back))
        while True:
            text = self._read(self._prompt(seat)).strip()
            if not text:
                continue
            if text.lstrip("+-").isdigit():  # "-1" is a number out of range, not a command
                number = int(text)
                if back and number == 0:
                    return None
                if number in numbers:
                    return numbers[number]
                low = 0 if back or 0 in numbers else 1
                # 0 before the turn's action: say why the turn cannot end yet (rules: one action
                # every turn, No Action included)
                early = number == 0 and self.game.phase in (MOVE, OPENED)
                self.console.print(self.cat.get("ui", "end_not_yet" if early else "bad_number",
                                                low=low, high=max(numbers)), style="red")
                continue
            if back and text.lower() == "back":
                return None
            word, _, rest = text.partition(" ")
            word = word.lower()
            if word == "go":
                actions = self._go(rest.strip())
                if actions:
                    return actions
                continue
            if word == "undo":
                if self._undo(seat):
                    return None
                continue
            if self._command(word, rest.strip(), text, seat):
                if back:
                    self.console.print(screen.menu_view(entries, self.cat, back=True))
                else:
                    self._menu(entries)  # with the line that says what may be typed

    def _go(self, target: str) -> list[Action]:
        """``go ROOM``: open the hatch to ROOM and go through (when both are legal now)."""
        cat, g = self.cat, self.game
        if not target:
            self.console.print(cat.raw("term_plain", "go_usage"), style="red")
            return []
        try:
            opening = parse_action(f"open {target}", g.data)
        except ActionError:
            opening = None
        enter = Action("enter")
        if opening is not None and g.opened == opening.arg and enter in g.legal_actions():
            return [enter]  # the hatch is open already: go through
        if opening is None or opening not in g.legal_actions():
            self.console.print(cat.get("term_plain", "go_refused", room=target), style="red",
                               markup=False)
            return []
        twin = g.copy(keep_log=False)
        twin.apply(opening)
        return [opening, enter] if enter in twin.legal_actions() else [opening]

    def _undo(self, seat: int) -> bool:
        """Take back the last action when the rules allow it (hidden.undo); True when done."""
        g = self.game
        if not can_undo(g) or not g.history or self.game.player_to_move != seat:
            self.console.print(self.cat.raw("term_plain", "undo_none"), style="red")
            return False
        said: list[str] = []
        for _ in range(self.steps):  # a "go ROOM" is taken back as a whole
            if not can_undo(g) or not g.history:
                break
            last = g.history[-1]
            g = undo(g)
            # the sentence of the action taken back, as it read where it was taken
            said.insert(0, describe_action(last, g, self.lang))
        self.steps = 1
        before = self.game = g
        self.marks[seat] = min(self.marks.get(seat, 0), len(before.log))
        self.show(seat)
        self.console.print(self.cat.get("term_plain", "undo_done", action=self.cat.join(said)),
                           style="yellow", markup=False)
        return True

    def _command(self, word: str, rest: str, text: str, seat: int) -> bool:
        """help/legend/log/board/save/quit; True when the menu should be shown again."""
        cat, con = self.cat, self.console
        if word in QUIT_WORDS:
            self._confirm_quit()
            return True
        if word in ("help", "h", "?"):
            con.print(cat.get("ui", "help", command=play_command(cat.code)), markup=False)
            return False
        if word == "legend":
            con.print(cat.raw("term_plain", "legend"), markup=False)
            return False
        if word == "log":
            self._full_log(seat)
        elif word == "board":
            self.show(seat)
        elif word == "hint":  # the advisor (terminal/hint.py)
            for line in hint_lines(self.game, seat, self.lang, say=con.print):
                # a plan's indented line wraps under its own text, not at the left edge
                hang = " " * (len(line) - len(line.lstrip(" ")))
                con.print(Text(textwrap.fill(line, con.width, subsequent_indent=hang,
                                             break_long_words=False, break_on_hyphens=False)))
        elif word == "save":
            self._save(rest)
            return False
        else:
            con.print(cat.get("ui", "bad_command", text=text), style="red", markup=False)
            return False
        return True

    def _full_log(self, seat: int | None) -> None:
        self.console.print(Text(self.cat.raw("ui", "full_log"), style="bold underline"))
        lines, _ = screen.log_lines(self.game, 0, self.lang, seat)
        screen.print_log(self.console, lines, 0, self.cat)

    def _write(self, path: Path, make_folder: bool = False) -> bool:
        try:
            if make_folder:  # the autosave's folder (~/.local/state/rednovember) may be new
                path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(save_text(self.game, self.bot_names), "utf-8")
        except OSError as exc:
            self.console.print(self.cat.get("ui", "save_failed", file=str(path),
                                            error=exc.strerror or str(exc)), style="red",
                               markup=False)
            return False
        return True

    def _save(self, file: str) -> None:
        if not file:
            self.console.print(self.cat.raw("ui", "save_usage"), style="red")
            return
        if self._write(Path(file).expanduser()):
            self.console.print(self.cat.get("ui", "saved", file=file), style="green",
                               markup=False)

    # --- the end -------------------------------------------------------------------------------
    def _finish(self) -> None:
        g, con = self.game, self.console
        if self.humans and not self.watching:
            seat = self.humans[0]
            start = min(self.marks.get(s, 0) for s in self.humans)
            screen.print_wide(con, screen.header(g, self.cat), self.width)
            lines, skipped = screen.log_lines(g, start, self.lang, None, self.max_log)
            screen.print_log(con, lines, skipped, self.cat)
        else:
            self._stream()
            seat = self.humans[0] if self.humans else -1
        self._final_board(seat)

    def _final_board(self, seat: int) -> None:
        """The board as the game ended, seen from ``seat``, and the result."""
        con = self.console
        con.print(screen.board_view(self.game, self.cat, seat, self.bot_names, con, self.width))
        screen.print_wide(con, screen.result_view(self.game, self.cat, self.lang), self.width)

    def _review(self) -> int:
        """After the end, humans stay until they leave: the whole log, the board, a save.
        Games of bots alone end at once."""
        if not self.humans:
            return EXIT_OK
        cat, con = self.cat, self.console
        con.print(cat.raw("term_plain", "review"), style="bold")
        while True:
            try:
                text = self.ask(escape(cat.raw("term_plain", "review_prompt")))
            except (EOFError, KeyboardInterrupt):
                con.print()
                return EXIT_OK
            self._echo(text)
            word, _, rest = text.strip().partition(" ")
            word = word.lower()
            if not word or word in QUIT_WORDS:
                con.print(cat.raw("ui", "quit"))
                return EXIT_OK
            if word == "log":
                self._full_log(None)
            elif word == "board":
                self._final_board(self.humans[0])
            elif word == "legend":
                con.print(cat.raw("term_plain", "legend"), markup=False)
            elif word == "save":
                self._save(rest.strip())
            else:
                con.print(cat.raw("term_plain", "review"), style="red")


def command_catalog(lang: str, errors: Console) -> Catalog | None:
    """The texts of ``--lang``; None (and the languages there are, on ``errors``) for one we
    do not have."""
    try:
        return catalog(lang)
    except UnknownLanguage:
        errors.print(catalog().get("ui", "unknown_language", lang=lang,
                                   available=", ".join(available())), style="bold red")
        return None


def play(args: Namespace, console: Console, ask: Ask | None = None,
         errors: Console | None = None, autosave: Path | None = None,
         width: int | None = None) -> int:
    """Set up (or load) a game from ``args`` and play it; returns the exit status
    (:data:`EXIT_CODES`). ``width``: the board's, when not the console's (:func:`line_console`)."""
    errors = errors or console
    lang = getattr(args, "lang", None) or "en"
    cat = command_catalog(lang, errors)
    if cat is None:
        return EXIT_USAGE
    reader: Ask = ask or console.input

    def setup_reader(prompt: str) -> str:  # the set-up's answers, echoed when piped (as later)
        text = reader(prompt)
        if not console.is_terminal:
            console.print("".join(c if c.isprintable() else "?" for c in text), markup=False,
                          highlight=False)
        return text

    try:
        if getattr(args, "load", None):
            setup = load_setup(args.load, list(args.bot or []), cat,
                               load_data(getattr(args, "data", None)))
            console.print(cat.get("ui", "loaded", file=args.load), style="green", markup=False)
            if setup.bot_names and not args.bot:
                bots = ", ".join(screen.bot_player(cat, s, name)
                                 for s, name in sorted(setup.bot_names.items()))
                console.print(cat.get("term_plain", "seats_restored", bots=bots), markup=False)
        else:
            setup = new_setup(args, console, setup_reader, cat)
            console.print(cat.get("ui", "new_game", seed=setup.game.config.seed), style="green")
    except SetupError as exc:
        errors.print(str(exc), style="bold red", markup=False)
        return exc.code
    except (EOFError, KeyboardInterrupt):
        console.print()
        console.print(cat.raw("term_plain", "input_ended"))
        return EXIT_UNFINISHED
    return PlayApp(setup, console, reader, lang, autosave=autosave, width=width).run()


def run_play(args: Namespace) -> int:
    """Entry point of ``rednovember play --plain`` (see cli.py)."""
    console, width = line_console()
    return play(args, console, errors=line_console(stderr=True)[0], width=width)


__all__ = ["EXIT_CODES", "InputEnded", "PlayApp", "Quit", "default_autosave", "line_console", "play",
           "run_play"]
