"""Rich renderables for the board: submarine, time track, disaster tracks, crew and decks."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..i18n import Catalog
from ..i18n import names as n
from ..rules import SEA, Game
from ..rules.state import HIGH, LOW, OVER

GNOME_STYLE = {"red": "bold red", "blue": "bold blue", "green": "bold green",
               "yellow": "bold yellow", "purple": "bold magenta", "orange": "bold orange1",
               "black": "bold black on grey70", "brown": "bold orange4"}
TRACK_STYLE = {"asphyxiation": "green", "heat": "red", "pressure": "blue"}


def gnome_text(cat: Catalog, g: Game, number: int, short: bool = False) -> Text:
    name = n.gnome_short(cat, g, number) if short else n.gnome(cat, g, number)
    return Text(name, style=GNOME_STYLE.get(g.gnomes[number].colour, "bold"))


def _turn_live(g: Game) -> bool:
    """A turn is in progress: the ghost keeper stands on the track."""
    return g.phase != OVER and g.active >= 0 and g.gnomes[g.active].on_board and g.ghost >= 0


def submarine(g: Game, cat: Catalog, decider: int, compact: bool = False) -> RenderableType:
    """Every room: its state, hatches and gnomes. ``compact`` (a terminal too narrow for the
    table): one line per room, wrapping as a sentence, so that no column is cut or dropped."""
    rows = [_room_parts(g, cat, room, decider) for room in [*g.data.rooms, SEA]]
    if compact:
        return _room_lines(cat, rows)
    t = Table(title=cat.raw("ui", "submarine"), box=box.SIMPLE_HEAD, padding=(0, 1),
              title_style="bold", title_justify="left", pad_edge=False, show_edge=False)
    t.add_column(cat.raw("ui", "col_room"), no_wrap=True)
    t.add_column(cat.raw("ui", "col_state"), no_wrap=True)
    t.add_column(cat.raw("ui", "col_hatches"), no_wrap=True)
    t.add_column(cat.raw("ui", "col_gnomes"))
    for row in rows:
        t.add_row(*row)
    return t


def _room_parts(g: Game, cat: Catalog, room: int, decider: int) -> tuple[Text, Text, Text, Text]:
    """(name, state, hatches, gnomes) of one room (or the Sea), as the submarine shows them."""
    data = g.data
    state = Text()
    if room != SEA:
        if g.fire[room]:
            state.append(cat.raw("ui", "fire"), style="bold red")
        elif g.water[room] == HIGH:
            state.append(cat.raw("ui", "high_water"), style="bold blue")
        elif g.water[room] == LOW:
            state.append(cat.raw("ui", "low_water"), style="cyan")
        spec = data.draw_rooms.get(room)
        if spec is not None and spec[0] == "captains_stock":
            state.append((" · " if state else "") + cat.get("ui", "stock", count=g.stock),
                         style="dim")
    hatches = Text()
    for h, other in data.exits[room]:
        if hatches:
            hatches.append(" ")
        label = str(other) if other != SEA else cat.raw("room_format", "sea_short")
        if g.blocked[h]:
            hatches.append("✖" + label, style="bold red")
        else:
            hatches.append(label)
    name = Text(n.room_short(cat, g, room), style="bold" if room != SEA else "bold cyan")
    return name, state, hatches, _gnomes_in(g, cat, room, decider)


def _room_lines(cat: Catalog, rows: list[tuple[Text, Text, Text, Text]]) -> Group:
    lines: list[RenderableType] = [Text(cat.raw("ui", "submarine"), style="bold")]
    for name, state, hatches, gnomes in rows:
        line = name.copy()
        for part in (state, Text(cat.raw("ui", "col_hatches") + " ", style="dim") + hatches,
                     gnomes):
            if part:
                line.append(" · ", style="dim")
                line.append_text(part)
        lines.append(line)
    return Group(*lines)


def _gnomes_in(g: Game, cat: Catalog, room: int, decider: int) -> Text:
    out = Text()
    for gn in g.gnomes:
        if not gn.on_board or gn.room != room:
            continue
        if out:
            out.append(", ")
        if gn.number == decider:
            out.append("▶", style="bold")
        out.append_text(gnome_text(cat, g, gn.number))
        notes = []
        if gn.fainted:
            notes.append(cat.raw("ui", "fainted"))
        if gn.drew_room >= 0:
            notes.append(cat.raw("ui", "drew_items"))
        if notes:
            out.append(" (" + ", ".join(notes) + ")", style="italic")
    return out


def icon_mark(cat: Catalog, event: bool, item: bool) -> str:
    """A time-track space's icon letter in the catalog's language (the letters of ``ui.icon_legend``
    and of the options' ``→◆39 2E 1I`` preview), ``*`` for both, ``""`` for none."""
    if event and item:
        return "*"
    if event:
        return cat.raw("ui", "icon_event_letter")
    return cat.raw("ui", "icon_item_letter") if item else ""


def time_track(g: Game, cat: Catalog, width: int) -> RenderableType:
    """A window of the time track around the keepers: icons, stacks, ghost and tokens."""
    data = g.data
    board = g.on_track()
    start = max(data.start_spaces.values())
    marks = [gn.keeper for gn in board] + [s for s in g.tokens if s >= 0]
    columns = max(10, (width - 8) // 3)
    # the highest mark at the top of the window; near the end (every keeper on 0 included) the
    # window is filled upwards so that it always shows a full width of spaces
    hi = min(start, max(max(marks) if marks else start, columns - 1))
    lo = max(0, hi - columns + 1)
    spaces = list(range(hi, lo - 1, -1))
    label_w = 8

    def row(label: str) -> Text:
        return Text(label.ljust(label_w)[:label_w], style="dim")

    head = row(cat.raw("ui", "col_space"))
    icons = row(cat.raw("ui", "row_icons"))
    for s in spaces:
        head.append(f"{s:>3}", style="bold" if s % 10 == 0 else "")
        e, i = s in data.event_icons, s in data.item_icons
        mark = icon_mark(cat, e, i) or ("☆" if s == 0 else "")
        icons.append(f"{mark:>3}", style="yellow" if e else "green")
    stacks: dict[int, list[int]] = {}
    for gn in sorted(board, key=lambda x: x.arrival, reverse=True):
        stacks.setdefault(gn.keeper, []).append(gn.number)
    height = max([len(v) for v in stacks.values()] + [1])
    lines = [head, icons]
    for level in range(height):
        line = row(cat.raw("ui", "row_keepers") if level == 0 else "")
        for s in spaces:
            stack = stacks.get(s, [])
            if level < len(stack):
                line.append(" ")
                line.append_text(gnome_text(cat, g, stack[level], short=True))
            else:
                line.append("   ")
        lines.append(line)
    live = _turn_live(g)
    if live:
        ghost = row(cat.raw("ui", "row_ghost"))
        for s in spaces:
            ghost.append("  ◆" if s == g.ghost else "   ", style="bold white")
        lines.append(ghost)
    tokens = row(cat.raw("ui", "row_tokens"))
    for s in spaces:
        here = [t for t, sp in enumerate(g.tokens) if sp == s]
        tokens.append(f"{cat.raw('tokens_short', data.tokens[here[0]]) if here else '':>3}",
                      style="bold red")
    lines.append(tokens)
    lines.append(_track_summary(g, cat, lo, live))
    title = Text(cat.raw("ui", "time_track"), style="bold")
    title.append("   " + cat.raw("ui", "icon_legend"), style="dim")
    return Group(title, *lines)


def _track_summary(g: Game, cat: Catalog, lo: int, live: bool) -> Text:
    out = Text(cat.raw("ui", "turn_order") + ": ", style="dim")
    for i, number in enumerate(g.turn_order()):
        if i:
            out.append(" → ", style="dim")
        out.append_text(gnome_text(cat, g, number))
        out.append(f" {g.gnomes[number].keeper}")
    placed = [(t, s) for t, s in enumerate(g.tokens) if s >= 0]
    out.append("  ·  ", style="dim")
    if placed:
        out.append(", ".join(cat.get("ui", "token_at", token=n.token(cat, g, t), space=s)
                             for t, s in placed), style="bold red")
    else:
        out.append(cat.raw("ui", "tokens_none"), style="dim")
    if live:
        ghost = cat.get("ui", "ghost", gnome=n.gnome(cat, g, g.active))
        out.append(f"  ·  ◆ {ghost} {g.ghost} ", style="bold")
        out.append("(" + cat.get("ui", "minutes_left", minutes=g.ghost) + ")", style="dim")
    hidden = [gn for gn in g.on_track() if gn.keeper < lo]  # the window starts at the top
    if hidden:
        out.append("  ·  ")
        out.append(cat.get("ui", "off_window", what=", ".join(
            f"{n.gnome(cat, g, gn.number)} {gn.keeper}" for gn in hidden)))
    return out


def disaster_tracks(g: Game, cat: Catalog) -> Table:
    t = Table.grid(padding=(0, 1))
    t.title = cat.raw("ui", "disaster_tracks")
    t.title_style = "bold"
    t.title_justify = "left"
    length = g.data.track_length
    stars = set(g.data.reset_stars)
    for index, name in enumerate(g.data.tracks):
        value = g.tracks[index]
        bar = Text()
        for space in range(1, length + 1):
            if space == length:
                bar.append("☠", style="bold red" if value >= length else "red")
            elif space <= value:
                bar.append("■", style=TRACK_STYLE.get(name, "bold"))
            else:
                bar.append("☆" if space in stars else "·", style="dim")
        danger = "bold red" if value >= length - 2 else ""
        t.add_row(Text(n.track(cat, g, index), style=TRACK_STYLE.get(name, "")), bar,
                  Text(cat.get("ui", "track_value", value=value, length=length), style=danger))
    return t


def crew(g: Game, cat: Catalog, viewer: int, seat_names: dict[int, str],
         compact: bool = False) -> RenderableType:
    """Every gnome: player, place, keeper, intoxication, hand (Mad Gnomes: only ``viewer``'s).
    ``compact`` (a narrow terminal): one line per gnome, its hand after the rest, so that a hand
    wraps as a sentence instead of a word per line in a narrow column."""
    if compact:
        return _crew_lines(g, cat, viewer, seat_names)
    t = Table(title=cat.raw("ui", "crew"), box=box.SIMPLE_HEAD, padding=(0, 1), title_style="bold",
              title_justify="left", pad_edge=False, show_edge=False)
    for col in ("col_gnome", "col_player", "col_where", "col_keeper", "col_intox", "col_hand"):
        t.add_column(cat.raw("ui", col), no_wrap=col != "col_hand")
    for gn in g.gnomes:
        name = Text("▶" if gn.number == g.decider else " ")
        name.append_text(gnome_text(cat, g, gn.number))
        where, intox, hand = crew_parts(g, cat, viewer, gn.number)
        t.add_row(name, seat_names.get(gn.player, str(gn.player + 1)), where,
                  str(gn.keeper) if gn.on_board else "—", intox, hand)
    return t


def crew_parts(g: Game, cat: Catalog, viewer: int, number: int) -> tuple[Text, Text, Text]:
    """(where, intoxication, hand) of one gnome, as the crew shows them."""
    gn = g.gnomes[number]
    if not gn.alive:
        where = Text(cat.raw("ui", "dead"), style="red")
    elif gn.abandoned:
        where = Text(cat.raw("ui", "abandoned"), style="magenta")
    else:
        where = Text(n.room_short(cat, g, gn.room))
        if gn.fainted:
            where.append(" (" + cat.raw("ui", "fainted") + ")", style="italic")
    hidden = g.config.has("mad-gnomes") and not g.is_over  # revealed when the game ends
    if hidden and gn.player != viewer:
        hand = Text(cat.get("ui", "hidden_hand", count=len(gn.hand)), style="dim")
    else:
        hand = Text(n.items(cat, g, sorted(gn.hand)) if gn.hand else cat.raw("ui", "empty_hand"))
    intox = Text(str(gn.intoxication), style="bold red" if gn.intoxication >= 3 else "")
    return where, intox, hand


def _crew_lines(g: Game, cat: Catalog, viewer: int, seat_names: dict[int, str]) -> Group:
    lines: list[RenderableType] = [Text(cat.raw("ui", "crew"), style="bold")]
    for gn in g.gnomes:
        name, rest = crew_line(g, cat, viewer, seat_names, gn.number)
        lines.append(name + Text(" · ", style="dim") + rest)
    return Group(*lines)


def crew_line(g: Game, cat: Catalog, viewer: int, seat_names: dict[int, str],
              number: int) -> tuple[Text, Text]:
    """A gnome's name (▶ when deciding) and the rest of its crew line: player, place, keeper,
    intoxication and hand."""
    gn = g.gnomes[number]
    where, intox, hand = crew_parts(g, cat, viewer, number)
    name = Text("▶" if number == g.decider else " ")
    name.append_text(gnome_text(cat, g, number))
    rest = Text(seat_names.get(gn.player, str(gn.player + 1)) + " · ", style="dim")
    rest.append_text(where)
    keeper = str(gn.keeper) if gn.on_board else "—"
    rest.append(f" · {cat.raw('ui', 'col_keeper')} {keeper} · {cat.raw('ui', 'col_intox')} ",
                style="dim")
    rest.append_text(intox)
    rest.append(" · ", style="dim")
    rest.append_text(hand)
    return name, rest


def decks(g: Game, cat: Catalog) -> Table:
    """Deck and discard sizes, the captain's stock and the blocked-hatch tokens left."""
    t = Table.grid(padding=(0, 1))
    t.title = cat.raw("ui", "decks_title")
    t.title_style = "bold"
    t.title_justify = "left"
    ui = "ui"
    events = Text(str(len(g.event_deck)))
    events.append(" · " + cat.get(ui, "deck_discard", count=len(g.event_discard)), style="dim")
    if g.kraken_aside:
        events.append(" · " + cat.raw(ui, "kraken_aside"), style="dim")
    items = Text(str(len(g.item_deck)))
    items.append(" · " + cat.get(ui, "deck_discard", count=len(g.item_discard)), style="dim")
    left = g.data.blocked_tokens - sum(g.blocked)
    t.add_row(cat.raw(ui, "deck_events"), events)
    t.add_row(cat.raw(ui, "deck_items"), items)
    t.add_row(cat.raw(ui, "deck_stock"), cat.get(ui, "deck_stock_value", count=g.stock))
    t.add_row(cat.raw(ui, "deck_blocked"), cat.get(ui, "deck_blocked_value", count=left))
    return t


def played_line(g: Game, cat: Catalog) -> Text | None:
    """The items played this turn (their effects last the whole turn)."""
    played = [k for k, count in enumerate(g.played) for _ in range(count)]
    if not played or not _turn_live(g):
        return None
    return Text(cat.get("ui", "played", gnome=n.gnome(cat, g, g.active),
                        items=n.items(cat, g, played)), style="bold")


__all__ = ["crew", "crew_line", "crew_parts", "disaster_tracks", "decks", "gnome_text", "icon_mark",
           "played_line", "submarine", "time_track"]
