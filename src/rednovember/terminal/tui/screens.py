"""Modal screens of the full-screen app: a yes/no question, a list to pick from (a repair's
minutes), the legend of symbols, and the review at the end of a game."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Key, Resize
from textual.geometry import Size
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option as ListOption

from ...i18n import Catalog
from .keys import digit
from .render import Hanging, hanging


class Pane(Static):
    """A Static whose content is rebuilt for its current width (on every refresh and resize)."""

    def __init__(self, build: Callable[[int], RenderableType], id: str, classes: str = "") -> None:
        super().__init__(id=id, classes=classes)
        self.build = build

    def render(self) -> RenderableType:
        return self.build(self.content_region.width or self.app.size.width)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The height of what is drawn at ``width`` (not at the width of the last drawing)."""
        console = self.app.console
        lines = console.render_lines(self.build(width), console.options.update_width(width),
                                     pad=False)
        return len(lines)


DIALOG_CSS = """
#dialog { width: auto; max-width: 90%; height: auto; max-height: 90%; border: thick $accent;
          background: $surface; padding: 0 1; }
#dialog.danger { border: thick $error; }
#dlg-question { width: auto; max-width: 100%; height: auto; }
#dlg-keys { color: $text-muted; height: auto; }
#picks { width: auto; max-width: 100%; height: auto; max-height: 18; min-width: 30; }
"""


def modal_css(screen: str, extra: str = "") -> str:
    """The CSS of the dialog screen class named ``screen``: the dialog centred on the screen, then
    the dialogs' shared rules and ``extra``. Textual scopes a class's DEFAULT_CSS to that class
    (a rule there for ``ModalScreen`` matches nothing), so the centring names the class itself."""
    return f"{screen} {{ align: center middle; }}\n" + DIALOG_CSS + extra


class ConfirmScreen(ModalScreen[bool]):
    """A question answered with y (or Enter) / n (or Escape); ``enter`` False makes Enter answer
    no (a question where a second Enter pressed by mistake must not lose anything)."""

    DEFAULT_CSS = modal_css("ConfirmScreen", """
    ConfirmScreen #dialog { width: 72; max-width: 100%; }
    ConfirmScreen #dlg-question { width: 100%; }
    """)
    BINDINGS = [Binding("y", "answer(True)", show=False),
                Binding("enter", "enter", show=False),
                Binding("n,escape", "answer(False)", show=False)]

    def __init__(self, question: str, cat: Catalog, danger: bool = False,
                 enter: bool = True) -> None:
        super().__init__()
        self.question = question
        self.cat = cat
        self.danger = danger
        self.enter = enter  # the answer Enter gives

    def compose(self) -> ComposeResult:
        keys = self.cat.raw("term_tui", "yes_no" if self.enter else "yes_no_enter_no")
        with Vertical(id="dialog", classes="danger" if self.danger else ""):
            yield Static(Text(self.question, style="bold"), id="dlg-question")
            yield Static(keys, id="dlg-keys")

    def on_key(self, event: Key) -> None:
        """The language's own letters too (Russian д/н, German j, …: term_plain.yes / .no)."""
        char = (event.character or "").lower()
        for answer in (True, False):
            words = self.cat.raw("term_plain", "yes" if answer else "no").split()
            if char and char in (w for w in words if len(w) == 1):
                event.stop()
                self.dismiss(answer)
                return

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    def action_enter(self) -> None:
        self.dismiss(self.enter)


class PickScreen(ModalScreen[int | None]):
    """Pick one line of a list (number keys, arrows and Enter, or the mouse); Escape goes back.
    ``labels`` are the lines' texts: the dialog numbers them from 1."""

    DEFAULT_CSS = modal_css("PickScreen")
    BINDINGS = [Binding("escape", "back", show=False)]

    def __init__(self, question: str, labels: list[Text], cat: Catalog, start: int = 0) -> None:
        super().__init__()
        self.question = question
        self.labels = labels
        self.cat = cat
        self.typed = ""
        self.start = start  # the line highlighted first (the suggested minutes)

    def on_mount(self) -> None:
        picks = self.query_one("#picks", OptionList)
        picks.highlighted = self.start
        picks.focus()

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.question, style="bold"), id="dlg-question")
            width = len(str(len(self.labels)))  # the numbers, right-aligned; the text under text
            picks = OptionList(*[ListOption(hanging(str(i), width, label))
                                 for i, label in enumerate(self.labels, 1)], id="picks")
            # as wide as its longest line (a table's auto width is its narrowest); the frame,
            # the number and the scroll bar around it (max-width keeps it on the screen)
            picks.styles.width = max(label.cell_len for label in self.labels) + width + 7
            yield picks
            yield Static(self.cat.raw("term_tui", "pick_keys"), id="dlg-keys")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option_index)

    def on_key(self, event: Key) -> None:
        if event.character and event.character.isdigit():
            event.stop()
            result = digit(self.typed, event.character, len(self.labels))
            self.typed = result.typed
            if result.choose >= 0:
                self.dismiss(result.choose)
            elif result.highlight >= 0:
                self.query_one("#picks", OptionList).highlighted = result.highlight

    def action_back(self) -> None:
        self.dismiss(None)


