"""Putting the screen together: log lines with styles, the board, the menu and the result."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ..i18n import Catalog
from ..i18n.describe import describe_entry, describe_result
from ..rules import Game, outcome
from . import board
from .menu import Entry, number_entries

ENTRY_STYLES = {
    "turn": "bold cyan", "death": "bold red", "lost": "bold red", "won": "bold green",
    "event": "yellow", "token": "bold red", "track": "yellow", "fire": "red",
    "fire_spreads": "red", "leak": "blue", "undercurrent": "blue", "hatch_blocked": "magenta",
    "faint_check": "magenta", "token_cleared": "green", "track_reset": "green",
    "replacement": "green", "abandon": "bold magenta", "fight": "bold red", "setup": "dim",
}


def entry_style(entry: Sequence[Any]) -> str:
    mid = entry[0] if entry else ""
    if mid == "repair":
        return "green" if entry[6] else "red"
    if mid == "faint_check" and entry[4]:
        return "bold magenta"
    return ENTRY_STYLES.get(str(mid), "")


def log_lines(game: Game, start: int, lang: str, viewer: int | None,
              limit: int | None = None) -> tuple[list[Text], int]:
    """Styled sentences for the log from ``start``; at most ``limit`` (the newest). Returns the
    lines and how many older ones were left out."""
    entries = game.log[start:]
    skipped = 0
    if limit is not None and len(entries) > limit:
        skipped = len(entries) - limit
        entries = entries[skipped:]
    lines = []
    for e in entries:
        indent = "" if e and e[0] == "turn" else "  "
        lines.append(Text(indent + describe_entry(e, game, lang, viewer), style=entry_style(e)))
    return lines, skipped


def bot_player(cat: Catalog, seat: int, bot: str) -> str:
    """A bot's seat by the bot's name in the catalog's language ("P2 · Easy bot"); a level that
    is not offered (a benchmark's, from a save) by its API name."""
    shown = cat.raw("bot_names", bot) if cat.has("bot_names", bot) else bot
    return cat.get("ui", "bot_player", seat=seat + 1, bot=shown)


def seat_name(cat: Catalog, seat: int, bot_names: dict[int, str]) -> str:
    if seat in bot_names:
        return bot_player(cat, seat, bot_names[seat])
    return cat.get("ui", "player", seat=seat + 1)


def seat_names(cat: Catalog, game: Game, bot_names: dict[int, str]) -> dict[int, str]:
    return {seat: seat_name(cat, seat, bot_names) for seat in range(game.config.players)}


def header(game: Game, cat: Catalog) -> Rule:
    # the variant's name in the catalog's language: its text up to the explanation in brackets
    variants = [cat.raw("variants", v).split(" (")[0] for v in sorted(game.config.variants)]
    text = cat.get("ui", "turn_header", turn=game.turn, seed=game.config.seed,
                   players=game.config.players, gnomes=game.config.gnomes,
                   variants=(" · " + ", ".join(variants)) if variants else "")
    return Rule(Text(cat.raw("ui", "title") + " · " + text, style="bold red"))


# Narrower than this, the crew is one line per gnome (a table squeezes the hands a word per line).
COMPACT_BELOW = 100


def _fits(console: Console, left: RenderableType, right: RenderableType, width: int) -> bool:
    return console.measure(left).maximum + console.measure(right).maximum + 3 <= width


def _beside(left: RenderableType, right: RenderableType) -> Table:
    grid = Table.grid(padding=(0, 3))
    grid.add_row(left, right)
    return grid


def board_view(game: Game, cat: Catalog, viewer: int, bots: dict[int, str],
               console: Console, width: int | None = None) -> RenderableType:
    """Everything on the table, laid out for ``width`` (the console's unless given: a pipe's
    console has no width, app.line_console); the disaster tracks and decks go beside the
    submarine when the width allows."""
    width = console.width if width is None else width
    sub = board.submarine(game, cat, game.decider)
    natural = console.measure(sub, options=console.options.update_width(10_000)).maximum
    if natural > width:  # a narrow terminal: a line per room
        sub = board.submarine(game, cat, game.decider, compact=True)
    tracks, decks = board.disaster_tracks(game, cat), board.decks(game, cat)
    crew = board.crew(game, cat, viewer, seat_names(cat, game, bots), width < COMPACT_BELOW)
    side = Group(tracks, Text(""), decks)
    if _fits(console, sub, side, width):
        parts: list[RenderableType] = [_beside(sub, side), crew]
    elif _fits(console, tracks, decks, width):
        parts = [sub, _beside(tracks, decks), crew]
    else:
        parts = [sub, side, crew]
    parts.append(board.time_track(game, cat, width))
    played = board.played_line(game, cat)
    if played is not None:
        parts.append(played)
    return Group(*parts)


def numbered(entries: list[Entry], back: bool) -> list[tuple[int, Entry]]:
    """The numbers shown: a minutes list counts from 1 (0 goes back); the main menu keeps 0 for
    "End the turn" (menu.number_entries)."""
    return list(enumerate(entries, 1)) if back else number_entries(entries)


def menu_view(entries: list[Entry], cat: Catalog, back: bool = False) -> Group:
    lines: list[RenderableType] = []
    section = ""
    width = len(str(len(entries)))
    for i, e in numbered(entries, back):
        if e.section != section and not back:
            section = e.section
            lines.append(Text(cat.raw("ui", section), style="dim underline"))
        label = Text(f"{i:>{width}}. ", style="bold")
        style = "bold red" if e.warn else ""
        label.append(e.label + (" …" if e.is_group else ""), style=style)
        lines.append(label)
    if back:
        lines.append(Text(f"{0:>{width}}. " + cat.raw("ui", "back"), style="dim"))
    return Group(*lines)


def result_view(game: Game, cat: Catalog, lang: str) -> Panel:
    lines = describe_result(game, lang)
    body = Text()
    won = game.result is not None and game.result.won
    body.append(lines[0] + "\n", style="bold green" if won else "bold red")
    for gn, line in zip(game.gnomes, lines[1:], strict=False):
        body.append("\n" + line, style="green" if outcome(game, gn.number) else "red")
    return Panel(body, title=cat.raw("ui", "game_over"), border_style="green" if won else "red")


def print_wide(console: Console, drawing: Rule | Panel, width: int) -> None:
    """A rule or a panel (they fill the width given) ``width`` wide, or as much wider as its text
    needs to be neither cut nor wrapped, where the console allows it: on a terminal the width is
    the terminal's, a pipe's console has no width (app.line_console)."""
    text = drawing.title if isinstance(drawing, Rule) else drawing.renderable
    console.print(drawing, width=max(width, console.measure(text).maximum + 4))


def print_log(console: Console, lines: list[Text], skipped: int, cat: Catalog) -> None:
    if skipped:
        console.print(cat.get("ui", "earlier_lines", count=skipped), style="dim")
    for line in lines:
        console.print(line)


__all__ = ["board_view", "entry_style", "header", "log_lines", "menu_view", "numbered", "print_log",
           "print_wide", "result_view", "seat_names"]
