"""Shared helpers for the rules tests: arranging positions without breaking card conservation.

They live in a module of their own (``from helpers import …``), not in a conftest, so that their
name never clashes with tests/web/conftest.py whichever test files a run collects first.

Every helper moves cards between the decks, the discard piles and the gnomes' hands (never invents
or drops one), so :func:`rednovember.rules.invariants.check` holds after arranging a position.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rednovember.bots import make_bot
from rednovember.bots.rollout import rollout
from rednovember.rules import Action, ActionError, Config, Game, GameData, new_game, turn
from rednovember.rules.invariants import check
from rednovember.rules.serialize import to_dict
from rednovember.rules.state import AFTER_ACTION, HIGH, LOW, NONE

ANY = object()

__all__ = ["ANY", "HIGH", "LOW", "NONE", "act", "arrange", "bench_script", "block", "card",
           "clear_hands", "event_turn", "events", "give", "hatch", "heuristic_position", "item",
           "kinds", "logged", "put_item_on_top", "put_on_top", "rejects", "stack_events", "start",
           "top_events"]


def arrange(players: int = 3, seed: int = 1, variants: Iterable[str] = (),
            per: int | None = None, empty_hands: bool = True, calm: bool = True,
            data: GameData | None = None) -> Game:
    """A set-up game before its first turn, in a neutral position.

    Gnomes stand in room 6 (no special room, no water, no fire); keepers on 44, 43, 42, ... in
    gnome order, so gnome 0 moves first (no icon on 44 or 43); hands empty unless asked.
    ``calm`` puts every Respite on top of the event deck (drawn first)."""
    g = new_game(Config(players=players, gnomes_per_player=per, seed=seed,
                        variants=frozenset(variants)), data=data, start=False)
    for i, gn in enumerate(g.gnomes):
        gn.room = 6
        gn.keeper = 44 - i
        gn.arrival = i + 1
    if empty_hands:
        clear_hands(g)
    if calm:
        stack_events(g, *["respite"] * 7)
    return g


def heuristic_position(seed: int, low: int, high: int,
                       variants: frozenset[str] = frozenset()) -> Game:
    """A 3-5 player game with ``variants`` after ``low`` to ``high`` heuristic moves (fewer if it
    ends), all drawn from ``seed``: positions for the bots' tests."""
    rnd = random.Random(seed)
    g = new_game(Config(players=rnd.choice([3, 4, 5]), seed=rnd.randrange(1 << 30),
                        variants=variants))
    bot = make_bot("heuristic", seed)
    for _ in range(rnd.randrange(low, high)):
        if g.is_over:
            break
        g.apply(bot.choose(g))
    return g


def start(g: Game) -> Game:
    """Begin the first turn (after checking the arranged position is consistent)."""
    check(g)
    turn.begin(g)
    return g


def item(g: Game, name: str) -> int:
    return g.data.item_index[name]


def hatch(g: Game, a: int, b: int) -> int:
    return g.data.hatch_between[(a, b)]


def block(g: Game, a: int, b: int, blocked: bool = True) -> None:
    g.blocked[hatch(g, a, b)] = blocked


def clear_hands(g: Game) -> None:
    """Every gnome's hand goes back under the item deck."""
    for gn in g.gnomes:
        g.item_deck[:0] = gn.hand
        gn.hand = []


def _take_item(g: Game, kind: int) -> None:
    for pile in (g.item_deck, g.item_discard):
        if kind in pile:
            pile.reverse()
            pile.remove(kind)  # the topmost copy
            pile.reverse()
            return
    for gn in g.gnomes:
        if kind in gn.hand:
            gn.hand.remove(kind)
            return
    if kind == g.data.stock_item and g.stock > 0:
        g.stock -= 1
        return
    raise AssertionError(f"no {g.item_name(kind)} left to take")


def give(g: Game, number: int, *names: str) -> None:
    """Move the named items (from the deck, the discards, others' hands or the stock) to a hand."""
    for name in names:
        kind = item(g, name)
        _take_item(g, kind)
        g.gnomes[number].hand.append(kind)


def put_item_on_top(g: Game, *names: str) -> None:
    """Item cards on top of the item deck; the first name is drawn first."""
    for name in reversed(names):
        kind = item(g, name)
        _take_item(g, kind)
        g.item_deck.append(kind)


