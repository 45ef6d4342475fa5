"""The full-screen terminal game (Textual): the board, the disaster tracks and the time track always
in view, a scrolling log, a status line and the options of the pending decision.

Keys: a number chooses an option (two digits when there are ten or more: the first highlights,
and an arrow key or a pause forgets it), arrows and Enter or the mouse too; Tab reads the log at
full height (arrows and PgUp/PgDn scroll it), ``c`` shows the crew, ``u`` undo, ``?`` legend,
``h`` hint, ``s`` save, ``l`` language, ``q`` or Ctrl-C quit (asks, then saves). Bots move one
action at a time, ``bot_delay`` seconds apart.

Without a game to start with, the set-up screen (``setup.py``) asks first; its game is then
mounted on the app's own screen in the same run (Esc there leaves with status 0, Ctrl-C with 1)."""

from __future__ import annotations

from argparse import Namespace
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Key, Resize
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import OptionList, RichLog, Static
from textual.widgets.option_list import Option as ListOption

from ...i18n import available, catalog, names
from ...i18n.describe import describe_decision, describe_entry
from ...rules import SEA, Action, Game
from .. import screen
from ..app import EXIT_OK, EXIT_UNFINISHED, play_command
from ..hint import hint_lines
from ..newgame import Setup
from . import render
from .keys import digit
from .render import Hanging, hanging
from .screens import (
    ConfirmScreen,
    LegendScreen,
    Pane,
    PassScreen,
    PickScreen,
    ReviewScreen,
    SaveScreen,
)
from .session import Option, Session
from .setup import SetupScreen

WIDE = 140  # from this terminal width on, the board gets the line mode's full tables
FOLD_BELOW = 40  # below this terminal height, runs of moves in the log are folded into one line
SMALLEST = (80, 24)  # below this the screen only says that the terminal is too small
DIGIT_WAIT = 1.5  # seconds a first digit waits for the second before it is forgotten
# The keys that would show (or act on) the hand of the player to move: they wait while the
# keyboard is passed to that player (Mad Gnomes), until the player takes it with Enter.
PRIVATE = frozenset({"hint", "undo", "crew"})
SCROLL_KEYS = frozenset({"up", "down", "left", "right", "pageup", "pagedown", "home", "end", "tab",
                         "shift+tab", "escape"})


def log_items(game: Game, lang: str, viewer: int | None, fold: bool) -> list[tuple[int, int, Text]]:
    """(first entry, last entry, styled line) for the log pane; ``fold`` joins a gnome's
    consecutive hatch-and-enter moves into one line of room numbers."""
    cat = catalog(lang)
    out: list[tuple[int, int, Text]] = []
    log = game.log
    i = 0
    while i < len(log):
        entry = log[i]
        j = i
        path: list[int] = []
        while (fold and j + 1 < len(log) and log[j][0] == "open" and log[j + 1][0] == "enter"
               and log[j][1] == entry[1] and tuple(log[j + 1][1:]) == tuple(log[j][1:])):
            path += [log[j][2], log[j][3]] if not path else [log[j][3]]
            j += 2
        if len(path) > 2:  # two moves or more: one line
            where = " → ".join(str(r) if r != SEA else cat.raw("room_format", "sea_short")
                               for r in path)
            line = Text("  " + cat.get("term_tui", "moves", gnome=names.gnome(cat, game, entry[1]),
                                       path=where))
            out.append((i, j - 1, line))
            i = j
            continue
        indent = "" if entry and entry[0] == "turn" else "  "
        out.append((i, i, Text(indent + describe_entry(entry, game, lang, viewer),
                               style=screen.entry_style(entry))))
        i += 1
    return out


