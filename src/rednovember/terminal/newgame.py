"""Starting a terminal game: from the command line, by asking, or from a save file."""

from __future__ import annotations

import json
import random
from argparse import Namespace
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from ..bots import BOTS, Bot, make_bot
from ..files import LOAD_FAILED, Unreadable, read_text
from ..i18n import Catalog
from ..rules import VARIANTS, Config, ConfigError, Game, GameData, load_data, new_game
from ..rules.serialize import FORMAT as SAVE_FORMAT
from ..rules.serialize import SaveError, from_dict, to_dict

Ask = Callable[[str], str]
PLAYERS = range(1, 9)  # the player counts a game is set up for
SOLO_GNOMES = range(3, 9)  # a solo player's gnomes (R16: two players run two each)


def save_shape_problem(text: str, cat: Catalog) -> str | None:
    """Why ``text`` is not even shaped as a save, in the player's words (cut short, not a save
    of this game, incomplete); None when it is (the loader then gives its own reason: another
    data set, a corrupt history)."""
    try:
        d = json.loads(text)
    except ValueError:
        return cat.raw("ui", "save_truncated")
    if not isinstance(d, dict) or d.get("format") != SAVE_FORMAT:
        return cat.raw("ui", "save_not_ours")
    if not isinstance(d.get("data_set"), dict) or not isinstance(d.get("config"), dict):
        return cat.raw("ui", "save_incomplete")
    return None


class SetupError(Exception):
    """The game cannot start; the message is for the player, ``code`` the exit status."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Setup:
    game: Game
    bots: dict[int, Bot] = field(default_factory=dict)  # seat (0-based) -> bot
    bot_names: dict[int, str] = field(default_factory=dict)
    loaded_from: str | None = None


def parse_bots(specs: list[str], players: int, cat: Catalog) -> dict[int, str]:
    """``["2=random"]`` -> ``{1: "random"}`` (seats count from 1 on the command line)."""
    out: dict[int, str] = {}
    names = ", ".join(sorted(BOTS))
    for spec in specs:
        seat_text, _, name = spec.partition("=")
        seat = int(seat_text) if seat_text.strip().isdigit() else 0
        if not 1 <= seat <= players or name not in BOTS:
            raise SetupError(cat.get("ui", "bad_bot_arg", arg=spec, players=players, names=names))
        out[seat - 1] = name
    return out


def _make_bots(names: dict[int, str], seed: int) -> dict[int, Bot]:
    return {seat: make_bot(name, seed * 100 + seat + 1) for seat, name in names.items()}


def _ask_int(ask: Ask, console: Console, cat: Catalog, question: str, low: int, high: int,
             default: int | None = None) -> int:
    while True:
        answer = ask(question + " ").strip()
        if not answer and default is not None:
            return default
        if answer.isdigit() and low <= int(answer) <= high:
            return int(answer)
        console.print(cat.get("ui", "setup_bad_number", low=low, high=high), style="red")


def _ask_variants(ask: Ask, console: Console, cat: Catalog) -> list[str]:
    console.print(cat.raw("ui", "setup_variants"))
    for i, v in enumerate(VARIANTS, 1):
        console.print(f"  {i}. {cat.raw('variants', v)}")
    while True:
        words = ask("> ").replace(",", " ").split()
        chosen = [VARIANTS[int(w) - 1] for w in words if w.isdigit() and 1 <= int(w) <= len(VARIANTS)]
        chosen += [w for w in words if w in VARIANTS]
        if len(chosen) == len(words):
            return sorted(set(chosen))
        console.print(cat.get("ui", "setup_bad_numbers", low=1, high=len(VARIANTS)), style="red")


# The bot an empty answer picks: the strongest one offered for its time (random wins about 1 game
# in 100); search:strong, wider and slower, was measured no stronger (bench/results/bots.md).
DEFAULT_BOT = "search"

def _ask_bots(ask: Ask, console: Console, cat: Catalog, players: int) -> dict[int, str]:
    names = list(BOTS)  # weakest first
    default = DEFAULT_BOT if DEFAULT_BOT in BOTS else names[0]
    while True:
        words = ask(cat.raw("ui", "setup_bots") + " ").replace(",", " ").split()
        if all(w.isdigit() and 1 <= int(w) <= players for w in words):
            break
        console.print(cat.get("ui", "setup_bad_numbers", low=1, high=players), style="red")
    out: dict[int, str] = {}
    for seat in sorted({int(w) for w in words}):
        name = default
        if len(names) > 1:
            while True:
                name = ask(cat.get("ui", "setup_bot_name", seat=seat, names=", ".join(names),
                                   default=default) + " ").strip().lower() or default
                if name in BOTS:
                    break
                console.print(cat.get("ui", "setup_bad_bot", names=", ".join(names)), style="red")
        out[seat - 1] = name
    return out


HUMAN = "human"


def save_dict(game: Game, bot_names: dict[int, str]) -> dict[str, Any]:
    """The save of ``game`` plus the optional ``seats`` field (docs/formats.md): per seat
    ``"human"`` or the name of the bot playing it, so that ``--load`` brings the bots back."""
    d = to_dict(game)
    d["seats"] = [bot_names.get(seat, HUMAN) for seat in range(game.config.players)]
    return d


def save_text(game: Game, bot_names: dict[int, str]) -> str:
    return json.dumps(save_dict(game, bot_names), indent=1)


def saved_seats(d: dict[str, Any], players: int) -> dict[int, str]:
    """The bots recorded in a save's ``seats`` (absent in older saves: every seat human)."""
    seats = d.get("seats")
    if seats is None:
        return {}
    if not isinstance(seats, list) or len(seats) != players \
            or not all(isinstance(k, str) and (k == HUMAN or k in BOTS) for k in seats):
        raise SaveError(f"seats: expected {players} entries, each {HUMAN!r} or one of "
                        f"{', '.join(sorted(BOTS))}; got {seats!r}")
    return {seat: kind for seat, kind in enumerate(seats) if kind != HUMAN}


