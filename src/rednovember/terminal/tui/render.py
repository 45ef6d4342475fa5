"""Rich renderables for the full-screen app, sized to the space they get: the rooms, the disaster
tracks, the time track and the status line, in a compact form (symbols, abbreviations) for an 80×24
terminal and the line mode's tables (``terminal/board.py``) when there is room."""

from __future__ import annotations

import io

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from ...i18n import Catalog
from ...i18n import names as n
from ...rules import SEA, Game
from ...rules.state import HIGH, LOW, OVER
from .. import board, screen
from ..board import GNOME_STYLE, TRACK_STYLE

WIDE_STATUS = 140  # below this width the viewer's gnomes begin on the status's second line
FIRE, LOW_WATER, HIGH_WATER, BLOCKED, GHOST, TOKEN = "▲", "≈", "≋", "✖", "◆", "!"


def short_name(cat: Catalog, g: Game, room: int, width: int) -> str:
    name = n.room_short(cat, g, room) if room != SEA else cat.raw("room_format", "sea_short")
    return name if len(name) <= width else name[: max(1, width - 1)] + "…"


def gnome_tag(cat: Catalog, g: Game, number: int, decider: int) -> Text:
    gn = g.gnomes[number]
    text = Text(("▶" if number == decider else "") + n.gnome_short(cat, g, number),
                style=GNOME_STYLE.get(gn.colour, "bold"))
    if gn.fainted:
        text.append("z", style="italic magenta")
    return text


def _hatch_width(g: Game, cat: Catalog) -> int:
    """The hatches' column: the longest list of a room with a name (blocked ones marked); the
    short lines of unnamed rooms hold longer lists."""
    named = [r for r in g.data.rooms if len(short_name(cat, g, r, 99)) > 3] or g.data.rooms
    return max(sum(len(str(o)) + 1 + g.blocked[h] for h, o in g.data.exits[r]) for r in named)


def room_name_width(g: Game, cat: Catalog, width: int) -> int:
    """The room names' column: as wide as the longest name when the line still holds the state,
    the hatches and one gnome; 6 at the narrowest (every name keeps its number)."""
    longest = max(len(short_name(cat, g, r, 99)) for r in [*g.data.rooms, SEA])
    return max(6, min(longest, width - 4 - _hatch_width(g, cat) - 4))


def rooms(g: Game, cat: Catalog, width: int) -> RenderableType:
    """One line a room: name, fire and water, hatches (blocked ones marked), the gnomes there."""
    if width >= 72:
        return board.submarine(g, cat, g.decider)
    name_w = room_name_width(g, cat, width)
    hatch_w = _hatch_width(g, cat)
    lines = [Text(cat.raw("ui", "submarine"), style="bold")]
    for room in [*g.data.rooms, SEA]:
        here = [gn.number for gn in g.gnomes if gn.on_board and gn.room == room]
        if room == SEA and not here:
            continue
        line = Text(short_name(cat, g, room, name_w).ljust(name_w),
                    style="bold cyan" if room == SEA else "bold")
        state = Text()
        if room != SEA:
            if g.fire[room]:
                state.append(FIRE, style="bold red")
            if g.water[room] == HIGH:
                state.append(HIGH_WATER, style="bold blue")
            elif g.water[room] == LOW:
                state.append(LOW_WATER, style="cyan")
        line.append(" ")
        line.append_text(state)
        line.append(" " * (3 - state.cell_len))
        for h, other in g.data.exits[room]:
            label = str(other) if other != SEA else "~"
            if g.blocked[h]:
                line.append(BLOCKED + label + " ", style="bold red")
            else:
                line.append(label + " ", style="dim")
        tags = sum(gnome_tag(cat, g, x, g.decider).cell_len + 1 for x in here)
        column = name_w + 4 + hatch_w  # the gnomes' column, or right after the hatches
        line.pad_right(max(0, column - line.cell_len if column + tags <= width else 0))
        for number in here:
            tag = gnome_tag(cat, g, number, g.decider)
            if line.cell_len + tag.cell_len > width:  # a crowded room: its gnomes go on
                lines.append(line)
                line = Text(" " * (name_w + 4))
            line.append_text(tag)
            line.append(" ")
        line.truncate(width, overflow="ellipsis")
        lines.append(line)
    return Group(*lines)