def card(g: Game, kind: str, faint: Any = ANY, exclude: Iterable[int] = ()) -> int:
    """A card id of this kind (and faint number) that is in the deck or the discard pile."""
    skip = set(exclude)
    if kind == g.data.events[g.data.set_aside].kind and g.kraken_aside:
        g.kraken_aside = False  # take the set-aside Kraken card into the discard pile
        g.event_discard.append(g.data.set_aside)
    for pile in (g.event_deck, g.event_discard):
        for c in reversed(pile):
            ev = g.data.events[c]
            if c not in skip and ev.kind == kind and (faint is ANY or ev.faint == faint):
                return c
    raise AssertionError(f"no {kind} card with faint {faint} available")


def put_on_top(g: Game, kind: str, faint: Any = ANY, exclude: Iterable[int] = ()) -> int:
    """Move a card of this kind to the top of the event deck (drawn next). Returns its id."""
    c = card(g, kind, faint, exclude)
    (g.event_deck if c in g.event_deck else g.event_discard).remove(c)
    g.event_deck.append(c)
    return c


def stack_events(g: Game, *specs: str | tuple[str, Any]) -> list[int]:
    """Put cards on top of the event deck so that they are drawn in the order given.

    A spec is a kind, or ``(kind, faint)``. Returns the card ids in drawing order."""
    parsed = [(s, ANY) if isinstance(s, str) else s for s in specs]
    ids: list[int | None] = [None] * len(parsed)
    # cards with a given faint number first, so a plain kind does not take the one asked for
    for i in sorted(range(len(parsed)), key=lambda i: parsed[i][1] is ANY):
        kind, faint = parsed[i]
        ids[i] = card(g, kind, faint, exclude=[c for c in ids if c is not None])
    for c in reversed(ids):
        assert c is not None
        (g.event_deck if c in g.event_deck else g.event_discard).remove(c)
        g.event_deck.append(c)
    return [c for c in ids if c is not None]


def top_events(g: Game, n: int) -> list[str]:
    """The kinds of the next n event cards, in drawing order."""
    return [g.data.events[c].kind for c in reversed(g.event_deck[-n:])]


def logged(g: Game, name: str) -> list[tuple[Any, ...]]:
    """Log entries with this message id."""
    return [e for e in g.log if e[0] == name]


def events(g: Game) -> list[str]:
    """Kinds of the event cards resolved as events (not faint checks), in order."""
    return [g.data.events[e[1]].kind for e in g.log if e[0] == "event"]


def kinds(actions: Iterable[Action]) -> set[str]:
    return {a.kind for a in actions}


def act(g: Game, *texts: str) -> None:
    for t in texts:
        g.apply_text(t)


def rejects(g: Game, text_or_action: str | Action, match: str | None = None) -> ActionError:
    """The action raises ActionError and leaves the whole game (save form) unchanged."""
    before = to_dict(g)
    with pytest.raises(ActionError, match=match) as info:
        if isinstance(text_or_action, str):
            g.apply_text(text_or_action)
        else:
            g.apply(text_or_action)
    assert to_dict(g) == before
    return info.value


def event_turn(g: Game, *specs: str | tuple[str, Any], space: int = 45,
               dice: Iterable[int] = ()) -> Game:
    """Gnome 0 (keeper on ``space`` + 1, everyone else ahead of it) spends one minute on No
    Action, so its keeper meets the event icon on ``space``: the given cards are drawn there."""
    g.gnomes[0].keeper = space + 1
    for other in g.gnomes[1:]:
        if other.on_board:
            other.keeper = min(space - 1, other.keeper)
    stack_events(g, *specs)
    start(g)
    g.rng.forced = list(dice)
    g.apply_text("no_action")
    if g.phase == AFTER_ACTION:
        g.apply_text("end")
    return g


def bench_script(name: str) -> ModuleType:
    """The script bench/``name``.py, loaded as a module (bench/ is not a package; its scripts
    import each other, as they do when run, so bench/ goes on the path)."""
    bench = Path(__file__).resolve().parents[1] / "bench"
    if str(bench) not in sys.path:
        sys.path.append(str(bench))
    path = bench / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def leaf_rollouts(bot: Any, **own: Any) -> list[tuple[float | None, float | None, float | None]]:
    """On positions of a few heuristic games: the search ``bot``'s own rollout, the plain rollout
    with the options ``own`` (a level's leaf) and without them, each from a copy."""
    out = []
    for seed in range(6):
        g = heuristic_position(seed, 20, 60)
        if g.result is not None:
            continue
        player = g.player_to_move
        stop = max(gn.keeper for gn in g.on_track()) - 4
        out.append(tuple(r(g.copy(keep_log=False), (), player, stop, bot.weights, **kw)
                         for r, kw in ((bot.rollout, {}), (rollout, own), (rollout, {}))))
    return out