def load_setup(path: str, bot_specs: list[str], cat: Catalog, data: GameData | None = None) -> Setup:
    """A saved game; its bots come back from the save's ``seats`` unless ``--bot`` names the
    bots anew (then those, and every other seat human)."""
    try:
        text = read_text(str(Path(path).expanduser()))
    except Unreadable as exc:
        raise SetupError(cat.get("ui", "load_failed", file=path, error=str(exc)), LOAD_FAILED) \
            from None
    try:
        d = json.loads(text)
        game = from_dict(d, data)
        saved = saved_seats(d, game.config.players)
    except Exception as exc:  # any failure means the file is not a usable save
        raise SetupError(cat.get("ui", "load_failed", file=path, error=save_shape_problem(text, cat)
                                      or str(exc) or repr(exc)),
                         LOAD_FAILED) from None
    names = parse_bots(bot_specs, game.config.players, cat) if bot_specs else saved
    return Setup(game, _make_bots(names, game.config.seed), names, path)


def build_setup(players: int, gnomes: int | None, variants: Iterable[str], bot_names: dict[int, str],
                seed: int | None, cat: Catalog, data: GameData | None = None) -> Setup:
    """The one place a new game is built from the set-up's answers (the line mode's questions,
    the full-screen set-up): the Config (its rules checked, e.g. R16), the game and its bots.
    ``seed`` None draws one. Raises :class:`SetupError` with a message for the player."""
    if not all(0 <= seat < players and name in BOTS for seat, name in bot_names.items()):
        specs = ", ".join(f"{seat + 1}={name}" for seat, name in sorted(bot_names.items()))
        raise SetupError(cat.get("ui", "bad_bot_arg", arg=specs, players=players,
                                 names=", ".join(sorted(BOTS))))
    seed = seed if seed is not None else random.SystemRandom().randrange(1_000_000)
    try:
        config = Config(players, gnomes, frozenset(variants), seed)
    except ConfigError as exc:
        raise SetupError(cat.get("ui", "bad_config", error=str(exc))) from None
    return Setup(new_game(config, data if data is not None else load_data()),
                 _make_bots(bot_names, seed), dict(bot_names))


def new_setup(args: Namespace, console: Console, ask: Ask, cat: Catalog) -> Setup:
    """A new game from the arguments, asking for whatever is missing when --players is."""
    interactive = args.players is None
    players = args.players if not interactive else _ask_int(
        ask, console, cat, cat.raw("ui", "setup_players"), PLAYERS[0], PLAYERS[-1])
    gnomes = args.gnomes
    if interactive and players == 1 and gnomes is None:  # R16: two players run two gnomes each
        low, high = SOLO_GNOMES[0], SOLO_GNOMES[-1]
        gnomes = _ask_int(ask, console, cat, cat.get("ui", "setup_gnomes", low=low, high=high,
                                                     default=low), low, high, low)
    variants = list(args.variant or [])
    if interactive and not variants:
        variants = _ask_variants(ask, console, cat)
    names = parse_bots(list(args.bot or []), players, cat)
    if interactive and not names:
        names = _ask_bots(ask, console, cat, players)
    return build_setup(players, gnomes, variants, names, args.seed, cat,
                       load_data(getattr(args, "data", None)))


__all__ = ["DEFAULT_BOT", "HUMAN", "PLAYERS", "SOLO_GNOMES", "Setup", "SetupError", "build_setup",
           "load_setup", "new_setup", "parse_bots", "save_dict", "save_text", "saved_seats"]
