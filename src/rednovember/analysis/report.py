"""``rednovember report``: simulate (or load saved simulations) and write a readable report.

The report (``report.md`` or ``report.html`` in ``--out``) holds tables and PNG charts made with
matplotlib's Agg backend (no display needed; without matplotlib the report has the tables and a
note saying how to install it for the charts):

``winrate.png``
    win rate by player count, one series per bot, with the 95% Wilson interval as error bars.
``losses.png``
    for every run (bot x player count) how its games ended: won, or lost by which cause.
``deaths.png``
    gnome deaths per game by cause, for every run.
``tracks-<bot>.png``
    the mean level of each disaster track at every minute of the time track (over the games still
    running then), one line per player count, and the share of games still running.

plus, per bot (added up over its player counts), the tables of when events and items mattered
(definitions: :mod:`rednovember.analysis.stats`). A simulating run also writes
``simulation.json`` (``{"runs": [...]}``: one ``simulate --json`` report per bot and player count),
which ``--from`` reads back, as it does ``simulate --json`` output, to rebuild a report without
playing again.
"""

from __future__ import annotations

import argparse
import html
import importlib.util
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..files import Unreadable, read_text
from .simulate import (
    SimulateError,
    check_bot,
    check_games,
    check_jobs,
    check_variants,
    make_specs,
    parse_players,
    progress_wanted,
    run_specs,
)

if TYPE_CHECKING:  # matplotlib is imported only when a chart is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
from .labels import death_name, event_name, item_name, loss_name
from .report_winchance import add_winchance, swing_rows
from .stats import merge_counts, wilson

REQUIRED = ("games", "wins", "win_rate", "losses", "deaths", "players", "bot", "variants",
            "mean_minutes")
COLOURS = {"won": "#2e7d32", "asphyxiation": "#66bb6a", "heat": "#e53935", "pressure": "#1e88e5",
           "kraken": "#6d4c41", "crushed": "#8e24aa", "missile_launch": "#fb8c00",
           "asphyxiated": "#00897b", "all_dead": "#424242"}
# A mean track level is drawn at a minute only while this many games (and this share) still run.
MIN_RUNNING_GAMES = 3
MIN_RUNNING_SHARE = 0.02
TRACK_COLOURS = {"asphyxiation": "#43a047", "heat": "#e53935", "pressure": "#1e88e5"}


class ReportError(ValueError):
    """A report that cannot be made (bad arguments or an unreadable saved simulation)."""


