"""The set-up of a new game, full screen: shown first when the command line leaves it open (no
``--players``, no ``--load``). The same answers as the line mode's questions (players, a solo
player's gnomes, variants, which seats bots play), plus an optional seed and a save file to load;
the questions the command line answered (``--gnomes``, ``--variant``, ``--bot``, ``--seed``) are
not shown. An unfinished game in the autosave file is offered first (Resume, which has the
focus). The game is built by :func:`newgame.build_setup` (or :func:`newgame.load_setup`), the
functions the line mode uses, so both set up a game alike.

Keys: Tab or ↑↓ go from field to field, ←→ or Space change a choice, Space ticks a variant, a
digit sets the players (or gnomes) at once, Enter starts (in the file field: loads), Esc or q
leave (exit status 0, as the line mode's quit). The mouse works too."""

from __future__ import annotations

from argparse import Namespace
from datetime import datetime
from pathlib import Path

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Input, Static

from ...bots import BOTS
from ...i18n import Catalog
from ...rules import VARIANTS, GameData
from ..newgame import (
    HUMAN,
    PLAYERS,
    SOLO_GNOMES,
    Setup,
    SetupError,
    build_setup,
    load_setup,
    parse_bots,
)

SEAT_KINDS = [HUMAN, *BOTS]  # what a seat's choice cycles through: bots weakest first, as the web
MAX_LABEL = 26  # the label column's widest (a longer label is cut with "…")
ROOMY = 36  # from this terminal height on, the box has blank lines around its fields
FOCUS_MARK = "▸ "  # before the field that has the focus (visible without colours too)


def fit(text: str, width: int) -> str:
    """``text`` padded, or cut with "…", to ``width`` characters."""
    return text.ljust(width) if len(text) <= width else text[:width - 1] + "…"


def bot_label(cat: Catalog, name: str) -> str:
    """A bot as a seat's choice shows it: its name in the catalog's language ("Easy bot"), as
    the game's status names it; a bot without one by its API name ("bot heuristic")."""
    if cat.has("bot_names", name):
        return cat.raw("bot_names", name)
    return cat.get("term_setup", "bot", name=name)


class Choice(Widget, can_focus=True):
    """One line "label  ◂ value ▸": ←/→ (or Space, or a click: on "◂" back, elsewhere on)
    step through the values; a digit picks the value it names (the numbers' fields)."""

    DEFAULT_CSS = """
    Choice { height: 1; width: 100%; }
    Choice:focus { background: $boost; text-style: bold; }
    Choice:hover { background: $boost; }
    """
    BINDINGS = [Binding("left", "step(-1)", show=False), Binding("right,space", "step(1)", show=False)]

    class Changed(Message):
        def __init__(self, choice: Choice) -> None:
            super().__init__()
            self.choice = choice

    def __init__(self, label: str, values: list[str], texts: list[str], label_width: int,
                 index: int = 0, id: str | None = None, classes: str = "") -> None:
        super().__init__(id=id, classes=classes)
        self.label = label
        self.values = values
        self.texts = texts
        self.label_width = label_width
        self.index = index

    @property
    def value(self) -> str:
        return self.values[self.index]

    def select(self, index: int) -> None:
        index %= len(self.values)
        if index != self.index:
            self.index = index
            self.refresh()
            self.post_message(self.Changed(self))

    def render(self) -> Text:
        text = Text(FOCUS_MARK if self.has_focus else " " * len(FOCUS_MARK), style="bold")
        text.append(fit(self.label, self.label_width))
        text.append("◂ ", style="dim")
        text.append(self.texts[self.index], style="bold")
        text.append(" ▸", style="dim")
        return text

    def action_step(self, delta: int) -> None:
        self.select(self.index + delta)

    def on_key(self, event: events.Key) -> None:
        if event.character and event.character in self.values:
            event.stop()
            self.select(self.values.index(event.character))

    def on_click(self, event: events.Click) -> None:
        back = len(FOCUS_MARK) + self.label_width + 1  # the column of "◂"
        self.select(self.index + (-1 if event.x <= back else 1))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