class SaveScreen(ModalScreen[str | None]):
    """The file to save to, prefilled with the autosave file; Enter saves, Escape cancels."""

    DEFAULT_CSS = modal_css("SaveScreen", "#file { width: 70; max-width: 100%; }")
    BINDINGS = [Binding("escape", "cancel", show=False)]

    def __init__(self, path: str, cat: Catalog) -> None:
        super().__init__()
        self.path = path
        self.cat = cat

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.cat.raw("term_tui", "save_as"), style="bold"), id="dlg-question")
            yield Input(self.path, id="file")
            yield Static(self.cat.raw("term_tui", "save_keys"), id="dlg-keys")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class PassScreen(Screen[None]):
    """Mad Gnomes with several humans at one keyboard: the board is hidden until the next player
    (whose hand is private) presses Enter."""

    DEFAULT_CSS = """
    PassScreen { align: center middle; }
    #pass { width: auto; max-width: 90%; height: auto; border: thick $accent; padding: 1 2; }
    """
    BINDINGS = [Binding("enter", "go", show=False)]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield Static(Text(self.text, style="bold"), id="pass")

    def action_go(self) -> None:
        self.dismiss(None)


class LegendScreen(ModalScreen[None]):
    """The symbols of the board and the keys."""

    DEFAULT_CSS = modal_css("LegendScreen", """
    LegendScreen #dialog { width: 80; max-width: 100%; height: auto; }
    LegendScreen #dlg-body { height: auto; scrollbar-size-vertical: 1; }
    """)
    BINDINGS = [Binding("escape,question_mark,q,enter", "close", show=False)]

    def __init__(self, body: RenderableType, cat: Catalog, title: str | None = None,
                 keys: bool = True) -> None:
        super().__init__()
        self.body = body
        self.cat = cat
        self.title_text = title or cat.raw("term_tui", "legend_title")
        self.keys = keys  # the keys' help under the body (the legend)

    def compose(self) -> ComposeResult:
        """The body scrolls; the title and the keys that close the dialog stay in view (a long
        legend on an 80×24 terminal)."""
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text, style="bold"))
            with VerticalScroll(id="dlg-body"):
                yield Static(self.body)
                if self.keys:
                    yield Static(Text(self.cat.raw("term_tui", "keys_help")))
                    yield Static(Text(self.cat.raw("term_tui", "keys_help_views")))
                    yield Static(Text("h: " + self.cat.raw("advisor", "button_title")))
            yield Static(self.cat.raw("term_tui", "close_keys"), id="dlg-keys")

    def on_mount(self) -> None:
        self._fit(self.app.size.height)
        self.query_one("#dlg-body", VerticalScroll).focus()  # arrows and PgUp/PgDn scroll it

    def on_resize(self, event: Resize) -> None:
        self._fit(event.size.height)

    def _fit(self, height: int) -> None:
        """The body gets what 90% of the screen leaves beside the border, title and keys."""
        self.query_one("#dlg-body").styles.max_height = max(3, height * 9 // 10 - 4)

    def action_close(self) -> None:
        self.dismiss(None)


class ReviewScreen(Screen[None]):
    """The end of the game: the result, the final board and the whole log, until the player
    leaves (q, Escape or Enter). The board is drawn for the width its column gets (``board``
    is called with it), so that nothing in it is cut or wrapped by the column's edge."""

    DEFAULT_CSS = """
    ReviewScreen { layout: vertical; }
    #review-main { height: 1fr; }
    #review-board { width: 1fr; height: 1fr; scrollbar-size-vertical: 1; }
    #review-log { width: 1fr; height: 1fr; border-left: solid $accent; scrollbar-size-vertical: 1; }
    """
    BINDINGS = [Binding("q,escape,enter", "leave", "Leave")]

    def __init__(self, result: RenderableType, board: Callable[[int], RenderableType],
                 log: list[Text], cat: Catalog) -> None:
        super().__init__()
        self.result = result
        self.board = board
        self.log_lines = log
        self.cat = cat

    def compose(self) -> ComposeResult:
        with Horizontal(id="review-main"):
            with VerticalScroll(id="review-board"):
                yield Pane(lambda width: Group(self.result, self.board(width)),
                           id="review-board-body")
            yield RichLog(id="review-log", wrap=True, markup=False, highlight=False, min_width=20)
        yield Static(Text(self.cat.raw("term_tui", "review_keys"), style="reverse"), id="review-keys")

    def on_mount(self) -> None:
        self.query_one("#review-board", VerticalScroll).focus()  # arrows scroll the board
        log = self.query_one("#review-log", RichLog)
        log.write(Text(self.cat.raw("ui", "full_log"), style="bold underline"))
        for line in self.log_lines:
            log.write(Hanging(line))

    def action_leave(self) -> None:
        self.app.exit(0)


__all__ = ["ConfirmScreen", "LegendScreen", "Pane", "PassScreen", "PickScreen", "ReviewScreen",
           "SaveScreen"]
