"""The ``rednovember`` command: play, simulate, scenario run, replay, data."""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn

from . import __version__
from .analysis.analyse_cli import add_parser as add_analyse_parser
from .analysis.analyse_cli import add_report_arguments, add_show_arguments
from .bots import BOTS
from .learn.terminal import add_parser as add_learn_parser
from .rules import VARIANTS, DataError, load_data
from .web.options import add_admin_parsers
from .web.options import add_arguments as add_serve_arguments

GNOMES_HELP = "a solo player's gnomes (3-8); two players run 2 each (R16)"
PLAY_EPILOG = """\
in the game: a number chooses (0 always ends the turn); go ROOM, undo, legend, log, board,
save FILE, help, quit (asks first; the game is then saved, as when the input ends: to
$REDNOVEMBER_AUTOSAVE, default ~/.local/state/rednovember/autosave.json). A save remembers
which seats are bots: --load brings them back (--bot replaces them).

exit status: 0 the game ended, or the player left it with quit; 1 the input ended or was
interrupted before the game ended (the game is saved); 2 bad command line, unknown language,
or a save that cannot be loaded."""


def _variants(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", action="append", default=[], choices=VARIANTS,
                        help="an optional rule; repeat for several")


class Parser(argparse.ArgumentParser):
    """argparse with a one-line error (a long usage text would hide it): what is wrong, and
    where to read more. Sub-commands' parsers are of this class too."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = Parser(prog="rednovember",
                                        description="Red November, the board game.")
    p.add_argument("--version", action="version", version=f"rednovember {__version__}")
    p.add_argument("--data", metavar="DIR", default=os.environ.get("REDNOVEMBER_DATA"),
                   help="use the data set (board, time track, decks) in DIR instead of the "
                        "built-in one (also $REDNOVEMBER_DATA)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="play a game in the terminal", epilog=PLAY_EPILOG,
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    play.add_argument("--plain", action="store_true",
                      help="line mode for screen readers and pipes: plain text, choices typed as "
                           "numbers or commands on standard input")
    play.add_argument("--players", type=int, help="number of players 1..8 (asked if omitted)")
    play.add_argument("--gnomes", type=int, help=GNOMES_HELP)
    _variants(play)
    play.add_argument("--seed", type=int, help="random seed (default: random)")
    play.add_argument("--bot", action="append", default=[], metavar="SEAT=NAME",
                      help="let a bot play a seat, e.g. --bot 2=search (seats count from 1); "
                           f"bots: {', '.join(sorted(BOTS))}")
    play.add_argument("--load", metavar="FILE", help="resume a saved game")
    play.add_argument("--lang", default="en",
                      help="language of the texts: en, de, fr, pl, ru or es (default en)")

    sim = sub.add_parser("simulate", help="play many games with bots and report statistics")
    sim.add_argument("--games", type=int, default=100,
                     help="number of games per player count (default 100)")
    sim.add_argument("--players", default="4", metavar="N|LIST|all",
                     help="player count(s) 1..8: 4, 3,5, 3-5 or all; one run per count (default 4)")
    sim.add_argument("--gnomes", type=int, help=GNOMES_HELP)
    _variants(sim)
    sim.add_argument("--bot", default="random",
                     help="the bot in every seat: a registered bot (random, heuristic, search, "
                          "search:fast, ...) or mix (seats drawn per game from the strong bots; "
                          "default random)")
    sim.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    sim.add_argument("--jobs", type=int, default=0,
                     help="worker processes (default 0: one per core); the output does not "
                          "depend on it")
    sim.add_argument("--cluster", metavar="ADDRESS",
                     help="play on the Dask cluster whose scheduler is at ADDRESS, e.g. "
                          "tcp://HOST:8786 (then --jobs is ignored); the output is the same as "
                          "here. Needs pip install 'rednovember[cluster]' (docs/cluster.md)")
    sim.add_argument("--cluster-timeout", type=float, default=10.0, metavar="SECONDS",
                     help="how long to wait for the scheduler, then for a first worker "
                          "(default 10)")
    sim.add_argument("--json", action="store_true",
                     help="print one JSON object ({\"runs\": [...]} for several player counts)")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")

    rpt = sub.add_parser("report", help="simulate and write a report with charts (Markdown/HTML)")
    rpt.add_argument("--games", type=int, default=200,
                     help="games per bot and player count (default 200)")
    rpt.add_argument("--players", default="3-5", metavar="N|LIST|all",
                     help="player count(s) 1..8: 4, 3,5, 3-5 or all (default 3-5)")
    rpt.add_argument("--gnomes", type=int, help=GNOMES_HELP)
    rpt.add_argument("--bots", default="random", metavar="LIST",
                     help="comma-separated bots to compare, e.g. random,heuristic,mix "
                          "(default random)")
    _variants(rpt)
    rpt.add_argument("--seed", type=int, default=0, help="seed of the runs (default 0)")
    rpt.add_argument("--jobs", type=int, default=0,
                     help="worker processes (default 0: one per core)")
    rpt.add_argument("--format", choices=("md", "html"), default="md",
                     help="report format (default md)")
    rpt.add_argument("--out", default="report", metavar="DIR",
                     help="folder for the report, its charts and simulation.json (default report)")
    rpt.add_argument("--from", dest="from_files", nargs="+", metavar="FILE",
                     help="build the report from saved simulation JSON (simulate --json output "
                          "or a report's simulation.json) instead of simulating")
    rpt.add_argument("--quiet", action="store_true", help="no progress bar")
    add_report_arguments(rpt)

    scen = sub.add_parser("scenario", help="scenarios: arranged positions for tests and puzzles")
    ssub = scen.add_subparsers(dest="scenario_command", required=True)
    run = ssub.add_parser("run", help="apply a scenario and print the resulting state as JSON")
    run.add_argument("file")

    rep = sub.add_parser("replay", help="replay a save from its seed and actions and check it")
    rep.add_argument("file")
    add_show_arguments(rep)
    add_analyse_parser(sub)

    serve = sub.add_parser("serve", help="play in the browser, together: start the web server")
    add_serve_arguments(serve)
    add_admin_parsers(sub)

    add_learn_parser(sub)
    sub.add_parser("data", help="show which data set the game uses")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # `rednovember` alone: what it can do, not an error
        parser.print_help()
        return 0
    try:
        data = load_data(args.data)
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.command == "play":
        from .terminal.tui import run_tui  # the line mode with --plain or without a terminal

        return run_tui(args)
    if args.command == "simulate":
        from .analysis.simulate import run_simulate

        return run_simulate(args)
    if args.command == "report":
        from .analysis.report import run_report

        return run_report(args)
    if args.command == "scenario":
        from .scenario_cli import run_scenario

        return run_scenario(args)
    if args.command == "serve":
        from .web.serve import run_serve

        return run_serve(args, data)
    if args.command in ("db", "backup", "restore"):
        from .web.admin import run_admin

        return run_admin(args)
    if args.command == "learn":
        from .learn.terminal import run_learn

        return run_learn(args)
    if args.command == "replay":
        from .analysis.analyse_cli import run_show
        from .scenario_cli import run_replay

        return run_replay(args) or (run_show(args) if args.show else 0)
    if args.command == "analyse":
        from .analysis.analyse_cli import run_analyse

        return run_analyse(args)
    print(f"data set: {data.name}  digest {data.digest}")
    print(f"  from: {args.data or 'built-in'}")
    print(f"  {len(data.room_keys) - 1} rooms, {data.interior_count} interior hatches, "
          f"{len(data.events)} event cards, {sum(i.count for i in data.items)} item cards")
    return 0


if __name__ == "__main__":
    sys.exit(main())