class Toggle(Widget, can_focus=True):
    """A tick box "[x] label": Space or a click ticks and unticks."""

    DEFAULT_CSS = """
    Toggle { height: auto; width: 100%; }
    Toggle:focus { background: $boost; text-style: bold; }
    Toggle:hover { background: $boost; }
    """
    BINDINGS = [Binding("space", "tick", show=False)]

    def __init__(self, label: str, name: str, value: bool = False) -> None:
        super().__init__(name=name)
        self.label = label
        self.value = value

    def render(self) -> Table:
        """The box, then the label; a long label wraps under itself, not under the box."""
        box = Text(FOCUS_MARK if self.has_focus else " " * len(FOCUS_MARK), style="bold")
        box.append("[x] " if self.value else "[ ] ", style="bold")
        grid = Table.grid()
        grid.add_column(width=len(box), no_wrap=True)
        grid.add_column(ratio=1)
        grid.add_row(box, Text(self.label))
        return grid

    def action_tick(self) -> None:
        self.value = not self.value
        self.refresh()

    def on_click(self) -> None:
        self.action_tick()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


class SetupScreen(Screen[Setup | None]):
    """Dismissed with the new (or loaded) game's :class:`Setup`, or None when the player leaves."""

    DEFAULT_CSS = """
    SetupScreen { layout: vertical; }
    #setup-main { height: 1fr; align: center middle; scrollbar-size-vertical: 1; }
    #setup-box { width: 100%; max-width: 92; height: auto; border: round $accent;
                 border-title-style: bold; padding: 0 1 0 0; }
    #setup-box.roomy { padding: 1 2 1 1; }
    #setup-box.roomy .seat-1 { margin-top: 1; }
    .setup-gap { margin-top: 1; }
    .setup-note { color: $text-muted; padding-left: 2; height: auto; }
    .setup-head { text-style: bold; padding-left: 2; height: 1; }
    .setup-row { height: 1; width: 100%; }
    .setup-label { height: 1; }
    #resume-row { height: auto; margin-bottom: 1; padding-left: 2; }
    #resume-row Button { margin-right: 2; min-width: 10; }
    .setup-row Input { width: 1fr; }
    #setup-buttons { height: 1; width: 100%; padding-left: 2; }
    #setup-buttons Button { margin-right: 2; min-width: 10; }
    #setup-msg { color: $error; text-style: bold; width: 100%; max-width: 92; height: auto;
                 padding: 0 1; }
    #setup-keys { height: 1; background: $boost; color: $text-muted; padding: 0 0 0 1; }
    """
    BINDINGS = [
        Binding("escape,q", "leave", show=False),
        Binding("enter", "start", show=False),
        Binding("up", "app.focus_previous", show=False),
        Binding("down", "app.focus_next", show=False),
    ]

    def __init__(self, args: Namespace, cat: Catalog, data: GameData | None = None,
                 autosave: Path | None = None) -> None:
        super().__init__()
        self.args = args
        self.cat = cat
        self.data = data
        self.saved = self._unfinished(autosave)  # the autosave's game, offered first
        self.ask_gnomes = getattr(args, "gnomes", None) is None
        self.ask_variants = not getattr(args, "variant", None)
        self.ask_bots = not getattr(args, "bot", None)
        self.ask_seed = getattr(args, "seed", None) is None
        self.message = ""  # the message shown under the box
        labels = [cat.raw("web", "players"), cat.raw("web", "gnomes_per_player"),
                  cat.raw("web", "seed"), cat.raw("term_setup", "load"),
                  cat.get("ui", "player_long", seat=PLAYERS[-1])]
        self.label_width = min(MAX_LABEL, max(len(label) for label in labels) + 2)

    @property
    def lang(self) -> str:
        return self.cat.code

    def _unfinished(self, autosave: Path | None) -> tuple[Setup, str] | None:
        """The game in ``autosave`` and when it was saved, if it loads and is not over."""
        if autosave is None or not autosave.is_file():
            return None
        try:
            setup = load_setup(str(autosave), list(getattr(self.args, "bot", None) or []),
                               self.cat, self.data)
            when = datetime.fromtimestamp(autosave.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
        except (SetupError, OSError):
            return None
        return None if setup.game.is_over else (setup, when)

    # --- layout ----------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        cat, width = self.cat, self.label_width
        numbers = [str(n) for n in PLAYERS]
        gnomes = [str(n) for n in SOLO_GNOMES]
        kinds = [cat.raw("term_setup", "person")] + [bot_label(cat, name)
                                                     for name in SEAT_KINDS[1:]]
        with VerticalScroll(id="setup-main"):
            with Vertical(id="setup-box") as box:
                box.border_title = cat.raw("term_setup", "title")
                if self.saved is not None:
                    with Horizontal(id="resume-row", classes="setup-row"):
                        yield Button(cat.raw("term_setup", "resume"), id="resume",
                                     variant="success", compact=True)
                        yield Static(cat.get("term_setup", "resume_note", when=self.saved[1]),
                                     classes="setup-note")
                yield Choice(cat.raw("web", "players"), numbers, numbers, width, 0, id="players")
                yield Choice(cat.raw("web", "gnomes_per_player"), gnomes, gnomes, width, 0,
                             id="gnomes")
                yield Static(cat.raw("web", "gnomes_per_player_help"), id="gnome-note",
                             classes="setup-note")
                for seat in PLAYERS:
                    yield Choice(cat.get("ui", "player_long", seat=seat), SEAT_KINDS, kinds, width,
                                 id=f"seat-{seat}", classes=f"seat seat-{seat}")
                yield Static(cat.raw("web", "variants"), id="variants-head",
                             classes="setup-head setup-gap")
                for variant in VARIANTS:
                    yield Toggle(cat.raw("variants", variant), variant)
                with Horizontal(id="seed-row", classes="setup-row setup-gap"):
                    yield Static(self._label("seed"), id="seed-label", classes="setup-label")
                    yield Input(placeholder=cat.raw("web", "seed_random"), id="seed", compact=True)
                with Horizontal(id="load-row", classes="setup-row"):
                    yield Static(self._label("file"), id="file-label", classes="setup-label")
                    yield Input(placeholder=cat.raw("term_setup", "load_placeholder"), id="file",
                                compact=True)
                with Horizontal(id="setup-buttons", classes="setup-gap"):
                    yield Button(cat.raw("term_setup", "start"), id="start", variant="primary",
                                 compact=True)
                    yield Button(cat.raw("term_setup", "load_button"), id="load", compact=True)
                    yield Button(cat.raw("term_setup", "quit"), id="quit", variant="error",
                                 compact=True)
            yield Static("", id="setup-msg")  # why Start or Load did not work, under the box
        yield Static(Text(cat.raw("term_setup", "keys")), id="setup-keys")

    def on_mount(self) -> None:
        for label in self.query(".setup-label"):
            label.styles.width = self.label_width + len(FOCUS_MARK)
        self.query_one("#variants-head").display = self.ask_variants
        for toggle in self.query(Toggle):
            toggle.display = self.ask_variants
        self.query_one("#seed-row").display = self.ask_seed
        self.query_one("#setup-msg").display = False
        self._show_fields()
        self.query_one("#resume" if self.saved else "#players").focus()

    def _label(self, field: str, focused: bool = False) -> Text:
        """A text field's label, with the focus marker when the field has the focus."""
        raw = self.cat.raw("web", "seed") if field == "seed" else self.cat.raw("term_setup", "load")
        text = Text(FOCUS_MARK if focused else " " * len(FOCUS_MARK), style="bold")
        text.append(fit(raw, self.label_width), style="bold" if focused else "")
        return text

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._mark_fields()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self._mark_fields()

    def _mark_fields(self) -> None:
        for field in ("seed", "file"):
            focused = self.focused is not None and self.focused.id == field
            self.query_one(f"#{field}-label", Static).update(self._label(field, focused))

    def on_resize(self, event: events.Resize) -> None:
        """Room to breathe inside the box on a big screen."""
        self.query_one("#setup-box").set_class(event.size.height >= ROOMY, "roomy")

    def _show_fields(self) -> None:
        """The gnomes only for one player; a seat line per player (unless --bot named them)."""
        players = self.players
        self.query_one("#gnomes").display = self.ask_gnomes and players == 1
        self.query_one("#gnome-note").display = self.ask_gnomes and players <= 2
        for seat in PLAYERS:
            self.query_one(f"#seat-{seat}").display = self.ask_bots and seat <= players

    # --- the answers -----------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return int(self.query_one("#players", Choice).value)

    def on_key(self, event: events.Key) -> None:
        """A digit sets the players from any field but the text fields (the gnomes' field takes
        its own 3-8). From a button (Resume, which has the focus when a game is offered) it also
        takes the focus to the players, so that Enter then starts that game, as the keys line
        says, instead of pressing the button."""
        if event.character and event.character.isdigit() and not isinstance(self.focused, Input):
            players = self.query_one("#players", Choice)
            if event.character in players.values:
                event.stop()
                players.select(players.values.index(event.character))
                if isinstance(self.focused, Button):
                    players.focus()

    def on_choice_changed(self, event: Choice.Changed) -> None:
        self.say("")
        if event.choice.id == "players":
            self._show_fields()

    def say(self, message: str) -> None:
        """Show why Start or Load did not work ("" hides the line)."""
        self.message = message
        msg = self.query_one("#setup-msg", Static)
        msg.update(Text(message))
        msg.display = bool(message)
        if message:
            msg.scroll_visible(animate=False)

    def answers(self) -> Setup:
        """The game the fields describe (raises :class:`SetupError` with the reason)."""
        cat, args, players = self.cat, self.args, self.players
        gnomes: int | None = getattr(args, "gnomes", None)
        if self.ask_gnomes and players == 1:
            gnomes = int(self.query_one("#gnomes", Choice).value)
        if self.ask_variants:
            variants = [t.name for t in self.query(Toggle) if t.value and t.name]
        else:
            variants = list(args.variant)
        if self.ask_bots:
            names = {seat - 1: choice.value for seat in PLAYERS[:players]
                     if (choice := self.query_one(f"#seat-{seat}", Choice)).value != HUMAN}
        else:
            names = parse_bots(list(args.bot), players, cat)
        seed: int | None = getattr(args, "seed", None)
        if self.ask_seed:
            text = self.query_one("#seed", Input).value.strip()
            if text:
                try:
                    seed = int(text)
                except ValueError:
                    raise SetupError(cat.get("term_setup", "bad_seed", seed=text)) from None
        return build_setup(players, gnomes, variants, names, seed, cat, self.data)

    # --- actions ---------------------------------------------------------------------------------
    def action_start(self) -> None:
        try:
            setup = self.answers()
        except SetupError as exc:
            self.say(str(exc))
            return
        self.dismiss(setup)

    def action_load(self) -> None:
        path = self.query_one("#file", Input).value.strip()
        if not path:
            self.say(self.cat.raw("term_setup", "no_file"))
            self.query_one("#file", Input).focus()
            return
        try:
            setup = load_setup(path, list(getattr(self.args, "bot", None) or []), self.cat,
                               self.data)
        except SetupError as exc:
            self.say(str(exc))
            return
        self.dismiss(setup)

    def action_leave(self) -> None:
        self.dismiss(None)

    def action_resume(self) -> None:
        if self.saved is not None:
            self.dismiss(self.saved[0])

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "file":
            self.action_load()
        else:
            self.action_start()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.say("")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "resume":
            self.action_resume()
        elif event.button.id == "start":
            self.action_start()
        elif event.button.id == "load":
            self.action_load()
        else:
            self.action_leave()


__all__ = ["SEAT_KINDS", "Choice", "SetupScreen", "Toggle", "bot_label"]