class LogView(RichLog):
    """The log; with the focus (Tab) it fills the screen, and Tab or Escape go back to the options.
    ``rewrap`` writes it again when its width changes (a RichLog keeps its lines as they were
    wrapped: read at full width, they filled only the column's width)."""

    BINDINGS = [Binding("tab,escape", "app.back_to_options", show=False)]

    def __init__(self, rewrap: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rewrap = rewrap
        self.wrapped_at = 0  # the width the lines were last wrapped for

    def on_focus(self) -> None:
        self.screen.add_class("reading")

    def on_blur(self) -> None:
        self.screen.remove_class("reading")

    def on_resize(self, event: Resize) -> None:
        if event.size.width != self.wrapped_at:
            self.wrapped_at = event.size.width
            self.call_later(self.rewrap)


class GameScreen(Screen[object]):
    """The game's screen: the options get the focus, never the log by itself (the log fills
    the screen while it has the focus)."""

    AUTO_FOCUS = "#options"


class GameApp(App[int]):
    """One game at the terminal, full screen."""

    TITLE = "Red November"
    CSS = """
    Screen { layout: vertical; }
    #status { height: auto; max-height: 3; background: $boost; padding: 0 1; }
    #main { height: 1fr; }
    #left { width: 1fr; height: 1fr; padding: 0 1; scrollbar-size-vertical: 1; }
    #right { width: 1fr; height: 1fr; border-left: solid $primary-darken-2; }
    #log { height: 1fr; min-height: 3; scrollbar-size-vertical: 1; padding: 0 0 0 1; }
    #log:focus { background-tint: $foreground 4%; }
    #question { height: auto; max-height: 5; background: $primary-darken-3; padding: 0 1; }
    #options { height: auto; max-height: 55%; border: none; padding: 0; scrollbar-size-vertical: 1;
               scrollbar-gutter: stable; }
    #too-small { display: none; height: 1fr; content-align: center middle; text-style: bold; }
    Screen.too-small #too-small { display: block; }
    Screen.too-small #status, Screen.too-small #main, Screen.too-small #keys { display: none; }
    Screen.reading #left, Screen.reading #question, Screen.reading #options { display: none; }
    Screen.reading #right { border-left: none; }
    #options:focus { border: none; }
    #keys { height: 1; background: $boost; color: $text-muted; padding: 0 0 0 1; }
    .section, .gap { height: auto; }
    #left.wide .section { margin-bottom: 1; }
    """
    BINDINGS = [
        Binding("u", "undo", "Undo"),
        Binding("question_mark", "legend", "Legend"),
        Binding("h", "hint", "Hint"),
        Binding("c", "crew", "Crew"),
        Binding("s", "save", "Save"),
        Binding("l", "language", "Language"),
        Binding("q", "request_quit", "Quit"),
        Binding("ctrl+c", "request_quit", "Quit", priority=True, show=False),
        Binding("ctrl+q", "request_quit", "Quit", priority=True, show=False),
        Binding("pageup", "log_page(False)", show=False, priority=True),
        Binding("pagedown", "log_page(True)", show=False, priority=True),
    ]

    def __init__(self, session: Session | None, bot_delay: float = 0.6,
                 setup: SetupScreen | None = None, save_path: Path | None = None) -> None:
        """``session`` None: the set-up screen ``setup`` asks first; the game it sets up is then
        played with its language, saving to ``save_path`` (default: the autosave file)."""
        super().__init__()
        self._session = session
        if session is None and setup is None:
            setup = SetupScreen(Namespace(), catalog())
        self.setup_screen = setup
        self.save_path = save_path
        self.bot_delay = bot_delay
        self.shown: list[Option] = []
        self.keys: list[int] = []  # the number key of each option shown (End the turn: 0)
        self.typed = ""  # digits typed so far (ten or more options)
        self.bot_pending = False
        self.reviewing = False
        self.saved_to: Path | None = None
        self.wide = False
        self.last_seat = -1  # the human seat that decided last (Mad Gnomes: pass the keyboard)
        self.crew_shown = False  # below WIDE columns the crew replaces the rooms (key c)
        self.forget_timer: Timer | None = None  # forgets a first digit after a pause
        self.too_small = False  # below SMALLEST: the screen says so and the game's keys wait
        self.hint_for: tuple[Action, ...] | None = None  # the decision a pending hint is for

    # --- layout ----------------------------------------------------------------------------------
    def get_default_screen(self) -> Screen[object]:
        return GameScreen()

    def compose(self) -> ComposeResult:
        if self._session is not None:
            yield from self._game_widgets()

    def _game_widgets(self) -> list[Widget]:
        s = self.session
        return [
            Static(id="too-small"),
            Pane(self._status, id="status"),
            Horizontal(
                VerticalScroll(
                    Pane(lambda w: render.rooms(s.game, s.cat, w), id="rooms", classes="section"),
                    Pane(lambda w: render.tracks(s.game, s.cat, w), id="tracks", classes="section"),
                    Pane(lambda w: render.time_track(s.game, s.cat, w), id="time",
                         classes="section"),
                    Pane(self._crew, id="crew", classes="section"),
                    id="left", can_focus=False),
                Vertical(
                    LogView(self._write_log, id="log", wrap=True, markup=False, highlight=False,
                            auto_scroll=True, min_width=20),
                    Static(id="question"),
                    OptionList(id="options"),
                    id="right"),
                id="main"),
            Static(id="keys"),
        ]

    def _status(self, width: int) -> RenderableType:
        s = self.session
        return render.status(s.game, s.cat, s.viewer, s.bot_names, self.size.width)

    def _crew(self, width: int) -> RenderableType:
        s = self.session
        if not (self.wide or self.crew_shown):
            return Text("")
        names = screen.seat_names(s.cat, s.game, s.bot_names)
        return render.crew(s.game, s.cat, s.viewer, names, compact=not self.wide)

    def on_mount(self) -> None:
        if self._session is None and self.setup_screen is not None:
            self.push_screen(self.setup_screen, self._begin)
            return
        self._layout(self.size.width)
        self.refresh_all()

    async def _begin(self, setup: Setup | None) -> None:
        """The set-up screen's answer: the game starts in this same run (or the player left)."""
        if setup is None:
            self.exit(EXIT_OK)
            return
        lang = self.setup_screen.lang if self.setup_screen else "en"
        self._session = Session(setup.game, setup.bots, setup.bot_names, lang,
                                save_path=self.save_path)
        await self.screen.mount_all(self._game_widgets())
        self._layout(self.size.width)
        self.refresh_all()

    @property
    def session(self) -> Session:
        """The game being played (there is none while the set-up screen asks)."""
        if self._session is None:
            raise RuntimeError("the game is not set up yet")
        return self._session

    @property
    def playing(self) -> bool:
        return self._session is not None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The game's keys do nothing before there is a game, nor while the terminal is too small
        to show it (nobody acts blind); quitting always works."""
        if self._session is None:
            return action in ("request_quit", "focus_next", "focus_previous")
        if isinstance(self.screen, PassScreen) and action in PRIVATE:
            return False  # the keyboard is being passed: the next player's hand stays hidden
        return not self.blocked or action == "request_quit"

    @property
    def blocked(self) -> bool:
        """The terminal is too small for the game (the review, to read only, still shows)."""
        return self.too_small and not self.reviewing

    def on_resize(self, event: Resize) -> None:
        if self._session is None:
            return
        self._layout(event.size.width, event.size.height)
        self.refresh_all()
        self.call_after_refresh(self._write_log)  # wrapped again at the log's new width

    def _layout(self, width: int, height: int | None = None) -> None:
        self.wide = width >= WIDE
        left = self.query_one("#left")
        left.styles.width = "3fr" if self.wide else "1fr"
        right = self.query_one("#right")
        right.styles.width = "2fr" if self.wide else "1fr"
        crew = self.query_one("#crew")
        crew.display = self.wide or self.crew_shown
        self.query_one("#rooms").display = self.wide or not self.crew_shown
        if self.wide:  # the crew under the time track; on a narrow screen in the rooms' place
            left.move_child(crew, after=self.query_one("#time"))
        else:
            left.move_child(crew, before=self.query_one("#tracks"))
        left.set_class(self.wide, "wide")
        height = self.size.height if height is None else height
        small = width < SMALLEST[0] or height < SMALLEST[1]
        self.too_small = small
        self.screen_stack[0].set_class(small, "too-small")  # the game's screen, under any dialog
        self.query_one("#main").disabled = small  # Enter on the hidden options chooses nothing
        if small:
            self.forget_digit()
        cat = self.session.cat
        self.query_one("#too-small", Static).update(Text(
            cat.get("term_tui", "too_small", width=SMALLEST[0], height=SMALLEST[1],
                    now=f"{width}×{height}")
            + "\n\n" + cat.get("term_tui", "too_small_plain", command=play_command(cat.code))))

    # --- showing ---------------------------------------------------------------------------------
    def _position(self) -> tuple[Action, ...]:
        """The decision on the table, as the actions that led to it."""
        return tuple(self.session.game.history)

    def _drop_stale_hint(self) -> None:
        """A hint still being thought out for an earlier decision will not be shown: its plans
        are for a position that is gone (Mad Gnomes: for a hand the next player must not see)."""
        if self.hint_for is not None and self.hint_for != self._position():
            self.hint_for = None
            self.clear_notifications()  # "thinking" is over

    def refresh_all(self) -> None:
        s = self.session
        g = s.game
        self._drop_stale_hint()
        for pane in self.query(Pane):
            pane.refresh(layout=True)
        self._write_log()
        question = self.query_one("#question", Static)
        options = self.query_one("#options", OptionList)
        if g.is_over:
            self._show_review()
            return
        if s.bot_to_move:
            question.update(Text(s.cat.get("term_tui", "bot_thinking",
                                           player=s.cat.get("ui", "player", seat=s.seat + 1)),
                                 style="italic"))
            self.shown, self.keys = [], []
            options.clear_options()
            self._show_keys()
            self._schedule_bot()
            return
        if self._must_pass():
            self.last_seat = s.seat
            player = s.cat.get("ui", "player_long", seat=s.seat + 1)
            self.push_screen(PassScreen(s.cat.get("ui", "pass_to", player=player)))
        self.last_seat = s.seat
        question.update(Text(describe_decision(g, s.lang), style="bold"))
        self.shown = s.options()
        self.typed = ""
        options.clear_options()
        self.keys = Session.numbers(self.shown)
        options.add_options([ListOption(self._label(k, o)) for k, o in zip(self.keys, self.shown,
                                                                             strict=True)])
        self._show_keys()
        if self.shown:
            options.highlighted = 0
        if not self.query_one("#log").has_focus:  # the player reading the log stays there
            options.focus()

    def _must_pass(self) -> bool:
        """Mad Gnomes with several humans: hands are private, so the screen is hidden when the
        keyboard goes to another human."""
        s = self.session
        return (s.game.config.has("mad-gnomes") and len(s.humans) > 1 and self.last_seat >= 0
                and s.seat != self.last_seat)

    def _show_keys(self) -> None:
        """The footer: the number keys of the options listed (``1-9``, ``0-11``), then the rest."""
        keys = sorted(self.keys)
        numbers = "" if not keys else str(keys[0]) if len(keys) == 1 else f"{keys[0]}-{keys[-1]}"
        bar = self.session.cat.get("term_tui", "keys_bar", keys=numbers).strip()
        self.query_one("#keys", Static).update(Text(bar))

    def _label(self, number: int, option: Option) -> Table:
        text = Text(option.label + (" …" if option.is_group else ""),
                    style="bold red" if option.lethal else "red" if option.warn else "")
        if option.preview:
            text.append(" " + option.preview, style="dim")
        return hanging(str(number), len(str(max(self.keys, default=0))), text)

    def _write_log(self) -> None:
        """The log, what happened since the viewer last acted marked; on a small screen a run of
        hatch-and-enter moves is one line ("Blue goes 1 → 2 → 5"), and the view starts at the
        mark when the news do not fit."""
        s = self.session
        log = self.query_one("#log", RichLog)
        log.auto_scroll = False  # scrolled below: to the end, or to the mark
        log.clear()
        since = s.since()
        viewer = s.viewer if s.humans else None  # a game of bots only: every card
        fold = self.size.height < FOLD_BELOW
        mark_line = -1
        for first, last, line in log_items(s.game, s.lang, viewer, fold):
            if first <= since <= last and since > 0 and mark_line < 0:
                mark_line = len(log.lines)
                log.write(Text("── " + s.cat.raw("ui", "since") + " ──", style="bold reverse"))
            if last < since:
                line.stylize("dim")
            log.write(Hanging(line))
        if mark_line >= 0 and len(log.lines) - mark_line > log.size.height > 0:
            log.scroll_to(y=mark_line, animate=False)
        else:
            log.scroll_end(animate=False)

    def action_log_page(self, down: bool) -> None:
        """Page/PgDn scroll the log (the review's too)."""
        logs = self.screen.query(RichLog)
        if logs:
            page = logs.first()
            page.auto_scroll = False
            if down:
                page.scroll_page_down(animate=False)
            else:
                page.scroll_page_up(animate=False)

    def _board(self, width: int) -> RenderableType:
        s = self.session
        names = screen.seat_names(s.cat, s.game, s.bot_names)
        return Group(render.rooms(s.game, s.cat, width), Text(""),
                     render.tracks(s.game, s.cat, width), Text(""),
                     render.time_track(s.game, s.cat, width), Text(""),
                     render.crew(s.game, s.cat, -1, names, width=width))

    def _show_review(self) -> None:
        if self.reviewing:
            return
        self.reviewing = True
        s = self.session
        if self.saved_to is not None:  # the file named on leaving holds the finished game
            with suppress(OSError):
                s.save(self.saved_to)
        self.push_screen(self._review_screen())

    def _review_screen(self) -> ReviewScreen:
        """The review in the session's language."""
        s = self.session
        log, _ = screen.log_lines(s.game, 0, s.lang, None)
        return ReviewScreen(screen.result_view(s.game, s.cat, s.lang), self._board, log, s.cat)

    # --- bots ------------------------------------------------------------------------------------
    def _schedule_bot(self) -> None:
        if self.bot_pending:
            return
        self.bot_pending = True
        if self.bot_delay > 0:
            self.set_timer(self.bot_delay, self._bot_move)
        else:
            self.call_later(self._bot_move)

    def _bot_move(self) -> None:
        self.bot_pending = False
        if self.session.bot_to_move:
            self.session.bot_step()
        self.refresh_all()

    # --- choosing --------------------------------------------------------------------------------
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "options":
            self.pick(event.option_index)

    def on_key(self, event: Key) -> None:
        if event.key in SCROLL_KEYS:  # `1`, Down, Down, `1` is not option 11
            self.forget_digit()
        if not event.character or not event.character.isdigit() or not self.shown:
            return
        if self.screen is not self.screen_stack[0]:  # a dialog is open
            return
        event.stop()
        if self.blocked:  # the options are not on screen: a digit chooses nothing
            return
        self.forget_digit()
        if event.character == "0" and not self.typed and 0 in self.keys:  # End the turn
            self.pick(self.keys.index(0))
            return
        count = max(self.keys, default=0)
        result = digit(self.typed, event.character, count)
        self.typed = result.typed
        if result.choose >= 0:
            self.pick(self.keys.index(result.choose + 1))
        elif result.highlight >= 0:
            self.query_one("#options", OptionList).highlighted = self.keys.index(result.highlight + 1)
            self.forget_timer = self.set_timer(DIGIT_WAIT, self.forget_digit)
        else:
            self.notify(self.session.cat.get("ui", "bad_number", low=1, high=count),
                        severity="warning")

    def forget_digit(self) -> None:
        """A first digit waiting for a second one is forgotten (the highlight stays)."""
        self.typed = ""
        if self.forget_timer is not None:
            self.forget_timer.stop()
            self.forget_timer = None

    def action_back_to_options(self) -> None:
        if self.playing:
            self.query_one("#options", OptionList).focus()

    def action_crew(self) -> None:
        """Below WIDE columns: the crew (every gnome's place, intoxication and hand) in the
        rooms' place, or the rooms again."""
        self.crew_shown = not self.crew_shown
        self._layout(self.size.width)
        self.refresh_all()

    def pick(self, index: int) -> None:
        """Choose the option at ``index`` of the list: a group asks its minutes, a lethal choice
        asks first."""
        if not 0 <= index < len(self.shown) or self.session.bot_to_move or self.blocked:
            return
        self.query_one("#options", OptionList).focus()
        option = self.shown[index]
        if option.is_group:
            subs = self.session.minute_options(option)
            labels = [self._sub_label(o) for o in subs]
            best, note = self.session.suggestion(option)
            if best >= 0:
                labels[best].append("  " + note, style="bold green")
            question = option.group.question if option.group else ""

            def picked(choice: int | None) -> None:
                if choice is not None:
                    self._confirm_and_apply(subs[choice])

            self.push_screen(PickScreen(question, labels, self.session.cat, max(best, 0)), picked)
            return
        self._confirm_and_apply(option)

    def _sub_label(self, option: Option) -> Text:
        """A line of the minutes dialog, which numbers it (PickScreen)."""
        text = Text(option.label, style="bold red" if option.lethal else "red" if option.warn else "")
        if option.preview:
            text.append(" " + option.preview, style="dim")
        return text

    def _confirm_and_apply(self, option: Option) -> None:
        if not option.lethal:
            self.apply(option)
            return
        cat = self.session.cat
        question = cat.get("term_tui", "confirm_lethal", choice=option.label.split(" ⚠ ")[0],
                           warnings="\n".join("⚠ " + w for w in option.warnings))

        def answered(yes: bool | None) -> None:
            if yes:
                self.apply(option)

        self.push_screen(ConfirmScreen(question, cat, danger=True), answered)

    def apply(self, option: Option) -> None:
        self.session.choose(option)
        self.refresh_all()

    # --- commands --------------------------------------------------------------------------------
    def action_undo(self) -> None:
        if self.session.undo():
            self.notify(self.session.cat.raw("term_tui", "undone"))
            self.refresh_all()
        else:
            self.notify(self.session.cat.raw("term_tui", "no_undo"), severity="warning")

    def action_legend(self) -> None:
        self.push_screen(LegendScreen(render.legend(self.session.cat), self.session.cat))

    def action_hint(self) -> None:
        """The advisor's three best plans for the human to move (thought out in a thread; the
        screen goes on meanwhile)."""
        s = self.session
        seat = s.game.player_to_move
        if s.game.is_over or seat not in s.humans:
            self.notify(s.cat.raw("advisor", "not_now"), severity="warning")
            return
        self.notify(s.cat.raw("advisor", "thinking"))
        game, lang = s.game.copy(), s.lang
        asked = self.hint_for = self._position()

        def show(title: str, lines: list[str]) -> None:
            if self.hint_for != asked:  # the decision changed while the advisor thought
                return
            self.hint_for = None
            self.clear_notifications()  # "thinking" is over
            # a plan's indented line wraps under its own text, not at the dialog's left edge
            body = Group(*(Padding(Text(line.lstrip(" ")), (0, 0, 0, len(line) - len(line.lstrip(" "))))
                           for line in lines))
            self.push_screen(LegendScreen(body, s.cat, title, keys=False))

        def think() -> None:
            title, *lines = hint_lines(game, seat, lang)  # its first line names the gnome
            self.call_from_thread(show, title, lines)

        self.run_worker(think, thread=True, exclusive=True, group="hint")

    def action_save(self) -> None:
        """Ask for the file (the autosave file by default) and save there."""
        cat = self.session.cat

        def chosen(file: str | None) -> None:
            if not file:
                return
            path = Path(file).expanduser()
            try:
                self.session.save(path)
            except OSError as exc:
                self.notify(cat.get("ui", "save_failed", file=file, error=exc.strerror or str(exc)),
                            severity="error")
                return
            self.saved_to = path
            self.notify(cat.get("ui", "saved", file=file))

        self.push_screen(SaveScreen(str(self.session.save_path), cat), chosen)

    def action_language(self) -> None:
        langs = available()
        current = self.session.lang
        nxt = langs[(langs.index(current) + 1) % len(langs)] if current in langs else langs[0]
        self.session.set_lang(nxt)
        self.notify(self.session.cat.raw("meta", "name") if "name" in self.session.cat.section("meta")
                    else nxt)
        self.refresh_all()
        if self.reviewing and isinstance(self.screen, ReviewScreen):  # its texts were built once
            self.switch_screen(self._review_screen())

    def action_request_quit(self) -> None:
        if self._session is None:  # Ctrl-C at the set-up: interrupted, as in the line mode
            self.exit(EXIT_UNFINISHED, return_code=EXIT_UNFINISHED)
            return
        if self.reviewing:
            self.exit(0)
            return
        if isinstance(self.screen, ConfirmScreen):
            return
        cat = self.session.cat
        question = cat.get("term_tui", "confirm_quit", file=str(self.session.save_path),
                           command=play_command(cat.code))

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            try:
                self.saved_to = self.session.save()
            except OSError as exc:  # leave all the same, or go back and save elsewhere (s)
                unsaved = cat.get("term_tui", "quit_unsaved", file=str(self.session.save_path),
                                  error=exc.strerror or str(exc))
                self.push_screen(ConfirmScreen(unsaved, cat, danger=True, enter=False),
                                 leave_unsaved)
                return
            self.exit(0)

        def leave_unsaved(yes: bool | None) -> None:
            if yes:
                self.saved_to = None  # a file saved to earlier holds an older turn: not named
                self.exit(0)

        self.push_screen(ConfirmScreen(question, cat), answered)


__all__ = ["GameApp"]