def tracks(g: Game, cat: Catalog, width: int) -> RenderableType:
    """The three disaster tracks as bars, with their values; then, where the column is wide
    enough to keep the time track in sight below, the decks, the captain's stock and the
    blocked-hatch tokens left (``play --plain`` shows them too)."""
    if width < 60:
        return _bars(g, cat, width)
    return Group(_bars(g, cat, width), supplies(g, cat))


def supplies(g: Game, cat: Catalog) -> Text:
    """"Event deck 55 · Item deck 42 · Captain's stock 6 Grog · Blocked-hatch tokens 15 left"."""
    ui = "ui"
    parts = [(cat.raw(ui, "deck_events"), str(len(g.event_deck))),
             (cat.raw(ui, "deck_items"), str(len(g.item_deck))),
             (cat.raw(ui, "deck_stock"), cat.get(ui, "deck_stock_value", count=g.stock)),
             (cat.raw(ui, "deck_blocked"),
              cat.get(ui, "deck_blocked_value", count=g.data.blocked_tokens - sum(g.blocked)))]
    line = Text()
    for i, (label, value) in enumerate(parts):
        line.append((" · " if i else "") + label + " ", style="dim")
        line.append(value)
    return line


def _bars(g: Game, cat: Catalog, width: int) -> RenderableType:
    if width >= 60:
        return board.disaster_tracks(g, cat)
    length = g.data.track_length
    stars = set(g.data.reset_stars)
    label_w = max(3, min(12, width - length - 6, max(len(n.track(cat, g, i)) for i in range(3))))
    lines = []
    for index, name in enumerate(g.data.tracks):
        value = g.tracks[index]
        line = Text(n.track(cat, g, index)[:label_w].ljust(label_w), style=TRACK_STYLE.get(name, ""))
        line.append(" ")
        for space in range(1, length + 1):
            if space == length:
                line.append("☠", style="bold red" if value >= length else "red")
            elif space <= value:
                line.append("■", style=TRACK_STYLE.get(name, "bold"))
            else:
                line.append("☆" if space in stars else "·", style="dim")
        line.append(f" {value}", style="bold red" if value >= length - 2 else "")
        lines.append(line)
    return Group(*lines)


def keeper_letters(g: Game, cat: Catalog) -> dict[int, str]:
    """One character per gnome for a track of one column a space, unique in the game: the first
    of its colour's short name unless another gnome has it (Blue, Black and Brown are all "B" in
    English), then the short name's next letter in lower case ("B", "k", "r"), else its number."""
    letters: dict[int, str] = {}
    for gn in g.gnomes:
        short = n.gnome_short(cat, g, gn.number)
        options = [short[:1].upper(), *(c.lower() for c in short[1:]), str(gn.number + 1)]
        used = set(letters.values())
        letters[gn.number] = next((c for c in options if c.strip() and c not in used),
                                  short[:1])
    return letters


