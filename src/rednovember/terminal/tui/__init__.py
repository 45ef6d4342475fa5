"""The full-screen terminal game (Textual). ``rednovember play`` starts it when standard input and
output are a terminal; ``--plain`` (or a pipe) keeps the line mode of ``terminal/app.py``.

Modules: ``session`` (the game, options, undo, bots, saving; no widgets), ``render`` (board
renderables sized to their space), ``screens`` (dialogs and the end-of-game review), ``app`` (the
Textual application)."""

from __future__ import annotations

import sys
from argparse import Namespace

from rich.console import Console

from ...i18n import UnknownLanguage, available, catalog
from ...rules import load_data
from ..app import run_play
from ..newgame import SetupError, load_setup, new_setup
from .app import GameApp
from .session import Session


def wants_plain(args: Namespace) -> bool:
    """The line mode: asked for, or no terminal to draw on."""
    return bool(getattr(args, "plain", False)) or not (sys.stdin.isatty() and sys.stdout.isatty())


def run_tui(args: Namespace) -> int:
    """Entry point of ``rednovember play`` on a terminal: set up (or load) the game in the line
    mode's questions, then play it full screen."""
    if wants_plain(args):
        return run_play(args)
    console = Console(highlight=False)
    errors = Console(stderr=True, highlight=False)
    lang = getattr(args, "lang", None) or "en"
    try:
        cat = catalog(lang)
    except UnknownLanguage:
        errors.print(catalog().get("ui", "unknown_language", lang=lang,
                                   available=", ".join(available())), style="bold red")
        return 2
    try:
        if getattr(args, "load", None):
            setup = load_setup(args.load, list(args.bot or []), cat,
                               load_data(getattr(args, "data", None)))
        else:
            setup = new_setup(args, console, console.input, cat)
    except SetupError as exc:
        errors.print(str(exc), style="bold red", markup=False)
        return exc.code
    except (EOFError, KeyboardInterrupt):
        return 1
    session = Session(setup.game, setup.bots, setup.bot_names, lang)
    app = GameApp(session)
    code = app.run()
    if app.saved_to is not None:
        console.print(session.cat.get("term_tui", "saved_on_quit", file=str(app.saved_to)),
                      style="green", markup=False)
    return code if code is not None else 0


__all__ = ["GameApp", "Session", "run_tui", "wants_plain"]