# --- the runs --------------------------------------------------------------------------------
def simulate_runs(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Play ``--games`` games for every bot and player count; one report dict per run."""
    games = check_games(args.games)
    counts = parse_players(args.players)
    bots = [b.strip() for b in str(args.bots).split(",") if b.strip()]
    if not bots:
        raise SimulateError("--bots names no bot")
    for b in bots:
        check_bot(b)
    variants = check_variants(args.variant)
    jobs = check_jobs(args.jobs)
    specs = [spec for bot in dict.fromkeys(bots)
             for spec in make_specs(counts, args.gnomes, variants, bot, args.seed,
                                    getattr(args, "data", None))]
    return run_specs(specs, games, jobs, progress_wanted(args), label="report")


def load_runs(files: Sequence[str]) -> list[dict[str, Any]]:
    """The runs in saved simulation JSON files: single reports, ``{"runs": [...]}`` or lists."""
    runs: list[dict[str, Any]] = []
    for name in files:
        try:
            doc = json.loads(read_text(name))
        except Unreadable as exc:
            raise ReportError(f"cannot read {name}: {exc}") from None
        except json.JSONDecodeError as exc:
            raise ReportError(f"{name} is not JSON: {exc}") from None
        items = doc.get("runs") if isinstance(doc, dict) and "runs" in doc else doc
        items = items if isinstance(items, list) else [items]
        for i, run in enumerate(items):
            missing = [k for k in REQUIRED if not isinstance(run, dict) or k not in run]
            if missing:
                raise ReportError(f"{name}: run {i} is not a simulation report "
                                  f"(missing {', '.join(missing)})")
            runs.append(run)
    if not runs:
        raise ReportError("the files hold no simulation run")
    return runs


def label(run: dict[str, Any], runs: Sequence[dict[str, Any]]) -> str:
    """The series name of a run: its bot, plus its variants when the runs' variants differ."""
    name = str(run["bot"])
    if len({tuple(r["variants"]) for r in runs}) > 1:
        name += " [" + (", ".join(run["variants"]) or "no variant") + "]"
    return name


def series(runs: Sequence[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Runs grouped by label (first-seen order), each group sorted by player count."""
    out: dict[str, list[dict[str, Any]]] = {}
    for r in runs:
        out.setdefault(label(r, runs), []).append(r)
    for group in out.values():
        group.sort(key=lambda r: (r["players"], r.get("gnomes_per_player", 1)))
    return out


def _ci(run: dict[str, Any]) -> tuple[float, float]:
    if "win_rate_ci" in run:
        low, high = run["win_rate_ci"]
        return float(low), float(high)
    return wilson(int(run["wins"]), int(run["games"]))


def _slug(text: str) -> str:
    keep = "".join(c if c.isalnum() else "-" for c in text.lower())
    return "-".join(p for p in keep.split("-") if p) or "bot"


# --- charts ----------------------------------------------------------------------------------
def _figure(width: float, height: float) -> Figure:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def chart_win_rate(runs: Sequence[dict[str, Any]], path: Path) -> None:
    fig = _figure(7, 4.2)
    ax = fig.add_subplot()
    groups = series(runs)
    n = len(groups)
    for i, (name, group) in enumerate(groups.items()):
        xs = [r["players"] + (i - (n - 1) / 2) * 0.08 for r in group]
        ys = [100 * r["win_rate"] for r in group]
        cis = [_ci(r) for r in group]
        err = [[max(0.0, y - 100 * lo) for y, (lo, _) in zip(ys, cis, strict=True)],
               [max(0.0, 100 * hi - y) for y, (_, hi) in zip(ys, cis, strict=True)]]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=4, linewidth=1.5, label=name)
    counts = sorted({r["players"] for r in runs})
    ax.set_xticks(counts)
    ax.set_xlabel("players")
    ax.set_ylabel("win rate (%)")
    ax.set_ylim(bottom=0)
    ax.set_title("Win rate by player count (95% Wilson interval)")
    ax.grid(alpha=0.3)
    ax.legend(loc="best")
    fig.savefig(path)


def _run_names(runs: Sequence[dict[str, Any]]) -> list[str]:
    return [f"{label(r, runs)}, {r['players']}p" for rs in series(runs).values() for r in rs]


def _ordered(runs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for rs in series(runs).values() for r in rs]


def chart_losses(runs: Sequence[dict[str, Any]], path: Path) -> None:
    ordered = _ordered(runs)
    names = _run_names(runs)
    causes = list(dict.fromkeys(c for r in ordered for c in r["losses"]))
    fig = _figure(8, 1.2 + 0.45 * len(ordered))
    ax = fig.add_subplot()
    ys = list(range(len(ordered)))
    _stacked_bars(ax, ys, [
        (cause, [100 * (r["wins"] if cause == "won" else r["losses"].get(cause, 0))
                 / max(r["games"], 1) for r in ordered]) for cause in ["won", *causes]],
        loss_name)
    ax.set_yticks(ys, names)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of games (%)")
    ax.set_title("How the games ended")
    fig.legend(loc="outside lower center", ncol=5, fontsize="small")
    fig.savefig(path)


def _stacked_bars(ax: Axes, ys: list[int], bars: list[tuple[str, list[float]]],
                  names: Callable[[str], str]) -> bool:
    """Horizontal bars stacked from the left, one series per cause (empty ones skipped, colours
    from COLOURS where a cause has one); True when anything was drawn."""
    left = [0.0] * len(ys)
    drawn = False
    for cause, widths in bars:
        if not any(widths):
            continue
        drawn = True
        ax.barh(ys, widths, left=left, label=names(cause), color=COLOURS.get(cause))
        left = [a + b for a, b in zip(left, widths, strict=True)]
    return drawn


def chart_deaths(runs: Sequence[dict[str, Any]], path: Path) -> None:
    ordered = _ordered(runs)
    names = _run_names(runs)
    causes = list(dict.fromkeys(c for r in ordered for c in r["deaths"]))
    fig = _figure(8, 1.2 + 0.45 * len(ordered))
    ax = fig.add_subplot()
    ys = list(range(len(ordered)))
    drawn = _stacked_bars(ax, ys, [
        (cause, [r["deaths"].get(cause, 0) / max(r["games"], 1) for r in ordered])
        for cause in causes], death_name)
    if not drawn:
        ax.barh(ys, [0.0] * len(ys))
        ax.text(0.5, 0.5, "no gnome died", transform=ax.transAxes, ha="center")
    ax.set_yticks(ys, names)
    ax.invert_yaxis()
    ax.set_xlabel("deaths per game")
    ax.set_title("Gnome deaths by cause")
    if drawn:
        fig.legend(loc="outside lower center", ncol=3, fontsize="small")  # long names
    fig.savefig(path)


def chart_tracks(group: Sequence[dict[str, Any]], name: str, path: Path) -> bool:
    """Track levels by minute for one bot's runs; False (no file) when no run has a timeline."""
    timed = [r for r in group if r.get("tracks_by_minute")]
    if not timed:
        return False
    tracks = [k for k in timed[0]["tracks_by_minute"] if k not in ("start", "running")]
    fig = _figure(10, 6.5)
    axes = fig.subplots(2, 2, sharex=True).flatten()
    for r in timed:
        tl = r["tracks_by_minute"]
        tag = f"{r['players']}p"
        enough = max(MIN_RUNNING_GAMES, MIN_RUNNING_SHARE * r["games"])
        for ax, track in zip(axes, tracks, strict=False):
            values = tl[track]
            xs = [m for m, v in enumerate(values)
                  if v is not None and tl["running"][m] >= enough]
            ax.plot(xs, [values[m] for m in xs], label=tag, linewidth=1.4)
        running = tl["running"]
        axes[3].plot(range(len(running)), [100 * n / max(r["games"], 1) for n in running],
                     label=tag, linewidth=1.4)
    for ax, track in zip(axes, tracks, strict=False):
        ax.set_title(f"{track.replace('_', ' ')} (mean level)",
                     color=TRACK_COLOURS.get(track, "black"))
        ax.set_ylabel("track level")
        ax.grid(alpha=0.3)
    axes[3].set_title("games still running")
    axes[3].set_ylabel("% of games")
    axes[3].set_ylim(0, 101)
    axes[3].grid(alpha=0.3)
    for ax in axes[2:]:
        ax.set_xlabel("minutes of the time track used")
    axes[0].legend(loc="upper left", fontsize="small")
    fig.suptitle(f"Disaster tracks over time — {name}")
    fig.savefig(path)
    return True


def chart_winchance(runs: Sequence[dict[str, Any]], path: Path) -> bool:
    """The mean win-chance curve by minute of every run with ``winchance`` (report --winchance);
    False (no file) when no run has one."""
    curves = [r for r in _ordered(runs) if r.get("winchance")]
    if not curves:
        return False
    fig = _figure(8, 4.2)
    ax = fig.add_subplot()
    for r in curves:
        wc = r["winchance"]
        ys = [100 * v for v in wc["mean_by_minute"]]
        ax.plot(range(len(ys)), ys, linewidth=1.8,
                label=f"{label(r, runs)}, {r['players']}p ({wc['games']} games)")
    ax.set_xlabel("minute")
    ax.set_ylabel("crew's chance to win (%)")
    ax.set_ylim(0, 100)
    ax.set_title("Win chance over the game (mean; heuristic rollouts, corrected)")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    fig.savefig(path)
    return True


# --- the document ----------------------------------------------------------------------------
def _pct(n: float, of: float) -> str:
    return f"{100 * n / of:.1f}%" if of else "–"


def _tables(runs: Sequence[dict[str, Any]]) -> list[tuple[str, list[str], list[list[str]]]]:
    """(title, header, rows) of every table in the report."""
    ordered = _ordered(runs)
    out: list[tuple[str, list[str], list[list[str]]]] = []
    rows = []
    for r in ordered:
        low, high = _ci(r)
        lost = r["games"] - r["wins"]
        top = max(r["losses"].items(), key=lambda kv: kv[1]) if lost else ("–", 0)
        rows.append([label(r, runs), str(r["players"]), str(r["games"]),
                     f"{100 * r['win_rate']:.2f}%", f"{100 * low:.2f}–{100 * high:.2f}%",
                     f"{r['mean_minutes']:.1f}",
                     f"{r['mean_minutes_lost']:.1f}" if "mean_minutes_lost" in r else "–",
                     f"{r.get('mean_deaths', 0):.2f}",
                     f"{loss_name(top[0])} ({_pct(top[1], r['games'])})" if lost else "–"])
    out.append(("Summary", ["bot", "players", "games", "win rate", "95% CI",
                            "minutes survived", "minutes (lost games)", "deaths / game",
                            "main loss cause"], rows))
    causes = list(dict.fromkeys(c for r in ordered for c in r["losses"]))
    out.append(("Losses by cause (share of games)",
                ["bot", "players", *map(loss_name, causes)],
                [[label(r, runs), str(r["players"]),
                  *[_pct(r["losses"].get(c, 0), r["games"]) for c in causes]] for r in ordered]))
    dcauses = list(dict.fromkeys(c for r in ordered for c in r["deaths"]))
    out.append(("Deaths by cause (per game)", ["bot", "players", *map(death_name, dcauses)],
                [[label(r, runs), str(r["players"]),
                  *[f"{r['deaths'].get(c, 0) / max(r['games'], 1):.3f}" for c in dcauses]]
                 for r in ordered]))
    for name, group in series(runs).items():
        timed = [r for r in group if "events" in r]
        if not timed:
            continue
        games = sum(r["games"] for r in timed)
        losses = sum(r["games"] - r["wins"] for r in timed)
        n_last = timed[0].get("last_turns", 3)
        counts = ", ".join(str(r["players"]) for r in timed)
        events = merge_counts([r["events"] for r in timed], losses, games)
        out.append((f"Events — {name} ({games} games, players {counts}, {losses} lost)",
                    ["event", "drawn", "per game", "per won game", "per lost game",
                     f"in last {n_last} turns of losses", "caused the loss"],
                    [[event_name(k), str(e["drawn"]), f"{e['drawn'] / max(games, 1):.2f}",
                      f"{e['drawn_in_wins'] / (games - losses):.2f}" if games > losses else "–",
                      f"{e['drawn_in_losses'] / losses:.2f}" if losses else "–",
                      _pct(e["late_losses"], losses), _pct(e["caused"], losses)]
                     for k, e in sorted(events.items(), key=lambda kv: -kv[1]["caused"])]))
        items = merge_counts([r["items"] for r in timed], losses, games)
        wins = games - losses
        out.append((f"Items — {name} (crew win rate {_pct(wins, games)})",
                    ["item", "played", "per game", "plays in won games", "repairs saved",
                     "other uses"],
                    [[item_name(k), str(i["played"]), f"{i['per_game']:.2f}",
                      _pct(i["played_in_wins"], i["played"]), str(i["saves"]), str(i["uses"])]
                     for k, i in sorted(items.items(), key=lambda kv: -kv[1]["saves"])]))
    swings = swing_rows(ordered, lambda r: label(r, runs))
    if swings:
        out.append(("Biggest win-chance swings (report --winchance)",
                    ["bot", "players", "game", "swing", "what happened"], swings))
    return out


DEFINITIONS = [
    ("win rate", "games the crew won (every surviving gnome rescued) / games; the 95% interval is "
                 "the Wilson score interval, which stays meaningful for rates near 0."),
    ("minutes survived", "minutes of the time track used: the start space minus the lowest time "
                         "keeper at the end (a won game used them all)."),
    ("events: per won / lost game", "draws of that card kind in won / lost games divided by the "
                                    "number of such games: a card drawn more often in losses "
                                    "than in wins hurts."),
    ("events: in last N turns of losses", "share of lost games in which the card was drawn "
                                          "during their last N turns."),
    ("events: caused the loss", "share of lost games whose loss it caused: the card that moved "
                                "a disaster track to its end, that placed the destruction token "
                                "the crew could not clear, or during which the last gnome died."),
    ("items: plays in won games", "share of the item's plays made in games the crew won; "
                                  "compare it with the crew's win rate."),
    ("items: repairs saved", "repairs that succeeded only thanks to the item: the die showed more "
                             "than the minutes spent but no more than minutes + bonuses, and the "
                             "item was played that turn with a bonus for that repair."),
    ("items: other uses", "event icons ignored with a Lucky Charm and moves into the Sea with an "
                          "Aqualung."),
    ("track levels over time", "for each minute of the time track (when the gnome furthest back "
                               "reached it), the mean level of each disaster track over the "
                               "games still running (drawn while at least 2% of the games, and 3 "
                               "games, still run)."),
    ("win chance", "with --winchance N: the crew's chance to win at every point of the first N "
                   "games of a run, estimated from a spectator's view by heuristic rollouts "
                   "(corrected; see rednovember analyse). The curve is the mean over those games "
                   "by minute; a game over by then counts as its outcome."),
]


def _meta(runs: Sequence[dict[str, Any]]) -> list[str]:
    seeds = sorted({str(r.get("seed", "?")) for r in runs})
    variants = sorted({", ".join(r["variants"]) or "none" for r in runs})
    data_sets = sorted({str(r.get("data_set", "?")) for r in runs})
    pools = sorted({", ".join(r["mix_pool"]) for r in runs if "mix_pool" in r})
    lines = [f"{len(runs)} run(s), {sum(r['games'] for r in runs)} games in all",
             f"variants: {'; '.join(variants)}",
             f"seed(s): {', '.join(seeds)}", f"data set: {'; '.join(data_sets)}"]
    if pools:
        lines.append(f"mix pool: {'; '.join(pools)}")
    return lines


NO_CHARTS = ("The charts were left out: matplotlib is not installed. Install it with "
             "`pip install 'rednovember[analysis]'` (in this repository: "
             "`. scripts/venv.sh && ensure_venv analysis`) and run the report again.")


def charts_available() -> bool:
    """Whether matplotlib can be imported (the charts need it; the tables do not)."""
    return importlib.util.find_spec("matplotlib") is not None


def write_report(runs: Sequence[dict[str, Any]], out: Path, fmt: str = "md",
                 with_charts: bool = True) -> Path:
    """Write the charts (unless ``with_charts`` is false: tables only, and a note saying how to
    get the charts) and the document into ``out``; returns the document's path."""
    out.mkdir(parents=True, exist_ok=True)
    charts: list[tuple[str, str]] = []
    if with_charts:
        chart_win_rate(runs, out / "winrate.png")
        charts.append(("Win rate by player count", "winrate.png"))
        chart_losses(runs, out / "losses.png")
        charts.append(("How the games ended", "losses.png"))
        chart_deaths(runs, out / "deaths.png")
        charts.append(("Gnome deaths by cause", "deaths.png"))
        for name, group in series(runs).items():
            file = f"tracks-{_slug(name)}.png"
            if chart_tracks(group, name, out / file):
                charts.append((f"Disaster tracks over time — {name}", file))
        if chart_winchance(runs, out / "winchance.png"):
            charts.append(("Win chance over the game (mean of the analysed games)",
                           "winchance.png"))
    else:
        charts.append(("Charts", ""))  # the note in their place
    tables = _tables(runs)
    doc = out / ("report.html" if fmt == "html" else "report.md")
    text = _html(runs, charts, tables) if fmt == "html" else _markdown(runs, charts, tables)
    doc.write_text(text, "utf-8")
    return doc


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def _markdown(runs: Sequence[dict[str, Any]], charts: list[tuple[str, str]],
              tables: list[tuple[str, list[str], list[list[str]]]]) -> str:
    lines = ["# Red November — simulation report", ""]
    lines += [f"- {m}" for m in _meta(runs)] + [""]
    summary, *rest = tables
    for title, header, rows in [summary]:
        lines += _md_table(title, header, rows)
    for title, file in charts:
        lines += [f"## {title}", "", f"![{title}]({file})" if file else NO_CHARTS, ""]
    for title, header, rows in rest:
        lines += _md_table(title, header, rows)
    lines += ["## Definitions", ""]
    lines += [f"- **{term}**: {text}" for term, text in DEFINITIONS] + [""]
    return "\n".join(lines)


def _md_table(title: str, header: list[str], rows: list[list[str]]) -> list[str]:
    out = [f"## {title}", "", "| " + " | ".join(map(_md_cell, header)) + " |",
           "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(map(_md_cell, row)) + " |" for row in rows]
    return out + [""]


def _html(runs: Sequence[dict[str, Any]], charts: list[tuple[str, str]],
          tables: list[tuple[str, list[str], list[list[str]]]]) -> str:
    e = html.escape
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             "<title>Red November — simulation report</title>",
             "<style>body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;"
             "padding:0 1em;color:#222}table{border-collapse:collapse;margin:.5em 0 1.5em}"
             "th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}td{white-space:nowrap}"
             "th:first-child,td:first-child{text-align:left}th{background:#f3f3f3}"
             "img{max-width:100%;height:auto}</style></head><body>",
             "<h1>Red November — simulation report</h1>", "<ul>"]
    parts += [f"<li>{e(m)}</li>" for m in _meta(runs)] + ["</ul>"]

    def table(title: str, header: list[str], rows: list[list[str]]) -> None:
        parts.append(f"<h2>{e(title)}</h2><table><thead><tr>"
                     + "".join(f"<th>{e(h)}</th>" for h in header) + "</tr></thead><tbody>")
        parts.extend("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>" for row in rows)
        parts.append("</tbody></table>")

    summary, *rest = tables
    table(*summary)
    for title, file in charts:
        parts.append(f'<h2>{e(title)}</h2><img src="{e(file)}" alt="{e(title)}">' if file
                     else f"<h2>{e(title)}</h2><p>{e(NO_CHARTS)}</p>")
    for t in rest:
        table(*t)
    parts.append("<h2>Definitions</h2><dl>")
    parts += [f"<dt><b>{e(term)}</b></dt><dd>{e(text)}</dd>" for term, text in DEFINITIONS]
    parts.append("</dl></body></html>")
    return "\n".join(parts) + "\n"


def run_report(args: argparse.Namespace) -> int:
    """The ``report`` command. Returns the exit code (2 for bad arguments or files)."""
    out = Path(args.out)
    with_charts = charts_available()
    if not with_charts:  # the tables need nothing more: the report is written without charts
        print(f"rednovember report: note: {NO_CHARTS}", file=sys.stderr)
    if out.exists() and not out.is_dir():
        print(f"rednovember report: error: {out} is not a folder", file=sys.stderr)
        return 2
    try:
        runs = load_runs(args.from_files) if args.from_files else simulate_runs(args)
    except (SimulateError, ReportError) as exc:
        print(f"rednovember report: error: {exc}", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    if getattr(args, "winchance", 0) and not args.from_files:
        add_winchance(runs, args.winchance, args.winchance_rollouts, getattr(args, "data", None))
    if not args.from_files:
        (out / "simulation.json").write_text(json.dumps({"runs": runs}) + "\n", "utf-8")
    print(write_report(runs, out, args.format, with_charts))
    return 0


__all__ = ["NO_CHARTS", "ReportError", "chart_deaths", "chart_losses", "chart_tracks",
           "chart_win_rate", "chart_winchance", "charts_available", "load_runs", "run_report",
           "simulate_runs", "write_report"]