def time_track(g: Game, cat: Catalog, width: int) -> RenderableType:
    """The time track as a ruler, one column a space from the furthest keeper down: icons,
    keepers (a stack downwards from its top one), ghost and destruction tokens; then the turn
    order."""
    if width >= 100:
        return board.time_track(g, cat, width)
    data = g.data
    on = g.on_track()
    marks = [gn.keeper for gn in on] + [s for s in g.tokens if s >= 0] + [max(g.ghost, 0)]
    label_keys = ("col_space", "row_icons", "row_keepers", "row_ghost")
    label_w = min(10, max(len(cat.raw("ui", k)) for k in label_keys) + 1)
    cols = max(10, width - label_w - 1)
    # a full window even when every keeper is near the end (on 0: the game's last turns)
    hi = max(max(marks), min(max(data.start_spaces.values()), cols - 1))
    lo = max(0, hi - cols + 1)
    spaces = list(range(hi, lo - 1, -1))

    def row(label: str) -> Text:
        return Text(label[: label_w - 1].ljust(label_w), style="dim")

    scale, icons, keepers, ghost = (row(cat.raw("ui", "col_space")), row(cat.raw("ui", "row_icons")),
                                    row(cat.raw("ui", "row_keepers")), row(cat.raw("ui", "row_ghost")))
    letters = keeper_letters(g, cat)
    stacks: dict[int, list[int]] = {}  # space: its keepers, the top one (the last to arrive) first
    for gn in sorted(on, key=lambda x: x.arrival, reverse=True):
        stacks.setdefault(gn.keeper, []).append(gn.number)
    depth = max((len(stack) for stack in stacks.values()), default=1)
    below = [row("") for _ in range(depth - 1)]  # the keepers under the top ones
    live = g.phase != OVER and g.active >= 0 and g.gnomes[g.active].on_board and g.ghost >= 0
    skip = 0
    for s in spaces:
        if skip:
            skip -= 1
        elif s % 5 == 0:
            label = str(s)
            scale.append(label, style="bold" if s % 10 == 0 else "dim")
            skip = len(label) - 1
        else:
            scale.append(" ")
        ev, it = s in data.event_icons, s in data.item_icons
        icons.append(board.icon_mark(cat, ev, it) or "·",
                     style="yellow" if ev else "green" if it else "dim")
        stack = stacks.get(s, [])
        for level, line in enumerate([keepers, *below]):
            if level < len(stack):
                gn = g.gnomes[stack[level]]
                line.append(letters[gn.number], style=GNOME_STYLE.get(gn.colour, "bold"))
            else:
                line.append(" ")
        tokens = [t for t, sp in enumerate(g.tokens) if sp == s]
        if tokens:
            ghost.append(TOKEN, style="bold red")
        elif live and s == g.ghost:
            ghost.append(GHOST, style="bold")
        else:
            ghost.append(" ")
    order = Text(cat.raw("ui", "turn_order") + ": ", style="dim")
    for i, number in enumerate(g.turn_order()):
        if i:
            order.append(" ", style="dim")
        order.append_text(gnome_tag(cat, g, number, -1))
        order.append(str(g.gnomes[number].keeper))
    placed = [(t, s) for t, s in enumerate(g.tokens) if s >= 0]
    for t, s in placed:
        order.append(f" {TOKEN}{cat.raw('tokens_short', data.tokens[t])}{s}", style="bold red")
    title = Text(cat.raw("ui", "time_track"), style="bold")
    return Group(title, scale, icons, keepers, *below, ghost, order)


def status(g: Game, cat: Catalog, viewer: int, bot_names: dict[int, str], width: int) -> Text:
    """Whose turn, the minute, the items played this turn, and the viewer's gnomes, the deciding
    one first (when the line wraps, its hand is never the part cut): where, fainted, intoxication,
    items."""
    out = Text()
    out.append(cat.get("term_tui", "turn", turn=g.turn), style="bold")
    if g.is_over:
        out.append(" · " + cat.raw("ui", "game_over"), style="bold red")
    else:
        seat = g.player_to_move
        who = n.gnome(cat, g, g.decider)
        player = screen.seat_name(cat, seat, bot_names)
        out.append(" · ")
        out.append(who, style=GNOME_STYLE.get(g.gnomes[g.decider].colour, "bold"))
        out.append(f" ({player})")
        if g.active >= 0 and g.decider != g.active:  # a trade, a defence: not the decider's turn
            out.append(" · " + cat.get("term_tui", "on_turn_of", gnome=n.gnome(cat, g, g.active)))
        if g.active >= 0 and g.ghost >= 0:
            out.append(" · " + GHOST + " " + cat.get("ui", "minutes_left", minutes=g.ghost))
        played = board.played_line(g, cat)  # a Grog's or a Toolbox's effect lasts the turn
        if played is not None:
            out.append(" · ")
            out.append_text(played)
    hidden = g.config.has("mad-gnomes") and not g.is_over
    mine = sorted((gn for gn in g.gnomes if gn.player == viewer), key=lambda x: x.number != g.decider)
    for gn in mine:
        out.append("  │  " if gn is not mine[0] or width >= WIDE_STATUS else "\n", style="dim")
        out.append(n.gnome_short(cat, g, gn.number), style=GNOME_STYLE.get(gn.colour, "bold"))
        if not gn.alive:
            out.append(" " + cat.raw("ui", "dead"), style="red")
            continue
        if gn.abandoned:
            out.append(" " + cat.raw("ui", "abandoned"), style="magenta")
            continue
        out.append(" " + short_name(cat, g, gn.room, 18 if width < 120 else 30))
        if gn.fainted:
            out.append(" " + cat.raw("ui", "fainted"), style="bold magenta")
        if gn.intoxication:
            out.append(f" {cat.raw('ui', 'col_intox')} {gn.intoxication}",
                       style="bold red" if gn.intoxication >= 3 else "yellow")
        hand = n.items(cat, g, sorted(gn.hand)) if gn.hand else cat.raw("ui", "empty_hand")
        out.append(": " + hand, style="" if not hidden or gn.player == viewer else "dim")
    return out


