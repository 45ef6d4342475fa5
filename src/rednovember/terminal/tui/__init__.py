"""The full-screen terminal game (Textual). ``rednovember play`` starts it when standard input and
output are a terminal; ``--plain`` (or a pipe) keeps the line mode of ``terminal/app.py``.

Modules: ``session`` (the game, options, undo, bots, saving; no widgets), ``render`` (board
renderables sized to their space), ``screens`` (dialogs and the end-of-game review), ``setup`` (the
set-up screen of a new game), ``app`` (the Textual application)."""

from __future__ import annotations

import sys
from argparse import Namespace

from rich.console import Console

from ...i18n import catalog
from ...rules import load_data
from ..app import EXIT_OK, EXIT_USAGE, command_catalog, default_autosave, play_command, run_play
from ..newgame import SetupError, load_setup, new_setup
from .app import GameApp
from .session import Session
from .setup import SetupScreen


def wants_plain(args: Namespace) -> bool:
    """The line mode: asked for, or no terminal to draw on."""
    return bool(getattr(args, "plain", False)) or not (sys.stdin.isatty() and sys.stdout.isatty())


def build_app(args: Namespace, errors: Console) -> GameApp | int:
    """The app for ``args``: a game set up by the command line (``--players``) or loaded
    (``--load``) starts at once; otherwise the set-up screen asks first, in the same app. An exit
    status instead when the command line cannot start a game (the message on ``errors``)."""
    lang = getattr(args, "lang", None) or "en"
    cat = command_catalog(lang, errors)
    if cat is None:
        return EXIT_USAGE
    try:
        data = load_data(getattr(args, "data", None))
        if getattr(args, "load", None):
            setup = load_setup(args.load, list(args.bot or []), cat, data)
        elif args.players is not None:  # nothing left to ask
            setup = new_setup(args, Console(highlight=False), input, cat)
        else:
            return GameApp(None, setup=SetupScreen(args, cat, data, default_autosave()))
    except SetupError as exc:
        errors.print(str(exc), style="bold red", markup=False)
        return exc.code
    return GameApp(Session(setup.game, setup.bots, setup.bot_names, lang))


def run_tui(args: Namespace) -> int:
    """Entry point of ``rednovember play`` on a terminal: the set-up screen (unless the command
    line set the game up or loads one), then the game, full screen."""
    if wants_plain(args):
        return run_play(args)
    console = Console(highlight=False)
    app = build_app(args, Console(stderr=True, highlight=False))
    if isinstance(app, int):
        return app
    code = app.run()
    if app.playing and app.saved_to is not None:
        cat = app.session.cat
        line = cat.get("term_tui", "saved_finished", file=str(app.saved_to)) \
            if app.session.game.is_over else \
            cat.get("term_tui", "saved_on_quit", file=str(app.saved_to), command=play_command(cat.code))
        console.print(line, style="green", markup=False)
    elif not app.playing and code == EXIT_OK:  # left at the set-up screen, as the line mode's quit
        console.print(catalog(getattr(args, "lang", None) or "en").raw("ui", "quit"))
    return code if code is not None else 0


__all__ = ["GameApp", "Session", "SetupScreen", "build_app", "run_tui", "wants_plain"]
