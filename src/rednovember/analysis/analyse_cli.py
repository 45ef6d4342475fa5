"""``rednovember analyse SAVE`` and ``rednovember replay SAVE --show``: the win-chance curve of a
saved game and its turning points, as text, JSON or a terminal chart (Rich).

The parsers are built here (:func:`add_parser`, :func:`add_show_arguments`); ``cli.py`` only
hooks them in.
"""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from ..files import LOAD_FAILED, Unreadable, read_text
from ..i18n import UnknownLanguage, catalog
from ..i18n.describe import describe_result
from ..rules import Game, load_data
from ..rules.serialize import SaveError, from_json
from ..terminal.lines import width_of, wrap
from ..terminal.newgame import save_shape_problem
from .turning import ANALYSE_ROLLOUTS, GameAnalysis, analyse, percent
from .winchance import MAX_ROLLOUTS

CHART_HEIGHT = 10
BLOCKS = " ▁▂▃▄▅▆▇█"


def _rollouts(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 1 <= n <= MAX_ROLLOUTS:
        raise argparse.ArgumentTypeError(f"rollouts must be 1..{MAX_ROLLOUTS}")
    return n


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seat", type=int, metavar="N",
                   help="estimate as seat N saw the game (seats count from 1; default: a "
                        "spectator, who in Mad Gnomes sees no hand)")
    p.add_argument("--rollouts", type=_rollouts, default=ANALYSE_ROLLOUTS, metavar="K",
                   help=f"rollouts per point at most (default {ANALYSE_ROLLOUTS}; a point stops "
                        "once as precise as K rollouts at an even chance; more is steadier and "
                        "slower)")
    p.add_argument("--seed", type=int, default=0, help="seed of the rollouts (default 0)")
    p.add_argument("--lang", default="en",
                   help="language of the texts: en, de, fr, pl, ru or es (default en)")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``analyse`` subcommand."""
    p = sub.add_parser("analyse", help="the win chance after every turn of a saved game and "
                                       "its turning points")
    p.add_argument("file", metavar="SAVE")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    _common(p)


def add_report_arguments(p: argparse.ArgumentParser) -> None:
    """``report --winchance N``: the win-chance curves of the first N games of every run."""
    p.add_argument("--winchance", type=int, default=0, metavar="N",
                   help="also analyse the win chance of the first N games of every run (the "
                        "mean curve and the biggest swings; slow: default 0, none)")
    p.add_argument("--winchance-rollouts", type=_rollouts, default=24, metavar="K",
                   help="rollouts per point for --winchance (default 24)")


def add_show_arguments(p: argparse.ArgumentParser) -> None:
    """``replay --show`` and its options."""
    p.add_argument("--show", action="store_true",
                   help="also draw the win-chance graph of the game with its turning points")
    _common(p)


def _load(args: argparse.Namespace) -> Game | tuple[str, int]:
    """The saved game, or why not and the exit status."""
    try:
        cat = catalog(args.lang)
    except UnknownLanguage as exc:
        return str(exc), 1
    try:
        text = read_text(args.file)
    except Unreadable as exc:
        return f"cannot read {args.file}: {exc}", LOAD_FAILED
    shape = save_shape_problem(text, cat)
    if shape is not None:  # not a save at all: as play --load and replay say it
        return f"cannot load {args.file}: {shape}", LOAD_FAILED
    try:
        game = from_json(text, load_data(args.data))
    except SaveError as exc:
        return f"cannot load {args.file}: {exc}", LOAD_FAILED
    if args.seat is not None and not 1 <= args.seat <= game.config.players:
        return f"--seat must be 1..{game.config.players}", 1
    return game


def progress_bar(lang: str, console: Console) -> Progress:
    """The bar shown on ``console`` while the positions are estimated, in ``lang``: what is
    done, a bar, "position 12 of 40" and the time so far (it disappears when done)."""
    cat = catalog(lang)
    return Progress(TextColumn(cat.raw("analyse", "progress")), BarColumn(),
                    TextColumn("{task.fields[count]}"), TimeElapsedColumn(),
                    console=console, transient=True)


def _analysis(args: argparse.Namespace, game: Game, console: Console | None) -> GameAnalysis:
    """The analysis, with a progress bar on ``console`` (None: no bar)."""
    seat = None if args.seat is None else args.seat - 1
    if console is None:
        return analyse(game, seat, rollouts=args.rollouts, seed=args.seed)
    cat = catalog(args.lang)
    with progress_bar(args.lang, console) as bar:
        task = bar.add_task("", total=None, count="")

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total,
                       count=cat.get("analyse", "web_progress", done=done, total=total))

        return analyse(game, seat, rollouts=args.rollouts, seed=args.seed, progress=progress)


def _bar_console() -> Console | None:
    """Where the progress bar goes: standard error, when it is a terminal (never standard
    output, which may be the JSON)."""
    return Console(file=sys.stderr) if sys.stderr.isatty() else None


def run_analyse(args: argparse.Namespace) -> int:
    game = _load(args)
    if isinstance(game, tuple):
        print(f"error: {game[0]}", file=sys.stderr)
        return game[1]
    result = _analysis(args, game, _bar_console())
    if args.json:
        print(json.dumps(result.to_dict(args.lang), ensure_ascii=False, indent=1))
        return 0
    print(wrap("\n".join(text_lines(result, args.lang)), width_of(sys.stdout)))
    return 0


def run_show(args: argparse.Namespace) -> int:
    """The chart of ``replay --show`` (after the replay check passed)."""
    game = _load(args)
    if isinstance(game, tuple):
        print(f"error: {game[0]}", file=sys.stderr)
        return game[1]
    result = _analysis(args, game, _bar_console())
    console = Console(highlight=False)
    console.print(chart(result, args.lang, width=max(20, min(72, console.width - 18))))
    return 0


def _viewer(result: GameAnalysis, lang: str) -> str:
    cat = catalog(lang)
    if result.seat is None:
        return cat.raw("analyse", "viewer_public")
    return cat.get("analyse", "viewer_seat", seat=result.seat + 1)


def text_lines(result: GameAnalysis, lang: str) -> list[str]:
    """The curve point by point, then the turning points, in ``lang``."""
    cat = catalog(lang)
    out = [cat.get("analyse", "curve_heading", viewer=_viewer(result, lang),
                   rollouts=result.rollouts), ""]
    for p in result.points:
        if p.kind not in ("start", "turn", "end"):
            continue  # "after every turn": the action points only feed the turning points
        e = p.estimate
        out.append("  " + cat.get("analyse", "point_row", turn=p.turn, minute=p.minute,
                                  space=result.space(p.minute),
                                  chance=percent(e.chance, lang), low=percent(e.low, lang),
                                  high=percent(e.high, lang)))
    out += ["", cat.raw("analyse", "turning_heading")]
    if not result.turning:
        out.append("  " + cat.raw("analyse", "none"))
    for i, tp in enumerate(result.turning, start=1):
        out.append(f"  {i}. {result.sentence(tp, lang)}")
    out += [""] + describe_result(result.game, lang)
    return out


def chart(result: GameAnalysis, lang: str, width: int = 72) -> Text:
    """A text chart of the curve: one column per point (spread over ``width``), the chance as
    a filled area with eighth blocks, turning points numbered on the chart (◆ from the tenth;
    green up, red down) and listed under the same numbers."""
    cat = catalog(lang)
    pts = result.points
    n = max(1, len(pts))
    width = max(10, min(width, n * 2 if n * 2 >= 10 else 10))
    cols = [min(n - 1, c * n // width) for c in range(width)]
    marks: dict[int, tuple[int, bool]] = {}
    for k, tp in enumerate(result.turning, start=1):
        idx = next(i for i, p in enumerate(pts) if p.step == tp.step)
        col = max(c for c in range(width) if cols[c] <= idx)
        marks[col] = (k, tp.delta > 0)
    t = Text()
    t.append(cat.raw("analyse", "chart_title") + "\n", style="bold")
    top = " " * 6
    for c in range(width):
        mark = marks.get(c)
        top += (str(mark[0]) if mark[0] < 10 else "◆") if mark else " "
    line = Text(top + "\n")
    for c, (_, up) in marks.items():
        line.stylize("green" if up else "red", 6 + c, 7 + c)
    t.append_text(line)
    for row in range(CHART_HEIGHT - 1, -1, -1):
        labels = {0: 0.0, CHART_HEIGHT // 2: 0.5, CHART_HEIGHT - 1: 1.0}
        label = percent(labels[row], lang) if row in labels else ""
        t.append(f"{label:>5}│")
        for c in range(width):
            v = pts[cols[c]].estimate.chance * CHART_HEIGHT
            fill = max(0.0, min(1.0, v - row))
            t.append(BLOCKS[round(fill * 8)], style="cyan" if c not in marks else "bold yellow")
        t.append("\n")
    minutes = [pts[cols[c]].minute for c in range(width)]
    axis = f"     └{'─' * width}\n"
    ticks = [" "] * width
    for c in (0, width // 2, width - 1):
        label = str(minutes[c])
        start = min(c, width - len(label))
        ticks[start:start + len(label)] = list(label)
    t.append(axis)
    t.append("      " + "".join(ticks) + f"  {cat.raw('analyse', 'axis_minute')}\n")
    if not result.turning:  # nothing on the chart to explain
        t.append(cat.raw("analyse", "none") + "\n", style="dim")
        return t
    t.append(cat.raw("analyse", "marker") + "\n", style="dim")
    for k, tp in enumerate(result.turning, start=1):
        t.append(f"{k if k < 10 else '◆'} ", style="bold")  # as the chart marks it
        t.append(result.sentence(tp, lang) + "\n", style="green" if tp.delta > 0 else "red")
    return t


__all__ = ["add_parser", "add_report_arguments", "add_show_arguments", "chart", "progress_bar",
           "run_analyse", "run_show", "text_lines"]