def hanging(key: str, width: int, body: Text) -> Table:
    """An option's line: its key right-aligned in ``width`` columns, then its text, whose wrapped
    lines begin under the text (not under the key)."""
    grid = Table.grid(padding=(0, 1, 0, 0))
    grid.add_column(width=width, no_wrap=True)
    grid.add_column(overflow="fold")
    grid.add_row(Text(key.rjust(width), style="bold"), body)
    return grid


class Hanging:
    """A log line whose wrapped lines begin ``indent`` columns further in than the line itself,
    so that where one entry ends and the next begins stays plain in a narrow log."""

    def __init__(self, text: Text, indent: int = 2) -> None:
        self.text = text
        self.indent = indent

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        m = Measurement.get(console, options, self.text)
        return Measurement(min(options.max_width, m.minimum + self.indent), m.maximum)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        plain = self.text.plain
        hang = len(plain) - len(plain.lstrip(" ")) + self.indent
        width = options.max_width
        if width - hang < 12:  # too narrow to indent: wrap as it comes
            yield self.text
            return
        first = self.text.wrap(console, width, overflow="fold")
        if len(first) < 2:
            yield self.text
            return
        yield first[0]  # the first line as wide as the log, the rest indented under it
        cut = len(first[0].plain)
        cut += len(plain[cut:]) - len(plain[cut:].lstrip(" "))
        for line in self.text[cut:].wrap(console, width - hang, overflow="fold"):
            yield Text(" " * hang) + line


def crew(g: Game, cat: Catalog, viewer: int, seat_names: dict[int, str],
         compact: bool = False, width: int | None = None) -> RenderableType:
    """The crew: the line mode's table, or one line a gnome (``compact``, or when the table does
    not fit in ``width`` columns without cutting a header or a cell)."""
    if compact:
        return crew_lines(g, cat, viewer, seat_names)
    table = board.crew(g, cat, viewer, seat_names)
    if width is not None and isinstance(table, Table) and table_width(table) > width:
        return crew_lines(g, cat, viewer, seat_names)
    return table


def crew_lines(g: Game, cat: Catalog, viewer: int, seat_names: dict[int, str]) -> RenderableType:
    """One paragraph a gnome: its name, then player, place, keeper, intoxication and hand, which
    wrap under each other (not under the name)."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for gn in g.gnomes:
        name, rest = board.crew_line(g, cat, viewer, seat_names, gn.number)
        grid.add_row(name, rest)
    return Group(Text(cat.raw("ui", "crew"), style="bold"), grid)


def table_width(table: Table, wrapped: int = 12) -> int:
    """The width ``table`` needs to show every header and cell whole: a column that does not wrap
    as wide as its widest cell, one that wraps as its longest word (``wrapped`` at least). Rich
    measures the unwrapped columns by their longest word and cuts them (or drops the last one)."""
    console = Console(width=1000, file=io.StringIO())
    total = 0
    for column in table.columns:
        sizes = [Measurement.get(console, console.options, cell)
                 for cell in [column.header, *column.cells]]
        if column.no_wrap:
            total += max(m.maximum for m in sizes)
        else:
            total += max(wrapped, *(m.minimum for m in sizes))
    left, right = (table.padding[3], table.padding[1]) if len(table.padding) == 4 else (1, 1)
    return total + (left + right) * max(0, len(table.columns) - 1)


def legend(cat: Catalog) -> Table:
    """The symbols of the screen, explained."""
    t = Table.grid(padding=(0, 2))
    rows = [(FIRE, "bold red", "fire"), (LOW_WATER, "cyan", "low_water"),
            (HIGH_WATER, "bold blue", "high_water"), (BLOCKED + "3", "bold red", "blocked"),
            ("~", "", "sea"), ("▶", "bold", "decider"), ("z", "italic magenta", "fainted"),
            (board.icon_mark(cat, True, False), "yellow", "event_icon"),
            (board.icon_mark(cat, False, True), "green", "item_icon"), ("*", "yellow", "both_icons"),
            (GHOST, "bold", "ghost"), (TOKEN, "bold red", "token"), ("■", "", "track"),
            ("☆", "dim", "star"), ("☠", "red", "skull"), ("⚠", "bold red", "warning")]
    for symbol, style, key in rows:
        t.add_row(Text(symbol, style=style), Text(cat.raw("term_tui", "legend_" + key)))
    return t


__all__ = ["crew", "crew_lines", "hanging", "legend", "rooms", "status", "table_width", "time_track",
           "tracks"]
